//! Emitters: one per output, each a pure function of the analysed schema returning
//! path → contents (paths relative to the generated crate's root).

pub mod docs;
pub mod rust;

/// What every emitter needs to write its `@generated` headers.
#[derive(Clone, Debug)]
pub struct Options {
    /// How the spec directory is named in headers, e.g. `spec`.
    pub spec_label: String,
    /// The exact command that regenerates the output, e.g. `cargo xtask regen`.
    pub regen_command: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            spec_label: "spec".into(),
            regen_command: "cargo xtask regen".into(),
        }
    }
}

#[cfg(test)]
mod edges;
