//! The zeinfo reader on hand-written snippets: what it reads, and where it says a text is wrong.

use super::*;

/// The zeinfo of kernel `ids_2d` of `tests/interp/kernels/ndrange.cl` as Intel's ocloc 26.27
/// writes it for tgllp (trimmed to the keys read, plus some it skips).
const IDS_2D: &str = "---
version:         '1.73'
kernels:
  - name:            ids_2d
    user_attributes:
      intel_reqd_workgroup_walk_order: [ 0, 1, 2 ]
    execution_env:
      grf_count:       128
      simd_size:       32
    payload_arguments:
      - arg_type:        global_id_offset
        offset:          0
        size:            12
      - arg_type:        local_size
        offset:          12
        size:            12
      - arg_type:        arg_bypointer
        offset:          0
        size:            0
        arg_index:       0
        addrmode:        stateful
        addrspace:       global
        access_type:     readwrite
      - arg_type:        buffer_address
        offset:          48
        size:            8
        arg_index:       0
      - arg_type:        work_dimensions
        offset:          60
        size:            4
      - arg_type:        group_count
        offset:          64
        size:            12
    per_thread_payload_arguments:
      - arg_type:        local_id
        offset:          0
        size:            192
    binding_table_indices:
      - bti_value:       0
        arg_index:       0
kernels_misc_info:
  - name:            ids_2d
";

#[test]
fn reads_a_kernel_as_ocloc_writes_it() {
    let z = parse(IDS_2D).unwrap();
    assert_eq!(z.kernels.len(), 1);
    let k = z.kernel("ids_2d").unwrap();
    assert_eq!((k.simd, k.grf_count, k.inline_data), (32, Some(128), None));
    assert_eq!(k.at, Loc { line: 4, col: 5 });
    let kinds: Vec<(ArgType, u32, u32, Option<u32>)> = k
        .payload
        .iter()
        .map(|a| (a.kind, a.offset, a.size, a.arg_index))
        .collect();
    let stateful = ArgType::ByPointer {
        addrmode: AddrMode::Stateful,
        addrspace: AddrSpace::Global,
    };
    assert_eq!(
        kinds,
        [
            (ArgType::GlobalIdOffset, 0, 12, None),
            (ArgType::LocalSize, 12, 12, None),
            (stateful, 0, 0, Some(0)),
            (ArgType::BufferAddress, 48, 8, Some(0)),
            (ArgType::WorkDimensions, 60, 4, None),
            (ArgType::NumGroups, 64, 12, None),
        ]
    );
    assert_eq!(k.payload[3].at, Loc { line: 24, col: 9 });
    assert_eq!(
        k.per_thread,
        [PerThreadArg {
            packed: false,
            offset: 0,
            size: 192,
            at: Loc { line: 35, col: 9 }
        }]
    );
    assert_eq!(k.binding_table, [(0, 0)]);
}

#[test]
fn reads_slm_pointers_by_value_pieces_and_inline_data() {
    let z = parse(
        "kernels:\n- name: k\n  execution_env: {simd_size: 16, inline_data_payload_size: 32, slm_size: 64}\n  \
         payload_arguments:\n  - {arg_type: arg_bypointer, offset: 32, size: 4, arg_index: 1, addrmode: slm, addrspace: local}\n  \
         - {arg_type: arg_byvalue, offset: 40, size: 4, arg_index: 2, source_offset: 4}\n",
    )
    .unwrap();
    let k = &z.kernels[0];
    assert_eq!((k.simd, k.inline_data, k.slm_size), (16, Some(32), 64));
    assert_eq!(
        k.payload[0].kind,
        ArgType::ByPointer {
            addrmode: AddrMode::Slm,
            addrspace: AddrSpace::Local
        }
    );
    assert_eq!(
        (k.payload[1].kind, k.payload[1].source_offset),
        (ArgType::ByValue, 4)
    );
}

/// The sampler entries of kernel `sample_inline` of `tests/interp/kernels/sampler.cl` as ocloc
/// 26.27 writes them for acm-g10 (bindless), with a sampler parameter's values beside them.
const SAMPLERS: &str = "kernels:
  - name:            sample_inline
    execution_env:
      simd_size:       32
    payload_arguments:
      - arg_type:        sampler_snap_wa
        offset:          56
        size:            4
        arg_index:       1
      - arg_type:        sampler_address
        offset:          60
        size:            4
        arg_index:       1
      - arg_type:        arg_bypointer
        offset:          64
        size:            8
        arg_index:       1
        addrmode:        bindless
        addrspace:       sampler
        access_type:     readwrite
        sampler_index:   0
        sampler_type:    texture
      - arg_type:        inline_sampler
        offset:          72
        size:            8
        addrmode:        bindless
        addrspace:       sampler
        sampler_index:   1
      - arg_type:        image_channel_order
        offset:          80
        size:            4
        arg_index:       0
    inline_samplers:
      - sampler_index:   1
        addrmode:        mirror
        filtermode:      linear
        normalized:      true
      - sampler_index:   2
        addrmode:        clamp_border
        filtermode:      nearest
";

#[test]
fn reads_sampler_entries_and_inline_samplers() {
    let z = parse(SAMPLERS).unwrap();
    let k = &z.kernels[0];
    let kinds: Vec<(ArgType, Option<u32>, Option<u32>)> = k
        .payload
        .iter()
        .map(|p| (p.kind, p.arg_index, p.sampler_index))
        .collect();
    assert_eq!(
        kinds,
        [
            (ArgType::SamplerSnapWa, Some(1), None),
            (ArgType::SamplerAddress, Some(1), None),
            (
                ArgType::ByPointer {
                    addrmode: AddrMode::Bindless,
                    addrspace: AddrSpace::Sampler
                },
                Some(1),
                Some(0)
            ),
            (ArgType::InlineSampler, None, Some(1)),
            (ArgType::ImageChannelOrder, Some(0), None),
        ]
    );
    let states: Vec<(u32, SamplerState)> = k
        .inline_samplers
        .iter()
        .map(|s| (s.sampler_index, s.state))
        .collect();
    assert_eq!(
        states,
        [
            (
                1,
                SamplerState::parse("normalized,mirrored_repeat,linear").unwrap()
            ),
            // `normalized` absent: false.
            (
                2,
                SamplerState::parse("unnormalized,clamp,nearest").unwrap()
            ),
        ]
    );
    assert_eq!(k.inline_samplers[1].at, Loc { line: 38, col: 9 });
}

#[test]
fn malformed_inline_samplers_are_errors_with_their_place() {
    let head =
        "kernels:\n  - name: k\n    execution_env:\n      simd_size: 8\n    inline_samplers:\n";
    let bad = |entry: &str| error(&format!("{head}{entry}"));
    assert_eq!(
        bad("      - sampler_index: 0\n        addrmode: wrap\n        filtermode: linear\n"),
        "7:19: `addrmode`: expected none, clamp_border, clamp_edge, repeat or mirror, found `wrap`"
    );
    assert_eq!(
        bad("      - sampler_index: 0\n        addrmode: none\n"),
        "6:9: an inline sampler needs `sampler_index`, `addrmode` and `filtermode`"
    );
    assert_eq!(
        bad("      - {sampler_index: 0, addrmode: none, filtermode: linear, normalized: 2}\n"),
        "6:76: `normalized`: expected true or false, found the integer 2"
    );
    let payload = "kernels:\n  - name: k\n    execution_env:\n      simd_size: 8\n    payload_arguments:\n      - {arg_type: inline_sampler, offset: 0, size: 8}\n";
    assert_eq!(
        error(payload),
        "6:9: `arg_type: inline_sampler` without `sampler_index`: expected the inline sampler it holds"
    );
}

/// The error of `text`, as `line:col: message`.
fn error(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn malformed_texts_are_errors_with_their_place() {
    let head =
        "kernels:\n  - name: k\n    execution_env:\n      simd_size: 8\n    payload_arguments:\n";
    let bad = |entry: &str| error(&format!("{head}{entry}"));
    assert_eq!(
        bad("      - arg_type: global_size_of_mars\n        offset: 0\n        size: 12\n"),
        format!(
            "6:19: unknown `arg_type: global_size_of_mars`: expected arg_bypointer or one of {}",
            ARG_TYPES
                .iter()
                .map(|(t, _)| *t)
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
    assert_eq!(
        bad("      - arg_type: global_size\n        offset: -4\n        size: 12\n"),
        "7:17: `offset`: expected an integer from 0 to 4294967295, found the integer -4"
    );
    assert_eq!(
        bad("      - arg_type: global_size\n        offset: 0\n        size: 7\n"),
        "6:9: `arg_type: global_size` of size 7: expected size 4 or 8 or 12"
    );
    assert_eq!(
        bad("      - arg_type: buffer_address\n        offset: 32\n        size: 8\n"),
        "6:9: `arg_type: buffer_address` without `arg_index`: expected the parameter it belongs to"
    );
    assert_eq!(
        bad(
            "      - arg_type: arg_bypointer\n        arg_index: 0\n        addrmode: telepathic\n"
        ),
        "8:19: `addrmode`: expected stateless, stateful, bindless or slm, found `telepathic`"
    );
    assert_eq!(
        bad("      - offset: 0\n"),
        "6:9: a payload argument without `arg_type`"
    );
    assert_eq!(
        bad("      - 17\n"),
        "6:9: a payload argument: expected a mapping, found the integer 17"
    );
}

#[test]
fn documents_and_kernels_that_are_not_zeinfo() {
    assert_eq!(error(""), "1:1: empty: expected a mapping with `kernels`");
    assert_eq!(
        error("- 1\n"),
        "1:1: the zeinfo document: expected a mapping, found a sequence"
    );
    assert_eq!(
        error("version: 1\n"),
        "1:1: expected a key `kernels` (the list of kernels)"
    );
    assert_eq!(
        error("kernels: 3\n"),
        "1:10: `kernels`: expected a sequence, found the integer 3"
    );
    assert_eq!(
        error("kernels:\n  - execution_env: {simd_size: 8}\n"),
        "2:5: a kernel without `name`: expected `name: KERNEL`"
    );
    assert_eq!(
        error("kernels:\n  - name: k\n    execution_env: {simd_size: 12}\n"),
        "3:32: `simd_size`: expected 1, 8, 16 or 32, found 12"
    );
    assert_eq!(
        error("kernels:\n  - name: k\n"),
        "2:5: kernel `k` has no `execution_env`: expected one with `simd_size`"
    );
    assert_eq!(
        error("kernels:\n  - name: k\n    execution_env: {simd_size: 8}\n    per_thread_payload_arguments:\n      - {arg_type: local_ids, offset: 0, size: 96}\n"),
        "5:20: unknown per-thread `arg_type: local_ids`: expected local_id or packed_local_ids"
    );
    // Not YAML at all: the scanner's own words, at its place.
    let e = parse("kernels: [\n").unwrap_err();
    assert_eq!(e.at.line, 2, "{e}");
    assert!(e.message.starts_with("not YAML: "), "{e}");
}

#[test]
fn any_bytes_are_an_answer_never_a_panic() {
    // Every prefix of a real zeinfo, and the same with a byte changed at each place.
    for end in 0..IDS_2D.len() {
        let _ = parse(&IDS_2D[..end]);
    }
    let bytes = IDS_2D.as_bytes();
    for at in 0..bytes.len() {
        for b in [b'-', b':', b'{', b'[', b'\'', b'9', b' ', b'\n'] {
            let mut v = bytes.to_vec();
            v[at] = b;
            if let Ok(s) = core::str::from_utf8(&v) {
                let _ = parse(s);
            }
        }
    }
}

/// Image and sampler queries of `sample_uint_clamp` (`tests/interp/kernels/sampler.cl`) as
/// ocloc 26.27 writes them for tgllp, trimmed, plus the channel queries of `image_queries`.
const SAMPLER_QUERIES: &str = "---
version:         '1.73'
kernels:
  - name:            sample_uint_clamp
    execution_env:
      simd_size:       32
    payload_arguments:
      - arg_type:        image_height
        offset:          72
        size:            4
        arg_index:       0
      - arg_type:        sampler_address
        offset:          80
        size:            4
        arg_index:       1
      - arg_type:        sampler_normalized
        offset:          84
        size:            4
        arg_index:       1
      - arg_type:        sampler_snap_wa
        offset:          88
        size:            4
        arg_index:       1
      - arg_type:        image_channel_data_type
        offset:          92
        size:            4
        arg_index:       0
      - arg_type:        image_channel_order
        offset:          96
        size:            4
        arg_index:       0
      - arg_type:        arg_bypointer
        offset:          0
        size:            0
        arg_index:       1
        addrmode:        stateful
        addrspace:       sampler
        access_type:     readwrite
        sampler_index:   0
";

#[test]
fn reads_image_and_sampler_queries() {
    let z = parse(SAMPLER_QUERIES).unwrap();
    let k = z.kernel("sample_uint_clamp").unwrap();
    let kinds: Vec<(ArgType, u32, Option<u32>)> = k
        .payload
        .iter()
        .map(|a| (a.kind, a.offset, a.arg_index))
        .collect();
    let sampler = ArgType::ByPointer {
        addrmode: AddrMode::Stateful,
        addrspace: AddrSpace::Sampler,
    };
    assert_eq!(
        kinds,
        [
            (ArgType::ImageHeight, 72, Some(0)),
            (ArgType::SamplerAddress, 80, Some(1)),
            (ArgType::SamplerNormalized, 84, Some(1)),
            (ArgType::SamplerSnapWa, 88, Some(1)),
            (ArgType::ImageChannelDataType, 92, Some(0)),
            (ArgType::ImageChannelOrder, 96, Some(0)),
            (sampler, 0, Some(1)),
        ]
    );
    // A sampler query belongs to a parameter: without `arg_index` it is an error at its line.
    let e = error(&SAMPLER_QUERIES.replacen("        arg_index:       1\n", "", 1));
    assert!(
        e.starts_with("12:9:") && e.contains("sampler_address"),
        "{e}"
    );
}
