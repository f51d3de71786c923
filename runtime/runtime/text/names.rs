//! Names the instruction bytes do not carry: variable, label and state names, and the reverse
//! lookups for parsing (`visa-text-syntax.md` §3). Predicates, addresses, samplers and surfaces
//! are printed by index; general variables and labels by the name a kernel's string pool gives
//! them, which a [`NameTable`] holds.

use super::name_index::OwnedNameIndex;
use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;

/// Predefined general variables V0..V21, as Intel's printers name them.
///
/// Source: the `// .decl V<n> v_type=G v_name=<name>` comment lines that head every file in
/// `real-kernels/dg2/*.visaasm` (IGC 12504.6, vISA 4.1: V0..V20, e.g.
/// `arith_float_float_ops.visaasm`, lines 5-25; the note's §3 lists the same names from
/// `PreDefinedVars.cpp`), and those of `tests/modern/fixtures` (IGC 2.40, vISA 4.2), which add
/// V21 `%scratchloc`. Ids 22..=31 are reserved and have no name here.
pub const PREDEFINED_GENERAL: [&str; 22] = [
    "%null",
    "%thread_x",
    "%thread_y",
    "%group_id_x",
    "%group_id_y",
    "%group_id_z",
    "%tsc",
    "%r0",
    "%arg",
    "%retval",
    "%sp",
    "%fp",
    "%hw_id",
    "%sr0",
    "%cr0",
    "%ce0",
    "%dbg0",
    "%color",
    "%impl_arg_buf_ptr",
    "%local_id_buf_ptr",
    "%msg0",
    "%scratchloc",
];

/// How many of [`PREDEFINED_GENERAL`] a text of vISA `major.minor` lists in its header: 21
/// before 4.2 (IGC 12504.6 writes 4.1), 22 from 4.2 on (IGC 2.x).
pub fn predefined_general_count(major: u8, minor: u8) -> usize {
    if (major, minor) >= (4, 2) {
        PREDEFINED_GENERAL.len()
    } else {
        PREDEFINED_GENERAL.len() - 1
    }
}

/// General variable ids below this are predefined; the first declared variable is `V0032`
/// (`VISAKernelImpl::generateVariableName`, note §3).
pub const FIRST_DECLARED_GENERAL: u32 = 32;

/// Predefined surfaces T0..T5 (`vISAPreDefSurf`).
///
/// Source: the `// .decl T<n> v_type=T v_name=<name>` comment lines of every
/// `real-kernels/dg2/*.visaasm` file (e.g. `arith_float_float_ops.visaasm`, lines 26-31), and
/// note §3 ("Surfaces 0–5 are printed as `%slm T1 T2 TSS %bss %scratch`").
pub const PREDEFINED_SURFACES: [&str; 6] = ["%slm", "T1", "T2", "TSS", "%bss", "%scratch"];

/// Turns ids into the names the text uses, and names back into ids.
///
/// The index-named kinds have defaults that follow IGC (note §3): predicate `P<id>` (the id in
/// a predicate control word is the variable index + 1, so `P1` is the first; verified in
/// `arith_float_float_ops.isa`, where `cmp.eq (M1, 16) P1 ...` stores the word `0x0001`),
/// address `A<id>`, sampler `S<id>`, surface `T<id>` with [`PREDEFINED_SURFACES`] for 0..=5.
pub trait Names {
    /// Name of general variable `id`, `None` when it has none.
    fn general(&self, id: u32) -> Option<Cow<'_, str>>;
    /// Id of the general variable called `name`.
    fn general_id(&self, name: &str) -> Option<u32>;
    /// Name of label `id`, as CALL/GOTO/JMP targets and label lines print it.
    fn label(&self, id: u32) -> Option<Cow<'_, str>>;
    /// Id of the label called `name`.
    fn label_id(&self, name: &str) -> Option<u32>;

    fn predicate(&self, id: u16) -> Cow<'_, str> {
        Cow::Owned(format!("P{id}"))
    }
    fn predicate_id(&self, name: &str) -> Option<u16> {
        index_after("P", name)
    }
    fn address(&self, id: u16) -> Cow<'_, str> {
        Cow::Owned(format!("A{id}"))
    }
    fn address_id(&self, name: &str) -> Option<u16> {
        index_after("A", name)
    }
    fn sampler(&self, id: u16) -> Cow<'_, str> {
        Cow::Owned(format!("S{id}"))
    }
    fn sampler_id(&self, name: &str) -> Option<u16> {
        index_after("S", name)
    }
    fn surface(&self, id: u16) -> Cow<'_, str> {
        match PREDEFINED_SURFACES.get(usize::from(id)) {
            Some(name) => Cow::Borrowed(name),
            None => Cow::Owned(format!("T{id}")),
        }
    }
    /// `T<n>` is accepted for every n (IGC itself rejects `T0`: it must be written `%slm`).
    fn surface_id(&self, name: &str) -> Option<u16> {
        match PREDEFINED_SURFACES.iter().position(|s| *s == name) {
            Some(i) => u16::try_from(i).ok(),
            None => index_after("T", name),
        }
    }
    /// String `index` of the routine's string pool: the callee of FCALL, the function of
    /// FADDR, the file of FILE (the instruction holds the index, the text the string).
    fn string(&self, _index: u32) -> Option<Cow<'_, str>> {
        None
    }
    /// The pool index of the string `s` a text names. An assembler adds `s` to the pool it
    /// builds (IGC creates the string when it builds the instruction, even when the pool
    /// already holds it), so asking twice may give two indices.
    fn string_index(&self, _s: &str) -> Option<u32> {
        None
    }
    /// Bytes per element of general variable `id` (its declared type): ADDR_ADD's `&V[bytes]`
    /// counts bytes, the instruction rows and elements.
    fn general_element_bytes(&self, _id: u32) -> Option<u32> {
        None
    }
    /// Bytes per general register of the platform the text is for (`runtime::platform`):
    /// a row of `&V[bytes]`.
    fn grf_bytes(&self) -> Option<u32> {
        None
    }
    /// Which of Intel's printers the text follows ([`Dialect`]): IGC 12504.6's unless the
    /// routine is of vISA 4.2 or later.
    fn dialect(&self) -> Dialect {
        Dialect::Igc1
    }
}

/// The two printers of Intel's vISA text that differ in spelling, not in meaning: IGC
/// 12504.6 (2022, vISA 4.1, the `.isa` era) and IGC 2.x (vISA 4.2, text only). A parser takes
/// both spellings; a printer writes the one of the text's version.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// IGC 12504.6: LSC data sizes `d8c32`, `d16c32`, `d16c32h`.
    #[default]
    Igc1,
    /// IGC 2.x: LSC data sizes `d8u32`, `d16u32`, `d16u32h` (the docs' spelling).
    Igc2,
}

/// `P12` -> 12 for prefix `P`: decimal digits only, no sign, no leading `+`.
fn index_after<T: core::str::FromStr>(prefix: &str, name: &str) -> Option<T> {
    let digits = name.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The names IGC gives when nothing else is known: [`PREDEFINED_GENERAL`] below 32 and IGC's
/// anonymous `V%04d` above (`V0050`), which is what IGC's own kernels use (note §3: the name is
/// a string-pool entry that happens to match the id). Labels have no default name.
#[derive(Copy, Clone, Debug, Default)]
pub struct IntelNames;

impl Names for IntelNames {
    fn general(&self, id: u32) -> Option<Cow<'_, str>> {
        predefined_general(id)
            .or_else(|| (id >= FIRST_DECLARED_GENERAL).then(|| Cow::Owned(format!("V{id:04}"))))
    }
    fn general_id(&self, name: &str) -> Option<u32> {
        predefined_general_id(name)
            .or_else(|| index_after::<u32>("V", name).filter(|id| *id >= FIRST_DECLARED_GENERAL))
    }
    fn label(&self, _id: u32) -> Option<Cow<'_, str>> {
        None
    }
    fn label_id(&self, _name: &str) -> Option<u32> {
        None
    }
}

/// [`IntelNames`] in IGC 2.x's dialect: the names of a vISA 4.2 text, for tests of what the
/// two printers spell differently.
#[cfg(test)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Igc2Names;

#[cfg(test)]
impl Names for Igc2Names {
    fn general(&self, id: u32) -> Option<Cow<'_, str>> {
        IntelNames.general(id)
    }
    fn general_id(&self, name: &str) -> Option<u32> {
        IntelNames.general_id(name)
    }
    fn label(&self, id: u32) -> Option<Cow<'_, str>> {
        IntelNames.label(id)
    }
    fn label_id(&self, name: &str) -> Option<u32> {
        IntelNames.label_id(name)
    }
    fn dialect(&self) -> Dialect {
        Dialect::Igc2
    }
}

/// [`IntelNames`] plus names for what they lack, so property tests print every instruction
/// whose text names a label or a string of the pool: label `id` is `L<id>`, string `index`
/// is `str<index>`.
#[cfg(test)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct TestNames;

#[cfg(test)]
impl Names for TestNames {
    fn general(&self, id: u32) -> Option<Cow<'_, str>> {
        IntelNames.general(id)
    }
    fn general_id(&self, name: &str) -> Option<u32> {
        IntelNames.general_id(name)
    }
    fn label(&self, id: u32) -> Option<Cow<'_, str>> {
        Some(Cow::Owned(format!("L{id}")))
    }
    fn label_id(&self, name: &str) -> Option<u32> {
        index_after("L", name)
    }
    fn string(&self, index: u32) -> Option<Cow<'_, str>> {
        Some(Cow::Owned(format!("str{index}")))
    }
    fn string_index(&self, s: &str) -> Option<u32> {
        index_after("str", s)
    }
}

pub(crate) fn predefined_general(id: u32) -> Option<Cow<'static, str>> {
    let i = usize::try_from(id).ok()?;
    PREDEFINED_GENERAL.get(i).map(|n| Cow::Borrowed(*n))
}

pub(crate) fn predefined_general_id(name: &str) -> Option<u32> {
    // Every predefined name starts with `%`: most operands are declared names, which need no
    // scan of the table.
    if !name.starts_with('%') {
        return None;
    }
    let i = PREDEFINED_GENERAL.iter().position(|n| *n == name)?;
    u32::try_from(i).ok()
}

/// Names of one kernel: declared general variables and labels by id, with the predefined
/// general names underneath. A declared name shadows nothing: ids below 32 always print as
/// predefined.
#[derive(Clone, Debug, Default)]
pub struct NameTable {
    general: BTreeMap<u32, String>,
    general_ids: OwnedNameIndex<u32>,
    labels: BTreeMap<u32, String>,
    label_ids: OwnedNameIndex<u32>,
    strings: BTreeMap<u32, String>,
    string_ids: OwnedNameIndex<u32>,
}

impl NameTable {
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares general variable `id` as `name` (replacing an earlier name of that id).
    pub fn declare_general(&mut self, id: u32, name: impl Into<String>) {
        let name = name.into();
        if let Some(old) = self.general.insert(id, name.clone()) {
            self.general_ids.remove(&old);
        }
        self.general_ids.insert(name, id);
    }

    /// Declares label `id` as `name`, exactly as the text prints it (see
    /// [`subroutine_label_name`] for the name IGC 12504.6 prints for subroutines).
    pub fn declare_label(&mut self, id: u32, name: impl Into<String>) {
        let name = name.into();
        if let Some(old) = self.labels.insert(id, name.clone()) {
            self.label_ids.remove(&old);
        }
        self.label_ids.insert(name, id);
    }

    /// Declares string `index` of the pool. The reverse lookup gives the last index of a
    /// string the pool holds more than once: IGC adds a callee's string when it builds the
    /// call, after the routine's name and labels that may hold the same string
    /// (`recursion_stackcalls.isa`, function `rec`: strings 0, 29 and 59 are `rec`, the fcall
    /// names 59).
    pub fn declare_string(&mut self, index: u32, s: impl Into<String>) {
        let s = s.into();
        if let Some(old) = self.strings.insert(index, s.clone()) {
            if self.string_ids.get(&old) == Some(&index) {
                self.string_ids.remove(&old);
            }
        }
        let last = self.string_ids.get_or_insert_with(s, || index);
        *last = (*last).max(index);
    }
}

impl Names for NameTable {
    fn general(&self, id: u32) -> Option<Cow<'_, str>> {
        predefined_general(id).or_else(|| self.general.get(&id).map(|n| Cow::Borrowed(n.as_str())))
    }
    fn general_id(&self, name: &str) -> Option<u32> {
        predefined_general_id(name).or_else(|| self.general_ids.get(name).copied())
    }
    fn label(&self, id: u32) -> Option<Cow<'_, str>> {
        self.labels.get(&id).map(|n| Cow::Borrowed(n.as_str()))
    }
    fn label_id(&self, name: &str) -> Option<u32> {
        self.label_ids.get(name).copied()
    }
    fn string(&self, index: u32) -> Option<Cow<'_, str>> {
        self.strings.get(&index).map(|s| Cow::Borrowed(s.as_str()))
    }
    fn string_index(&self, s: &str) -> Option<u32> {
        self.string_ids.get(s).copied()
    }
}

/// The name IGC 12504.6 prints for a subroutine label and a CALL target: `.` and `$` become
/// `_`, then `_<id>` is appended, every time (note §3: `_main` label 0 prints `_main_0`,
/// `helper` label 1 `helper_1`; seen in `real-kernels/dg2/calls_caller.visaasm`:
/// `.function "helper_poly_1"`, `call (M1, 8) helper_poly_1`).
pub fn subroutine_label_name(name: &str, id: u32) -> String {
    let mut s: String = name
        .chars()
        .map(|c| if c == '.' || c == '$' { '_' } else { c })
        .collect();
    s.push_str(&format!("_{id}"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_names_as_the_dg2_files_declare_them() {
        // arith_float_float_ops.visaasm: "// .decl V7 v_type=G v_name=%r0",
        // "// .decl V20 v_type=G v_name=%msg0", "// .decl T3 v_type=T v_name=TSS".
        let n = IntelNames;
        assert_eq!(n.general(7).as_deref(), Some("%r0"));
        assert_eq!(n.general(20).as_deref(), Some("%msg0"));
        assert_eq!(n.general(21).as_deref(), Some("%scratchloc")); // vISA 4.2
        assert_eq!(n.general(22), None);
        assert_eq!(n.general(50).as_deref(), Some("V0050"));
        assert_eq!(n.general_id("%cr0"), Some(14));
        assert_eq!(n.general_id("V0050"), Some(50));
        assert_eq!(
            n.general_id("V0005"),
            None,
            "V5 is predefined, printed %group_id_z"
        );
        assert_eq!(n.surface(3), "TSS");
        assert_eq!(n.surface(6), "T6");
        assert_eq!(n.surface_id("%slm"), Some(0));
        assert_eq!(n.surface_id("T6"), Some(6));
        assert_eq!(n.predicate_id("P12"), Some(12));
        assert_eq!(n.predicate_id("P+1"), None);
        assert_eq!(n.address_id("A"), None);
        assert_eq!(n.sampler(0), "S0");
    }

    #[test]
    fn table_names_and_reverse_lookup() {
        let mut t = NameTable::new();
        t.declare_general(32, "VD");
        t.declare_general(32, "VE");
        t.declare_label(1, subroutine_label_name("helper.x$", 1));
        assert_eq!(t.general(32).as_deref(), Some("VE"));
        assert_eq!(t.general_id("VD"), None);
        assert_eq!(t.general_id("%null"), Some(0));
        assert_eq!(t.label(1).as_deref(), Some("helper_x__1"));
        assert_eq!(t.label_id("helper_x__1"), Some(1));
    }
}
