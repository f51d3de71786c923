//! Rust emitter (in progress).
use crate::analyze::Model;
use crate::emit::Options;
use std::collections::BTreeMap;

pub fn render(_model: &Model, _opts: &Options) -> BTreeMap<String, String> {
    BTreeMap::new()
}
