//! Internally tagged enums of the schema (`{"kind": "int", "value": 5}`) read without serde's
//! buffering. serde's derive reads such an enum by first copying the whole object into a
//! generic tree, to find its tag wherever it is, and then reading the variant from that tree;
//! nested enums (the pseudo-code's statements and expressions, a doc's text templates) are
//! copied again at every level. Reading back the parse memo of a one-doc regen spent most of its
//! time there (5.6 ms of 110 docs, 3.3 of them in the pseudo-code alone).
//!
//! The schema writes the tag first (as serde's derive does), so here the tag is read first and
//! the variant's fields straight from the object after it; an object whose tag comes later is
//! still read (through a `serde_json::Value`, slower). The JSON is the same either way, and
//! [`internally_tagged!`] writes it as serde's `#[serde(tag = ...)]` does.
//!
//! Use: derive `Serialize, Deserialize` with `#[serde(remote = "Self", rename_all = ...)]`
//! (externally tagged, as inherent functions) and `internally_tagged!(Type, "kind");`.

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, VariantAccess, Visitor};
use serde::ser::{self, Impossible, SerializeStruct, SerializeStructVariant, Serializer};

/// `Serialize` and `Deserialize` of an enum derived with `#[serde(remote = "Self")]`, as an
/// internally tagged enum whose tag is the key `$tag`.
macro_rules! internally_tagged {
    ($ty:ty, $tag:literal) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                <$ty>::serialize(
                    self,
                    $crate::tagged::Tagging {
                        inner: s,
                        tag: $tag,
                    },
                )
            }
        }
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                <$ty>::deserialize($crate::tagged::Tagging {
                    inner: d,
                    tag: $tag,
                })
            }
        }
    };
}
pub(crate) use internally_tagged;

/// A serializer or deserializer that turns the externally tagged form the derive writes and
/// reads into the internally tagged one, with `tag` as the tag's key.
pub(crate) struct Tagging<T> {
    pub inner: T,
    pub tag: &'static str,
}

impl<'de, D: de::Deserializer<'de>> de::Deserializer<'de> for Tagging<D> {
    type Error = D::Error;

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_map(Object {
            visitor,
            tag: self.tag,
        })
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, D::Error> {
        Err(de::Error::custom(
            "an internally tagged enum is read as one",
        ))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

/// The object of one variant: its tag, then its fields.
struct Object<V> {
    visitor: V,
    tag: &'static str,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Object<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "an object with a `{}` key", self.tag)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<V::Value, A::Error> {
        match map.next_key_seed(Key(self.tag))? {
            Some(None) => self.visitor.visit_enum(TagFirst(map)),
            Some(Some(first)) => {
                // The tag comes later: read the object whole, then the variant from it.
                let mut object = serde_json::Map::new();
                object.insert(first, map.next_value()?);
                while let Some((k, v)) = map.next_entry::<String, serde_json::Value>()? {
                    object.insert(k, v);
                }
                let tag = match object.remove(self.tag) {
                    Some(serde_json::Value::String(t)) => t,
                    _ => return Err(de::Error::missing_field(self.tag)),
                };
                self.visitor.visit_enum(Buffered {
                    tag,
                    object,
                    error: std::marker::PhantomData,
                })
            }
            None => Err(de::Error::missing_field(self.tag)),
        }
    }
}

/// Reads a key: `None` when it is the tag, else the key.
struct Key(&'static str);

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Option<String>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for Key {
    type Value = Option<String>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok((key != self.0).then(|| key.to_string()))
    }
}

/// The rest of an object whose tag was its first key: the variant is the tag's value, its
/// fields the keys after it.
struct TagFirst<A>(A);

impl<'de, A: MapAccess<'de>> EnumAccess<'de> for TagFirst<A> {
    type Error = A::Error;
    type Variant = Self;
    fn variant_seed<S: DeserializeSeed<'de>>(
        mut self,
        seed: S,
    ) -> Result<(S::Value, Self), A::Error> {
        let variant = self.0.next_value_seed(seed)?;
        Ok((variant, self))
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for TagFirst<A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        // Other keys beside the tag are ignored, as serde's derive ignores them.
        while self.0.next_key::<de::IgnoredAny>()?.is_some() {
            self.0.next_value::<de::IgnoredAny>()?;
        }
        Ok(())
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(self.0)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _seed: S) -> Result<S::Value, A::Error> {
        Err(de::Error::custom(
            "no newtype variant is internally tagged here",
        ))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _v: V) -> Result<V::Value, A::Error> {
        Err(de::Error::custom(
            "no tuple variant is internally tagged here",
        ))
    }
}

/// An object read whole: its tag and the other keys.
struct Buffered<E> {
    tag: String,
    object: serde_json::Map<String, serde_json::Value>,
    error: std::marker::PhantomData<E>,
}

impl<'de, E: de::Error> EnumAccess<'de> for Buffered<E> {
    type Error = E;
    type Variant = Self;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), E> {
        use de::IntoDeserializer;
        let variant = seed.deserialize(self.tag.as_str().into_deserializer())?;
        Ok((variant, self))
    }
}

impl<'de, E: de::Error> VariantAccess<'de> for Buffered<E> {
    type Error = E;

    fn unit_variant(self) -> Result<(), E> {
        Ok(())
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        use serde::Deserializer;
        serde_json::Value::Object(self.object)
            .deserialize_map(visitor)
            .map_err(E::custom)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _seed: S) -> Result<S::Value, E> {
        Err(E::custom("no newtype variant is internally tagged here"))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _v: V) -> Result<V::Value, E> {
        Err(E::custom("no tuple variant is internally tagged here"))
    }
}

impl<S: Serializer> Serializer for Tagging<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = Impossible<S::Ok, S::Error>;
    type SerializeMap = Impossible<S::Ok, S::Error>;
    type SerializeStruct = Impossible<S::Ok, S::Error>;
    type SerializeStructVariant = Fields<S::SerializeStruct>;

    /// `{"tag": "variant"}`, as serde's derive writes a unit variant of a tagged enum.
    fn serialize_unit_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        let mut s = self.inner.serialize_struct(name, 1)?;
        s.serialize_field(self.tag, variant)?;
        s.end()
    }

    /// `{"tag": "variant", fields...}`.
    fn serialize_struct_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        let mut s = self.inner.serialize_struct(name, len + 1)?;
        s.serialize_field(self.tag, variant)?;
        Ok(Fields(s))
    }

    fn serialize_bool(self, _: bool) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_i8(self, _: i8) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_i16(self, _: i16) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_i32(self, _: i32) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_i64(self, _: i64) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_u8(self, _: u8) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_u16(self, _: u16) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_u32(self, _: u32) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_u64(self, _: u64) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_f32(self, _: f32) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_f64(self, _: f64) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_char(self, _: char) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_str(self, _: &str) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_some<T: ?Sized + serde::Serialize>(self, _: &T) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_newtype_struct<T: ?Sized + serde::Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_newtype_variant<T: ?Sized + serde::Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        Err(not_a_variant())
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        Err(not_a_variant())
    }
}

fn not_a_variant<E: ser::Error>() -> E {
    E::custom("only unit and struct variants are internally tagged here")
}

/// The fields of a struct variant, written into the object after its tag.
pub(crate) struct Fields<S>(S);

impl<S: SerializeStruct> SerializeStructVariant for Fields<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    fn serialize_field<T: ?Sized + serde::Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), S::Error> {
        self.0.serialize_field(key, value)
    }
    fn skip_field(&mut self, key: &'static str) -> Result<(), S::Error> {
        self.0.skip_field(key)
    }
    fn end(self) -> Result<S::Ok, S::Error> {
        self.0.end()
    }
}

#[cfg(test)]
mod tests {
    use crate::schema::{Expr, PseudoCode, Stmt, Syntax};

    fn expr() -> Expr {
        Expr::Binary {
            op: "+".into(),
            lhs: Box::new(Expr::Name { name: "a".into() }),
            rhs: Box::new(Expr::Int { value: 5 }),
        }
    }

    /// What serde's `#[serde(tag = "kind")]` writes, worked out by hand.
    #[test]
    fn tagged_as_serde_tags_them() {
        let json = serde_json::to_string(&expr()).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"binary","op":"+","lhs":{"kind":"name","name":"a"},"rhs":{"kind":"int","value":5}}"#
        );
        assert_eq!(
            serde_json::to_string(&PseudoCode::Prose).unwrap(),
            r#"{"kind":"prose"}"#
        );
    }

    #[test]
    fn read_back_with_the_tag_first_or_later() {
        let first = r#"{"kind":"binary","op":"+","lhs":{"kind":"name","name":"a"},"rhs":{"kind":"int","value":5}}"#;
        let later = r#"{"op":"+","lhs":{"name":"a","kind":"name"},"rhs":{"value":5,"kind":"int"},"kind":"binary"}"#;
        for json in [first, later] {
            assert_eq!(serde_json::from_str::<Expr>(json).unwrap(), expr());
        }
        let code = PseudoCode::Code {
            body: vec![Stmt::Eval {
                expr: expr(),
                span: crate::testing::span(3),
            }],
        };
        let json = serde_json::to_string(&code).unwrap();
        assert_eq!(serde_json::from_str::<PseudoCode>(&json).unwrap(), code);
        for unit in [
            r#"{"kind":"none"}"#,
            r#"{"x":1,"kind":"none"}"#,
            r#"{"kind":"none","x":1}"#,
        ] {
            assert_eq!(
                serde_json::from_str::<PseudoCode>(unit).unwrap(),
                PseudoCode::None
            );
        }
        let why = r#"{"why":"X.md:3:1","kind":"unreadable"}"#;
        assert_eq!(
            serde_json::from_str::<Syntax>(why).unwrap(),
            Syntax::Unreadable {
                why: "X.md:3:1".into()
            }
        );
    }

    #[test]
    fn objects_that_are_no_variant_are_errors() {
        for bad in [
            r#"{"op":"+"}"#,
            r#"{"kind":"nope","value":1}"#,
            r#"{"kind":"int"}"#,
            r#"{"kind":"int","value":"five"}"#,
            r#"{"value":1,"kind":7}"#,
            r#"[1]"#,
            r#""int""#,
        ] {
            assert!(serde_json::from_str::<Expr>(bad).is_err(), "{bad}");
        }
    }
}
