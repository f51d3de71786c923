//! A spec directory's `regen.toml`: warnings it acknowledges (known glitches of its docs).
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
//! ```

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

/// The contents of `regen.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub acknowledge: Vec<Acknowledge>,
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
    /// Adds what `other` acknowledges (a second file of the same run) to this configuration.
    pub fn merge(&mut self, other: Config) {
        self.acknowledge.extend(other.acknowledge);
    }

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
            .expected("`[[acknowledge]]` tables with `code`, `doc` and `reason`")
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
        Ok(config)
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
