//! How the render cache ([`crate::emit::cache`]) writes a stage's result: as JSON, with each
//! [`crate::schema::Span`] an array of its four numbers rather than an object of four named
//! fields. Spans are a third of a parsed doc's memo, and read back without their names about a
//! quarter faster. Users' JSON (`xtask schema`, the diagnostics) never changes: the compact form
//! is on only while the memo serialises, on the thread that does.

use std::cell::Cell;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with the compact form on (on this thread).
pub(crate) fn with<R>(f: impl FnOnce() -> R) -> R {
    let before = ON.with(|c| c.replace(true));
    let r = f();
    ON.with(|c| c.set(before));
    r
}

/// Whether the compact form is on.
pub(crate) fn on() -> bool {
    ON.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use crate::schema::Span;

    /// Users' JSON keeps the named form; the memo's is the array; either reads back as the
    /// span it was, and a malformed one is an error, not a wrong span.
    #[test]
    fn spans_are_objects_for_users_arrays_in_the_memo_and_read_back_either_way() {
        let span = Span {
            start: 3,
            end: 9,
            line: 2,
            column: 4,
        };
        let users = serde_json::to_string(&span).unwrap();
        assert_eq!(users, r#"{"start":3,"end":9,"line":2,"column":4}"#);
        let memo = super::with(|| serde_json::to_string(&span).unwrap());
        assert_eq!(memo, "[3,9,2,4]");
        assert!(!super::on(), "the compact form ends with `with`");
        for text in [users.as_str(), memo.as_str()] {
            assert_eq!(serde_json::from_str::<Span>(text).unwrap(), span);
        }
        for bad in [
            "[3,9,2]",
            "[3,9,2,4,5]",
            r#"{"start":3,"end":9,"line":2}"#,
            "7",
        ] {
            assert!(serde_json::from_str::<Span>(bad).is_err(), "{bad}");
        }
    }
}
