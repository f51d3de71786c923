//! Generator speed: parse + schema of the whole shared corpus, and a full regen of it into a
//! temp dir (parse, analyse, emit, format, compare, write), and the rerun of the `xtask regen`
//! process with nothing changed (everything regenerated, nothing written), and the regen
//! process after one doc changed (only the files the doc reaches are written).

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::PathBuf;
use std::time::{Duration, Instant};

// The allocator of `cargo xtask` (src/main.rs), so the figures are those of the CLI.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `rel` inside the shared reference directory: `$VISA_SHARED`, else `../shared` beside the
/// workspace.
fn shared(rel: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("VISA_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
        .join(rel);
    dir.is_dir().then_some(dir)
}

fn corpus() -> Vec<(String, Vec<codegen::parse::SourceFile>)> {
    [
        "visa-docs/current/instructions",
        "visa-docs/2021/instructions",
    ]
    .iter()
    .filter_map(|rel| {
        let dir = shared(rel)?;
        let files = codegen::parse::load_dir(&dir).ok()?;
        Some((rel.to_string(), files))
    })
    .collect()
}

/// Writes one timed regen's stages for `cargo xtask bench`: wall and CPU of the whole regen
/// (CPU of all threads), the threads a stage may use, and each stage's runs, wall and CPU time.
fn write_stages(runs: usize, wall: Duration, cpu: Duration, records: &[codegen::timings::Record]) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let stages: Vec<_> = codegen::timings::stages(records)
        .iter()
        .map(|s| {
            serde_json::json!({"stage": s.name, "runs": s.runs, "wall_ms": ms(s.total),
                "cpu_ms": ms(s.cpu)})
        })
        .collect();
    let json = serde_json::json!({
        "timed_runs": runs,
        "threads": rayon::current_num_threads(),
        "wall_ms": ms(wall),
        "cpu_ms": ms(cpu),
        "syn_parse_stage": codegen::emit::rust::SYN_PARSE_STAGE,
        "prettyplease_stage": codegen::emit::rust::PRETTYPLEASE_STAGE,
        "stages": stages,
    });
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| xtask::workspace_root().join("target"))
        .join("visa-bench");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("regen-stages.json"), format!("{json:#}\n"));
}

fn benches(c: &mut Criterion) {
    let corpora = corpus();
    if corpora.is_empty() {
        eprintln!("skipped: ../shared/visa-docs is absent");
        return;
    }
    c.bench_function("parse_corpus_all", |b| {
        b.iter(|| {
            for (_, files) in &corpora {
                std::hint::black_box(codegen::parse::parse_spec(files));
            }
        })
    });
    // What `cargo xtask regen --spec .../current` reads: the docs, the chapters beside them,
    // the product's errata that fit them.
    let root = xtask::workspace_root();
    let Some(dir) = shared("visa-docs/current") else {
        return;
    };
    let current = codegen::parse::load_spec(&dir.join("instructions"), Some(&dir))
        .expect("current docs and chapters");
    let all = codegen::errata::load_dir(&root.join("errata"), "errata").expect("errata");
    let errata = codegen::errata::fitting(&current, &[], &all).0;
    let opts = codegen::emit::Options::default();
    let pins = codegen::analyze::naming::Pins::default();
    let generate = |t: &codegen::timings::Timings| {
        codegen::generate_timed(&current, &errata, &pins, &opts, t).expect("the family generates")
    };
    // Every regen writes into an empty directory of its own under `outputs`, removed only when
    // the benches are done: on ext4 without a journal (as here) the kernel skips inodes freed in
    // the last 60 s (300 s while their table block is unwritten), checking each one, so removing
    // each run's 214 files before the next run made file creation several times slower (the
    // bench timed its own cleanup, not a regen). About 3.5 MB per run.
    let outputs = tempfile::tempdir().expect("temp dir");
    let mut made = 0usize;
    let mut empty_dir = || {
        made += 1;
        let dir = outputs.path().join(made.to_string());
        std::fs::create_dir(&dir).expect("output dir");
        dir
    };
    // Before measuring, `REGEN_TIMINGS` (default 5) regens as the bench runs them with the
    // stages timed (`cargo xtask regen --timings`); the one of median wall time is printed and
    // written to `visa-bench/regen-stages.json` for `cargo xtask bench`: where a warm regen
    // goes (`RAYON_NUM_THREADS=1` for one thread).
    let timed_runs: usize = std::env::var("REGEN_TIMINGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let mut runs = Vec::new();
    for _ in 0..timed_runs {
        let dir = empty_dir();
        let t = codegen::timings::Timings::new();
        let (start, cpu) = (Instant::now(), codegen::timings::process_cpu());
        let g = generate(&t);
        t.time("write (wall)", || xtask::write::apply(&dir, &g.files))
            .expect("written");
        drop(g);
        let (wall, cpu) = (
            start.elapsed(),
            codegen::timings::process_cpu().saturating_sub(cpu),
        );
        t.record("regen (wall; cpu of all threads)", String::new(), wall, cpu);
        runs.push((wall, cpu, t.into_records()));
    }
    runs.sort_by_key(|(wall, _, _)| *wall);
    if let Some((wall, cpu, records)) = runs.get(runs.len() / 2) {
        eprint!("{}", codegen::timings::report(records, 8));
        write_stages(timed_runs, *wall, *cpu, records);
    }
    c.bench_function("regen_corpus_first_run", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let dir = empty_dir();
                let start = Instant::now();
                let g = generate(&Default::default());
                let s = xtask::write::apply(&dir, &g.files).expect("written");
                drop(g);
                total += start.elapsed();
                assert!(!s.written.is_empty());
            }
            total
        })
    });
    // The no-op rerun as a user runs it: the release `xtask regen` process on a crate it
    // generated from the same docs (nothing written), process start included.
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("visa");
    let regen = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
            .arg("regen")
            .arg("--spec")
            .arg(&dir)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("xtask runs")
    };
    let first = regen();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    c.bench_function("regen_corpus_noop_rerun", |b| {
        b.iter(|| {
            let o = regen();
            // A no-op rerun must write no file.
            assert!(
                o.status.success()
                    && String::from_utf8_lossy(&o.stderr).contains("regen: 0 written")
            );
        })
    });
}

/// The regen process after one doc of the current family changed since the last regen into
/// the same crate: each run flips one value's meaning in `SCATTER_SCALED.md` (its module, page,
/// snapshot and the items of shared files that quote it change), as a spec edit does. A doc no
/// erratum corrects, so the edit never meets an erratum's context.
fn one_doc_changed(c: &mut Criterion) {
    let Some(corpus) = shared("visa-docs/current/instructions") else {
        eprintln!("skipped: ../shared/visa-docs is absent");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("instructions");
    std::fs::create_dir_all(&spec).expect("spec dir");
    for e in std::fs::read_dir(&corpus).expect("corpus").flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), spec.join(e.file_name())).expect("copy");
        }
    }
    let doc = spec.join("SCATTER_SCALED.md");
    let original = std::fs::read_to_string(&doc).expect("SCATTER_SCALED.md");
    let (from, to) = ("8 elements", "8 elements, edited");
    assert!(original.contains(from));
    let edited = original.replacen(from, to, 1);
    let out = dir.path().join("visa");
    let regen = || {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
            .arg("regen")
            .arg("--spec")
            .arg(&spec)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("xtask runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o
    };
    regen();
    let mut flip = false;
    c.bench_function("regen_corpus_one_doc_changed", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                flip = !flip;
                let text = if flip { &edited } else { &original };
                std::fs::write(&doc, text).expect("doc written");
                let start = Instant::now();
                let o = regen();
                total += start.elapsed();
                // Only what the doc reaches is written.
                assert!(String::from_utf8_lossy(&o.stderr).contains(" written, "));
            }
            total
        })
    });
}

criterion_group! {
    name = pipeline;
    config = Criterion::default().sample_size(20);
    targets = benches, one_doc_changed
}
criterion_main!(pipeline);
