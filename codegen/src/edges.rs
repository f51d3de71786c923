//! Every list-valued construct of the schema at size 0 and 1, through analysis and each emitter
//! (tests of the whole pipeline, so they live beside it, not inside an emitter):
//! the Rust emitters (instruction modules, the parent module, the shared enums, the property
//! tests) and the docs emitter. Schemas are built by hand; the facts asserted were worked out
//! from the docs' rules, not copied from the output.

use crate::analyze::platform::Rule;
use crate::analyze::{analyze, Choice, Model, TypeMapModel};
use crate::diag::Diagnostic;
use crate::emit::{docs, rust, Options};
use crate::schema::{BitField, EnumValue, Field, Instruction, Selector, Spec, TypeMap, Variant};
use crate::testing::span;
use std::collections::BTreeMap;

fn value(value: u64, meaning: &str, platform: Option<&str>) -> EnumValue {
    EnumValue {
        value,
        meaning: meaning.into(),
        platform: platform.map(str::to_string),
        span: span(5),
    }
}

fn field(name: &str, ty: &str) -> Field {
    Field {
        name: name.into(),
        ty: ty.into(),
        optional: false,
        description: format!("The {name}."),
        bitfields: vec![],
        values: vec![],
        allowed_types: vec![],
        operand_classes: vec![],
        span: span(4),
    }
}

fn variant(condition: Option<&str>, fields: &[&str], selectors: Vec<Selector>) -> Variant {
    Variant {
        condition: condition.map(str::to_string),
        fields: fields.iter().map(|f| f.to_string()).collect(),
        selectors,
        optional_fields: vec![],
        counted: vec![],
        span: span(3),
    }
}

fn selector(field: &str, values: &[&str]) -> Selector {
    Selector {
        field: field.into(),
        subfield: None,
        values: values.iter().map(|v| v.to_string()).collect(),
        operand_type: false,
    }
}

/// One instruction whose single, unconditioned format table holds every field in order.
fn inst(name: &str, opcode: u8, fields: Vec<Field>) -> Instruction {
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let v = variant(None, &names, vec![]);
    crate::testing::instruction(name, opcode, fields, vec![v], span(1))
}

fn type_map(platform: Option<&str>, groups: &[(&str, &[&str])], line: u32) -> TypeMap {
    TypeMap {
        platform: platform.map(str::to_string),
        types: groups
            .iter()
            .map(|(g, t)| (g.to_string(), t.iter().map(|x| x.to_string()).collect()))
            .collect(),
        span: span(line),
    }
}

struct Out {
    model: Model,
    diags: Vec<Diagnostic>,
    spec: Spec,
    files: BTreeMap<String, String>,
}

impl Out {
    /// A generated Rust file, which must parse.
    fn rust(&self, path: &str) -> syn::File {
        let text = &self.files[path];
        syn::parse_file(text).unwrap_or_else(|e| panic!("{path} does not parse: {e}\n{text}"))
    }
    /// A file with whitespace collapsed, for matching expressions across line breaks.
    fn flat(&self, path: &str) -> String {
        flat(&self.files[path])
    }
    fn codes(&self) -> Vec<&str> {
        self.diags.iter().map(|d| d.code.as_str()).collect()
    }
}

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Analysis without errors, then every emitter; every Rust file must parse.
fn generate(insts: Vec<Instruction>) -> Out {
    let spec = Spec {
        instructions: insts,
        ..Spec::default()
    };
    let (model, diags) = analyze(&spec);
    assert!(!diags.iter().any(Diagnostic::is_error), "{diags:#?}");
    let mut files = rust::render(&model, &Options::default());
    files.extend(docs::render(
        crate::analyze::reference::build(&spec),
        &Options::default(),
    ));
    let out = Out {
        model,
        diags,
        spec,
        files,
    };
    for path in out.files.keys().filter(|p| p.ends_with(".rs")) {
        out.rust(path);
    }
    out
}

/// Field names of `struct name` in a parsed file.
fn struct_fields(file: &syn::File, name: &str) -> Vec<String> {
    file.items
        .iter()
        .find_map(|i| match i {
            syn::Item::Struct(s) if s.ident == name => Some(
                s.fields
                    .iter()
                    .filter_map(|f| f.ident.as_ref().map(|i| i.to_string()))
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no struct {name}"))
}

/// Variant names of `enum name` in a parsed file, or `None` when there is no such enum.
fn enum_variants(file: &syn::File, name: &str) -> Option<Vec<String>> {
    file.items.iter().find_map(|i| match i {
        syn::Item::Enum(e) if e.ident == name => {
            Some(e.variants.iter().map(|v| v.ident.to_string()).collect())
        }
        _ => None,
    })
}

const ROUNDTRIP: &str = "src/generated/roundtrip.rs";

// ---- Rust emitter: instruction modules ----

#[test]
fn instruction_fields_at_size_0_and_1() {
    let out = generate(vec![
        inst("NONE", 1, vec![]),
        inst("ONE", 2, vec![field("Surface", "ub")]),
    ]);
    let none = out.rust("src/generated/none.rs");
    assert!(struct_fields(&none, "None").is_empty());
    let flat = out.flat("src/generated/none.rs");
    assert!(flat.contains("const PLACEHOLDER: Self = Self {};"));
    assert!(flat.contains("-> Result<(), DecodeError> { Ok(()) }"));
    let one = out.rust("src/generated/one.rs");
    assert_eq!(struct_fields(&one, "One"), vec!["surface"]);
    assert!(out.flat("src/generated/one.rs").contains(
        "let surface = <u8 as Decode>::decode(rdr_, \"Surface\")?; self.surface = surface; Ok(())"
    ));
}

#[test]
fn instruction_enumerated_values_at_size_0_and_1() {
    // No values: a plain integer. One value, annotated `{PVC}`: a one-variant enum that exists
    // on PVC only.
    let mut one = field("Mode", "ub");
    one.values = vec![value(2, "cached", Some("PVC"))];
    let out = generate(vec![inst("E", 1, vec![field("Plain", "uw"), one])]);
    let file = out.rust("src/generated/e.rs");
    assert_eq!(struct_fields(&file, "E"), vec!["plain", "mode"]);
    assert_eq!(enum_variants(&file, "Plain"), None);
    assert_eq!(
        enum_variants(&file, "Mode"),
        Some(vec!["Cached".to_string()])
    );
    let code = out.flat("src/generated/e.rs");
    assert!(code.contains("pub plain: u16"), "{code}");
    assert!(code.contains("pub const ALL: &'static [Mode] = &[Mode::Cached];"));
    assert!(code.contains("pub const EXPECTED: &'static str = \"one of 0x2 (cached)\";"));
    assert!(code.contains("match bits { 2 => Some(Mode::Cached), _ => None, }"));
    assert!(code.contains("Mode::Cached if platform != Platform::Pvc => Err(\"{PVC}0x2: cached\")"));
    assert_eq!(out.model.platforms, vec!["pre-PVC", "PVC"]);
}

#[test]
fn instruction_bit_fields_at_size_1() {
    // One single-bit range: the struct has the member and `reserved`, the 7 other bits.
    let mut flag = field("Flag", "ub");
    flag.bitfields = vec![BitField {
        hi: 0,
        lo: 0,
        summary: "enable".into(),
        values: vec![],
        platform: None,
        span: span(5),
    }];
    // One range covering the whole field, with one value: no reserved bits.
    let mut whole = field("Whole", "uw");
    whole.bitfields = vec![BitField {
        hi: 15,
        lo: 0,
        summary: "the value".into(),
        values: vec![value(5, "five", None)],
        platform: Some("TGLLP+".into()),
        span: span(6),
    }];
    let out = generate(vec![inst("B", 1, vec![flag, whole])]);
    let file = out.rust("src/generated/b.rs");
    assert_eq!(struct_fields(&file, "Flag"), vec!["enable", "reserved"]);
    assert_eq!(struct_fields(&file, "Whole"), vec!["value", "reserved"]);
    let code = out.flat("src/generated/b.rs");
    assert!(
        code.contains("pub const RESERVED_MASK: u8 = 0xfe;"),
        "{code}"
    );
    assert!(
        code.contains("pub const RESERVED_MASK: u16 = 0x0;"),
        "{code}"
    );
    // Whole bits: no reserved-bits rule; before TGLLP the range must be zero, which `five`
    // never is.
    assert!(!code.contains("bits outside Bit[15..0]"));
    assert!(code.contains("if platform < Platform::Tgllp && self.whole.value.bits() != 0"));
}

#[test]
fn instruction_operand_classes_and_allowed_types_at_size_0_and_1() {
    let bare = field("A", "vec_operand");
    let mut one = field("B", "vec_operand");
    one.operand_classes = vec!["immediate".into()];
    one.allowed_types = vec!["UD".into()];
    // A class the operands chapter lacks is no check, not an empty `matches!`.
    let mut unknown = field("C", "vec_operand");
    unknown.operand_classes = vec!["nonesuch".into()];
    let out = generate(vec![inst("K", 1, vec![bare, one, unknown])]);
    let code = out.flat("src/generated/k.rs");
    assert!(!code.contains("self.a.class()") && !code.contains("self.a.immediate_type()"));
    assert!(!code.contains("self.c.class()"));
    assert!(code.contains("if !matches!(self.b.class(), OperandClass::Immediate)"));
    assert!(
        code.contains("if let Some(t) = self.b.immediate_type() { if !matches!(t, DataType::Ud) {")
    );
    assert!(!code.contains("matches!(t,)") && !code.contains("matches!(t, )"));
}

#[test]
fn a_type_name_outside_the_data_types_chapter_is_not_checked() {
    let mut f = field("A", "vec_operand");
    f.allowed_types = vec!["INT4".into()];
    let out = generate(vec![inst("K", 1, vec![f])]);
    assert_eq!(out.codes(), vec!["V0205"]);
    assert!(!out.flat("src/generated/k.rs").contains("immediate_type"));
}

#[test]
fn instruction_type_maps_at_size_0_and_1() {
    let src = || field("Src", "vec_operand");
    // No maps; a map whose `Src types` is empty; a map of no groups; one map of one type.
    let none = inst("M0", 1, vec![src()]);
    let mut empty = inst("M1", 2, vec![src()]);
    empty.type_maps = vec![
        type_map(None, &[("Dst types", &["UD"]), ("Src types", &[])], 20),
        type_map(Some("XEHP+"), &[], 23),
    ];
    let mut one = inst("M2", 3, vec![src()]);
    one.type_maps = vec![type_map(Some("XEHP+"), &[("Src types", &["F"])], 30)];
    let out = generate(vec![none, empty, one]);
    assert_eq!(out.codes(), vec!["V0204", "V0204"]);
    let lines: Vec<(u32, &str)> = out
        .diags
        .iter()
        .map(|d| (d.line, d.message.as_str()))
        .collect();
    assert_eq!(
        lines,
        vec![
            (
                20,
                "type map lists no type under `Src types`; the map is ignored"
            ),
            (23, "type map lists no operand types; the map is ignored"),
        ]
    );
    assert!(out.model.instructions[1].src_type_maps.is_empty());
    for m in ["m0", "m1"] {
        let code = out.flat(&format!("src/generated/{m}.rs"));
        assert!(!code.contains("Operand type maps"), "{code}");
    }
    let code = out.flat("src/generated/m2.rs");
    assert!(code.contains(
        "if !(platform >= Platform::Xehp && matches!(t, DataType::F | DataType::Vf)) { return Err(ValidationError { instruction: \"M2\", field: \"Src\", rule: \"Operand type maps: Src types {XEHP+} F\","
    ), "{code}");
}

#[test]
fn instruction_variants_and_selectors_at_size_1() {
    let op = || {
        let mut f = field("Op", "ub");
        f.values = vec![value(0, "read", None), value(1, "write", None)];
        f
    };
    // One format table under a condition: a struct, not an enum of one variant.
    let mut lone = inst("LONE", 1, vec![op(), field("Surface", "ub")]);
    lone.variants = vec![variant(
        Some("Op=read"),
        &["Op", "Surface"],
        vec![selector("Op", &["read"])],
    )];
    // Two tables, each selected by one value and holding one field after the selector.
    let mut two = inst(
        "TWO",
        2,
        vec![op(), field("Dst", "raw_operand"), field("Src", "ub")],
    );
    two.variants = vec![
        variant(
            Some("Op=read"),
            &["Op", "Dst"],
            vec![selector("Op", &["read"])],
        ),
        variant(
            Some("Op=write"),
            &["Op", "Src"],
            vec![selector("Op", &["write"])],
        ),
    ];
    let out = generate(vec![lone, two]);
    assert!(out.diags.is_empty(), "{:#?}", out.diags);
    let file = out.rust("src/generated/lone.rs");
    assert_eq!(enum_variants(&file, "Lone"), None);
    assert_eq!(struct_fields(&file, "Lone"), vec!["op", "surface"]);
    let file = out.rust("src/generated/two.rs");
    assert_eq!(
        enum_variants(&file, "Two"),
        Some(vec!["Read".to_string(), "Write".to_string()])
    );
    assert_eq!(struct_fields(&file, "TwoWrite"), vec!["op", "src"]);
    let code = out.flat("src/generated/two.rs");
    assert!(
        code.contains(
            "if matches!(op, Op::Write) { let src = <u8 as Decode>::decode(rdr_, \"Src\")?;"
        ),
        "{code}"
    );
}

#[test]
fn instruction_emitter_renders_empty_lists_it_is_handed_as_false() {
    // The analyzer never hands these over; the emitter still renders valid Rust that matches
    // nothing rather than `matches!(t,)`.
    let mut op = field("Op", "ub");
    op.values = vec![value(0, "read", None), value(1, "write", None)];
    let mut i = inst("R", 1, vec![op, field("Src", "vec_operand")]);
    i.variants = vec![
        variant(
            Some("Op=read"),
            &["Op", "Src"],
            vec![selector("Op", &["read"])],
        ),
        variant(Some("Op=write"), &["Op"], vec![selector("Op", &["write"])]),
    ];
    let (mut model, _) = analyze(&Spec {
        instructions: vec![i],
        ..Spec::default()
    });
    let inst = &mut model.instructions[0];
    inst.src_type_maps = vec![TypeMapModel {
        rule: Some(Rule::Since("XEHP".into())),
        types: vec![],
    }];
    inst.variants[1].choices = vec![Choice {
        field: "Op".into(),
        member: None,
        enum_index: 0,
        values: vec![],
    }];
    let files = rust::render(&model, &Options::default());
    for (path, text) in &files {
        syn::parse_file(text).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    let code = flat(&files["src/generated/r.rs"]);
    assert!(
        code.contains("if let Some(t) = self.src.immediate_type() { if true {"),
        "{code}"
    );
    assert!(code.contains("if false {"), "{code}");
    // The property test of that variant draws from every value rather than from none.
    let tests = flat(&files[ROUNDTRIP]);
    assert!(
        tests.contains("proptest::sample::select(crate::generated::r::Op::ALL.to_vec())"),
        "{tests}"
    );
}

// ---- Rust emitter: parent module and shared enums ----

#[test]
fn parent_module_platforms_and_instructions_at_size_0_and_1() {
    // No doc names a platform: one `Generic` platform, so validation has somewhere to hold.
    let out = generate(vec![inst("ONE", 1, vec![field("Surface", "ub")])]);
    let top = out.rust("src/generated/mod.rs");
    assert_eq!(
        enum_variants(&top, "Platform"),
        Some(vec!["Generic".to_string()])
    );
    assert_eq!(enum_variants(&top, "Opcode"), Some(vec!["One".to_string()]));
    assert_eq!(
        enum_variants(&top, "Instruction"),
        Some(vec!["One".to_string()])
    );
    let code = out.flat("src/generated/mod.rs");
    assert!(code.contains("pub const NAMES: &'static [&'static str] = &[\"ONE\"];"));
    // One platform named, from one annotated value.
    let mut f = field("Mode", "ub");
    f.values = vec![value(0, "flat", Some("XEHP+"))];
    let out = generate(vec![inst("ONE", 1, vec![f])]);
    let top = out.rust("src/generated/mod.rs");
    // XEHP, behind one platform for the generations before it.
    assert_eq!(
        enum_variants(&top, "Platform"),
        Some(vec!["PreXehp".to_string(), "Xehp".to_string()])
    );
    // No value set is shared by two docs: the shared module holds no enum.
    let shared = out.rust("src/generated/enums.rs");
    assert!(!shared.items.iter().any(|i| matches!(i, syn::Item::Enum(_))));
}

#[test]
fn shared_enums_of_one_value() {
    let mode = || {
        let mut f = field("Mode", "ub");
        f.values = vec![value(1, "only", None)];
        f
    };
    let out = generate(vec![inst("A", 1, vec![mode()]), inst("B", 2, vec![mode()])]);
    let shared = out.rust("src/generated/enums.rs");
    assert_eq!(
        enum_variants(&shared, "Mode"),
        Some(vec!["Only".to_string()])
    );
    assert_eq!(enum_variants(&out.rust("src/generated/a.rs"), "Mode"), None);
}

// ---- Rust emitter: property tests ----

#[test]
fn property_tests_at_size_0_and_1() {
    let mut b = field("Src", "vec_operand");
    b.operand_classes = vec!["immediate".into()];
    b.allowed_types = vec!["UD".into()];
    let mut mode = field("Mode", "ub");
    mode.values = vec![value(0, "flat", None)];
    let out = generate(vec![
        inst("NONE", 1, vec![]),
        inst("ONE", 2, vec![field("Surface", "ub")]),
        inst("OPS", 3, vec![field("A", "vec_operand"), b, mode]),
    ]);
    let code = out.flat(ROUNDTRIP);
    // No field: one instruction, no strategy.
    assert!(code.contains(
        "fn none() -> Result<(), TestCaseError> { round_trip(crate::Instruction::None(crate::generated::none::None {}))?; Ok(()) }"
    ), "{code}");
    // One field: a tuple of one strategy.
    assert!(code.contains("let strategy = ((any::<u8>(),),);"), "{code}");
    // Classes and types at size 0 and 1, and an enum of one value.
    assert!(code.contains("support::vector_operand(&[], &[])"));
    assert!(code.contains("support::vector_operand(&[\"immediate\"], &[\"UD\"])"));
    assert!(code.contains("proptest::sample::select(crate::generated::ops::Mode::ALL.to_vec())"));
}

// ---- Docs emitter ----

#[test]
fn docs_at_size_0_and_1() {
    let mut none = inst("NONE", 1, vec![]);
    none.type_maps = vec![
        type_map(None, &[("Dst types", &["UD"]), ("Src types", &[])], 20),
        type_map(Some("XEHP+"), &[], 23),
    ];
    let mut flag = field("Flag", "ub");
    flag.bitfields = vec![BitField {
        hi: 0,
        lo: 0,
        summary: "enable".into(),
        values: vec![value(1, "on", Some("PVC"))],
        platform: None,
        span: span(5),
    }];
    let mut one = inst("ONE", 2, vec![flag]);
    one.properties = [("Saturation".to_string(), "Yes".to_string())].into();
    let out = generate(vec![none, one]);
    assert_eq!(out.spec.instructions.len(), 2);
    let page = &out.files["docs/NONE.md"];
    assert!(
        page.contains("### Layout\n\nNo fields: the opcode byte(s) alone.\n"),
        "{page}"
    );
    assert!(page.contains("## Fields\n\nNo fields.\n"), "{page}");
    assert!(!page.contains("## Properties"));
    // Both maps show, the empty list and the empty map as `none`.
    assert!(
        page.contains(
            "| 1 |  | Dst types | UD |\n| 1 |  | Src types | none |\n| 2 | XEHP+ | none | none |\n"
        ),
        "{page}"
    );
    let page = &out.files["docs/ONE.md"];
    assert!(
        page.contains("| 1 | [Flag](#field-flag) | `ub` | no | 1 | 1 |\n"),
        "{page}"
    );
    assert!(page.contains("Bits [0]: enable\n\n| Value | Meaning | Platform |\n| --- | --- | --- |\n| `0b1` | on | PVC |\n"), "{page}");
    assert!(
        page.contains("| Property | Value |\n| --- | --- |\n| Saturation | Yes |\n"),
        "{page}"
    );
    assert!(!page.contains("## Operand type maps"));
    let index = &out.files["docs/README.md"];
    assert!(
        index.contains("| [ONE](ONE.md#field-flag) | Flag | [0] | `0b1` | on | PVC |"),
        "{index}"
    );
}
