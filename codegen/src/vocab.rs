//! The vISA vocabulary: the data types as the docs spell them, with their binary code, width
//! and signedness, in one table. The parser (type sentences, chapter records), the analyzer
//! (field widths, type maps, lane functions), the emitters (the Rust types of record items,
//! fixed field sizes of the reference pages) and the runtime's `DataType` table all read it;
//! a test checks the runtime's table against it, row by row.
//!
//! Source: `2_datatypes.md` of Intel's docs (the "Data Types" table: name, 4-bit encoding,
//! size), checked with IGC 12504.6's `CISATypeTable` (`../shared/notes/visa-text-syntax.md`).

/// What a type's bits mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Unsigned,
    Signed,
    Float,
    /// Packed immediates (`V`, `UV`, `VF`): eight or four elements in one 32-bit value.
    Packed,
    /// `BOOL`: one bit per channel (predicates).
    Bool,
}

/// One vISA data type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataType {
    /// As the docs write it, upper case (`UD`).
    pub name: &'static str,
    /// The variant of the runtime's `DataType` (`Ud`).
    pub variant: &'static str,
    /// The 4-bit type code of the binary format.
    pub code: u8,
    /// Size of one element in bytes; 0 for `BOOL` (one bit).
    pub bytes: u8,
    pub kind: Kind,
}

impl DataType {
    /// An integer type (signed or unsigned): one that a layout field or record item may have.
    pub fn is_integer(&self) -> bool {
        matches!(self.kind, Kind::Unsigned | Kind::Signed)
    }

    /// A type a lane function computes in (integers and floats, not packed or `BOOL`).
    pub fn is_numeric(&self) -> bool {
        matches!(self.kind, Kind::Unsigned | Kind::Signed | Kind::Float)
    }

    /// The Rust integer type holding a value of this type (`UD` → `u32`, `B` → `i8`), for
    /// integer types.
    pub fn rust_int(&self) -> Option<&'static str> {
        let signed = match self.kind {
            Kind::Unsigned => false,
            Kind::Signed => true,
            _ => return None,
        };
        Some(match (self.bytes, signed) {
            (1, false) => "u8",
            (2, false) => "u16",
            (4, false) => "u32",
            (8, false) => "u64",
            (1, true) => "i8",
            (2, true) => "i16",
            (4, true) => "i32",
            (8, true) => "i64",
            _ => return None,
        })
    }
}

const fn t(name: &'static str, variant: &'static str, code: u8, bytes: u8, kind: Kind) -> DataType {
    DataType {
        name,
        variant,
        code,
        bytes,
        kind,
    }
}

/// Every vISA data type, in binary-format order (the code is the index).
pub const DATA_TYPES: &[DataType] = &[
    t("UD", "Ud", 0b0000, 4, Kind::Unsigned),
    t("D", "D", 0b0001, 4, Kind::Signed),
    t("UW", "Uw", 0b0010, 2, Kind::Unsigned),
    t("W", "W", 0b0011, 2, Kind::Signed),
    t("UB", "Ub", 0b0100, 1, Kind::Unsigned),
    t("B", "B", 0b0101, 1, Kind::Signed),
    t("DF", "Df", 0b0110, 8, Kind::Float),
    t("F", "F", 0b0111, 4, Kind::Float),
    t("V", "V", 0b1000, 4, Kind::Packed),
    t("VF", "Vf", 0b1001, 4, Kind::Packed),
    t("BOOL", "Bool", 0b1010, 0, Kind::Bool),
    t("UQ", "Uq", 0b1011, 8, Kind::Unsigned),
    t("UV", "Uv", 0b1100, 4, Kind::Packed),
    t("Q", "Q", 0b1101, 8, Kind::Signed),
    t("HF", "Hf", 0b1110, 2, Kind::Float),
    t("BF", "Bf", 0b1111, 2, Kind::Float),
];

/// The data type spelled `name` as the docs write it (upper case, `UD`).
pub fn data_type(name: &str) -> Option<&'static DataType> {
    DATA_TYPES.iter().find(|t| t.name == name)
}

/// The data type of a field bullet's type (`ud`, `b`, lower case as the docs write fields).
pub fn field_type(ty: &str) -> Option<&'static DataType> {
    DATA_TYPES.iter().find(|t| t.name.eq_ignore_ascii_case(ty))
}

/// `name` is a vISA data type as the docs write it (upper case).
pub fn is_data_type(name: &str) -> bool {
    data_type(name).is_some()
}

/// Encoded size in bytes of a field of type `ty` (as written in a bullet, lower case), when it
/// is fixed: the integer types. Operands (`vec_operand`, `raw_operand`, `scalar`) and `unknown`
/// have no fixed size.
pub fn fixed_size(ty: &str) -> Option<usize> {
    field_type(ty)
        .filter(|t| t.is_integer())
        .map(|t| usize::from(t.bytes))
}

/// Width in bytes of a fundamental type of the object-file chapter (`UB`, `UW`, `UD`, `UQ`
/// and signed), the integer data types.
pub fn fundamental_width(ty: &str) -> Option<u8> {
    data_type(ty).filter(|t| t.is_integer()).map(|t| t.bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_types_have_their_width_and_operands_have_none() {
        assert_eq!(fixed_size("ub"), Some(1));
        assert_eq!(fixed_size("uw"), Some(2));
        assert_eq!(fixed_size("ud"), Some(4));
        assert_eq!(fixed_size("d"), Some(4));
        assert_eq!(fixed_size("uq"), Some(8));
        assert_eq!(fixed_size("f"), None);
        assert_eq!(fixed_size("vec_operand"), None);
        assert_eq!(fixed_size("raw_operand"), None);
        assert_eq!(fixed_size("unknown"), None);
        assert_eq!(fundamental_width("UQ"), Some(8));
        assert_eq!(fundamental_width("Q"), Some(8));
        assert_eq!(fundamental_width("HF"), None);
    }

    #[test]
    fn codes_are_the_table_order_and_rust_types_follow_width_and_sign() {
        for (i, t) in DATA_TYPES.iter().enumerate() {
            assert_eq!(usize::from(t.code), i, "{}", t.name);
        }
        let rust = |n: &str| data_type(n).and_then(|t| t.rust_int());
        assert_eq!(rust("UB"), Some("u8"));
        assert_eq!(rust("B"), Some("i8"));
        assert_eq!(rust("W"), Some("i16"));
        assert_eq!(rust("UQ"), Some("u64"));
        assert_eq!(rust("Q"), Some("i64"));
        assert_eq!(rust("F"), None);
    }

    /// The runtime's `data_types!` table (`runtime/runtime/operand.rs`, hand-written
    /// because the runtime is copied, not emitted) states the same rows: variant, code, name,
    /// size.
    #[test]
    fn the_runtime_table_is_this_table() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/runtime/operand.rs");
        let text = std::fs::read_to_string(path).unwrap();
        let start = text.find("data_types! {\n").expect("the runtime's table");
        let body = &text[start..];
        let body = &body[..body.find("\n}").unwrap()];
        let rows: Vec<(String, u8, String, u8)> = body
            .lines()
            .skip(1)
            .map(|l| {
                // `Ud = 0b0000, "UD", 4;`
                let l = l.trim().trim_end_matches(';');
                let (variant, rest) = l.split_once(" = 0b").unwrap();
                let parts: Vec<&str> = rest.split(", ").collect();
                (
                    variant.to_string(),
                    u8::from_str_radix(parts[0], 2).unwrap(),
                    parts[1].trim_matches('"').to_string(),
                    parts[2].parse().unwrap(),
                )
            })
            .collect();
        let ours: Vec<(String, u8, String, u8)> = DATA_TYPES
            .iter()
            .map(|t| (t.variant.to_string(), t.code, t.name.to_string(), t.bytes))
            .collect();
        assert_eq!(rows, ours);
    }

    /// The table is the data types chapter's: every row's text format, binary format and size
    /// (`../shared/visa-docs/chapters/2_datatypes.md`).
    #[test]
    fn the_table_is_the_chapters() {
        let dir = std::env::var_os("VISA_SHARED")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared").into());
        let path = dir.join("visa-docs/chapters/2_datatypes.md");
        let Ok(text) = std::fs::read_to_string(&path) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "{} is missing in CI",
                path.display()
            );
            eprintln!("skipped: {} is absent", path.display());
            return;
        };
        // | unsigned double word | 32 | [0, 2<sup>32</sup>-1] | 0b0000 | UD |
        let rows: Vec<(u8, String, u8)> = text
            .lines()
            .filter_map(|l| {
                let cells: Vec<&str> = l
                    .trim()
                    .trim_matches('|')
                    .split('|')
                    .map(str::trim)
                    .collect();
                let [_, bits, _, code, name] = cells[..] else {
                    return None;
                };
                let code = u8::from_str_radix(code.strip_prefix("0b")?, 2).ok()?;
                let bits: u8 = bits.parse().ok()?;
                Some((code, name.to_string(), bits / 8))
            })
            .collect();
        let ours: Vec<(u8, String, u8)> = DATA_TYPES
            .iter()
            .map(|t| (t.code, t.name.to_string(), t.bytes))
            .collect();
        assert_eq!(rows, ours);
    }
}
