//! Where a regen spends its time (`cargo xtask regen --timings`): a [`Timings`] value, passed to
//! the pipeline ([`crate::generate_timed`]), records how long each stage took, per item when it
//! runs per file. [`Timings::off`] records nothing. Stages running on several threads at once add up their
//! busy time, so a stage's total can exceed the wall time of the run. Each record also holds the
//! CPU time of the thread that ran it (Unix): on a machine shared with other work, where wall
//! times include waiting for a core, it is the steadier measure of a stage's cost; for a stage
//! that hands work to other threads it counts only the calling thread.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The records of one run: shared by reference with every thread of the run.
#[derive(Debug)]
pub struct Timings {
    /// When recording started (each record's start is measured from it); `None`: off.
    epoch: Option<Instant>,
    records: Mutex<Vec<Record>>,
}

/// One timed run of a stage.
#[derive(Clone, Debug)]
pub struct Record {
    pub stage: &'static str,
    /// The doc or file it worked on, empty for a stage that runs once.
    pub item: String,
    pub elapsed: Duration,
    /// CPU time of the running thread (zero where unknown).
    pub cpu: Duration,
    /// When it started, from the start of recording.
    pub start: Duration,
}

/// CPU time the calling thread has used.
#[cfg(unix)]
pub fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// CPU time (user and system) all threads of the process have used.
#[cfg(unix)]
pub fn process_cpu() -> Duration {
    // SAFETY: an all-zero rusage is a valid value; the call only writes it.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable rusage.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) } != 0 {
        return Duration::ZERO;
    }
    let tv = |t: libc::timeval| {
        Duration::new(t.tv_sec.max(0) as u64, 0) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// CPU time all threads of the process have used (unknown here).
#[cfg(not(unix))]
pub fn process_cpu() -> Duration {
    Duration::ZERO
}

/// CPU time the calling thread has used (unknown here).
#[cfg(not(unix))]
pub fn thread_cpu() -> Duration {
    Duration::ZERO
}

impl Timings {
    /// Records from now on.
    pub fn new() -> Timings {
        Timings {
            epoch: Some(Instant::now()),
            records: Mutex::new(Vec::new()),
        }
    }

    /// Records nothing: each stage costs a branch.
    pub fn off() -> Timings {
        Timings {
            epoch: None,
            records: Mutex::new(Vec::new()),
        }
    }

    /// Runs `f`, recording its time under `stage` when on.
    pub fn time<R>(&self, stage: &'static str, f: impl FnOnce() -> R) -> R {
        self.time_item(stage, String::new, f)
    }

    /// [`Timings::time`] for one item of a stage (a file); `item` names it, called only when
    /// on.
    pub fn time_item<R>(
        &self,
        stage: &'static str,
        item: impl FnOnce() -> String,
        f: impl FnOnce() -> R,
    ) -> R {
        if self.epoch.is_none() {
            return f();
        }
        let (start, cpu) = (Instant::now(), thread_cpu());
        let r = f();
        let (elapsed, cpu) = (start.elapsed(), thread_cpu().saturating_sub(cpu));
        self.record(stage, item(), elapsed, cpu);
        r
    }

    /// Records a time measured by the caller (when on).
    pub fn record(&self, stage: &'static str, item: String, elapsed: Duration, cpu: Duration) {
        let Some(epoch) = self.epoch else {
            return;
        };
        let end = epoch.elapsed();
        // A poisoned lock only loses timings, never the run.
        if let Ok(mut r) = self.records.lock() {
            r.push(Record {
                stage,
                item,
                elapsed,
                cpu,
                start: end.saturating_sub(elapsed),
            });
        }
    }

    /// Everything recorded, in the order recorded.
    pub fn into_records(self) -> Vec<Record> {
        self.records.into_inner().unwrap_or_default()
    }
}

impl Default for Timings {
    fn default() -> Self {
        Timings::off()
    }
}

/// Milliseconds with two decimals.
fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

/// One stage's records added up.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage<'a> {
    pub name: &'static str,
    pub runs: usize,
    /// Wall time of all its runs (runs on several threads at once each count).
    pub total: Duration,
    /// CPU time of the threads that ran it.
    pub cpu: Duration,
    /// The longest run, and the item it worked on.
    pub max: Duration,
    pub longest: &'a str,
}

/// The records added up per stage, in the order each stage was first recorded.
pub fn stages(records: &[Record]) -> Vec<Stage<'_>> {
    let mut stages: Vec<Stage> = Vec::new();
    for r in records {
        let i = match stages.iter().position(|s| s.name == r.stage) {
            Some(i) => i,
            None => {
                stages.push(Stage {
                    name: r.stage,
                    runs: 0,
                    total: Duration::ZERO,
                    cpu: Duration::ZERO,
                    max: Duration::ZERO,
                    longest: "",
                });
                stages.len() - 1
            }
        };
        let s = &mut stages[i];
        s.runs += 1;
        s.total += r.elapsed;
        s.cpu += r.cpu;
        if r.elapsed >= s.max {
            s.max = r.elapsed;
            s.longest = &r.item;
        }
    }
    stages
}

/// A table of the records: per stage (first-recorded order) how many runs, their total wall and
/// CPU time and the longest (with its item), then the `slowest` items of all per-item stages.
pub fn report(records: &[Record], slowest: usize) -> String {
    let stages = stages(records);
    let width = stages
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = format!(
        "{:<width$} {:>5} {:>9} {:>9} {:>9}  longest\n",
        "stage", "runs", "total ms", "cpu ms", "max ms"
    );
    for s in &stages {
        out.push_str(&format!(
            "{:<width$} {:>5} {:>9} {:>9} {:>9}  {}\n",
            s.name,
            s.runs,
            ms(s.total),
            ms(s.cpu),
            ms(s.max),
            s.longest
        ));
    }
    let mut items: Vec<&Record> = records.iter().filter(|r| !r.item.is_empty()).collect();
    items.sort_by_key(|r| std::cmp::Reverse(r.elapsed));
    if !items.is_empty() && slowest > 0 {
        out.push_str("slowest items:\n");
        for r in items.iter().take(slowest) {
            out.push_str(&format!(
                "  {:>8} ms  {}  {}\n",
                ms(r.elapsed),
                r.stage,
                r.item
            ));
        }
    }
    out
}

/// The stages that ran once (no item), by start: when each started and ended, in ms from the
/// start of recording, to see what ran beside what.
pub fn waterfall(records: &[Record]) -> String {
    let mut once: Vec<&Record> = records.iter().filter(|r| r.item.is_empty()).collect();
    once.sort_by_key(|r| r.start);
    let mut out = String::from("   from      to  stage\n");
    for r in once {
        out.push_str(&format!(
            "{:>7} {:>7}  {}\n",
            ms(r.start),
            ms(r.start + r.elapsed),
            r.stage
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_sums_runs_per_stage_and_names_the_longest() {
        let rec = |stage, item: &str, ms| Record {
            stage,
            item: item.to_string(),
            elapsed: Duration::from_millis(ms),
            cpu: Duration::from_millis(ms / 2),
            start: Duration::ZERO,
        };
        let records = [
            rec("parse", "", 3),
            rec("format", "a.rs", 2),
            rec("format", "b.rs", 5),
        ];
        let text = report(&records, 1);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        let cols = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(cols(lines[1]), ["parse", "1", "3.00", "1.00", "3.00"]);
        assert_eq!(
            cols(lines[2]),
            ["format", "2", "7.00", "3.00", "5.00", "b.rs"]
        );
        assert_eq!(lines[3], "slowest items:");
        assert_eq!(cols(lines[4]), ["5.00", "ms", "format", "b.rs"]);
    }

    #[test]
    fn stages_add_up_wall_and_cpu_per_stage_in_first_recorded_order() {
        let rec = |stage, item: &str, wall, cpu| Record {
            stage,
            item: item.to_string(),
            elapsed: Duration::from_millis(wall),
            cpu: Duration::from_millis(cpu),
            start: Duration::ZERO,
        };
        let records = [
            rec("format", "a.rs", 2, 1),
            rec("parse", "", 3, 3),
            rec("format", "b.rs", 5, 4),
        ];
        let s = stages(&records);
        let ms = Duration::from_millis;
        assert_eq!(
            s,
            [
                Stage {
                    name: "format",
                    runs: 2,
                    total: ms(7),
                    cpu: ms(5),
                    max: ms(5),
                    longest: "b.rs"
                },
                Stage {
                    name: "parse",
                    runs: 1,
                    total: ms(3),
                    cpu: ms(3),
                    max: ms(3),
                    longest: ""
                }
            ]
        );
    }

    #[test]
    fn nothing_is_recorded_while_off_and_each_stage_while_on() {
        let off = Timings::off();
        assert_eq!(off.time("off", || 7), 7);
        assert!(off.into_records().is_empty());
        let on = Timings::new();
        assert_eq!(on.time("on", || 7), 7);
        on.time_item("each", || "a.rs".into(), || ());
        let records = on.into_records();
        let seen: Vec<_> = records.iter().map(|r| (r.stage, r.item.as_str())).collect();
        assert_eq!(seen, [("on", ""), ("each", "a.rs")]);
    }
}
