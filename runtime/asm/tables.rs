//! Spellings of the declaration part that the runtime's text layer does not hold: alignments,
//! implicit-input kinds, attribute value widths, and the names IGC's builder gives.

/// `align=` names in code order (`Common_ISA_Get_Align_Name`, note §2 "Declarations"): codes
/// 0-9 of `bit_properties` bits 4-7 (object-file note §2.3). `byte` is never printed.
pub const ALIGNMENTS: [&str; 10] = [
    "byte", "word", "dword", "qword", "oword", "GRF", "GRFx2", "hword", "wordx32", "wordx64",
];

/// Other spellings IGC's parser takes for `align=` (note §4.1: `2GRF`, `32word`).
pub const ALIGNMENT_ALIASES: [(&str, u8); 3] = [("2GRF", 6), ("32word", 8), ("64word", 9)];

/// The alignment code of an `align=` value, case-insensitive.
pub fn alignment(text: &str) -> Option<u8> {
    let named = ALIGNMENTS
        .iter()
        .position(|a| a.eq_ignore_ascii_case(text))
        .and_then(|i| u8::try_from(i).ok());
    named.or_else(|| {
        ALIGNMENT_ALIASES
            .iter()
            .find(|(a, _)| a.eq_ignore_ascii_case(text))
            .map(|a| a.1)
    })
}

/// `.implicit_<NAME>` provenance values (object-format chapter, input_info: "`.implicit_LOCAL_SIZE`
/// is the same as `.implicit_UNDEFINED_1`", ...); any value is `.implicit_UNDEFINED_<n>`.
pub const IMPLICIT_INPUTS: [(&str, u8); 3] =
    [("LOCAL_SIZE", 1), ("GROUP_COUNT", 2), ("LOCAL_ID", 3)];

/// Width in bytes of integer attribute values as Intel's compiler writes them, measured in
/// `real-kernels/dg2/*.isa` (`SimdSize` 1 byte in every kernel, `PerThreadInputSize` 2 in 111
/// kernels, `ArgSize`/`RetValSize` 1 in `recursion_stackcalls.isa`'s function). Others take 4.
pub const INT_ATTRIBUTE_WIDTHS: [(&str, usize); 4] = [
    ("SimdSize", 1),
    ("PerThreadInputSize", 2),
    ("ArgSize", 1),
    ("RetValSize", 1),
];

/// `Target` values (IGC's `VISATarget`: CM 0, 3D 1, CS 2); every dg2 kernel has `"3d"` stored
/// as the single byte 1.
pub const TARGETS: [(&str, u8); 3] = [("cm", 0), ("3d", 1), ("cs", 2)];

/// IGC names predicate `P<n>` `P%02d` in the string pool (`P01` for the first: every dg2 file)
/// and address `A<n>` `A%02d` (`A00`).
pub fn pool_name_of_indexed(prefix: char, text_name: &str) -> Option<alloc::string::String> {
    let digits = text_name.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    Some(alloc::format!("{prefix}{n:02}"))
}

/// The string IGC puts after the 27 predefined names in every routine's pool (string 28 of all
/// 59 routines of `real-kernels/dg2`): the name of predefined sampler 31.
pub const PREDEFINED_SAMPLER_NAME: &str = "S31";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignments_and_names() {
        assert_eq!(alignment("hword"), Some(7));
        assert_eq!(alignment("wordx32"), Some(8));
        assert_eq!(alignment("grf"), Some(5));
        assert_eq!(alignment("2GRF"), Some(6));
        assert_eq!(alignment("lots"), None);
        assert_eq!(pool_name_of_indexed('P', "P1").as_deref(), Some("P01"));
        assert_eq!(pool_name_of_indexed('P', "P12").as_deref(), Some("P12"));
        assert_eq!(pool_name_of_indexed('A', "A0").as_deref(), Some("A00"));
        assert_eq!(pool_name_of_indexed('P', "Pfoo"), None);
    }
}
