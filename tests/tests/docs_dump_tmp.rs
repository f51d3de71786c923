#[test]
#[ignore]
fn dump() {
    for (i, c) in visa_tests::CORPORA.iter().enumerate() {
        let dir = visa_tests::shared(c).unwrap();
        let files = codegen::parse::load_dir(&dir).unwrap();
        let p = codegen::parse::parse_spec(&files);
        let out = codegen::emit::docs::render(&p.spec, &Default::default());
        let base = std::path::PathBuf::from(format!("/tmp/docsdump/{i}"));
        std::fs::create_dir_all(base.join("docs")).unwrap();
        for (k, v) in out {
            std::fs::write(base.join(k), v).unwrap();
        }
        std::fs::write(
            base.join("schema.json"),
            serde_json::to_string_pretty(&p.spec).unwrap(),
        )
        .unwrap();
    }
}
