//! The machine (`visa::machine`) runs small hand-written kernels: arithmetic through the
//! generated lane functions, regions, predicates, divergent gotos and loops, subroutine calls
//! and function calls in divergent code, barriers between threads, and its errors. Each kernel
//! is vISA text assembled by `visa::asm` (the assembler `asm.rs` checks against Intel's
//! bytes); results are read from the kernel's variables, worked out by hand per lane. The
//! real dg2 kernels load (declarations placed, labels and callees resolved).

#![cfg(not(family_absent))]
#![cfg(feature = "machine")]

use visa::asm::{assemble_for, Options, Source};
use visa::machine::exec::{Status, Thread};
use visa::machine::memory::Memory;
use visa::machine::{Kernel, ThreadInit};
use visa::object::File;
use visa::runtime::IntelPlatform;
use visa::Platform;

mod support;

fn dg2() -> (&'static IntelPlatform, Platform) {
    let p = IntelPlatform::find("DG2").expect("DG2 is a platform");
    (p, p.platform())
}

fn assemble(sources: &[(&str, &str)]) -> File {
    let sources: Vec<Source> = sources
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    match assemble_for(&sources, Options::default(), dg2().0) {
        Ok(f) => f,
        Err(d) => panic!("does not assemble: {d:?}"),
    }
}

/// The GRF payload: `%r0` (zero), then A (16 D) at 32, B (16 D) at 96, N (D) at 160.
fn payload(a: &[i32; 16], b: &[i32; 16], n: i32) -> Vec<u8> {
    let mut input = vec![0u8; 192];
    for i in 0..16 {
        input[32 + 4 * i..36 + 4 * i].copy_from_slice(&a[i].to_le_bytes());
        input[96 + 4 * i..100 + 4 * i].copy_from_slice(&b[i].to_le_bytes());
    }
    input[160..164].copy_from_slice(&n.to_le_bytes());
    input
}

fn init(a: &[i32; 16], b: &[i32; 16], n: i32, lanes: u32) -> ThreadInit {
    ThreadInit {
        input: payload(a, b, n),
        group_id: [0; 3],
        local_size: [16, 1, 1],
        lanes,
    }
}

/// Runs one thread of kernel `name`; its variable `var` as D values.
fn run(file: &File, name: &str, init: &ThreadInit, vars: &[&str]) -> Vec<Vec<i32>> {
    let k = Kernel::new(file, name, dg2().1).expect("the kernel loads");
    let mut ts = vec![k.thread(init).expect("a thread")];
    if let Err(e) = k.run_threads(&mut ts, &mut Memory::default()) {
        panic!("{name}: {e}");
    }
    assert_eq!(ts[0].status, Status::Done);
    vars.iter().map(|v| d_values(&k, &ts[0], v)).collect()
}

fn d_values(k: &Kernel, t: &Thread, var: &str) -> Vec<i32> {
    let id = k
        .variable_id(var)
        .unwrap_or_else(|| panic!("no variable {var}"));
    let bytes = k.variable(t, id).expect("the variable's bytes");
    bytes
        .chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

const HEAD: &str = r#".version 4.1
.kernel "k"
.decl A v_type=G type=d num_elts=16 align=hword
.decl B v_type=G type=d num_elts=16 align=hword
.decl C v_type=G type=d num_elts=16 align=hword
.decl S v_type=G type=d num_elts=16 align=hword
.decl I v_type=G type=d num_elts=16 align=hword
.decl N v_type=G type=d num_elts=1 align=dword
.decl F v_type=G type=f num_elts=16 align=hword
.decl UB v_type=G type=ub num_elts=32 align=hword
.decl W v_type=G type=d num_elts=16 align=hword
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
.input A offset=32 size=64
.input B offset=96 size=64
.input N offset=160 size=4
.kernel_attr SimdSize=16
"#;

fn kernel(body: &str) -> String {
    format!("{HEAD}.function \"_main_0\"\n\n_main_0:\n{body}")
}

fn lanes16() -> [i32; 16] {
    core::array::from_fn(|i| i as i32)
}

#[test]
fn arithmetic_regions_and_saturation() {
    let text = kernel(
        "    add (M1, 16) C(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
    mul (M1, 8) S(0,0)<2> A(0,1)<0;1,0> (-)B(0,0)<2;1,0>
    shl (M1_NM, 1) N(0,0)<1> N(0,0)<0;1,0> 0x4:d
    mov.sat (M1, 16) UB(0,0)<2> C(0,0)<1;1,0>
    ret (M1, 1)
",
    );
    let file = assemble(&[("k.visaasm", &text)]);
    let a = lanes16();
    let b: [i32; 16] = core::array::from_fn(|i| 100 * i as i32 - 300);
    let out = run(&file, "k", &init(&a, &b, 3, 16), &["C", "S", "N", "UB"]);
    let c: Vec<i32> = (0..16).map(|i| a[i] + b[i]).collect();
    assert_eq!(out[0], c);
    // S<2> at lanes 0..8: A(0,1) = 1 times -B(0,2*lane)... region <2;1,0> steps 2 elements.
    for lane in 0..8 {
        assert_eq!(out[1][2 * lane], -b[2 * lane], "S lane {lane}");
        assert_eq!(out[1][2 * lane + 1], 0);
    }
    assert_eq!(out[2], vec![3 << 4]);
    // UB<2>: C saturated to 0..=255 at even bytes.
    let ub: Vec<u8> = out[3].iter().flat_map(|w| w.to_le_bytes()).collect();
    for lane in 0..16 {
        assert_eq!(
            i32::from(ub[2 * lane]),
            c[lane].clamp(0, 255),
            "UB lane {lane}"
        );
    }
}

#[test]
fn sel_selects_on_the_predicate_in_every_enabled_lane() {
    // SEL.md: `if (EM[i]) { dst[i] = Pred[i] ? src0[i] : src1[i]; }`: the predicate selects,
    // it does not disable lanes.
    let text = kernel(
        "    cmp.lt (M1, 16) P1 A(0,0)<1;1,0> 0x5:d
    (P1) sel (M1, 16) C(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
    ret (M1, 1)
",
    );
    let file = assemble(&[("k.visaasm", &text)]);
    let a = lanes16();
    let b: [i32; 16] = core::array::from_fn(|i| 100 + i as i32);
    let out = run(&file, "k", &init(&a, &b, 0, 16), &["C"]);
    let want: Vec<i32> = (0..16)
        .map(|i| if a[i] < 5 { a[i] } else { b[i] })
        .collect();
    assert_eq!(out[0], want);
}

#[test]
fn madw_writes_low_dwords_then_high_dwords() {
    // MADW.md: 32b*32b+32b -> 64b, "the low 32b of results are stored in the lower GRFs and the
    // high 32b of results are stored in the high GRFs": 8 lanes of D fill one 32-byte GRF.
    let text = kernel(
        "    madw (M1, 8) W(0,0)<1> A(0,0)<1;1,0> 0x7fffffff:d 0x10:d
    ret (M1, 1)
",
    );
    let file = assemble(&[("k.visaasm", &text)]);
    let a: [i32; 16] = core::array::from_fn(|i| i as i32 - 4);
    let out = run(&file, "k", &init(&a, &a, 0, 16), &["W"]);
    for lane in 0..8 {
        let full = i64::from(a[lane]) * 0x7fff_ffff + 16;
        assert_eq!(out[0][lane], full as i32, "low dword of lane {lane}");
        assert_eq!(
            out[0][lane + 8],
            (full >> 32) as i32,
            "high dword of lane {lane}"
        );
    }
}

#[test]
fn predicated_gotos_diverge_and_reconverge() {
    // if (A < 5) C = A * 10 else C = -A; then C += 1 for every lane.
    let text = kernel(
        "    cmp.lt (M1, 16) P1 A(0,0)<1;1,0> 0x5:d
    (!P1) goto (M1, 16) ELSE
    mul (M1, 16) C(0,0)<1> A(0,0)<1;1,0> 0xa:d
    goto (M1, 1) ENDIF

ELSE:
    mov (M1, 16) C(0,0)<1> (-)A(0,0)<1;1,0>

ENDIF:
    add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x1:d
    ret (M1, 1)
",
    );
    let file = assemble(&[("k.visaasm", &text)]);
    let a = lanes16();
    let out = run(&file, "k", &init(&a, &a, 0, 16), &["C"]);
    let want: Vec<i32> = a
        .iter()
        .map(|&x| if x < 5 { x * 10 + 1 } else { 1 - x })
        .collect();
    assert_eq!(out[0], want);
}

#[test]
fn a_loop_runs_each_lane_its_own_count_and_dispatch_masks_lanes() {
    // S = A + (A-1) + ... + 1 per lane: a do-while on a backward goto.
    let text = kernel(
        "    mov (M1, 16) S(0,0)<1> 0x0:d
    mov (M1, 16) I(0,0)<1> A(0,0)<1;1,0>

LOOP:
    add (M1, 16) S(0,0)<1> S(0,0)<1;1,0> I(0,0)<1;1,0>
    add (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0xffffffff:d
    cmp.gt (M1, 16) P1 I(0,0)<1;1,0> 0x0:d
    (P1) goto (M1, 16) LOOP
    ret (M1, 1)
",
    );
    let file = assemble(&[("k.visaasm", &text)]);
    let a = lanes16();
    let out = run(&file, "k", &init(&a, &a, 0, 16), &["S"]);
    let want: Vec<i32> = a.iter().map(|&x| x * (x + 1) / 2).collect();
    assert_eq!(out[0], want);
    // A thread of 5 live lanes leaves the other lanes' S untouched (0).
    let out = run(&file, "k", &init(&a, &a, 0, 5), &["S"]);
    let want: Vec<i32> = a
        .iter()
        .map(|&x| if x < 5 { x * (x + 1) / 2 } else { 0 })
        .collect();
    assert_eq!(out[0], want);
}

#[test]
fn subroutines_run_with_the_calling_lanes() {
    let text = kernel(
        "    mov (M1, 16) C(0,0)<1> 0x7:d
    cmp.lt (M1, 16) P1 A(0,0)<1;1,0> 0x8:d
    (P1) call (M1, 16) SUB_1
    add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x100:d
    ret (M1, 1)

.function \"SUB_1\"

SUB_1:
    mul (M1, 16) C(0,0)<1> A(0,0)<1;1,0> 0x3:d
    cmp.eq (M1, 16) P2 A(0,0)<1;1,0> 0x2:d
    (P2) ret (M1, 16)
    add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x1000:d
    ret (M1, 16)
",
    );
    let file = assemble(&[("k.visaasm", &text)]);
    let a = lanes16();
    let out = run(&file, "k", &init(&a, &a, 0, 16), &["C"]);
    let want: Vec<i32> = a
        .iter()
        .map(|&x| match x {
            2 => 3 * x + 0x100,
            x if x < 8 => 3 * x + 0x1000 + 0x100,
            _ => 7 + 0x100,
        })
        .collect();
    assert_eq!(out[0], want);
}

const TWICE: &str = r#".version 4.1
.global_function "twice"
.decl X v_type=G type=d num_elts=16 align=hword alias=<%arg, 0>
.decl R v_type=G type=d num_elts=16 align=hword alias=<%retval, 0>
.decl T v_type=G type=d num_elts=16 align=hword
.kernel_attr ArgSize=2
.kernel_attr RetValSize=2
.function "twice_0"

twice_0:
    add (M1, 16) T(0,0)<1> X(0,0)<1;1,0> X(0,0)<1;1,0>
    mov (M1, 16) R(0,0)<1> T(0,0)<1;1,0>
    fret (M1, 16)
"#;

#[test]
fn function_calls_pass_arg_and_retval_in_divergent_code() {
    let head = HEAD.replace(
        ".kernel \"k\"\n",
        ".kernel \"k\"\n.funcdecl \"twice\"\n.decl ARG v_type=G type=d num_elts=16 align=hword alias=<%arg, 0>\n.decl RET v_type=G type=d num_elts=16 align=hword alias=<%retval, 0>\n",
    );
    let text = format!(
        "{head}.function \"_main_0\"\n\n_main_0:
    mov (M1, 16) C(0,0)<1> 0xffffffff:d
    mov (M1, 16) ARG(0,0)<1> A(0,0)<1;1,0>
    cmp.ge (M1, 16) P1 A(0,0)<1;1,0> 0x4:d
    (P1) goto (M1, 16) SKIP
    fcall (M1, 16) twice 2 2
    mov (M1, 16) C(0,0)<1> RET(0,0)<1;1,0>

SKIP:
    ret (M1, 1)
"
    );
    let file = assemble(&[("k.visaasm", &text), ("k.func.twice.visaasm", TWICE)]);
    let a = lanes16();
    let out = run(&file, "k", &init(&a, &a, 0, 16), &["C"]);
    let want: Vec<i32> = a.iter().map(|&x| if x < 4 { 2 * x } else { -1 }).collect();
    assert_eq!(out[0], want);
}

#[test]
fn barriers_hold_every_thread_until_all_arrive() {
    let text = kernel(
        "    add (M1, 16) C(0,0)<1> A(0,0)<1;1,0> 0x1:d
    barrier
    add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x1:d
    barrier
    ret (M1, 1)
",
    );
    let file = assemble(&[("k.visaasm", &text)]);
    let k = Kernel::new(&file, "k", dg2().1).unwrap();
    let a = lanes16();
    let b: [i32; 16] = core::array::from_fn(|i| 50 + i as i32);
    let mut ts = vec![
        k.thread(&init(&a, &a, 0, 16)).unwrap(),
        k.thread(&init(&b, &b, 0, 16)).unwrap(),
    ];
    k.run_threads(&mut ts, &mut Memory::default()).unwrap();
    assert!(ts.iter().all(|t| t.status == Status::Done));
    assert_eq!(
        d_values(&k, &ts[0], "C"),
        a.iter().map(|x| x + 2).collect::<Vec<_>>()
    );
    assert_eq!(
        d_values(&k, &ts[1], "C"),
        b.iter().map(|x| x + 2).collect::<Vec<_>>()
    );
    // Lane operations: 2 adds of 16 lanes per thread.
    assert_eq!(ts[0].lane_ops, 32);
}

#[test]
fn errors_say_what_and_where() {
    let file = assemble(&[("k.visaasm", &kernel("    ret (M1, 1)\n"))]);
    let e = Kernel::new(&file, "nope", dg2().1)
        .err()
        .expect("no such kernel");
    assert!(e.what.contains("nope") && e.what.contains("k"), "{e}");
    // A loop that never ends stops at the step limit, naming the routine, offset and text.
    let spin = kernel(
        "\nLOOP:\n    add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x1:d\n    jmp (M1_NM, 1) LOOP\n",
    );
    let file = assemble(&[("k.visaasm", &spin)]);
    let mut k = Kernel::new(&file, "k", dg2().1).unwrap();
    k.step_limit = 1000;
    let e = k
        .run_group(
            &[init(&lanes16(), &lanes16(), 0, 16)],
            &mut Memory::default(),
        )
        .unwrap_err();
    assert!(e.what.contains("1000 instructions"), "{e}");
    assert_eq!(e.routine.as_deref(), Some("k"));
    assert!(e.offset.is_some() && e.text.is_some(), "{e}");
}

#[test]
fn every_dg2_kernel_loads() {
    let Some(shared) = support::shared() else {
        return;
    };
    let mut loaded = 0;
    for path in support::dg2_isa_files(&shared) {
        let bytes = std::fs::read(&path).unwrap();
        let file = File::parse(&bytes).unwrap();
        for info in &file.header.kernel_info {
            let name = String::from_utf8_lossy(&info.name).into_owned();
            if let Err(e) = Kernel::new(&file, &name, dg2().1) {
                panic!("{}: {name}: {e}", path.display());
            }
            loaded += 1;
        }
    }
    assert!(loaded >= 58, "{loaded} kernels");
}

/// Runs kernel `k` of `file` on one 16-lane thread; the error it stops with.
fn run_err(file: &File) -> visa::machine::RunError {
    let k = Kernel::new(file, "k", dg2().1).expect("the kernel loads");
    k.run_group(
        &[init(&lanes16(), &lanes16(), 0, 16)],
        &mut Memory::default(),
    )
    .expect_err("the kernel stops at a limit")
}

#[test]
fn runaway_recursion_stops_at_the_call_depth_limit() {
    // SUB_1 calls itself forever: the 1025th open call is refused, at the CALL.
    let text = kernel(
        "    call (M1, 16) SUB_1
    ret (M1, 1)

.function \"SUB_1\"

SUB_1:
    call (M1, 16) SUB_1
    ret (M1, 16)
",
    );
    let e = run_err(&assemble(&[("k.visaasm", &text)]));
    assert!(
        e.what
            .starts_with("a call nested 1025 deep: at most 1024 calls may be open in a thread")
            && e.what.contains("MAX_CALL_DEPTH"),
        "{e}"
    );
    assert_eq!(e.text.as_deref(), Some("call (M1, 16) SUB_1"));
}

#[test]
fn the_instruction_budget_covers_every_thread_of_the_run() {
    // Four threads of 3 instructions each (mov, add, ret) and a budget of 12: one step is
    // charged per thread (4), threads 0 and 1 run 3 each, which leaves thread 2 two: it
    // stops at its third (counted).
    let text = kernel("    mov (M1, 16) C(0,0)<1> 0x7:d\n    add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x1:d\n    ret (M1, 1)\n");
    let file = assemble(&[("k.visaasm", &text)]);
    let mut k = Kernel::new(&file, "k", dg2().1).unwrap();
    k.step_limit = 12;
    let one = init(&lanes16(), &lanes16(), 0, 16);
    let threads = vec![one.clone(), one.clone(), one.clone(), one];
    let e = k.run_group(&threads, &mut Memory::default()).unwrap_err();
    assert!(
        e.what
            .starts_with("more than 12 instructions run (every thread of the run together)"),
        "{e}"
    );
    assert_eq!(e.thread, Some(2));
    assert_eq!(k.steps_used(), 4 + 3 + 3 + 3);
}

#[test]
fn declarations_past_a_megabyte_of_registers_are_refused() {
    // 17 variables of 16384 D (64 KiB each) end at 17 * 64 KiB plus the predefined block,
    // past 1 MiB, at the 16th or 17th.
    let decls: String = (0..17)
        .map(|i| format!(".decl BIG{i} v_type=G type=d num_elts=16384 align=hword\n"))
        .collect();
    let text = kernel("    ret (M1, 1)\n").replacen(".input A", &format!("{decls}.input A"), 1);
    let file = assemble(&[("k.visaasm", &text)]);
    let e = Kernel::new(&file, "k", dg2().1).err().expect("refused");
    assert!(
        e.what.contains("end(s) past 1048576 bytes of registers")
            && e.what.contains("MAX_ACTIVATION_BYTES"),
        "{e}"
    );
    assert!(e.what.starts_with("V"), "the variable is named: {e}");
}
