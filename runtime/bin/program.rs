//! `visa run --zeinfo P.zeinfo` and `--program K.bin`: the payload layout and program-scope data
//! of Intel's compiler, read from its zeinfo text or from its program binary (an ELF: a zebin
//! with a `.ze_info` section, or the 2022 compiler's patch-token binary).

use std::path::Path;
use visa::machine::program::{patch_tokens, Program, PATCH_TOKEN_MAGIC};
use visa::machine::zeinfo;

/// Reads `--zeinfo PATH`: errors are `PATH:line:col: what was expected`.
pub fn read_zeinfo(path: &Path) -> Result<Program, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (invalid byte at offset {}): expected zeinfo YAML",
            path.display(),
            e.valid_up_to()
        )
    })?;
    let info = zeinfo::parse(text).map_err(|e| format!("{}:{e}", path.display()))?;
    Ok(Program {
        info,
        ..Program::default()
    })
}

/// Reads `--program PATH`: the sections of its ELF container.
pub fn read_program(path: &Path) -> Result<Program, String> {
    use object::{Object, ObjectSection};
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let elf = object::File::parse(&*bytes).map_err(|e| {
        format!(
            "{}: not an ELF file ({e}): expected ocloc's program binary (a zebin or a patch-token ELF)",
            path.display()
        )
    })?;
    let section = |name: &str| -> Result<Option<Vec<u8>>, String> {
        match elf.section_by_name(name) {
            Some(s) => s
                .data()
                .map(|d| Some(d.to_vec()))
                .map_err(|e| format!("{}: section {name}: {e}", path.display())),
            None => Ok(None),
        }
    };
    if let Some(yaml) = section(".ze_info")? {
        let text = String::from_utf8_lossy(&yaml);
        let info = zeinfo::parse(&text)
            .map_err(|e| format!("{} (section .ze_info):{e}", path.display()))?;
        return Ok(Program {
            info,
            constants: section(".data.const")?.unwrap_or_default(),
            globals: section(".data.global")?.unwrap_or_default(),
        });
    }
    for s in elf.sections() {
        let data = s.data().unwrap_or(&[]);
        if data.len() >= 4 && data[..4] == PATCH_TOKEN_MAGIC.to_le_bytes() {
            let name = s.name().unwrap_or("?").to_string();
            return patch_tokens(data)
                .map_err(|e| format!("{} (section {name}): {e}", path.display()));
        }
    }
    Err(format!(
        "{}: an ELF file with neither a .ze_info section (zebin) nor a section of patch tokens \
         (magic `CTNI`): expected ocloc's program binary",
        path.display()
    ))
}
