//! The names one routine declares, for [`crate::parse_instruction`]: general variables and
//! labels in a [`NameTable`], predicates, addresses, samplers and surfaces by their declared
//! names first and IGC's index names (`P1`, `A0`, `S0`, `T6`) after.

use crate::runtime::text::{NameTable, Names};
use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;

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
