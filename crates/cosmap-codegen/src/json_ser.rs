//! [`to_json`]: a serde `Serializer` whose output is a [`Json`], for [`Json::of`].
//!
//! `Json::of` used to print a value with `serde_json` and parse the text back (the
//! Bicep resource of each container: ≈ 45 M instructions on the 1,000-aggregate
//! model). This builds the same `Json` directly for the shapes that round trip
//! exactly: strings, integers up to 64 bits, booleans, nulls, sequences, structs and
//! maps with string keys. For anything else (a float, whose parse `serde_json` does
//! not promise to round trip; a 128-bit integer; a map key that is not a string;
//! `serde_json`'s private raw-value and number tokens; nesting deeper than
//! [`MAX_DEPTH`], where `serde_json`'s parser stops) it answers [`Unsupported`], and
//! `Json::of` takes the textual path, so its result and its errors stay the old ones.

use std::borrow::Cow;
use std::fmt;

use serde::ser::{self, Serialize};

use crate::json::Json;

/// Deepest nesting built directly: `serde_json`'s parser refuses more than 128
/// levels, so a value near that takes the textual path, which decides as before.
const MAX_DEPTH: usize = 100;

/// `value` as a [`Json`], built by serde without text; [`Unsupported`] for what
/// only the textual path reproduces exactly (see the module's doc).
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<Json, Unsupported> {
    value.serialize(ValueSerializer { depth: 0 })
}

/// The value (or one of its parts) is not built directly: take the textual path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unsupported;

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("not built directly")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Unsupported
    }
}

/// Serialises one value `depth` levels into the whole.
#[derive(Clone, Copy)]
struct ValueSerializer {
    depth: usize,
}

impl ValueSerializer {
    /// The serializer of a compound's parts, or [`Unsupported`] past [`MAX_DEPTH`].
    fn nested(self) -> Result<ValueSerializer, Unsupported> {
        if self.depth >= MAX_DEPTH {
            return Err(Unsupported);
        }
        Ok(ValueSerializer { depth: self.depth + 1 })
    }
}

/// `{variant: value}`, as `serde_json` writes an enum variant with contents.
fn tagged(variant: &'static str, value: Json) -> Json {
    Json::Object(vec![(Cow::Borrowed(variant), value)])
}

impl ser::Serializer for ValueSerializer {
    type Ok = Json;
    type Error = Unsupported;
    type SerializeSeq = Items;
    type SerializeTuple = Items;
    type SerializeTupleStruct = Items;
    type SerializeTupleVariant = Items;
    type SerializeMap = Members;
    type SerializeStruct = Members;
    type SerializeStructVariant = Members;

    fn serialize_bool(self, v: bool) -> Result<Json, Unsupported> {
        Ok(Json::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> Result<Json, Unsupported> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<Json, Unsupported> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<Json, Unsupported> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<Json, Unsupported> {
        // The text of a non-negative integer parses back as a `u64`.
        Ok(Json::Number(match u64::try_from(v) {
            Ok(u) => u.into(),
            Err(_) => v.into(),
        }))
    }

    fn serialize_u8(self, v: u8) -> Result<Json, Unsupported> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<Json, Unsupported> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<Json, Unsupported> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u64(self, v: u64) -> Result<Json, Unsupported> {
        Ok(Json::Number(v.into()))
    }

    fn serialize_i128(self, _: i128) -> Result<Json, Unsupported> {
        Err(Unsupported)
    }

    fn serialize_u128(self, _: u128) -> Result<Json, Unsupported> {
        Err(Unsupported)
    }

    fn serialize_f32(self, _: f32) -> Result<Json, Unsupported> {
        Err(Unsupported)
    }

    fn serialize_f64(self, _: f64) -> Result<Json, Unsupported> {
        Err(Unsupported)
    }

    fn serialize_char(self, v: char) -> Result<Json, Unsupported> {
        Ok(Json::String(Cow::Owned(v.to_string())))
    }

    fn serialize_str(self, v: &str) -> Result<Json, Unsupported> {
        Ok(Json::String(Cow::Owned(v.to_string())))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<Json, Unsupported> {
        // `serde_json` writes bytes as an array of numbers.
        self.nested()?;
        Ok(Json::Array(v.iter().map(|&b| Json::Number(b.into())).collect()))
    }

    fn serialize_none(self) -> Result<Json, Unsupported> {
        Ok(Json::Null)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Json, Unsupported> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Json, Unsupported> {
        Ok(Json::Null)
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<Json, Unsupported> {
        Ok(Json::Null)
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Json, Unsupported> {
        Ok(Json::String(Cow::Borrowed(variant)))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<Json, Unsupported> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Json, Unsupported> {
        Ok(tagged(variant, value.serialize(self.nested()?)?))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Items, Unsupported> {
        Items::new(self, len, None)
    }

    fn serialize_tuple(self, len: usize) -> Result<Items, Unsupported> {
        Items::new(self, Some(len), None)
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Items, Unsupported> {
        Items::new(self, Some(len), None)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Items, Unsupported> {
        // The array sits one level further in, under the variant's key.
        Items::new(self.nested()?, Some(len), Some(variant))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Members, Unsupported> {
        Members::new(self, len, None)
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Members, Unsupported> {
        // `serde_json`'s raw values and arbitrary-precision numbers are structs so named.
        if name.starts_with("$serde_json") {
            return Err(Unsupported);
        }
        Members::new(self, Some(len), None)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Members, Unsupported> {
        Members::new(self.nested()?, Some(len), Some(variant))
    }
}

/// An array being built; under `variant`'s key when a tuple variant's.
struct Items {
    inner: ValueSerializer,
    items: Vec<Json>,
    variant: Option<&'static str>,
}

impl Items {
    /// An empty array whose items serialise one level below `at`.
    fn new(at: ValueSerializer, len: Option<usize>, variant: Option<&'static str>) -> Result<Items, Unsupported> {
        Ok(Items {
            inner: at.nested()?,
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            variant,
        })
    }

    /// Adds `value` last.
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.items.push(value.serialize(self.inner)?);
        Ok(())
    }

    /// The array, tagged with its variant if any.
    fn done(self) -> Json {
        let array = Json::Array(self.items);
        match self.variant {
            Some(variant) => tagged(variant, array),
            None => array,
        }
    }
}

/// serde's four kinds of sequence (a sequence, a tuple, a tuple struct, a tuple
/// variant) are built alike: each element pushed onto the array.
macro_rules! items_of {
    ($($kind:ident :: $element:ident),+) => {$(
        impl ser::$kind for Items {
            type Ok = Json;
            type Error = Unsupported;

            fn $element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
                self.push(value)
            }

            fn end(self) -> Result<Json, Unsupported> {
                Ok(self.done())
            }
        }
    )+};
}

items_of!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// An object being built, its members in the order they come (a repeated key kept
/// twice, as the textual path's parse keeps it); under `variant`'s key when a struct
/// variant's.
struct Members {
    inner: ValueSerializer,
    members: Vec<(Cow<'static, str>, Json)>,
    key: Option<String>,
    variant: Option<&'static str>,
}

impl Members {
    /// An empty object whose members serialise one level below `at`.
    fn new(at: ValueSerializer, len: Option<usize>, variant: Option<&'static str>) -> Result<Members, Unsupported> {
        Ok(Members {
            inner: at.nested()?,
            members: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            key: None,
            variant,
        })
    }

    /// Adds member `key` last. The key is owned, as the textual path's parse makes it.
    fn push<T: Serialize + ?Sized>(&mut self, key: String, value: &T) -> Result<(), Unsupported> {
        let value = value.serialize(self.inner)?;
        self.members.push((Cow::Owned(key), value));
        Ok(())
    }

    /// The object, tagged with its variant if any.
    fn done(self) -> Json {
        let object = Json::Object(self.members);
        match self.variant {
            Some(variant) => tagged(variant, object),
            None => object,
        }
    }
}

impl ser::SerializeMap for Members {
    type Ok = Json;
    type Error = Unsupported;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        self.key = Some(key.serialize(KeySerializer)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        let key = self.key.take().ok_or(Unsupported)?;
        self.push(key, value)
    }

    fn end(self) -> Result<Json, Unsupported> {
        Ok(self.done())
    }
}

/// serde's two kinds of struct (a struct, a struct variant) are built alike: each
/// field a member, in order.
macro_rules! members_of {
    ($($kind:ident),+) => {$(
        impl ser::$kind for Members {
            type Ok = Json;
            type Error = Unsupported;

            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unsupported> {
                self.push(key.to_string(), value)
            }

            fn end(self) -> Result<Json, Unsupported> {
                Ok(self.done())
            }
        }
    )+};
}

members_of!(SerializeStruct, SerializeStructVariant);

/// A map key: a string (or a `char`, or a newtype around one); anything else, which
/// `serde_json` turns into a string its own way or refuses, is [`Unsupported`].
struct KeySerializer;

/// Every other kind of key: [`Unsupported`].
macro_rules! unsupported_keys {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ret, Unsupported> {
            Err(Unsupported)
        })*
    };
}

impl ser::Serializer for KeySerializer {
    type Ok = String;
    type Error = Unsupported;
    type SerializeSeq = ser::Impossible<String, Unsupported>;
    type SerializeTuple = ser::Impossible<String, Unsupported>;
    type SerializeTupleStruct = ser::Impossible<String, Unsupported>;
    type SerializeTupleVariant = ser::Impossible<String, Unsupported>;
    type SerializeMap = ser::Impossible<String, Unsupported>;
    type SerializeStruct = ser::Impossible<String, Unsupported>;
    type SerializeStructVariant = ser::Impossible<String, Unsupported>;

    fn serialize_str(self, v: &str) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }

    fn serialize_char(self, v: char) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, Unsupported> {
        value.serialize(self)
    }

    unsupported_keys! {
        serialize_bool(bool) -> String;
        serialize_i8(i8) -> String;
        serialize_i16(i16) -> String;
        serialize_i32(i32) -> String;
        serialize_i64(i64) -> String;
        serialize_u8(u8) -> String;
        serialize_u16(u16) -> String;
        serialize_u32(u32) -> String;
        serialize_u64(u64) -> String;
        serialize_f32(f32) -> String;
        serialize_f64(f64) -> String;
        serialize_bytes(&[u8]) -> String;
        serialize_none() -> String;
        serialize_unit() -> String;
        serialize_unit_struct(&'static str) -> String;
        serialize_unit_variant(&'static str, u32, &'static str) -> String;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, Unsupported> {
        Err(Unsupported)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Unsupported> {
        Err(Unsupported)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::*;

    /// The old `Json::of`: print with `serde_json`, parse back.
    fn textual<T: Serialize>(value: &T) -> Result<Json, serde_json::Error> {
        serde_json::from_str(&serde_json::to_string(value)?)
    }

    /// Asserts the direct build is the textual one, and that `Json::of` is too.
    fn same<T: Serialize>(value: &T) {
        let old = textual(value).expect("the textual path accepts it");
        assert_eq!(to_json(value), Ok(old.clone()));
        assert_eq!(Json::of(value).expect("accepted"), old);
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Resource {
        id: String,
        partition_key: Key,
        #[serde(skip_serializing_if = "Option::is_none")]
        default_ttl: Option<i64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        absent: Option<u8>,
        nothing: Option<u8>,
        flags: (bool, bool),
        kinds: Vec<Kind>,
        unit: (),
        empty: Vec<u8>,
        letter: char,
        wrapped: Wrapped,
        map: BTreeMap<String, i32>,
    }

    #[derive(Serialize)]
    struct Key {
        paths: Vec<&'static str>,
        kind: &'static str,
        version: u8,
    }

    #[derive(Serialize)]
    struct Wrapped(u16);

    #[derive(Serialize)]
    enum Kind {
        Hash,
        Range(i8),
        Pair(u8, String),
        Spatial { x: i32 },
    }

    /// A container definition's shapes, escapes and negative numbers included, are
    /// built as printing and parsing built them.
    #[test]
    fn builds_what_the_textual_path_built() {
        let map = BTreeMap::from([("b \"q\"\n".to_string(), -1), ("a".to_string(), 7)]);
        same(&Resource {
            id: "Or'der ${x} \\ é 😀 \u{1}".to_string(),
            partition_key: Key {
                paths: vec!["/a", "/\"_etag\"/?"],
                kind: "Hash",
                version: 2,
            },
            default_ttl: Some(-1),
            absent: None,
            nothing: None,
            flags: (true, false),
            kinds: vec![
                Kind::Hash,
                Kind::Range(-3),
                Kind::Pair(4, "x".to_string()),
                Kind::Spatial { x: i32::MIN },
            ],
            unit: (),
            empty: vec![],
            letter: 'ß',
            wrapped: Wrapped(65535),
            map,
        });
        same(&(u64::MAX, i64::MIN, i64::MAX, 0u8));
        same(&serde_json::json!({"z": [1, {"y": null}], "a": "b"}));
    }

    /// Floats, wide integers, non-string keys and deep nesting take the textual
    /// path, whose result `Json::of` gives.
    #[test]
    fn the_rest_is_left_to_the_textual_path() {
        assert_eq!(to_json(&0.1f32), Err(Unsupported));
        assert_eq!(Json::of(&0.1f32).ok(), textual(&0.1f32).ok());
        assert_eq!(to_json(&vec![1.5f64]), Err(Unsupported));
        assert_eq!(to_json(&1u128), Err(Unsupported));
        assert_eq!(Json::of(&1u128).ok(), textual(&1u128).ok());
        let keyed = BTreeMap::from([(1u8, "one"), (2, "two")]);
        assert_eq!(to_json(&keyed), Err(Unsupported));
        assert_eq!(Json::of(&keyed).ok(), textual(&keyed).ok());
        assert_eq!(to_json(&BTreeMap::from([(true, 1)])), Err(Unsupported));
        // serde_json's parser refuses past 128 levels: so does `Json::of`, as before.
        let deep = (0..200).fold(serde_json::json!(1), |inner, _| serde_json::json!([inner]));
        assert_eq!(to_json(&deep), Err(Unsupported));
        assert!(Json::of(&deep).is_err());
        assert!(textual(&deep).is_err());
        let shallow = (0..90).fold(serde_json::json!(1), |inner, _| serde_json::json!({"a": [inner]}));
        assert_eq!(to_json(&shallow), Err(Unsupported));
        let shallower = (0..45).fold(serde_json::json!(1), |inner, _| serde_json::json!({"a": [inner]}));
        same(&shallower);
    }

    /// An error of the value's own `Serialize` is the textual path's error.
    #[test]
    fn a_failing_value_fails_as_before() {
        struct Fails;
        impl Serialize for Fails {
            fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("no"))
            }
        }
        assert_eq!(to_json(&Fails), Err(Unsupported));
        let err = Json::of(&vec![Fails]).unwrap_err();
        assert_eq!(err.to_string(), textual(&vec![Fails]).unwrap_err().to_string());
    }
}
