//! `visa run --check`: the errors a GPU hides, found while a kernel runs, as Oclgrind reports
//! them for OpenCL.
//!
//! - **Out-of-bounds accesses** to buffers (by binding-table index or stateless address),
//!   images and SLM. With the check on, such an access is reported and then read as zeros or
//!   dropped, so the run goes on and finds the next one; without it, surfaces keep the docs'
//!   rule silently and stateless and SLM accesses stop the run ([`super::memory`]).
//! - **Divergent barriers**: a thread that reaches a barrier with some of its work-items
//!   (lanes) not there, threads of a work-group waiting at different barriers, and threads
//!   that end while others wait at one.
//! - **Data races** between the work-items of a work-group, on SLM and on global memory: two
//!   accesses to the same byte by different work-items, at least one a write, with no barrier
//!   between them; an atomic races only with a plain write (see `race`). Every barrier of the group starts a new interval,
//!   whatever its fence flags, and so does every work-group. A block message (OWORD_LD,
//!   SVM_BLOCK_LD...) is an access of its whole thread, which races with other threads only:
//!   which lane of a block is whose work-item is not known. Scratch (private) memory and
//!   images are not checked for races.
//!
//! Each [`Finding`] says where it happened (routine, instruction, thread, lane); the kernel
//! makes it a [`super::Report`] with the instruction's offset and Intel's text. The first
//! finding of a kind at an instruction is kept, with a count of the others.

use super::memory::Space;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// Findings kept: past this many distinct (kind, instruction) pairs, only counted.
pub const MAX_FINDINGS: usize = 1000;

/// Bytes whose accesses are remembered between two barriers (about 150 heap bytes each):
/// accesses to further bytes are not checked for races, only counted
/// ([`Checker::unchecked`]).
pub const MAX_SHADOW_BYTES: usize = 1 << 18;

/// Where an access or a barrier happened: routine index (0 the kernel), instruction index,
/// thread of the work-group and lane (`None`: a block message of the whole thread).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Site {
    pub routine: usize,
    pub pc: usize,
    pub thread: usize,
    pub lane: Option<u32>,
}

impl Site {
    /// Whether two accesses are by different work-items (a thread-wide access conflicts only
    /// with other threads).
    fn other_item(&self, o: &Site) -> bool {
        self.thread != o.thread || matches!((self.lane, o.lane), (Some(a), Some(b)) if a != b)
    }
}

/// How an access touches memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Atomic,
}

impl Access {
    fn name(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Atomic => "atomic",
        }
    }
}

/// What the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An access outside its buffer, image or the SLM: `what` says which and its bounds.
    OutOfBounds {
        space: Space,
        address: u64,
        size: u32,
        access: Access,
        what: String,
    },
    /// A barrier not every work-item of the group reaches together: `what` says who.
    Barrier { what: String },
    /// Two work-items touch the same byte without a barrier between, one of them writing.
    Race {
        space: Space,
        address: u64,
        access: Access,
        first: Site,
        first_access: Access,
    },
}

impl Kind {
    /// A short name of the kind (`out-of-bounds`, `divergent barrier`, `data race`).
    pub fn name(&self) -> &'static str {
        match self {
            Kind::OutOfBounds { .. } => "out-of-bounds access",
            Kind::Barrier { .. } => "divergent barrier",
            Kind::Race { .. } => "data race",
        }
    }

    /// The address of the access, when the finding is one.
    pub fn address(&self) -> Option<u64> {
        match self {
            Kind::OutOfBounds { address, .. } | Kind::Race { address, .. } => Some(*address),
            Kind::Barrier { .. } => None,
        }
    }

    /// What happened, in words (the place is the report's); `place` names an instruction of
    /// another site (a race's first access).
    pub fn describe(&self, place: &dyn Fn(&Site) -> String) -> String {
        match self {
            Kind::OutOfBounds {
                space,
                address,
                size,
                access,
                what,
            } => alloc::format!(
                "{size}-byte {} at {address:#x} in {space}: {what}",
                access.name()
            ),
            Kind::Barrier { what } => what.clone(),
            Kind::Race {
                space,
                address,
                access,
                first,
                first_access,
            } => alloc::format!(
                "{} of {space} at {address:#x} races with the {} of thread {}{} at {}, with no \
                 barrier between",
                access.name(),
                first_access.name(),
                first.thread,
                lane_text(first.lane),
                place(first)
            ),
        }
    }
}

/// `, lane N` or `` for a thread-wide access.
pub fn lane_text(lane: Option<u32>) -> String {
    lane.map_or_else(String::new, |l| alloc::format!(", lane {l}"))
}

/// One finding: what, where, in which work-group, and how many like it the instruction had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub kind: Kind,
    pub site: Site,
    pub group: [u32; 3],
    /// Occurrences of this kind at this instruction (this one included).
    pub count: u64,
}

/// The accesses to one byte since the group's last barrier.
#[derive(Clone, Debug, Default)]
struct Shadow {
    write: Option<(Site, Access)>,
    read: Option<Site>,
    /// A reader that is another work-item than `read`'s.
    other_read: Option<Site>,
}

/// The check's state over a run: the current place, the accesses of the current barrier
/// interval, and the findings.
#[derive(Clone, Debug, Default)]
pub struct Checker {
    /// Where the machine is: set per thread, instruction and lane.
    pub site: Site,
    group: [u32; 3],
    /// Bytes accessed since the last barrier: (memory, byte address) → accesses. Memory 0 is
    /// the SLM, `b + 1` host buffer `b`.
    shadow: BTreeMap<(usize, u64), Shadow>,
    findings: Vec<Finding>,
    /// Findings past [`MAX_FINDINGS`] distinct ones, only counted.
    pub dropped: u64,
    /// Accesses not checked for races: [`MAX_SHADOW_BYTES`] bytes were already remembered.
    pub unchecked: u64,
}

impl Checker {
    /// A new work-group starts: its group id, and no access before it counts.
    pub fn begin_group(&mut self, group: [u32; 3]) {
        self.group = group;
        self.shadow.clear();
    }

    /// Every thread of the group passed a barrier: accesses before it cannot race after it.
    pub fn barrier(&mut self) {
        self.shadow.clear();
    }

    /// The findings, in the order they were first seen.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// Records a finding at `site`; one of the same kind at the same instruction is counted.
    pub fn report(&mut self, kind: Kind, site: Site) {
        let same = |f: &&mut Finding| {
            core::mem::discriminant(&f.kind) == core::mem::discriminant(&kind)
                && (f.site.routine, f.site.pc) == (site.routine, site.pc)
        };
        if let Some(f) = self.findings.iter_mut().find(same) {
            f.count += 1;
        } else if self.findings.len() < MAX_FINDINGS {
            let group = self.group;
            self.findings.push(Finding {
                kind,
                site,
                group,
                count: 1,
            });
        } else {
            self.dropped += 1;
        }
    }

    /// An access of `size` bytes at byte `at` of memory `mem` (0 SLM, `b + 1` buffer `b`),
    /// reported at `address` of `space`: checks it against the interval's other accesses.
    pub fn access(
        &mut self,
        space: Space,
        address: u64,
        mem: usize,
        at: u64,
        size: u32,
        access: Access,
    ) {
        let site = self.site;
        if self.shadow.len() + size as usize > MAX_SHADOW_BYTES {
            self.unchecked += 1;
            return;
        }
        for i in 0..u64::from(size) {
            let s = self.shadow.entry((mem, at + i)).or_default();
            if let Some((first, first_access)) = race(s, &site, access) {
                let kind = Kind::Race {
                    space,
                    address: address + i,
                    access,
                    first,
                    first_access,
                };
                self.report(kind, site);
                // One report per access, not one per byte.
                let s = self.shadow.entry((mem, at + i)).or_default();
                record(s, site, access);
                for j in i + 1..u64::from(size) {
                    record(self.shadow.entry((mem, at + j)).or_default(), site, access);
                }
                return;
            }
        }
    }
}

/// The earlier access `site`'s `access` races with, if any, after recording it in `s` when
/// there is none. Two plain accesses race when one writes; an atomic races only with a plain
/// write: a plain read of what others update atomically (the first read of a
/// compare-and-swap loop) gets the value before or after each atomic, which the atomics
/// that follow it must handle anyway.
fn race(s: &mut Shadow, site: &Site, access: Access) -> Option<(Site, Access)> {
    if let Some((w, wa)) = s.write {
        // An atomic races only with a plain write.
        let benign = wa == Access::Atomic && access != Access::Write;
        if w.other_item(site) && !benign {
            return Some((w, wa));
        }
    }
    if access == Access::Write {
        let reader = [s.read, s.other_read]
            .into_iter()
            .flatten()
            .find(|r| r.other_item(site));
        if let Some(r) = reader {
            return Some((r, Access::Read));
        }
    }
    record(s, *site, access);
    None
}

/// Adds an access to a byte's accesses of the interval.
fn record(s: &mut Shadow, site: Site, access: Access) {
    if access == Access::Read {
        match s.read {
            None => s.read = Some(site),
            Some(r) if s.other_read.is_none() && r.other_item(&site) => s.other_read = Some(site),
            Some(_) => {}
        }
    } else {
        s.write = Some((site, access));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(thread: usize, lane: Option<u32>, pc: usize) -> Site {
        Site {
            routine: 0,
            pc,
            thread,
            lane,
        }
    }

    fn run(accesses: &[(Site, Access, u64)]) -> Vec<Finding> {
        let mut c = Checker::default();
        c.begin_group([0; 3]);
        for &(site, access, a) in accesses {
            c.site = site;
            c.access(Space::Slm, a, 0, a, 4, access);
        }
        c.findings
    }

    #[test]
    fn reads_by_many_and_accesses_by_one_work_item_do_not_race() {
        let (a, b) = (at(0, Some(0), 1), at(0, Some(1), 2));
        assert!(run(&[(a, Access::Read, 0), (b, Access::Read, 0)]).is_empty());
        assert!(run(&[
            (a, Access::Write, 0),
            (a, Access::Read, 0),
            (a, Access::Write, 0)
        ])
        .is_empty());
        // Different bytes: lanes 0 and 1 write 0..4 and 4..8.
        assert!(run(&[(a, Access::Write, 0), (b, Access::Write, 4)]).is_empty());
        assert!(run(&[(a, Access::Atomic, 0), (b, Access::Atomic, 0)]).is_empty());
        // A plain read and atomics, in either order (a compare-and-swap loop).
        let cas = [
            (a, Access::Read, 0),
            (b, Access::Atomic, 0),
            (a, Access::Read, 0),
        ];
        assert!(run(&cas).is_empty());
        // A thread-wide access and a lane of the same thread: program order.
        assert!(run(&[(at(0, None, 1), Access::Write, 0), (b, Access::Read, 0)]).is_empty());
    }

    #[test]
    fn a_write_and_another_work_items_access_race_once_per_access() {
        let (a, b) = (at(0, Some(0), 1), at(1, Some(0), 7));
        let f = run(&[(a, Access::Write, 8), (b, Access::Read, 8)]);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].site, b);
        assert_eq!(
            f[0].kind,
            Kind::Race {
                space: Space::Slm,
                address: 8,
                access: Access::Read,
                first: a,
                first_access: Access::Write
            }
        );
        // Read then write by another lane: the read is the first access.
        let f = run(&[(b, Access::Read, 8), (a, Access::Write, 8)]);
        assert_eq!(f.len(), 1);
        assert!(
            matches!(f[0].kind, Kind::Race { first, first_access: Access::Read, .. } if first == b)
        );
        // Two readers, then one of them writes: it races with the other.
        let c = at(0, Some(3), 2);
        let f = run(&[
            (a, Access::Read, 8),
            (c, Access::Read, 8),
            (a, Access::Write, 8),
        ]);
        assert!(matches!(f[0].kind, Kind::Race { first, .. } if first == c));
        // An atomic and a plain write race, in either order.
        assert_eq!(
            run(&[(a, Access::Atomic, 0), (b, Access::Write, 0)]).len(),
            1
        );
        assert_eq!(
            run(&[(a, Access::Write, 0), (b, Access::Atomic, 0)]).len(),
            1
        );
    }

    #[test]
    fn a_barrier_ends_the_interval_and_findings_count_per_instruction() {
        let mut c = Checker::default();
        let (a, b) = (at(0, Some(0), 1), at(0, Some(1), 2));
        c.site = a;
        c.access(Space::Slm, 0, 0, 0, 4, Access::Write);
        c.barrier();
        c.site = b;
        c.access(Space::Slm, 0, 0, 0, 4, Access::Read);
        assert!(c.findings().is_empty());
        // Lane 0 writes what lane 1 read with no barrier between: one race, at lane 0's write.
        c.site = a;
        c.access(Space::Slm, 0, 0, 0, 4, Access::Write);
        assert_eq!(c.findings().len(), 1);
        assert_eq!((c.findings()[0].site, c.findings()[0].count), (a, 1));
        // Two more reads of lane 0's writes by lane 1 at one instruction: one finding, counted.
        c.access(Space::Slm, 4, 0, 4, 4, Access::Write);
        c.site = b;
        c.access(Space::Slm, 0, 0, 0, 4, Access::Read);
        c.access(Space::Slm, 4, 0, 4, 4, Access::Read);
        assert_eq!(c.findings().len(), 2);
        assert_eq!((c.findings()[1].site, c.findings()[1].count), (b, 2));
    }
}
