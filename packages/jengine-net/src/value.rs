//! Frames whose shape is decided at run time: what a script sends with `Online.send` and reads
//! back, and what a server for scripts speaks. A [`Value`] is a small self-describing tree
//! (postcard needs a tag per node, which a JSON value cannot give it), bounded in depth and
//! size, and converts both ways with `serde_json::Value`, so a typed protocol (a game's own
//! serde enums) travels as the same frames: `serde_json::to_value(msg)` into a [`Value`] on one
//! end, `serde_json::from_value` out of it on the other.

use std::cell::Cell;

use serde::{Deserialize, Deserializer, Serialize};

/// The deepest a [`Value`] may nest (lists and maps count a level each).
pub const MAX_DEPTH: usize = 32;
/// The most nodes a [`Value`] may hold in all.
pub const MAX_NODES: usize = 100_000;

/// A dynamic frame: JSON's shape, with integers kept apart from floats. Decoding counts how
/// deep it has gone, so a hostile frame of nested lists ends in an error, not a blown stack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Value {
    /// Nothing.
    Nil,
    /// A boolean.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number with a fraction (never NaN or infinite).
    Float(f64),
    /// Text.
    Str(String),
    /// A list.
    List(Vec<Value>),
    /// Keys to values, in order.
    Map(Vec<(String, Value)>),
}

/// What `Value`'s serialized form decodes through: the same variants in the same order.
#[derive(Deserialize)]
#[serde(rename = "Value")]
enum Repr {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Value>),
    Map(Vec<(String, Value)>),
}

thread_local! {
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// One level of decoding, given back however the level ends.
struct Level;

impl Drop for Level {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        let depth = DEPTH.with(|c| {
            c.set(c.get() + 1);
            c.get()
        });
        let _level = Level;
        if depth > MAX_DEPTH + 1 {
            return Err(serde::de::Error::custom(ValueError::TooDeep));
        }
        Ok(match Repr::deserialize(d)? {
            Repr::Nil => Value::Nil,
            Repr::Bool(b) => Value::Bool(b),
            Repr::Int(i) => Value::Int(i),
            Repr::Float(f) => Value::Float(f),
            Repr::Str(s) => Value::Str(s),
            Repr::List(items) => Value::List(items),
            Repr::Map(entries) => Value::Map(entries),
        })
    }
}

/// Why a value cannot be a frame.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// Nested deeper than [`MAX_DEPTH`].
    #[error("the value nests deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// More than [`MAX_NODES`] nodes.
    #[error("the value has more than {MAX_NODES} parts")]
    TooBig,
    /// A number JSON cannot carry (NaN or infinite), or one too large for a whole number.
    #[error("{0} is not a number a frame can carry")]
    Number(String),
}

impl Value {
    /// Checks the bounds a decoded frame must keep before anything reads it.
    pub fn check(&self) -> Result<(), ValueError> {
        fn walk(v: &Value, depth: usize, nodes: &mut usize) -> Result<(), ValueError> {
            *nodes += 1;
            if *nodes > MAX_NODES {
                return Err(ValueError::TooBig);
            }
            if depth > MAX_DEPTH {
                return Err(ValueError::TooDeep);
            }
            match v {
                Value::Float(f) if !f.is_finite() => Err(ValueError::Number(f.to_string())),
                Value::List(items) => items.iter().try_for_each(|i| walk(i, depth + 1, nodes)),
                Value::Map(entries) => entries
                    .iter()
                    .try_for_each(|(_, i)| walk(i, depth + 1, nodes)),
                _ => Ok(()),
            }
        }
        walk(self, 0, &mut 0)
    }

    /// From JSON, checking the same bounds.
    pub fn from_json(json: &serde_json::Value) -> Result<Value, ValueError> {
        fn walk(
            j: &serde_json::Value,
            depth: usize,
            nodes: &mut usize,
        ) -> Result<Value, ValueError> {
            *nodes += 1;
            if *nodes > MAX_NODES {
                return Err(ValueError::TooBig);
            }
            if depth > MAX_DEPTH {
                return Err(ValueError::TooDeep);
            }
            Ok(match j {
                serde_json::Value::Null => Value::Nil,
                serde_json::Value::Bool(b) => Value::Bool(*b),
                serde_json::Value::Number(n) => match (n.as_i64(), n.as_f64()) {
                    (Some(i), _) => Value::Int(i),
                    (None, Some(f)) if n.as_u64().is_none() && f.is_finite() => Value::Float(f),
                    _ => return Err(ValueError::Number(n.to_string())),
                },
                serde_json::Value::String(s) => Value::Str(s.clone()),
                serde_json::Value::Array(items) => Value::List(
                    items
                        .iter()
                        .map(|i| walk(i, depth + 1, nodes))
                        .collect::<Result<_, _>>()?,
                ),
                serde_json::Value::Object(map) => Value::Map(
                    map.iter()
                        .map(|(k, v)| Ok((k.clone(), walk(v, depth + 1, nodes)?)))
                        .collect::<Result<_, ValueError>>()?,
                ),
            })
        }
        walk(json, 0, &mut 0)
    }

    /// To JSON (a map's later duplicate key wins).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Nil => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Int(i) => serde_json::Value::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null),
            Value::Str(s) => serde_json::Value::String(s.clone()),
            Value::List(items) => {
                serde_json::Value::Array(items.iter().map(Value::to_json).collect())
            }
            Value::Map(entries) => serde_json::Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_json()))
                    .collect(),
            ),
        }
    }

    /// Any serde type (a game's typed message) as a frame, in the shape `serde_json::to_value`
    /// gives it (a struct's fields in the order the type declares them), made directly.
    pub fn of<T: Serialize>(msg: &T) -> Result<Value, ValueError> {
        crate::value_ser::to_value(msg)
    }

    /// The frame read as a serde type; the error says what did not fit.
    pub fn read<T: serde::de::DeserializeOwned>(&self) -> Result<T, String> {
        self.check().map_err(|e| e.to_string())?;
        serde_json::from_value(self.to_json()).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Codec;
    use proptest::prelude::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Msg {
        Hello { version: u32, name: String },
        Queue,
        Play { number: u32, cells: Vec<(u8, u8)> },
    }

    #[test]
    fn typed_messages_travel_as_values() {
        let codec = Codec::default();
        for msg in [
            Msg::Hello {
                version: 1,
                name: "たま".into(),
            },
            Msg::Queue,
            Msg::Play {
                number: 7,
                cells: vec![(1, 2), (3, 4)],
            },
        ] {
            let bytes = codec.encode(&Value::of(&msg).unwrap()).unwrap();
            let back: Value = codec.decode(&bytes).unwrap();
            assert_eq!(back.read::<Msg>().unwrap(), msg);
        }
    }

    #[test]
    fn bounds_are_kept() {
        let mut deep = Value::Nil;
        for _ in 0..=MAX_DEPTH {
            deep = Value::List(vec![deep]);
        }
        assert_eq!(deep.check(), Err(ValueError::TooDeep));
        let wide = Value::List(vec![Value::Int(1); MAX_NODES]);
        assert_eq!(wide.check(), Err(ValueError::TooBig));
        assert!(Value::Float(f64::NAN).check().is_err());
        assert!(Value::from_json(&serde_json::json!(u64::MAX)).is_err());
        assert!(Value::Map(vec![]).read::<Msg>().is_err());
    }

    #[test]
    fn a_frame_of_nested_lists_is_refused_not_overflowed() {
        let mut bytes = vec![Codec::default().version];
        for _ in 0..30_000 {
            bytes.extend([5, 1]); // List, of one
        }
        bytes.push(0); // Nil
        assert!(Codec::default().decode::<Value>(&bytes).is_err());
        // And the counter is back at rest: a good frame decodes after.
        let good = Codec::default()
            .encode(&Value::List(vec![Value::Int(1)]))
            .unwrap();
        assert!(Codec::default().decode::<Value>(&good).is_ok());
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            if let Ok(v) = Codec::default().decode::<Value>(&bytes) {
                let _ = v.check();
                let _ = v.read::<Msg>();
            }
        }
    }
}
