//! Which immediate types a type map admits. The maps list element types; the packed immediate
//! types V, UV and VF carry eight (four) elements of another type. The data types chapter says
//! "the V type is compatible with all signed integer types, the UV type is compatible with all
//! unsigned integer types, and the VF type is compatible with the F type", so a map admits a
//! packed immediate when it lists a type the packed type is compatible with. Intel's reader
//! agrees: it reads `addc ... 0xc840:uv` (the map lists only UD) and rejects `0xc840:v`.

use super::TypeMapModel;

/// The packed types and the element types each is compatible with (2_datatypes.md).
const PACKED: &[(&str, &[&str])] = &[
    ("V", &["B", "W", "D", "Q"]),
    ("UV", &["UB", "UW", "UD", "UQ"]),
    ("VF", &["F"]),
];

impl TypeMapModel {
    /// The immediate types the map admits: the types it lists, then each packed type compatible
    /// with one of them that it does not list itself.
    pub fn immediate_types(&self) -> Vec<String> {
        let mut out = self.types.clone();
        for (packed, elements) in PACKED {
            let compatible = elements.iter().any(|e| self.types.iter().any(|t| t == e));
            if compatible && !out.iter().any(|t| t == packed) {
                out.push((*packed).to_string());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admits(types: &[&str]) -> Vec<String> {
        TypeMapModel {
            rule: None,
            types: types.iter().map(|t| t.to_string()).collect(),
        }
        .immediate_types()
    }

    #[test]
    fn packed_types_follow_their_element_types() {
        // ADDC's map: UD only. UV joins, V (signed) does not: Intel rejects `0xc840:v` there.
        assert_eq!(admits(&["UD"]), ["UD", "UV"]);
        // ADD's integer map: both packed integer vectors.
        assert_eq!(
            admits(&["UD", "D", "UW", "W", "UB", "B"]),
            ["UD", "D", "UW", "W", "UB", "B", "V", "UV"]
        );
        assert_eq!(admits(&["F", "BF"]), ["F", "BF", "VF"]);
        assert_eq!(admits(&["Q"]), ["Q", "V"]);
    }

    #[test]
    fn maps_without_compatible_types_admit_no_packed_type() {
        assert_eq!(admits(&["HF"]), ["HF"]);
        assert_eq!(admits(&["DF"]), ["DF"]);
        assert!(admits(&[]).is_empty());
        // A map already naming a packed type keeps it once.
        assert_eq!(admits(&["UD", "UV"]), ["UD", "UV"]);
    }
}
