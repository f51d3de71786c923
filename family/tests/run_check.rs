//! `visa run --check` on OpenCL kernels with the faults a GPU hides (`tests/check/faults.cl`:
//! an off-by-one read past a buffer, a write past the SLM, a barrier inside
//! `if (get_local_id(0) < 3)`, races on `local` and on global memory with no barrier) and one
//! without, compiled by Intel's compiler (`intel-isa ocl`) for tgllp (legacy messages) and
//! acm-g10 (LSC): each report's kind, kernel, instruction (offset and Intel's text, found in
//! Intel's own `.visaasm`), lane, address and what, and the exit status and count. Without
//! `--check` the run behaves as before; `--max-steps` stops a run at its budget. The existing
//! oracle kernels run with `--check` in `interp_pocl.rs`, which fails on any finding.

#![cfg(not(family_absent))]

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

/// (ocloc device, extra ocloc arguments): legacy gather/scatter on tgllp, LSC on acm-g10.
const PLATFORMS: &[(&str, &str)] = &[("tgllp", ""), ("acm-g10", "")];

fn skip(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{what}; CI is set: it must be present"
    );
    println!("skipped: {what}");
}

/// The kernels of `faults.cl` compiled for each platform, once for the tests of this file.
fn compiled() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(compile).clone()
}

/// Compiles `faults.cl` for each platform into a fresh directory.
fn compile() -> Option<PathBuf> {
    let shared = support::shared()?;
    let intel_isa = shared.join("tools/intel-isa/intel-isa");
    let ocloc = Command::new("ocloc").arg("--help").output().is_ok();
    if !intel_isa.is_file() || !ocloc {
        skip("Intel's compiler (../shared/tools/intel-isa, ocloc) is missing");
        return None;
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/check/faults.cl");
    let base = option_env!("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join("run-check");
    let _ = std::fs::remove_dir_all(&dir);
    for (device, args) in PLATFORMS {
        let out = Command::new(&intel_isa)
            .arg("ocl")
            .arg(&src)
            .arg(device)
            .arg(dir.join(device))
            .env("INTEL_ISA_WORK", dir.join("work").join(device))
            .env("INTEL_ISA_OCLOC_ARGS", args)
            .output()
            .expect("intel-isa runs");
        assert!(
            out.status.success(),
            "intel-isa ocl faults.cl {device}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Some(dir)
}

/// One `error:` line of `--check`, split into its fields.
#[derive(Debug)]
struct Report {
    kind: String,
    kernel: String,
    thread: String,
    lane: Option<String>,
    address: Option<String>,
    offset: String,
    text: String,
    what: String,
}

/// `error: KIND: kernel `K`, work-group (X, Y, Z), thread T[, lane L][, address A]: ROUTINE
/// at instruction offset O `TEXT`: WHAT`.
fn parse(line: &str) -> Option<Report> {
    let rest = line.strip_prefix("error: ")?;
    let (kind, rest) = rest.split_once(": kernel `")?;
    let (kernel, rest) = rest.split_once("`, work-group (")?;
    let (_, rest) = rest.split_once("), thread ")?;
    let (who, rest) = rest.split_once(": ")?;
    let mut parts = who.split(", ");
    let thread = parts.next()?.to_string();
    let (mut lane, mut address) = (None, None);
    for p in parts {
        if let Some(l) = p.strip_prefix("lane ") {
            lane = Some(l.to_string());
        } else if let Some(a) = p.strip_prefix("address ") {
            address = Some(a.to_string());
        }
    }
    let (_, rest) = rest.split_once(" at instruction offset ")?;
    let (offset, rest) = rest.split_once(" `")?;
    let (text, what) = rest.split_once("`: ")?;
    Some(Report {
        kind: kind.into(),
        kernel: kernel.into(),
        thread,
        lane,
        address,
        offset: offset.into(),
        text: text.into(),
        what: what.into(),
    })
}

struct Run {
    code: i32,
    reports: Vec<Report>,
    stderr: String,
    dir: PathBuf,
}

/// `visa run` of kernel `k` compiled for `device`, with `--check` when `check`; `buffers`
/// are the initial bytes of each buffer argument, `extra` the other words after them.
fn run(dir: &Path, device: &str, k: &str, check: bool, buffers: &[&[u8]], extra: &[&str]) -> Run {
    let out_dir = dir
        .join("out")
        .join(device)
        .join(k)
        .join(if check { "c" } else { "n" });
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_visa"));
    cmd.arg("run")
        .arg(dir.join(device).join(format!("{k}.isa")))
        .args(["--kernel", k, "--global", "16", "--local", "16"]);
    if check {
        cmd.arg("--check");
    }
    for (i, b) in buffers.iter().enumerate() {
        let (input, output) = (
            out_dir.join(format!("{i}.in")),
            out_dir.join(format!("{i}.out")),
        );
        std::fs::write(&input, b).unwrap();
        cmd.arg("--buffer")
            .arg(format!("{}:{}", input.display(), output.display()));
    }
    let out = cmd.args(extra).output().expect("visa runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let reports = stderr.lines().filter_map(parse).collect();
    Run {
        code: out.status.code().unwrap_or(-1),
        reports,
        stderr,
        dir: out_dir,
    }
}

fn ints(v: impl IntoIterator<Item = i32>) -> Vec<u8> {
    v.into_iter().flat_map(i32::to_le_bytes).collect()
}

/// The single report of a run that found one fault, checked against the kernel's name,
/// Intel's text of the kernel (the instruction's text is one of its lines) and the count.
fn single<'r>(r: &'r Run, dir: &Path, device: &str, k: &str, count: u32) -> &'r Report {
    assert_eq!(r.code, 1, "{device} {k}: a finding exits 1:\n{}", r.stderr);
    assert_eq!(
        r.reports.len(),
        1,
        "{device} {k}: one report:\n{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains(&format!("check: {count} finding(s) at 1 instruction(s)")),
        "{device} {k}:\n{}",
        r.stderr
    );
    let rep = &r.reports[0];
    assert_eq!(rep.kernel, k);
    assert_eq!(
        rep.thread, "0",
        "{device} {k}: 16 work-items fit one thread"
    );
    assert!(rep.offset.starts_with("0x"), "{rep:?}");
    let intel = std::fs::read_to_string(dir.join(device).join(format!("{k}.visaasm"))).unwrap();
    assert!(
        intel
            .lines()
            .any(|l| l.trim_start().starts_with(rep.text.as_str())),
        "{device} {k}: `{}` is no instruction of Intel's text",
        rep.text
    );
    rep
}

#[test]
fn check_reports_each_fault_with_its_place() {
    let Some(dir) = compiled() else { return };
    let input = ints(100..116);
    let zero = vec![0u8; 64];
    for (device, _) in PLATFORMS {
        // in[i + 1]: work-item 15 reads in[16], bytes 64..68 of the 64-byte buffer.
        let r = run(&dir, device, "oob_read", true, &[&input, &zero], &[]);
        let rep = single(&r, &dir, device, "oob_read", 1);
        assert_eq!(rep.kind, "out-of-bounds access");
        assert_eq!(
            (rep.lane.as_deref(), rep.address.as_deref()),
            (Some("15"), Some("0x40"))
        );
        assert!(
            rep.what
                .starts_with("4-byte read at 0x40 in surface bti(0)"),
            "{rep:?}"
        );
        assert!(rep.what.contains("64-byte buffer"), "{rep:?}");

        // s[l + 16369]: work-item 15 writes s[16384], SLM bytes 0x10000..0x10004 of 0x10000.
        let r = run(
            &dir,
            device,
            "slm_overflow",
            true,
            &[&zero],
            &["--scalar", "i32:16369"],
        );
        let rep = single(&r, &dir, device, "slm_overflow", 1);
        assert_eq!(rep.kind, "out-of-bounds access");
        assert_eq!(
            (rep.lane.as_deref(), rep.address.as_deref()),
            (Some("15"), Some("0x10000"))
        );
        assert!(
            rep.what.starts_with("4-byte write at 0x10000 in SLM"),
            "{rep:?}"
        );

        // if (l < 3) barrier(): lanes 0-2 wait, 3-15 never come.
        let r = run(&dir, device, "barrier_divergent", true, &[&zero], &[]);
        let rep = single(&r, &dir, device, "barrier_divergent", 1);
        assert_eq!(rep.kind, "divergent barrier");
        assert_eq!(
            (rep.lane.as_deref(), rep.address.as_deref()),
            (Some("3"), None)
        );
        assert_eq!(rep.text, "barrier");
        assert!(
            rep.what.starts_with(
                "lane(s) 3-15 of thread 0 do not reach this barrier, which lane(s) 0-2 wait at"
            ),
            "{rep:?}"
        );
    }
}

#[test]
fn check_reports_races_on_local_and_global_memory() {
    let Some(dir) = compiled() else { return };
    let zero = vec![0u8; 64];
    for (device, _) in PLATFORMS {
        // s[l] = l, then s[(l + 1) & 15]: lane l reads what lane l + 1 wrote; the first
        // reported is lane 0 reading bytes 4..8, written by lane 1; 16 in all.
        let r = run(&dir, device, "slm_race", true, &[&zero], &[]);
        let rep = single(&r, &dir, device, "slm_race", 16);
        assert_eq!(rep.kind, "data race");
        assert_eq!(
            (rep.lane.as_deref(), rep.address.as_deref()),
            (Some("0"), Some("0x4"))
        );
        assert!(rep.what.starts_with("read of SLM at 0x4 races with the write of thread 0, lane 1 at instruction offset 0x"), "{rep:?}");
        assert!(
            rep.what
                .ends_with("with no barrier between (15 more like it at this instruction)"),
            "{rep:?}"
        );

        // The same through global buffer 0 (binding-table index 0).
        let r = run(&dir, device, "global_race", true, &[&zero, &zero], &[]);
        let rep = single(&r, &dir, device, "global_race", 16);
        assert_eq!(
            (rep.lane.as_deref(), rep.address.as_deref()),
            (Some("0"), Some("0x4"))
        );
        assert!(
            rep.what.starts_with(
                "read of surface bti(0) at 0x4 races with the write of thread 0, lane 1"
            ),
            "{rep:?}"
        );

        // With the barrier, nothing: exit 0 and a count of 0; out[l] = (l + 1) & 15.
        let r = run(&dir, device, "slm_shift", true, &[&zero], &[]);
        assert_eq!(r.code, 0, "{device}:\n{}", r.stderr);
        assert!(
            r.reports.is_empty() && r.stderr.contains("check: 0 finding(s)"),
            "{}",
            r.stderr
        );
        let out = std::fs::read(r.dir.join("0.out")).unwrap();
        assert_eq!(out, ints((0..16).map(|l| (l + 1) & 15)));
    }
}

#[test]
fn without_check_the_run_is_as_before_and_the_budget_stops_it() {
    let Some(dir) = compiled() else { return };
    let input = ints(100..116);
    let zero = vec![0u8; 64];
    for (device, _) in PLATFORMS {
        // A surface read out of bounds gives zeros, silently but for a note: out[i] =
        // in[i + 1] = 101 + i, and out[15] = 0.
        let r = run(&dir, device, "oob_read", false, &[&input, &zero], &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.reports.is_empty() && !r.stderr.contains("check:"),
            "{}",
            r.stderr
        );
        let out = std::fs::read(r.dir.join("1.out")).unwrap();
        assert_eq!(out, ints((0..16).map(|i| if i < 15 { 101 + i } else { 0 })));
        // An SLM access past the SLM stops the run, naming the address.
        let r = run(
            &dir,
            device,
            "slm_overflow",
            false,
            &[&zero],
            &["--scalar", "i32:16369"],
        );
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(
            r.stderr
                .contains("4-byte access at 0x10000 in SLM falls outside every buffer"),
            "{}",
            r.stderr
        );
        // Ten instructions are not enough for any of these kernels.
        let r = run(
            &dir,
            device,
            "slm_shift",
            false,
            &[&zero],
            &["--max-steps", "10"],
        );
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(
            r.stderr
                .contains("more than 10 instructions run (every thread of the run together)")
                && r.stderr.contains("--max-steps N"),
            "{}",
            r.stderr
        );
    }
}
