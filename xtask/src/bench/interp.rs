//! `cargo xtask bench --machine`: the interpreter's speed on ALU code (the `machine` bench of
//! the full-family crate, `runtime/benches/machine.rs`: one SIMD16 thread runs a loop of ten
//! integer and float ALU instructions, which the machine's fast path runs), in lane operations
//! per second on one core, against [`GOAL`]; its row of `BENCHMARKS.md` is replaced or added.
//! The full `cargo xtask bench` runs it too.

use super::{read_estimate, Estimate};
use std::fmt::Write as _;
use std::path::Path;

/// The goal: lane operations per second, one core, on ALU code.
pub const GOAL: f64 = 500e6;

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

/// The interpreter's row of the table: lane operations per second at the median (the
/// interval's bounds in brackets), the run's time, per CPU second of the bench's thread, and
/// the load of the machine (criterion times wall-clock, so other work lowers the figure).
pub fn section(i: &Interp) -> String {
    let (median, slow, fast) = i.rate();
    let mut figure = format!(
        "{:.1} M [{:.1}, {:.1}] (one run {:.2} ms, {:.0} lane operations)",
        median / 1e6,
        slow / 1e6,
        fast / 1e6,
        i.run.median / 1e6,
        i.lane_ops
    );
    if let Some(r) = i.cpu_rate {
        let _ = write!(figure, "; {:.1} M per CPU second", r / 1e6);
    }
    if let Some((before, after)) = i.load {
        let _ = write!(
            figure,
            "; load average {before:.1} before, {after:.1} after"
        );
    }
    super::report::row(
        "interpreter, lane operations per second (one SIMD16 thread, ALU loop)",
        &figure,
        &format!("≥ {:.0} M", GOAL / 1e6),
        if median >= GOAL { "met" } else { "**missed**" },
    )
}

/// `existing` with its interpreter row replaced by `section` (or added at the end of the
/// table, or with a table of its own when it has none).
pub fn splice(existing: &str, section: &str) -> String {
    super::report::splice_rows(existing, section)
        .unwrap_or_else(|| format!("{existing}\n{}{section}", super::report::TABLE_HEAD))
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
            cpu_rate: Some(120e6),
        }
    }

    #[test]
    fn rates_are_lane_operations_over_the_run_time() {
        // 100 000 lane operations in 1 ms: 100 M/s; the slow bound is the interval's high time.
        let (m, slow, fast) = figures(1e6).rate();
        assert!((m - 100e6).abs() < 1.0);
        assert!(slow < m && m < fast);
        // 100 000 in 0.1 ms: 1000 M/s, past the goal of 500 M; 100 M/s is short of it.
        let md = section(&figures(1e5));
        assert!(
            md.contains("| 1000.0 M [909.1, 1111.1]") && md.contains("| met |"),
            "{md}"
        );
        assert!(section(&figures(1e6)).contains("| 100.0 M [90.9, 111.1]"));
        assert!(md.contains("120.0 M per CPU second"), "{md}");
        assert!(md.contains("load average 0.5 before, 1.5 after"), "{md}");
        assert!(section(&figures(4e6)).contains("| **missed** |"));
    }

    #[test]
    fn the_row_is_replaced_or_added() {
        let head = crate::bench::report::TABLE_HEAD;
        let a = format!("# B\n\n{head}| parse | 1 |  |  |\n\n## Reproduce\n");
        let once = splice(&a, &section(&figures(1e5)));
        assert!(
            once.contains("| parse | 1 |  |  |\n| interpreter,"),
            "{once}"
        );
        let twice = splice(&once, &section(&figures(4e6)));
        assert_eq!(twice.lines().count(), once.lines().count());
        assert!(
            twice.contains("| **missed** |") && !twice.contains("| met |"),
            "{twice}"
        );
        assert!(splice("# B\n", &section(&figures(1e6))).contains(head));
    }
}
