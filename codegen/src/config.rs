//! A spec directory's `regen.toml`: warnings it acknowledges (known glitches of its docs) and
//! the Rust names it pins (names that would otherwise come from a description).
//!
//! In the spirit of clippy's `allow` and chiptool's `allow_*`: a known glitch is listed once,
//! with its reason, and regen then prints one summary line for it instead of the full
//! diagnostic every time. New warnings still print in full; errors are never acknowledged.
//!
//! ```toml
//! [[acknowledge]]
//! code = "V0111"
//! doc = "SCATTER.md"
//! reason = "the doc was saved from a web page: banner and line numbers before the content"
//!
//! [[name]]
//! doc = "OWORD_ST.md"
//! field = "Size"
//! bits = "2..0"
//! name = "number_of_owords"
//! ```
//!
//! A `[[name]]` names a bit range (`bits`) of a field, or a value (`value`) of a field or of one
//! of its bit ranges, whatever the doc's prose says of it (`codegen/NAMING.md`); without `doc`
//! it names that field's bits or value in every doc of the set.

use crate::diag::{Code, Diagnostic, Severity};
use serde::Deserialize;

/// One acknowledged warning: every diagnostic of `code` in `doc`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Acknowledge {
    pub code: String,
    pub doc: String,
    /// Why it is fine (required: an acknowledgement without a reason is not reviewable).
    pub reason: String,
}

/// One pinned Rust name: of bits `bits` of `field` (a bit-range member), or of value `value` of
/// `field` (of its bit range `bits`, if given), in `doc` or, without one, in every doc.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamePin {
    /// The doc, as diagnostics name it (`OWORD_ST.md`); absent: every doc of the set.
    #[serde(default)]
    pub doc: Option<String>,
    /// The field, as the doc names it (`Size`, `Exec_size`).
    pub field: String,
    /// A bit range of the field, `"hi..lo"` as the doc writes `Bit[hi..lo]`.
    #[serde(default)]
    pub bits: Option<String>,
    /// An enumerated value (of the bit range when `bits` is given, else of the whole field).
    #[serde(default)]
    pub value: Option<u64>,
    /// The Rust name: a member's (`number_of_owords`) or a variant's (`N1Element`).
    pub name: String,
}

impl NamePin {
    /// `bits` read as `(hi, lo)`; `None` when absent or not `"hi..lo"` with `hi >= lo`.
    pub fn range(&self) -> Option<(u8, u8)> {
        let (hi, lo) = self.bits.as_deref()?.split_once("..")?;
        let (hi, lo): (u8, u8) = (hi.trim().parse().ok()?, lo.trim().parse().ok()?);
        (hi >= lo).then_some((hi, lo))
    }

    /// What the pin names, as messages say it: `bits 2..0 of \`Size\``, `value 0x1 of \`Mode\``.
    pub fn what(&self) -> String {
        let bits = self.bits.as_deref().map(|b| format!("bits {b} of "));
        match (self.value, bits) {
            (Some(v), Some(b)) => format!("value {v:#x} of {b}`{}`", self.field),
            (Some(v), None) => format!("value {v:#x} of `{}`", self.field),
            (None, Some(b)) => format!("{b}`{}`", self.field),
            (None, None) => format!("`{}`", self.field),
        }
    }
}

/// The contents of `regen.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub acknowledge: Vec<Acknowledge>,
    /// Names pinned beside the docs (`[[name]]`), with where each is in the file.
    #[serde(default)]
    pub name: Vec<toml::Spanned<NamePin>>,
}

/// Diagnostics split into those to print in full and those acknowledged.
#[derive(Clone, Debug, Default)]
pub struct Partition {
    pub shown: Vec<Diagnostic>,
    pub acknowledged: Vec<Diagnostic>,
}

impl Partition {
    /// `14 acknowledged warnings in 5 docs; --verbose shows them`, or `None` when there are none.
    pub fn summary(&self) -> Option<String> {
        if self.acknowledged.is_empty() {
            return None;
        }
        let docs: std::collections::BTreeSet<&str> =
            self.acknowledged.iter().map(Diagnostic::doc).collect();
        let n = self.acknowledged.len();
        Some(format!(
            "{n} acknowledged warning{} in {} doc{} (regen.toml); --verbose shows them",
            if n == 1 { "" } else { "s" },
            docs.len(),
            if docs.len() == 1 { "" } else { "s" },
        ))
    }
}

impl Config {
    /// Reads `regen.toml` text named `file`; a file that cannot be read is error V0404 at the
    /// place TOML names, as are codes that are not warnings.
    pub fn parse(file: &str, text: &str) -> Result<Config, Box<Diagnostic>> {
        let src = crate::parse::Source::new(file, text);
        let config: Config = toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            Diagnostic::new(
                Code::BadConfig,
                file,
                src.span(span.start, span.end),
                e.message(),
            )
            .expected(
                "`[[acknowledge]]` tables with `code`, `doc` and `reason`; `[[name]]` tables \
                 with `field`, `bits` or `value`, `name` and an optional `doc`",
            )
        })?;
        for ack in &config.acknowledge {
            let warning = Code::ALL
                .iter()
                .any(|c| c.as_str() == ack.code && c.severity() == Severity::Warning);
            if !warning {
                let at = text.find(&format!("\"{}\"", ack.code)).unwrap_or(0);
                return Err(Box::new(
                    Diagnostic::new(
                        Code::BadConfig,
                        file,
                        src.span(at, at + ack.code.len() + 2),
                        format!("`{}` is not the code of a warning", ack.code),
                    )
                    .expected(
                        "a warning code of codegen/DIAGNOSTICS.md (errors cannot be acknowledged)",
                    ),
                ));
            }
        }
        let mut seen = std::collections::BTreeMap::new();
        for pin in &config.name {
            let span = pin.span();
            let bad = |message: String, expected: &str| {
                Box::new(
                    Diagnostic::new(
                        Code::BadConfig,
                        file,
                        src.span(span.start, span.end),
                        message,
                    )
                    .expected(expected.to_string()),
                )
            };
            let p = pin.get_ref();
            if p.bits.is_some() && p.range().is_none() {
                return Err(bad(
                    format!(
                        "bits `{}` of a `[[name]]` are no bit range",
                        p.bits.as_deref().unwrap_or_default()
                    ),
                    "`bits = \"hi..lo\"` as the doc writes `Bit[hi..lo]`, hi at least lo",
                ));
            }
            if p.bits.is_none() && p.value.is_none() {
                return Err(bad(
                    format!("the `[[name]]` of `{}` names neither bits nor a value", p.field),
                    "`bits = \"hi..lo\"` (a bit range's member), `value = N` (a value), or both (a value of a bit range)",
                ));
            }
            if !is_identifier(&p.name) {
                return Err(bad(
                    format!("`{}` is no Rust identifier", p.name),
                    "a name of ASCII letters, digits and `_`, not starting with a digit",
                ));
            }
            let key = (p.doc.clone(), p.field.clone(), p.range(), p.value);
            if let Some(other) = seen.insert(key, p.name.clone()) {
                return Err(bad(
                    format!(
                        "{}{} is pinned twice (`{other}`, `{}`)",
                        p.what(),
                        p.doc.as_ref().map_or(String::new(), |d| format!(" of {d}")),
                        p.name
                    ),
                    "one `[[name]]` per bit range or value",
                ));
            }
        }
        Ok(config)
    }

    /// The pinned names, without where they are in the file.
    pub fn pins(&self) -> Vec<NamePin> {
        self.name.iter().map(|p| p.get_ref().clone()).collect()
    }

    /// Is `d` a warning this config acknowledges?
    pub fn acknowledges(&self, d: &Diagnostic) -> bool {
        d.severity == Severity::Warning
            && self
                .acknowledge
                .iter()
                .any(|a| a.code == d.code && a.doc == d.doc())
    }

    /// Splits `diags`: warnings this config acknowledges, and everything else.
    pub fn partition(&self, diags: Vec<Diagnostic>) -> Partition {
        let mut out = Partition::default();
        for d in diags {
            if self.acknowledges(&d) {
                out.acknowledged.push(d);
            } else {
                out.shown.push(d);
            }
        }
        out
    }
}

/// An identifier Rust accepts as a name (keywords are escaped where names are made).
fn is_identifier(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `--deny-warnings` (regen, schema, diff): every warning `config` does not acknowledge becomes
/// an error, so a run that degraded anything fails and writes nothing. Acknowledged warnings
/// stay warnings: `regen.toml` lists them with their reasons. Returns how many it turned.
pub fn deny_warnings(diagnostics: &mut [Diagnostic], config: &Config) -> usize {
    let mut n = 0;
    for d in diagnostics.iter_mut() {
        if d.severity == Severity::Warning && !config.acknowledges(d) {
            d.severity = Severity::Error;
            n += 1;
        }
    }
    n
}
