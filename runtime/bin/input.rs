//! What the commands read: a vISA object file (`.isa`), or vISA text (`.visaasm`, `.isaasm`)
//! assembled in memory. Text is told from an object file by its first bytes (not `CISA`).
//!
//! A kernel's text from Intel's compiler comes with its stack-called functions in files of their
//! own beside it (`K.visaasm`, `K.func.F.visaasm`); reading `K.visaasm` reads those too, so that
//! its `fcall`s have their callees. A combined `.isaasm` holds every routine in one file.

use std::path::{Path, PathBuf};
use visa::object::File;
use visa::runtime::{IntelPlatform, INTEL_PLATFORMS};

/// A file read: its bytes, the object file, and for text what it was assembled from.
pub struct Loaded {
    pub bytes: Vec<u8>,
    pub file: File,
    /// The texts (name, text) when the input was vISA text, in the order assembled.
    pub texts: Option<Vec<(String, String)>>,
    /// The platform a text names in its `//Platform:` line.
    pub named: Option<&'static IntelPlatform>,
}

impl Loaded {
    /// The texts as the assembler's sources.
    pub fn sources(&self) -> Vec<visa::asm::Source<'_>> {
        self.texts
            .iter()
            .flatten()
            .map(|(name, text)| visa::asm::Source { name, text })
            .collect()
    }
}

/// Reads `path`: an object file, or text assembled for `platform` (a name any command takes),
/// else for the platform the text names. Errors say which file and, for text, where.
pub fn load(path: &Path, platform: Option<&str>) -> Result<Loaded, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !visa::asm::is_text(&bytes) {
        let file = File::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(Loaded {
            bytes,
            file,
            texts: None,
            named: None,
        });
    }
    let mut texts = vec![(path.display().to_string(), utf8(path, &bytes)?)];
    for f in functions_beside(path) {
        let b = std::fs::read(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        texts.push((f.display().to_string(), utf8(&f, &b)?));
    }
    let named = named_platform(&texts)?;
    let target = match platform {
        Some(name) => IntelPlatform::find(name),
        None => named,
    };
    let sources: Vec<visa::asm::Source<'_>> = texts
        .iter()
        .map(|(name, text)| visa::asm::Source { name, text })
        .collect();
    let options = visa::asm::Options::default();
    let assembled = match target {
        Some(p) => visa::asm::assemble_for(&sources, options, p),
        None => visa::asm::assemble(&sources, options),
    };
    let file = assembled.map_err(|diags| {
        format!(
            "{}{} error(s) in the text of {}",
            visa::asm::render(&diags),
            diags.len(),
            path.display()
        )
    })?;
    Ok(Loaded {
        bytes,
        file,
        texts: Some(texts),
        named,
    })
}

fn utf8(path: &Path, bytes: &[u8]) -> Result<String, String> {
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        format!(
            "{}: neither a vISA object file (no `CISA` magic number) nor UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// `K.func.*.visaasm` beside `K.visaasm`, sorted by name; none for other files.
fn functions_beside(path: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return Vec::new();
    };
    let Some(stem) = name.strip_suffix(".visaasm") else {
        return Vec::new();
    };
    if stem.contains(".func.") {
        return Vec::new();
    }
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!("{stem}.func.");
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".visaasm"))
        })
        .collect();
    found.sort();
    found
}

/// The platform the texts' `//Platform:` lines name: none, or one every text agrees on.
fn named_platform(texts: &[(String, String)]) -> Result<Option<&'static IntelPlatform>, String> {
    let mut found: Option<(&'static IntelPlatform, &str)> = None;
    for (name, text) in texts {
        let Some(p) = visa::asm::platform_line(text) else {
            continue;
        };
        let intel = IntelPlatform::find(p).ok_or_else(|| {
            let known: Vec<&str> = INTEL_PLATFORMS.iter().map(|p| p.name).collect();
            format!(
                "{name}: `//Platform: {p}` names no platform this tool knows; expected one of {}",
                known.join(", ")
            )
        })?;
        match found {
            Some((q, first)) if q.name != intel.name => {
                return Err(format!(
                    "{name} is for {} but {first} for {}; give texts of one platform",
                    intel.name, q.name
                ))
            }
            Some(_) => {}
            None => found = Some((intel, name)),
        }
    }
    Ok(found.map(|(p, _)| p))
}
