//! `visa run` on kernels Intel's compiler wrote (the committed fixtures of
//! `tests/ocl/fixtures`, for acm-g10 at `-revision_id 0`: legacy gather/scatter, SVM and DWORD
//! atomics; and tgllp), their buffers checked against values this test works out from the
//! OpenCL C source (`tests/ocl/kernels/*.cl`) by its own arithmetic; and its command line:
//! every bad argument is named, with exit status 2, never a panic. The pocl comparison of many
//! more kernels is `interp_pocl.rs`.

#![cfg(not(family_absent))]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var_os("VISA_REPO")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    let found = candidates
        .into_iter()
        .find(|d| d.join("tests/ocl/fixtures").is_dir());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "tests/ocl/fixtures not found (set VISA_REPO); CI is set"
        );
        println!("skipped: tests/ocl/fixtures not found; set VISA_REPO to the repository");
    }
    found
}

/// Runs `visa run` with `args` in a fresh directory.
fn run(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(support::visa_tool().unwrap())
        .arg("run")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("visa runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked"),
        "visa run {args:?} panicked: {stderr}"
    );
    out
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("visa-run-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write_i32(path: &Path, v: &[i32]) {
    std::fs::write(
        path,
        v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>(),
    )
    .unwrap();
}

fn read_i32(path: &Path) -> Vec<i32> {
    std::fs::read(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// A deterministic pseudo-random sequence (splitmix64).
fn values(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

const DEVICES: &[&str] = &["acm-g10-rev0", "tgllp"];

fn fixture(repo: &Path, device: &str, stem: &str) -> PathBuf {
    repo.join("tests/ocl/fixtures")
        .join(device)
        .join(format!("{stem}.isa"))
}

/// Whether the run succeeded; a kernel with an instruction the machine does not run yet (not
/// this test's subject: launch, the payload and the memory messages are) is skipped on that
/// platform with the reason printed. Any other failure fails the test.
fn ok(out: &Output, what: &str) -> bool {
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && stderr.contains("cannot run yet") {
        println!("skipped {what}: {stderr}");
        return false;
    }
    assert!(
        out.status.success(),
        "{what}: exit {:?}\n{stderr}",
        out.status.code()
    );
    true
}

#[test]
fn arith_int_on_both_platforms() {
    // arith_int(global int *a, global const int *b, global uint *u, int k):
    //   x = a[i], y = b[i] | 1, ux = u[i];
    //   a[i] = (x + y) * k - (x / y) + (x % y) + (x << 3) + (x >> 2) + (ux >> 5);
    //   u[i] = (ux & 0xff00ff) ^ (ux | 7) ^ ~ux ^ min(ux, 9u) ^ max(ux, 3u) ^ abs(x) ^ (ux * 13u);
    let (Some(repo), Some(_)) = (repo(), support::visa_tool()) else {
        return;
    };
    let n = 64;
    let a: Vec<i32> = values(1, n)
        .iter()
        .map(|v| (v % 20001) as i32 - 10000)
        .collect();
    let b: Vec<i32> = values(2, n)
        .iter()
        .map(|v| (v % 401) as i32 - 200)
        .collect();
    let u: Vec<i32> = values(3, n).iter().map(|v| *v as u32 as i32).collect();
    let k = -7i32;
    let mut want_a = Vec::new();
    let mut want_u = Vec::new();
    for i in 0..n {
        let (x, y, ux) = (a[i], b[i] | 1, u[i] as u32);
        let s = (x + y) * k - x / y + x % y + (x << 3) + (x >> 2);
        want_a.push((s as u32).wrapping_add(ux >> 5) as i32);
        let r = (ux & 0xff00ff)
            ^ (ux | 7)
            ^ !ux
            ^ ux.min(9)
            ^ ux.max(3)
            ^ x.unsigned_abs()
            ^ ux.wrapping_mul(13);
        want_u.push(r as i32);
    }
    let mut ran = 0;
    for (device, local) in DEVICES.iter().zip(["16", "32"]) {
        let d = scratch(&format!("arith-{device}"));
        write_i32(&d.join("a.bin"), &a);
        write_i32(&d.join("b.bin"), &b);
        write_i32(&d.join("u.bin"), &u);
        let isa = fixture(&repo, device, "arith_int.arith_int");
        let k = format!("i32:{k}");
        let out = run(
            &d,
            &[
                isa.to_str().unwrap(),
                "--kernel",
                "arith_int",
                "--global",
                "64",
                "--local",
                local,
                "--buffer",
                "a.bin:a.out",
                "--buffer",
                "b.bin:b.out",
                "--buffer",
                "u.bin:u.out",
                "--scalar",
                &k,
            ],
        );
        if !ok(&out, device) {
            continue;
        }
        ran += 1;
        assert_eq!(read_i32(&d.join("a.out")), want_a, "{device}: a");
        assert_eq!(
            read_i32(&d.join("b.out")),
            b,
            "{device}: b comes back unchanged"
        );
        assert_eq!(read_i32(&d.join("u.out")), want_u, "{device}: u");
        std::fs::remove_dir_all(&d).unwrap();
    }
    assert!(ran > 0, "ran on no platform");
}

#[test]
fn atomics_global_on_both_platforms() {
    // atomics_global(global int *c, global uint *u, global const int *v): every work-item
    // applies v[i] to c[0] (add), c[1] (sub), c[2] (min), c[3] (max), u[0] (and), u[1] (or),
    // u[2] (xor), c[4] (xchg), c[5] (cmpxchg with 0), u[3] (unsigned min).
    let (Some(repo), Some(_)) = (repo(), support::visa_tool()) else {
        return;
    };
    let n = 96;
    let v: Vec<i32> = values(4, n)
        .iter()
        .map(|x| (x % 2001) as i32 - 1000)
        .collect();
    let c0 = [5, 5, 0, 0, -1, 0];
    let u0 = [0xffff_ffffu32 as i32, 0, 0x5555, -1];
    let mut ran = 0;
    for device in DEVICES {
        let d = scratch(&format!("atomics-{device}"));
        write_i32(&d.join("c.bin"), &c0);
        write_i32(&d.join("u.bin"), &u0);
        write_i32(&d.join("v.bin"), &v);
        let isa = fixture(&repo, device, "atomics_global.atomics_global");
        let out = run(
            &d,
            &[
                isa.to_str().unwrap(),
                "--kernel",
                "atomics_global",
                "--global",
                "96",
                "--local",
                "32",
                "--buffer",
                "c.bin:c.out",
                "--buffer",
                "u.bin:u.out",
                "--buffer",
                "v.bin:v.out",
            ],
        );
        if !ok(&out, device) {
            continue;
        }
        ran += 1;
        let c = read_i32(&d.join("c.out"));
        let u = read_i32(&d.join("u.out"));
        let sum: i32 = v.iter().sum();
        assert_eq!(c[0], 5 + sum, "{device}: add");
        assert_eq!(c[1], 5 - sum, "{device}: sub");
        assert_eq!(c[2], 0.min(*v.iter().min().unwrap()), "{device}: min");
        assert_eq!(c[3], 0.max(*v.iter().max().unwrap()), "{device}: max");
        // xchg and cmpxchg leave one of the values (which one depends on the order).
        assert!(v.contains(&c[4]), "{device}: xchg {}", c[4]);
        assert!(v.contains(&c[5]), "{device}: cmpxchg {}", c[5]);
        let and = v.iter().fold(u0[0] as u32, |acc, x| acc & *x as u32);
        let or = v.iter().fold(u0[1] as u32, |acc, x| acc | *x as u32);
        let xor = v.iter().fold(u0[2] as u32, |acc, x| acc ^ *x as u32);
        let umin = v.iter().fold(u0[3] as u32, |acc, x| acc.min(*x as u32));
        assert_eq!(
            u.iter().map(|x| *x as u32).collect::<Vec<_>>(),
            [and, or, xor, umin],
            "{device}: u"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
    assert!(ran > 0, "ran on no platform");
}

#[test]
fn local_memory_reduction_with_a_local_mem_argument() {
    // local_memory(global const float *in, global float *out, local float *scratch): each
    // work-group sums its inputs by a tree in SLM (barriers between the steps), work-item 0
    // writes out[group]. Small integers as floats: every order of the sums is exact.
    let (Some(repo), Some(_)) = (repo(), support::visa_tool()) else {
        return;
    };
    let n = 128usize;
    let input: Vec<f32> = values(5, n)
        .iter()
        .map(|x| (x % 200) as f32 - 100.0)
        .collect();
    let mut ran = 0;
    for (device, local) in DEVICES.iter().zip([32usize, 16]) {
        let d = scratch(&format!("local-{device}"));
        std::fs::write(
            d.join("in.bin"),
            input
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect::<Vec<u8>>(),
        )
        .unwrap();
        std::fs::write(d.join("out.bin"), vec![0u8; 4 * n / local]).unwrap();
        let isa = fixture(&repo, device, "local_memory.local_memory");
        let (l, bytes) = (local.to_string(), (4 * local).to_string());
        // The kernel calls get_local_size: its inputs fit the global size or the number of
        // groups too, so the layout comes from the program binary beside it.
        let bin = isa.with_extension("bin");
        let out = run(
            &d,
            &[
                isa.to_str().unwrap(),
                "--program",
                bin.to_str().unwrap(),
                "--kernel",
                "local_memory",
                "--global",
                "128",
                "--local",
                &l,
                "--buffer",
                "in.bin:in.out",
                "--buffer",
                "out.bin:out.out",
                "--local-mem",
                &bytes,
            ],
        );
        if !ok(&out, device) {
            continue;
        }
        ran += 1;
        let got: Vec<f32> = std::fs::read(d.join("out.out"))
            .unwrap()
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let want: Vec<f32> = input.chunks(local).map(|g| g.iter().sum()).collect();
        assert_eq!(got, want, "{device}");
        std::fs::remove_dir_all(&d).unwrap();
    }
    assert!(ran > 0, "ran on no platform");
}

#[test]
fn bad_command_lines_are_named_never_a_panic() {
    let (Some(repo), Some(_)) = (repo(), support::visa_tool()) else {
        return;
    };
    let d = scratch("bad");
    std::fs::write(d.join("a.bin"), [0u8; 256]).unwrap();
    let isa = fixture(&repo, "tgllp", "arith_int.arith_int");
    let isa = isa.to_str().unwrap();
    let good = ["--kernel", "arith_int", "--global", "64", "--local", "16"];
    let args4 = [
        "--buffer",
        "a.bin:a.out",
        "--buffer",
        "a.bin:b.out",
        "--buffer",
        "a.bin:u.out",
        "--scalar",
        "i32:1",
    ];
    let with = |extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = vec![isa.to_string()];
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let full = |ndr: &[&'static str], args: &[&'static str]| -> Vec<String> {
        let mut v = with(ndr);
        v.extend(args.iter().map(|s| s.to_string()));
        v
    };
    let cases: Vec<(Vec<String>, i32, &str)> = vec![
        (vec![], 2, "FILE"),
        (with(&["--global", "64"]), 2, "--kernel"),
        (with(&["--kernel", "arith_int"]), 2, "--global"),
        (
            with(&["--kernel", "nope", "--global", "64"]),
            2,
            "no kernel `nope`",
        ),
        (full(&good, &["--scalar", "i32:x"]), 2, "`x` is not a i32"),
        (full(&good, &["--scalar", "int:1"]), 2, "unknown type `int`"),
        (full(&good, &["--buffer", "a.bin"]), 2, "IN.bin:OUT.bin"),
        (
            full(&good, &["--local-mem", "-4"]),
            2,
            "positive byte count",
        ),
        (
            full(
                &["--kernel", "arith_int", "--global", "64", "--local", "48"],
                &args4,
            ),
            2,
            "not a multiple",
        ),
        (
            full(
                &[
                    "--kernel",
                    "arith_int",
                    "--global",
                    "64",
                    "--platform",
                    "nowhere",
                ],
                &args4,
            ),
            2,
            "--platform nowhere",
        ),
        (
            full(
                &good,
                &[
                    "--buffer",
                    "a.bin:a.out",
                    "--buffer",
                    "a.bin:b.out",
                    "--buffer",
                    "a.bin:u.out",
                    "--scalar",
                    "i64:1",
                ],
            ),
            2,
            "parameter 3 (--scalar) has an input of 4 bytes",
        ),
        // A `local` pointer where the kernel has an int: the int's 4-byte input is where the
        // third buffer's 8-byte address would go.
        (
            full(
                &good,
                &[
                    "--buffer",
                    "a.bin:a.out",
                    "--buffer",
                    "a.bin:b.out",
                    "--buffer",
                    "a.bin:u.out",
                    "--local-mem",
                    "64",
                ],
            ),
            2,
            "parameter 2 (--buffer)",
        ),
        (
            full(
                &good,
                &[
                    "--buffer",
                    "missing.bin:a.out",
                    "--buffer",
                    "a.bin:b.out",
                    "--buffer",
                    "a.bin:u.out",
                    "--scalar",
                    "i32:1",
                ],
            ),
            1,
            "cannot read missing.bin",
        ),
        (
            vec![
                "no-such.isa".into(),
                "--kernel".into(),
                "k".into(),
                "--global".into(),
                "1".into(),
            ],
            1,
            "no-such.isa",
        ),
    ];
    for (args, code, want) in cases {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&d, &refs);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{refs:?}: {stderr}");
        assert!(
            stderr.contains(want),
            "{refs:?}: expected `{want}` in: {stderr}"
        );
    }
    std::fs::remove_dir_all(&d).unwrap();
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn zeinfo_and_program_binaries_give_the_layout_or_say_where_they_are_wrong() {
    let (Some(repo), Some(_)) = (repo(), support::visa_tool()) else {
        return;
    };
    let d = scratch("zeinfo");
    let a: Vec<i32> = (0..64).map(|i| i * 7 - 100).collect();
    let b: Vec<i32> = (0..64).map(|i| 3 - i).collect();
    write_i32(&d.join("a.bin"), &a);
    write_i32(&d.join("b.bin"), &b);
    std::fs::write(d.join("u.bin"), [0u8; 256]).unwrap();
    let isa = fixture(&repo, "tgllp", "arith_int.arith_int");
    let bin = isa.with_extension("bin");
    let isa = isa.to_str().unwrap().to_string();
    let args = |extra: &[&str], tag: &str| -> Vec<String> {
        let mut v = vec![isa.clone()];
        v.extend(extra.iter().map(|s| s.to_string()));
        let outs = [("a.bin", "a"), ("b.bin", "b"), ("u.bin", "u")];
        v.extend(["--kernel", "arith_int", "--global", "64", "--local", "16"].map(String::from));
        for (input, name) in outs {
            v.push("--buffer".into());
            v.push(format!("{input}:{name}.{tag}"));
        }
        v.extend(["--scalar".to_string(), "i32:5".to_string()]);
        v
    };

    // The layout of the patch tokens gives the same bytes as the one read from the `.isa`.
    let bin = bin.to_str().unwrap();
    let plain = run(&d, &strs(&args(&[], "isa")));
    let described = run(&d, &strs(&args(&["--program", bin], "bin")));
    if ok(&plain, "arith_int from the .isa") && ok(&described, "arith_int --program") {
        for n in ["a", "b", "u"] {
            assert_eq!(
                std::fs::read(d.join(format!("{n}.isa"))).unwrap(),
                std::fs::read(d.join(format!("{n}.bin"))).unwrap(),
                "buffer {n}"
            );
        }
    }
    // A zeinfo that is wrong at line 4, column 18: the file, the place and what was expected.
    std::fs::write(
        d.join("bad.zeinfo"),
        "kernels:\n  - name: arith_int\n    execution_env:\n      simd_size: 12\n",
    )
    .unwrap();
    let out = run(&d, &strs(&args(&["--zeinfo", "bad.zeinfo"], "z")));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: bad.zeinfo:4:18: `simd_size`: expected 1, 8, 16 or 32, found 12"
    );
    // Not an ELF; both flags at once; a kernel the description does not name.
    let out = run(&d, &strs(&args(&["--program", "a.bin"], "z")));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a.bin: not an ELF file"));
    let out = run(
        &d,
        &strs(&args(&["--program", bin, "--zeinfo", "bad.zeinfo"], "z")),
    );
    assert_eq!(out.status.code(), Some(2));
    std::fs::write(
        d.join("other.zeinfo"),
        "kernels:\n  - name: other\n    execution_env: {simd_size: 16}\n",
    )
    .unwrap();
    let out = run(&d, &strs(&args(&["--zeinfo", "other.zeinfo"], "z")));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("describes no such kernel (it has: other)"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
