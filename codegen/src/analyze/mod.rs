//! Analysis (in progress): checks the schema and decides layouts so emitters cannot fail.
use crate::diag::Diagnostic;
use crate::schema::Spec;

pub struct Model {
    pub spec: Spec,
}

pub fn analyze(spec: &Spec) -> (Model, Vec<Diagnostic>) {
    (Model { spec: spec.clone() }, Vec::new())
}
