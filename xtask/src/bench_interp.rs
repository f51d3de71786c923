//! `cargo xtask bench --machine`: the interpreter's speed on ALU code (the `machine` bench of
//! the full-family crate, `generated/benches/machine.rs`), in lane operations per second on one
//! core, against the goal of 50 million; its section of `BENCHMARKS.md` is replaced or added.
//! The full `cargo xtask bench` runs it too.

use crate::bench::{read_estimate, Estimate};
use std::fmt::Write as _;
use std::path::Path;

/// The goal: lane operations per second, one core.
pub const GOAL: f64 = 50e6;

/// What the machine bench measured.
pub struct Interp {
    pub run: Estimate,
    pub lane_ops: f64,
    /// The 1-minute load average before and after the bench (Linux), when known: criterion
    /// times wall-clock, so other work on the machine's cores slows the figure.
    pub load: Option<(f64, f64)>,
    /// Lane operations per CPU second of the bench's thread (Linux), measured after
    /// criterion's runs: what one core does whatever else shares the machine.
    pub cpu_rate: Option<f64>,
}

/// The 1-minute load average (`/proc/loadavg`), where the system has one.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

impl Interp {
    /// Lane operations per second at the median (and at the interval's bounds: slow, fast).
    pub fn rate(&self) -> (f64, f64, f64) {
        let per = |ns: f64| self.lane_ops / (ns * 1e-9);
        (per(self.run.median), per(self.run.high), per(self.run.low))
    }
}

/// Runs the machine bench of the crate at `manifest` with its target in `target`.
pub fn measure(manifest: &Path, target: &Path, shared: &Path) -> Result<Interp, String> {
    let mut cmd =
        std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.args([
        "bench",
        "--bench",
        "machine",
        "--features",
        "machine",
        "--manifest-path",
    ])
    .arg(manifest)
    .env("VISA_SHARED", shared)
    .env("CARGO_TARGET_DIR", target);
    eprintln!("bench: running {cmd:?}");
    let before = load_average();
    let status = cmd.status().map_err(|e| format!("{cmd:?}: {e}"))?;
    if !status.success() {
        return Err(format!("{cmd:?} failed with {status}"));
    }
    let run = read_estimate(&target.join("criterion"), "machine/alu_simd16").ok_or(
        "no criterion estimate for machine/alu_simd16 (did the bench skip? see its output)",
    )?;
    let text = std::fs::read_to_string(target.join("visa-bench/machine.json"))
        .map_err(|e| format!("machine.json: {e}"))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("machine.json: {e}"))?;
    let lane_ops = json["lane_ops_per_run"]
        .as_f64()
        .ok_or("machine.json has no lane_ops_per_run")?;
    let cpu_rate = json["lane_ops_per_cpu_second"].as_f64();
    let load = before.zip(load_average());
    Ok(Interp {
        run,
        lane_ops,
        load,
        cpu_rate,
    })
}

/// The `## Machine (interpreter)` section.
pub fn section(i: &Interp, date: &str, host: &str) -> String {
    let (median, slow, fast) = i.rate();
    let mut md = String::from("## Machine (interpreter)\n\n");
    let _ = writeln!(
        md,
        "Measured on {date}, {host}. `generated/benches/machine.rs` in the full-family crate \
         (`--features machine`): one SIMD16 thread runs 1000 passes of a loop of ten integer and \
         float ALU instructions (add, mul, and, or, xor, shl, asr, mad; float add and mul) plus \
         the loop's counter, compare and backward goto, through the generated lane functions \
         (over whole operands: each source read and each destination written once per \
         instruction). A lane operation is one enabled channel of one instruction that is not control flow; \
         {:.0} per run.\n",
        i.lane_ops
    );
    let _ = writeln!(md, "| run (median, 95% interval) | lane operations per second | goal | |\n| --- | --- | --- | --- |");
    let _ = writeln!(
        md,
        "| {:.2} ms [{:.2}, {:.2}] | {:.1} M [{:.1}, {:.1}] | {:.0} M | {} |\n",
        i.run.median / 1e6,
        i.run.low / 1e6,
        i.run.high / 1e6,
        median / 1e6,
        slow / 1e6,
        fast / 1e6,
        GOAL / 1e6,
        if median >= GOAL { "met" } else { "missed" }
    );
    if let Some(r) = i.cpu_rate {
        let _ = writeln!(
            md,
            "Per CPU second of the bench's thread (user and system time of \
             `/proc/thread-self/stat`, at least 3 s of runs after criterion's): {:.1} M lane \
             operations per second.\n",
            r / 1e6
        );
    }
    if let Some((before, after)) = i.load {
        let _ = writeln!(
            md,
            "Load average (1 minute) {before:.1} before the bench, {after:.1} after: criterion \
             times wall-clock, so work of other processes on the cores lowers the figure.\n"
        );
    }
    md
}

/// `existing` with its machine section replaced by `section` (added before `## Peers`, or at
/// the end, when it has none).
pub fn splice(existing: &str, section: &str) -> String {
    let head = "## Machine (interpreter)\n";
    if let Some(start) = existing.find(head) {
        let end = existing[start + 1..]
            .find("\n## ")
            .map_or(existing.len(), |i| start + 2 + i);
        return format!("{}{section}{}", &existing[..start], &existing[end..]);
    }
    match existing.find("## Peers\n") {
        Some(at) => format!("{}{section}{}", &existing[..at], &existing[at..]),
        None => format!("{existing}\n{section}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(median_ns: f64) -> Interp {
        Interp {
            run: Estimate {
                median: median_ns,
                low: median_ns * 0.9,
                high: median_ns * 1.1,
            },
            lane_ops: 100_000.0,
            load: Some((0.5, 1.5)),
            cpu_rate: Some(123.45e6),
        }
    }

    #[test]
    fn rates_are_lane_operations_over_the_run_time() {
        // 100 000 lane operations in 1 ms: 100 M/s; the slow bound is the interval's high time.
        let (m, slow, fast) = figures(1e6).rate();
        assert!((m - 100e6).abs() < 1.0);
        assert!(slow < m && m < fast);
        let md = section(&figures(1e6), "D", "H");
        assert!(md.contains("| 100.0 M") && md.contains("| met |"), "{md}");
        assert!(
            md.contains("Load average (1 minute) 0.5 before the bench, 1.5 after"),
            "{md}"
        );
        assert!(section(&figures(4e6), "D", "H").contains("| missed |"));
    }

    #[test]
    fn the_section_is_replaced_or_added_before_peers() {
        let a = "# B\n\n## Codec\n\nx\n\n## Peers\n\np\n";
        let once = splice(a, "## Machine (interpreter)\n\nOLD\n\n");
        assert_eq!(
            once,
            "# B\n\n## Codec\n\nx\n\n## Machine (interpreter)\n\nOLD\n\n## Peers\n\np\n"
        );
        let twice = splice(&once, "## Machine (interpreter)\n\nNEW\n\n");
        assert_eq!(
            twice,
            "# B\n\n## Codec\n\nx\n\n## Machine (interpreter)\n\nNEW\n\n## Peers\n\np\n"
        );
        assert_eq!(
            splice("# B\n", "## Machine (interpreter)\n\nS\n"),
            "# B\n\n## Machine (interpreter)\n\nS\n"
        );
    }
}
