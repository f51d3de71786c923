//! The machine's speed on ALU code: one SIMD16 thread runs a loop of integer and float
//! arithmetic (add, mul, and, or, xor, shl, asr, mad, float add and mul, through the generated
//! lane functions) with a compare and a backward goto per pass. Throughput is in lane
//! operations: the enabled channels of every instruction that is not control flow (the
//! thread counts them as it runs). The count per run goes to
//! `target/visa-bench/machine.json`. Needs the feature `machine` and a crate whose spec has
//! these instructions (the full family); otherwise it says why and measures nothing.

#[cfg(feature = "machine")]
mod bench {
    use criterion::{criterion_group, Criterion, Throughput};
    use std::path::PathBuf;
    use visa::asm::{assemble_for, Options, Source};
    use visa::machine::memory::Memory;
    use visa::machine::{Kernel, ThreadInit};
    use visa::runtime::IntelPlatform;

    /// Passes of the loop per run.
    const PASSES: i32 = 1000;

    const KERNEL: &str = r#".version 4.1
.kernel "alu"
.decl A v_type=G type=d num_elts=16 align=hword
.decl B v_type=G type=d num_elts=16 align=hword
.decl C v_type=G type=d num_elts=16 align=hword
.decl D v_type=G type=d num_elts=16 align=hword
.decl X v_type=G type=f num_elts=16 align=hword
.decl Y v_type=G type=f num_elts=16 align=hword
.decl N v_type=G type=d num_elts=1 align=dword
.decl P1 v_type=P num_elts=16
.input A offset=32 size=64
.input B offset=96 size=64
.input N offset=160 size=4
.kernel_attr SimdSize=16
.function "_main_0"

_main_0:
    mov (M1, 16) X(0,0)<1> A(0,0)<1;1,0>
    mov (M1, 16) Y(0,0)<1> B(0,0)<1;1,0>

LOOP:
    add (M1, 16) C(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
    mul (M1, 16) D(0,0)<1> C(0,0)<1;1,0> 0x3:d
    and (M1, 16) C(0,0)<1> D(0,0)<1;1,0> 0xffff:d
    or (M1, 16) D(0,0)<1> C(0,0)<1;1,0> A(0,0)<1;1,0>
    xor (M1, 16) B(0,0)<1> D(0,0)<1;1,0> B(0,0)<1;1,0>
    shl (M1, 16) C(0,0)<1> B(0,0)<1;1,0> 0x2:d
    asr (M1, 16) D(0,0)<1> C(0,0)<1;1,0> 0x1:d
    mad (M1, 16) A(0,0)<1> D(0,0)<1;1,0> 0x5:d A(0,0)<1;1,0>
    add (M1, 16) X(0,0)<1> X(0,0)<1;1,0> Y(0,0)<1;1,0>
    mul (M1, 16) Y(0,0)<1> X(0,0)<1;1,0> 0x3f000000:f
    add (M1_NM, 1) N(0,0)<1> N(0,0)<0;1,0> 0xffffffff:d
    cmp.gt (M1_NM, 16) P1 N(0,0)<0;1,0> 0x0:d
    (P1) goto (M1, 16) LOOP
    ret (M1, 1)
"#;

    fn input() -> ThreadInit {
        let mut input = vec![0u8; 192];
        for i in 0..16 {
            input[32 + 4 * i..36 + 4 * i].copy_from_slice(&(i as i32 * 7).to_le_bytes());
            input[96 + 4 * i..100 + 4 * i].copy_from_slice(&(i as i32 + 1).to_le_bytes());
        }
        input[160..164].copy_from_slice(&PASSES.to_le_bytes());
        ThreadInit {
            input,
            group_id: [0; 3],
            local_size: [16, 1, 1],
            lanes: 16,
        }
    }

    /// CPU seconds this thread has run (user and system), from Linux's
    /// `/proc/thread-self/stat` (clock ticks of 10 ms); `None` elsewhere.
    fn thread_cpu_seconds() -> Option<f64> {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
        // Fields after the command name (which may hold spaces) end at its `)`.
        let rest = &stat[stat.rfind(')')? + 1..];
        let f: Vec<&str> = rest.split_whitespace().collect();
        // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
        let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
        Some(ticks as f64 / 100.0)
    }

    /// Lane operations per CPU second of this thread over at least `min_cpu` seconds of runs:
    /// what one core does when the machine is shared (criterion's figure is wall-clock).
    fn per_cpu_second(run: &dyn Fn() -> u64, min_cpu: f64) -> Option<f64> {
        let start = thread_cpu_seconds()?;
        let mut ops = 0u64;
        loop {
            ops += run();
            let spent = thread_cpu_seconds()? - start;
            if spent >= min_cpu {
                return Some(ops as f64 / spent);
            }
        }
    }

    fn report(lane_ops: u64, cpu_rate: Option<f64>) {
        let dir = std::env::var_os("CARGO_TARGET_DIR")
            .map(|t| PathBuf::from(t).join("visa-bench"))
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/visa-bench"));
        let _ = std::fs::create_dir_all(&dir);
        let cpu = cpu_rate.map_or(String::new(), |r| {
            format!(", \"lane_ops_per_cpu_second\": {r:.0}")
        });
        let json = format!("{{\"lane_ops_per_run\": {lane_ops}, \"passes\": {PASSES}{cpu}}}\n");
        let _ = std::fs::write(dir.join("machine.json"), json);
    }

    fn machine(c: &mut Criterion) {
        let Some(platform) = IntelPlatform::find("DG2") else {
            eprintln!("bench machine: no DG2 platform");
            return;
        };
        let file = match assemble_for(
            &[Source {
                name: "alu.visaasm",
                text: KERNEL,
            }],
            Options::default(),
            platform,
        ) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("bench machine: skipped, the kernel does not assemble with this crate's spec: {:?}", e.first());
                return;
            }
        };
        let k = match Kernel::new(&file, "alu", platform.platform()) {
            Ok(k) => k,
            Err(e) => return eprintln!("bench machine: skipped: {e}"),
        };
        let init = input();
        let run = || {
            let mut ts = vec![k.thread(&init).expect("a thread")];
            k.run_threads(&mut ts, &mut Memory::default())
                .map(|()| ts[0].lane_ops)
        };
        let lane_ops = match run() {
            Ok(n) => n,
            Err(e) => return eprintln!("bench machine: skipped, the kernel does not run: {e}"),
        };
        let mut g = c.benchmark_group("machine");
        g.throughput(Throughput::Elements(lane_ops));
        g.bench_function("alu_simd16", |b| b.iter(|| run().expect("runs")));
        g.finish();
        let cpu_rate = per_cpu_second(&|| run().expect("runs"), 3.0);
        report(lane_ops, cpu_rate);
    }

    criterion_group!(benches, machine);
}

#[cfg(feature = "machine")]
criterion::criterion_main!(bench::benches);

#[cfg(not(feature = "machine"))]
fn main() {
    eprintln!("bench machine: needs the feature `machine` (cargo bench --features machine)");
}
