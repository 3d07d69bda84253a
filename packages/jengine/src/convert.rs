//! Values crossing between Rust, JSON and Lua, each way bounded.
//!
//! Rust to Lua goes through serde (`None` is `nil`, structs are tables). Lua to Rust is
//! walked by hand so that a script's table can never cost the host more than it was allowed:
//! depth, size and kinds are checked on the way, and a cycle is a depth error, not a hang.

use mlua::{Lua, LuaSerdeExt};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::value::Value;
use crate::world::cut;

/// How deep a table from a script may nest.
pub const MAX_DEPTH: usize = 64;

/// Serializes `value` into a Lua value the way bags and components are handed to scripts:
/// `None` becomes `nil` (so `if bag.x == nil` works), structs become tables.
pub fn to_lua<T: Serialize + ?Sized>(lua: &Lua, value: &T) -> mlua::Result<mlua::Value> {
    let options = mlua::serde::SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false);
    lua.to_value_with(value, options)
}

/// Parses JSON text as a `T`; on failure the message names the field path
/// (`hand.tile: invalid type ...`) and no position inside the fragment.
pub fn parse_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    // The plain parse is the fast path; only a failure pays for tracking the field path.
    match serde_json::from_str(text) {
        Ok(v) => Ok(v),
        Err(plain) => {
            let de = &mut serde_json::Deserializer::from_str(text);
            Err(match serde_path_to_error::deserialize::<_, T>(de) {
                Err(e) => without_fragment_position(crate::table::describe_path_error(&e)),
                Ok(_) => without_fragment_position(plain.to_string()),
            })
        }
    }
}

/// serde_json ends messages with " at line L column C", which inside one component's value
/// points into the fragment, not the file; the entity and key say where instead.
pub(crate) fn without_fragment_position(message: String) -> String {
    match message.rfind(" at line ") {
        Some(at) if message[at..].contains(" column ") => message[..at].to_string(),
        _ => message,
    }
}

/// The message of a Lua error without Rust-side wrapping or the traceback, cut to
/// [`crate::world::MAX_MESSAGE`] bytes.
pub fn describe_lua_error(err: &mlua::Error) -> String {
    let full = match err {
        mlua::Error::CallbackError { cause, .. } => return describe_lua_error(cause),
        mlua::Error::WithContext { cause, .. } => return describe_lua_error(cause),
        mlua::Error::RuntimeError(m) | mlua::Error::MemoryError(m) => {
            m.split("\nstack traceback:").next().unwrap_or(m)
        }
        mlua::Error::SyntaxError { message, .. } => message,
        mlua::Error::ExternalError(e) => return cut(e.to_string()),
        other => return cut(other.to_string()),
    };
    cut(full.to_string())
}

/// Why a script value could not cross to the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConvertError {
    /// A kind commands cannot take (function, userdata, thread).
    Kind(&'static str),
    /// Inside a table: what and where (`fields.x: a function cannot be data`).
    Table(String),
    /// The value is bigger than the bytes left for host copies.
    TooLarge {
        /// The bytes that were left.
        left: usize,
    },
}

/// Reads a Lua value into a [`Value`], spending at most `budget` bytes (decremented by what
/// the copy costs: string bytes, 16 per number, key or table).
pub fn lua_to_value(v: mlua::Value, budget: &mut usize) -> Result<Value, ConvertError> {
    Ok(match v {
        mlua::Value::Nil => Value::Nil,
        mlua::Value::Boolean(b) => Value::Bool(b),
        mlua::Value::Integer(i) => Value::Int(i),
        mlua::Value::Number(n) => Value::Num(n),
        mlua::Value::String(s) => {
            spend(budget, s.as_bytes().len())?;
            Value::Str(s.to_string_lossy())
        }
        mlua::Value::Table(t) => Value::Table(table_to_json(&t, 0, budget, &mut String::new())?),
        other => return Err(ConvertError::Kind(other.type_name())),
    })
}

fn spend(budget: &mut usize, bytes: usize) -> Result<(), ConvertError> {
    let cost = bytes.saturating_add(16);
    if cost > *budget {
        return Err(ConvertError::TooLarge { left: *budget });
    }
    *budget -= cost;
    Ok(())
}

fn table_to_json(
    t: &mlua::Table,
    depth: usize,
    budget: &mut usize,
    path: &mut String,
) -> Result<serde_json::Value, ConvertError> {
    let at = |path: &str, what: String| {
        let place = if path.is_empty() { "the table" } else { path };
        ConvertError::Table(format!("{place}: {what}"))
    };
    if depth >= MAX_DEPTH {
        return Err(at(
            path,
            format!("nests deeper than {MAX_DEPTH} tables (a table inside itself?)"),
        ));
    }
    spend(budget, 0)?;
    let len = t.raw_len();
    let mut pairs = Vec::new();
    let mut sequence = true;
    for pair in t.pairs::<mlua::Value, mlua::Value>() {
        let (k, v) = pair.map_err(|e| at(path, describe_lua_error(&e)))?;
        match &k {
            mlua::Value::Integer(i) if *i >= 1 && (*i as usize) <= len => {}
            _ => sequence = false,
        }
        pairs.push((k, v));
        spend(budget, 0)?;
    }
    let mark = path.len();
    if sequence && pairs.len() == len {
        let mut items = vec![serde_json::Value::Null; len];
        for (k, v) in pairs {
            let i = match k {
                mlua::Value::Integer(i) => i as usize,
                _ => unreachable!("a sequence has only integer keys"),
            };
            path.push_str(&format!("[{i}]"));
            items[i - 1] = item_to_json(v, depth, budget, path)?;
            path.truncate(mark);
        }
        return Ok(serde_json::Value::Array(items));
    }
    let mut map = serde_json::Map::new();
    for (k, v) in pairs {
        let key = match &k {
            mlua::Value::String(s) => s.to_string_lossy(),
            mlua::Value::Integer(i) => i.to_string(),
            mlua::Value::Number(n) if n.is_finite() => n.to_string(),
            other => {
                return Err(at(
                    path,
                    format!("a {} key cannot be data", other.type_name()),
                ));
            }
        };
        spend(budget, key.len())?;
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(&key);
        let value = item_to_json(v, depth, budget, path)?;
        path.truncate(mark);
        map.insert(key, value);
    }
    Ok(serde_json::Value::Object(map))
}

fn item_to_json(
    v: mlua::Value,
    depth: usize,
    budget: &mut usize,
    path: &mut String,
) -> Result<serde_json::Value, ConvertError> {
    Ok(match v {
        mlua::Value::Nil => serde_json::Value::Null,
        mlua::Value::Boolean(b) => serde_json::Value::Bool(b),
        mlua::Value::Integer(i) => {
            spend(budget, 0)?;
            serde_json::Value::from(i)
        }
        mlua::Value::Number(n) => {
            spend(budget, 0)?;
            serde_json::Number::from_f64(n)
                .map(serde_json::Value::Number)
                .ok_or_else(|| ConvertError::Table(format!("{path}: {n} is not a finite number")))?
        }
        mlua::Value::String(s) => {
            spend(budget, s.as_bytes().len())?;
            serde_json::Value::String(s.to_string_lossy())
        }
        mlua::Value::Table(t) => table_to_json(&t, depth + 1, budget, path)?,
        other => {
            return Err(ConvertError::Table(format!(
                "{path}: a {} cannot be data",
                other.type_name()
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lua: &Lua, code: &str, budget: usize) -> Result<Value, ConvertError> {
        let v: mlua::Value = lua.load(code).eval().unwrap();
        lua_to_value(v, &mut { budget })
    }

    #[test]
    fn tables_become_arrays_or_objects() {
        let lua = Lua::new();
        assert_eq!(
            read(&lua, "{1, 2, {x = 'a'}}", 1 << 20).unwrap(),
            Value::Table(serde_json::json!([1, 2, {"x": "a"}]))
        );
        assert_eq!(
            read(&lua, "{}", 1 << 20).unwrap(),
            Value::Table(serde_json::json!([]))
        );
        assert_eq!(
            read(&lua, "{[1] = 'a', [3] = 'c'}", 1 << 20).unwrap(),
            Value::Table(serde_json::json!({"1": "a", "3": "c"}))
        );
    }

    #[test]
    fn cycles_functions_and_size_are_refused_with_a_place() {
        let lua = Lua::new();
        let err = read(&lua, "local t = {}; t.me = t; return t", 1 << 20).unwrap_err();
        assert!(
            matches!(&err, ConvertError::Table(m) if m.contains("nests deeper than 64")),
            "{err:?}"
        );
        let err = read(&lua, "return {a = {b = print}}", 1 << 20).unwrap_err();
        assert_eq!(
            err,
            ConvertError::Table("a.b: a function cannot be data".into())
        );
        let err = read(&lua, "return {0/0}", 1 << 20).unwrap_err();
        assert!(matches!(err, ConvertError::Table(m) if m.starts_with("[1]:")));
        let err = read(&lua, "return string.rep('x', 5000)", 1000).unwrap_err();
        assert_eq!(err, ConvertError::TooLarge { left: 1000 });
        let mut budget = 10_000;
        let v: mlua::Value = lua.load("return {'abc', 'def'}").eval().unwrap();
        lua_to_value(v, &mut budget).unwrap();
        assert!(budget < 10_000 - 6);
    }

    #[test]
    fn long_messages_are_cut_on_a_character_boundary() {
        use crate::world::MAX_MESSAGE;
        let text = "é".repeat(MAX_MESSAGE);
        let out = cut(text);
        assert!(out.len() < MAX_MESSAGE + 40);
        assert!(out.ends_with("more bytes)"));
        assert_eq!(cut("short".into()), "short");
    }
}
