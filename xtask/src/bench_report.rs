//! BENCHMARKS.md from the figures `cargo xtask bench` measured: one table per goal of the
//! performance issue, each goal marked met or missed, and for a missed one what bounds it.

use crate::bench::{Codec, Estimate, RegenStages, Stream};
use std::fmt::Write as _;

/// Everything one run measured.
pub(crate) struct Figures<'a> {
    pub date: String,
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

/// The goals (issue 11): decode and encode in bytes per second, whole-file rates, regen and
/// build times.
const DECODE_GOAL: f64 = 1e9;
const ENCODE_GOAL: f64 = 2e9;
const FILE_PARSE_GOAL: f64 = 500e6;
const PRINT_GOAL: f64 = 200e6;
const TEXT_PARSE_GOAL: f64 = 100e6;
/// `visa check` of whole files (issue 19): parse and validate every routine.
const CHECK_GOAL: f64 = 300e6;
const REGEN_GOAL_MS: f64 = 50.0;
const NOOP_GOAL_MS: f64 = 10.0;
/// Issue 17: a regen after one doc changed re-emits only what the doc reaches.
const ONE_DOC_GOAL_MS: f64 = 25.0;
const DEBUG_BUILD_GOAL_S: f64 = 10.0;

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

/// `bytes` per `ns` as MB/s.
fn mbs(bytes: f64, ns: f64) -> f64 {
    bytes / ns * 1e3
}

/// One row of a codec table: MB/s, instructions/s, ns per instruction, ratio to memcpy.
fn rate(s: &Stream, e: &Estimate) -> String {
    format!(
        "{:.0} MB/s · {:.1} M instr/s · {:.1} ns/instr · {:.3} of memcpy",
        mbs(s.bytes, e.median),
        s.instructions / e.median * 1e3,
        e.median / s.instructions,
        s.memcpy.median / e.median
    )
}

/// Renders the whole file.
pub(crate) fn render(f: &Figures<'_>) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Benchmarks\n");
    let _ = writeln!(
        md,
        "Written by `cargo xtask bench` on {}. Machine: {}.\n\nMedians of criterion samples \
         (the spread is criterion's 95% confidence interval). Goals are those of issue 11.\n",
        f.date, f.machine
    );
    md.push_str(&generator(f));
    for c in f.codecs {
        codec(&mut md, c);
    }
    files(&mut md, f.codecs);
    builds(&mut md, f.builds);
    peers(&mut md);
    md
}

/// The `## Generator` section (also rewritten alone by `cargo xtask bench --pipeline`).
pub(crate) fn generator(f: &Figures<'_>) -> String {
    let mut out = String::new();
    let md = &mut out;
    let _ = writeln!(md, "## Generator\n");
    let _ = writeln!(
        md,
        "| benchmark | median | spread | goal | |\n| --- | --- | --- | --- | --- |"
    );
    let row = |md: &mut String, what: &str, e: &Estimate, goal: Option<f64>| {
        let (g, v) = match goal {
            Some(g) => (format!("≤ {g} ms"), verdict(e.median / 1e6 <= g)),
            None => ("—".to_string(), ""),
        };
        let _ = writeln!(
            md,
            "| {what} | {} | {} – {} | {g} | {v} |",
            ms(e.median),
            ms(e.low),
            ms(e.high)
        );
    };
    row(
        md,
        "parse + schema, whole shared corpus (current + 2021)",
        &f.parse,
        None,
    );
    row(
        md,
        "full regen of the current family, first run into an empty dir",
        &f.first,
        Some(REGEN_GOAL_MS),
    );
    row(
        md,
        "no-op regen (`xtask regen` process, nothing changed: nothing written)",
        &f.noop,
        Some(NOOP_GOAL_MS),
    );
    match &f.one_doc {
        Some(e) => row(
            md,
            "regen after one doc changed (`xtask regen` process; only what the doc reaches is written)",
            e,
            Some(ONE_DOC_GOAL_MS),
        ),
        None => {
            let _ = writeln!(
                md,
                "| regen after one doc changed | not measured | | ≤ {ONE_DOC_GOAL_MS} ms | |"
            );
        }
    }
    md.push('\n');
    crate::bench_bounds::regen(md, f.regen, REGEN_GOAL_MS);
    out
}

/// `existing` (BENCHMARKS.md) with its `## Generator` section replaced by `section`, and the
/// date line saying which part was measured when; `None` when it has no such section.
pub(crate) fn splice_generator(existing: &str, section: &str, date: &str) -> Option<String> {
    let start = existing.find("## Generator\n")?;
    let end = existing[start + 1..]
        .find("\n## ")
        .map_or(existing.len(), |i| start + 2 + i);
    let mut md = String::new();
    md.push_str(&existing[..start]);
    md.push_str(section);
    let _ = writeln!(
        md,
        "The generator section above was measured on {date} (`cargo xtask bench --pipeline`); \
         the sections below come from the last full `cargo xtask bench`.\n"
    );
    md.push_str(&existing[end..]);
    Some(md)
}

fn codec(md: &mut String, c: &Codec) {
    let _ = writeln!(md, "## Codec: {} crate\n", c.label);
    let _ = writeln!(
        md,
        "`Instruction` is {} bytes; allocations per decoded instruction (random stream): {} \
         with `decode`, {} with `runtime::Decoder`.\n",
        c.stats["instruction_size"],
        c.stats["allocations_per_decode"],
        c.stats["allocations_per_stream_decode"]
    );
    let _ = writeln!(md, "| stream | instructions | bytes | decode (`runtime::Decoder`) | owned, into a Vec (`decode`) | encode (`runtime::Encoder`) | memcpy |\n| --- | --- | --- | --- | --- | --- | --- |");
    let streams = [
        (
            format!(
                "random mix ({} of {} instructions)",
                c.stats["instructions_mixed"], c.stats["instructions_in_crate"]
            ),
            Some(&c.random),
        ),
        ("dg2 real streams".to_string(), c.dg2.as_ref()),
    ];
    for (name, s) in streams {
        let Some(s) = s else {
            let _ = writeln!(
                md,
                "| {name} | — | — | not measured: ../shared absent, or this crate decodes none of its streams | | | |"
            );
            continue;
        };
        let _ = writeln!(
            md,
            "| {name} | {} | {} | {} | {} | {} | {:.0} MB/s |",
            s.instructions,
            s.bytes,
            rate(s, &s.decode),
            rate(s, &s.collect),
            rate(s, &s.encode),
            mbs(s.bytes, s.memcpy.median)
        );
    }
    if c.label.starts_with("full") {
        md.push('\n');
        for (name, s) in [("random mix", Some(&c.random)), ("dg2", c.dg2.as_ref())] {
            let Some(s) = s else { continue };
            let d = mbs(s.bytes, s.decode.median) * 1e6;
            let e = mbs(s.bytes, s.encode.median) * 1e6;
            let _ = writeln!(
                md,
                "- Goals, {name}: decode ≥ 1 GB/s {} ({:.2} GB/s); encode ≥ 2 GB/s {} ({:.2} GB/s).",
                verdict(d >= DECODE_GOAL),
                d / 1e9,
                verdict(e >= ENCODE_GOAL),
                e / 1e9
            );
        }
        let _ = writeln!(md, "\n{CODEC_COLUMNS}\n");
        let _ = writeln!(
            md,
            "{CODEC_BOUNDS_HEAD} one indirect jump over {} opcodes per instruction, {CODEC_BOUNDS_TAIL}\n",
            c.stats["instructions_in_crate"]
        );
        crate::bench_bounds::random_mix(md, c);
        return;
    }
    md.push('\n');
}

/// What the columns of a codec table measure.
const CODEC_COLUMNS: &str = "What the columns measure: `runtime::Decoder` decodes each \
instruction in place into one reused `Instruction` (the API for walking a stream); `decode` \
returns each one as a value, pushed into a `Vec`; `runtime::Encoder` encodes through one \
512-byte stack buffer kept across instructions.";

/// What bounds decode and encode on this design (`perf`, see the notes); the section after it
/// measures which of the branches bound the random mix.
const CODEC_BOUNDS_HEAD: &str = "What bounds the codec (`perf record`, no hardware counters on \
this VM): decoding in place removed the cost that bound the previous design, where each field \
was stored narrowly into a value that was then moved whole, and the CPU cannot forward narrow \
stores to the wide loads of the move (about a third of decode time then; operands are now also \
written straight into their field). What is left is branches on data:";
const CODEC_BOUNDS_TAIL: &str = "mispredicted on irregular opcode sequences, the class of each \
operand, and the value checks of each field. On real streams most operands are general and take \
one inlined path; in the random mix every operand's class, modifier and enum value is random, \
so these branches miss for most operands: the operand-class jump table and the opcode jump table \
take the largest shares of `perf` samples. Which of them bounds the random mix is measured \
below. Encoding is bound the same way (dispatch on the instruction and on each operand's class; \
a general operand is written inline) plus, each time the staging buffer is copied out, reads of \
bytes still in the store buffer.";

fn files(md: &mut String, codecs: &[Codec]) {
    let Some((stats, [parse, dis, print, asm, check])) = codecs
        .iter()
        .find(|c| c.label.starts_with("full"))
        .and_then(|c| c.files.as_ref())
    else {
        let _ = writeln!(
            md,
            "## Whole files\n\nNot measured: ../shared/real-kernels/dg2 absent.\n"
        );
        return;
    };
    let num = |k: &str| stats[k].as_f64().unwrap_or(0.0);
    let (file_bytes, text_bytes, asm_bytes) =
        (num("file_bytes"), num("text_bytes"), num("asm_bytes"));
    let _ = writeln!(
        md,
        "## Whole files (full-family crate, Intel's dg2 files)\n"
    );
    let _ = writeln!(
        md,
        "{} `.isa` files ({} bytes, GEN binaries included), {} bytes of text printed, {} `.visaasm` \
         texts ({} bytes) assembled.\n",
        stats["files"], file_bytes, text_bytes, stats["asm_texts"], asm_bytes
    );
    let _ = writeln!(
        md,
        "| what | median | rate | goal | |\n| --- | --- | --- | --- | --- |"
    );
    let rows = [
        (
            "parse `.isa` + decode every instruction (`File::parse`)",
            parse,
            file_bytes,
            "file bytes",
            Some(FILE_PARSE_GOAL),
        ),
        (
            "print Intel's text of every routine (from parsed files)",
            print,
            text_bytes,
            "text bytes written",
            Some(PRINT_GOAL),
        ),
        (
            "`visa dis`: parse + print, from the bytes",
            dis,
            file_bytes,
            "file bytes",
            None,
        ),
        (
            "`visa asm`: parse Intel's text, build the object file",
            asm,
            asm_bytes,
            "text bytes",
            Some(TEXT_PARSE_GOAL),
        ),
        (
            "`visa check`: parse + validate every routine (`File::parse`, `File::validate`)",
            check,
            file_bytes,
            "file bytes",
            Some(CHECK_GOAL),
        ),
    ];
    for (what, e, bytes, unit, goal) in rows {
        let r = mbs(bytes, e.median);
        let (g, v) = match goal {
            Some(g) => (format!("≥ {:.0} MB/s", g / 1e6), verdict(r * 1e6 >= g)),
            None => ("—".into(), ""),
        };
        let _ = writeln!(
            md,
            "| {what} | {} | {r:.0} MB/s of {unit} | {g} | {v} |",
            ms(e.median)
        );
    }
    md.push('\n');
}

fn builds(md: &mut String, builds: &[(&'static str, f64, f64, usize)]) {
    let _ = writeln!(md, "## Build time of the generated crate\n");
    let _ = writeln!(
        md,
        "Clean `cargo build` of the generated crate alone (no dependencies), wall time.\n"
    );
    let _ = writeln!(md, "| crate | generated lines | debug | release | goal (debug ≤ {DEBUG_BUILD_GOAL_S} s) |\n| --- | --- | --- | --- | --- |");
    for (label, debug, release, lines) in builds {
        let goal = if label.starts_with("full") {
            verdict(*debug <= DEBUG_BUILD_GOAL_S)
        } else {
            ""
        };
        let _ = writeln!(
            md,
            "| {label} | {lines} | {debug:.1} s | {release:.1} s | {goal} |"
        );
    }
    md.push('\n');
}

fn peers(md: &mut String) {
    let _ = writeln!(md, "## Peers\n");
    let _ = writeln!(
        md,
        "Decode throughput of x86 decoders as their projects publish it (desktop CPUs, not this \
         machine; figures as collected in issue 11 of our tracker, not re-measured here). Their \
         common traits: a small decoded instruction (40-64 bytes), operands decoded on demand, \
         no allocation, table-driven dispatch, formatting apart.\n"
    );
    let _ = writeln!(md, "| decoder | published decode rate |\n| --- | --- |");
    for (name, rate) in [
        (
            "yaxpeax-x86",
            "about 460 MB/s (decode and format: about 190-200 MB/s)",
        ),
        ("iced", "about 360-390 MB/s"),
        ("bddisasm", "about 180 MB/s"),
        ("Zydis", "50-100 MB/s"),
        ("Capstone (with formatting)", "about 27 MB/s"),
    ] {
        let _ = writeln!(md, "| {name} | {rate} |");
    }
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

    /// Figures of a run on `date`: parse 20 ms, first regen 49 ms, no-op regen 11 ms.
    fn figures<'a>(
        date: &str,
        one_doc_ms: f64,
        codecs: &'a [Codec],
        builds: &'a [(&'static str, f64, f64, usize)],
    ) -> Figures<'a> {
        Figures {
            date: date.into(),
            machine: "m".into(),
            parse: est(20e6),
            first: est(49e6),
            noop: est(11e6),
            one_doc: Some(est(one_doc_ms * 1e6)),
            regen: None,
            codecs,
            builds,
        }
    }

    #[test]
    fn goals_are_judged_on_the_measured_rates() {
        let codecs = full_corpus();
        let md = render(&figures(
            "today",
            24.0,
            &codecs,
            &[("full corpus (current)", 9.5, 20.0, 30_000)],
        ));
        for line in [
            // Random: 1e6 bytes in 0.9 ms = 1.11 GB/s (met); dg2 in 1.1 ms = 0.91 GB/s
            // (missed); encode 1 GB/s misses 2 GB/s in both.
            "random mix: decode ≥ 1 GB/s met (1.11 GB/s); encode ≥ 2 GB/s **missed** (1.00 GB/s)",
            "dg2: decode ≥ 1 GB/s **missed** (0.91 GB/s)",
            // 40,000 instructions in 0.9 ms and 1.1 ms; memcpy in 0.01 ms.
            "| 1111 MB/s · 44.4 M instr/s · 22.5 ns/instr · 0.011 of memcpy |",
            "| 909 MB/s · 36.4 M instr/s · 27.5 ns/instr · 0.009 of memcpy |",
            // 49 ms meets 50 ms; 11 ms misses 10 ms.
            "| 49.0 ms | 44.1 ms – 53.9 ms | ≤ 50 ms | met |",
            "| 11.0 ms | 9.9 ms – 12.1 ms | ≤ 10 ms | **missed** |",
            // Files: 1e6 bytes in 1 ms = 1000 MB/s; print 2e6 in 20 ms = 100 MB/s (missed).
            "| 1000 MB/s of file bytes | ≥ 500 MB/s | met |",
            "| 100 MB/s of text bytes written | ≥ 200 MB/s | **missed** |",
            "| 200 MB/s of text bytes | ≥ 100 MB/s | met |",
            "| 9.5 s | 20.0 s | met |",
            // 24 ms meets the one-doc goal of 25 ms.
            "| 24.0 ms | 21.6 ms – 26.4 ms | ≤ 25 ms | met |",
            "| yaxpeax-x86 |",
        ] {
            assert!(md.contains(line), "no `{line}` in:\n{md}");
        }
    }

    #[test]
    fn pipeline_replaces_the_generator_section_only() {
        let codecs = full_corpus();
        let md = render(&figures(
            "today",
            24.0,
            &codecs,
            &[("full corpus (current)", 9.5, 20.0, 30_000)],
        ));
        let fresh = generator(&figures("tomorrow", 30.0, &codecs, &[]));
        let spliced = splice_generator(&md, &fresh, "tomorrow").unwrap();
        assert!(spliced.contains("| 30.0 ms | 27.0 ms – 33.0 ms | ≤ 25 ms | **missed** |"));
        assert!(!spliced.contains("| 24.0 ms |"));
        assert!(spliced.contains("measured on tomorrow"));
        assert!(spliced.contains("## Codec: full corpus (current) crate"));
        assert!(spliced.contains("| yaxpeax-x86 |"));
    }
}
