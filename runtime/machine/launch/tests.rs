//! Layouts of kernels Intel's compiler wrote, rebuilt here from their `.input` lines and
//! attributes (the values of `PAYLOAD.md`'s evidence tables), and the command line.

use super::*;
use crate::object::{AttributeInfo, InputInfo, Kernel, KernelData, KernelInfo};
use crate::runtime::INTEL_PLATFORMS;

fn platform(name: &str) -> &'static IntelPlatform {
    INTEL_PLATFORMS.iter().find(|p| p.name == name).unwrap()
}

/// A file with one kernel `k` of these attributes and `.input` (offset, size) lines.
fn file(simd: u8, per_thread: Option<u16>, inputs: &[(i16, u16)]) -> File {
    let mut f = File::default();
    f.header.kernel_info.push(KernelInfo {
        name: b"k".to_vec(),
        ..Default::default()
    });
    let mut data = KernelData {
        string_pool: vec![
            b"k".to_vec(),
            b"SimdSize".to_vec(),
            b"PerThreadInputSize".to_vec(),
        ],
        ..Default::default()
    };
    data.attribute_info.push(AttributeInfo {
        name: 1,
        value: vec![simd],
    });
    if let Some(p) = per_thread {
        data.attribute_info.push(AttributeInfo {
            name: 2,
            value: p.to_le_bytes().to_vec(),
        });
    }
    data.input_info = inputs
        .iter()
        .enumerate()
        .map(|(i, &(offset, size))| InputInfo {
            kind: 0,
            id: 40 + i as u32,
            offset,
            size,
        })
        .collect();
    f.kernels.push(Kernel {
        data,
        gen_binaries: vec![],
    });
    f
}

const LOCAL_IDS_SIMD32: &[(i16, u16)] = &[
    (32, 32),
    (64, 32),
    (96, 32),
    (128, 32),
    (160, 32),
    (192, 32),
];

fn with_ids(rest: &[(i16, u16)]) -> Vec<(i16, u16)> {
    LOCAL_IDS_SIMD32.iter().chain(rest).copied().collect()
}

fn i32s(v: i32) -> Arg {
    Arg::Scalar(Scalar {
        ty: ScalarType::I32,
        bits: v as u32 as u64,
    })
}

#[test]
fn order_kernel_pointers_before_scalars() {
    // `order(int n, global int *a, char c, global float *f, long l, float x, short s, ulong d)`
    // on acm-g10 rev 0: zeinfo puts a at 32, f at 40, then n 48, c 52, l 56, x 64, s 68,
    // d 72 and the enqueued local size at 80 (cross-thread offsets; + 224 in the GRF).
    let f = file(
        32,
        Some(192),
        &with_ids(&[
            (224, 32),
            (256, 8),
            (264, 8),
            (272, 4),
            (276, 1),
            (280, 8),
            (288, 4),
            (292, 2),
            (296, 8),
            (304, 12),
        ]),
    );
    let sc = |ty, bits| Arg::Scalar(Scalar { ty, bits });
    let args = vec![
        i32s(1),
        Arg::Buffer(vec![0; 4]),
        sc(ScalarType::I8, 2),
        Arg::Buffer(vec![0; 4]),
        sc(ScalarType::I64, 3),
        sc(ScalarType::F32, 0),
        sc(ScalarType::I16, 4),
        sc(ScalarType::U64, 5),
    ];
    let l = layout(&f, 0, platform("DG2"), &args).unwrap();
    assert_eq!(l.cross, 224);
    assert_eq!(l.args, [48, 32, 52, 40, 56, 64, 68, 72]);
    assert_eq!(l.implicits, [(Implicit::EnqueuedLocalSize, 80)]);
    // One 12-byte value could be the global size or the number of groups as well (the same
    // inputs in a kernel that calls get_global_size only): noted.
    assert!(
        l.notes.iter().any(|n| n.contains("GlobalSize")),
        "{:?}",
        l.notes
    );
    assert_eq!(l.input_bytes, 320);
}

#[test]
fn locals_kernel_slm_offsets_first_then_local_and_enqueued_sizes() {
    // `locals(global int *a, local int *t, local int *w, int k)`, acm-g10 rev 0: t at 32, w at
    // 40 (4-byte inputs), a at 48, k at 56, local_size at 64, enqueued_local_size at 76.
    let f = file(
        32,
        Some(192),
        &with_ids(&[
            (224, 32),
            (256, 4),
            (264, 4),
            (272, 8),
            (280, 4),
            (288, 12),
            (300, 12),
        ]),
    );
    let args = vec![
        Arg::Buffer(vec![0; 4]),
        Arg::LocalMem(64),
        Arg::LocalMem(64),
        i32s(7),
    ];
    // Intel's answer is the local size at 64 and the enqueued local size at 76, but the same
    // two 12-byte inputs fit the global size or the number of groups before the enqueued local
    // size (a kernel that calls get_global_size has them): refused, the candidates named.
    assert_eq!(
        layout(&f, 0, platform("DG2"), &args).unwrap_err().0,
        "the input at GRF byte 288 may hold any of LocalSize or EnqueuedLocalSize, GlobalSize, \
         NumGroups (the inputs fit several sets of implicit arguments and the .isa cannot tell \
         which the kernel reads): give --zeinfo P.zeinfo or --program K.bin \
         (runtime/machine/PAYLOAD.md, \"Limits\")"
    );
}

#[test]
fn all_implicits_in_igc_order() {
    // `all(global int *a, int k, global int *b)` with private memory, get_work_dim,
    // get_num_groups, get_global_size and get_local_size: zeinfo offsets private base 56,
    // buffer_offset(a) 64, work_dimensions 68, group_count 72, global_size 84, local_size 96,
    // enqueued_local_size 108.
    let f = file(
        32,
        Some(192),
        &with_ids(&[
            (224, 32),
            (256, 8),
            (264, 8),
            (272, 4),
            (280, 8),
            (288, 4),
            (292, 4),
            (296, 12),
            (308, 12),
            (320, 12),
            (332, 12),
        ]),
    );
    let args = vec![Arg::Buffer(vec![0; 4]), i32s(1), Arg::Buffer(vec![0; 4])];
    let l = layout(&f, 0, platform("DG2"), &args).unwrap();
    assert_eq!(l.args, [32, 48, 40]);
    // The 4-byte value at 68 is taken for b's buffer offset (the preference); Intel's answer,
    // the work dimensions, is among the alternatives noted.
    assert_eq!(l.implicits[2], (Implicit::BufferOffset(2), 68));
    assert!(
        l.notes
            .iter()
            .any(|n| n.contains("BufferOffset(0)@64 WorkDim@68")),
        "{:?}",
        l.notes
    );
    let mut intel = l.implicits.clone();
    intel[2] = (Implicit::WorkDim, 68);
    assert_eq!(
        intel,
        [
            (Implicit::PrivateBase, 56),
            (Implicit::BufferOffset(0), 64),
            (Implicit::WorkDim, 68),
            (Implicit::NumGroups, 72),
            (Implicit::GlobalSize, 84),
            (Implicit::LocalSize, 96),
            (Implicit::EnqueuedLocalSize, 108),
        ]
    );
}

#[test]
fn implicits_kernel_moves_a_value_that_would_straddle_a_register() {
    // `implicits(global uint *o)`: buffer_offset 40, work_dimensions 44, group_count 48,
    // global_size 64 (60 + 12 would cross 64), local_size 76, enqueued_local_size 96.
    let f = file(
        32,
        Some(192),
        &with_ids(&[
            (224, 32),
            (256, 8),
            (264, 4),
            (268, 4),
            (272, 12),
            (288, 12),
            (300, 12),
            (320, 12),
        ]),
    );
    let l = layout(&f, 0, platform("TGLLP"), &[Arg::Buffer(vec![0; 4])]);
    // On tgllp the cross-thread data also starts after 192 bytes of local ids.
    let l = l.unwrap();
    assert_eq!(l.cross, 224);
    assert_eq!(
        l.implicits.iter().map(|i| i.1).collect::<Vec<_>>(),
        [40, 44, 48, 64, 76, 96]
    );
}

#[test]
fn without_local_ids_tgllp_keeps_r1_and_dg2_does_not() {
    // `big(global int *a, ulong n)`: no PerThreadInputSize; the header at GRF byte 64 on
    // tgllp, 32 on acm-g10 rev 0; a at +32, n at +40, buffer_offset(a) at +48.
    let args = vec![
        Arg::Buffer(vec![0; 4]),
        Arg::Scalar(Scalar {
            ty: ScalarType::U64,
            bits: 1,
        }),
    ];
    let tgl = file(32, None, &[(64, 32), (96, 8), (104, 8), (112, 4)]);
    let l = layout(&tgl, 0, platform("TGLLP"), &args).unwrap();
    assert_eq!((l.cross, l.args.clone()), (64, vec![32, 40]));
    assert_eq!(l.implicits, [(Implicit::BufferOffset(0), 48)]);
    let dg2 = file(32, None, &[(32, 32), (64, 8), (72, 8), (80, 4)]);
    let l = layout(&dg2, 0, platform("DG2"), &args).unwrap();
    assert_eq!(l.cross, 32);
    assert_eq!(l.implicits, [(Implicit::BufferOffset(0), 48)]);
}

#[test]
fn simd8_local_ids_take_a_register_each() {
    // `simd8(global int *a)` on tgllp: PerThreadInputSize 96, a at GRF byte 160, enqueued
    // local size at 168.
    let f = file(
        8,
        Some(96),
        &[(32, 32), (64, 32), (96, 32), (128, 32), (160, 8), (168, 12)],
    );
    let l = layout(&f, 0, platform("TGLLP"), &[Arg::Buffer(vec![0; 4])]).unwrap();
    assert_eq!((l.simd, l.cross), (8, 128));
    let nd = NdRange::new(&[24, 2], &[12, 2]).unwrap();
    let values = Values::plain(vec![0x1234], 0);
    let t = payloads(&l, &nd, [1, 0, 0], &values);
    // 24 work-items per group, 8 per thread: 3 threads of 8 lanes.
    assert_eq!(t.len(), 3);
    assert!(t.iter().all(|t| t.lanes == 8));
    let word = |t: &ThreadPayload, at: usize| u16::from_le_bytes([t.input[at], t.input[at + 1]]);
    // Thread 1, lane 5 is work-item 13 of the group: x = 13 % 12 = 1, y = 1.
    assert_eq!(word(&t[1], 32 + 10), 1);
    assert_eq!(word(&t[1], 64 + 10), 1);
    // r0.1 is the group id x, r0.5 the scratch offset; the header's local size; the buffer
    // address at 160.
    assert_eq!(t[0].input[4], 1);
    assert_eq!(&t[2].input[20..24], &(2 * SCRATCH_PER_THREAD).to_le_bytes());
    assert_eq!(&t[0].input[128 + 12..128 + 20], &[12, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(&t[2].input[160..168], &0x1234u64.to_le_bytes());
    assert_eq!(&t[2].input[168..172], &[12, 0, 0, 0]);
}

#[test]
fn a_partial_last_thread_has_fewer_lanes() {
    let f = file(
        16,
        Some(96),
        &[(32, 32), (64, 32), (96, 32), (128, 32), (160, 8), (168, 12)],
    );
    let l = layout(&f, 0, platform("TGLLP"), &[Arg::Buffer(vec![0; 4])]).unwrap();
    let nd = NdRange::new(&[20], &[20]).unwrap();
    let values = Values::plain(vec![0], 0);
    let t = payloads(&l, &nd, [0, 0, 0], &values);
    assert_eq!(t.iter().map(|t| t.lanes).collect::<Vec<_>>(), [16, 4]);
}

#[test]
fn wrong_argument_kinds_are_named() {
    // `locals` given a scalar where the kernel has a local pointer: the 4-byte input at +32
    // is no slot of a buffer.
    let f = file(
        32,
        Some(192),
        &with_ids(&[
            (224, 32),
            (256, 4),
            (264, 4),
            (272, 8),
            (280, 4),
            (288, 12),
            (300, 12),
        ]),
    );
    let args = vec![Arg::Buffer(vec![0; 4]), i32s(1), i32s(2), i32s(7)];
    let e = layout(&f, 0, platform("DG2"), &args).unwrap_err();
    assert!(e.0.contains("parameter 0 (--buffer)"), "{e}");
    // No ARGs: inputs left that no implicit explains.
    let e = layout(&f, 0, platform("DG2"), &[]).unwrap_err();
    assert!(e.0.contains("implicit"), "{e}");
    // SimdSize 1 (the doc allows 8, 16, 32) and a scratch request past 16 MiB.
    let mut g = f.clone();
    g.kernels[0].data.attribute_info[0].value = vec![1];
    assert!(layout(&g, 0, platform("DG2"), &[])
        .unwrap_err()
        .0
        .contains("SimdSize"));
    let mut g = f.clone();
    g.kernels[0]
        .data
        .string_pool
        .push(b"SpillMemOffset".to_vec());
    g.kernels[0].data.attribute_info.push(AttributeInfo {
        name: 3,
        value: u32::MAX.to_le_bytes().to_vec(),
    });
    let args4 = vec![
        Arg::Buffer(vec![0; 4]),
        Arg::LocalMem(4),
        Arg::LocalMem(4),
        i32s(1),
    ];
    assert!(layout(&g, 0, platform("DG2"), &args4)
        .unwrap_err()
        .0
        .contains("SpillMemOffset"));
    // No SimdSize.
    let mut g = f.clone();
    g.kernels[0].data.attribute_info.remove(0);
    let e = layout(&g, 0, platform("DG2"), &[]).unwrap_err();
    assert!(e.0.contains("SimdSize"), "{e}");
}

#[test]
fn scalars_parse_as_pocl_run_does() {
    let p = |s| Scalar::parse(s);
    assert_eq!(p("i32:5").unwrap().bits, 5);
    assert_eq!(p("i32:-1").unwrap().bits, 0xffff_ffff);
    assert_eq!(p("i8:-128").unwrap().bits, 0x80);
    assert_eq!(p("u64:0xffffffffffffffff").unwrap().bits, u64::MAX);
    assert_eq!(p("f32:1.5").unwrap().bits, 0x3fc0_0000);
    assert_eq!(p("f64:-2").unwrap().bits, 0xc000_0000_0000_0000);
    for bad in [
        "i32", "i33:1", "u8:256", "i8:128", "u32:-1", "f32:x", "i32:", ":5", "u16:0x",
    ] {
        assert!(p(bad).is_err(), "{bad}");
    }
    assert!(p("u8:256").unwrap_err().contains("out of range"));
}

#[test]
fn run_command_lines() {
    let spec = parse_run(&[
        "--kernel",
        "k",
        "--global",
        "64,2",
        "--local",
        "16,1",
        "--buffer",
        "a.bin:b.bin",
        "--scalar",
        "i32:5",
        "--local-mem",
        "256",
        "--platform",
        "tgllp",
    ])
    .unwrap();
    assert_eq!(spec.kernel, "k");
    assert_eq!(spec.global, [64, 2]);
    assert_eq!(spec.local, Some(vec![16, 1]));
    assert_eq!(spec.platform.as_deref(), Some("tgllp"));
    assert_eq!(
        spec.args,
        [
            ArgSpec::Buffer {
                input: "a.bin".into(),
                output: "b.bin".into()
            },
            ArgSpec::Scalar(Scalar {
                ty: ScalarType::I32,
                bits: 5
            }),
            ArgSpec::LocalMem(256),
        ]
    );
    // Each bad command line names its argument.
    let bad: &[(&[&str], &str)] = &[
        (&["--global", "4"], "--kernel"),
        (&["--kernel", "k"], "--global"),
        (&["--kernel", "k", "--global", "0"], "--global 0"),
        (&["--kernel", "k", "--global", "1,2,3,4"], "1 to 3"),
        (&["--kernel", "k", "--global", "x"], "`x`"),
        (
            &["--kernel", "k", "--global", "8", "--local", "3"],
            "multiple",
        ),
        (
            &["--kernel", "k", "--global", "8", "--local", "4,1"],
            "dimension",
        ),
        (
            &["--kernel", "k", "--global", "8", "--buffer", "a.bin"],
            "IN.bin:OUT.bin",
        ),
        (
            &["--kernel", "k", "--global", "8", "--buffer", ":b"],
            "IN.bin:OUT.bin",
        ),
        (
            &["--kernel", "k", "--global", "8", "--scalar", "q:1"],
            "unknown type",
        ),
        (
            &["--kernel", "k", "--global", "8", "--local-mem", "0"],
            "positive",
        ),
        (
            &["--kernel", "k", "--global", "8", "--local-mem"],
            "needs a value",
        ),
        (
            &["--kernel", "k", "--global", "8", "extra"],
            "unexpected `extra`",
        ),
    ];
    for (words, want) in bad {
        let e = parse_run(words).unwrap_err();
        assert!(e.contains(want), "{words:?}: {e}");
    }
}

#[test]
fn ndranges() {
    assert_eq!(NdRange::default_local(&[100, 3]), [50, 1]);
    assert_eq!(NdRange::default_local(&[67]), [1]);
    let nd = NdRange::new(&[64, 4], &[16, 2]).unwrap();
    assert_eq!(nd.groups(), [4, 2, 1]);
    assert_eq!(nd.group_items(), 32);
    assert!(NdRange::new(&[2048], &[2048]).unwrap_err().contains("1024"));
}

/// A machine that records the payloads it is given and adds 1 to byte 0 of buffer 0 per
/// thread.
struct Recorder(core::cell::RefCell<Vec<[u32; 3]>>);

impl GroupRunner for Recorder {
    fn run_group(
        &self,
        threads: &[ThreadPayload],
        mem: &mut Memory,
        _: &mut crate::machine::Workspace,
    ) -> Result<(), String> {
        for t in threads {
            self.0.borrow_mut().push(t.group_id);
            let v = mem
                .read(super::super::memory::Space::Surface(0), 0, 1)
                .map_err(|e| e.to_string())?;
            mem.write(super::super::memory::Space::Surface(0), 0, 1, v + 1)
                .map_err(|e| e.to_string())?;
        }
        if mem.slm().len() != (STATIC_SLM + 80) as usize {
            return Err(format!("SLM of {} bytes", mem.slm().len()));
        }
        Ok(())
    }
}

#[test]
fn launch_runs_every_group_in_order_with_its_memory() {
    let f = file(
        32,
        Some(192),
        &with_ids(&[(224, 32), (256, 4), (264, 4), (272, 8), (280, 4), (288, 12)]),
    );
    let args = vec![
        Arg::Buffer(vec![10, 0, 0, 0]),
        Arg::LocalMem(60),
        Arg::LocalMem(4),
        i32s(7),
    ];
    let nd = NdRange::new(&[64, 2], &[32, 1]).unwrap();
    let r = Recorder(Default::default());
    let out = launch(&r, &f, 0, platform("DG2"), &nd, args).unwrap();
    assert_eq!(*r.0.borrow(), [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]);
    let (param, id) = out.buffers[0];
    assert_eq!(param, 0);
    assert_eq!(out.memory.buffer(id).bytes, [14, 0, 0, 0]);
}

#[test]
fn constant_pointers_follow_the_global_ones_in_payload_and_binding_table() {
    // `constant_arg(__constant int *c, __global const uint *a, __global int *out)` on tgllp:
    // zeinfo puts a at 32, out at 40, c at 48, and binds a, out, c at 0, 1, 2.
    let f = file(
        32,
        Some(192),
        &with_ids(&[(224, 32), (256, 8), (264, 8), (272, 8), (288, 12)]),
    );
    let args = vec![
        Arg::Constant(vec![7; 4]),
        Arg::Buffer(vec![1; 4]),
        Arg::Buffer(vec![2; 4]),
    ];
    let l = layout(&f, 0, platform("TGLLP"), &args).unwrap();
    assert_eq!(l.args, [48, 32, 40]);
    struct Check;
    impl GroupRunner for Check {
        fn run_group(
            &self,
            _t: &[ThreadPayload],
            mem: &mut Memory,
            _: &mut crate::machine::Workspace,
        ) -> Result<(), String> {
            let mut s = |b| {
                mem.read(super::super::memory::Space::Surface(b), 0, 1)
                    .unwrap()
            };
            let got = [s(0), s(1), s(2)];
            (got == [1, 2, 7]).then_some(()).ok_or(format!("{got:?}"))
        }
    }
    let nd = NdRange::new(&[32], &[32]).unwrap();
    launch(&Check, &f, 0, platform("TGLLP"), &nd, args).unwrap();
    assert_eq!(
        parse_run(&[
            "--kernel",
            "k",
            "--global",
            "4",
            "--constant",
            "c.bin:c.out"
        ])
        .unwrap()
        .args,
        [ArgSpec::Constant {
            input: "c.bin".into(),
            output: "c.out".into()
        }]
    );
}

#[test]
fn read_only_images_come_first_in_the_binding_table() {
    // zeinfo of `mixed(global float *out, read_only image2d_t src, int k, write_only
    // image2d_t dst)`: src -> 0, out -> 1, dst -> 2 (PAYLOAD.md, "Images").
    let f = ImageFormat::parse("rgba-f32").unwrap();
    let image = |written| Arg::Image {
        image: Image::packed(1, 1, 1, f),
        bytes: vec![0; 16],
        written,
    };
    let scalar = Arg::Scalar(Scalar::parse("i32:1").unwrap());
    let args = [Arg::Buffer(vec![]), image(false), scalar, image(true)];
    assert_eq!(binding_table(&args), [1, 0, 0, 2]);
    // Without images: globals, then constants (`order`, and the `constant` kernels).
    let args = [Arg::Constant(vec![]), Arg::Buffer(vec![]), Arg::LocalMem(4)];
    assert_eq!(binding_table(&args), [1, 0, 0]);
}

#[test]
fn image_arguments_parse_and_bad_ones_say_why() {
    let spec = parse_run(&[
        "--kernel",
        "k",
        "--global",
        "8",
        "--image",
        "8,4:rgba-f32:in.bin",
        "--image",
        "8:r-u32:a.bin:b.bin",
    ])
    .unwrap();
    assert_eq!(
        spec.args,
        [
            ArgSpec::Image {
                size: [8, 4, 1],
                dims: 2,
                format: ImageFormat::parse("rgba-f32").unwrap(),
                input: "in.bin".into(),
                output: None,
            },
            ArgSpec::Image {
                size: [8, 1, 1],
                dims: 1,
                format: ImageFormat::parse("r-u32").unwrap(),
                input: "a.bin".into(),
                output: Some("b.bin".into()),
            },
        ]
    );
    for (bad, why) in [
        ("8,4:rgba-f32", "wrong number of parts"),
        ("8,0:rgba-f32:i.bin", "not a positive integer"),
        ("8:bgra-f16:i.bin", "unknown image format"),
        ("8:r-f32::o.bin", "wrong number of parts"),
    ] {
        let e = parse_run(&["--kernel", "k", "--global", "8", "--image", bad]).unwrap_err();
        assert!(e.contains(bad) && e.contains(why), "{bad}: {e}");
    }
}

/// The inputs of kernels `arg_s` (a float read through a sampler: the snap workaround) and
/// `arg_ui` (an integer read: the image's height and width, the sampler's address mode and
/// normalized flag) on tgllp, `(read_only image2d_t img, sampler_t s, global out, global c)`.
#[test]
fn sampler_arguments_take_their_implicit_values() {
    use crate::machine::sampler::SamplerState;
    let img = Image::packed(5, 3, 1, ImageFormat::parse("rgba-f32").unwrap());
    let state = SamplerState::parse("normalized,clamp,nearest").unwrap();
    let args = || {
        vec![
            Arg::Image {
                image: img,
                bytes: vec![0; img.bytes() as usize],
                written: false,
            },
            Arg::Sampler(state),
            Arg::Buffer(vec![0; 4]),
            Arg::Buffer(vec![0; 4]),
        ]
    };
    let common = [
        (32, 32),
        (64, 32),
        (96, 32),
        (128, 32),
        (160, 32),
        (192, 32),
        (224, 32),
    ];
    let mut inputs: Vec<(i16, u16)> = common.to_vec();
    inputs.extend([(256, 8), (264, 8), (272, 4), (276, 4), (288, 12), (300, 4)]);
    let f = file(32, Some(192), &inputs);
    let l = layout(&f, 0, platform("TGLLP"), &args()).unwrap();
    assert_eq!(l.implicits.last(), Some(&(Implicit::SamplerSnapWa(1), 76)));
    let mut inputs: Vec<(i16, u16)> = common.to_vec();
    inputs.extend([(256, 8), (264, 8), (272, 4), (276, 4), (288, 12)]);
    inputs.extend([(300, 4), (304, 4), (308, 4), (312, 4)]);
    let f = file(32, Some(192), &inputs);
    let l = layout(&f, 0, platform("TGLLP"), &args()).unwrap();
    let tail: Vec<Implicit> = l
        .implicits
        .iter()
        .rev()
        .take(4)
        .rev()
        .map(|x| x.0)
        .collect();
    assert_eq!(
        tail,
        [
            Implicit::ImageHeight(0),
            Implicit::ImageWidth(0),
            Implicit::SamplerAddress(1),
            Implicit::SamplerNormalized(1)
        ]
    );
    // Their values: 3, 5, clamp (IGC's LEGACY_CLK_ADDRESS_CLAMP 1), normalized (8).
    let mut values = Values::plain(vec![0; 4], 0);
    values.images = vec![(0, img)];
    values.samplers = vec![(1, state)];
    let nd = NdRange::new(&[32], &[32]).unwrap();
    let t = payloads(&l, &nd, [0, 0, 0], &values);
    let dw = |at: usize| u32::from_le_bytes(t[0].input[at..at + 4].try_into().unwrap());
    assert_eq!([dw(300), dw(304), dw(308), dw(312)], [3, 5, 1, 8]);
}

#[test]
fn run_budget_check_and_ndrange_limits_are_read() {
    let spec = parse_run(&[
        "--kernel",
        "k",
        "--check",
        "--global",
        "4",
        "--max-steps",
        "500",
    ])
    .unwrap();
    assert_eq!((spec.max_steps, spec.check), (Some(500), true));
    let spec = parse_run(&["--kernel", "k", "--global", "4"]).unwrap();
    assert_eq!((spec.max_steps, spec.check), (None, false));
    for bad in ["0", "-3", "many"] {
        let e = parse_run(&["--kernel", "k", "--global", "4", "--max-steps", bad]).unwrap_err();
        assert_eq!(e, format!("--max-steps {bad}: expected a positive count"));
    }
    // 65536 * 65536 * 2 work-items: past 2^32.
    let e = NdRange::new(&[65536, 65536, 2], &[1, 1, 1]).unwrap_err();
    assert!(
        e.contains("8589934592 work-items; at most 4294967296"),
        "{e}"
    );
    assert!(NdRange::new(&[65536, 65536], &[1, 1]).is_ok());
}

/// The zeinfo of `ids_2d(global uint *out)` (`tests/interp/kernels/ndrange.cl`) as Intel's
/// ocloc 26.27 writes it for nvl-p, and its `.input` lines (GRF of 64 bytes, SIMD32, local ids
/// of two dimensions only).
const NVL_IDS_2D: &str = "kernels:
  - name: k
    execution_env: {grf_count: 64, inline_data_payload_size: 64, simd_size: 32}
    payload_arguments:
      - {arg_type: indirect_data_pointer, offset: 0, size: 8}
      - {arg_type: scratch_pointer, offset: 8, size: 8}
      - {arg_type: global_id_offset, offset: 16, size: 12}
      - {arg_type: enqueued_local_size, offset: 28, size: 12}
      - {arg_type: arg_bypointer, offset: 40, size: 8, arg_index: 0, addrmode: stateless, addrspace: global, access_type: readwrite}
      - {arg_type: work_dimensions, offset: 48, size: 4}
      - {arg_type: group_count, offset: 52, size: 12}
      - {arg_type: global_size, offset: 64, size: 12}
    per_thread_payload_arguments:
      - {arg_type: local_id, offset: 0, size: 128}
";
const NVL_IDS_2D_INPUTS: &[(i16, u16)] = &[
    (64, 64),
    (128, 64),
    (192, 8),
    (200, 8),
    (208, 12),
    (220, 12),
    (232, 8),
    (240, 4),
    (244, 12),
    (256, 12),
];

#[test]
fn a_described_layout_puts_every_value_where_zeinfo_says() {
    let ze = crate::machine::zeinfo::parse(NVL_IDS_2D).unwrap();
    let f = file(32, None, NVL_IDS_2D_INPUTS);
    let nvl = platform("NVL");
    let args = [Arg::Buffer(vec![0; 4])];
    let l = layout_described(&f, 0, nvl, &args, &ze.kernels[0]).unwrap();
    assert_eq!(
        (l.simd, l.per_thread, l.cross, l.id_stride),
        (32, 128, 192, 64)
    );
    let nd = NdRange::new(&[64, 4], &[32, 2]).unwrap();
    let t = payloads(&l, &nd, [1, 1, 0], &Values::plain(vec![0x1234], 0));
    assert_eq!(t.len(), 2);
    let dwords = |t: &ThreadPayload, at: usize, n: usize| -> Vec<u32> {
        (0..n)
            .map(|i| u32::from_le_bytes(t.input[at + 4 * i..at + 4 * i + 4].try_into().unwrap()))
            .collect()
    };
    // Thread 1, lane 3 is work-item 35: x = 3, y = 1; no z array (it would be at 192).
    assert_eq!(&t[1].input[64 + 6..64 + 8], &[3, 0]);
    assert_eq!(&t[1].input[128 + 6..128 + 8], &[1, 0]);
    assert_eq!(&t[1].input[192..200], &PROGRAM_SCOPE_BASE.to_le_bytes());
    assert_eq!(dwords(&t[0], 208, 3), [0, 0, 0]);
    assert_eq!(dwords(&t[0], 220, 3), [32, 2, 1]);
    assert_eq!(&t[0].input[232..240], &0x1234u64.to_le_bytes());
    assert_eq!(dwords(&t[0], 240, 1), [2]);
    assert_eq!(dwords(&t[0], 244, 3), [2, 2, 1]);
    assert_eq!(dwords(&t[0], 256, 3), [64, 4, 1]);
}

#[test]
fn a_described_layout_refuses_what_does_not_fit() {
    let ze = crate::machine::zeinfo::parse(NVL_IDS_2D).unwrap();
    let nvl = platform("NVL");
    let f = file(32, None, NVL_IDS_2D_INPUTS);
    let e = layout_described(&f, 0, nvl, &[Arg::LocalMem(16)], &ze.kernels[0]).unwrap_err();
    assert_eq!(
        e.0,
        "parameter 0: its description (`arg_bypointer` (zeinfo line 9) of 8 bytes at \
         cross-thread offset 40) wants --buffer or --constant; --local-mem given"
    );
    let e = layout_described(&f, 0, nvl, &[], &ze.kernels[0]).unwrap_err();
    assert!(e.0.contains("has at least 1 parameter(s)"), "{e}");
    // An input the description does not explain.
    let mut inputs = NVL_IDS_2D_INPUTS.to_vec();
    inputs.push((300, 4));
    let f = file(32, None, &inputs);
    let e = layout_described(&f, 0, nvl, &[Arg::Buffer(vec![0; 4])], &ze.kernels[0]).unwrap_err();
    assert!(
        e.0.starts_with("input at GRF byte 300 (size 4) is not where the description"),
        "{e}"
    );
    // A SIMD width the `.isa` contradicts.
    let f = file(16, None, NVL_IDS_2D_INPUTS);
    let e = layout_described(&f, 0, nvl, &[Arg::Buffer(vec![0; 4])], &ze.kernels[0]).unwrap_err();
    assert!(
        e.0.starts_with("the kernel's SimdSize is 16 but its description says simd_size 32"),
        "{e}"
    );
}

#[test]
fn inline_data_shorter_than_a_register_pushes_the_rest_to_the_next_one() {
    // `u32_wrap(a, b, out)` of `tests/interp/kernels/int_arith.cl`, ocloc 26.27 for lnl-m
    // (64-byte registers, 32 bytes of inline data): zeinfo puts a at 24, b at 32 and out at 40;
    // the kernel's inputs are at GRF bytes 152, 192 and 200 (the cross-thread data from 128).
    let ze = crate::machine::zeinfo::parse(
        "kernels:
  - name: k
    execution_env: {inline_data_payload_size: 32, simd_size: 32}
    payload_arguments:
      - {arg_type: global_id_offset, offset: 0, size: 12}
      - {arg_type: enqueued_local_size, offset: 12, size: 12}
      - {arg_type: arg_bypointer, offset: 24, size: 8, arg_index: 0, addrmode: stateless, addrspace: global}
      - {arg_type: arg_bypointer, offset: 32, size: 8, arg_index: 1, addrmode: stateless, addrspace: global}
      - {arg_type: arg_bypointer, offset: 40, size: 8, arg_index: 2, addrmode: stateless, addrspace: global}
    per_thread_payload_arguments:
      - {arg_type: local_id, offset: 0, size: 64}
",
    )
    .unwrap();
    let f = file(
        32,
        None,
        &[(64, 64), (128, 12), (140, 12), (152, 8), (192, 8), (200, 8)],
    );
    let args = [
        Arg::Buffer(vec![0; 4]),
        Arg::Buffer(vec![0; 4]),
        Arg::Buffer(vec![0; 4]),
    ];
    let l = layout_described(&f, 0, platform("XE2"), &args, &ze.kernels[0]).unwrap();
    assert_eq!(l.cross, 128);
    let nd = NdRange::new(&[32], &[32]).unwrap();
    let t = payloads(&l, &nd, [0, 0, 0], &Values::plain(vec![0xa, 0xb, 0xc], 0));
    assert_eq!(&t[0].input[152..160], &0xau64.to_le_bytes());
    assert_eq!(&t[0].input[192..200], &0xbu64.to_le_bytes());
    assert_eq!(&t[0].input[200..208], &0xcu64.to_le_bytes());
    assert_eq!(&t[0].input[140..144], &32u32.to_le_bytes());
}

/// A bindless image (parameter 0), a bindless sampler (parameter 1) with its snap value, the
/// image's channel order and an inline sampler, as ocloc 26.27 lays them out for acm-g10 and
/// later (kernels of `tests/interp/kernels/sampler.cl`), on a 64-byte-register platform.
const BINDLESS: &str = "kernels:
  - name: k
    execution_env: {inline_data_payload_size: 32, simd_size: 32}
    payload_arguments:
      - {arg_type: global_id_offset, offset: 0, size: 12}
      - {arg_type: enqueued_local_size, offset: 12, size: 12}
      - {arg_type: sampler_snap_wa, offset: 24, size: 4, arg_index: 1}
      - {arg_type: image_channel_order, offset: 28, size: 4, arg_index: 0}
      - {arg_type: arg_bypointer, offset: 32, size: 8, arg_index: 0, addrmode: bindless, addrspace: image}
      - {arg_type: arg_bypointer, offset: 40, size: 8, arg_index: 1, addrmode: bindless, addrspace: sampler, sampler_index: 0}
      - {arg_type: inline_sampler, offset: 48, size: 8, addrmode: bindless, addrspace: sampler, sampler_index: 1}
    per_thread_payload_arguments:
      - {arg_type: local_id, offset: 0, size: 64}
    inline_samplers:
      - {sampler_index: 1, addrmode: repeat, filtermode: linear, normalized: true}
";

#[test]
fn bindless_images_and_samplers_get_handles_where_zeinfo_says() {
    let ze = crate::machine::zeinfo::parse(BINDLESS).unwrap();
    let f = file(
        32,
        None,
        &[
            (64, 64),
            (128, 12),
            (140, 12),
            (152, 4),
            (156, 4),
            (192, 8),
            (200, 8),
            (208, 8),
        ],
    );
    let image = Image::packed(5, 3, 1, ImageFormat::parse("rgba-f32").unwrap());
    let clamp = SamplerState::parse("unnormalized,clamp,nearest").unwrap();
    let args = [
        Arg::Image {
            image,
            bytes: vec![0; image.bytes() as usize],
            written: false,
        },
        Arg::Sampler(clamp),
    ];
    let l = layout_described(&f, 0, platform("XE2"), &args, &ze.kernels[0]).unwrap();
    let nd = NdRange::new(&[32], &[32]).unwrap();
    let mut values = Values::plain(vec![0, 0], 0);
    values.images = vec![(0, image)];
    values.samplers = vec![(1, clamp)];
    let t = payloads(&l, &nd, [0, 0, 0], &values);
    let dword = |at: usize| u32::from_le_bytes(t[0].input[at..at + 4].try_into().unwrap());
    // sampler_snap_wa of a clamp, nearest sampler: all ones; CL_RGBA.
    assert_eq!([dword(152), dword(156)], [u32::MAX, 0x10B5]);
    // The handles: image parameter 0 at 0x100, sampler parameter 1 at 0x1000 + 32, the
    // inline sampler of index 1 at 0x2000 + 32.
    assert_eq!(&t[0].input[192..200], &0x100u64.to_le_bytes());
    assert_eq!(&t[0].input[200..208], &0x1020u64.to_le_bytes());
    assert_eq!(&t[0].input[208..216], &0x2020u64.to_le_bytes());
    // The states: the parameter's at its `sampler_index` (its handle is bound from its slot
    // when the launch runs), the inline sampler's at its index and its handle.
    let mut memory = Memory::new(64);
    bind_described_samplers(&mut memory, &ze.kernels[0], &[(1, clamp)]);
    let repeat = SamplerState::parse("normalized,repeat,linear").unwrap();
    assert_eq!(memory.sampler("test", 0), Ok(clamp));
    assert_eq!(memory.sampler("test", 1), Ok(repeat));
    assert_eq!(memory.sampler("test", 0x2020), Ok(repeat));
}
