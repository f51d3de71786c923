//! The object-format chapter's records, analysed: every Rust name, item type and width, which
//! scalar is a count or size derived when writing, and the predefined ids, decided here so the
//! emitter (`emit/rust/object.rs`) and the API view (`diff/view.rs`) only read them.

use super::naming::{snake_name, type_name};
use crate::schema::{EnumValue, Predefined, Record, RecordField, RecordFieldKind, Spec};
use crate::vocab;

/// The records of the chapters, or `None` when the spec has none (no `generated::object`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObjectModel {
    /// The chapters the records come from, sorted, each once.
    pub sources: Vec<String>,
    pub records: Vec<RecordModel>,
    /// Predefined general variables `V0..` by id, with the chapter's names (`None`: reserved).
    pub predefined_variables: Vec<Option<String>>,
    /// How many surfaces `T0..` are predefined.
    pub predefined_surfaces: u32,
}

/// One pseudo-structure.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordModel {
    /// As the chapter names it (`kernel_info`).
    pub name: String,
    pub rust_name: String,
    pub source: String,
    pub line: u32,
    /// Other names of the same format: (chapter name, Rust alias).
    pub aliases: Vec<(String, String)>,
    pub items: Vec<ItemModel>,
    /// The fewest bytes a record takes: the sum of its scalar items' widths.
    pub min_size: u64,
}

/// One item of a record.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ItemModel {
    pub name: String,
    pub rust_name: String,
    pub kind: ItemKind,
    /// What the chapter declares, as written (`UD`, `UB[name_len]`), for the API view.
    pub declared: String,
    pub description: String,
    pub values: Vec<RecordValue>,
    pub bits: Vec<BitsModel>,
    /// A scalar that counts or sizes a later item: not stored, derived when writing.
    pub derived_for: Option<Derived>,
}

/// The later item a derived scalar counts or sizes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Derived {
    pub rust_name: String,
    /// An instruction stream: its size is its encoded length, not a number of elements.
    pub encoded_len: bool,
}

/// A scalar of the chapter: its Rust integer type and width in bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scalar {
    pub rust: &'static str,
    pub bytes: u8,
}

/// A count or size another item names: the item as written and its Rust local.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CountRef {
    pub name: String,
    pub rust_name: String,
}

/// What an item holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    Scalar(Scalar),
    Array {
        ty: Scalar,
        count: CountRef,
    },
    /// Records of the format `record` (its Rust name), or of a format the chapter does not
    /// describe (`None`).
    Records {
        record: Option<String>,
        count: CountRef,
    },
    Strings {
        count: CountRef,
    },
    Bytes {
        size: CountRef,
    },
    Instructions {
        size: CountRef,
    },
}

/// An enumerated value of an item or its bits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordValue {
    pub value: u64,
    pub meaning: String,
    /// The platform annotation as written, if any.
    pub platform: Option<String>,
}

/// A bit-packed item of a scalar.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BitsModel {
    pub name: String,
    /// The accessor's base name (`<item>_<bits>`, snake case).
    pub rust_name: String,
    pub hi: u8,
    pub lo: u8,
    pub text: String,
    pub values: Vec<RecordValue>,
}

/// The records of `spec`, when it has any.
pub fn analyze(spec: &Spec) -> Option<ObjectModel> {
    if spec.records.is_empty() {
        return None;
    }
    let mut sources: Vec<String> = spec.records.iter().map(|r| r.source.clone()).collect();
    sources.sort();
    sources.dedup();
    Some(ObjectModel {
        sources,
        records: spec.records.iter().map(record).collect(),
        predefined_variables: predefined_variables(&spec.predefined),
        predefined_surfaces: spec
            .predefined
            .iter()
            .find(|p| p.class == "T")
            .map_or(0, |t| t.count),
    })
}

fn predefined_variables(p: &[Predefined]) -> Vec<Option<String>> {
    p.iter()
        .find(|p| p.class == "V")
        .map(|v| (0..v.count).map(|i| v.names.get(&i).cloned()).collect())
        .unwrap_or_default()
}

/// A scalar type of the chapter. The parser keeps only the integer types as scalars, so
/// another name does not occur; it would be held as `i64` (the widest), taking no bytes.
fn scalar(ty: &str) -> Scalar {
    let t = vocab::data_type(ty).filter(|t| t.is_integer());
    Scalar {
        rust: t.and_then(|t| t.rust_int()).unwrap_or("i64"),
        bytes: t.map_or(0, |t| t.bytes),
    }
}

fn count_ref(name: &str) -> CountRef {
    CountRef {
        name: name.to_string(),
        rust_name: snake_name(name),
    }
}

fn values(vs: &[EnumValue]) -> Vec<RecordValue> {
    vs.iter()
        .map(|v| RecordValue {
            value: v.value,
            meaning: v.meaning.clone(),
            platform: v.platform.clone(),
        })
        .collect()
}

fn record(r: &Record) -> RecordModel {
    let items: Vec<ItemModel> = r.fields.iter().map(|f| item(r, f)).collect();
    let min_size = items
        .iter()
        .map(|i| match &i.kind {
            ItemKind::Scalar(s) => u64::from(s.bytes),
            _ => 0,
        })
        .sum();
    RecordModel {
        name: r.name.clone(),
        rust_name: type_name(&r.name),
        source: r.source.clone(),
        line: r.span.line,
        aliases: r
            .aliases
            .iter()
            .map(|a| (a.clone(), type_name(a)))
            .collect(),
        items,
        min_size,
    }
}

fn item(r: &Record, f: &RecordField) -> ItemModel {
    let (kind, declared) = match &f.kind {
        RecordFieldKind::Scalar { ty } => (ItemKind::Scalar(scalar(ty)), ty.clone()),
        RecordFieldKind::Array { ty, count } => (
            ItemKind::Array {
                ty: scalar(ty),
                count: count_ref(count),
            },
            format!("{ty}[{count}]"),
        ),
        RecordFieldKind::Records { ty, record, count } => (
            ItemKind::Records {
                record: record.as_deref().map(type_name),
                count: count_ref(count),
            },
            format!("{ty}[{count}]"),
        ),
        RecordFieldKind::Strings { ty, count } => (
            ItemKind::Strings {
                count: count_ref(count),
            },
            format!("{ty}[{count}] strings"),
        ),
        RecordFieldKind::Bytes { size } => (
            ItemKind::Bytes {
                size: count_ref(size),
            },
            format!("bytes[{size}]"),
        ),
        RecordFieldKind::Instructions { size } => (
            ItemKind::Instructions {
                size: count_ref(size),
            },
            format!("instructions[{size}]"),
        ),
    };
    let derived_for = match kind {
        ItemKind::Scalar(_) => derived_for(r, &f.name),
        _ => None,
    };
    ItemModel {
        name: f.name.clone(),
        rust_name: snake_name(&f.name),
        kind,
        declared,
        description: f.description.clone(),
        values: values(&f.values),
        bits: f
            .bits
            .iter()
            .map(|b| BitsModel {
                name: b.name.clone(),
                rust_name: snake_name(&format!("{}_{}", f.name, b.name)),
                hi: b.hi,
                lo: b.lo,
                text: b.text.clone(),
                values: values(&b.values),
            })
            .collect(),
        derived_for,
    }
}

/// The item that `count` counts (or sizes), if any item of `r` uses it.
fn derived_for(r: &Record, count: &str) -> Option<Derived> {
    let user = r.fields.iter().find(|f| match &f.kind {
        RecordFieldKind::Array { count: c, .. }
        | RecordFieldKind::Records { count: c, .. }
        | RecordFieldKind::Strings { count: c, .. } => c == count,
        RecordFieldKind::Bytes { size } | RecordFieldKind::Instructions { size } => size == count,
        RecordFieldKind::Scalar { .. } => false,
    })?;
    Some(Derived {
        rust_name: snake_name(&user.name),
        encoded_len: matches!(user.kind, RecordFieldKind::Instructions { .. }),
    })
}
