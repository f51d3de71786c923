//! The header of a routine's text (IGC's `printKernelHeader`), as in `calls_caller.visaasm`:
//!
//! ```text
//! .version 4.1
//! .kernel "caller"
//! .funcdecl "rec"                               (one per function of the file, kernels only)
//!
//! /// VISA Predefined Variables
//! // .decl V0 v_type=G v_name=%null            (V0..V20, then T0..T5)
//!
//! .decl V0032 v_type=G type=d num_elts=8 align=hword
//! .decl V0033 v_type=G type=d num_elts=8 align=hword alias=<%r0, 0>
//! .decl A0 v_type=A num_elts=16                 (then P, S, T)
//! .input V0040 offset=32 size=32
//! .kernel_attr Target="3d"
//! ```
//!
//! The header ends without a newline: the first instruction follows on the last attribute's
//! line (the first `.function` leaves `    ` there, note §3).

use super::attributes::{attribute_text, kernel_attribute_line, DEFAULT_TARGET, TARGET};
use super::names::RoutineNames;
use super::{pool_string, Printed, View};
use crate::object::File;
use crate::runtime::text::push_string_literal;
use crate::runtime::text::spellings::{type_text, TextOnlyType};
use crate::runtime::text::{
    predefined_general_count, Names, PREDEFINED_GENERAL, PREDEFINED_SURFACES,
};
use crate::runtime::DataType;
use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use core::fmt::Write;

/// Alignment names by the value of var_info bits 4-7 (IGC's `Common_ISA_Get_Align_Name`).
/// 0 (byte) is not printed: 12 `.decl`s of `real-kernels/dg2` with alignment 0 (types b and
/// ub) have no `align=`; 1 word, 2 dword, 3 qword, 7 hword and 8 wordx32 are in the corpus; 4-6
/// and 9 from note §2 (`byte word dword qword oword GRF GRFx2 hword wordx32 wordx64`).
const ALIGNMENTS: [&str; 10] = [
    "", "word", "dword", "qword", "oword", "GRF", "GRFx2", "hword", "wordx32", "wordx64",
];

/// Surface declarations are numbered after the predefined T0..T5.
const FIRST_DECLARED_SURFACE: usize = PREDEFINED_SURFACES.len();

/// Starts a new line of the header (every line but the first).
fn line(p: &mut Printed) {
    p.text.push('\n');
}

/// Appends the header of `v`, without a final newline; `declared_types`: the variables
/// declared with a type the docs lack (`RoutineTextOnly::declared_types`).
pub(crate) fn push_header(
    p: &mut Printed,
    file: &File,
    v: &View<'_>,
    header_name: &[u8],
    declared_types: &[(usize, TextOnlyType)],
) {
    let _ = write!(
        p.text,
        ".version {}.{}",
        file.header.major_version, file.header.minor_version
    );
    line(p);
    if v.modern {
        line(p);
    }
    let name = match v.string(v.name_index) {
        Some(n) => n,
        None => {
            p.problem(format!(
                "the routine's name is string {}, past the string pool; the header's name is used",
                v.name_index
            ));
            String::from_utf8_lossy(header_name).into_owned()
        }
    };
    p.text.push_str(if v.is_kernel {
        ".kernel "
    } else {
        ".global_function "
    });
    // IGC's printFunctionDecl replaces `.` by a space (note §3).
    push_string_literal(&mut p.text, &name.replace('.', " "));
    if v.is_kernel {
        // The kernel declares the file's functions (`recursion_stackcalls.visaasm` line 3:
        // `.funcdecl "rec"`), by their header names; a function's text declares none.
        for f in &file.header.function_info {
            line(p);
            p.text.push_str(".funcdecl ");
            push_string_literal(&mut p.text, &String::from_utf8_lossy(&f.name));
        }
    }
    line(p);
    line(p);
    p.text.push_str("/// VISA Predefined Variables");
    let count = predefined_general_count(file.header.major_version, file.header.minor_version);
    for (i, n) in PREDEFINED_GENERAL.iter().take(count).enumerate() {
        line(p);
        let _ = write!(p.text, "// .decl V{i} v_type=G v_name={n}");
    }
    for (i, n) in PREDEFINED_SURFACES.iter().enumerate() {
        line(p);
        let _ = write!(p.text, "// .decl T{i} v_type=T v_name={n}");
    }
    line(p);
    let names = RoutineNames::new(v);
    push_declarations(p, v, &names, declared_types);
    push_inputs(p, v, &names);
    push_attributes(p, v);
}

fn push_attrs(p: &mut Printed, v: &View<'_>, attrs: &[crate::object::AttributeInfo]) {
    match attribute_text(v.string_pool, attrs) {
        Ok(t) => p.text.push_str(&t),
        Err(e) => p.problem(e),
    }
}

fn push_declarations(
    p: &mut Printed,
    v: &View<'_>,
    names: &RoutineNames<'_>,
    declared_types: &[(usize, TextOnlyType)],
) {
    for (i, var) in v.var_info.iter().enumerate() {
        line(p);
        let id = u32::try_from(i).unwrap_or(u32::MAX).saturating_add(32);
        let name = v.string(var.name_index).unwrap_or_else(|| {
            p.problem(format!(
                "variable V{id} is named by string {}, past the string pool",
                var.name_index
            ));
            format!("V{id:04}")
        });
        let declared = declared_types.iter().find(|(at, _)| *at == i);
        let ty = match declared {
            Some((_, t)) => t.text,
            None => DataType::try_from(var.bit_properties & 0xf).map_or("?", type_text),
        };
        let _ = write!(
            p.text,
            ".decl {name} v_type=G type={ty} num_elts={}",
            var.num_elements
        );
        let align = usize::from(var.bit_properties >> 4);
        match ALIGNMENTS.get(align) {
            Some(&"") => {}
            Some(a) => {
                let _ = write!(p.text, " align={a}");
            }
            None => p.problem(format!(
                "variable {name} has alignment {align}; IGC names 0-9"
            )),
        }
        if var.alias_index != 0 {
            let target = names.general(var.alias_index).unwrap_or_else(|| {
                p.problem(format!(
                    "variable {name} aliases V{}, which has no name",
                    var.alias_index
                ));
                Cow::Owned(format!("V{}", var.alias_index))
            });
            let _ = write!(p.text, " alias=<{target}, {}>", var.alias_offset);
        }
        push_attrs(p, v, &var.attribute_info);
    }
    for (i, a) in v.address_info.iter().enumerate() {
        line(p);
        let _ = write!(p.text, ".decl A{i} v_type=A num_elts={}", a.num_elements);
        push_attrs(p, v, &a.attribute_info);
    }
    for (i, pr) in v.predicate_info.iter().enumerate() {
        line(p);
        // Predicate ids start at P1 (P0 is "no predicate").
        let _ = write!(
            p.text,
            ".decl P{} v_type=P num_elts={}",
            i + 1,
            pr.num_elements
        );
        push_attrs(p, v, &pr.attribute_info);
    }
    for (class, first, table) in [
        ('S', 0, v.sampler_info),
        ('T', FIRST_DECLARED_SURFACE, v.surface_info),
    ] {
        for (i, s) in table.iter().enumerate() {
            line(p);
            let name = v.string(s.name_index).unwrap_or_else(|| {
                p.problem(format!(
                    "{class}{} is named by string {}, past the string pool",
                    first + i,
                    s.name_index
                ));
                String::from("?")
            });
            let _ = write!(
                p.text,
                ".decl {class}{} v_type={class} num_elts={} v_name={name}",
                first + i,
                s.num_elements
            );
            push_attrs(p, v, &s.attribute_info);
        }
    }
}

fn push_inputs(p: &mut Printed, v: &View<'_>, names: &RoutineNames<'_>) {
    for input in v.input_info {
        line(p);
        let kind = input.kind as u8;
        if kind >> 3 != 0 {
            // IGC prints implicit inputs under other directives; the corpus has none.
            p.problem(format!(
                "input of V{} has implicit kind {}; its directive is not known",
                input.id,
                kind >> 3
            ));
        }
        let name: Cow<'_, str> = match kind & 7 {
            0 => names.general(input.id).unwrap_or_else(|| {
                p.problem(format!("input V{} has no name", input.id));
                Cow::Owned(format!("V{}", input.id))
            }),
            1 => Cow::Owned(format!("S{}", input.id)),
            2 => match u16::try_from(input.id) {
                Ok(id) => names.surface(id),
                Err(_) => Cow::Owned(format!("T{}", input.id)),
            },
            c => {
                p.problem(format!("input {} has class {c}; IGC knows 0-2", input.id));
                Cow::Owned(format!("?{}", input.id))
            }
        };
        let _ = write!(
            p.text,
            ".input {name} offset={} size={}",
            input.offset, input.size
        );
    }
}

fn push_attributes(p: &mut Printed, v: &View<'_>) {
    let mut has_target = false;
    for a in v.attribute_info {
        has_target |= pool_string(v.string_pool, a.name).as_deref() == Some(TARGET);
        match kernel_attribute_line(v.string_pool, a) {
            Ok(Some(text)) => {
                line(p);
                let _ = write!(p.text, ".kernel_attr {text}");
            }
            Ok(None) => {}
            Err(e) => {
                line(p);
                p.problem(e);
                p.text.push_str("// .kernel_attr: cannot print");
            }
        }
    }
    if !has_target {
        line(p);
        let _ = write!(p.text, ".kernel_attr {DEFAULT_TARGET}");
    }
}
