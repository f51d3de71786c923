//! Emitters: one per output, each a pure function of the analysed schema returning
//! path → contents (paths relative to the generated crate's root).
//!
//! Each emitter lists its files as [`FileJob`]s, independent of each other, so [`run`] renders
//! them on every core; the result is a map keyed by path, the same whatever the scheduling.

pub mod docs;
pub mod rust;

use std::collections::BTreeMap;

/// One output file, rendered on its own by whichever thread takes it.
pub(crate) struct FileJob<'a> {
    path: String,
    render: Box<dyn Fn() -> String + Sync + 'a>,
}

impl<'a> FileJob<'a> {
    pub(crate) fn new(path: impl Into<String>, render: impl Fn() -> String + Sync + 'a) -> Self {
        FileJob {
            path: path.into(),
            render: Box::new(render),
        }
    }
}

/// Every file of the generated crate: Rust modules, object records and reference pages, all
/// rendered in one pool of jobs.
pub fn render(
    model: &crate::analyze::Model,
    spec: &crate::schema::Spec,
    opts: &Options,
) -> BTreeMap<String, String> {
    let pages = docs::Prepared::new(spec);
    let mut jobs = rust::jobs(model, opts);
    jobs.extend(rust::object::job(spec, opts));
    jobs.extend(pages.jobs(spec, opts));
    let mut files = run(jobs);
    rust::object::declare(&mut files);
    files
}

/// Renders `jobs` on every core, in the order given (costly first), into path → contents.
pub(crate) fn run(jobs: Vec<FileJob<'_>>) -> BTreeMap<String, String> {
    crate::par::map(&jobs, |j| (j.path.clone(), (j.render)()))
        .into_iter()
        .collect()
}

/// What every emitter needs to write its `@generated` headers.
#[derive(Clone, Debug)]
pub struct Options {
    /// How the spec directory is named in headers, e.g. `spec`.
    pub spec_label: String,
    /// The exact command that regenerates the output, e.g. `cargo xtask regen`.
    pub regen_command: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            spec_label: "spec".into(),
            regen_command: "cargo xtask regen".into(),
        }
    }
}

#[cfg(test)]
mod edges;
