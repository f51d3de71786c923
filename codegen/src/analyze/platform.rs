//! Platforms: the order of generations, and what an annotation such as `{XEHP+}` allows.

/// Known platforms, oldest first (chapters `1_introduction.md` and `4_visa_header.md`, and the
/// generations that followed, in the order of IGC's `TARGET_PLATFORM`: XeHP_SDV, DG2, MTL, ARL,
/// PVC, PVCXT, Xe2, Xe3, Xe3P_CRI, Xe3P_Graphics (NVL)). Only the ones the docs name appear in
/// the generated `Platform`, behind one for the generations before the oldest of them
/// ([`generations`]).
pub const KNOWN: &[&str] = &[
    "BDW", "SKL", "BXT", "ICLLP", "TGLLP", "XEHP", "DG2", "MTL", "ARL", "PVC", "PVC_XT", "XE2",
    "XE3", "XE3P_CRI", "NVL",
];

/// The generations Intel's docs (2025-02) do not describe: only an erratum names them. Where
/// no rule names one, it follows the newest described generation before it ([`inherit`]).
pub const UNDESCRIBED: &[&str] = &["ARL", "XE2", "XE3", "XE3P_CRI", "NVL"];

/// The generated platforms: the ones the docs name, oldest first, behind `pre-<oldest>` when
/// older generations exist. `{ICLLP+}` must fail on what comes before ICLLP, and only a platform
/// before it can say so; the docs tell those older generations apart nowhere, so one variant
/// stands for all of them (the current family names SKL: the runtime's table of Intel's names
/// maps BDW and CHV to `pre-SKL`, BXT to SKL).
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
    /// A rule as the doc writes it, and as it holds on the generated platforms once the
    /// generations the docs do not describe inherit ([`inherit`]): annotations and diffs show
    /// the first, validators check the second.
    Inherited {
        written: Box<Rule>,
        holds: Box<Rule>,
    },
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
            Rule::Inherited { written, .. } => written.annotation(),
        }
    }

    /// The rule validators check: [`Rule::Inherited`]'s `holds`, any other as it is.
    pub fn holds(&self) -> &Rule {
        match self {
            Rule::Inherited { holds, .. } => holds,
            r => r,
        }
    }

    /// Every platform the rule names, in the annotation's order.
    pub fn platforms(&self) -> Vec<&str> {
        match self {
            Rule::Since(p) | Rule::Before(p) | Rule::Only(p) => vec![p],
            Rule::Any(rules) => rules.iter().flat_map(Rule::platforms).collect(),
            Rule::Inherited { written, .. } => written.platforms(),
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

/// `rule` as it holds on `platforms` (the generated ones, oldest first), where the
/// undescribed generations ([`UNDESCRIBED`]) among them follow the rules of the newest
/// described one before them: a rule that names no undescribed generation holds on one exactly
/// where it holds on that predecessor. `Since` and `Before` of a described platform already do
/// (the order is the same); `{PVC_XT}` becomes `{PVC_XT,XE2}` when XE2 is generated and inherits
/// PVC_XT's rules. A rule that names an undescribed generation is an erratum's word about it and
/// stays as written.
pub fn inherit(rule: &Rule, platforms: &[String]) -> Rule {
    let rule = match rule {
        Rule::Inherited { written, .. } => written.as_ref(),
        r => r,
    };
    if rule.platforms().iter().any(|p| UNDESCRIBED.contains(p)) {
        return rule.clone();
    }
    let mut heirs: Vec<(String, String)> = Vec::new();
    let mut last: Option<&String> = None;
    for p in platforms {
        if UNDESCRIBED.contains(&p.as_str()) {
            if let Some(from) = last {
                heirs.push((from.clone(), p.clone()));
            }
        } else {
            last = Some(p);
        }
    }
    let holds = widen(rule, &heirs);
    if holds == *rule {
        rule.clone()
    } else {
        Rule::Inherited {
            written: Box::new(rule.clone()),
            holds: Box::new(holds),
        }
    }
}

fn widen(rule: &Rule, heirs: &[(String, String)]) -> Rule {
    match rule {
        Rule::Only(p) => {
            let mut any = vec![rule.clone()];
            any.extend(
                heirs
                    .iter()
                    .filter(|(from, _)| from == p)
                    .map(|(_, to)| Rule::Only(to.clone())),
            );
            if any.len() == 1 {
                rule.clone()
            } else {
                Rule::Any(any)
            }
        }
        // A widened `Only` joins the list it is in: `{PVC_XT,PVC}` is `{PVC_XT,XE2,PVC}`.
        Rule::Any(rules) => Rule::Any(
            rules
                .iter()
                .flat_map(|r| match (r, widen(r, heirs)) {
                    (Rule::Only(_), Rule::Any(heirs)) => heirs,
                    (_, w) => vec![w],
                })
                .collect(),
        ),
        _ => rule.clone(),
    }
}

/// Whether `rule` holds on `p`, a generated platform (`pre-X` stands just before X).
pub fn holds_on(rule: &Rule, p: &str) -> bool {
    // Twice the rank, `pre-X` one less than X; an unknown name is after every platform.
    let at = |n: &str| match n.strip_prefix("pre-") {
        Some(x) => rank(x).saturating_mul(2).saturating_sub(1),
        None => rank(n).saturating_mul(2),
    };
    match rule {
        Rule::Since(q) => at(p) >= at(q),
        Rule::Before(q) => at(p) < at(q),
        Rule::Only(q) => p == q,
        Rule::Any(rules) => rules.iter().any(|r| holds_on(r, p)),
        Rule::Inherited { holds, .. } => holds_on(holds, p),
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
    fn undescribed_generations_inherit_the_rules_of_the_described_one_before_them() {
        let ps = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let gen = ps(&["TGLLP", "XEHP", "PVC", "PVC_XT", "XE2", "XE3P_CRI"]);
        // `{PVC_XT}` holds on XE2 and XE3P_CRI, which follow PVC_XT; it still reads as written.
        let r = inherit(&parse("PVC_XT").unwrap(), &gen);
        assert_eq!(
            r.holds(),
            &Rule::Any(vec![
                Rule::Only("PVC_XT".into()),
                Rule::Only("XE2".into()),
                Rule::Only("XE3P_CRI".into())
            ])
        );
        assert_eq!(
            (r.annotation(), r.platforms()),
            ("PVC_XT".into(), vec!["PVC_XT"])
        );
        // Inheriting twice gives the same.
        assert_eq!(inherit(&r, &gen), r);
        // `{PVC}` does not: PVC_XT, described, comes between.
        assert_eq!(inherit(&parse("PVC").unwrap(), &gen), parse("PVC").unwrap());
        // Inside a list too; `Since`/`Before` are unchanged.
        assert_eq!(
            inherit(&parse("PVC_XT,-XEHP").unwrap(), &gen)
                .holds()
                .annotation(),
            "PVC_XT,XE2,XE3P_CRI,-XEHP"
        );
        assert_eq!(
            inherit(&parse("XEHP+").unwrap(), &gen),
            parse("XEHP+").unwrap()
        );
        // An erratum's rule naming an undescribed generation is its word on it.
        let own = parse("-PVC,XE2+").unwrap();
        assert_eq!(inherit(&own, &gen), own);
        // Nothing undescribed generated: nothing to inherit.
        let old = ps(&["XEHP", "PVC_XT"]);
        assert_eq!(
            inherit(&parse("PVC_XT").unwrap(), &old),
            parse("PVC_XT").unwrap()
        );
    }

    #[test]
    fn rules_hold_on_generated_platforms() {
        let r = |a: &str| parse(a).unwrap();
        assert!(holds_on(&r("-PVC"), "pre-SKL") && holds_on(&r("-PVC"), "DG2"));
        assert!(!holds_on(&r("-PVC"), "PVC") && !holds_on(&r("SKL+"), "pre-SKL"));
        assert!(holds_on(&r("SKL+"), "SKL") && holds_on(&r("DG2,XEHP"), "XEHP"));
        assert!(!holds_on(&r("PVC"), "PVC_XT") && holds_on(&r("PVC+"), "XE3P_CRI"));
    }

    #[test]
    fn generations_are_ordered() {
        assert!(
            rank("ICLLP") < rank("TGLLP")
                && rank("TGLLP") < rank("XEHP")
                && rank("XEHP") < rank("PVC")
                && rank("MTL") < rank("PVC")
                && rank("PVC") < rank("PVC_XT")
                && rank("MTL") < rank("ARL")
                && rank("ARL") < rank("PVC")
                && rank("PVC_XT") < rank("XE2")
                && rank("XE2") < rank("XE3")
                && rank("XE3") < rank("XE3P_CRI")
                && rank("XE3P_CRI") < rank("NVL")
        );
    }
}
