//! Whole-file throughput on Intel's dg2 files (`../shared/real-kernels/dg2`, skipped with a
//! printed reason when absent): `parse` reads every `.isa` and decodes every instruction
//! (`File::parse`); `print` prints every kernel and function as Intel's text from the parsed
//! files; `dis` does both, from the bytes; `asm` assembles Intel's `.visaasm` texts into object
//! files. Throughput is in the bytes each one reads (file bytes for parse and dis, text bytes
//! for asm); `print` counts the text it writes. Sizes go to `target/visa-bench/files.json`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::PathBuf;
use visa::object::text::{print_function, print_kernel};
use visa::object::File;

mod support;

/// The text of every routine of `f`, appended to `out`.
fn print_all(f: &File, out: &mut usize) {
    for i in 0..f.kernels.len() {
        if let Some(p) = print_kernel(f, i) {
            *out += p.text.len();
            std::hint::black_box(&p);
        }
    }
    for i in 0..f.functions.len() {
        if let Some(p) = print_function(f, i) {
            *out += p.text.len();
            std::hint::black_box(&p);
        }
    }
}

/// The `.visaasm` texts of one object file: the kernel's, then its functions'
/// (`K.func.F.visaasm`), which `visa asm` takes together.
fn text_groups(dir: &std::path::Path) -> Vec<Vec<(String, String)>> {
    let texts = support::files(dir, "visaasm");
    let mut groups: Vec<Vec<(String, String)>> = Vec::new();
    for (path, bytes) in texts {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if name.contains(".func.") {
            let stem = name.split(".func.").next().unwrap_or_default().to_string();
            if let Some(g) = groups
                .iter_mut()
                .find(|g| g[0].0 == format!("{stem}.visaasm"))
            {
                g.push((name, text));
                continue;
            }
        }
        groups.push(vec![(name, text)]);
    }
    groups
}

fn benches(c: &mut Criterion) {
    let Some(dir) = support::dg2_dir() else {
        return;
    };
    let files: Vec<(PathBuf, Vec<u8>)> = support::files(&dir, "isa")
        .into_iter()
        .filter(|(_, b)| File::parse(b).is_ok())
        .collect();
    let parsed: Vec<File> = files
        .iter()
        .filter_map(|(_, b)| File::parse(b).ok())
        .collect();
    let file_bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    let mut text_bytes = 0;
    for f in &parsed {
        print_all(f, &mut text_bytes);
    }
    let groups = text_groups(&dir);
    // Only the texts this crate assembles without error (the full-family crate takes them
    // all; family/tests/asm.rs says which it does not).
    let groups: Vec<_> = groups
        .into_iter()
        .filter(|g| {
            let sources: Vec<_> = g
                .iter()
                .map(|(n, t)| visa::asm::Source { name: n, text: t })
                .collect();
            visa::asm::assemble(&sources, visa::asm::Options::default()).is_ok()
        })
        .collect();
    let asm_bytes: usize = groups.iter().flatten().map(|(_, t)| t.len()).sum();
    let report = format!(
        "{{\"files\": {}, \"file_bytes\": {file_bytes}, \"text_bytes\": {text_bytes}, \"asm_texts\": {}, \"asm_bytes\": {asm_bytes}}}\n",
        files.len(),
        groups.iter().map(Vec::len).sum::<usize>(),
    );
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(|t| PathBuf::from(t).join("visa-bench"))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/visa-bench"));
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("files.json"), &report);
    eprint!("files: {report}");

    let mut g = c.benchmark_group("files");
    g.throughput(Throughput::Bytes(file_bytes as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for (_, bytes) in &files {
                let _ = std::hint::black_box(File::parse(std::hint::black_box(bytes)));
            }
        })
    });
    g.bench_function("dis", |b| {
        b.iter(|| {
            let mut n = 0;
            for (_, bytes) in &files {
                if let Ok(f) = File::parse(std::hint::black_box(bytes)) {
                    print_all(&f, &mut n);
                }
            }
            n
        })
    });
    // What `visa check` does with a file: read it, then validate every routine.
    let platform = visa::Platform::ALL
        .iter()
        .copied()
        .find(|p| matches!(p.name(), "XEHP" | "DG2"))
        .unwrap_or(visa::Platform::ALL[0]);
    g.bench_function("check", |b| {
        b.iter(|| {
            let mut failures = 0;
            for (_, bytes) in &files {
                if let Ok(f) = File::parse(std::hint::black_box(bytes)) {
                    failures += f.validate(platform).len();
                }
            }
            failures
        })
    });
    g.throughput(Throughput::Bytes(text_bytes as u64));
    g.bench_function("print", |b| {
        b.iter(|| {
            let mut n = 0;
            for f in &parsed {
                print_all(std::hint::black_box(f), &mut n);
            }
            n
        })
    });
    g.throughput(Throughput::Bytes(asm_bytes as u64));
    g.bench_function("asm", |b| {
        b.iter(|| {
            for group in &groups {
                let sources: Vec<_> = group
                    .iter()
                    .map(|(n, t)| visa::asm::Source { name: n, text: t })
                    .collect();
                let _ = std::hint::black_box(visa::asm::assemble(
                    std::hint::black_box(&sources),
                    visa::asm::Options::default(),
                ));
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = files;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(files);
