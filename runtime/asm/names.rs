//! The names one routine declares, for [`crate::parse_instruction`]: one hashed index from
//! each name to every kind of thing it names (general variable, predicate, address, sampler,
//! surface, label), borrowed from the text, so that one lookup answers each token. IGC's
//! index names (`P1`, `A0`, `S0`, `T6`) are taken when no declaration has the name.

use super::pool::Named;
use crate::runtime::text::name_index::NameIndex;
use crate::runtime::text::names::{predefined_general, predefined_general_id};
use crate::runtime::text::{IntelNames, Names, FIRST_DECLARED_GENERAL, PREDEFINED_SURFACES};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

/// No declaration of this kind.
const NONE: u32 = u32::MAX;

/// What one name declares: an index per kind, `NONE` for none. Declarations of one kind
/// that repeat a name keep the last (the repetition is an error reported elsewhere); labels
/// keep the first definition.
#[derive(Clone, Copy, Debug)]
pub struct Declared {
    /// Index among the general declarations (id 32 + index).
    pub general: u32,
    /// Index among the predicate declarations (id index + 1).
    pub predicate: u32,
    pub address: u32,
    pub sampler: u32,
    /// Index among the surface declarations (id index + 6).
    pub surface: u32,
    /// Index among the label definitions.
    pub label: u32,
}

impl Default for Declared {
    fn default() -> Self {
        Declared {
            general: NONE,
            predicate: NONE,
            address: NONE,
            sampler: NONE,
            surface: NONE,
            label: NONE,
        }
    }
}

fn some(i: u32) -> Option<u32> {
    (i != NONE).then_some(i)
}

impl Declared {
    /// Whether a declaration (not a label) has this name.
    pub fn is_declared(&self) -> bool {
        [
            self.general,
            self.predicate,
            self.address,
            self.sampler,
            self.surface,
        ]
        .iter()
        .any(|i| *i != NONE)
    }

    /// The label definition of this name.
    pub fn label_def(&self) -> Option<usize> {
        some(self.label).map(|i| i as usize)
    }

    /// The sampler id of this name.
    pub fn sampler_id(&self) -> Option<u32> {
        some(self.sampler).map(|i| i.min(u32::from(u16::MAX)))
    }

    /// What a token of an instruction line names, for the pool's order: a label first, then
    /// a general variable, a predicate, an address.
    pub fn named(&self) -> Option<Named> {
        let i = |v: u32| v as usize;
        some(self.label)
            .map(|l| Named::Label(i(l)))
            .or_else(|| some(self.general).map(|g| Named::General(i(g))))
            .or_else(|| some(self.predicate).map(|p| Named::Predicate(i(p))))
            .or_else(|| some(self.address).map(|a| Named::Address(i(a))))
    }
}

/// Which kind of declaration [`AsmNames::declare`] records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    General,
    Predicate,
    Address,
    Sampler,
    Surface,
    Label,
}

/// The names of one routine.
#[derive(Clone, Debug, Default)]
pub struct AsmNames<'a> {
    index: NameIndex<&'a str, Declared>,
    /// General variable names by declaration index.
    generals: Vec<&'a str>,
    /// Label id by definition index, once given out ([`AsmNames::set_labels`]).
    label_ids: Vec<u32>,
    /// Label names by id.
    label_names: Vec<&'a str>,
    /// Element bytes of each general variable, by declaration index.
    general_bytes: Vec<u32>,
    /// Register size of the platform assembled for (`assemble_for`).
    grf: Option<u32>,
    /// The printer whose spellings the text follows, by its `.version`.
    dialect: crate::runtime::text::Dialect,
}

impl<'a> AsmNames<'a> {
    /// Room for `n` names.
    pub fn with_capacity(n: usize) -> Self {
        AsmNames {
            index: NameIndex::with_capacity(n),
            ..Default::default()
        }
    }

    /// Records that `name` is the `i`-th declaration of `kind`; returns what the name declared
    /// before.
    pub fn declare(&mut self, kind: Kind, name: &'a str, i: usize) -> Declared {
        let i = u32::try_from(i).unwrap_or(NONE - 1);
        if kind == Kind::General {
            self.generals.push(name);
        }
        let d = self.index.get_or_insert_with(name, Declared::default);
        let before = *d;
        match kind {
            Kind::General => d.general = i,
            Kind::Predicate => d.predicate = i,
            Kind::Address => d.address = i,
            Kind::Sampler => d.sampler = i,
            Kind::Surface => d.surface = i,
            Kind::Label => d.label = i,
        }
        before
    }

    /// What `name` declares.
    #[inline]
    pub fn get(&self, name: &str) -> Option<&Declared> {
        self.index.get(name)
    }

    /// Gives the labels their ids: `order` lists definition indices by id; `names` are the
    /// definitions' names.
    pub fn set_labels(&mut self, order: &[usize], names: &[&'a str]) {
        self.label_ids = alloc::vec![NONE; names.len()];
        for (id, def) in order.iter().enumerate() {
            if let Some(slot) = self.label_ids.get_mut(*def) {
                *slot = u32::try_from(id).unwrap_or(NONE);
            }
        }
        self.label_names = order
            .iter()
            .filter_map(|def| names.get(*def).copied())
            .collect();
    }

    /// Element bytes of the general variables, in declaration order, and the platform's
    /// register size: what ADDR_ADD's `&V[bytes]` needs.
    /// The text is of vISA `version`: 4.2 and later follow IGC 2.x's spellings.
    pub fn set_version(&mut self, version: Option<(u8, u8)>) {
        if version.is_some_and(|v| v >= (4, 2)) {
            self.dialect = crate::runtime::text::Dialect::Igc2;
        }
    }

    pub fn set_sizes(&mut self, general_bytes: Vec<u32>, grf: Option<u32>) {
        self.general_bytes = general_bytes;
        self.grf = grf;
    }

    /// The id of label definition `def`.
    pub fn label_of_def(&self, def: usize) -> Option<u32> {
        self.label_ids.get(def).copied().and_then(some)
    }

    fn kind(&self, name: &str, of: impl Fn(&Declared) -> u32) -> Option<u32> {
        self.index.get(name).map(of).and_then(some)
    }

    fn id16(&self, name: &str, of: impl Fn(&Declared) -> u32, base: u32) -> Option<u16> {
        self.kind(name, of)
            .map(|i| u16::try_from(i.saturating_add(base)).unwrap_or(u16::MAX))
    }
}

impl Names for AsmNames<'_> {
    fn general(&self, id: u32) -> Option<Cow<'_, str>> {
        predefined_general(id).or_else(|| {
            let i = usize::try_from(id.checked_sub(FIRST_DECLARED_GENERAL)?).ok()?;
            self.generals.get(i).map(|n| Cow::Borrowed(*n))
        })
    }
    fn general_id(&self, name: &str) -> Option<u32> {
        predefined_general_id(name).or_else(|| {
            self.kind(name, |d| d.general)
                .map(|i| FIRST_DECLARED_GENERAL.saturating_add(i))
        })
    }
    fn label(&self, id: u32) -> Option<Cow<'_, str>> {
        let i = usize::try_from(id).ok()?;
        self.label_names.get(i).map(|n| Cow::Borrowed(*n))
    }
    fn label_id(&self, name: &str) -> Option<u32> {
        let def = self.kind(name, |d| d.label)?;
        self.label_of_def(def as usize)
    }
    fn predicate_id(&self, name: &str) -> Option<u16> {
        self.id16(name, |d| d.predicate, 1)
            .or_else(|| IntelNames.predicate_id(name))
    }
    fn address_id(&self, name: &str) -> Option<u16> {
        self.id16(name, |d| d.address, 0)
            .or_else(|| IntelNames.address_id(name))
    }
    fn sampler_id(&self, name: &str) -> Option<u16> {
        self.id16(name, |d| d.sampler, 0)
            .or_else(|| IntelNames.sampler_id(name))
    }
    fn surface_id(&self, name: &str) -> Option<u16> {
        self.id16(name, |d| d.surface, PREDEFINED_SURFACES.len() as u32)
            .or_else(|| IntelNames.surface_id(name))
    }
    fn general_element_bytes(&self, id: u32) -> Option<u32> {
        let i = usize::try_from(id.checked_sub(FIRST_DECLARED_GENERAL)?).ok()?;
        self.general_bytes.get(i).copied().filter(|b| *b > 0)
    }
    fn grf_bytes(&self) -> Option<u32> {
        self.grf
    }
    fn dialect(&self) -> crate::runtime::text::Dialect {
        self.dialect
    }
}

/// The names of one instruction line: a routine's [`AsmNames`] plus the strings the line
/// names (FCALL's callee), each at the pool index given to it. Before the pool exists
/// (`indices` is `None`) it records the strings asked for, in order, each once, and answers
/// with placeholders; a form that fails and one that succeeds ask for the same strings.
pub struct LineNames<'a> {
    pub names: &'a AsmNames<'a>,
    pub asked: RefCell<Vec<String>>,
    pub indices: Option<&'a [u32]>,
}

impl Names for LineNames<'_> {
    fn general(&self, id: u32) -> Option<Cow<'_, str>> {
        self.names.general(id)
    }
    fn general_id(&self, name: &str) -> Option<u32> {
        self.names.general_id(name)
    }
    fn label(&self, id: u32) -> Option<Cow<'_, str>> {
        self.names.label(id)
    }
    fn label_id(&self, name: &str) -> Option<u32> {
        self.names.label_id(name)
    }
    fn predicate_id(&self, name: &str) -> Option<u16> {
        self.names.predicate_id(name)
    }
    fn address_id(&self, name: &str) -> Option<u16> {
        self.names.address_id(name)
    }
    fn sampler_id(&self, name: &str) -> Option<u16> {
        self.names.sampler_id(name)
    }
    fn surface_id(&self, name: &str) -> Option<u16> {
        self.names.surface_id(name)
    }
    fn general_element_bytes(&self, id: u32) -> Option<u32> {
        self.names.general_element_bytes(id)
    }
    fn grf_bytes(&self) -> Option<u32> {
        self.names.grf_bytes()
    }
    fn dialect(&self) -> crate::runtime::text::Dialect {
        self.names.dialect()
    }
    fn string_index(&self, s: &str) -> Option<u32> {
        let mut asked = self.asked.try_borrow_mut().ok()?;
        let k = match asked.iter().position(|a| a == s) {
            Some(k) => k,
            None => {
                asked.push(s.into());
                asked.len() - 1
            }
        };
        match self.indices {
            None => u32::try_from(k).ok(),
            Some(indices) => indices.get(k).copied(),
        }
    }
}
