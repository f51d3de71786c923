//! BENCHMARKS.md from the figures `cargo xtask bench` measured: one table of the current
//! figures, each goal marked met or missed, and the commands that reproduce them. How the code
//! reaches the figures and what bounds the missed goals is prose of `docs/performance.md`.
//!
//! Each row starts with a label no run changes, so `--pipeline` and `--machine` replace their
//! own rows in the committed table ([`splice_rows`]) and leave the others as they are.

use super::{Codec, Estimate, RegenStages, Stream};
use std::fmt::Write as _;

/// Everything one run measured.
pub(crate) struct Figures<'a> {
    pub machine: String,
    pub parse: Estimate,
    pub first: Estimate,
    pub noop: Estimate,
    /// The regen after one doc changed, when measured.
    pub one_doc: Option<Estimate>,
    /// One full regen with its stages timed, when the pipeline bench wrote it.
    pub regen: Option<&'a RegenStages>,
    pub codecs: &'a [Codec],
    /// Label, clean debug build (s), clean release build (s), generated lines.
    pub builds: &'a [(&'static str, f64, f64, usize)],
}

/// The goals: decode and encode in bytes per second, whole-file rates, regen and build times.
const DECODE_GOAL: f64 = 1e9;
const ENCODE_GOAL: f64 = 2e9;
const FILE_PARSE_GOAL: f64 = 500e6;
const PRINT_GOAL: f64 = 200e6;
const TEXT_PARSE_GOAL: f64 = 100e6;
/// `visa check` of whole files: parse and validate every routine.
const CHECK_GOAL: f64 = 300e6;
/// A full regen of the family: plenty for a command run when the docs change.
const REGEN_GOAL_MS: f64 = 500.0;
const DEBUG_BUILD_GOAL_S: f64 = 10.0;

/// The table's head; [`splice_rows`] finds the table by it.
pub(crate) const TABLE_HEAD: &str = "| benchmark | figure | goal | |\n| --- | --- | --- | --- |\n";

/// How to reproduce the figures, after the table.
const REPRODUCE: &str = "## Reproduce

```sh
cargo xtask bench             # every row (several minutes; needs ../shared)
cargo xtask bench --pipeline  # only the generator rows
cargo xtask bench --machine   # only the interpreter row
cargo xtask bench --anchors   # only the interpreter beside Oclgrind and pocl
```

`cargo xtask bench` runs the criterion benches of the generator (`xtask/benches/pipeline.rs`),
regenerates the crate of `spec/` and the crate of the current family into `target/xtask-bench/`,
runs their benches (`runtime/benches/codec.rs`, `files.rs` and, with `--features machine`,
`machine.rs`), times their clean builds, and writes this file. One bench alone, without
rewriting this file (criterion's filter):

```sh
VISA_SHARED=../shared cargo bench -p xtask --bench pipeline -- regen_corpus_one_doc_changed
cargo xtask regen --spec ../shared/visa-docs/current --out /tmp/visa-current
VISA_SHARED=../shared cargo bench --manifest-path /tmp/visa-current/Cargo.toml --bench files -- files/check
```
";

fn verdict(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "**missed**"
    }
}

fn ms(ns: f64) -> String {
    format!("{:.1} ms", ns / 1e6)
}

/// A median with its 95% interval, in ms.
fn ms_interval(e: &Estimate) -> String {
    format!("{} [{:.1}, {:.1}]", ms(e.median), e.low / 1e6, e.high / 1e6)
}

/// `bytes` per `ns` as MB/s.
fn mbs(bytes: f64, ns: f64) -> f64 {
    bytes / ns * 1e3
}

/// One row of the table.
pub(crate) fn row(what: &str, figure: &str, goal: &str, verdict: &str) -> String {
    format!("| {what} | {figure} | {goal} | {verdict} |\n")
}

/// A stream's rate: MB/s, instructions/s, ns per instruction, ratio to memcpy.
fn rate(s: &Stream, e: &Estimate) -> String {
    format!(
        "{:.0} MB/s · {:.1} M instr/s · {:.1} ns/instr · {:.3} of memcpy",
        mbs(s.bytes, e.median),
        s.instructions / e.median * 1e3,
        e.median / s.instructions,
        s.memcpy.median / e.median
    )
}

/// Renders the whole file (the interpreter's row is spliced in by the caller).
pub(crate) fn render(f: &Figures<'_>) -> String {
    let mut md = String::from("# Benchmarks\n\n");
    let _ = writeln!(
        md,
        "Written by `cargo xtask bench`. Machine: {}. Medians of criterion samples, with \
         criterion's 95% confidence interval in brackets. How the code reaches these figures \
         and what bounds the missed goals: [docs/performance.md](docs/performance.md).\n",
        f.machine
    );
    md.push_str(TABLE_HEAD);
    md.push_str(&generator(f));
    for c in f.codecs {
        md.push_str(&codec(c));
    }
    md.push_str(&files(f.codecs));
    md.push_str(&builds(f.builds));
    md.push('\n');
    md.push_str(REPRODUCE);
    md
}

/// The generator's rows (also rewritten alone by `cargo xtask bench --pipeline`).
pub(crate) fn generator(f: &Figures<'_>) -> String {
    let goal = |e: &Estimate, g: f64| (format!("≤ {g} ms"), verdict(e.median / 1e6 <= g));
    let mut md = row(
        "parse + schema, whole shared corpus (current + 2021)",
        &ms_interval(&f.parse),
        "",
        "",
    );
    let (g, v) = goal(&f.first, REGEN_GOAL_MS);
    md += &row(
        "full regen of the current family, into an empty dir",
        &ms_interval(&f.first),
        &g,
        v,
    );
    if let Some(r) = f.regen {
        md += &row(
            "full regen, one run timed by stage (`--timings`)",
            &regen_stages(r),
            "",
            "",
        );
    }
    md += &row(
        "regen with nothing changed (everything generated, nothing written)",
        &ms_interval(&f.noop),
        "",
        "",
    );
    let what = "regen after one doc changed (everything generated, the changed files written)";
    md += &match &f.one_doc {
        Some(e) => row(what, &ms_interval(e), "", ""),
        None => row(what, "not measured", "", ""),
    };
    md
}

/// The timed regen's wall and CPU time, and the CPU of formatting through syn and
/// prettyplease, which bounds a full regen.
fn regen_stages(r: &RegenStages) -> String {
    let cpu_of = |name: &str| r.stages.iter().find(|s| s.stage == name).map(|s| s.cpu_ms);
    let format = match (cpu_of(&r.format_stages[0]), cpu_of(&r.format_stages[1])) {
        (Some(syn), Some(pretty)) => format!(
            "; {:.1} ms of CPU formatting (`{}` + `{}`)",
            syn + pretty,
            r.format_stages[0],
            r.format_stages[1]
        ),
        _ => String::new(),
    };
    format!(
        "{:.1} ms wall, {:.1} ms CPU on up to {} threads (median of {} runs){format}",
        r.wall_ms, r.cpu_ms, r.threads, r.timed_runs
    )
}

/// The rows of one generated crate's codec benches.
fn codec(c: &Codec) -> String {
    let full = c.label.starts_with("full");
    let zero = |k: &str| c.stats[k].as_f64() == Some(0.0);
    let no_alloc = zero("allocations_per_decode") && zero("allocations_per_stream_decode");
    let mut md = row(
        &format!(
            "`Instruction` size, allocations per decode, {} crate",
            c.label
        ),
        &format!(
            "{} bytes; {} per decode with `decode`, {} with `runtime::Decoder`",
            c.stats["instruction_size"],
            c.stats["allocations_per_decode"],
            c.stats["allocations_per_stream_decode"]
        ),
        if full { "0 allocations" } else { "" },
        if full { verdict(no_alloc) } else { "" },
    );
    let streams = [
        ("random mix", Some(&c.random)),
        ("dg2 streams", c.dg2.as_ref()),
    ];
    for (name, s) in streams {
        let Some(s) = s else {
            if full {
                md += &row(
                    &format!("{name}, {} crate", c.label),
                    "not measured: ../shared absent",
                    "",
                    "",
                );
            }
            continue;
        };
        let ops = [
            ("decode (`runtime::Decoder`)", &s.decode, DECODE_GOAL),
            ("decode into a `Vec` (`decode`)", &s.collect, 0.0),
            ("encode (`runtime::Encoder`)", &s.encode, ENCODE_GOAL),
        ];
        for (op, e, goal) in ops {
            let r = mbs(s.bytes, e.median) * 1e6;
            let judged = full && goal > 0.0;
            md += &row(
                &format!("{op}, {name}, {} crate", c.label),
                &rate(s, e),
                &if judged {
                    format!("≥ {:.0} GB/s", goal / 1e9)
                } else {
                    String::new()
                },
                if judged { verdict(r >= goal) } else { "" },
            );
        }
    }
    // The variants show what bounds the random mix; the goals are the full family's.
    for v in c.variants.iter().filter(|_| full) {
        let per = |e: &Estimate| {
            format!(
                "{:.1} ns/instr ({:.0} MB/s)",
                e.median / v.instructions,
                mbs(v.bytes, e.median)
            )
        };
        md += &row(
            &format!("random mix `{}`, {} crate", v.name, c.label),
            &format!("decode {}, encode {}", per(&v.decode), per(&v.encode)),
            "",
            "",
        );
    }
    md
}

/// The rows of whole files (the full-family crate on Intel's dg2 files).
fn files(codecs: &[Codec]) -> String {
    let Some((stats, [parse, dis, print, asm, check])) = codecs
        .iter()
        .find(|c| c.label.starts_with("full"))
        .and_then(|c| c.files.as_ref())
    else {
        return row(
            "whole files, dg2",
            "not measured: ../shared/real-kernels/dg2 absent",
            "",
            "",
        );
    };
    let num = |k: &str| stats[k].as_f64().unwrap_or(0.0);
    let (file_bytes, text_bytes, asm_bytes) =
        (num("file_bytes"), num("text_bytes"), num("asm_bytes"));
    let rows = [
        (
            "parse `.isa` + decode every instruction (`File::parse`), dg2",
            parse,
            file_bytes,
            "file bytes",
            Some(FILE_PARSE_GOAL),
        ),
        (
            "print Intel's text of every routine, dg2",
            print,
            text_bytes,
            "text bytes written",
            Some(PRINT_GOAL),
        ),
        (
            "`visa dis`: parse + print, dg2",
            dis,
            file_bytes,
            "file bytes",
            None,
        ),
        (
            "`visa asm`: parse Intel's text, build the object file, dg2",
            asm,
            asm_bytes,
            "text bytes",
            Some(TEXT_PARSE_GOAL),
        ),
        (
            "`visa check`: parse + validate every routine, dg2",
            check,
            file_bytes,
            "file bytes",
            Some(CHECK_GOAL),
        ),
    ];
    let mut md = String::new();
    for (what, e, bytes, unit, goal) in rows {
        let r = mbs(bytes, e.median);
        let (g, v) = match goal {
            Some(g) => (format!("≥ {:.0} MB/s", g / 1e6), verdict(r * 1e6 >= g)),
            None => (String::new(), ""),
        };
        let figure = format!("{} · {r:.0} MB/s of {unit}", ms(e.median));
        md += &row(what, &figure, &g, v);
    }
    md
}

/// The rows of clean builds of the generated crates.
fn builds(builds: &[(&'static str, f64, f64, usize)]) -> String {
    let mut md = String::new();
    for (label, debug, release, lines) in builds {
        let full = label.starts_with("full");
        md += &row(
            &format!("clean debug build, {label} crate"),
            &format!("{debug:.1} s ({lines} generated lines)"),
            if full { "≤ 10 s" } else { "" },
            if full {
                verdict(*debug <= DEBUG_BUILD_GOAL_S)
            } else {
                ""
            },
        );
        md += &row(
            &format!("clean release build, {label} crate"),
            &format!("{release:.1} s"),
            "",
            "",
        );
    }
    md
}

/// The label of a row: its first cell.
fn label(line: &str) -> Option<&str> {
    line.strip_prefix("| ")?.split(" | ").next()
}

/// `existing` (BENCHMARKS.md) with each of `rows` in place of the row of the same label, or
/// added at the end of the table; `None` when it has no table.
pub(crate) fn splice_rows(existing: &str, rows: &str) -> Option<String> {
    let start = existing.find(TABLE_HEAD)? + TABLE_HEAD.len();
    let len = existing[start..]
        .split_inclusive('\n')
        .take_while(|l| l.starts_with('|'))
        .map(str::len)
        .sum::<usize>();
    let mut table: Vec<String> = existing[start..start + len]
        .split_inclusive('\n')
        .map(str::to_string)
        .collect();
    for new in rows.split_inclusive('\n') {
        match table.iter_mut().find(|l| label(l) == label(new)) {
            Some(old) => *old = new.to_string(),
            None => table.push(new.to_string()),
        }
    }
    Some(format!(
        "{}{}{}",
        &existing[..start],
        table.concat(),
        &existing[start + len..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(ns: f64) -> Estimate {
        Estimate {
            median: ns,
            low: ns * 0.9,
            high: ns * 1.1,
        }
    }

    fn stream(decode_ns: f64) -> Stream {
        // 1,000,000 bytes: decode in 1 ms is 1,000 MB/s.
        Stream {
            decode: est(decode_ns),
            collect: est(decode_ns * 2.0),
            encode: est(1e6),
            memcpy: est(1e4),
            instructions: 40_000.0,
            bytes: 1e6,
        }
    }

    /// One codec measured on the full corpus: the random mix decodes 1e6 bytes in 0.9 ms, the
    /// dg2 streams in 1.1 ms; whole files parse in 1 ms, print in 20 ms.
    fn full_corpus() -> [Codec; 1] {
        let stats = serde_json::json!({"instruction_size": 128, "allocations_per_decode": 0.0, "allocations_per_stream_decode": 0.0,
            "instructions_mixed": 103, "instructions_in_crate": 104});
        let files = serde_json::json!({"files": 58, "file_bytes": 1e6, "text_bytes": 2e6,
            "asm_texts": 59, "asm_bytes": 1e6});
        [Codec {
            label: "full corpus (current)",
            random: stream(0.9e6),
            variants: Vec::new(),
            dg2: Some(stream(1.1e6)),
            stats,
            files: Some((files, [est(1e6), est(3e6), est(20e6), est(5e6), est(2e6)])),
        }]
    }

    /// Figures of a run: parse 20 ms, first regen 490 ms, no-op regen 11 ms.
    fn figures<'a>(
        one_doc_ms: f64,
        codecs: &'a [Codec],
        builds: &'a [(&'static str, f64, f64, usize)],
    ) -> Figures<'a> {
        Figures {
            machine: "m".into(),
            parse: est(20e6),
            first: est(490e6),
            noop: est(11e6),
            one_doc: Some(est(one_doc_ms * 1e6)),
            regen: None,
            codecs,
            builds,
        }
    }

    #[test]
    fn codec_goals_are_judged_on_the_measured_rates() {
        let codecs = full_corpus();
        let md = render(&figures(24.0, &codecs, &[]));
        for line in [
            // Random: 1e6 bytes in 0.9 ms = 1.11 GB/s (met); dg2 in 1.1 ms = 0.91 GB/s
            // (missed); encode 1 GB/s misses 2 GB/s in both. 40,000 instructions; memcpy in
            // 0.01 ms.
            "| decode (`runtime::Decoder`), random mix, full corpus (current) crate | 1111 MB/s · 44.4 M instr/s · 22.5 ns/instr · 0.011 of memcpy | ≥ 1 GB/s | met |",
            "| decode (`runtime::Decoder`), dg2 streams, full corpus (current) crate | 909 MB/s · 36.4 M instr/s · 27.5 ns/instr · 0.009 of memcpy | ≥ 1 GB/s | **missed** |",
            "| encode (`runtime::Encoder`), random mix, full corpus (current) crate | 1000 MB/s · 40.0 M instr/s · 25.0 ns/instr · 0.010 of memcpy | ≥ 2 GB/s | **missed** |",
            "| `Instruction` size, allocations per decode, full corpus (current) crate | 128 bytes; 0.0 per decode with `decode`, 0.0 with `runtime::Decoder` | 0 allocations | met |",
        ] {
            assert!(md.contains(line), "no `{line}` in:\n{md}");
        }
    }

    #[test]
    fn file_regen_and_build_goals_are_judged_on_the_measured_figures() {
        let codecs = full_corpus();
        let md = render(&figures(
            24.0,
            &codecs,
            &[("full corpus (current)", 9.5, 20.0, 30_000)],
        ));
        for line in [
            // 490 ms meets 500 ms; the no-op and one-doc regens have no goal.
            "| 490.0 ms [441.0, 539.0] | ≤ 500 ms | met |",
            "| 11.0 ms [9.9, 12.1] |  |  |",
            "| 24.0 ms [21.6, 26.4] |  |  |",
            // Files: 1e6 bytes in 1 ms = 1000 MB/s; print 2e6 in 20 ms = 100 MB/s (missed).
            "| 1.0 ms · 1000 MB/s of file bytes | ≥ 500 MB/s | met |",
            "| 20.0 ms · 100 MB/s of text bytes written | ≥ 200 MB/s | **missed** |",
            "| 5.0 ms · 200 MB/s of text bytes | ≥ 100 MB/s | met |",
            "| clean debug build, full corpus (current) crate | 9.5 s (30000 generated lines) | ≤ 10 s | met |",
            "cargo xtask bench --pipeline",
        ] {
            assert!(md.contains(line), "no `{line}` in:\n{md}");
        }
    }

    #[test]
    fn the_timed_regen_row_says_what_formatting_costs() {
        let r = RegenStages {
            timed_runs: 5,
            threads: 2,
            wall_ms: 100.0,
            cpu_ms: 180.0,
            format_stages: ["syn".into(), "pretty".into()],
            stages: vec![
                crate::bench::StageTime {
                    stage: "syn".into(),
                    cpu_ms: 60.0,
                },
                crate::bench::StageTime {
                    stage: "pretty".into(),
                    cpu_ms: 30.5,
                },
            ],
        };
        let mut f = figures(24.0, &[], &[]);
        f.regen = Some(&r);
        let md = generator(&f);
        assert!(
            md.contains("| 100.0 ms wall, 180.0 ms CPU on up to 2 threads (median of 5 runs); 90.5 ms of CPU formatting (`syn` + `pretty`) |"),
            "{md}"
        );
    }

    /// BENCHMARKS.md is what `render` writes: its head, its rows by label, its commands.
    #[test]
    fn the_committed_file_has_the_shape_render_writes() {
        let md = std::fs::read_to_string(crate::workspace_root().join("BENCHMARKS.md")).unwrap();
        // The anchors' section (`cargo xtask bench --anchors`) stands before `## Reproduce`.
        let md = match md.split_once("## The interpreter beside its anchors") {
            Some((head, rest)) => {
                let tail = rest.split_once("<!-- anchors: end -->\n\n");
                format!("{head}{}", tail.map_or("", |t| t.1))
            }
            None => md,
        };
        assert!(md.starts_with("# Benchmarks\n\nWritten by `cargo xtask bench`. Machine: "));
        assert!(md.contains(&format!("brackets. How the code reaches these figures and what bounds the missed goals: [docs/performance.md](docs/performance.md).\n\n{TABLE_HEAD}")));
        assert!(md.ends_with(&format!("|\n\n{REPRODUCE}")), "{md}");
        let codecs = full_corpus();
        let builds = [
            ("spec/", 1.0, 2.0, 3),
            ("full corpus (current)", 9.5, 20.0, 30_000),
        ];
        let fresh = render(&figures(24.0, &codecs, &builds));
        let rows = fresh
            .lines()
            .skip_while(|l| !l.starts_with("| --- "))
            .skip(1);
        for line in rows.take_while(|l| l.starts_with('|')) {
            let l = label(line).unwrap();
            assert!(
                md.contains(&format!("\n| {l} | ")),
                "no row `{l}` in BENCHMARKS.md"
            );
        }
    }

    #[test]
    fn pipeline_replaces_its_rows_only() {
        let codecs = full_corpus();
        let md = render(&figures(
            24.0,
            &codecs,
            &[("full corpus (current)", 9.5, 20.0, 30_000)],
        ));
        let fresh = generator(&figures(30.0, &codecs, &[]));
        let spliced = splice_rows(&md, &fresh).unwrap();
        assert!(spliced.contains("| 30.0 ms [27.0, 33.0] |  |  |"));
        assert!(!spliced.contains("| 24.0 ms ["));
        assert_eq!(spliced.lines().count(), md.lines().count());
        assert!(spliced.contains("| clean debug build, full corpus (current) crate |"));
        assert!(spliced.ends_with(REPRODUCE));
        // A row the table lacks is added at its end; a file without the table is refused.
        let added = splice_rows(&md, &row("new", "1", "", "")).unwrap();
        assert!(added.contains("| clean release build, full corpus (current) crate | 20.0 s |  |  |\n| new | 1 |  |  |\n\n## Reproduce"));
        assert!(splice_rows("# B\n", &fresh).is_none());
    }
}
