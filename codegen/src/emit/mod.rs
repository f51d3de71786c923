//! Emitters: one per output, each a pure function of the analysed schema returning
//! path → contents (paths relative to the generated crate's root).
//!
//! Each emitter lists its files as jobs (`FileJob`), independent of each other, so [`render`]
//! renders them on every core; the result is a map keyed by path, whatever the scheduling.

pub mod docs;
pub mod rust;

use crate::timings::Timings;
use proc_macro2::TokenStream;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// One output file, rendered on its own by whichever thread takes it.
pub(crate) struct FileJob<'a> {
    path: String,
    render: Render<'a>,
}

/// How a file job makes its contents.
enum Render<'a> {
    /// Text, whole.
    Text(Box<dyn Fn() -> String + Sync + 'a>),
    /// A Rust file: its header line, then its tokens formatted ([`rust::format`]).
    Rust(String, Box<dyn Fn() -> TokenStream + Sync + 'a>),
}

impl<'a> FileJob<'a> {
    pub(crate) fn new(path: impl Into<String>, render: impl Fn() -> String + Sync + 'a) -> Self {
        FileJob {
            path: path.into(),
            render: Render::Text(Box::new(render)),
        }
    }

    /// A Rust file: `header`, then the tokens `build` returns, formatted.
    pub(crate) fn rust(
        path: impl Into<String>,
        header: String,
        build: impl Fn() -> TokenStream + Sync + 'a,
    ) -> Self {
        FileJob {
            path: path.into(),
            render: Render::Rust(header, Box::new(build)),
        }
    }

    /// The file's contents, its stages timed in `timings`.
    fn render(&self, timings: &Timings) -> String {
        match &self.render {
            Render::Text(render) => render(),
            Render::Rust(header, build) => {
                let tokens = timings.time(rust::QUOTE_STAGE, build);
                header.clone() + &rust::format(tokens, timings)
            }
        }
    }
}

/// Every file of the generated crate: Rust modules, object records and reference pages, all
/// rendered in one pool of jobs.
pub fn render(
    model: &crate::analyze::Model,
    reference: crate::analyze::reference::Reference,
    opts: &Options,
) -> BTreeMap<String, String> {
    render_with(
        model,
        &docs::Prepared::new(reference),
        opts,
        &Timings::off(),
    )
}

/// [`render`] with the reference pages' shared part prepared already (while the schema was
/// analysed).
pub(crate) fn render_with(
    model: &crate::analyze::Model,
    pages: &docs::Prepared,
    opts: &Options,
    timings: &Timings,
) -> BTreeMap<String, String> {
    run(jobs(model, pages, opts), timings)
}

/// Every file of the generated crate as a job: Rust modules, the API snapshot, object records
/// and reference pages.
fn jobs<'a>(
    model: &'a crate::analyze::Model,
    pages: &'a docs::Prepared,
    opts: &'a Options,
) -> Vec<FileJob<'a>> {
    let mut jobs = rust::jobs(model, opts);
    let header = crate::diff::snapshot_header(&opts.regen_command, &opts.spec_label);
    jobs.push(FileJob::new(crate::diff::SNAPSHOT, move || {
        crate::diff::snapshot(&crate::diff::view::api(model), &header)
    }));
    jobs.extend(rust::object::job(model.object.as_ref(), opts));
    jobs.extend(pages.jobs(opts));
    jobs
}

/// Renders `jobs` on every core, handed out one at a time in the order given (costly first),
/// into path → contents; each job's time recorded in `timings`.
pub(crate) fn run(jobs: Vec<FileJob<'_>>, timings: &Timings) -> BTreeMap<String, String> {
    jobs.par_iter()
        .with_max_len(1)
        .map(|j| {
            let text = timings.time_item("file job", || j.path.clone(), || j.render(timings));
            (j.path.clone(), text)
        })
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
mod tests {
    use super::*;

    /// The files do not depend on how the jobs were scheduled: rendering on every core gives
    /// what rendering each job in turn gives.
    #[test]
    fn parallel_render_equals_sequential_render() {
        let parsed = crate::testing::workspace_spec();
        let model = &parsed.model;
        let opts = Options::default();
        let pages = docs::Prepared::new(parsed.reference.clone());
        let jobs = jobs(model, &pages, &opts);
        let sequential: BTreeMap<String, String> = jobs
            .iter()
            .map(|j| (j.path.clone(), j.render(&Timings::off())))
            .collect();
        let parallel = render(model, parsed.reference.clone(), &opts);
        assert_eq!(parallel, sequential);
        assert!(parallel.contains_key("src/generated/object.rs"));
        assert!(parallel.contains_key(crate::diff::SNAPSHOT));
        assert!(parallel["src/generated/mod.rs"].contains("pub mod object;\n"));
    }
}
