//! Platforms by the names users and Intel's tools say (`SKL`, `dg2`, `acm-g10`, `XeHP_SDV`,
//! `PVCXT`), placed in the docs' order.
//!
//! The docs name few platforms (`{XEHP+}`, `{pre-ICLLP}`), and the generated [`Platform`] holds
//! only those, oldest first, behind one `pre-<oldest>` for every older generation. Intel's tools
//! name more, and how they relate is a fact of IGC, not of the instruction docs, so it is this
//! hand-written table, with its sources:
//! - `name`: GenX_IR's `-platform` names (IGC 1.0.12504.6, `GenX_IR -help`: "BDW, CHV, SKL, BXT,
//!   ICLLP, TGLLP, XeHP_SDV, DG2, MTL, PVC, PVCXT"; IGC 2.x adds ARL, XE2 (also `LNL`), XE3
//!   (`PTL`), XE3P_CRI (`CRI`) and NVL, its `PlatformInfo` table), in the order of IGC's
//!   `TARGET_PLATFORM` enum (`visa_igc_common_header.h`);
//! - `gen_platform`: the code the object file's `gen_binary_info.gen_platform` holds (chapter
//!   `4_visa_header.md` with erratum `4_visa_header-04-gen-platform.patch`; measured: `GenX_IR
//!   -platform P -binary` for each P of 12504.6; for the platforms after PVCXT, which no
//!   compiler that writes `.isa` files knows, IGC 2.x's `PlatformInfo` codes 18, 19, 21, 22);
//! - `ocloc`: the `ocloc compile -device` names whose kernels carry that platform: for the
//!   platforms up to PVCXT measured with `intel-isa ocl` on ocloc 22.43 (IGC 1.0.12504.6), `pvc`
//!   giving PVCXT (15) and `pvc-sdv` PVC (14); for MTL and later, the `//Platform:` line
//!   ocloc 26.27 (IGC 2.40, `intel-modern ocl`) writes at the end of each kernel's text
//!   (`arl-s` and `arl-u` are MTL, `arl-h` ARL, `nvl-s` XE3, `nvl-p` NVL);
//! - `docs`: the name the docs (the generator's platform list, `codegen/src/analyze/platform.rs`)
//!   give that generation, when they have one;
//! - `grf_bytes`: the size of a register, 64 bytes from PVC on, 32 before (IGC
//!   `PlatformInfo`); it turns ADDR_ADD's `&V[bytes]` into a row and a column.
//!
//! A platform counts as the newest generation of the docs at or before it: MTL is DG2, BXT is
//! SKL, BDW is `pre-SKL` ([`IntelPlatform::platform`]). The docs (2025-02) describe nothing
//! after PVC_XT, so ARL follows the rules of MTL, and XE2, XE3, XE3P_CRI and NVL those of PVC_XT,
//! the newest platform they describe. An erratum that names one of them (`{-PVC,XE2+}`) puts it in
//! the generated enum, and a rule that names none holds on it as on the described generation
//! before it (the generator's `inherit`). A test checks the table against the generated enum.

use crate::generated::Platform;
use core::fmt;
use core::str::FromStr;

/// One of Intel's platforms (a row of the table above).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntelPlatform {
    /// GenX_IR's `-platform` name.
    pub name: &'static str,
    /// `gen_binary_info.gen_platform` in object files written for it.
    pub gen_platform: u8,
    /// ocloc device names that compile for it.
    pub ocloc: &'static [&'static str],
    /// The docs' name of this generation, if they have one.
    pub docs: Option<&'static str>,
    /// Bytes per general register.
    pub grf_bytes: u32,
}

/// Intel's platforms in IGC's order, oldest first.
pub const INTEL_PLATFORMS: &[IntelPlatform] = &[
    row("BDW", 3, &["bdw", "gen8"], Some("BDW"), 32),
    row("CHV", 4, &[], None, 32),
    row(
        "SKL",
        5,
        &["skl", "kbl", "cfl", "whl", "aml", "cml", "gen9"],
        Some("SKL"),
        32,
    ),
    row("BXT", 6, &["bxt", "apl", "glk"], Some("BXT"), 32),
    row(
        "ICLLP",
        10,
        &["icllp", "lkf", "ehl", "jsl", "gen11"],
        Some("ICLLP"),
        32,
    ),
    row(
        "TGLLP",
        12,
        &["tgllp", "rkl", "adl-s", "adl-p", "adl-n", "dg1", "gen12lp"],
        Some("TGLLP"),
        32,
    ),
    row("XeHP_SDV", 11, &["xe_hp_sdv"], Some("XEHP"), 32),
    row(
        "DG2",
        13,
        &[
            "acm-g10", "acm-g11", "acm-g12", "dg2-g10", "dg2-g11", "dg2-g12", "ats-m150",
            "ats-m75", "dg2", "xe-hpg",
        ],
        Some("DG2"),
        32,
    ),
    row(
        "MTL",
        13,
        &[
            "mtl", "mtl-m", "mtl-s", "mtl-u", "mtl-p", "mtl-h", "mtl-u-a0", "mtl-u-b0", "mtl-h-a0",
            "mtl-h-b0", "arl-s", "arl-u", "xe-lpg",
        ],
        Some("MTL"),
        32,
    ),
    row(
        "ARL",
        13,
        &["arl-h", "arl-h-a0", "arl-h-b0", "xe-lpgplus"],
        Some("ARL"),
        32,
    ),
    row("PVC", 14, &["pvc-sdv"], Some("PVC"), 64),
    row("PVCXT", 15, &["pvc", "xe-hpc"], Some("PVC_XT"), 64),
    row(
        "XE2",
        18,
        &[
            "lnl",
            "lnl-m",
            "lnl-a0",
            "lnl-a1",
            "lnl-b0",
            "bmg",
            "bmg-g21",
            "bmg-g21-a0",
            "bmg-g21-a1",
            "bmg-g21-b0",
            "bmg-g31",
            "bmg-g31-a0",
            "xe2",
            "xe2-hpg",
            "xe2-lpg",
        ],
        Some("XE2"),
        64,
    ),
    row(
        "XE3",
        19,
        &[
            "ptl", "ptl-h", "ptl-h-a0", "ptl-h-b0", "ptl-u", "ptl-u-a0", "wcl", "wcl-a0", "wcl-a1",
            "nvl-s", "nvl-s-a0", "nvl-s-b0", "nvl-hx", "nvl-h", "nvl-u", "nvl-ul", "nvl-u-a0",
            "nvl-u-a1", "nvl-u-b0", "xe3", "xe3-lpg",
        ],
        Some("XE3"),
        64,
    ),
    row(
        "XE3P_CRI",
        21,
        &["cri", "cri-a0", "xe3p", "xe3p-xpc"],
        Some("XE3P_CRI"),
        64,
    ),
    row(
        "NVL",
        22,
        &["nvl-p", "nvl-p-a0", "nvl-p-b0", "xe3p-lpg"],
        Some("NVL"),
        64,
    ),
];

/// Other names GenX_IR takes for a platform (IGC's `PlatformInfo` symbols): `LNL` is XE2,
/// `PTL` XE3, `CRI` XE3P_CRI.
const ALIASES: &[(&str, &str)] = &[("LNL", "XE2"), ("PTL", "XE3"), ("CRI", "XE3P_CRI")];

const fn row(
    name: &'static str,
    gen_platform: u8,
    ocloc: &'static [&'static str],
    docs: Option<&'static str>,
    grf_bytes: u32,
) -> IntelPlatform {
    IntelPlatform {
        name,
        gen_platform,
        ocloc,
        docs,
        grf_bytes,
    }
}

impl IntelPlatform {
    /// Finds a platform by GenX_IR name, ocloc device name or the docs' name of its
    /// generation (`XEHP` is XeHP_SDV, `PVC_XT` PVCXT), case-insensitively. A name spelled as
    /// one tool spells it wins over another's in other case: GenX_IR's `PVC` is PVC, ocloc's
    /// `pvc` is PVCXT.
    pub fn find(name: &str) -> Option<&'static IntelPlatform> {
        Self::find_by(|s| s == name).or_else(|| Self::find_by(|s| s.eq_ignore_ascii_case(name)))
    }

    fn find_by(is: impl Fn(&str) -> bool) -> Option<&'static IntelPlatform> {
        let alias = ALIASES.iter().find(|(a, _)| is(a)).map(|(_, to)| *to);
        INTEL_PLATFORMS
            .iter()
            .find(|p| is(p.name) || alias == Some(p.name) || p.ocloc.iter().any(|o| is(o)))
            .or_else(|| INTEL_PLATFORMS.iter().find(|p| p.docs.is_some_and(&is)))
    }

    /// The platform of an object file's `gen_platform` code; 13 is DG2 (MTL shares it, and
    /// both are the same generation of the docs).
    pub fn from_gen_platform(code: u32) -> Option<&'static IntelPlatform> {
        INTEL_PLATFORMS
            .iter()
            .find(|p| u32::from(p.gen_platform) == code)
    }

    /// Where the docs place it: the newest generated platform at or before it in IGC's order,
    /// else the one before the oldest the docs name (`pre-SKL`), else the first.
    pub fn platform(&self) -> Platform {
        let at = INTEL_PLATFORMS
            .iter()
            .position(|p| p.name == self.name)
            .unwrap_or(0);
        let named = INTEL_PLATFORMS[..=at]
            .iter()
            .rev()
            .filter_map(|p| p.docs)
            .find_map(docs_platform);
        named.unwrap_or_else(|| {
            Platform::ALL
                .iter()
                .copied()
                .find(|p| p.name().starts_with("pre-"))
                .unwrap_or(Platform::ALL[0])
        })
    }

    /// Address registers (`A0` elements): 16, and 32 from XE3P_CRI on. The docs give no
    /// number (chapter `5_operands.md` bounds nothing; erratum 5_operands-04 gives Intel's
    /// verifier's bound); IGC 2.x's `getNumAddrRegisters` (`visa/HWCaps.inc`) is 32 where
    /// `supportNativeSIMD32` holds (`getPlatform() >= Xe3P_CRI` with its option
    /// `vISA_enableOptimizeSIMD32`) and 16 elsewhere, and its
    /// compiler writes multi-address sources with 32 addresses for NVL and XE3P_CRI
    /// (`tests/modern/fixtures/{nvl-p,cri}`).
    pub fn address_registers(&self) -> u32 {
        let at = |name: &str| INTEL_PLATFORMS.iter().position(|p| p.name == name);
        match (at(self.name), at("XE3P_CRI")) {
            (Some(me), Some(cri)) if me >= cri => 32,
            _ => 16,
        }
    }
}

fn docs_platform(name: &str) -> Option<Platform> {
    Platform::ALL.iter().copied().find(|p| p.name() == name)
}

impl Platform {
    /// A platform by any name: the docs' own (`XEHP`, `pre-ICLLP`), GenX_IR's (`XeHP_SDV`,
    /// `DG2`, `PVCXT`) or an ocloc device (`skl`, `acm-g10`, `pvc`); case does not matter.
    pub fn from_name(name: &str) -> Option<Platform> {
        let docs = |is: &dyn Fn(&str) -> bool| Platform::ALL.iter().copied().find(|p| is(p.name()));
        docs(&|s| s == name)
            .or_else(|| IntelPlatform::find(name).map(IntelPlatform::platform))
            .or_else(|| docs(&|s| s.eq_ignore_ascii_case(name)))
    }

    /// The platform of an object file's `gen_platform` code.
    pub fn from_gen_platform(code: u32) -> Option<Platform> {
        IntelPlatform::from_gen_platform(code).map(IntelPlatform::platform)
    }
}

/// A name no table knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPlatform;

impl fmt::Display for UnknownPlatform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a platform of the docs, of GenX_IR or of ocloc")
    }
}

impl FromStr for Platform {
    type Err = UnknownPlatform;
    fn from_str(s: &str) -> Result<Platform, UnknownPlatform> {
        Platform::from_name(s).ok_or(UnknownPlatform)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn rank(p: Platform) -> usize {
        Platform::ALL
            .iter()
            .position(|q| *q == p)
            .unwrap_or(usize::MAX)
    }

    #[test]
    fn the_table_agrees_with_the_generated_enum() {
        // Every platform the docs name is some row's docs name (the seeds name none: `Generic`).
        for p in Platform::ALL {
            let n = p.name();
            if n == "Generic" || n.starts_with("pre-") {
                continue;
            }
            assert!(
                INTEL_PLATFORMS.iter().any(|r| r.docs == Some(n)),
                "{n} has no row"
            );
            assert_eq!(Platform::from_name(n), Some(*p));
        }
        // IGC's order never goes back in the docs' order.
        let ranks: Vec<usize> = INTEL_PLATFORMS.iter().map(|r| rank(r.platform())).collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
        // A docs name placed at its own row.
        for r in INTEL_PLATFORMS {
            if let Some(p) = r.docs.and_then(docs_platform) {
                assert_eq!(r.platform(), p, "{}", r.name);
            }
        }
    }

    #[test]
    fn address_registers_are_32_from_xe3p_cri_on() {
        let regs = |n: &str| IntelPlatform::find(n).map(IntelPlatform::address_registers);
        assert_eq!(regs("TGLLP"), Some(16));
        assert_eq!(regs("PVCXT"), Some(16));
        assert_eq!(regs("ptl"), Some(16));
        assert_eq!(regs("cri"), Some(32));
        assert_eq!(regs("nvl-p"), Some(32));
    }

    #[test]
    fn names_of_genx_ir_and_ocloc_case_insensitively() {
        for n in [
            "BDW", "CHV", "SKL", "BXT", "ICLLP", "TGLLP", "XeHP_SDV", "DG2", "MTL", "PVC", "PVCXT",
        ] {
            assert_eq!(IntelPlatform::find(n).map(|p| p.name), Some(n));
            assert!(
                Platform::from_name(&n.to_ascii_lowercase()).is_some(),
                "{n}"
            );
        }
        assert_eq!(IntelPlatform::find("acm-g10").map(|p| p.name), Some("DG2"));
        assert_eq!(IntelPlatform::find("PVC").map(|p| p.name), Some("PVC"));
        assert_eq!(IntelPlatform::find("pvc-sdv").map(|p| p.name), Some("PVC"));
        assert_eq!(IntelPlatform::find("Skl").map(|p| p.gen_platform), Some(5));
        assert_eq!(
            IntelPlatform::find("xehp").map(|p| p.name),
            Some("XeHP_SDV")
        );
        assert_eq!(IntelPlatform::find("pvc_xt").map(|p| p.name), Some("PVCXT"));
        // IGC 2.x's platforms by GenX_IR's names, its other symbols and ocloc's devices.
        for (n, named) in [
            ("ARL", "ARL"),
            ("arl-h", "ARL"),
            ("arl-s", "MTL"),
            ("LNL", "XE2"),
            ("lnl-m", "XE2"),
            ("bmg", "XE2"),
            ("PTL", "XE3"),
            ("nvl-s", "XE3"),
            ("CRI", "XE3P_CRI"),
            ("xe3p_cri", "XE3P_CRI"),
            ("nvl", "NVL"),
            ("nvl-p", "NVL"),
        ] {
            assert_eq!(IntelPlatform::find(n).map(|p| p.name), Some(named), "{n}");
        }
        assert_eq!(IntelPlatform::find("bmg").map(|p| p.grf_bytes), Some(64));
        assert_eq!(IntelPlatform::find("arl-h").map(|p| p.grf_bytes), Some(32));
        assert_eq!(
            IntelPlatform::from_gen_platform(18).map(|p| p.name),
            Some("XE2")
        );
        assert_eq!(IntelPlatform::find("pre-ICLLP"), None);
        // Each tool's own spelling: GenX_IR's `PVC`, ocloc's `pvc` (PVCXT); other case falls
        // back to the first.
        assert_eq!(IntelPlatform::find("PVC").map(|p| p.name), Some("PVC"));
        assert_eq!(IntelPlatform::find("pvc").map(|p| p.name), Some("PVCXT"));
        assert_eq!(IntelPlatform::find("Pvc").map(|p| p.name), Some("PVC"));
        assert_eq!("nope".parse::<Platform>(), Err(UnknownPlatform));
        // The object file's codes (erratum 4_visa_header-04): 13 is DG2, and MTL shares it.
        assert_eq!(
            IntelPlatform::from_gen_platform(13).map(|p| p.name),
            Some("DG2")
        );
        assert_eq!(
            IntelPlatform::from_gen_platform(15).map(|p| p.name),
            Some("PVCXT")
        );
        assert_eq!(IntelPlatform::from_gen_platform(7), None);
    }

    #[test]
    fn generations_of_the_docs() {
        // Whatever the docs name, a later platform never counts as an earlier one.
        let p = |n: &str| Platform::from_name(n).unwrap();
        assert!(p("SKL") <= p("ICLLP") && p("ICLLP") <= p("TGLLP"));
        assert!(p("TGLLP") <= p("XeHP_SDV") && p("XeHP_SDV") <= p("DG2"));
        assert!(p("DG2") <= p("MTL") && p("MTL") <= p("PVC") && p("PVC") <= p("PVCXT"));
        assert_eq!(p("CHV"), p("BDW"));
        assert_eq!(p("acm-g10"), p("DG2"));
        // The docs describe nothing after PVC_XT: the newer platforms take its rules, ARL MTL's,
        // unless an erratum names them (then they are in the enum, in IGC's order).
        let own = |n: &str| Platform::ALL.iter().any(|q| q.name() == n);
        assert!(p("ARL") == p("MTL") || own("ARL"));
        let mut last = p("PVCXT");
        for n in ["XE2", "XE3", "XE3P_CRI", "NVL"] {
            assert!(p(n) == last || (own(n) && p(n) > last), "{n}");
            last = p(n);
        }
    }
}
