//! The whole text of a kernel or function, as Intel's printer writes it (IGC 12504.6,
//! `IsaDisassembly.cpp`: `printKernelHeader`, then `printInstruction` per instruction): what
//! `visa dis` prints and `real-kernels/dg2/*.visaasm` holds.
//!
//! - [`print_kernel`] / [`print_function`] give one routine's text: `.version`, `.kernel` (or
//!   `.global_function`), the predefined-variable comments, the declarations (G, A, P, S, T),
//!   `.input`s, `.kernel_attr`s, then the instructions with their ` /// $N` ids;
//! - each routine is a text of its own (own header, ids from 0): Intel writes a kernel to
//!   `NAME.visaasm` and a function F of the same object file to `NAME.func.F.visaasm`.
//!
//! An instruction that cannot be printed does not stop the print: its line says so (a `//`
//! comment keeps the line count and the id) and [`Printed::problems`] lists it. One whose
//! text cannot show some of its bits prints as Intel prints it, and [`Printed::notes`] lists
//! it: that line assembles to other bytes.

mod attributes;
mod body;
mod header;
mod names;
#[cfg(test)]
mod tests;

pub use crate::runtime::text::push_string_literal;
pub use attributes::{attribute_text, kernel_attribute_line};

use super::{AddressInfo, AttributeInfo, File, InputInfo, InstructionStream, LabelInfo};
use super::{PredicateInfo, SurfaceInfo, VarInfo};
use crate::runtime::text::special::{lsc, modifiers, paired_resource, state_variables};
use alloc::string::String;
use alloc::vec::Vec;
use names::RoutineNames;

/// One routine's text and what could not be printed in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Printed {
    /// The text, ending with a newline after the last instruction (as Intel's files do).
    pub text: String,
    pub problems: Vec<Problem>,
    /// Lines printed as Intel prints them that do not assemble back to the same bytes: the
    /// instruction has bits its text cannot show (`lsc_fence` with another exec size than the
    /// 1/NoMask the text implies, reserved bits set).
    pub notes: Vec<Problem>,
}

/// Something the printer could not spell: the 1-based `line` of [`Printed::text`] that stands
/// for it and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
    /// The index in its routine's stream (the `$N` of the line) of the instruction it is about,
    /// or `None` for a header line.
    pub instruction: Option<u32>,
}

/// What a kernel and a function share for printing, plus the kernel's inputs.
pub(crate) struct View<'a> {
    pub is_kernel: bool,
    /// IGC 2.x's layout (vISA 4.2 on): a blank line after `.version` and before each
    /// `.function`, V21 among the predefined variables ([`modern_layout`]).
    pub modern: bool,
    /// Bytes per register of the file's platform (its first GEN binary's `gen_platform`).
    pub grf_bytes: Option<u32>,
    pub string_pool: &'a [Vec<u8>],
    pub name_index: u32,
    pub var_info: &'a [VarInfo],
    pub address_info: &'a [AddressInfo],
    pub predicate_info: &'a [PredicateInfo],
    pub label_info: &'a [LabelInfo],
    pub sampler_info: &'a [SurfaceInfo],
    pub surface_info: &'a [SurfaceInfo],
    pub input_info: &'a [InputInfo],
    pub attribute_info: &'a [AttributeInfo],
    pub instructions: &'a InstructionStream,
}

/// String `index` of `pool`, lossily decoded (`None` past the end).
pub(crate) fn pool_string(pool: &[Vec<u8>], index: u32) -> Option<String> {
    let s = pool.get(usize::try_from(index).ok()?)?;
    Some(String::from_utf8_lossy(s).into_owned())
}

impl View<'_> {
    /// String `index` of the routine's pool.
    pub fn string(&self, index: u32) -> Option<String> {
        pool_string(self.string_pool, index)
    }
}

/// `LabelInfo::kind` of a subroutine label (IGC's `LABEL_SUBROUTINE`; `_main` and `rec` in
/// `recursion_stackcalls.isa` have it, block labels such as `_0_020` have 0).
pub(crate) const SUBROUTINE_LABEL: u8 = 1;

fn print_view(
    file: &File,
    v: &View<'_>,
    header_name: &[u8],
    text_only: Option<&super::RoutineTextOnly>,
) -> Printed {
    let mut p = Printed::default();
    let declared_types = text_only.map_or(&[][..], |t| &t.declared_types);
    header::push_header(&mut p, file, v, header_name, declared_types);
    body::push_body(&mut p, v, &RoutineNames::new(v), text_only);
    if let Some(t) = text_only.and_then(|t| t.trailer.as_ref()) {
        // IGC 2.x's isaDump: no newline after the last line.
        p.text.push_str("\n//Platform: ");
        p.text.push_str(&t.platform);
        p.text.push_str("\n//Build option: \"");
        p.text.push_str(&t.build_options);
        p.text.push('"');
    }
    p
}

/// Whether the text of `file` takes IGC 2.x's layout: vISA 4.2 and later (what IGC 2.x
/// writes; IGC 12504.6 writes 4.1 in its own layout). The two differ in blank lines only
/// (after `.version`; before, not after, each `.function`) and in V21 `%scratchloc` among
/// the predefined variables (measured: `tests/modern/fixtures` against `real-kernels/dg2`).
pub fn modern_layout(file: &File) -> bool {
    (file.header.major_version, file.header.minor_version) >= (4, 2)
}

/// The register size of the platform the file names (ADDR_ADD's `&V[bytes]`): its first GEN
/// binary's, else the platform of a routine's `//Platform:` line.
fn grf_bytes(file: &File) -> Option<u32> {
    use crate::runtime::IntelPlatform;
    let code = file
        .header
        .kernel_info
        .iter()
        .flat_map(|k| k.gen_binary_info.iter())
        .next()
        .map(|g| g.gen_platform);
    match code {
        Some(code) => IntelPlatform::from_gen_platform(u32::from(code)).map(|p| p.grf_bytes),
        None => file
            .text
            .kernels
            .iter()
            .chain(&file.text.functions)
            .filter_map(|r| r.trailer.as_ref())
            .find_map(|t| IntelPlatform::find(&t.platform))
            .map(|p| p.grf_bytes),
    }
}

/// The text of kernel `index` of `file` (Intel's `NAME.visaasm`), `None` past the last kernel.
pub fn print_kernel(file: &File, index: usize) -> Option<Printed> {
    let k = &file.kernels.get(index)?.data;
    let name = file
        .header
        .kernel_info
        .get(index)
        .map(|i| i.name.as_slice());
    Some(print_view(
        file,
        &kernel_view(file, k),
        name.unwrap_or_default(),
        file.text.kernels.get(index),
    ))
}

/// The text of function `index` of `file` (Intel's `NAME.func.F.visaasm`), `None` past the
/// last function.
pub fn print_function(file: &File, index: usize) -> Option<Printed> {
    let f = &file.functions.get(index)?.data;
    let name = file
        .header
        .function_info
        .get(index)
        .map(|i| i.name.as_slice());
    Some(print_view(
        file,
        &function_view(file, f),
        name.unwrap_or_default(),
        file.text.functions.get(index),
    ))
}

/// Every routine of `file` in one text, as IGC 2.x writes a combined `.isaasm`
/// (`CISA_IR_Builder::isaDump`): each kernel's and function's text in file order (kernels
/// first), the `.version` line only before the first.
pub fn print_combined(file: &File) -> Printed {
    let mut out = Printed::default();
    let routines = (0..file.kernels.len())
        .filter_map(|i| print_kernel(file, i))
        .chain((0..file.functions.len()).filter_map(|i| print_function(file, i)));
    for (n, p) in routines.enumerate() {
        let text = if n == 0 {
            p.text.as_str()
        } else {
            p.text.split_once('\n').map_or("", |(_, rest)| rest)
        };
        let shift = line_number(&out.text) - 1 - usize::from(n > 0);
        let moved = |q: &Problem| Problem {
            line: q.line + shift,
            ..q.clone()
        };
        out.problems.extend(p.problems.iter().map(moved));
        out.notes.extend(p.notes.iter().map(moved));
        out.text.push_str(text);
    }
    out
}

/// Intel's text of one instruction of a routine (`add (M1, 16) V33(0,0)<1> ...`), with the
/// routine's names; why it does not print when it does not. For messages (`visa check`).
pub(crate) fn instruction_text(
    file: &File,
    which: super::verify::RoutineRef,
    (n, inst): (usize, &crate::Instruction),
) -> String {
    use super::verify::RoutineRef as Which;
    let (k, f, text_only) = match which {
        Which::Kernel(i) => (
            file.kernels.get(i).map(|k| &k.data),
            None,
            file.text.kernels.get(i),
        ),
        Which::Function(i) => (
            None,
            file.functions.get(i).map(|f| &f.data),
            file.text.functions.get(i),
        ),
    };
    let v = match (k, f) {
        (Some(k), _) => kernel_view(file, k),
        (None, Some(f)) => function_view(file, f),
        _ => return String::from("(no such routine)"),
    };
    let names = RoutineNames::new(&v);
    let mut out = String::new();
    if let Err(e) = inst.print_text(&names, &mut out) {
        return alloc::format!("{} (does not print: {e})", inst.name());
    }
    with_text_only(out.clone(), n, text_only, &names).unwrap_or(out)
}

/// The printed line of instruction `n` with what its routine's text held beside it put back
/// (`RoutineTextOnly`): the paired resource, the sampler and surface variables, the L2 cache
/// control, the mnemonic's last words, in the reverse order of `asm` taking them out; `None`
/// when one of them has no place in the line.
pub(crate) fn with_text_only(
    mut line: String,
    n: usize,
    text_only: Option<&super::RoutineTextOnly>,
    names: &RoutineNames<'_>,
) -> Option<String> {
    let Some(t) = text_only else {
        return Some(line);
    };
    let at = |i: &usize| *i == n;
    if let Some((_, paired)) = t.paired_resources.iter().find(|(i, _)| at(i)) {
        line = paired_resource::insert(&line, *paired, names)?;
    }
    if let Some((_, s)) = t.state_variables.iter().find(|(i, _)| at(i)) {
        line = state_variables::insert(&line, s, names)?;
    }
    if let Some((_, l2)) = t.caching_l2.iter().find(|(i, _)| at(i)) {
        if let Some(with) = lsc::insert_caching_l2(&line, *l2) {
            line = with;
        }
    }
    match t.modifiers.iter().find(|(i, _)| at(i)) {
        Some((_, m)) => modifiers::insert(&line, *m),
        None => Some(line),
    }
}

/// The printing view of a kernel's data.
fn kernel_view<'a>(file: &File, k: &'a super::KernelData) -> View<'a> {
    View {
        is_kernel: true,
        modern: modern_layout(file),
        grf_bytes: grf_bytes(file),
        string_pool: &k.string_pool,
        name_index: k.name_index,
        var_info: &k.var_info,
        address_info: &k.address_info,
        predicate_info: &k.predicate_info,
        label_info: &k.label_info,
        sampler_info: &k.sampler_info,
        surface_info: &k.surface_info,
        input_info: &k.input_info,
        attribute_info: &k.attribute_info,
        instructions: &k.instructions,
    }
}

/// The printing view of a function's data (a function has no inputs).
fn function_view<'a>(file: &File, f: &'a super::FunctionData) -> View<'a> {
    View {
        is_kernel: false,
        modern: modern_layout(file),
        grf_bytes: grf_bytes(file),
        string_pool: &f.string_pool,
        name_index: f.name_index,
        var_info: &f.var_info,
        address_info: &f.address_info,
        predicate_info: &f.predicate_info,
        label_info: &f.label_info,
        sampler_info: &f.sampler_info,
        surface_info: &f.surface_info,
        input_info: &[],
        attribute_info: &f.attribute_info,
        instructions: &f.instructions,
    }
}

/// Counts the lines of `text` so far: the 1-based number of the line being written.
pub(crate) fn line_number(text: &str) -> usize {
    text.bytes().filter(|b| *b == b'\n').count() + 1
}

impl Printed {
    /// Records a problem of the header on the line being written.
    fn problem(&mut self, message: String) {
        self.problem_at(message, None);
    }

    /// Records a problem on the line being written (about instruction `$N` when given).
    fn problem_at(&mut self, message: String, instruction: Option<u32>) {
        let line = line_number(&self.text);
        self.problems.push(Problem {
            line,
            message,
            instruction,
        });
    }
}
