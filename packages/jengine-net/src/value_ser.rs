//! [`Value`]s made straight from serde types, for [`Value::of`]: the shape
//! `serde_json::to_value` gives, without building serde_json's tree first and copying it.
//!
//! A struct is a map of its fields (in the order the type declares them), an enum's variant
//! with data a map of one entry, a unit variant its name, `None` and `()` nil, bytes a list of
//! numbers, a float that is not finite nil. The bounds are counted as the value is made.

use std::fmt;

use serde::Serialize;
use serde::ser::{self, Impossible};

use crate::value::{MAX_DEPTH, MAX_NODES, Value, ValueError};

/// `v` as a [`Value`], checked against [`MAX_DEPTH`] and [`MAX_NODES`].
pub(crate) fn to_value<T: Serialize + ?Sized>(v: &T) -> Result<Value, ValueError> {
    let mut nodes = 0;
    v.serialize(Ser {
        depth: 0,
        nodes: &mut nodes,
    })
    .map_err(|e| e.0)
}

/// A serde error carrying the [`ValueError`] it stands for.
#[derive(Debug)]
pub(crate) struct Error(ValueError);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(ValueError::Number(msg.to_string()))
    }
}

/// Makes one node at `depth`, counting it against the bounds.
struct Ser<'a> {
    depth: usize,
    nodes: &'a mut usize,
}

impl<'a> Ser<'a> {
    /// Counts this node: refused past the bounds, as `Value::check` would.
    fn count(&mut self) -> Result<(), Error> {
        *self.nodes += 1;
        if *self.nodes > MAX_NODES {
            return Err(Error(ValueError::TooBig));
        }
        if self.depth > MAX_DEPTH {
            return Err(Error(ValueError::TooDeep));
        }
        Ok(())
    }

    /// The serializer of a child of this node.
    fn child(&mut self) -> Ser<'_> {
        Ser {
            depth: self.depth + 1,
            nodes: self.nodes,
        }
    }

    fn int(mut self, n: i128) -> Result<Value, Error> {
        self.count()?;
        i64::try_from(n)
            .map(Value::Int)
            .map_err(|_| Error(ValueError::Number(n.to_string())))
    }

    fn float(mut self, f: f64) -> Result<Value, Error> {
        self.count()?;
        Ok(if f.is_finite() {
            Value::Float(f)
        } else {
            Value::Nil
        })
    }

    fn leaf(mut self, v: Value) -> Result<Value, Error> {
        self.count()?;
        Ok(v)
    }

    /// `{variant: inner}`, the inner value made by `inner` one level down.
    fn variant(
        mut self,
        variant: &str,
        inner: impl FnOnce(Ser<'_>) -> Result<Value, Error>,
    ) -> Result<Value, Error> {
        self.count()?;
        let value = inner(self.child())?;
        Ok(Value::Map(vec![(variant.to_string(), value)]))
    }
}

/// Items of a list (or of a variant's list) as they are made.
struct Seq<'a> {
    ser: Ser<'a>,
    items: Vec<Value>,
    /// The variant the list is wrapped in, if any.
    variant: Option<&'static str>,
}

impl<'a> Seq<'a> {
    fn start(mut ser: Ser<'a>, len: usize, variant: Option<&'static str>) -> Result<Self, Error> {
        if variant.is_some() {
            ser.count()?;
            ser.depth += 1;
        }
        ser.count()?;
        Ok(Seq {
            ser,
            items: Vec::with_capacity(len.min(4096)),
            variant,
        })
    }

    fn push<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let item = v.serialize(self.ser.child())?;
        self.items.push(item);
        Ok(())
    }

    fn finish(self) -> Value {
        let list = Value::List(self.items);
        match self.variant {
            Some(name) => Value::Map(vec![(name.to_string(), list)]),
            None => list,
        }
    }
}

/// Entries of a map, a struct or a variant's struct as they are made.
struct Entries<'a> {
    ser: Ser<'a>,
    entries: Vec<(String, Value)>,
    key: Option<String>,
    variant: Option<&'static str>,
}

impl<'a> Entries<'a> {
    fn start(mut ser: Ser<'a>, len: usize, variant: Option<&'static str>) -> Result<Self, Error> {
        if variant.is_some() {
            ser.count()?;
            ser.depth += 1;
        }
        ser.count()?;
        Ok(Entries {
            ser,
            entries: Vec::with_capacity(len.min(4096)),
            key: None,
            variant,
        })
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) -> Result<(), Error> {
        let value = v.serialize(self.ser.child())?;
        self.entries.push((key.to_string(), value));
        Ok(())
    }

    fn finish(self) -> Value {
        let map = Value::Map(self.entries);
        match self.variant {
            Some(name) => Value::Map(vec![(name.to_string(), map)]),
            None => map,
        }
    }
}

impl<'a> ser::Serializer for Ser<'a> {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = Seq<'a>;
    type SerializeTuple = Seq<'a>;
    type SerializeTupleStruct = Seq<'a>;
    type SerializeTupleVariant = Seq<'a>;
    type SerializeMap = Entries<'a>;
    type SerializeStruct = Entries<'a>;
    type SerializeStructVariant = Entries<'a>;

    fn serialize_bool(self, v: bool) -> Result<Value, Error> {
        self.leaf(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, Error> {
        self.int(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<Value, Error> {
        self.int(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<Value, Error> {
        self.int(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<Value, Error> {
        self.int(v.into())
    }
    fn serialize_i128(self, v: i128) -> Result<Value, Error> {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> Result<Value, Error> {
        self.int(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<Value, Error> {
        self.int(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<Value, Error> {
        self.int(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<Value, Error> {
        self.int(v.into())
    }
    fn serialize_u128(self, v: u128) -> Result<Value, Error> {
        match i128::try_from(v) {
            Ok(n) => self.int(n),
            Err(_) => Err(Error(ValueError::Number(v.to_string()))),
        }
    }
    fn serialize_f32(self, v: f32) -> Result<Value, Error> {
        self.float(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<Value, Error> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Result<Value, Error> {
        self.leaf(Value::Str(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, Error> {
        self.leaf(Value::Str(v.to_string()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, Error> {
        let mut seq = Seq::start(self, v.len(), None)?;
        for b in v {
            seq.push(b)?;
        }
        Ok(seq.finish())
    }
    fn serialize_none(self) -> Result<Value, Error> {
        self.leaf(Value::Nil)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Value, Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, Error> {
        self.leaf(Value::Nil)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Value, Error> {
        self.leaf(Value::Nil)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Value, Error> {
        self.leaf(Value::Str(variant.to_string()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Value, Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Value, Error> {
        self.variant(variant, |inner| v.serialize(inner))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'a>, Error> {
        Seq::start(self, len.unwrap_or(0), None)
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'a>, Error> {
        Seq::start(self, len, None)
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Seq<'a>, Error> {
        Seq::start(self, len, None)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Seq<'a>, Error> {
        Seq::start(self, len, Some(variant))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Entries<'a>, Error> {
        Entries::start(self, len.unwrap_or(0), None)
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Entries<'a>, Error> {
        Entries::start(self, len, None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Entries<'a>, Error> {
        Entries::start(self, len, Some(variant))
    }
}

impl ser::SerializeSeq for Seq<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.push(v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeTuple for Seq<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.push(v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleStruct for Seq<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.push(v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleVariant for Seq<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.push(v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeMap for Entries<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(key.serialize(Key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let key = self.key.take().unwrap_or_default();
        self.field(&key, v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeStruct for Entries<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.field(key, v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeStructVariant for Entries<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.field(key, v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

/// A map's key as text, as JSON has it: strings, characters, numbers, booleans and unit
/// variants; anything else is refused.
struct Key;

fn not_a_key() -> Error {
    Error(ValueError::Number("a map key that is not text".into()))
}

impl ser::Serializer for Key {
    type Ok = String;
    type Error = Error;
    type SerializeSeq = Impossible<String, Error>;
    type SerializeTuple = Impossible<String, Error>;
    type SerializeTupleStruct = Impossible<String, Error>;
    type SerializeTupleVariant = Impossible<String, Error>;
    type SerializeMap = Impossible<String, Error>;
    type SerializeStruct = Impossible<String, Error>;
    type SerializeStructVariant = Impossible<String, Error>;

    fn serialize_bool(self, v: bool) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, _: f32) -> Result<String, Error> {
        Err(not_a_key())
    }
    fn serialize_f64(self, _: f64) -> Result<String, Error> {
        Err(not_a_key())
    }
    fn serialize_char(self, v: char) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, Error> {
        Err(not_a_key())
    }
    fn serialize_none(self) -> Result<String, Error> {
        Err(not_a_key())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, Error> {
        Err(not_a_key())
    }
    fn serialize_unit(self) -> Result<String, Error> {
        Err(not_a_key())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Error> {
        Err(not_a_key())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, Error> {
        Ok(variant.to_string())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<String, Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Error> {
        Err(not_a_key())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(not_a_key())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(not_a_key())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(not_a_key())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(not_a_key())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(not_a_key())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Error> {
        Err(not_a_key())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(not_a_key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    /// The long way round, which `Value::of` took before: through serde_json's tree.
    fn via_json<T: Serialize>(v: &T) -> Result<Value, ValueError> {
        let json = serde_json::to_value(v).map_err(|e| ValueError::Number(e.to_string()))?;
        Value::from_json(&json)
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Pos {
        x: u8,
        y: u8,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Wrapped(u32);

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Face {
        A,
        Small(char),
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Msg {
        Hello {
            version: u32,
            name: String,
        },
        Queue,
        Place {
            slot: usize,
            pos: Pos,
            face: Face,
            at: Option<f32>,
        },
        Pair(i64, bool),
        Wrap(Wrapped),
        Many {
            cells: Vec<(u8, u8)>,
            scores: BTreeMap<String, u64>,
            by_seat: BTreeMap<u8, String>,
            hands: [Vec<Face>; 2],
            clock: f64,
            blob: Vec<u8>,
            nothing: (),
        },
    }

    fn any_msg() -> impl Strategy<Value = Msg> {
        let face = prop_oneof![Just(Face::A), any::<char>().prop_map(Face::Small)];
        prop_oneof![
            (any::<u32>(), ".{0,12}").prop_map(|(version, name)| Msg::Hello { version, name }),
            Just(Msg::Queue),
            (
                any::<usize>(),
                any::<(u8, u8)>(),
                face.clone(),
                any::<Option<f32>>()
            )
                .prop_map(|(slot, (x, y), face, at)| Msg::Place {
                    slot,
                    pos: Pos { x, y },
                    face,
                    at
                }),
            (any::<i64>(), any::<bool>()).prop_map(|(a, b)| Msg::Pair(a, b)),
            any::<u32>().prop_map(|n| Msg::Wrap(Wrapped(n))),
            (
                prop::collection::vec(any::<(u8, u8)>(), 0..6),
                prop::collection::btree_map(".{0,5}", any::<u64>(), 0..4),
                prop::collection::btree_map(any::<u8>(), ".{0,5}", 0..4),
                [
                    prop::collection::vec(face.clone(), 0..4),
                    prop::collection::vec(face, 0..4)
                ],
                any::<f64>(),
                prop::collection::vec(any::<u8>(), 0..8),
            )
                .prop_map(|(cells, scores, by_seat, hands, clock, blob)| Msg::Many {
                    cells,
                    scores,
                    by_seat,
                    hands,
                    clock,
                    blob,
                    nothing: (),
                }),
        ]
    }

    #[test]
    fn the_bounds_are_kept_while_making() {
        let mut deep = serde_json::Value::Null;
        for _ in 0..=MAX_DEPTH {
            deep = serde_json::Value::Array(vec![deep]);
        }
        assert_eq!(to_value(&deep), Err(ValueError::TooDeep));
        assert_eq!(to_value(&vec![0u8; MAX_NODES]), Err(ValueError::TooBig));
        assert!(to_value(&u64::MAX).is_err());
        assert_eq!(to_value(&f64::NAN), Ok(Value::Nil));
        assert_eq!(to_value(&(i64::MAX as u64)), Ok(Value::Int(i64::MAX)));
    }

    proptest! {
        /// Field for field what the way through serde_json made (JSON maps compare as sets of
        /// entries), and it reads back as the message.
        #[test]
        fn the_same_value_as_through_json(msg in any_msg()) {
            let direct = to_value(&msg);
            let long = via_json(&msg);
            prop_assert_eq!(direct.as_ref().map(Value::to_json), long.as_ref().map(Value::to_json));
            if let Ok(v) = direct {
                prop_assert!(v.check().is_ok());
                let finite = match &msg {
                    Msg::Place { at, .. } => at.is_none_or(f32::is_finite),
                    Msg::Many { clock, .. } => clock.is_finite(),
                    _ => true,
                };
                if finite {
                    prop_assert_eq!(v.read::<Msg>().unwrap(), msg);
                }
            }
        }
    }
}
