//! Platforms: the order of generations, and what an annotation such as `{XEHP+}` allows.

/// Known platforms, oldest first (chapters `1_introduction.md` and `4_visa_header.md`, and the
/// generations that followed, in the order of IGC's `TARGET_PLATFORM`: XeHP_SDV, DG2, MTL, PVC,
/// PVCXT). Only the ones the docs name appear in the generated `Platform`, behind one for the
/// generations before the oldest of them ([`generations`]).
pub const KNOWN: &[&str] = &[
    "BDW", "SKL", "BXT", "ICLLP", "TGLLP", "XEHP", "DG2", "MTL", "PVC", "PVC_XT",
];

/// The generated platforms: the ones the docs name, oldest first, behind `pre-<oldest>` when
/// older generations exist. `{ICLLP+}` must fail on SKL, and only a platform before ICLLP can
/// say so; the docs tell those older generations apart nowhere, so one variant stands for all
/// of them (the runtime's table of Intel's names maps BDW, CHV, SKL and BXT to it).
pub fn generations(named: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = named.into_iter().collect();
    out.sort_by_key(|p| rank(p));
    if let Some(first) = out.first() {
        if rank(first) > 0 && rank(first) != usize::MAX {
            out.insert(0, format!("pre-{first}"));
        }
    }
    out
}

/// What a platform annotation allows.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// `{XEHP+}`: this platform and later.
    Since(String),
    /// `{-XEHP}`, `{pre-ICLLP}`: platforms before this one.
    Before(String),
    /// `{PVC}`: this platform only.
    Only(String),
    /// `{PVC+,-TGLLP}`, `{DG2,XEHP}`: any of the listed rules (the chapters' comma lists).
    Any(Vec<Rule>),
}

impl Rule {
    /// The annotation as the docs write it, without braces: `XEHP+`, `-XEHP`, `PVC`.
    pub fn annotation(&self) -> String {
        match self {
            Rule::Since(p) => format!("{p}+"),
            Rule::Before(p) => format!("-{p}"),
            Rule::Only(p) => p.clone(),
            Rule::Any(rules) => rules
                .iter()
                .map(Rule::annotation)
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    /// Every platform the rule names, in the annotation's order.
    pub fn platforms(&self) -> Vec<&str> {
        match self {
            Rule::Since(p) | Rule::Before(p) | Rule::Only(p) => vec![p],
            Rule::Any(rules) => rules.iter().flat_map(Rule::platforms).collect(),
        }
    }
}

/// Reads an annotation without braces. `Err` names the unknown platform.
pub fn parse(annotation: &str) -> Result<Rule, String> {
    if annotation.contains(',') {
        let rules = annotation
            .split(',')
            .map(parse)
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Rule::Any(rules));
    }
    let a = annotation.trim();
    let (rule, name): (fn(String) -> Rule, &str) = if let Some(p) = a.strip_suffix('+') {
        (Rule::Since, p)
    } else if let Some(p) = a.strip_prefix("pre-").or_else(|| a.strip_prefix('-')) {
        (Rule::Before, p)
    } else {
        (Rule::Only, a)
    };
    let name = name.trim();
    if KNOWN.contains(&name) {
        Ok(rule(name.to_string()))
    } else {
        Err(name.to_string())
    }
}

/// Position of a known platform in [`KNOWN`].
pub fn rank(name: &str) -> usize {
    KNOWN.iter().position(|k| *k == name).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_of_every_form() {
        assert_eq!(parse("XEHP+"), Ok(Rule::Since("XEHP".into())));
        assert_eq!(parse("-XEHP"), Ok(Rule::Before("XEHP".into())));
        assert_eq!(parse("pre-ICLLP"), Ok(Rule::Before("ICLLP".into())));
        assert_eq!(parse("PVC"), Ok(Rule::Only("PVC".into())));
        assert_eq!(parse("PVC_XT+"), Ok(Rule::Since("PVC_XT".into())));
        assert_eq!(parse("NoMask"), Err("NoMask".into()));
    }

    #[test]
    fn comma_lists_are_any_of_their_rules() {
        // `{PVC+,-TGLLP}` (SWITCHJMP in the instructions chapter): PVC and later, or before TGLLP.
        let r = parse("PVC+,-TGLLP").unwrap();
        assert_eq!(
            r,
            Rule::Any(vec![
                Rule::Since("PVC".into()),
                Rule::Before("TGLLP".into())
            ])
        );
        assert_eq!(r.annotation(), "PVC+,-TGLLP");
        assert_eq!(r.platforms(), vec!["PVC", "TGLLP"]);
        assert_eq!(parse("DG2, FOO"), Err("FOO".into()));
    }

    #[test]
    fn older_generations_get_one_platform_before_the_oldest_named() {
        let g = |names: &[&str]| generations(names.iter().map(|s| s.to_string()));
        assert_eq!(
            g(&["PVC", "ICLLP", "XEHP"]),
            vec!["pre-ICLLP", "ICLLP", "XEHP", "PVC"]
        );
        // BDW is the oldest known generation: nothing comes before it.
        assert_eq!(g(&["BDW", "PVC"]), vec!["BDW", "PVC"]);
        assert!(g(&[]).is_empty());
    }

    #[test]
    fn generations_are_ordered() {
        assert!(
            rank("ICLLP") < rank("TGLLP")
                && rank("TGLLP") < rank("XEHP")
                && rank("XEHP") < rank("PVC")
                && rank("MTL") < rank("PVC")
                && rank("PVC") < rank("PVC_XT")
        );
    }
}
