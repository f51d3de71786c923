//! Documentation emitter (in progress).
use crate::emit::Options;
use crate::schema::Spec;
use std::collections::BTreeMap;

pub fn render(_spec: &Spec, _opts: &Options) -> BTreeMap<String, String> {
    BTreeMap::new()
}
