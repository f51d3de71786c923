//! The names a routine's instructions print, read in place from its declarations and string
//! pool: nothing is copied or allocated for a name that is valid UTF-8, which is what makes
//! printing a whole file cheap (a [`NameTable`](crate::runtime::text::NameTable) would copy
//! every name into two maps first). Reverse lookups scan, as the printer never makes them.

use super::{View, SUBROUTINE_LABEL};
use crate::runtime::text::names::{predefined_general, predefined_general_id};
use crate::runtime::text::{subroutine_label_name, Names, FIRST_DECLARED_GENERAL};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// Declared general variables by their pool name, block labels by theirs, subroutine labels
/// (kind 1) with IGC 12504.6's `_<id>` suffix, strings of the pool by index.
pub(crate) struct RoutineNames<'a> {
    view: &'a View<'a>,
}

impl<'a> RoutineNames<'a> {
    pub fn new(view: &'a View<'a>) -> Self {
        RoutineNames { view }
    }

    fn pool(&self, index: u32) -> Option<Cow<'a, str>> {
        pool_str(self.view.string_pool, index)
    }
}

fn pool_str(pool: &[Vec<u8>], index: u32) -> Option<Cow<'_, str>> {
    let s = pool.get(usize::try_from(index).ok()?)?;
    Some(String::from_utf8_lossy(s))
}

impl Names for RoutineNames<'_> {
    fn general(&self, id: u32) -> Option<Cow<'_, str>> {
        if let Some(p) = predefined_general(id) {
            return Some(p);
        }
        let i = usize::try_from(id.checked_sub(FIRST_DECLARED_GENERAL)?).ok()?;
        self.pool(self.view.var_info.get(i)?.name_index)
    }
    fn general_id(&self, name: &str) -> Option<u32> {
        predefined_general_id(name).or_else(|| {
            let i = self
                .view
                .var_info
                .iter()
                .rposition(|v| self.pool(v.name_index).as_deref() == Some(name))?;
            u32::try_from(i).ok()?.checked_add(FIRST_DECLARED_GENERAL)
        })
    }
    fn label(&self, id: u32) -> Option<Cow<'_, str>> {
        let label = self.view.label_info.get(usize::try_from(id).ok()?)?;
        let name = self.pool(label.name_index)?;
        if label.kind == SUBROUTINE_LABEL {
            Some(Cow::Owned(subroutine_label_name(&name, id)))
        } else {
            Some(name)
        }
    }
    fn label_id(&self, name: &str) -> Option<u32> {
        let n = u32::try_from(self.view.label_info.len()).ok()?;
        (0..n)
            .rev()
            .find(|id| self.label(*id).as_deref() == Some(name))
    }
    fn string(&self, index: u32) -> Option<Cow<'_, str>> {
        self.pool(index)
    }
    fn string_index(&self, s: &str) -> Option<u32> {
        let i = self
            .view
            .string_pool
            .iter()
            .rposition(|p| String::from_utf8_lossy(p) == s)?;
        u32::try_from(i).ok()
    }
    fn general_element_bytes(&self, id: u32) -> Option<u32> {
        let i = usize::try_from(id.checked_sub(FIRST_DECLARED_GENERAL)?).ok()?;
        let ty = self.view.var_info.get(i)?.bit_properties & 0xf;
        let bytes = crate::runtime::DataType::try_from(ty).ok()?.size();
        u32::try_from(bytes).ok().filter(|b| *b > 0)
    }
    fn grf_bytes(&self) -> Option<u32> {
        self.view.grf_bytes
    }
    fn dialect(&self) -> crate::runtime::text::Dialect {
        if self.view.modern {
            crate::runtime::text::Dialect::Igc2
        } else {
            crate::runtime::text::Dialect::Igc1
        }
    }
}
