//! The sandbox: a Lua state scripts cannot break out of, hang or share.
//!
//! One guard per host watches the running callback: instructions (a VM hook), wall-clock time,
//! memory, the bytes the host copies out of Lua and the commands queued. When any runs out the
//! guard *stops* the callback, and a stop cannot be caught: the hook, every host function and
//! the wrapped `pcall`/`xpcall`/`coroutine` all raise it again until the callback has returned.
//! Every script gets its own global table; the libraries and API tables it sees through it are
//! read-only proxies, so one script cannot change what another sees.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use mlua::{Function, Lua, LuaOptions, StdLib, Table};

use super::{Limits, StopKind};
use crate::clock::Clock;

mod shipped;

/// How often the hook runs, in VM instructions.
const HOOK_EVERY: u32 = 1000;

/// The running callback's allowances, and whether it has been stopped.
pub(crate) struct Guard {
    limits: Limits,
    used: Cell<u64>,
    /// The host's clocks; `None` where the platform has none and the host set none.
    clock: Option<Clock>,
    /// The clock's reading when the running callback started.
    started: Cell<Duration>,
    host_left: Cell<usize>,
    queued: Cell<usize>,
    stop: Cell<Option<StopKind>>,
    /// Where the stop happened, `file:line`, when known.
    place: std::cell::RefCell<String>,
    /// The script file and callback running now: what its queued commands are noted as.
    running: std::cell::RefCell<(Rc<str>, &'static str)>,
}

impl Guard {
    pub(crate) fn new(limits: Limits) -> Guard {
        let clock = crate::clock::current();
        Guard {
            limits,
            used: Cell::new(0),
            clock,
            started: Cell::new(clock.map_or(Duration::ZERO, |c| (c.elapsed)())),
            host_left: Cell::new(limits.host_bytes),
            queued: Cell::new(0),
            stop: Cell::new(None),
            place: Default::default(),
            running: std::cell::RefCell::new(("".into(), "")),
        }
    }

    /// Notes that `file`'s `callback` runs now (for [`crate::doing`], and for the commands it
    /// queues).
    pub(crate) fn running(&self, file: &Rc<str>, callback: &'static str) {
        crate::doing::callback(file, callback);
        *self.running.borrow_mut() = (file.clone(), callback);
    }

    /// The script file and callback running now.
    pub(crate) fn caller(&self) -> (Rc<str>, &'static str) {
        self.running.borrow().clone()
    }

    pub(crate) fn limits(&self) -> Limits {
        self.limits
    }

    /// The state's guard, raising its stop if the running callback was stopped: every host
    /// function starts with it.
    pub(crate) fn of(lua: &Lua) -> mlua::Result<Rc<Guard>> {
        let g = lua
            .app_data_ref::<Rc<Guard>>()
            .ok_or_else(|| super::lua_err("the script host is gone".into()))?
            .clone();
        g.check()?;
        Ok(g)
    }

    /// Fresh allowances for a new callback.
    pub(crate) fn reset(&self) {
        self.used.set(0);
        self.started.set(self.now());
        self.host_left.set(self.limits.host_bytes);
        self.queued.set(0);
        self.stop.set(None);
        self.place.borrow_mut().clear();
    }

    /// The clock's reading; without a clock, the end of time, so that every callback is over
    /// its wall clock rather than unlimited (`new_state` refuses to make such a state).
    fn now(&self) -> Duration {
        self.clock.map_or(Duration::MAX, |c| (c.elapsed)())
    }

    /// Why the running callback was stopped, if it was.
    pub(crate) fn stopped(&self) -> Option<StopKind> {
        self.stop.get()
    }

    /// Stops the callback (the first reason sticks) and returns the error to raise.
    pub(crate) fn trip(&self, kind: StopKind, place: String) -> mlua::Error {
        if self.stop.get().is_none() {
            self.stop.set(Some(kind));
            *self.place.borrow_mut() = place;
        }
        self.error()
    }

    /// The error a stopped callback raises, again and again.
    pub(crate) fn error(&self) -> mlua::Error {
        let kind = self.stop.get().unwrap_or(StopKind::Instructions);
        let place = self.place.borrow();
        let at = if place.is_empty() {
            String::new()
        } else {
            format!("{place}: ")
        };
        mlua::Error::RuntimeError(format!("{at}stopped: {}", kind.describe(&self.limits)))
    }

    /// Raises the stop if the callback has been stopped: every host function starts with it.
    pub(crate) fn check(&self) -> mlua::Result<()> {
        match self.stop.get() {
            Some(_) => Err(self.error()),
            None => Ok(()),
        }
    }

    /// Instructions the callback may still run (pattern matching spends from the same pool).
    pub(crate) fn instructions_left(&self) -> u64 {
        self.limits.instructions.saturating_sub(self.used.get())
    }

    /// Spends `n` instructions; the stop once over, or once past the wall-clock ceiling.
    pub(crate) fn spend(&self, n: u64, place: impl FnOnce() -> String) -> mlua::Result<()> {
        self.check()?;
        let used = self.used.get().saturating_add(n);
        self.used.set(used);
        if used > self.limits.instructions {
            return Err(self.trip(StopKind::Instructions, place()));
        }
        if self.now().saturating_sub(self.started.get()) > self.limits.wall_clock {
            return Err(self.trip(StopKind::WallClock, place()));
        }
        Ok(())
    }

    /// Spends `bytes` of the host-copy allowance.
    pub(crate) fn copy(&self, bytes: usize, place: impl FnOnce() -> String) -> mlua::Result<()> {
        self.check()?;
        match self.host_left.get().checked_sub(bytes) {
            Some(left) => {
                self.host_left.set(left);
                Ok(())
            }
            None => Err(self.trip(StopKind::HostCopies, place())),
        }
    }

    /// Bytes of host copies left to the callback.
    pub(crate) fn host_left(&self) -> usize {
        self.host_left.get()
    }

    /// Counts one queued command for a caller that has raised any stop itself since the
    /// callback last ran script code (a command call checks at its start, and nothing between
    /// runs a script).
    #[inline]
    pub(crate) fn count_queued(&self, place: impl FnOnce() -> String) -> mlua::Result<()> {
        let n = self.queued.get() + 1;
        if n > self.limits.commands {
            return Err(self.trip(StopKind::Commands, place()));
        }
        self.queued.set(n);
        Ok(())
    }
}

impl super::strings::Meter for Guard {
    fn remaining(&self) -> u64 {
        self.instructions_left()
    }

    fn memory_limit(&self) -> Option<usize> {
        Some(self.limits.memory)
    }

    fn charge(&self, lua: &Lua, steps: u64) -> mlua::Result<()> {
        // Metered steps count as instructions; where they ran out is the script's call, past
        // the bounded library's own Lua.
        self.spend(steps, || super::script_place(lua))
    }
}

/// Makes the Lua state: the safe libraries, the guarded base functions, the hook.
pub(crate) fn new_state(guard: &Rc<Guard>, seed: u64) -> mlua::Result<Lua> {
    let clock = guard.clock.ok_or_else(|| {
        super::lua_err(
            "no clock for the wall-clock limit: on this platform the host sets one with \
             jengine::host::set_clock before making a script host"
                .into(),
        )
    })?;
    let lua = Lua::new_with(
        StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::UTF8 | StdLib::MATH,
        LuaOptions::new(),
    )?;
    lua.set_memory_limit(guard.limits().memory)?;
    lua.set_app_data(guard.clone());
    let g = lua.globals();
    for name in ["dofile", "loadfile", "require", "collectgarbage", "_G"] {
        g.raw_set(name, mlua::Value::Nil)?;
    }
    let string: Table = g.get("string")?;
    string.raw_set("dump", mlua::Value::Nil)?;
    super::bounded::harden(&lua, guard.clone())?;
    let start = (clock.elapsed)();
    let os = lua.create_table()?;
    os.raw_set(
        "clock",
        lua.create_function(move |_, ()| {
            Ok((clock.elapsed)().saturating_sub(start).as_secs_f64())
        })?,
    )?;
    os.raw_set(
        "time",
        lua.create_function(move |_, ()| Ok((clock.unix_seconds)()))?,
    )?;
    g.raw_set("os", os)?;
    let math: Table = g.get("math")?;
    math.get::<Function>("randomseed")?
        .call::<()>(seed as i64)?;
    install_hook(&lua, guard)?;
    Ok(lua)
}

fn install_hook(lua: &Lua, guard: &Rc<Guard>) -> mlua::Result<()> {
    let guard = guard.clone();
    let triggers = mlua::HookTriggers::new().every_nth_instruction(HOOK_EVERY);
    // The global hook: coroutines the script creates inherit it (a per-thread hook would not
    // follow them).
    lua.set_global_hook(triggers, move |lua, debug| {
        guard.spend(HOOK_EVERY as u64, || {
            let src = debug
                .source()
                .short_src
                .map(|s| s.into_owned())
                .unwrap_or_default();
            // Inside the host's own Lua (a bounded library loop), the place is the script's call.
            if src == "bounded library" || src == "sandbox" {
                return super::script_place(lua);
            }
            format!("{src}:{}", debug.current_line().unwrap_or(0))
        })?;
        Ok(mlua::VmState::Continue)
    })
}

/// Wraps what can catch an error so that it cannot catch a stop, and freezes every table in
/// the globals. Runs once, after every API table is installed. Returns the function that
/// makes a script's environment.
pub(crate) fn seal(
    lua: &Lua,
    guard: &Rc<Guard>,
    scripts: std::sync::Arc<dyn crate::assets::Assets>,
    print: Function,
) -> mlua::Result<Function> {
    let import = lua.create_function(move |lua, (name, env): (mlua::Value, Table)| {
        Guard::of(lua)?;
        let at = super::script_place(lua);
        let fail = |what: String| {
            let place = if at.is_empty() {
                String::new()
            } else {
                format!("{at}: ")
            };
            mlua::Error::RuntimeError(format!("{place}import: {what}"))
        };
        let name = match name {
            mlua::Value::String(s) => s.to_string_lossy(),
            other => {
                return Err(fail(format!(
                    "argument 1 (name) must be a script under assets/scripts, got {}",
                    other.type_name()
                )));
            }
        };
        crate::asset::check_asset_name(&name).map_err(|e| fail(e.to_string()))?;
        if !name.ends_with(".lua") {
            return Err(fail(format!("{name:?} is not a .lua file")));
        }
        // The engine's own modules come from the engine, never from the project's files.
        let (text, chunk_name) = if name.starts_with(shipped::PREFIX) {
            let text = shipped::source(&name).map_err(fail)?;
            (text.to_string(), format!("@{name}"))
        } else {
            let text = scripts
                .read_text(&name)
                .map_err(|e| fail(format!("cannot read assets/scripts/{name}: {}", e.problem)))?;
            (text, format!("@assets/scripts/{name}"))
        };
        lua.load(text)
            .set_name(chunk_name)
            .set_mode(mlua::chunk::ChunkMode::Text)
            .set_environment(env)
            .into_function()
    })?;
    let g = guard.clone();
    let stopped = lua.create_function(move |_, ()| Ok(g.stopped().is_some()))?;
    let g = guard.clone();
    let out_of_memory = lua.create_function(move |lua, ()| -> mlua::Result<()> {
        Err(g.trip(StopKind::Memory, super::script_place(lua)))
    })?;
    let plain = lua.create_function(|lua, v: mlua::Value| match v {
        mlua::Value::Error(e) => Ok(mlua::Value::String(
            lua.create_string(crate::convert::describe_lua_error(&e))?,
        )),
        other => Ok(other),
    })?;
    let g = guard.clone();
    let restop = lua.create_function(move |_, ()| -> mlua::Result<()> { Err(g.error()) })?;
    lua.load(SEAL).set_name("=sandbox").call::<Function>((
        stopped,
        out_of_memory,
        restop,
        print,
        plain,
        import,
    ))
}

/// The Lua half of the seal. `guard(ok, ...)` passes results through unless the callback was
/// stopped or the error is Lua's own out-of-memory error, which it turns into a stop.
const SEAL: &str = r##"
local stopped, out_of_memory, restop, host_print, plain, host_import = ...
local G = _ENV
local rawload, rawpcall, rawxpcall, rawset_, setmetatable_, getmetatable_, rawget_, type_, select_, error_, next_, tostring_ =
    load, pcall, xpcall, rawset, setmetatable, getmetatable, rawget, type, select, error, next, tostring
local resume, wrap, pack, unpack = coroutine.resume, coroutine.wrap, table.pack, table.unpack
local MEMORY = "not enough memory"
rawset_(G, "load", nil)

-- Errors raised by host functions arrive as userdata; scripts get their message as a string.
local function guard(r)
    if not r[1] then
        if stopped() then restop() end
        if rawequal(r[2], MEMORY) then out_of_memory() end
        if type_(r[2]) == "userdata" then r[2] = plain(r[2]) end
    end
    return unpack(r, 1, r.n)
end

pcall = function(...) return guard(pack(rawpcall(...))) end
xpcall = function(f, handler, ...)
    return guard(pack(rawxpcall(f, function(e)
        if stopped() then return e end
        if type_(e) == "userdata" then e = plain(e) end
        return handler(e)
    end, ...)))
end
coroutine.resume = function(...) return guard(pack(resume(...))) end
coroutine.wrap = function(f)
    local co = coroutine.create(f)
    return function(...)
        local r = pack(resume(co, ...))
        guard(r)
        if not r[1] then error_(r[2], 0) end
        return unpack(r, 2, r.n)
    end
end

local frozen = setmetatable_({}, {__mode = "k"})
rawset = function(t, k, v)
    if frozen[t] then error_("cannot change a read-only table", 2) end
    return rawset_(t, k, v)
end
setmetatable = function(t, mt)
    if type_(getmetatable_(t)) == "string" then
        error_("cannot change a protected metatable", 2)
    end
    if type_(mt) == "table" and rawget_(mt, "__gc") ~= nil then
        error_("__gc is not allowed: scripts cannot install finalizers", 2)
    end
    return setmetatable_(t, mt)
end
print = host_print

-- A read-only proxy for `real`, and for every table inside it (each real table gets one proxy,
-- so cycles and shared subtables stay as they were). Every door out of a proxy (indexing,
-- `pairs`, `ipairs`, `#`) hands back proxies, never a real table: `pairs` iterates with a
-- function of its own over the proxy, not `next` over the real table.
local proxies = {}
local function freeze(real, name, strict)
    local have = proxies[real]
    if have then return have end
    local proxy = {}
    proxies[real] = proxy
    frozen[proxy] = true
    for k, v in next_, real do
        if type_(v) == "table" and not frozen[v] then
            rawset_(real, k, freeze(v, name .. "." .. tostring_(k), false))
        end
    end
    -- The proxy reads through to the real table in C, with no Lua function run per read: a
    -- call of `Bench.noop` costs two table lookups. A strict table says a missing name from a
    -- metatable on the real table itself, which no script can reach (every door hands out the
    -- proxy, and the error names only the key).
    if strict then
        setmetatable_(real, {
            __index = function(_, k)
                error_(name .. "." .. tostring_(k) .. " does not exist", 2)
            end,
            __metatable = "read-only",
        })
    end
    local function step(_, k) return next_(real, k) end
    setmetatable_(proxy, {
        __index = real,
        __newindex = function(_, k)
            error_(name .. " is read-only: a script cannot change " .. name .. "." .. tostring_(k), 2)
        end,
        __pairs = function() return step, proxy, nil end,
        __len = function() return #real end,
        __metatable = "read-only",
    })
    return proxy
end

local libraries = {string = true, table = true, math = true, utf8 = true, coroutine = true, os = true}
local names = {}
for k, v in next_, G do
    if type_(v) == "table" then names[#names + 1] = k end
end
for _, k in ipairs(names) do
    rawset_(G, k, freeze(G[k], k, not libraries[k]))
end
proxies = nil
local string_meta = getmetatable("")
string_meta.__metatable = "read-only"

-- A script's environment: its own globals, reading through to the sealed ones.
local LOADING = {}
-- The sealed tables (the libraries and the API namespaces, all read-only proxies) are copied
-- into each environment, so a script's `Bench.noop` finds `Bench` in one lookup rather than
-- through the environment's fallback. A script may still shadow one in its own globals, as
-- it could before; that changes only what it sees itself.
local sealed = {}
for k, v in next_, G do
    if frozen[v] then sealed[k] = v end
end
local function make_env(shared)
    local env = {}
    for k, v in next_, sealed do env[k] = v end
    env._G = env
    env.load = function(chunk, name, mode, ...)
        if type_(chunk) ~= "string" then
            error_("load takes source text (a string), got " .. type_(chunk), 2)
        end
        local e = env
        if select_("#", ...) > 0 then e = ... end
        return rawload(chunk, name, "t", e)
    end
    -- A module runs once per importing script, in globals of its own; what it returns (true
    -- when nothing) is kept, so the script's later imports of it get the same value. Modules
    -- share their script's list, so a cycle is seen wherever it closes.
    local imports = shared or {}
    env.import = function(name)
        local have = imports[name]
        if have == LOADING then
            error_("import: " .. tostring_(name) .. " imports itself (an import cycle)", 2)
        end
        if have ~= nil then return have end
        local chunk = host_import(name, make_env(imports))
        imports[name] = LOADING
        local r = pack(rawpcall(chunk))
        if not r[1] then
            imports[name] = nil
            guard(r)
            error_(r[2], 0)
        end
        local value = r[2]
        if value == nil then value = true end
        imports[name] = value
        return value
    end
    return setmetatable_(env, {__index = G, __metatable = "read-only"})
end
return function() return make_env(nil) end
"##;
