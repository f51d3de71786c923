//! Emitters: one per output, each a pure function of the analysed schema returning
//! path → contents (paths relative to the generated crate's root).
//!
//! Each emitter lists its files as jobs (`FileJob`), independent of each other, so [`render`]
//! renders them on every core; the result is a map keyed by path, whatever the scheduling.

pub mod cache;
pub mod docs;
pub mod rust;

pub use cache::Text;
use std::collections::BTreeMap;

/// One output file, rendered on its own by whichever thread takes it.
pub(crate) struct FileJob<'a> {
    path: String,
    render: Box<dyn Fn() -> Text + Sync + 'a>,
    /// What the file's contents depend on, when the emitter can name it: with a memo
    /// ([`cache`]), a job whose inputs are unchanged is not rendered again.
    inputs: Option<Box<dyn Fn() -> String + Sync + 'a>>,
}

impl<'a> FileJob<'a> {
    pub(crate) fn new(path: impl Into<String>, render: impl Fn() -> String + Sync + 'a) -> Self {
        FileJob::text(path, move || render().into())
    }

    /// A job whose render gives its text as the memo holds it (a file that spans every doc,
    /// whole from the memo when nothing it is made of changed: `rust::whole`).
    pub(crate) fn text(path: impl Into<String>, render: impl Fn() -> Text + Sync + 'a) -> Self {
        FileJob {
            path: path.into(),
            render: Box::new(render),
            inputs: None,
        }
    }

    /// A job whose contents are a function of what `inputs` returns (and the generator).
    pub(crate) fn keyed(
        path: impl Into<String>,
        inputs: impl Fn() -> String + Sync + 'a,
        render: impl Fn() -> String + Sync + 'a,
    ) -> Self {
        FileJob {
            inputs: Some(Box::new(inputs)),
            ..FileJob::new(path, render)
        }
    }

    fn render(&self) -> cache::Text {
        match &self.inputs {
            Some(inputs) if cache::active() => {
                let inputs = crate::timings::time("cache: inputs", inputs);
                let key = cache::key(&["file job", &self.path, &inputs]);
                cache::text_or(key, || (self.render)().into_string())
            }
            _ => (self.render)(),
        }
    }
}

/// Every file of the generated crate: Rust modules, object records and reference pages, all
/// rendered in one pool of jobs.
pub fn render(
    model: &crate::analyze::Model,
    reference: crate::analyze::reference::Reference,
    opts: &Options,
) -> BTreeMap<String, Text> {
    render_with(model, &docs::Prepared::new(reference), opts)
}

/// [`render`] with the reference pages' shared part prepared already (while the schema was
/// analysed).
pub(crate) fn render_with(
    model: &crate::analyze::Model,
    pages: &docs::Prepared,
    opts: &Options,
) -> BTreeMap<String, Text> {
    let jobs = jobs(model, pages, opts);
    crate::timings::time("emit: all file jobs (wall)", || run(jobs))
}

/// Every file of the generated crate as a job: Rust modules, the API snapshot, object records
/// and reference pages.
fn jobs<'a>(
    model: &'a crate::analyze::Model,
    pages: &'a docs::Prepared,
    opts: &'a Options,
) -> Vec<FileJob<'a>> {
    let digests = std::sync::Arc::new(rust::Digests::new(model));
    let mut jobs = rust::jobs_sharing(model, opts, digests.clone());
    // The API snapshot keys each doc's line by the digests the Rust jobs compute anyway.
    let header = crate::diff::snapshot_header(opts);
    jobs.push(FileJob::new(crate::diff::SNAPSHOT, move || {
        crate::timings::time("api snapshot", || {
            crate::diff::snapshot_of(model, &digests, &header)
        })
    }));
    jobs.extend(rust::object::job(model.object.as_ref(), opts));
    jobs.extend(pages.jobs(opts));
    jobs
}

/// Renders `jobs` on every core, in the order given (costly first), into path → contents.
pub(crate) fn run(jobs: Vec<FileJob<'_>>) -> BTreeMap<String, Text> {
    crate::par::map(&jobs, |j| {
        let text = crate::timings::time_item("file job", || j.path.clone(), || j.render());
        (j.path.clone(), text)
    })
    .into_iter()
    .collect()
}

/// `files` as owned strings, for callers of one emitter alone (tests, snapshots).
pub(crate) fn owned(files: BTreeMap<String, Text>) -> BTreeMap<String, String> {
    files
        .into_iter()
        .map(|(path, text)| (path, text.into_string()))
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
        let sequential: BTreeMap<String, Text> = jobs
            .iter()
            .map(|j| (j.path.clone(), (j.render)()))
            .collect();
        let parallel = render(model, parsed.reference.clone(), &opts);
        assert_eq!(parallel, sequential);
        // With a memo (empty, then the one the first run left), item by item and section by
        // section: the same bytes.
        let (first, memo) = cache::with(b"", "test", || {
            render(model, parsed.reference.clone(), &opts)
        });
        assert_eq!(first, sequential, "formatted in parts");
        let (second, _) = cache::with(&memo, "test", || {
            render(model, parsed.reference.clone(), &opts)
        });
        assert_eq!(second, sequential, "from the memo");
        assert!(parallel.contains_key("src/generated/object.rs"));
        assert!(parallel.contains_key(crate::diff::SNAPSHOT));
        assert!(parallel["src/generated/mod.rs"].contains("pub mod object;\n"));
    }
}
