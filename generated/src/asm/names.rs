//! The names one routine declares, for [`crate::parse_instruction`]: general variables and
//! labels in a [`NameTable`], predicates, addresses, samplers and surfaces by their declared
//! names first and IGC's index names (`P1`, `A0`, `S0`, `T6`) after.

use crate::runtime::text::{NameTable, Names};
use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

#[derive(Clone, Debug, Default)]
pub struct AsmNames {
    pub table: NameTable,
    pub predicates: BTreeMap<String, u16>,
    pub addresses: BTreeMap<String, u16>,
    pub samplers: BTreeMap<String, u16>,
    pub surfaces: BTreeMap<String, u16>,
}

impl Names for AsmNames {
    fn general(&self, id: u32) -> Option<Cow<'_, str>> {
        self.table.general(id)
    }
    fn general_id(&self, name: &str) -> Option<u32> {
        self.table.general_id(name)
    }
    fn label(&self, id: u32) -> Option<Cow<'_, str>> {
        self.table.label(id)
    }
    fn label_id(&self, name: &str) -> Option<u32> {
        self.table.label_id(name)
    }
    fn predicate_id(&self, name: &str) -> Option<u16> {
        self.predicates
            .get(name)
            .copied()
            .or_else(|| self.table.predicate_id(name))
    }
    fn address_id(&self, name: &str) -> Option<u16> {
        self.addresses
            .get(name)
            .copied()
            .or_else(|| self.table.address_id(name))
    }
    fn sampler_id(&self, name: &str) -> Option<u16> {
        self.samplers
            .get(name)
            .copied()
            .or_else(|| self.table.sampler_id(name))
    }
    fn surface_id(&self, name: &str) -> Option<u16> {
        self.surfaces
            .get(name)
            .copied()
            .or_else(|| self.table.surface_id(name))
    }
}

/// The names of one instruction line: a routine's [`AsmNames`] plus the strings the line
/// names (FCALL's callee), each at the pool index given to it. Before the pool exists
/// (`indices` is `None`) it records the strings asked for, in order, each once, and answers
/// with placeholders; a form that fails and one that succeeds ask for the same strings.
pub struct LineNames<'a> {
    pub names: &'a AsmNames,
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
