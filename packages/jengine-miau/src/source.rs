//! Pack sources: CommonJS, Lua and JSON text, each turned into plain data and handed to the one
//! validator.
//!
//! Scripts run in sandboxes with nothing of the host in reach: CommonJS in an embedded QuickJS
//! runtime whose only module is `@miau/engine`, Lua in a state with just the table, string,
//! math and utf8 libraries, hardened by the seam so no library call outruns the budget. Both
//! have a memory cap and a time cap, and both only ever *return data*: what leaves a sandbox is
//! a JSON-like value, never a function. CommonJS built-ins whose C code walks a pack-chosen
//! length are replaced before the pack runs (see `source/bounded.js`), and
//! [`load_in_background`] runs a pasted pack on its own thread so a frame never waits for it.

use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

mod background;
mod clock;

pub use background::{Cancel, Loading, MAX_RUNNING_LOADS, load_in_background};

use serde_json::Value;

use crate::validate::{Checked, MAX_ENTITIES, MAX_LEVELS, MAX_SOURCE_BYTES, PackError, validate};

/// Memory a pack script may use.
pub const SCRIPT_MEMORY_LIMIT: usize = 256 * 1024 * 1024;
/// Wall-clock time a pack script may run.
pub const SCRIPT_TIME_LIMIT: Duration = Duration::from_secs(2);

/// The stack QuickJS may use before a deep recursion is a JavaScript error: 512 KiB natively.
/// In a web build, every wasm call also takes room on the browser's own stack (about 1 MB,
/// not the module's), 8 to 16 times what QuickJS counts in a debug build, and running out of
/// that traps the module; 32 KiB keeps QuickJS's error first (measured in Node 20), and is
/// still some hundred nested calls, far more than pack data needs.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub const QUICKJS_STACK: usize = 512 * 1024;
/// The stack QuickJS may use before a deep recursion is a JavaScript error (see the native
/// value's note for why it is smaller here).
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub const QUICKJS_STACK: usize = 32 * 1024;

/// The most JSON text a pack script's `module.exports` may come to (32 MiB, room for 64 levels of
/// 4,096 entities); more is refused before the host parses any of it.
pub const MAX_EXPORTED_DATA: usize = 64 * MAX_SOURCE_BYTES;

/// How much a pack script may use before it is stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptLimits {
    /// Bytes of script memory.
    pub memory: usize,
    /// Wall-clock running time.
    pub time: Duration,
}

impl Default for ScriptLimits {
    fn default() -> ScriptLimits {
        ScriptLimits {
            memory: SCRIPT_MEMORY_LIMIT,
            time: SCRIPT_TIME_LIMIT,
        }
    }
}

/// The kind of text a pack is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// A CommonJS module, `module.exports = { ... }`.
    CommonJs,
    /// A Lua chunk, `return { manifest = ..., levels = ... }`.
    Lua,
    /// Plain JSON data.
    Json,
}

impl SourceKind {
    /// Guesses the kind from a file name: `.cjs`/`.js`, `.lua`, anything else JSON.
    pub fn from_name(name: &str) -> SourceKind {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".cjs") || lower.ends_with(".js") {
            SourceKind::CommonJs
        } else if lower.ends_with(".lua") {
            SourceKind::Lua
        } else {
            SourceKind::Json
        }
    }
}

/// Loads and validates pack text of the given kind.
pub fn load(text: &str, kind: SourceKind, name: &str) -> Result<Checked, PackError> {
    load_with(text, kind, name, ScriptLimits::default())
}

/// [`load`] with explicit script limits.
pub fn load_with(
    text: &str,
    kind: SourceKind,
    name: &str,
    limits: ScriptLimits,
) -> Result<Checked, PackError> {
    load_cancellable(text, kind, name, limits, &Cancel::new())
}

/// [`load_with`], stopped early (as running too long) when `cancel` is raised.
fn load_cancellable(
    text: &str,
    kind: SourceKind,
    name: &str,
    limits: ScriptLimits,
    cancel: &Cancel,
) -> Result<Checked, PackError> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(PackError::TooLarge {
            bytes: text.len(),
            limit: MAX_SOURCE_BYTES,
        });
    }
    let value = match kind {
        SourceKind::CommonJs => eval_commonjs(text, name, limits, cancel)?,
        SourceKind::Lua => eval_lua(text, name, limits, cancel)?,
        SourceKind::Json => {
            serde_json::from_str(text).map_err(|e| PackError::Syntax(format!("{name}: {e}")))?
        }
    };
    validate(&value)
}

/// Reads a pack file, choosing the source kind from its extension.
pub fn load_file(path: &Path) -> Result<Checked, PackError> {
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| PackError::Io(format!("{name}: {e}")))?;
    if meta.len() > MAX_SOURCE_BYTES as u64 {
        return Err(PackError::TooLarge {
            bytes: meta.len() as usize,
            limit: MAX_SOURCE_BYTES,
        });
    }
    let text = std::fs::read_to_string(path).map_err(|e| PackError::Io(format!("{name}: {e}")))?;
    load(&text, SourceKind::from_name(&name), &name)
}

/// Longest module name a refused `require` reports.
const MAX_IMPORT_NAME: usize = 200;

/// The error for a script stopped by the time cap, the same for every source kind.
fn ran_too_long(name: &str, limits: ScriptLimits) -> PackError {
    PackError::Script(format!(
        "{name}: the pack script ran longer than {} ms",
        limits.time.as_millis()
    ))
}

/// Built-ins whose C code walks a length with no interrupt check, replaced by bounded ones
/// before the pack runs.
const BOUNDED_BUILTINS: &str = include_str!("source/bounded.js");

/// Bytes one JavaScript value takes in an array: what turns the memory limit into the most
/// elements an array can really hold.
const BYTES_PER_VALUE: usize = 16;

/// The most elements a CommonJS pack's arrays may have for the built-ins that walk them in C:
/// four times everything a pack can export ([`MAX_LEVELS`] levels of [`MAX_ENTITIES`]
/// objects), and few enough that the slowest such walk (over holes) ends in well under a
/// second. A smaller memory limit lowers it to what that memory can hold.
pub const MAX_SCRIPT_ELEMENTS: usize = 4 * MAX_LEVELS * MAX_ENTITIES;

/// The element cap of `limits`: [`MAX_SCRIPT_ELEMENTS`], or fewer when memory is short.
fn element_cap(limits: ScriptLimits) -> usize {
    (limits.memory / BYTES_PER_VALUE).min(MAX_SCRIPT_ELEMENTS)
}

/// The `@miau/engine` helpers and the CommonJS wrapper, run inside QuickJS.
const COMMONJS_PRELUDE: &str = r#"
(function () {
  'use strict';
  var engine = Object.freeze({
    word: function (text, x, y, id) {
      var r = { kind: 'word', text: text, x: x, y: y };
      if (id !== undefined) r.id = id;
      return r;
    },
    object: function (noun, x, y, id) {
      var r = { kind: 'object', noun: noun, x: x, y: y };
      if (id !== undefined) r.id = id;
      return r;
    },
    level: function (width, height, objects, metadata) {
      var r = {};
      if (metadata !== undefined && metadata !== null) {
        for (var k in metadata) r[k] = metadata[k];
      }
      r.width = width; r.height = height; r.objects = objects;
      return r;
    }
  });
  // Everything the wrapper relies on is taken before the pack runs, so a pack that replaces
  // JSON.stringify, String or Error changes nothing here; what failed is kept in this closure,
  // where the pack cannot reach it.
  var stringify = JSON.stringify;
  var toText = String;
  var MakeError = Error;
  var apply = Reflect.apply;
  var cut = String.prototype.substring;
  var refusedImport = null;
  var require = function (name) {
    if (name === '@miau/engine') return engine;
    refusedImport = apply(cut, toText(name), [0, __MAX_IMPORT_NAME__]);
    throw new MakeError("unsupported import '" + refusedImport + "'");
  };
  var module = { exports: {} };
  var body = new Function('module', 'exports', 'require', globalThis.__miauSource);
  try {
    body(module, module.exports, require);
  } catch (e) {
    if (refusedImport !== null) return '\u0001' + refusedImport;
    throw e;
  }
  var out = stringify(module.exports);
  if (typeof out !== 'string') throw new MakeError('module.exports is not plain data');
  if (out.length > __MAX_DATA__) return '\u0003' + out.length;
  return '\u0002' + out;
})()
"#;

fn eval_commonjs(
    text: &str,
    name: &str,
    limits: ScriptLimits,
    cancel: &Cancel,
) -> Result<Value, PackError> {
    use rquickjs::{Context, Runtime};
    let runtime = Runtime::new().map_err(|e| PackError::Script(format!("{name}: {e}")))?;
    runtime.set_memory_limit(limits.memory);
    runtime.set_max_stack_size(QUICKJS_STACK);
    let timed_out = Arc::new(AtomicBool::new(false));
    let deadline = clock::deadline(name, limits.time).map_err(PackError::Script)?;
    let flag = timed_out.clone();
    let stop = cancel.clone();
    runtime.set_interrupt_handler(Some(Box::new(move || {
        let late = stop.is_cancelled() || clock::passed(deadline);
        if late {
            flag.store(true, Ordering::Relaxed);
        }
        late
    })));
    let context = Context::full(&runtime).map_err(|e| PackError::Script(format!("{name}: {e}")))?;
    let json: Result<String, PackError> = context.with(|ctx| {
        let globals = ctx.globals();
        globals
            .set("__miauSource", text)
            .map_err(|e| PackError::Script(format!("{name}: {e}")))?;
        let bounded = BOUNDED_BUILTINS
            .replace("__MAX_CHARS__", &limits.memory.to_string())
            .replace("__MAX_ELEMENTS__", &element_cap(limits).to_string());
        // The bounded built-ins take this check for themselves and remove it from the globals.
        let is_proxy = rquickjs::Function::new(ctx.clone(), |v: rquickjs::Value| {
            // SAFETY: JS_IsProxy only reads the tag and class of a live value it is lent.
            unsafe { rquickjs::qjs::JS_IsProxy(v.as_raw()) }
        })
        .map_err(|e| PackError::Script(format!("{name}: {e}")))?;
        globals
            .set("__miauIsProxy", is_proxy)
            .map_err(|e| PackError::Script(format!("{name}: {e}")))?;
        if let Err(e) = ctx.eval::<(), _>(bounded) {
            let thrown = ctx.catch();
            if timed_out.load(Ordering::Relaxed) {
                return Err(ran_too_long(name, limits));
            }
            return Err(PackError::Script(format!(
                "{name}: the script host did not start: {e} {thrown:?}"
            )));
        }
        let prelude = COMMONJS_PRELUDE
            .replace("__MAX_DATA__", &MAX_EXPORTED_DATA.to_string())
            .replace("__MAX_IMPORT_NAME__", &MAX_IMPORT_NAME.to_string());
        match ctx.eval::<String, _>(prelude) {
            Ok(s) => {
                // The wrapper tags what it returns; only it can, the pack never sees the tag.
                let mut chars = s.chars();
                match chars.next() {
                    Some('\u{2}') => Ok(chars.as_str().to_string()),
                    Some('\u{1}') => Err(PackError::UnsupportedImport(chars.as_str().to_string())),
                    Some('\u{3}') => Err(PackError::Script(format!(
                        "{name}: module.exports is {} characters of data, over the limit of {MAX_EXPORTED_DATA}",
                        chars.as_str()
                    ))),
                    _ => Err(PackError::Script(format!("{name}: the pack wrapper returned nothing"))),
                }
            }
            Err(e) => {
                let thrown = ctx.catch();
                // The time cap is the host's own record, checked first: a script that catches a
                // refused import and then loops is reported as the loop it is.
                if timed_out.load(Ordering::Relaxed) {
                    return Err(ran_too_long(name, limits));
                }
                let message = match thrown.as_exception() {
                    Some(ex) => {
                        let msg = ex.message().unwrap_or_default();
                        let kind: String = ex.get("name").unwrap_or_else(|_| "Error".to_string());
                        format!("{kind}: {msg}")
                    }
                    None => match thrown.as_string().and_then(|s| s.to_string().ok()) {
                        Some(s) => s,
                        None if thrown.is_null() || thrown.is_undefined() => format!(
                            "the pack script stopped without an error value (most often: it went past the {} MiB memory limit)",
                            limits.memory >> 20
                        ),
                        None => e.to_string(),
                    },
                };
                if message.starts_with("SyntaxError") {
                    Err(PackError::Syntax(format!("{name}: {message}")))
                } else {
                    Err(PackError::Script(format!("{name}: {message}")))
                }
            }
        }
    });
    let json = json?;
    serde_json::from_str(&json)
        .map_err(|e| PackError::Script(format!("{name}: exported data: {e}")))
}

/// Instructions (and metered library steps) a Lua pack may spend: far more than the largest
/// pack needs, so on an ordinary machine the time cap ends a runaway first.
pub const LUA_PACK_INSTRUCTIONS: u64 = 500_000_000;

/// The most steps one library call of a Lua pack may spend (a pattern match, a `string.rep`):
/// the metered matcher runs without looking at the clock for as many steps as it is offered,
/// so it is offered this slice of the budget, a fraction of a second of matching, and a call
/// that needs more stops the script.
pub const LUA_PACK_CALL_STEPS: u64 = 4_000_000;

/// How often the Lua pack hook runs, in VM instructions.
const LUA_HOOK_EVERY: u32 = 1000;

/// The meter of a Lua pack: the seam's [`jengine::host::Budget`] (instructions and the time
/// cap), offered to a library call [`LUA_PACK_CALL_STEPS`] at a time, which also stops when
/// the host raises the pack's [`Cancel`] flag, and which tells the hardened library the
/// state's memory limit.
struct PackMeter {
    budget: Rc<jengine::host::Budget>,
    cancel: Cancel,
    /// Set when the meter stopped the state itself: a cancel, or a call past its slice.
    stopped: Cell<bool>,
    memory: usize,
}

impl PackMeter {
    /// Whether the meter (not the script) stopped the state: time, instructions or cancel.
    fn stopped(&self) -> bool {
        self.stopped.get() || self.budget.stopped().is_some()
    }

    fn stop(&self, why: &str) -> mlua::Error {
        self.stopped.set(true);
        mlua::Error::runtime(format!("stopped: {why}"))
    }
}

impl jengine::host::Meter for PackMeter {
    fn remaining(&self) -> u64 {
        if self.stopped() || self.cancel.is_cancelled() {
            0
        } else {
            self.budget.remaining().min(LUA_PACK_CALL_STEPS)
        }
    }

    fn charge(&self, lua: &mlua::Lua, steps: u64) -> mlua::Result<()> {
        if self.cancel.is_cancelled() {
            return Err(self.stop("the pack script was cancelled"));
        }
        if self.stopped.get() {
            return Err(self.stop("the pack script ran past its limits"));
        }
        if steps > LUA_PACK_CALL_STEPS {
            return Err(self.stop("one library call ran past its steps"));
        }
        self.budget.charge(lua, steps)
    }

    fn memory_limit(&self) -> Option<usize> {
        Some(self.memory)
    }
}

/// `@miau/engine` for Lua packs: the same three helpers.
const LUA_PRELUDE: &str = r#"
local engine = {
  word = function(text, x, y, id) return { kind = 'word', text = text, x = x, y = y, id = id } end,
  object = function(noun, x, y, id) return { kind = 'object', noun = noun, x = x, y = y, id = id } end,
  level = function(width, height, objects, metadata)
    local r = {}
    for k, v in pairs(metadata or {}) do r[k] = v end
    r.width = width; r.height = height; r.objects = objects
    return r
  end,
}
return engine
"#;

fn eval_lua(
    text: &str,
    name: &str,
    limits: ScriptLimits,
    cancel: &Cancel,
) -> Result<Value, PackError> {
    use jengine::host::{Budget, Meter, harden};
    use mlua::chunk::ChunkMode;
    use mlua::{HookTriggers, Lua, LuaOptions, LuaSerdeExt, StdLib, VmState};
    let script = |e: mlua::Error| PackError::Script(format!("{name}: {e}"));
    let lua = Lua::new_with(
        StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8,
        LuaOptions::default(),
    )
    .map_err(script)?;
    lua.set_memory_limit(limits.memory).map_err(script)?;
    // The library's C calls (string.rep, table.move, the pattern matcher, ...) spend from the
    // same meter as the instructions, so no single call outruns the time cap or the cancel.
    let meter = Rc::new(PackMeter {
        budget: Budget::new(LUA_PACK_INSTRUCTIONS, limits.time),
        cancel: cancel.clone(),
        stopped: Cell::new(false),
        memory: limits.memory,
    });
    harden(&lua, meter.clone()).map_err(script)?;
    let hook = meter.clone();
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(LUA_HOOK_EVERY),
        move |lua, _| {
            hook.charge(lua, u64::from(LUA_HOOK_EVERY))?;
            Ok(VmState::Continue)
        },
    )
    .map_err(script)?;
    // What stopped the script is the host's own record, never read back from an error message a
    // pack could write itself.
    let refused: Arc<std::sync::Mutex<Option<String>>> = Arc::default();
    let engine: mlua::Table = lua
        .load(LUA_PRELUDE)
        .set_name("@miau/engine")
        .eval()
        .map_err(script)?;
    let record = refused.clone();
    let require = lua
        .create_function(move |_, name: mlua::Value| {
            if let mlua::Value::String(s) = &name
                && s.as_bytes().as_ref() == b"@miau/engine"
            {
                return Ok(engine.clone());
            }
            let shown = match &name {
                mlua::Value::String(s) => {
                    s.to_string_lossy().chars().take(MAX_IMPORT_NAME).collect()
                }
                other => other.type_name().to_string(),
            };
            if let Ok(mut r) = record.lock() {
                *r = Some(shown.clone());
            }
            Err(mlua::Error::runtime(format!(
                "unsupported import '{shown}'"
            )))
        })
        .map_err(script)?;
    lua.globals().set("require", require).map_err(script)?;
    for unsafe_global in ["load", "loadstring", "dofile", "loadfile", "collectgarbage"] {
        lua.globals()
            .set(unsafe_global, mlua::Nil)
            .map_err(script)?;
    }
    let result: mlua::Value = match lua
        .load(text)
        .set_name(format!("={name}"))
        .set_mode(ChunkMode::Text)
        .eval()
    {
        Ok(v) => v,
        Err(e) => {
            if meter.stopped() {
                return Err(ran_too_long(name, limits));
            }
            if let Some(import) = refused.lock().ok().and_then(|r| r.clone()) {
                return Err(PackError::UnsupportedImport(import));
            }
            return Err(lua_error(&e, name));
        }
    };
    lua.remove_global_hook();
    // A stop the script caught with pcall is still a stop: its data is not taken.
    if meter.stopped() {
        return Err(ran_too_long(name, limits));
    }
    if !result.is_table() {
        return Err(PackError::Script(format!(
            "{name}: the chunk must return a table"
        )));
    }
    lua.from_value::<Value>(result)
        .map_err(|e| PackError::Script(format!("{name}: returned data: {e}")))
}

fn lua_error(e: &mlua::Error, name: &str) -> PackError {
    match e {
        mlua::Error::SyntaxError { message, .. } => PackError::Syntax(message.clone()),
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            lua_error(cause, name)
        }
        mlua::Error::MemoryError(_) => {
            PackError::Script(format!("{name}: the pack script used too much memory"))
        }
        mlua::Error::RuntimeError(m) => PackError::Script(m.clone()),
        other => PackError::Script(format!("{name}: {other}")),
    }
}

#[cfg(any(test, feature = "selftest"))]
mod source_tests;
#[cfg(any(test, feature = "selftest"))]
pub(crate) use source_tests::CASES;
