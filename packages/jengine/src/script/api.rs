//! The core API scripts call directly: `Entity.find/get`, `Data.table`, `Save.get/set`,
//! `Audio.clock`, `Game.args`, `Log.info/warn`.
//!
//! These read (or, for `Save` and `Log`, write host-side state) at once instead of queueing.
//! Each starts by raising a pending stop, and every byte it copies out of Lua is spent from
//! the callback's host-copy allowance, so a script cannot grow the host past its limits.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table};

use super::log::{log_line, too_long};
use super::sandbox::Guard;
use super::{StopKind, caller, entity_value, lua_err};
use crate::convert::{ConvertError, lua_to_value, to_lua};
use crate::registry::Registry;
use crate::save::SaveStore;
use crate::table::Tables;
use crate::value::Value;
use crate::world::{Entity, MAX_LOG_LINE, World};

fn no_world(what: &str) -> mlua::Error {
    lua_err(format!("{what}: no world is running"))
}

/// Reads a script value into the host, spending the callback's allowance; `what` names the
/// call and argument for errors (made only when there is one: this is the hot path of every
/// command call).
pub(crate) fn take_value(
    lua: &Lua,
    g: &Guard,
    v: mlua::Value,
    what: impl FnOnce() -> String,
) -> mlua::Result<Value> {
    // Plain values cost nothing to copy but their own bytes; only tables need the walk.
    match v {
        mlua::Value::Nil => return Ok(Value::Nil),
        mlua::Value::Boolean(b) => return Ok(Value::Bool(b)),
        mlua::Value::Integer(i) => return Ok(Value::Int(i)),
        mlua::Value::Number(n) => return Ok(Value::Num(n)),
        _ => {}
    }
    let mut left = g.host_left();
    match lua_to_value(v, &mut left) {
        Ok(value) => {
            g.copy(g.host_left() - left, String::new)?;
            Ok(value)
        }
        Err(ConvertError::TooLarge { .. }) => Err(g.trip(
            StopKind::HostCopies,
            caller(lua).trim_end_matches(": ").to_string(),
        )),
        Err(ConvertError::Kind(kind)) => Err(lua_err(format!(
            "{}{} got {kind}, which cannot cross to the host",
            caller(lua),
            what()
        ))),
        Err(ConvertError::Table(m)) => Err(lua_err(format!("{}{}: {m}", caller(lua), what()))),
    }
}

pub(crate) fn install(
    lua: &Lua,
    bags: Rc<RefCell<Table>>,
    save: Rc<RefCell<SaveStore>>,
) -> mlua::Result<()> {
    let g = lua.globals();
    let entity = lua.create_table()?;
    entity.raw_set(
        "find",
        lua.create_function(|lua, name: mlua::Value| {
            Guard::of(lua)?;
            let name = match name {
                mlua::Value::String(s) => s.to_string_lossy(),
                other => {
                    return Err(lua_err(format!(
                        "{}Entity.find: argument 1 (name) must be a string, got {}",
                        caller(lua),
                        other.type_name()
                    )));
                }
            };
            let world = lua
                .app_data_ref::<World>()
                .ok_or_else(|| no_world("Entity.find"))?;
            Ok(world
                .find(&name)
                .filter(|e| world.entities.get::<&crate::BulkEntity>(*e).is_err())
                .map(entity_value))
        })?,
    )?;
    let cache = bags.borrow().clone();
    let read = lua.create_function(move |lua, (e, key): (mlua::Value, mlua::Value)| {
        Guard::of(lua)?;
        let e = match e {
            mlua::Value::Integer(bits) => Entity::from_bits(bits as u64),
            _ => None,
        }
        .ok_or_else(|| {
            lua_err(format!(
                "{}Entity.get: argument 1 (e) must be an entity, got {}",
                caller(lua),
                e.type_name()
            ))
        })?;
        let key = match key {
            mlua::Value::String(s) => s.to_string_lossy(),
            other => {
                return Err(lua_err(format!(
                    "{}Entity.get: argument 2 (key) must be a string, got {}",
                    caller(lua),
                    other.type_name()
                )));
            }
        };
        // This frame's copy of a bag, made on the first read and kept for the frame.
        let cached = bags.borrow().raw_get::<Option<Table>>(key.as_str())?;
        if let Some(bag) = &cached {
            let found: mlua::Value = bag.raw_get(entity_value(e))?;
            if !found.is_nil() {
                return Ok(found);
            }
        }
        let world = lua
            .app_data_ref::<World>()
            .ok_or_else(|| no_world("Entity.get"))?;
        let registry = lua.app_data_ref::<Rc<Registry>>();
        if let Some(bag) = registry
            .as_deref()
            .and_then(|r| r.bags().iter().find(|b| b.key() == key.as_str()))
            && let Some(value) = bag.read_lua(&world, e, lua)?
        {
            let table = match cached {
                Some(t) => t,
                None => {
                    let t = lua.create_table()?;
                    bags.borrow().raw_set(key.as_str(), &t)?;
                    t
                }
            };
            table.raw_set(entity_value(e), &value)?;
            return Ok(value);
        }
        if let Some(binding) = registry.as_deref().and_then(|r| r.binding(&key)) {
            return binding
                .read_lua(&world, e, lua)
                .unwrap_or(Ok(mlua::Value::Nil));
        }
        // A key that names no component and no bag at all is a typo, not a missing
        // value: it still gives nil, and the log says so once, with the closest key.
        let unknown = registry.as_deref().filter(|r| {
            // A bag this entity has not (or not yet) published is known all the same.
            !r.bags().iter().any(|b| b.key() == key.as_str())
        });
        let unknown = unknown.map(|r| {
            let keys: Vec<&str> = r
                .components()
                .map(|c| c.key())
                .chain(r.bags().iter().map(|b| b.key()))
                .collect();
            let hint = crate::table::closest(&key, keys.iter().copied())
                .map(|c| format!("; did you mean {c:?}?"))
                .unwrap_or_default();
            format!(
                "{}Entity.get: no component or bag is called {}, so it gives nil{hint}",
                caller(lua),
                crate::table::quoted(&key)
            )
        });
        drop(world);
        drop(registry);
        if let (Some(message), Some(mut world)) = (unknown, lua.app_data_mut::<World>()) {
            world.log().warn_once(message);
        }
        Ok(mlua::Value::Nil)
    })?;
    // A bag already read in this callback comes from its copy in Lua, with nothing crossing
    // to the host; the first read, anything else and every wrong argument go to `read`. The
    // copies' table is an upvalue no script can reach; the host empties it between callbacks.
    let get: mlua::Function = lua
        .load(
            "local cache, read = ...\n\
             return function(e, key)\n\
               local bag = cache[key]\n\
               if bag ~= nil then\n\
                 local found = bag[e]\n\
                 if found ~= nil then return found end\n\
               end\n\
               return read(e, key)\n\
             end",
        )
        .set_name("=sandbox")
        .call((cache, read))?;
    entity.raw_set("get", get)?;
    g.raw_set("Entity", entity)?;

    let data = lua.create_table()?;
    data.raw_set(
        "table",
        lua.create_function(|lua, name: mlua::Value| {
            Guard::of(lua)?;
            let at = caller(lua);
            let name = match name {
                mlua::Value::String(s) => s.to_string_lossy(),
                other => {
                    return Err(lua_err(format!(
                        "{at}Data.table: argument 1 (name) must be a string, got {}",
                        other.type_name()
                    )));
                }
            };
            crate::asset::check_asset_name(&name)
                .map_err(|e| lua_err(format!("{at}Data.table: argument 1 (name) {e}")))?;
            let name = crate::table::table_name(&name).to_string();
            let world = lua
                .app_data_ref::<World>()
                .ok_or_else(|| no_world("Data.table"))?;
            let table = world
                .resources
                .get::<Tables>()
                .and_then(|t| t.raw(&name))
                .ok_or_else(|| {
                    lua_err(format!(
                        "{at}Data.table: no table {name:?} in the project's data folder"
                    ))
                })?;
            // A fresh copy each call: rows are shared data, and one script's changes must
            // not show in another's.
            to_lua(lua, &table.rows)
        })?,
    )?;
    g.raw_set("Data", data)?;

    let save_table = lua.create_table()?;
    let store = save.clone();
    save_table.raw_set(
        "get",
        lua.create_function(move |lua, key: mlua::Value| {
            Guard::of(lua)?;
            let key = save_key(lua, "Save.get", key)?;
            match store.borrow().get(&key) {
                Some(v) => to_lua(lua, v),
                None => Ok(mlua::Value::Nil),
            }
        })?,
    )?;
    let store = save.clone();
    save_table.raw_set(
        "problem",
        lua.create_function(move |lua, ()| {
            Guard::of(lua)?;
            match store.borrow().problem() {
                Some(p) => Ok(mlua::Value::String(lua.create_string(p)?)),
                None => Ok(mlua::Value::Nil),
            }
        })?,
    )?;
    let store = save;
    save_table.raw_set(
        "set",
        lua.create_function(move |lua, (key, value): (mlua::Value, mlua::Value)| {
            let g = Guard::of(lua)?;
            let key = save_key(lua, "Save.set", key)?;
            g.copy(key.len(), String::new)?;
            let json = match take_value(lua, &g, value, || "Save.set: argument 2 (value)".into())? {
                Value::Nil => serde_json::Value::Null,
                Value::Bool(b) => serde_json::Value::Bool(b),
                Value::Int(i) => serde_json::Value::from(i),
                Value::Num(n) => serde_json::Number::from_f64(n)
                    .map(serde_json::Value::Number)
                    .ok_or_else(|| {
                        lua_err(format!(
                            "{}Save.set: argument 2 (value) must be a finite number, got {n}",
                            caller(lua)
                        ))
                    })?,
                Value::Str(s) => serde_json::Value::String(s),
                Value::Table(t) => t,
            };
            store
                .borrow_mut()
                .set(&key, json)
                .map_err(|e| lua_err(format!("{}Save.set({key:?}): {e}", caller(lua))))
        })?,
    )?;
    g.raw_set("Save", save_table)?;

    let audio = lua.create_table()?;
    audio.raw_set(
        "clock",
        lua.create_function(|lua, ()| {
            Guard::of(lua)?;
            let world = lua
                .app_data_ref::<World>()
                .ok_or_else(|| no_world("Audio.clock"))?;
            let clock = world
                .resources
                .get::<crate::MusicClock>()
                .copied()
                .unwrap_or_default();
            let t = lua.create_table()?;
            t.raw_set("playing", clock.playing)?;
            t.raw_set("position", clock.position)?;
            t.raw_set("bpm", clock.bpm)?;
            Ok(t)
        })?,
    )?;
    g.raw_set("Audio", audio)?;

    let game = lua.create_table()?;
    game.raw_set(
        "args",
        lua.create_function(|lua, ()| {
            Guard::of(lua)?;
            let world = lua
                .app_data_ref::<World>()
                .ok_or_else(|| no_world("Game.args"))?;
            // A fresh table each call: what one script does to it no other script sees.
            let args = world
                .resources
                .get::<crate::Launch>()
                .map(|launch| launch.args.as_slice())
                .unwrap_or_default();
            lua.create_sequence_from(args.iter().map(String::as_str))
        })?,
    )?;
    g.raw_set("Game", game)?;

    let log = lua.create_table()?;
    for (name, warn) in [("info", false), ("warn", true)] {
        log.raw_set(
            name,
            lua.create_function(move |lua, msg: mlua::Value| {
                let text = match &msg {
                    // Measured before it is copied: the copy is what the limit protects.
                    mlua::Value::String(s) if s.as_bytes().len() > MAX_LOG_LINE => {
                        return Err(too_long(lua, warn, s.as_bytes().len()));
                    }
                    mlua::Value::String(s) => s.to_string_lossy(),
                    other => other.to_string().unwrap_or_default(),
                };
                log_line(lua, warn, text)
            })?,
        )?;
    }
    g.raw_set("Log", log)?;
    Ok(())
}

/// The most bytes a save key may take.
const MAX_SAVE_KEY: usize = 256;

fn save_key(lua: &Lua, what: &str, key: mlua::Value) -> mlua::Result<String> {
    match key {
        mlua::Value::String(s) if s.as_bytes().len() <= MAX_SAVE_KEY => Ok(s.to_string_lossy()),
        mlua::Value::String(s) => Err(lua_err(format!(
            "{}{what}: argument 1 (key) is {} bytes; a key may be at most {MAX_SAVE_KEY}",
            caller(lua),
            s.as_bytes().len()
        ))),
        other => Err(lua_err(format!(
            "{}{what}: argument 1 (key) must be a string, got {}",
            caller(lua),
            other.type_name()
        ))),
    }
}
