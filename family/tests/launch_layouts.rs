//! The thread-payload layout of `visa::machine::launch` explains every `.input` of every kernel
//! Intel's compiler wrote for our OpenCL fixtures (`tests/ocl/fixtures/<device>/`), given one
//! ARG per parameter of the kernel's `.cl` signature: each input is `r0`, local ids, the
//! header, a parameter's slot of the right size, or one of Intel's implicit arguments.
//! Kernels whose parameters `visa run` cannot give (images, samplers, structs, vectors by
//! value) are listed as skipped. A kernel whose inputs fit several sets of implicit arguments
//! that give them different values is refused by the `.isa` layout; its program binary (the
//! patch tokens of `<kernel>.bin` beside it) must then explain every input.

#![cfg(not(family_absent))]

use std::path::{Path, PathBuf};
use visa::machine::launch::{
    find_kernel, layout, layout_described, Arg, Holds, Scalar, ScalarType,
};
use visa::machine::program::{patch_tokens, PATCH_TOKEN_MAGIC};
use visa::object::File;
use visa::runtime::INTEL_PLATFORMS;

fn repo() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var_os("VISA_REPO")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    let found = candidates
        .into_iter()
        .find(|d| d.join("tests/ocl/fixtures").is_dir());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "tests/ocl/fixtures not found (set VISA_REPO); CI is set"
        );
        println!("skipped: tests/ocl/fixtures not found; set VISA_REPO to the repository");
    }
    found
}

/// The ARGs of kernel `name`'s parameters in `src`, or why `visa run` cannot give them.
fn args_of(src: &str, name: &str) -> Result<Vec<Arg>, String> {
    let head = format!("void {name}(");
    let at = src.find(&head).ok_or("no such kernel in the source")? + head.len();
    let params = &src[at..at + src[at..].find(')').ok_or("unclosed parameter list")?];
    params
        .split(',')
        .map(|p| {
            let p = p.trim();
            let words: Vec<&str> = p
                .split(|c: char| c.is_whitespace() || c == '*')
                .filter(|w| !w.is_empty())
                .collect();
            if p.contains('*') {
                let has = |q: &str| words.iter().any(|w| *w == q || *w == format!("__{q}"));
                return Ok(if has("local") {
                    Arg::LocalMem(64)
                } else if has("constant") {
                    Arg::Constant(vec![0; 64])
                } else {
                    Arg::Buffer(vec![0; 64])
                });
            }
            let ty = words.iter().rev().nth(1).copied().unwrap_or("");
            let ty = match ty {
                "char" => ScalarType::I8,
                "uchar" => ScalarType::U8,
                "short" => ScalarType::I16,
                "ushort" => ScalarType::U16,
                "int" => ScalarType::I32,
                "uint" => ScalarType::U32,
                "long" => ScalarType::I64,
                "ulong" => ScalarType::U64,
                "float" => ScalarType::F32,
                "double" => ScalarType::F64,
                other => {
                    return Err(format!(
                        "parameter `{p}`: type `{other}` is no --scalar type"
                    ))
                }
            };
            Ok(Arg::Scalar(Scalar { ty, bits: 0 }))
        })
        .collect()
}

/// The layout of kernel `name` read from the patch tokens of the program binary at `bin` (the
/// device-binary section of its ELF, found by its magic number).
fn described(
    bin: &Path,
    name: &str,
    file: &File,
    k: usize,
    platform: &visa::runtime::IntelPlatform,
    args: &[Arg],
) -> Result<(), String> {
    let bytes = std::fs::read(bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let magic = PATCH_TOKEN_MAGIC.to_le_bytes();
    let at = (0..bytes.len().saturating_sub(4))
        .step_by(8)
        .find(|&i| bytes[i..i + 4] == magic)
        .ok_or("no patch tokens in it")?;
    let program = patch_tokens(&bytes[at..])?;
    let ze = program.info.kernel(name).ok_or("no such kernel in it")?;
    layout_described(file, k, platform, args, ze)
        .map(|_| ())
        .map_err(|e| e.0)
}

#[test]
fn every_input_of_every_fixture_kernel_is_explained() {
    let Some(repo) = repo() else { return };
    let devices = [
        ("acm-g10-rev0", "DG2"),
        ("acm-g10", "DG2"),
        ("tgllp", "TGLLP"),
        ("dg1", "TGLLP"),
        ("icllp", "ICLLP"),
        ("skl", "SKL"),
        ("pvc", "PVCXT"),
    ];
    let (mut checked, mut skipped, mut failed) = (0, Vec::new(), Vec::new());
    let mut refused = 0;
    for (device, platform) in devices {
        let platform = INTEL_PLATFORMS.iter().find(|p| p.name == platform).unwrap();
        let dir = repo.join("tests/ocl/fixtures").join(device);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "isa"))
            .collect();
        files.sort();
        for path in files {
            // <cl>.<kernel>.isa
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let (cl, kernel) = stem.split_once('.').unwrap();
            let src =
                std::fs::read_to_string(repo.join("tests/ocl/kernels").join(format!("{cl}.cl")))
                    .unwrap();
            // `intel-isa` names a kernel compiled at several SIMD widths `<kernel>_simd<N>`.
            let kernel = match kernel.rsplit_once("_simd") {
                Some((k, _)) if !src.contains(&format!("void {kernel}(")) => k,
                _ => kernel,
            };
            let args = match args_of(&src, kernel) {
                Ok(a) => a,
                Err(why) => {
                    skipped.push(format!("{device}/{stem}: {why}"));
                    continue;
                }
            };
            let file = File::parse(&std::fs::read(&path).unwrap()).unwrap();
            let k = find_kernel(&file, kernel).unwrap_or_else(|e| panic!("{device}/{stem}: {e}"));
            match layout(&file, k, platform, &args) {
                Ok(l) => {
                    checked += 1;
                    // Every parameter that has an input is found at its slot.
                    let held: Vec<usize> = l
                        .inputs
                        .iter()
                        .filter_map(|i| match i.2 {
                            Holds::Arg(a) => Some(a),
                            _ => None,
                        })
                        .collect();
                    assert_eq!(
                        l.inputs.len(),
                        file.kernels[k].data.input_info.len(),
                        "{device}/{stem}"
                    );
                    assert!(
                        held.windows(2).all(|w| w[0] != w[1]),
                        "{device}/{stem}: {held:?}"
                    );
                    for n in &l.notes {
                        println!("note {device}/{stem}: {n}");
                    }
                }
                // Inputs the `.isa` cannot tell apart: the binary beside it must.
                Err(e) if e.0.contains("may hold any of") => {
                    match described(
                        &path.with_extension("bin"),
                        kernel,
                        &file,
                        k,
                        platform,
                        &args,
                    ) {
                        Ok(()) => refused += 1,
                        Err(why) => {
                            failed.push(format!("{device}/{stem}: {e}; and its binary: {why}"))
                        }
                    }
                }
                Err(e) => failed.push(format!("{device}/{stem}: {e}")),
            }
        }
    }
    println!("{checked} kernels laid out, {refused} refused as ambiguous and laid out by their binary; skipped:");
    for s in &skipped {
        println!("  {s}");
    }
    assert!(
        failed.is_empty(),
        "layouts that do not explain Intel's inputs:\n{}",
        failed.join("\n")
    );
    assert!(checked >= 60, "only {checked} kernels checked");
}
