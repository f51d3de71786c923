//! `codegen` holds no process-global or thread-local state: a run's inputs are its arguments.
//! The one kind of `static` allowed is a table of regular expressions compiled once from
//! literals (`static P: OnceLock<...>`), the same whenever it is built: a constant, not state.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("codegen/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Each line of `text` that declares global or thread-local state, but for compiled patterns.
fn state_in(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim_start)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| {
            l.contains("thread_local!")
                || l.starts_with("static ")
                || l.starts_with("pub static ")
                || l.starts_with("pub(crate) static ")
        })
        .filter(|l| !l.starts_with("static P: OnceLock<"))
        .map(str::to_string)
        .collect()
}

#[test]
fn codegen_declares_no_global_or_thread_local_state() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 20, "{} source files", files.len());
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("a readable source");
        found.extend(
            state_in(&text)
                .into_iter()
                .map(|l| format!("{}: {l}", f.display())),
        );
    }
    assert!(
        found.is_empty(),
        "global state in codegen:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_each_kind_of_state() {
    let text = "static ACTIVE: RwLock<u8> = RwLock::new(0);\n\
                thread_local! { static ON: Cell<bool> = Cell::new(false); }\n\
                    pub(crate) static N: AtomicBool = AtomicBool::new(false);\n\
                    static P: OnceLock<Patterns> = OnceLock::new();\n\
                // static COMMENTED: u8 = 0;\n";
    assert_eq!(state_in(text).len(), 3, "{:?}", state_in(text));
}
