//! Platforms: the order of generations, and what an annotation such as `{XEHP+}` allows.

/// Known platforms, oldest first (chapters `1_introduction.md` and `4_visa_header.md`, and the
/// generations that followed). Only the ones the docs name appear in the generated `Platform`.
pub const KNOWN: &[&str] = &[
    "BDW", "SKL", "BXT", "ICLLP", "TGLLP", "XEHP", "DG2", "PVC", "PVC_XT", "MTL",
];

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
    fn generations_are_ordered() {
        assert!(
            rank("ICLLP") < rank("TGLLP")
                && rank("TGLLP") < rank("XEHP")
                && rank("XEHP") < rank("PVC")
        );
    }
}
