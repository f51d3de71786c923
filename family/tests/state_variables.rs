//! Samplers and surfaces held in variables, as Intel's current compiler writes them for NVL and
//! XE3P_CRI (IGC 2.40's efficient-64-bit mode: `sample_lz.RGBA (M1, 32) 0x0:uw V0064 V0066
//! ...`, `load_lz ... V0060(0,0)<0;1,0>[0] ...`, `resinfo.RG (M1_NM, 16) V0071 ...`), on the
//! committed fixtures of `tests/modern/fixtures/{nvl-p,cri}`: `visa run` runs kernel `images`
//! from its text and program binary, and its outputs are worked out here from the OpenCL C
//! source (`tests/ocl/kernels/images.cl`); `visa asm -o` refuses to write them into an object
//! file, naming what it cannot hold. (That every line prints back exactly is
//! `modern_fixtures.rs`; pocl's outputs for every image kernel, `interp_modern.rs`.)

#![cfg(not(family_absent))]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixtures() -> Option<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/modern/fixtures");
    if d.is_dir() {
        return Some(d);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} not found; CI is set",
        d.display()
    );
    println!("skipped: {} not found", d.display());
    None
}

fn visa_in(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(support::visa_tool().unwrap())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("visa runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked"),
        "visa {args:?} panicked: {stderr}"
    );
    out
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("visa-state-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn f32s(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn write_f32s(path: &Path, v: &[f32]) {
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(path, bytes).unwrap();
}

const DEVICES: &[&str] = &["nvl-p", "cri"];

#[test]
fn images_run_with_their_image_and_sampler_in_variables() {
    // kernel images(read_only image2d_t src, write_only image2d_t dst, global int *dims):
    //   p = (x, y); s = read_imagef(src, smp, p) (unnormalized, clamp to edge, nearest);
    //   t = read_imagef(src, p + (1, 0)); write_imagef(dst, p, s * 0.5f + t * 0.5f);
    //   dims = (width, height) from work-item (0, 0).
    let (Some(fx), Some(_)) = (fixtures(), support::visa_tool()) else {
        return;
    };
    let (w, h) = (4usize, 2usize);
    // Texel (x, y), channel c of src: 16y + 4x + c.
    let src: Vec<f32> = (0..w * h * 4).map(|i| i as f32).collect();
    for device in DEVICES {
        let dir = scratch(device);
        let text = fx.join(device).join("images/images.visaasm");
        let text_lines = std::fs::read_to_string(&text).unwrap();
        assert!(
            text_lines.contains("sample_lz.RGBA (M1, 32)  0x0:uw V0064 V0066 "),
            "{device}: the fixture names its sampler and surface by variable"
        );
        write_f32s(&dir.join("src.bin"), &src);
        write_f32s(&dir.join("dst.bin"), &vec![-1.0; w * h * 4]);
        std::fs::write(dir.join("dims.bin"), [0u8; 8]).unwrap();
        let program = fx.join(device).join("images/images.bin");
        let out = visa_in(
            &dir,
            &[
                "run",
                text.to_str().unwrap(),
                "--program",
                program.to_str().unwrap(),
                "--kernel",
                "images",
                "--global",
                "3,2",
                "--image",
                "4,2:rgba-f32:src.bin",
                "--image",
                "4,2:rgba-f32:dst.bin:dst.out",
                "--buffer",
                "dims.bin:dims.out",
            ],
        );
        assert!(
            out.status.success(),
            "{device}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dst = f32s(&dir.join("dst.out"));
        for y in 0..h {
            for x in 0..w {
                for c in 0..4 {
                    let at = (y * w + x) * 4 + c;
                    // Columns 0..3 written: (src(x) + src(x + 1)) / 2; column 3 untouched.
                    let want = if x < 3 {
                        (src[at] + src[at + 4]) * 0.5
                    } else {
                        -1.0
                    };
                    assert_eq!(dst[at], want, "{device}: texel ({x}, {y}) channel {c}");
                }
            }
        }
        let dims = std::fs::read(dir.join("dims.out")).unwrap();
        assert_eq!(dims, [4, 0, 0, 0, 2, 0, 0, 0], "{device}: width and height");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn an_object_file_cannot_hold_state_variables() {
    let (Some(fx), Some(_)) = (fixtures(), support::visa_tool()) else {
        return;
    };
    let dir = scratch("asm");
    let text = fx.join("nvl-p/images/images.visaasm");
    let out = visa_in(&dir, &["asm", text.to_str().unwrap(), "-o", "images.isa"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("samplers or surfaces given as variables"),
        "{stderr}"
    );
    assert!(!dir.join("images.isa").exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}
