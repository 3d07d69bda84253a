//! What a script writes to the log (`print`, `Log.info`, `Log.warn`): one line with its file
//! and line, within the line cap and the callback's host-copy allowance.

use mlua::{Function, Lua};

use super::sandbox::Guard;
use super::{caller, lua_err};
use crate::world::{MAX_LOG_LINE, World};

/// Writes one line to the log from a script, with its file and line, within the limits.
pub(crate) fn log_line(lua: &Lua, warn: bool, text: String) -> mlua::Result<()> {
    let g = Guard::of(lua)?;
    let at = caller(lua);
    if text.len() > MAX_LOG_LINE {
        return Err(too_long(lua, warn, text.len()));
    }
    g.copy(text.len() + at.len(), || {
        at.trim_end_matches(": ").to_string()
    })?;
    let line = format!("{at}{text}");
    if let Some(mut world) = lua.app_data_mut::<World>() {
        if warn {
            world.log().warn(line);
        } else {
            world.log().info(line);
        }
    }
    Ok(())
}

pub(crate) fn too_long(lua: &Lua, warn: bool, bytes: usize) -> mlua::Error {
    let what = if warn { "Log.warn" } else { "Log.info" };
    lua_err(format!(
        "{}{what}: the message is {bytes} bytes; a log line may be at most {MAX_LOG_LINE}",
        caller(lua)
    ))
}

/// The sandbox's `print`: its arguments through `tostring`, tab-separated, as one info line.
pub(crate) fn print(lua: &Lua) -> mlua::Result<Function> {
    lua.create_function(|lua, args: mlua::MultiValue| {
        let tostring: Function = lua.globals().raw_get("tostring")?;
        let mut parts = Vec::with_capacity(args.len());
        let mut bytes = 0;
        for v in args {
            let s = tostring.call::<mlua::LuaString>(v)?;
            bytes += s.as_bytes().len() + 1;
            if bytes > MAX_LOG_LINE {
                return Err(too_long(lua, false, bytes));
            }
            parts.push(s);
        }
        let parts: Vec<String> = parts.iter().map(|s| s.to_string_lossy()).collect();
        log_line(lua, false, parts.join("\t"))
    })
}
