//! Markdown docs → [`Spec`] (in progress).
use crate::diag::Diagnostic;
use crate::schema::Spec;
use std::path::Path;

/// One doc: its name relative to the spec directory and its raw bytes (any bytes at all).
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The result of parsing a spec directory: what could be read, and every diagnostic.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub spec: Spec,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads every `*.md` of `dir`, sorted by name.
pub fn load_dir(dir: &Path) -> std::io::Result<Vec<SourceFile>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "md") && path.is_file() {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            files.push(SourceFile {
                name,
                bytes: std::fs::read(&path)?,
            });
        }
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(files)
}

/// Parses every doc. Never panics; problems become diagnostics.
pub fn parse_spec(_files: &[SourceFile]) -> Parsed {
    Parsed::default()
}
