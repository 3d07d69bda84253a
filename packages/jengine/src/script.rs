//! The Lua bridge: one sandboxed Lua 5.4 state running every entity's script.
//!
//! Scripts never touch the world directly. A command call is checked against its declared
//! parameters and queued; the host applies the queue in call order after scripts run. Reads
//! go through `Entity.get`, which hands back a component or the bag a package published.
//! Every callback runs under an instruction budget, so an endless loop is stopped with its
//! file and line and the game goes on.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, LuaOptions, LuaSerdeExt, MultiValue, StdLib, Table};
use serde::Serialize;

use crate::components::{
    BulkEntity, Camera2D, Mesh2D, Name, Script, Sprite, SpriteLibrary, Text, Transform2D,
};
use crate::registry::Registry;
use crate::save::SaveStore;
use crate::table::Tables;
use crate::value::{self, Args, Value};
use crate::world::{Entity, Log, World};

/// Limits a script host runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes the Lua state may allocate.
    pub memory: usize,
    /// VM instructions one callback may run before it is stopped.
    pub instructions: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: 64 << 20,
            instructions: 20_000_000,
        }
    }
}

/// How often the budget hook runs, in instructions.
const HOOK_EVERY: u32 = 1000;

/// A command call waiting for the end of the scripts' turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Queued {
    /// Index into [`Registry::commands`].
    pub command: usize,
    /// The checked arguments.
    pub args: Args,
}

/// A script problem: a syntax error, a runtime error or a stopped loop, with file and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError(pub String);

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScriptError {}

struct Instance {
    entity: Entity,
    file: String,
    start: Option<Function>,
    update: Option<Function>,
    pointer: Option<Function>,
    key: Option<Function>,
    started: bool,
    stopped: bool,
}

#[derive(Default)]
struct Budget {
    used: Cell<u64>,
    limit: Cell<u64>,
    tripped: Cell<bool>,
}

/// The Lua state, the entity scripts and the command queue.
pub struct ScriptHost {
    lua: Lua,
    scripts_dir: PathBuf,
    queue: Rc<RefCell<Vec<Queued>>>,
    budget: Rc<Budget>,
    instances: Vec<Instance>,
    sources: HashMap<String, Rc<str>>,
    bags: Table,
    save: Rc<RefCell<SaveStore>>,
}

/// Serializes `value` into a Lua value the way bags and components are handed to scripts:
/// `None` becomes `nil` (so `if bag.x == nil` works), structs become tables.
pub fn to_lua<T: Serialize + ?Sized>(lua: &Lua, value: &T) -> mlua::Result<mlua::Value> {
    let options = mlua::serde::SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false);
    lua.to_value_with(value, options)
}

/// The message of a Lua error without Rust-side wrapping or the traceback.
pub fn describe(err: &mlua::Error) -> String {
    match err {
        mlua::Error::CallbackError { cause, .. } => describe(cause),
        mlua::Error::WithContext { cause, .. } => describe(cause),
        mlua::Error::RuntimeError(m) | mlua::Error::MemoryError(m) => m
            .split("\nstack traceback:")
            .next()
            .unwrap_or(m)
            .to_string(),
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::ExternalError(e) => e.to_string(),
        other => other.to_string(),
    }
}

fn entity_value(e: Entity) -> i64 {
    e.to_bits().get() as i64
}

fn lua_err(message: String) -> mlua::Error {
    mlua::Error::RuntimeError(message)
}

/// `file:line: ` of the Lua code calling into Rust, or nothing when there is none.
fn caller(lua: &Lua) -> String {
    lua.inspect_stack(1, |d| {
        let src = d
            .source()
            .short_src
            .map(|s| s.into_owned())
            .unwrap_or_default();
        match d.current_line() {
            Some(line) if !src.is_empty() => format!("{src}:{line}: "),
            _ => String::new(),
        }
    })
    .unwrap_or_default()
}

fn to_value(lua: &Lua, v: mlua::Value) -> Result<Value, String> {
    Ok(match v {
        mlua::Value::Nil => Value::Nil,
        mlua::Value::Boolean(b) => Value::Bool(b),
        mlua::Value::Integer(i) => Value::Int(i),
        mlua::Value::Number(n) => Value::Num(n),
        mlua::Value::String(s) => Value::Str(s.to_string_lossy()),
        t @ mlua::Value::Table(_) => Value::Table(
            lua.from_value::<serde_json::Value>(t)
                .map_err(|e| format!("table (cannot be read as data: {})", describe(&e)))?,
        ),
        other => return Err(other.type_name().to_string()),
    })
}

impl ScriptHost {
    /// A sandboxed state with the core API and every registered command.
    pub fn new(
        registry: &Registry,
        scripts_dir: &Path,
        limits: Limits,
        seed: u64,
    ) -> mlua::Result<ScriptHost> {
        let lua = Lua::new_with(
            StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::UTF8 | StdLib::MATH,
            LuaOptions::new(),
        )?;
        lua.set_memory_limit(limits.memory)?;
        let budget = Rc::new(Budget::default());
        budget.limit.set(limits.instructions);
        let queue = Rc::new(RefCell::new(Vec::new()));
        let save = Rc::new(RefCell::new(SaveStore::in_memory()));
        let host = ScriptHost {
            bags: lua.create_table()?,
            lua,
            scripts_dir: scripts_dir.to_path_buf(),
            queue,
            budget,
            instances: Vec::new(),
            sources: HashMap::new(),
            save,
        };
        host.sandbox(seed)?;
        host.install_hook()?;
        host.install_core()?;
        host.install_commands(registry)?;
        Ok(host)
    }

    /// The Lua state (for tests and benchmarks that drive it directly).
    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    fn sandbox(&self, seed: u64) -> mlua::Result<()> {
        let g = self.lua.globals();
        for name in ["dofile", "loadfile", "require", "collectgarbage"] {
            g.raw_set(name, mlua::Value::Nil)?;
        }
        let string: Table = g.get("string")?;
        string.raw_set("dump", mlua::Value::Nil)?;
        let start = std::time::Instant::now();
        let os = self.lua.create_table()?;
        os.set(
            "clock",
            self.lua
                .create_function(move |_, ()| Ok(start.elapsed().as_secs_f64()))?,
        )?;
        os.set(
            "time",
            self.lua.create_function(|_, ()| {
                Ok(std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs() as i64)
                    .unwrap_or(0))
            })?,
        )?;
        g.set("os", os)?;
        let budget = self.budget.clone();
        let tripped = self
            .lua
            .create_function(move |_, ()| Ok(budget.tripped.get()))?;
        let log = self.lua.create_function(|lua, msg: mlua::Value| {
            let text = match &msg {
                mlua::Value::String(s) => s.to_string_lossy(),
                other => other.to_string().unwrap_or_default(),
            };
            let line = format!("{}{text}", caller(lua));
            if let Some(mut world) = lua.app_data_mut::<World>() {
                world.log().info(line);
            }
            Ok(())
        })?;
        // Text-only `load`; protected calls that cannot swallow a stopped loop; print to the log.
        self.lua
            .load(
                r#"
                local tripped, log = ...
                local rawload, rawpcall, rawxpcall, resume = load, pcall, xpcall, coroutine.resume
                local pack, unpack = table.pack, table.unpack
                local function guard(r)
                    if not r[1] and tripped() then error(r[2], 0) end
                    return unpack(r, 1, r.n)
                end
                load = function(chunk, name, _, env) return rawload(chunk, name, "t", env) end
                pcall = function(...) return guard(pack(rawpcall(...))) end
                xpcall = function(...) return guard(pack(rawxpcall(...))) end
                coroutine.resume = function(...) return guard(pack(resume(...))) end
                print = function(...)
                    local parts = pack(...)
                    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
                    log(table.concat(parts, "\t", 1, parts.n))
                end
                "#,
            )
            .set_name("=sandbox")
            .call::<()>((tripped, log))?;
        let math: Table = g.get("math")?;
        let randomseed: Function = math.get("randomseed")?;
        randomseed.call::<()>(seed as i64)?;
        Ok(())
    }

    fn install_hook(&self) -> mlua::Result<()> {
        let budget = self.budget.clone();
        let triggers = mlua::HookTriggers::new().every_nth_instruction(HOOK_EVERY);
        self.lua.set_hook(triggers, move |_, debug| {
            let used = budget.used.get() + HOOK_EVERY as u64;
            budget.used.set(used);
            if used > budget.limit.get() {
                budget.tripped.set(true);
                let src = debug.source().short_src.map(|s| s.into_owned()).unwrap_or_default();
                let line = debug.current_line().unwrap_or(0);
                return Err(lua_err(format!(
                    "{src}:{line}: stopped: the script ran {} instructions in one callback (an endless loop?)",
                    budget.limit.get()
                )));
            }
            Ok(mlua::VmState::Continue)
        })
    }

    fn install_core(&self) -> mlua::Result<()> {
        let lua = &self.lua;
        let g = lua.globals();
        let entity = namespace(lua, "Entity")?;
        entity.set(
            "find",
            lua.create_function(|lua, name: String| {
                let world = lua
                    .app_data_ref::<World>()
                    .ok_or_else(|| lua_err("Entity.find: no world is running".into()))?;
                Ok(world
                    .find(&name)
                    .filter(|e| world.entities.get::<&BulkEntity>(*e).is_err())
                    .map(entity_value))
            })?,
        )?;
        let bags = self.bags.clone();
        entity.set(
            "get",
            lua.create_function(move |lua, (e, key): (mlua::Value, String)| {
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
                if let Some(bag) = bags.raw_get::<Option<Table>>(key.as_str())? {
                    let found: mlua::Value = bag.raw_get(entity_value(e))?;
                    if !found.is_nil() {
                        return Ok(found);
                    }
                }
                let world = lua
                    .app_data_ref::<World>()
                    .ok_or_else(|| lua_err("Entity.get: no world is running".into()))?;
                let registry = lua.app_data_ref::<Rc<Registry>>();
                read_component(lua, &world, registry.as_deref().map(|r| &**r), e, &key)
            })?,
        )?;
        g.set("Entity", entity)?;

        let data = namespace(lua, "Data")?;
        let cache = lua.create_table()?;
        data.set(
            "table",
            lua.create_function(move |lua, name: String| {
                let name = crate::table::table_name(&name).to_string();
                if let Some(t) = cache.raw_get::<Option<mlua::Value>>(name.as_str())? {
                    return Ok(t);
                }
                let world = lua
                    .app_data_ref::<World>()
                    .ok_or_else(|| lua_err("Data.table: no world is running".into()))?;
                let table = world
                    .resources
                    .get::<Tables>()
                    .and_then(|t| t.raw(&name))
                    .ok_or_else(|| {
                        lua_err(format!(
                            "{}Data.table: no table {name:?} in the project's data folder",
                            caller(lua)
                        ))
                    })?;
                let value = to_lua(lua, &table.rows)?;
                cache.raw_set(name.as_str(), value.clone())?;
                Ok(value)
            })?,
        )?;
        g.set("Data", data)?;

        let save = namespace(lua, "Save")?;
        let store = self.save.clone();
        save.set(
            "get",
            lua.create_function(move |lua, key: String| match store.borrow().get(&key) {
                Some(v) => to_lua(lua, v),
                None => Ok(mlua::Value::Nil),
            })?,
        )?;
        let store = self.save.clone();
        save.set(
            "set",
            lua.create_function(move |lua, (key, value): (String, mlua::Value)| {
                let json: serde_json::Value = match value {
                    mlua::Value::Nil => serde_json::Value::Null,
                    v => lua.from_value(v).map_err(|e| {
                        lua_err(format!(
                            "{}Save.set: argument 2 (value) cannot be saved: {}",
                            caller(lua),
                            describe(&e)
                        ))
                    })?,
                };
                store.borrow_mut().set(&key, json);
                Ok(())
            })?,
        )?;
        g.set("Save", save)?;

        let log = namespace(lua, "Log")?;
        for (name, warn) in [("info", false), ("warn", true)] {
            log.set(
                name,
                lua.create_function(move |lua, msg: mlua::Value| {
                    let text = match &msg {
                        mlua::Value::String(s) => s.to_string_lossy(),
                        other => other.to_string().unwrap_or_default(),
                    };
                    let line = format!("{}{text}", caller(lua));
                    if let Some(mut world) = lua.app_data_mut::<World>() {
                        if warn {
                            world.log().warn(line);
                        } else {
                            world.log().info(line);
                        }
                    }
                    Ok(())
                })?,
            )?;
        }
        g.set("Log", log)?;
        Ok(())
    }

    fn install_commands(&self, registry: &Registry) -> mlua::Result<()> {
        let lua = &self.lua;
        let g = lua.globals();
        for (index, cmd) in registry.commands.iter().enumerate() {
            let table = match g.raw_get::<Option<Table>>(cmd.namespace.as_str())? {
                Some(t) => t,
                None => {
                    let t = namespace(lua, &cmd.namespace)?;
                    g.raw_set(cmd.namespace.as_str(), t.clone())?;
                    t
                }
            };
            let params: Rc<[value::Param]> = cmd.params.clone().into();
            let queue = self.queue.clone();
            let name: Rc<str> = cmd.qualified().into();
            let f = lua.create_function(move |lua, args: MultiValue| {
                let mut values = Vec::with_capacity(args.len());
                for (i, v) in args.into_iter().enumerate() {
                    match to_value(lua, v) {
                        Ok(v) => values.push(v),
                        Err(kind) => {
                            let p = params.get(i);
                            let detail = match p {
                                Some(p) => format!("argument {} ({})", i + 1, p.name),
                                None => format!("argument {}", i + 1),
                            };
                            return Err(lua_err(format!(
                                "{}{name}: {detail} got {kind}, which a command cannot take",
                                caller(lua)
                            )));
                        }
                    }
                }
                value::check_all(&params, &values)
                    .map_err(|e| lua_err(format!("{}{name}: {e}", caller(lua))))?;
                queue.borrow_mut().push(Queued {
                    command: index,
                    args: Args::new(values),
                });
                Ok(())
            })?;
            table.raw_set(cmd.name.as_str(), f.clone())?;
            if cmd.package != "core" {
                g.raw_set(cmd.flat.as_str(), f)?;
            }
        }
        Ok(())
    }

    /// Starts a fresh instruction budget, as every callback does; for code that calls into
    /// the Lua state directly.
    pub fn reset_budget(&self) {
        self.budget.used.set(0);
        self.budget.tripped.set(false);
    }

    /// Uses `store` for `Save.get` / `Save.set`.
    pub fn set_save(&mut self, store: SaveStore) {
        *self.save.borrow_mut() = store;
    }

    /// Writes the save store if it changed.
    pub fn flush_save(&self) -> Result<(), String> {
        self.save.borrow_mut().flush()
    }

    /// Makes the registry reachable from `Entity.get` for package components.
    pub fn set_registry(&self, registry: Rc<Registry>) {
        self.lua.set_app_data(registry);
    }

    fn source(&mut self, file: &str) -> Result<Rc<str>, ScriptError> {
        if let Some(s) = self.sources.get(file) {
            return Ok(s.clone());
        }
        let path = self.scripts_dir.join(file);
        let text: Rc<str> = std::fs::read_to_string(&path)
            .map_err(|e| ScriptError(format!("assets/scripts/{file}: cannot read script: {e}")))?
            .into();
        self.sources.insert(file.to_string(), text.clone());
        Ok(text)
    }

    /// Compiles a script without running it (for `jengine check`).
    pub fn check_syntax(&mut self, file: &str) -> Result<(), ScriptError> {
        let source = self.source(file)?;
        self.lua
            .load(&*source)
            .set_name(format!("@assets/scripts/{file}"))
            .set_mode(ChunkMode::Text)
            .into_function()
            .map(|_| ())
            .map_err(|e| ScriptError(describe(&e)))
    }

    /// Runs the script of every entity in `entities` that has one (and is not bulk), in order.
    /// Each runs in its own environment, so its globals are its own. Errors name file and line;
    /// an entity whose script fails to load simply has no callbacks.
    pub fn attach(&mut self, world: &mut World, entities: &[Entity]) -> Vec<ScriptError> {
        let mut errors = Vec::new();
        for &e in entities {
            let file = match world.entities.get::<&Script>(e) {
                Ok(s) if world.entities.get::<&BulkEntity>(e).is_err() => s.0.clone(),
                _ => continue,
            };
            match self.load_instance(world, e, &file) {
                Ok(instance) => self.instances.push(instance),
                Err(err) => errors.push(err),
            }
        }
        errors
    }

    fn load_instance(
        &mut self,
        world: &mut World,
        entity: Entity,
        file: &str,
    ) -> Result<Instance, ScriptError> {
        let source = self.source(file)?;
        let env = self
            .lua
            .create_table()
            .map_err(|e| ScriptError(describe(&e)))?;
        let meta = self
            .lua
            .create_table()
            .map_err(|e| ScriptError(describe(&e)))?;
        meta.raw_set("__index", self.lua.globals())
            .map_err(|e| ScriptError(describe(&e)))?;
        env.set_metatable(Some(meta))
            .map_err(|e| ScriptError(describe(&e)))?;
        let chunk = self
            .lua
            .load(&*source)
            .set_name(format!("@assets/scripts/{file}"))
            .set_mode(ChunkMode::Text)
            .set_environment(env.clone());
        let run = with_world(&self.lua, &self.budget, world, || chunk.exec());
        run.map_err(|e| ScriptError(describe(&e)))?;
        let get = |name: &str| env.raw_get::<Option<Function>>(name).ok().flatten();
        Ok(Instance {
            entity,
            file: file.to_string(),
            start: get("start"),
            update: get("update"),
            pointer: get("pointer"),
            key: get("key"),
            started: false,
            stopped: false,
        })
    }

    /// Forgets every script (before a new scene is spawned).
    pub fn detach_all(&mut self) {
        self.instances.clear();
        self.bags = self
            .lua
            .create_table()
            .unwrap_or_else(|_| self.bags.clone());
    }

    /// Calls `start(e)` on every script not yet started, then `update(e, dt)` on all.
    pub fn update(&mut self, world: &mut World, dt: f64) {
        self.each(world, |inst| {
            let mut calls = Vec::new();
            if !inst.started {
                inst.started = true;
                if let Some(f) = &inst.start {
                    calls.push(("start", f.clone(), CallArgs::Entity));
                }
            }
            if let Some(f) = &inst.update {
                calls.push(("update", f.clone(), CallArgs::Update(dt)));
            }
            calls
        });
    }

    /// Calls `pointer(e, phase, x, y)` on every script (phase: press, drag, release, hover).
    pub fn pointer(&mut self, world: &mut World, phase: &str, x: f64, y: f64) {
        let phase: Rc<str> = phase.into();
        self.each(world, |inst| match &inst.pointer {
            Some(f) if inst.started => {
                vec![("pointer", f.clone(), CallArgs::Pointer(phase.clone(), x, y))]
            }
            _ => Vec::new(),
        });
    }

    /// Calls `key(e, name, down)` on every script.
    pub fn key(&mut self, world: &mut World, name: &str, down: bool) {
        let name: Rc<str> = name.into();
        self.each(world, |inst| match &inst.key {
            Some(f) if inst.started => vec![("key", f.clone(), CallArgs::Key(name.clone(), down))],
            _ => Vec::new(),
        });
    }

    fn each(
        &mut self,
        world: &mut World,
        mut pick: impl FnMut(&mut Instance) -> Vec<(&'static str, Function, CallArgs)>,
    ) {
        self.instances.retain(|i| world.entities.contains(i.entity));
        let mut errors = Vec::new();
        for inst in self.instances.iter_mut().filter(|i| !i.stopped) {
            for (callback, f, args) in pick(inst) {
                let e = entity_value(inst.entity);
                let result = with_world(&self.lua, &self.budget, world, || match &args {
                    CallArgs::Entity => f.call::<()>(e),
                    CallArgs::Update(dt) => f.call::<()>((e, *dt)),
                    CallArgs::Pointer(phase, x, y) => f.call::<()>((e, &**phase, *x, *y)),
                    CallArgs::Key(name, down) => f.call::<()>((e, &**name, *down)),
                });
                if let Err(err) = result {
                    let message = describe(&err);
                    if self.budget.tripped.get() {
                        inst.stopped = true;
                        errors.push(format!(
                            "{message}; {callback}() of {} is switched off, the game goes on",
                            inst.file
                        ));
                    } else {
                        errors.push(format!("{message} (in {callback})"));
                    }
                    break;
                }
            }
        }
        let log: &mut Log = world.log();
        for e in errors {
            log.warn_once(e);
        }
    }

    /// Takes the calls queued since the last take, in call order.
    pub fn take_queue(&self) -> Vec<Queued> {
        std::mem::take(&mut *self.queue.borrow_mut())
    }

    /// Applies the queued calls in order; a failing call is logged and changes nothing.
    pub fn apply_queue(&self, registry: &Registry, world: &mut World) {
        for q in self.take_queue() {
            let cmd = &registry.commands[q.command];
            if let Err(message) = (cmd.handler)(world, &q.args) {
                world.log().warn(format!("{}: {message}", cmd.qualified()));
            }
        }
    }

    /// Publishes every registered bag, replacing last frame's.
    pub fn publish_bags(&mut self, registry: &Registry, world: &World) -> mlua::Result<()> {
        for bag in &registry.bags {
            let table = self.lua.create_table()?;
            (bag.publish_lua)(world, &self.lua, &mut |e, v| {
                let _ = table.raw_set(entity_value(e), v);
            })?;
            self.bags.raw_set(bag.key.as_str(), table)?;
        }
        Ok(())
    }
}

/// Moves the world into the Lua state for the duration of `f` (so API functions can read
/// it) under a fresh instruction budget, then takes it back.
fn with_world<R>(lua: &Lua, budget: &Budget, world: &mut World, f: impl FnOnce() -> R) -> R {
    lua.set_app_data(std::mem::take(world));
    budget.used.set(0);
    budget.tripped.set(false);
    let result = f();
    *world = lua
        .remove_app_data::<World>()
        .expect("the world is put back after every callback");
    result
}

enum CallArgs {
    Entity,
    Update(f64),
    Pointer(Rc<str>, f64, f64),
    Key(Rc<str>, bool),
}

/// A namespace table; reading a missing field is an error naming it, so a typo in a
/// command name fails loudly instead of calling nil.
fn namespace(lua: &Lua, name: &str) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let meta = lua.create_table()?;
    let ns = name.to_string();
    meta.raw_set(
        "__index",
        lua.create_function(
            move |lua, (_, key): (Table, mlua::Value)| -> mlua::Result<()> {
                let key = key.to_string().unwrap_or_default();
                Err(lua_err(format!("{}{ns}.{key} does not exist", caller(lua))))
            },
        )?,
    )?;
    t.set_metatable(Some(meta))?;
    Ok(t)
}

fn read_component(
    lua: &Lua,
    world: &World,
    registry: Option<&Registry>,
    e: Entity,
    key: &str,
) -> mlua::Result<mlua::Value> {
    fn get<T: hecs::Component + Serialize>(
        lua: &Lua,
        world: &World,
        e: Entity,
    ) -> mlua::Result<mlua::Value> {
        match world.entities.get::<&T>(e) {
            Ok(c) => to_lua(lua, &*c),
            Err(_) => Ok(mlua::Value::Nil),
        }
    }
    match key {
        "name" => get::<Name>(lua, world, e),
        "transform" => get::<Transform2D>(lua, world, e),
        "sprite" => get::<Sprite>(lua, world, e),
        "text" => get::<Text>(lua, world, e),
        "mesh" => get::<Mesh2D>(lua, world, e),
        "camera" => get::<Camera2D>(lua, world, e),
        "sprite_library" => get::<SpriteLibrary>(lua, world, e),
        "script" => get::<Script>(lua, world, e),
        other => match registry.and_then(|r| r.components.get(other)) {
            Some(binding) => (binding.read_lua)(world, e, lua).unwrap_or(Ok(mlua::Value::Nil)),
            None => Ok(mlua::Value::Nil),
        },
    }
}
