//! The schema of the five spec docs, as `cargo xtask schema` prints it (instructions part),
//! reviewed by hand against the docs: every field, every enumerated value, `Src` of OWORD_ST
//! present, `Offset` of OWORD_ST a field of its own.

#[test]
fn schema_of_spec() {
    let files = codegen::parse::load_dir(&visa_tests::root().join("spec")).unwrap();
    let parsed = codegen::parse::parse_spec(&files);
    insta::assert_json_snapshot!("spec_schema", parsed.spec.instructions);
}

#[test]
fn hand_checked_facts_of_the_spec_schema() {
    let files = codegen::parse::load_dir(&visa_tests::root().join("spec")).unwrap();
    let spec = codegen::parse::parse_spec(&files).spec;
    let names: Vec<_> = spec
        .instructions
        .iter()
        .map(|i| (i.name.as_str(), i.opcode.value))
        .collect();
    // Ordered by opcode: OWORD_ST 0x36, SCATTER 0x3a, SCATTER4_SCALED 0x75, GATHER_SCALED 0x78, QW_SCATTER 0x87.
    assert_eq!(
        names,
        vec![
            ("OWORD_ST", 0x36),
            ("SCATTER", 0x3a),
            ("SCATTER4_SCALED", 0x75),
            ("GATHER_SCALED", 0x78),
            ("QW_SCATTER", 0x87)
        ]
    );
    let oword = &spec.instructions[0];
    let fields: Vec<_> = oword
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.ty.as_str()))
        .collect();
    assert_eq!(
        fields,
        vec![
            ("Size", "ub"),
            ("Surface", "ub"),
            ("Offset", "scalar"),
            ("Src", "raw_operand")
        ]
    );
    assert_eq!(oword.fields[2].allowed_types, vec!["UD"]);
    let size = &oword.fields[0].bitfields[0];
    assert_eq!((size.hi, size.lo), (2, 0));
    let values: Vec<_> = size
        .values
        .iter()
        .map(|v| (v.value, v.meaning.as_str()))
        .collect();
    assert_eq!(
        values,
        vec![
            (0, "1 oword"),
            (1, "2 owords"),
            (2, "4 owords"),
            (3, "8 owords")
        ]
    );
    let scatter = &spec.instructions[1];
    let surface = scatter.fields.iter().find(|f| f.name == "Surface").unwrap();
    let values: Vec<_> = surface
        .values
        .iter()
        .map(|v| (v.value, v.meaning.as_str()))
        .collect();
    assert_eq!(
        values,
        vec![
            (0, "T0 - Shared Local Memory (SLM) access"),
            (5, "T255 - Stateless surface access")
        ]
    );
    assert_eq!(
        scatter.fields.last().unwrap().allowed_types,
        vec!["UD", "D", "F"]
    );
    let qw = &spec.instructions[4];
    let exec = &qw.fields[0];
    assert_eq!(exec.bitfields.len(), 2);
    assert_eq!(exec.bitfields[0].values.len(), 5);
    assert_eq!(exec.bitfields[1].values.len(), 16);
    assert_eq!(exec.bitfields[1].values[15].meaning, "M8_NM");
    assert_eq!(
        qw.text,
        "[(<P>)] QW_SCATTER.<Num_blocks> (<Exec_size>) <Surface> <Offset> <Src>"
    );
    assert_eq!(
        qw.notes,
        "The behavior is undefined if more than one channel writes to the same address."
    );
    assert_eq!(
        qw.properties.get("Out-of-bound Access").map(String::as_str),
        Some("On write: data is dropped.")
    );
}
