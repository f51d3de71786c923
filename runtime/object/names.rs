//! Name resolution in a kernel or function: ids used by instructions → declarations.
//!
//! The numbering is the chapter's: general variables count the predefined `V0..` first
//! ([`PREDEFINED_VARIABLES`]), surfaces the predefined `T0..` ([`PREDEFINED_SURFACES`]),
//! predicates start at P1 ("The first entry (p0) is reserved to represent the case where
//! there is no predication"), labels at 0.

use super::{
    AddressInfo, FunctionData, InstructionStream, KernelData, LabelInfo, PredicateInfo,
    SurfaceInfo, VarInfo, PREDEFINED_SURFACES, PREDEFINED_VARIABLES,
};

/// A general variable id, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variable<'a> {
    /// `V0..V31`, with the chapter's name when it gives one (`%null`, `%r0`).
    Predefined { id: u32, name: Option<&'static str> },
    /// A declaration of the routine's `var_info` table, at `index`.
    Declared {
        id: u32,
        index: usize,
        info: &'a VarInfo,
    },
}

/// A surface id, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface<'a> {
    Predefined {
        id: u32,
    },
    Declared {
        id: u32,
        index: usize,
        info: &'a SurfaceInfo,
    },
}

/// A predicate id, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predicate<'a> {
    /// P0: no predication.
    None,
    Declared {
        id: u32,
        index: usize,
        info: &'a PredicateInfo,
    },
}

/// A label id, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label<'a> {
    pub id: u32,
    pub info: &'a LabelInfo,
}

/// What kernels and functions share: their string pool, declarations and instructions.
pub trait Routine {
    fn string_pool(&self) -> &[alloc::vec::Vec<u8>];
    fn name_index(&self) -> u32;
    fn var_info(&self) -> &[VarInfo];
    fn address_info(&self) -> &[AddressInfo];
    fn predicate_info(&self) -> &[PredicateInfo];
    fn label_info(&self) -> &[LabelInfo];
    fn surface_info(&self) -> &[SurfaceInfo];
    fn sampler_info(&self) -> &[SurfaceInfo];
    fn instructions(&self) -> &InstructionStream;

    /// String `index` of the string pool.
    fn string(&self, index: u32) -> Option<&[u8]> {
        self.string_pool()
            .get(usize::try_from(index).ok()?)
            .map(|s| s.as_slice())
    }

    /// The routine's name (string `name_index`).
    fn name(&self) -> Option<&[u8]> {
        self.string(self.name_index())
    }

    fn variable(&self, id: u32) -> Option<Variable<'_>> {
        let predefined = PREDEFINED_VARIABLES.len() as u32;
        if id < predefined {
            let name = PREDEFINED_VARIABLES.get(id as usize).copied().flatten();
            return Some(Variable::Predefined { id, name });
        }
        let index = usize::try_from(id - predefined).ok()?;
        let info = self.var_info().get(index)?;
        Some(Variable::Declared { id, index, info })
    }

    fn surface(&self, id: u32) -> Option<Surface<'_>> {
        if id < PREDEFINED_SURFACES {
            return Some(Surface::Predefined { id });
        }
        let index = usize::try_from(id - PREDEFINED_SURFACES).ok()?;
        let info = self.surface_info().get(index)?;
        Some(Surface::Declared { id, index, info })
    }

    fn predicate(&self, id: u32) -> Option<Predicate<'_>> {
        if id == 0 {
            return Some(Predicate::None);
        }
        let index = usize::try_from(id - 1).ok()?;
        let info = self.predicate_info().get(index)?;
        Some(Predicate::Declared { id, index, info })
    }

    fn label(&self, id: u32) -> Option<Label<'_>> {
        let info = self.label_info().get(usize::try_from(id).ok()?)?;
        Some(Label { id, info })
    }

    /// The name of general variable `id`: the chapter's name of a predefined one, else the
    /// declaration's string.
    fn variable_name(&self, id: u32) -> Option<&[u8]> {
        match self.variable(id)? {
            Variable::Predefined { name, .. } => name.map(str::as_bytes),
            Variable::Declared { info, .. } => self.string(info.name_index),
        }
    }
}

macro_rules! routine {
    ($t:ty) => {
        impl Routine for $t {
            fn string_pool(&self) -> &[alloc::vec::Vec<u8>] {
                &self.string_pool
            }
            fn name_index(&self) -> u32 {
                self.name_index
            }
            fn var_info(&self) -> &[VarInfo] {
                &self.var_info
            }
            fn address_info(&self) -> &[AddressInfo] {
                &self.address_info
            }
            fn predicate_info(&self) -> &[PredicateInfo] {
                &self.predicate_info
            }
            fn label_info(&self) -> &[LabelInfo] {
                &self.label_info
            }
            fn surface_info(&self) -> &[SurfaceInfo] {
                &self.surface_info
            }
            fn sampler_info(&self) -> &[SurfaceInfo] {
                &self.sampler_info
            }
            fn instructions(&self) -> &InstructionStream {
                &self.instructions
            }
        }
    };
}
routine!(KernelData);
routine!(FunctionData);
