//! The product's errata that fit the seeds (`errata/`) on bytes Intel's reader accepted: each decodes, validates and
//! re-encodes with the corrected seeds, and the uncorrected docs reject it. The vectors come
//! from the errata's evidence (real-kernels/dg2/calls_caller.isa with one instruction replaced,
//! read back by `GenX_IR -dumpcommonisa`).

use codegen::parse::SourceFile;
use visa::{decode, Instruction, Platform};

fn accepted(bytes: &[u8]) -> Instruction {
    let (inst, used) = decode(bytes).unwrap_or_else(|e| panic!("{bytes:02x?} must decode: {e}"));
    assert_eq!(used, bytes.len());
    for p in Platform::ALL {
        inst.validate(*p)
            .unwrap_or_else(|e| panic!("valid on {p:?}: {e}"));
    }
    let mut out = Vec::new();
    inst.encode(&mut out);
    assert_eq!(out, bytes);
    inst
}

/// The values a field's first bit range (or the field itself) enumerates, with and without
/// the product's errata that fit the seeds.
fn values(doc: &str, field: &str) -> (Vec<u64>, Vec<u64>) {
    let root = visa_tests::root();
    let docs: Vec<SourceFile> = codegen::parse::load_spec(&root.join("spec"), None).unwrap();
    let errata = visa_tests::product_errata(&docs);
    let read = |errata: &[SourceFile]| {
        let parsed = codegen::parse_corrected(&docs, errata);
        assert!(
            parsed.diagnostics.iter().all(|d| !d.is_error()),
            "{:#?}",
            parsed.diagnostics
        );
        let inst = parsed
            .spec
            .instructions
            .into_iter()
            .find(|i| i.name == doc)
            .expect("the doc");
        let f = inst
            .fields
            .into_iter()
            .find(|f| f.name == field)
            .expect("the field");
        let vals = f
            .bitfields
            .first()
            .map_or(f.values.clone(), |b| b.values.clone());
        vals.iter().map(|v| v.value).collect::<Vec<_>>()
    };
    (read(&[]), read(&errata))
}

#[test]
fn scatter_surface_is_any_surface_index() {
    // `scatter.4 (M1, 8) T6 0x0:ud V0092.0 V0095.0` as Intel's reader prints these bytes.
    let bytes = [
        0x3a, 0x02, 0x00, 0x06, 0x05, 0x00, 0, 0, 0, 0, 0x5c, 0, 0, 0, 0, 0, 0x5f, 0, 0, 0, 0, 0,
    ];
    let Instruction::Scatter(s) = accepted(&bytes) else {
        panic!("SCATTER expected")
    };
    assert_eq!(s.surface, 6);
    // The doc as received lists only 0 (T0) and 5: the erratum drops the list.
    assert_eq!(values("SCATTER", "Surface"), (vec![0, 5], vec![]));
}

#[test]
fn qw_scatter_takes_2_and_4_blocks() {
    // `qw_scatter.2 (M1, 8) %slm V0092.0 V0095.0` and `.4`, as Intel's reader prints them.
    for (nb, meaning) in [(0x01u8, "2 blocks"), (0x02, "4 blocks")] {
        let bytes = [
            0x87, 0x03, 0x00, 0x00, nb, 0x00, 0x5c, 0, 0, 0, 0, 0, 0x5f, 0, 0, 0, 0, 0,
        ];
        let Instruction::QwScatter(q) = accepted(&bytes) else {
            panic!("QW_SCATTER expected")
        };
        assert_eq!(q.num_blocks.number_of_blocks.meaning(), meaning);
    }
    assert_eq!(values("QW_SCATTER", "Num_blocks"), (vec![0], vec![0, 1, 2]));
}
