//! What one routine's text says, before ids are given out: the directives of IGC's printer
//! (`printKernelHeader`, note §3 "The whole-file header") and of its parser (`CISA.y`, §4.1).

use super::lines::SourceLine;
use alloc::string::String;
use alloc::vec::Vec;

/// Where something is: a line, a byte column of it and a length.
#[derive(Clone, Copy, Debug)]
pub struct Span<'a> {
    pub line: SourceLine<'a>,
    pub column: usize,
    pub len: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutineKind {
    /// `.kernel "name"`
    Kernel,
    /// `.global_function "name"`
    Function,
}

/// `.decl NAME v_type=G type=T num_elts=N [align=A] [alias=<V, off>] [attrs={...}]`
#[derive(Clone, Debug)]
pub struct GeneralDecl<'a> {
    pub name: &'a str,
    pub span: Span<'a>,
    /// Binary type code (bits 0-3 of `bit_properties`).
    pub ty: u8,
    /// A type the docs lack (`type=hf8`): `ty` is the docs' type that holds its values.
    pub text_only_type: Option<crate::runtime::text::spellings::TextOnlyType>,
    pub num_elts: u16,
    /// Alignment code (bits 4-7), 0 = byte when `align=` is absent as Intel prints it.
    pub align: u8,
    pub alias: Option<(&'a str, u16, Span<'a>)>,
    pub attrs: Vec<(String, Vec<u8>)>,
}

/// `.decl P1 v_type=P num_elts=8`, `.decl A0 v_type=A num_elts=1`, and the state kinds
/// `.decl T6 v_type=T num_elts=1 v_name=T006` (`S` alike).
#[derive(Clone, Debug)]
pub struct OtherDecl<'a> {
    pub name: &'a str,
    pub span: Span<'a>,
    pub num_elts: u16,
    /// `v_name=`: the string-pool name when it differs from the text name.
    pub v_name: Option<&'a str>,
    pub attrs: Vec<(String, Vec<u8>)>,
}

/// `.input NAME offset=N size=N` or `.implicit_<KIND> NAME offset=N size=N`.
#[derive(Clone, Debug)]
pub struct InputDecl<'a> {
    /// Provenance (bits 3-7 of `kind`); 0 for `.input`.
    pub provenance: u8,
    pub name: &'a str,
    pub span: Span<'a>,
    pub offset: i16,
    pub size: u16,
}

/// A line of the instruction part.
#[derive(Clone, Debug)]
pub enum Body<'a> {
    /// `NAME:`; `subroutine` when a `.function "NAME"` line announced it.
    Label {
        name: &'a str,
        subroutine: bool,
        span: Span<'a>,
    },
    /// An instruction's text, comments removed.
    Instruction(SourceLine<'a>),
}

/// One kernel or function as written.
#[derive(Clone, Debug)]
pub struct RoutineText<'a> {
    pub kind: RoutineKind,
    pub name: String,
    pub version: Option<(u8, u8)>,
    pub generals: Vec<GeneralDecl<'a>>,
    pub predicates: Vec<OtherDecl<'a>>,
    pub addresses: Vec<OtherDecl<'a>>,
    pub samplers: Vec<OtherDecl<'a>>,
    pub surfaces: Vec<OtherDecl<'a>>,
    pub inputs: Vec<InputDecl<'a>>,
    /// `.kernel_attr Name=Value`, value already encoded.
    pub attributes: Vec<(String, Vec<u8>)>,
    pub body: Vec<Body<'a>>,
}

impl<'a> RoutineText<'a> {
    pub fn new(kind: RoutineKind, name: String, version: Option<(u8, u8)>) -> Self {
        RoutineText {
            kind,
            name,
            version,
            generals: Vec::new(),
            predicates: Vec::new(),
            addresses: Vec::new(),
            samplers: Vec::new(),
            surfaces: Vec::new(),
            inputs: Vec::new(),
            attributes: Vec::new(),
            body: Vec::new(),
        }
    }
}
