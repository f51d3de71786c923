//! The comment lines Intel's current compiler writes after each routine's last instruction
//! (IGC 2.x, `CISA_IR_Builder::isaDump`): `//Platform: XE2` and `//Build option: "..."`. They
//! are comments to a parser, and kept ([`Trailer`]) so that the text prints back as it was.

use crate::object::Trailer;
use alloc::string::ToString;
use alloc::vec::Vec;

/// One entry per routine of `text` (`.kernel` or `.global_function`), in order: the trailer
/// that follows it, if any.
pub fn trailers(text: &str) -> Vec<Option<Trailer>> {
    let mut out: Vec<Option<Trailer>> = Vec::new();
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.starts_with(".kernel ") || line.starts_with(".global_function ") {
            out.push(None);
        } else if let Some(p) = line.strip_prefix("//Platform: ") {
            if let Some(last) = out.last_mut() {
                last.get_or_insert_with(Trailer::default).platform = p.to_string();
            }
        } else if let Some(o) = line.strip_prefix("//Build option: ") {
            let o = o.strip_prefix('"').and_then(|o| o.strip_suffix('"'));
            if let (Some(last), Some(o)) = (out.last_mut(), o) {
                last.get_or_insert_with(Trailer::default).build_options = o.to_string();
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_routine_takes_the_lines_after_it() {
        let text = ".version 4.2\n\n.kernel \"k\"\n    ret (M1, 1)\n\n//Platform: XE2\n//Build option: \"-a -b \"\n.global_function \"f\"\n";
        let t = trailers(text);
        assert_eq!(t.len(), 2);
        assert_eq!(
            t[0],
            Some(Trailer {
                platform: "XE2".into(),
                build_options: "-a -b ".into()
            })
        );
        assert_eq!(t[1], None);
    }
}
