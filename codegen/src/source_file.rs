//! The generator's input files, as read: below every stage (the parser reads them, the
//! diagnostics quote them).

/// One doc: its name relative to the spec directory and its raw bytes (any bytes at all).
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub bytes: Vec<u8>,
}
