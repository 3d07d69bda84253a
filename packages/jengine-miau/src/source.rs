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
    runtime.set_max_stack_size(512 * 1024);
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

#[cfg(test)]
mod tests {
    use super::*;

    const HELLO: &str = r#"module.exports = {
 manifest: { id: 'hello-miau', name: 'Hello Miau', version: '1.0.0' },
 palette: { MIAU: '🐈', FLAG: '🚩' },
 levels: [{
 id: 'intro',
 width: 5,
 height: 3,
 objects: [
 { kind: 'word', text: 'MIAU', x: 0, y: 0 },
 { kind: 'word', text: 'IS', x: 1, y: 0 },
 { kind: 'word', text: 'YOU', x: 2, y: 0 },
 { kind: 'object', noun: 'MIAU', x: 0, y: 1 },
 ],
 }],
};
"#;

    #[test]
    fn the_smallest_commonjs_pack_loads() {
        let checked = load(HELLO, SourceKind::CommonJs, "hello.cjs").expect("loads");
        assert_eq!(checked.pack.manifest.name, "Hello Miau");
        assert_eq!(checked.pack.levels[0].objects.len(), 4);
    }

    #[test]
    fn the_engine_helpers_build_ordinary_records() {
        let src = r#"const { word, object, level } = require('@miau/engine');
module.exports = {
  manifest: { id: 'helper-demo', name: 'Helper Demo', version: '1.0.0' },
  levels: [level(4, 2, [word('CAT', 0, 0), word('IS', 1, 0), word('YOU', 2, 0), object('CAT', 0, 1)],
    { id: 'first-step', title: 'First step' })],
};"#;
        let checked = load(src, SourceKind::CommonJs, "helper.cjs").expect("loads");
        assert_eq!(checked.pack.levels[0].id, "first-step");
        assert_eq!(checked.pack.levels[0].title.as_deref(), Some("First step"));
    }

    #[test]
    fn any_other_require_is_named() {
        let err =
            load("const fs = require('fs');", SourceKind::CommonJs, "x.cjs").expect_err("refused");
        assert_eq!(err, PackError::UnsupportedImport("fs".into()));
        let err = load(
            "local x = require('socket')\nreturn {}",
            SourceKind::Lua,
            "x.lua",
        )
        .expect_err("refused");
        assert_eq!(err, PackError::UnsupportedImport("socket".into()));
    }

    #[test]
    fn the_sandbox_has_no_host_globals() {
        // The probe throws if it can see any host object; otherwise its data is simply not a pack.
        let probe = "if (typeof process !== 'undefined' || typeof console !== 'undefined' || typeof fetch !== 'undefined') throw new Error('host'); module.exports = 1;";
        assert!(matches!(
            load(probe, SourceKind::CommonJs, "x.cjs"),
            Err(PackError::Invalid(_))
        ));
    }

    const TIGHT: ScriptLimits = ScriptLimits {
        memory: 8 << 20,
        time: Duration::from_millis(200),
    };

    /// The memory of [`TIGHT`] with time to spare, for tests of what is not the clock.
    const ROOMY: ScriptLimits = ScriptLimits {
        memory: 8 << 20,
        time: Duration::from_secs(20),
    };

    #[test]
    fn a_runaway_commonjs_loop_is_stopped() {
        let err = load_with("while (true) {}", SourceKind::CommonJs, "loop.cjs", TIGHT)
            .expect_err("stopped");
        assert!(err.to_string().contains("longer"), "{err}");
    }

    #[test]
    fn a_runaway_lua_loop_is_stopped() {
        let err = load_with("while true do end", SourceKind::Lua, "loop.lua", TIGHT)
            .expect_err("stopped");
        assert!(err.to_string().contains("longer"), "{err}");
    }

    #[test]
    fn a_caught_import_then_a_loop_is_reported_as_the_loop() {
        let js = "try { require('fs') } catch (e) {} while (true) {}";
        let err = load_with(js, SourceKind::CommonJs, "loop.cjs", TIGHT).expect_err("stopped");
        assert!(
            matches!(&err, PackError::Script(m) if m.contains("longer")),
            "{err}"
        );
        let lua = "pcall(require, 'io') while true do end";
        let err = load_with(lua, SourceKind::Lua, "loop.lua", TIGHT).expect_err("stopped");
        assert!(
            matches!(&err, PackError::Script(m) if m.contains("longer")),
            "{err}"
        );
    }

    #[test]
    fn a_huge_module_name_is_cut_short() {
        let js = "String.prototype.substring = function () { return this + this; };\nrequire('m'.repeat(1 << 20));";
        match load(js, SourceKind::CommonJs, "huge.cjs") {
            Err(PackError::UnsupportedImport(n)) => assert_eq!(n.len(), MAX_IMPORT_NAME),
            other => panic!("{other:?}"),
        }
        let lua = "require(string.rep('m', 1 << 20))";
        match load(lua, SourceKind::Lua, "huge.lua") {
            Err(PackError::UnsupportedImport(n)) => assert_eq!(n.len(), MAX_IMPORT_NAME),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_pack_cannot_forge_a_refused_import() {
        let js = "globalThis.__miauImport = 'net'; throw new Error(\"unsupported import 'net'\");";
        let err = load(js, SourceKind::CommonJs, "forge.cjs").expect_err("fails");
        assert!(matches!(err, PackError::Script(_)), "{err:?}");
        let lua = "error(\"unsupported import 'net'\")";
        let err = load(lua, SourceKind::Lua, "forge.lua").expect_err("fails");
        assert!(matches!(err, PackError::Script(_)), "{err:?}");
    }

    #[test]
    fn replacing_the_serializer_changes_nothing() {
        let js = format!(
            "JSON.stringify = function () {{ return 'x'.repeat(1 << 27); }}; String = null; Error = null;\n{HELLO}"
        );
        let checked = load(&js, SourceKind::CommonJs, "tamper.cjs").expect("loads");
        assert_eq!(checked.pack.manifest.id, "hello-miau");
    }

    #[test]
    fn exported_data_over_the_cap_is_refused_before_parsing() {
        // 40 MiB of JSON in a 64 KiB script.
        let js = "module.exports = { manifest: {}, pad: 'x'.repeat(40 << 20) };";
        let roomy = ScriptLimits {
            memory: 256 << 20,
            time: Duration::from_secs(5),
        };
        let err = load_with(js, SourceKind::CommonJs, "big.cjs", roomy).expect_err("refused");
        assert!(
            matches!(&err, PackError::Script(m) if m.contains("over the limit")),
            "{err}"
        );
    }

    #[test]
    fn a_lua_memory_bomb_is_stopped() {
        let bomb = "local t = {} while true do t[#t + 1] = string.rep('x', 1000) end";
        // The memory cap is what is tested: the clock gets room a busy machine needs (filling
        // 8 MiB through Lua's collector takes most of 200 ms in a debug build).
        let err = load_with(bomb, SourceKind::Lua, "mem.lua", ROOMY).expect_err("stopped");
        assert!(err.to_string().contains("memory"), "{err}");
    }

    #[test]
    fn a_commonjs_memory_bomb_is_stopped() {
        let bomb = "const a = []; for (;;) a.push('x'.repeat(1000) + a.length);";
        let err = load_with(bomb, SourceKind::CommonJs, "mem.cjs", ROOMY).expect_err("stopped");
        assert!(
            matches!(&err, PackError::Script(m) if !m.contains("longer")),
            "{err}"
        );
    }

    #[test]
    fn cyclic_data_is_an_error_not_a_crash() {
        let lua = "local t = { manifest = {} } t.manifest.loop = t return t";
        assert!(matches!(
            load(lua, SourceKind::Lua, "cycle.lua"),
            Err(PackError::Script(_))
        ));
        let js = "const t = { manifest: {} }; t.manifest.loop = t; module.exports = t;";
        assert!(matches!(
            load(js, SourceKind::CommonJs, "cycle.cjs"),
            Err(PackError::Script(_))
        ));
    }

    #[test]
    fn deeply_nested_data_is_an_error_not_a_crash() {
        let lua = "local t = {} for i = 1, 200000 do t = { t } end return { manifest = t }";
        assert!(load(lua, SourceKind::Lua, "deep.lua").is_err());
        let js = "let t = {}; for (let i = 0; i < 200000; i++) t = [t]; module.exports = { manifest: t };";
        assert!(load(js, SourceKind::CommonJs, "deep.cjs").is_err());
    }

    #[test]
    fn syntax_errors_are_reported() {
        assert!(matches!(
            load("module.exports = {", SourceKind::CommonJs, "x.cjs"),
            Err(PackError::Syntax(_))
        ));
        assert!(matches!(
            load("return {", SourceKind::Lua, "x.lua"),
            Err(PackError::Syntax(_))
        ));
        assert!(matches!(
            load("{", SourceKind::Json, "x.json"),
            Err(PackError::Syntax(_))
        ));
    }

    #[test]
    fn lua_packs_use_the_same_contract() {
        let src = r#"local m = require('@miau/engine')
return {
  manifest = { id = 'lua-pack', name = 'Lua Pack', version = '1.0.0' },
  levels = { m.level(4, 2, { m.word('CAT', 0, 0), m.word('IS', 1, 0), m.word('YOU', 2, 0), m.object('CAT', 0, 1) },
    { id = 'first' }) },
}"#;
        let checked = load(src, SourceKind::Lua, "p.lua").expect("loads");
        assert_eq!(checked.pack.levels[0].objects[3].text, "CAT");
        let no_io = "return { io = io == nil, os = os == nil, load = load == nil }";
        assert!(matches!(
            load(no_io, SourceKind::Lua, "p.lua"),
            Err(PackError::Invalid(_))
        ));
    }

    /// Runs `body` as a CommonJS pack with the default limits and returns its error text.
    fn refused_js(body: &str) -> String {
        let js = format!("{body}\nmodule.exports = 1;");
        match load(&js, SourceKind::CommonJs, "bounded.cjs") {
            Err(PackError::Script(m)) => m,
            other => panic!("{body}: {other:?}"),
        }
    }

    /// The C built-ins that walk a pack-chosen length or size are refused before they start,
    /// with a RangeError naming the built-in (not stopped by the clock, which they never see).
    #[test]
    fn unbounded_javascript_builtins_are_refused_up_front() {
        for (body, builtin) in [
            ("new Array(2**32-1).join('')", "Array.prototype.join"),
            ("String(new Array(2**32-1))", "Array.prototype.join"),
            (
                "new Array(2**32-1).toLocaleString()",
                "Array.prototype.toLocaleString",
            ),
            ("'ab'.repeat(2**29)", "String.prototype.repeat"),
            ("''.padStart(2**30, 'ab')", "String.prototype.padStart"),
            ("'x'.padEnd(2**30)", "String.prototype.padEnd"),
            ("new Array(2**32-1).fill(0)", "Array.prototype.fill"),
            ("Array(2**32-1).fill(0, 1)", "Array.prototype.fill"),
            ("new ArrayBuffer(2**31)", "new ArrayBuffer"),
            (
                "new ArrayBuffer(8, { maxByteLength: 2**40 })",
                "new ArrayBuffer",
            ),
            ("new Float64Array(2**28)", "new Float64Array"),
            ("new Uint8Array({ length: 2**27 })", "new Uint8Array"),
            ("new Uint8Array(new Array(2**32-1))", "new Uint8Array"),
            (
                "new (Uint8Array.prototype.constructor)({ length: 2**27 })",
                "new Uint8Array",
            ),
            ("Uint8Array.from({ length: 2**27 })", "TypedArray.from"),
            (
                "new Uint8Array(2**26).set({ length: 2**26 })",
                "TypedArray.prototype.set",
            ),
            (
                "new Uint8Array(2**26).join(',')",
                "TypedArray.prototype.join",
            ),
            ("new Array(2**32-1).sort()", "Array.prototype.sort"),
            ("new Array(2**32-1).reverse()", "Array.prototype.reverse"),
            ("new Array(2**32-1).slice()", "Array.prototype.slice"),
            ("new Array(2**32-1).shift()", "Array.prototype.shift"),
            ("[].concat(new Array(2**32-1))", "Array.prototype.concat"),
            ("[new Array(2**32-1)].flat()", "Array.prototype.flat"),
            (
                "[0].flatMap(() => new Array(2**32-1))",
                "Array.prototype.flatMap",
            ),
            ("Array.from({ length: 2**32-1 })", "Array.from"),
            ("JSON.stringify(new Array(2**32-1))", "JSON.stringify"),
            (
                "JSON.stringify({ a: [new Array(2**32-1)] }, ['a'])",
                "JSON.stringify",
            ),
            ("String.raw({ raw: { length: 2**32-1 } })", "String.raw"),
            ("[...new Array(2**32-1)]", "Array.prototype.values"),
            ("new Set(new Array(2**32-1))", "new Set"),
            (
                "new Set(new Uint8Array(2**26))",
                "TypedArray.prototype.values",
            ),
            (
                "Object.fromEntries(new Array(2**32-1).entries())",
                "Array.prototype.entries",
            ),
            ("Promise.all(new Array(2**32-1))", "Promise.all"),
            (
                "new Set('a'.repeat(2**25))",
                "String.prototype[Symbol.iterator]",
            ),
        ] {
            let message = refused_js(body);
            assert!(
                message.contains("RangeError") && message.contains(builtin),
                "{body}: {message}"
            );
        }
    }

    #[test]
    fn the_bounded_builtins_still_do_their_jobs() {
        let js = r#"
const same = (a, b, what) => { if (a !== b) throw new Error(what + ': ' + a + ' !== ' + b); };
same([1, null, undefined, 'x', [2, 3]].join('-'), '1---x-2,3', 'join');
same(String([1, [2, 3]]), '1,2,3', 'toString');
same([1, 2].toLocaleString(), '1,2', 'toLocaleString');
same(new Uint8Array([1, 2, 3]).join(), '1,2,3', 'typed join');
same('ab'.repeat(3), 'ababab', 'repeat');
same('7'.padStart(3, '0') + '7'.padEnd(3), '0077  ', 'pad');
same(new Array(3).fill(1).join(''), '111', 'fill');
same([1, 2, 3, 4].fill(0, 1, -1).join(''), '1004', 'fill range');
same([10, 9, 1, undefined].sort().join(), '1,10,9,', 'sort');
same(Array.from(new Float64Array([3, NaN, -0, 0, 1]).sort()).map(x => Object.is(x, -0) ? '-0' : String(x)).join(), '-0,0,1,3,NaN', 'typed sort');
same([[1, [2]], 3].flat().length, 3, 'flat');
same([1, 2].flatMap(x => [x, x * 10]).join(), '1,10,2,20', 'flatMap');
same([1].concat([2, 3], 4).join(), '1,2,3,4', 'concat');
same(Uint8Array.from([1, 2], x => x * 2).join(), '2,4', 'from');
const t = new Uint8Array(4); t.set([7, 8], 1); same(t.join(''), '0780', 'set');
same(new Uint16Array(new Set([5, 6])).join(), '5,6', 'from an iterable');
same(new Uint8Array(new ArrayBuffer(4), 1, 2).length, 2, 'a view');
same(t instanceof Uint8Array && t.constructor === Uint8Array, true, 'instanceof');
class Bytes extends Uint8Array {}
same(new Bytes(2) instanceof Bytes, true, 'a subclass');
same(t.slice(1, 3).join(), '7,8', 'species');
same(JSON.stringify({ b: [1, { c: 2, d: 3 }], a: 'x' }, ['a', 'b', 'c']), '{"a":"x","b":[1,{"c":2}]}', 'stringify keys');
same(JSON.stringify({ a: 1 }, (k, v) => (k === 'a' ? v + 1 : v)), '{"a":2}', 'stringify replacer');
same(String.raw`a${1}b${2}c`, 'a1b2c', 'raw');
same([...new Set([1, 1, 2])].join(), '1,2', 'a set');
same(new Map([[1, 'a']]).get(1), 'a', 'a map');
same(Object.fromEntries([['k', 1]]).k, 1, 'fromEntries');
same(new Set([1, 2]).union({ size: 1, has: () => true, keys: () => [3].values() }).size, 3, 'union');
same([1, 2, 3].values().reduce((a, b) => a + b), 6, 'reduce');
same([1, 2, 3].values().some(x => x > 2) && [1, 2].values().every(x => x > 0), true, 'some and every');
same([5, 6].values().find(x => x > 5) + [7].values().toArray()[0], 13, 'find and toArray');
let seen = 0; [1, 2].values().forEach(x => { seen += x; }); same(seen, 3, 'forEach');
same(Array.from('ab').join() + Array.from(new Set([3]))[0], 'a,b3', 'from iterables');
"#;
        let err = load(js, SourceKind::CommonJs, "jobs.cjs").expect_err("not a pack");
        assert!(matches!(err, PackError::Invalid(_)), "{err}");
    }

    /// A C built-in that drains an iterator would call the pack's `next` with no check; the
    /// bounded ones read it in a loop the time cap sees.
    #[test]
    fn endless_iterators_fed_to_builtins_are_stopped_by_the_clock() {
        let endless = "{ [Symbol.iterator]() { return { next() { return { done: false, value: [1, 1] } } } } }";
        let stepper =
            "{ next() { return { done: false, value: 1 } }, __proto__: Iterator.prototype }";
        for body in [
            format!("new Set({endless})"),
            format!("new Map({endless})"),
            format!("Object.fromEntries({endless})"),
            format!("Array.from({endless})"),
            format!("new Uint8Array({endless})"),
            format!("new Set().union({{ size: 1, has() {{}}, keys() {{ return {stepper} }} }})"),
            format!("({stepper}).forEach(() => {{}})"),
            format!("({stepper}).some(() => false)"),
            format!("({stepper}).includes(2)"),
        ] {
            let js = format!("{body}\nmodule.exports = 1;");
            let err =
                load_with(&js, SourceKind::CommonJs, "endless.cjs", TIGHT).expect_err("stopped");
            // Stopped either way: by the clock, by a bound, or (on a busy machine, where the
            // garbage of a million `next` results outruns the collector) by the memory limit.
            assert!(
                matches!(&err, PackError::Script(m) if m.contains("longer")
                    || m.contains("RangeError")
                    || m.contains("memory limit")),
                "{body}: {err}"
            );
        }
    }

    /// Single C calls of the Lua library that used to run for ever: each spends from the pack's
    /// budget and is stopped as running too long.
    #[test]
    fn lua_library_calls_that_never_returned_are_stopped() {
        for call in [
            "string.rep('', 1 << 62)",
            "table.move({}, 1, 1 << 40, 1, {})",
            "string.find(string.rep('a', 30000), '.-.-.-b')",
        ] {
            let lua = format!("pcall(function() return {call} end)\nreturn {{}}");
            let err = load_with(&lua, SourceKind::Lua, "bad.lua", TIGHT).expect_err("stopped");
            assert!(
                matches!(&err, PackError::Script(m) if m.contains("longer")),
                "{call}: {err}"
            );
        }
    }

    #[test]
    fn the_hardened_lua_library_still_works_for_packs() {
        let src = r#"local rows = {}
for i = 1, 3 do rows[#rows + 1] = string.rep('ab', 2, '-') end
local t = table.move({ 1, 2, 3 }, 1, 3, 2, {})
return {
  manifest = { id = 'lua-ok', name = table.concat(rows, ' '), version = '1.0.0' },
  levels = {{ id = string.format('l%d', #t), width = 3, height = 1, objects = {
    { kind = 'word', text = ('cat'):upper(), x = 0, y = 0 },
    { kind = 'word', text = string.match('IS!', '%a+'), x = 1, y = 0 },
    { kind = 'word', text = utf8.char(89, 79, 85), x = 2, y = 0 },
  } }},
}"#;
        let checked = load(src, SourceKind::Lua, "ok.lua").expect("loads");
        assert_eq!(checked.pack.manifest.name, "ab-ab ab-ab ab-ab");
        assert_eq!(checked.pack.levels[0].id, "l4");
        assert_eq!(checked.pack.levels[0].objects[2].text, "YOU");
    }

    /// A `length` that answers small when measured and huge when walked is not handed to a C
    /// built-in that reads it again.
    #[test]
    fn a_length_that_changes_between_the_measure_and_the_walk_is_refused() {
        let liar = "let n = 0; const liar = { get length() { return n++ ? 2**32-1 : 0 } };";
        let proxy = "let m = 0; const proxy = new Proxy([], { get: (t, k) => k === 'length' ? (m++ ? 2**32-1 : 0) : t[k] });";
        for (body, builtin) in [
            (
                "Array.prototype.reverse.call(liar)",
                "Array.prototype.reverse",
            ),
            (
                "Array.prototype.slice.call(Object.create(liar))",
                "Array.prototype.slice",
            ),
            (
                "Array.prototype.reverse.call(proxy)",
                "Array.prototype.reverse",
            ),
            ("[].concat(proxy)", "Array.prototype.concat"),
            ("[proxy].flat()", "Array.prototype.flat"),
            ("JSON.stringify(proxy)", "JSON.stringify"),
        ] {
            let message = refused_js(&format!("{liar} {proxy} {body}"));
            assert!(
                message.contains("TypeError") && message.contains(builtin),
                "{body}: {message}"
            );
        }
        let js = "const a = Array.from({ get length() { return 2 }, 0: 'x', 1: 'y' });\n\
                  if (a.join('') !== 'xy') throw new Error(a.join(''));\n\
                  if (Array.prototype.slice.call(new Uint8Array([1, 2])).join() !== '1,2') throw new Error('typed');\n\
                  module.exports = 1;";
        let err = load(js, SourceKind::CommonJs, "steady.cjs").expect_err("not a pack");
        assert!(matches!(err, PackError::Invalid(_)), "{err}");
    }

    #[test]
    fn tampering_with_the_helpers_leaves_the_bounds_in_place() {
        let body = "Object.defineProperty(Array.prototype, '0', { set() {} });\
                    Object.prototype.get = function () {};\
                    Reflect.apply = () => ''; Object.defineProperty = () => {}; String = () => '';\
                    Array.isArray = () => false; Number = () => 0; Math.floor = () => 0;\
                    new Array(2**32-1).join('')";
        let message = refused_js(body);
        assert!(message.contains("Array.prototype.join"), "{message}");
    }

    #[test]
    fn a_raised_cancel_stops_a_script_at_its_next_check() {
        let forever = ScriptLimits {
            memory: 8 << 20,
            time: Duration::from_secs(3600),
        };
        for (text, kind) in [
            ("while (true) {}", SourceKind::CommonJs),
            ("while true do end", SourceKind::Lua),
        ] {
            let cancel = Cancel::new();
            cancel.cancel();
            let err = load_cancellable(text, kind, "stopped", forever, &cancel).expect_err("stops");
            assert!(err.to_string().contains("longer"), "{err}");
        }
    }

    #[test]
    fn a_background_load_reports_its_result_and_a_runaway_its_time() {
        let loading = load_in_background(
            HELLO.into(),
            SourceKind::CommonJs,
            "hello.cjs".into(),
            ScriptLimits::default(),
        );
        let checked = loading.wait().expect("loads");
        assert_eq!(checked.pack.manifest.id, "hello-miau");
        let runaway = load_in_background(
            "while (true) {}".into(),
            SourceKind::CommonJs,
            "loop.cjs".into(),
            TIGHT,
        );
        let result = loop {
            if let Some(result) = runaway.poll() {
                break result;
            }
            std::thread::yield_now();
        };
        let err = result.expect_err("stopped");
        assert!(err.to_string().contains("longer"), "{err}");
    }

    #[test]
    fn oversized_sources_are_refused() {
        let big = " ".repeat(MAX_SOURCE_BYTES + 1);
        assert!(matches!(
            load(&big, SourceKind::Json, "big.json"),
            Err(PackError::TooLarge { .. })
        ));
    }
}
