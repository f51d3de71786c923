//! `cargo xtask bench`: runs the criterion benches, times builds of the generated crates, and
//! writes `BENCHMARKS.md` (the machine, each figure's median and interval, goals met or
//! missed, the commands that reproduce them).
//!
//! Figures come from criterion's own `estimates.json` files, never from timers in tests.

mod anchors;
mod interp;
mod report;

use crate::{workspace_root, EXIT_FAILURE};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A criterion estimate: median and the bounds of its 95% confidence interval, in ns.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    pub median: f64,
    pub low: f64,
    pub high: f64,
}

/// Reads `<criterion>/<id>/new/estimates.json`.
pub fn read_estimate(criterion: &Path, id: &str) -> Option<Estimate> {
    let text = std::fs::read_to_string(criterion.join(id).join("new/estimates.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let m = &v["median"];
    Some(Estimate {
        median: m["point_estimate"].as_f64()?,
        low: m["confidence_interval"]["lower_bound"].as_f64()?,
        high: m["confidence_interval"]["upper_bound"].as_f64()?,
    })
}

fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("bench: running {cmd:?}");
    let status = cmd.status().map_err(|e| format!("{cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed with {status}"))
    }
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Generates a standalone crate for `spec` into `out` through the normal regen path.
fn regen_into(spec: &Path, errata: Option<&Path>, out: &Path) -> Result<(), String> {
    match crate::regen_with_errata(spec, errata, out, false) {
        0 => Ok(()),
        code => Err(format!("regen of {} failed ({code})", spec.display())),
    }
}

/// Wall time of a clean `cargo build` of the crate at `manifest`, in seconds.
fn build_time(manifest: &Path, target: &Path, release: bool) -> Result<f64, String> {
    let _ = std::fs::remove_dir_all(target);
    let mut cmd = cargo();
    cmd.arg("build")
        .arg("--quiet")
        .arg("--manifest-path")
        .arg(manifest);
    if release {
        cmd.arg("--release");
    }
    cmd.env("CARGO_TARGET_DIR", target);
    let start = Instant::now();
    run(&mut cmd)?;
    Ok(start.elapsed().as_secs_f64())
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let rustc = Command::new("rustc")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    format!("{cpu}, {cores} cores available, {rustc}")
}

/// Criterion figures of one stream: decode (each instruction consumed where it was decoded),
/// decode into a `Vec`, encode, and memcpy of the same bytes.
pub(crate) struct Stream {
    pub(crate) decode: Estimate,
    pub(crate) collect: Estimate,
    pub(crate) encode: Estimate,
    pub(crate) memcpy: Estimate,
    pub(crate) instructions: f64,
    pub(crate) bytes: f64,
}

/// Criterion figures of one variant of the random stream (see `runtime/benches/codec.rs`):
/// the same stream with one source of unpredictability removed.
pub(crate) struct Variant {
    pub(crate) name: String,
    pub(crate) decode: Estimate,
    pub(crate) encode: Estimate,
    pub(crate) instructions: f64,
    pub(crate) bytes: f64,
}

/// The figures of one generated crate's benches.
pub(crate) struct Codec {
    pub(crate) label: &'static str,
    pub(crate) random: Stream,
    /// Variants of the random stream, in the order codec.json lists them.
    pub(crate) variants: Vec<Variant>,
    pub(crate) dg2: Option<Stream>,
    pub(crate) stats: serde_json::Value,
    pub(crate) files: Option<(serde_json::Value, [Estimate; 5])>,
}

fn stream(crit: &Path, group: &str, stats: &serde_json::Value) -> Option<Stream> {
    let get = |id: &str| read_estimate(crit, &format!("{group}/{id}"));
    Some(Stream {
        decode: get("decode")?,
        collect: get("decode_collect")?,
        encode: get("encode")?,
        memcpy: get("memcpy")?,
        instructions: stats["instructions"].as_f64()?,
        bytes: stats["bytes"].as_f64()?,
    })
}

/// The variants codec.json lists whose estimates criterion wrote (group `codec_<name>`).
fn variants(crit: &Path, stats: &serde_json::Value) -> Vec<Variant> {
    let Some(listed) = stats["variants"].as_object() else {
        return Vec::new();
    };
    listed
        .iter()
        .filter_map(|(name, v)| {
            let get = |id: &str| read_estimate(crit, &format!("codec_{name}/{id}"));
            Some(Variant {
                name: name.clone(),
                decode: get("decode")?,
                encode: get("encode")?,
                instructions: v["instructions"].as_f64()?,
                bytes: v["bytes"].as_f64()?,
            })
        })
        .collect()
}

/// One stage of a timed regen: its CPU time, on all threads.
pub(crate) struct StageTime {
    pub(crate) stage: String,
    pub(crate) cpu_ms: f64,
}

/// One full regen with its stages timed, as the pipeline bench wrote it (regen-stages.json).
pub(crate) struct RegenStages {
    /// How many timed regens ran; this is the one of median wall time.
    pub(crate) timed_runs: usize,
    /// The most threads a stage could use (the cores available).
    pub(crate) threads: usize,
    pub(crate) wall_ms: f64,
    /// CPU time of all threads.
    pub(crate) cpu_ms: f64,
    /// The stages of formatting through syn and prettyplease.
    pub(crate) format_stages: [String; 2],
    pub(crate) stages: Vec<StageTime>,
}

/// Reads what the pipeline bench wrote; `None` when absent or malformed.
pub(crate) fn regen_stages(json: &serde_json::Value) -> Option<RegenStages> {
    let name = |k: &str| json[k].as_str().map(str::to_string);
    let stages = json["stages"]
        .as_array()?
        .iter()
        .map(|s| {
            Some(StageTime {
                stage: s["stage"].as_str()?.to_string(),
                cpu_ms: s["cpu_ms"].as_f64()?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(RegenStages {
        timed_runs: usize::try_from(json["timed_runs"].as_u64()?).ok()?,
        threads: usize::try_from(json["threads"].as_u64()?).ok()?,
        wall_ms: json["wall_ms"].as_f64()?,
        cpu_ms: json["cpu_ms"].as_f64()?,
        format_stages: [name("syn_parse_stage")?, name("prettyplease_stage")?],
        stages,
    })
}

/// The shared reference directory: `$VISA_SHARED`, else `../shared` beside the workspace (as
/// the benches find it).
fn shared_dir() -> PathBuf {
    std::env::var_os("VISA_SHARED")
        .map(|p| std::path::absolute(&p).unwrap_or_else(|_| p.into()))
        .unwrap_or_else(|| workspace_root().join("../shared"))
}

fn codec_run(label: &'static str, manifest: &Path, target: &Path) -> Result<Codec, String> {
    let shared = shared_dir();
    for bench in ["codec", "files"] {
        run(cargo()
            .args(["bench", "--bench", bench, "--manifest-path"])
            .arg(manifest)
            .env("VISA_SHARED", &shared)
            .env("CARGO_TARGET_DIR", target))?;
    }
    let crit = target.join("criterion");
    let json = |name: &str| -> Option<serde_json::Value> {
        let text = std::fs::read_to_string(target.join("visa-bench").join(name)).ok()?;
        serde_json::from_str(&text).ok()
    };
    let stats = json("codec.json").ok_or("no codec.json from the codec bench")?;
    let random = stream(&crit, "codec", &stats).ok_or("no criterion estimates for codec/*")?;
    let variants = variants(&crit, &stats);
    let dg2 = stream(&crit, "dg2", &stats["dg2"]);
    let files = json("files.json").and_then(|f| {
        let get = |id: &str| read_estimate(&crit, &format!("files/{id}"));
        Some((
            f,
            [
                get("parse")?,
                get("dis")?,
                get("print")?,
                get("asm")?,
                get("check")?,
            ],
        ))
    });
    Ok(Codec {
        label,
        random,
        variants,
        dg2,
        stats,
        files,
    })
}

/// Runs everything and writes BENCHMARKS.md; returns the exit status.
pub fn bench() -> u8 {
    match bench_inner() {
        Ok(path) => {
            eprintln!("bench: wrote {}", path.display());
            // The interpreter beside its anchors, last: it rewrites its own table.
            bench_anchors()
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_FAILURE
        }
    }
}

/// What the pipeline bench measured.
struct Pipeline {
    parse: Estimate,
    first: Estimate,
    noop: Estimate,
    one_doc: Option<Estimate>,
    regen: Option<RegenStages>,
}

/// 1. Generator speed: the criterion bench `pipeline` of this crate.
fn pipeline() -> Result<Pipeline, String> {
    let root = workspace_root();
    let work = root.join("target/xtask-bench");
    let corpus = shared_dir().join("visa-docs/current/instructions");
    if !corpus.is_dir() {
        return Err(format!(
            "{} is absent: the benches need the shared corpus",
            corpus.display()
        ));
    }
    let pipeline_target = work.join("pipeline-target");
    run(cargo()
        .args(["bench", "-p", "xtask", "--bench", "pipeline"])
        .current_dir(&root)
        .env("VISA_SHARED", shared_dir())
        .env("CARGO_TARGET_DIR", &pipeline_target))?;
    let crit = pipeline_target.join("criterion");
    let get = |id: &str| read_estimate(&crit, id).ok_or(format!("no criterion estimate for {id}"));
    Ok(Pipeline {
        parse: get("parse_corpus_all")?,
        first: get("regen_corpus_first_run")?,
        noop: get("regen_corpus_noop_rerun")?,
        one_doc: read_estimate(&crit, "regen_corpus_one_doc_changed"),
        regen: std::fs::read_to_string(pipeline_target.join("visa-bench/regen-stages.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .and_then(|v| regen_stages(&v)),
    })
}

/// `cargo xtask bench --pipeline`: only the generator bench, whose rows of BENCHMARKS.md it
/// rewrites (the other rows stay as the last full bench wrote them).
pub fn bench_pipeline() -> u8 {
    let run = || -> Result<PathBuf, String> {
        let p = pipeline()?;
        let rows = report::generator(&report::Figures {
            machine: machine(),
            parse: p.parse,
            first: p.first,
            noop: p.noop,
            one_doc: p.one_doc,
            regen: p.regen.as_ref(),
            codecs: &[],
            builds: &[],
        });
        let path = workspace_root().join("BENCHMARKS.md");
        let existing = std::fs::read_to_string(&path).unwrap_or_default();
        let md = report::splice_rows(&existing, &rows)
            .ok_or("BENCHMARKS.md has no table of figures: run the full `cargo xtask bench`")?;
        std::fs::write(&path, md).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    };
    match run() {
        Ok(path) => {
            eprintln!("bench: rewrote the generator rows of {}", path.display());
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_FAILURE
        }
    }
}

/// The interpreter's bench on the full-family crate, regenerated into `target/xtask-bench`
/// every time (its `runtime/` is a copy of the workspace's, so a crate left by an earlier run
/// would measure the runtime of then; a regen writes only the files that changed).
fn interp() -> Result<interp::Interp, String> {
    let root = workspace_root();
    let work = root.join("target/xtask-bench");
    let full_crate = work.join("visa-current");
    regen_into(&shared_dir().join("visa-docs/current"), None, &full_crate)?;
    interp::measure(
        &full_crate.join("Cargo.toml"),
        &work.join("machine-target"),
        &shared_dir(),
    )
}

/// `cargo xtask bench --anchors`: the interpreter beside Oclgrind and pocl; rewrites that table.
pub fn bench_anchors() -> u8 {
    let run = || -> Result<PathBuf, String> {
        let table = anchors::measure(&workspace_root(), &shared_dir())?;
        let path = workspace_root().join("BENCHMARKS.md");
        let existing = std::fs::read_to_string(&path).unwrap_or_default();
        std::fs::write(&path, anchors::splice(&existing, &table))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    };
    match run() {
        Ok(path) => {
            eprintln!("bench: rewrote the anchors' table of {}", path.display());
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_FAILURE
        }
    }
}

/// `cargo xtask bench --machine`: runs the interpreter's bench and rewrites its row.
pub fn bench_machine() -> u8 {
    let run = || -> Result<PathBuf, String> {
        let figures = interp()?;
        let path = workspace_root().join("BENCHMARKS.md");
        let existing = std::fs::read_to_string(&path).unwrap_or_default();
        let section = interp::section(&figures);
        let md = interp::splice(&existing, &section);
        std::fs::write(&path, md).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    };
    match run() {
        Ok(path) => {
            eprintln!("bench: rewrote the interpreter row of {}", path.display());
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_FAILURE
        }
    }
}

fn bench_inner() -> Result<PathBuf, String> {
    let root = workspace_root();
    let work = root.join("target/xtask-bench");
    // 1. Generator speed.
    let Pipeline {
        parse,
        first,
        noop,
        one_doc,
        regen,
    } = pipeline()?;

    // 2. Codec throughput and allocations, on the spec crate and the full-corpus crate.
    let spec_crate = work.join("visa-spec");
    let full_crate = work.join("visa-current");
    for dir in [&spec_crate, &full_crate] {
        let _ = std::fs::remove_dir_all(dir);
    }
    regen_into(&root.join("spec"), None, &spec_crate)?;
    regen_into(&shared_dir().join("visa-docs/current"), None, &full_crate)?;
    let codecs = [
        codec_run(
            "spec/",
            &spec_crate.join("Cargo.toml"),
            &work.join("codec-spec-target"),
        )?,
        codec_run(
            "full corpus (current)",
            &full_crate.join("Cargo.toml"),
            &work.join("codec-full-target"),
        )?,
    ];

    // 3. Build times of the generated crates, clean, debug and release.
    let mut builds = Vec::new();
    for (label, dir) in [
        ("spec/", &spec_crate),
        ("full corpus (current)", &full_crate),
    ] {
        let manifest = dir.join("Cargo.toml");
        let debug = build_time(&manifest, &work.join("build-debug"), false)?;
        let release = build_time(&manifest, &work.join("build-release"), true)?;
        let lines = count_lines(&dir.join("src/generated"));
        builds.push((label, debug, release, lines));
    }

    let md = report::render(&report::Figures {
        machine: machine(),
        parse,
        first,
        noop,
        one_doc,
        regen: regen.as_ref(),
        codecs: &codecs,
        builds: &builds,
    });
    // 4. The interpreter.
    let interp = interp()?;
    let md = interp::splice(&md, &interp::section(&interp));
    let path = root.join("BENCHMARKS.md");
    std::fs::write(&path, md).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

fn count_lines(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .map(|t| t.lines().count())
                .sum()
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_criterion_median_and_interval() {
        let dir = tempfile::tempdir().unwrap();
        let est = dir.path().join("g/b/new");
        std::fs::create_dir_all(&est).unwrap();
        std::fs::write(
            est.join("estimates.json"),
            r#"{"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":9.0,"upper_bound":12.5},"point_estimate":10.0,"standard_error":1.0}}"#,
        )
        .unwrap();
        let e = read_estimate(dir.path(), "g/b").unwrap();
        assert_eq!((e.median, e.low, e.high), (10.0, 9.0, 12.5));
        assert!(read_estimate(dir.path(), "g/missing").is_none());
    }

    #[test]
    fn reads_the_variants_codec_json_lists_and_criterion_measured() {
        let dir = tempfile::tempdir().unwrap();
        for (group, median) in [
            ("codec_by_opcode/decode", 3.0),
            ("codec_by_opcode/encode", 2.0),
        ] {
            let est = dir.path().join(group).join("new");
            std::fs::create_dir_all(&est).unwrap();
            std::fs::write(
                est.join("estimates.json"),
                format!(r#"{{"median":{{"confidence_interval":{{"lower_bound":1.0,"upper_bound":4.0}},"point_estimate":{median}}}}}"#),
            )
            .unwrap();
        }
        // `one_instance` is listed but was not measured (filtered out): left out.
        let stats = serde_json::json!({"variants": {
            "by_opcode": {"instructions": 10, "bytes": 200},
            "one_instance": {"instructions": 10, "bytes": 190}}});
        let v = variants(dir.path(), &stats);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].name, "by_opcode");
        assert_eq!((v[0].decode.median, v[0].encode.median), (3.0, 2.0));
        assert_eq!((v[0].instructions, v[0].bytes), (10.0, 200.0));
        assert!(variants(dir.path(), &serde_json::json!({})).is_empty());
    }

    #[test]
    fn reads_the_timed_regen_the_pipeline_bench_wrote() {
        let json = serde_json::json!({"timed_runs": 5, "threads": 2, "wall_ms": 140.5,
            "cpu_ms": 230.25, "syn_parse_stage": "rust: syn::parse2",
            "prettyplease_stage": "rust: prettyplease",
            "stages": [{"stage": "analyze", "runs": 1, "wall_ms": 3.5, "cpu_ms": 3.25}]});
        let r = regen_stages(&json).unwrap();
        assert_eq!((r.timed_runs, r.threads), (5, 2));
        assert_eq!((r.wall_ms, r.cpu_ms), (140.5, 230.25));
        assert_eq!(r.format_stages, ["rust: syn::parse2", "rust: prettyplease"]);
        assert_eq!(r.stages.len(), 1);
        let s = &r.stages[0];
        assert_eq!((s.stage.as_str(), s.cpu_ms), ("analyze", 3.25));
        // A stage without its CPU time makes the whole record unreadable, not a zero.
        let mut broken = json.clone();
        broken["stages"][0]["cpu_ms"] = serde_json::Value::Null;
        assert!(regen_stages(&broken).is_none());
    }
}
