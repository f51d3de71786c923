//! Binary sizes of field types in the vISA layout, shared by every emitter.

/// Encoded size in bytes of a field of type `ty` (as written in a bullet, lower case), when it
/// is fixed. Operands (`vec_operand`, `raw_operand`, `scalar`) and `unknown` have no fixed size.
pub fn fixed_size(ty: &str) -> Option<usize> {
    match ty {
        "ub" | "b" => Some(1),
        "uw" | "w" => Some(2),
        "ud" | "d" => Some(4),
        "uq" | "q" => Some(8),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::fixed_size;

    #[test]
    fn integer_types_have_their_width_and_operands_have_none() {
        assert_eq!(fixed_size("ub"), Some(1));
        assert_eq!(fixed_size("uw"), Some(2));
        assert_eq!(fixed_size("ud"), Some(4));
        assert_eq!(fixed_size("d"), Some(4));
        assert_eq!(fixed_size("vec_operand"), None);
        assert_eq!(fixed_size("raw_operand"), None);
        assert_eq!(fixed_size("unknown"), None);
    }
}
