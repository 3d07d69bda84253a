//! The Lua bridge: one sandboxed Lua 5.4 state running every entity's script.
//!
//! Scripts never touch the world directly. A command call is checked against its declared
//! parameters and queued; the host applies the queue in call order after scripts run. Reads
//! go through `Entity.get`, which hands back a component or the bag a package published.
//! Every callback runs under the [`sandbox`]'s guard, so a runaway script is stopped with its
//! file, line and callback, and the game goes on without it.

mod api;
mod bounded;
mod code;
mod commands;
mod library;
mod log;
mod pattern;
mod sandbox;
mod strings;
mod suite;

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, Table};

pub use bounded::{Budget, BudgetStop, Meter, harden};
pub use code::{call_lines, code_only};
pub use commands::{MAX_STRING_ARG, Queued};
pub use suite::LuaTest;

use crate::assets::{Assets, DiskAssets};
use crate::components::{BulkEntity, Script};
use crate::convert::describe_lua_error;
use crate::registry::Registry;
use crate::save::SaveStore;
use crate::world::{Entity, World};
use sandbox::Guard;

/// Limits a script host runs every callback under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes the whole Lua state may allocate.
    pub memory: usize,
    /// VM instructions (and pattern-matching steps) one callback may run.
    pub instructions: u64,
    /// Real time one callback may take, whatever it is doing.
    pub wall_clock: Duration,
    /// Bytes one callback may hand the host (log lines, texts, saves, command arguments).
    pub host_bytes: usize,
    /// Commands one callback may queue.
    pub commands: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: 64 << 20,
            instructions: 20_000_000,
            wall_clock: Duration::from_secs(2),
            host_bytes: 16 << 20,
            commands: 10_000,
        }
    }
}

/// Why a callback was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopKind {
    /// It ran past [`Limits::instructions`].
    Instructions,
    /// It ran past [`Limits::wall_clock`].
    WallClock,
    /// The Lua state ran out of memory.
    Memory,
    /// It handed the host more than [`Limits::host_bytes`].
    HostCopies,
    /// It queued more than [`Limits::commands`] commands.
    Commands,
}

impl StopKind {
    fn describe(self, limits: &Limits) -> String {
        match self {
            StopKind::Instructions => format!(
                "the script ran {} instructions in one callback (an endless loop?)",
                limits.instructions
            ),
            StopKind::WallClock => format!(
                "the callback ran longer than {} ms",
                limits.wall_clock.as_millis()
            ),
            StopKind::Memory => format!(
                "the script ran out of memory (scripts share {} MiB)",
                limits.memory >> 20
            ),
            StopKind::HostCopies => format!(
                "the callback handed the host more than {} bytes (log lines, texts, saves, command arguments)",
                limits.host_bytes
            ),
            StopKind::Commands => {
                format!("the callback queued more than {} commands", limits.commands)
            }
        }
    }
}

/// What kind of problem a [`ScriptError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptErrorKind {
    /// The file could not be read.
    Read,
    /// The file does not compile.
    Syntax,
    /// An error raised while running; the callback runs again next time.
    Runtime,
    /// The callback was stopped and is switched off.
    Stopped(StopKind),
}

/// A script problem with the file, line and callback where it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// What kind of problem.
    pub kind: ScriptErrorKind,
    /// The file the error points at (`assets/scripts/box.lua`).
    pub file: String,
    /// The line, when known.
    pub line: Option<u32>,
    /// The callback that was running (`start`, `update`, ...; `load` for the file's top level).
    pub callback: Option<&'static str>,
    /// What went wrong.
    pub message: String,
}

impl ScriptError {
    fn new(kind: ScriptErrorKind, file: &str, callback: Option<&'static str>, raw: String) -> Self {
        let (place, message) = split_place(&raw);
        let (line, message) = match place {
            Some((f, l)) if f == file => (Some(l), message.to_string()),
            // Code the script loaded itself: the place goes in the message, the script
            // stays the file.
            Some(_) => (None, raw.clone()),
            None => (None, message.to_string()),
        };
        ScriptError {
            kind,
            file: file.to_string(),
            line,
            callback,
            message,
        }
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.message)?,
            None => write!(f, "{}: {}", self.file, self.message)?,
        }
        match (self.kind, self.callback) {
            (ScriptErrorKind::Stopped(_), Some(cb)) => write!(
                f,
                "; {cb}() of this script is switched off, the game goes on"
            ),
            (_, Some(cb)) => write!(f, " (in {cb})"),
            _ => Ok(()),
        }
    }
}

impl std::error::Error for ScriptError {}

/// Splits `file:line: message` into its place and message.
fn split_place(raw: &str) -> (Option<(&str, u32)>, &str) {
    let mut search = 0;
    while let Some(at) = raw[search..].find(": ") {
        let head = &raw[..search + at];
        if let Some(colon) = head.rfind(':')
            && let Ok(line) = head[colon + 1..].parse::<u32>()
            && colon > 0
            && !head[..colon].contains('\n')
        {
            return (Some((&head[..colon], line)), &raw[search + at + 2..]);
        }
        search += at + 2;
        if search > 512 {
            break;
        }
    }
    (None, raw)
}

struct Instance {
    entity: Entity,
    file: Rc<str>,
    start: Option<Function>,
    update: Option<Function>,
    pointer: Option<Function>,
    key: Option<Function>,
    text: Option<Function>,
    stop: Option<Function>,
    started: bool,
    off: bool,
}

/// The Lua state, the entity scripts and the command queue.
pub struct ScriptHost {
    lua: Lua,
    guard: Rc<Guard>,
    new_env: Function,
    /// The scripts folder's files (`lib/menu.lua` is `assets/scripts/lib/menu.lua`).
    scripts: Arc<dyn Assets>,
    queue: commands::Queue,
    instances: Vec<Instance>,
    sources: HashMap<String, Rc<str>>,
    /// The lines each script calls a command on, by script and command index: found when a
    /// call of it is first refused.
    call_sites: RefCell<HashMap<(String, usize), Vec<usize>>>,
    bags: Rc<RefCell<Table>>,
    save: Rc<RefCell<SaveStore>>,
}

pub(crate) fn entity_value(e: Entity) -> i64 {
    e.to_bits().get() as i64
}

pub(crate) fn lua_err(message: String) -> mlua::Error {
    mlua::Error::RuntimeError(message)
}

/// `file:line: ` of the Lua code calling into Rust, or nothing when there is none.
pub(crate) fn caller(lua: &Lua) -> String {
    let at = |level| {
        lua.inspect_stack(level, |d| {
            let src = d
                .source()
                .short_src
                .map(|s| s.into_owned())
                .unwrap_or_default();
            (src, d.current_line())
        })
    };
    // A host function the host's own Lua calls for the script (`Entity.get`'s fast path)
    // names the script's line, one level further out.
    let found = match at(1) {
        Some((src, _)) if src == "sandbox" => at(2),
        other => other,
    };
    match found {
        Some((src, Some(line))) if !src.is_empty() => format!("{src}:{line}: "),
        _ => String::new(),
    }
}

/// `file:line` of the innermost script code on the stack, skipping the host's own Lua (the
/// sandbox wrappers) and C functions: where a stop raised from inside a wrapper happened.
pub(crate) fn script_place(lua: &Lua) -> String {
    (1..64)
        .map_while(|level| {
            lua.inspect_stack(level, |d| {
                let src = d
                    .source()
                    .short_src
                    .map(|s| s.into_owned())
                    .unwrap_or_default();
                (src, d.current_line())
            })
        })
        .find_map(|(src, line)| match line {
            Some(line)
                if src != "sandbox"
                    && src != "bounded library"
                    && src != "[C]"
                    && !src.is_empty() =>
            {
                Some(format!("{src}:{line}"))
            }
            _ => None,
        })
        .unwrap_or_default()
}

fn is_memory_error(err: &mlua::Error) -> bool {
    match err {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            is_memory_error(cause)
        }
        _ => false,
    }
}

impl ScriptHost {
    /// A sandboxed state with the core API and every registered command, reading scripts
    /// from the folder `scripts_dir` on disk.
    pub fn new(
        registry: &Registry,
        scripts_dir: &Path,
        limits: Limits,
        seed: u64,
    ) -> mlua::Result<ScriptHost> {
        ScriptHost::with_assets(
            registry,
            Arc::new(DiskAssets::new(scripts_dir)),
            limits,
            seed,
        )
    }

    /// A sandboxed state with the core API and every registered command, reading scripts (and
    /// what they `import`) from `scripts`, the files of a project's `assets/scripts` folder.
    pub fn with_assets(
        registry: &Registry,
        scripts: Arc<dyn Assets>,
        limits: Limits,
        seed: u64,
    ) -> mlua::Result<ScriptHost> {
        let guard = Rc::new(Guard::new(limits));
        let lua = sandbox::new_state(&guard, seed)?;
        let queue = commands::Queue::default();
        let save = Rc::new(RefCell::new(SaveStore::in_memory()));
        let bags = Rc::new(RefCell::new(lua.create_table()?));
        api::install(&lua, bags.clone(), save.clone())?;
        commands::install(&lua, registry, &queue, &guard)?;
        let new_env = sandbox::seal(&lua, &guard, scripts.clone(), log::print(&lua)?)?;
        Ok(ScriptHost {
            lua,
            guard,
            new_env,
            scripts,
            queue,
            instances: Vec::new(),
            sources: HashMap::new(),
            call_sites: RefCell::new(HashMap::new()),
            bags,
            save,
        })
    }

    /// The API scripts see, namespace by namespace (`Entity`, `Text`, a package's `Kotoba`),
    /// each with the names in it, sorted: what `jengine check` holds a script's calls against.
    /// Read through a script's own environment, as a script would see it with `pairs`.
    pub fn api(&self) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
        const LIST: &str = r#"
            local out = {}
            for _, name in ipairs(...) do
                local t = _ENV[name]
                if type(t) == "table" then
                    local members = {}
                    for k in pairs(t) do
                        if type(k) == "string" then members[#members + 1] = k end
                    end
                    out[name] = members
                end
            end
            return out
        "#;
        let listed = || -> mlua::Result<Vec<(String, Vec<String>)>> {
            // The namespaces are the state's capitalised globals; their members are read
            // through the environment's read-only views, which list them with `pairs`.
            let names: Vec<String> = self
                .lua
                .globals()
                .pairs::<mlua::Value, mlua::Value>()
                .flatten()
                .filter_map(|(k, _)| match k {
                    mlua::Value::String(s) => Some(s.to_string_lossy()),
                    _ => None,
                })
                .filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
                .collect();
            let env: Table = self.new_env.call(())?;
            let out: Table = self
                .lua
                .load(LIST)
                .set_name("=api")
                .set_mode(ChunkMode::Text)
                .set_environment(env)
                .call(names)?;
            out.pairs::<String, Vec<String>>().collect()
        };
        listed()
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| (k, v.into_iter().collect()))
            .collect()
    }

    /// The limits every callback runs under.
    pub fn limits(&self) -> Limits {
        self.guard.limits()
    }

    /// Runs `code` as a chunk named `name` in a fresh script environment, under a fresh
    /// guard and with `world` reachable, as a callback would be (for tests and benchmarks).
    pub fn run_chunk(
        &mut self,
        world: &mut World,
        name: &str,
        code: &str,
    ) -> Result<(), ScriptError> {
        self.load_chunk(world, name, code, |chunk| chunk.exec())
    }

    /// Loads `code` as a chunk named `name` in a fresh script environment and runs it with
    /// `run` under a fresh guard, with `world` reachable; a failure is the chunk's error.
    fn load_chunk<R>(
        &mut self,
        world: &mut World,
        name: &str,
        code: &str,
        run: impl FnOnce(mlua::chunk::Chunk<'_>) -> mlua::Result<R>,
    ) -> Result<R, ScriptError> {
        let env: Table = self.new_env.call(()).map_err(|e| {
            ScriptError::new(ScriptErrorKind::Runtime, name, None, describe_lua_error(&e))
        })?;
        let chunk = self
            .lua
            .load(code)
            .set_name(format!("@{name}"))
            .set_mode(ChunkMode::Text)
            .set_environment(env);
        let mark = self.queue.borrow().len();
        let result = self.with_world(world, || run(chunk));
        result.map_err(|e| self.failure(e, name, "load", mark))
    }

    /// Uses `store` for `Save.get` / `Save.set`.
    pub fn set_save(&mut self, store: SaveStore) {
        *self.save.borrow_mut() = store;
    }

    /// A value scripts saved with `Save.set`, as JSON (for tests and tools that look in).
    pub fn saved(&self, key: &str) -> Option<serde_json::Value> {
        self.save.borrow().get(key).cloned()
    }

    /// Writes the save store if it changed.
    pub fn flush_save(&self) -> Result<(), String> {
        self.save.borrow_mut().flush()
    }

    /// Forgets every script source read so far: the next attach reads the files again (an
    /// editor's hot reload).
    pub fn forget_sources(&mut self) {
        self.sources.clear();
        self.call_sites.borrow_mut().clear();
    }

    /// Makes the registry reachable from `Entity.get` for package components.
    pub fn set_registry(&self, registry: Rc<Registry>) {
        self.lua.set_app_data(registry);
    }

    fn source(&mut self, file: &str) -> Result<Rc<str>, ScriptError> {
        if let Some(s) = self.sources.get(file) {
            return Ok(s.clone());
        }
        let text: Rc<str> = self
            .scripts
            .read_text(file)
            .map_err(|e| ScriptError {
                kind: ScriptErrorKind::Read,
                file: format!("assets/scripts/{file}"),
                line: None,
                callback: None,
                message: format!("cannot read script: {}", e.problem),
            })?
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
            .map_err(|e| {
                ScriptError::new(
                    ScriptErrorKind::Syntax,
                    &format!("assets/scripts/{file}"),
                    None,
                    describe_lua_error(&e),
                )
            })
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
        let name = format!("assets/scripts/{file}");
        let env: Table = self.new_env.call(()).map_err(|e| {
            ScriptError::new(
                ScriptErrorKind::Runtime,
                &name,
                None,
                describe_lua_error(&e),
            )
        })?;
        let chunk = self
            .lua
            .load(&*source)
            .set_name(format!("@{name}"))
            .set_mode(ChunkMode::Text)
            .set_environment(env.clone())
            .into_function()
            .map_err(|e| {
                ScriptError::new(ScriptErrorKind::Syntax, &name, None, describe_lua_error(&e))
            })?;
        let mark = self.queue.borrow().len();
        self.guard.running(&Rc::from(name.as_str()), "load");
        let run = self.with_world(world, || chunk.call::<()>(()));
        run.map_err(|e| self.failure(e, &name, "load", mark))?;
        let get = |name: &str| env.raw_get::<Option<Function>>(name).ok().flatten();
        Ok(Instance {
            entity,
            file: name.into(),
            start: get("start"),
            update: get("update"),
            pointer: get("pointer"),
            key: get("key"),
            text: get("text"),
            stop: get("stop"),
            started: false,
            off: false,
        })
    }

    /// Calls `stop(e)` on every started script, then forgets every script (before a new
    /// scene is spawned, and when the run ends). Commands queued by `stop` are discarded:
    /// their entities are about to go; `Save.set` is how a script keeps something.
    pub fn detach_all(&mut self, world: &mut World) {
        let mark = self.queue.borrow().len();
        self.each(world, |inst| match &inst.stop {
            Some(f) if inst.started => vec![("stop", f.clone(), CallArgs::Entity)],
            _ => Vec::new(),
        });
        self.queue.borrow_mut().truncate(mark);
        self.instances.clear();
        let _ = self.bags.borrow().clear();
    }

    /// Calls `start(e)` on every script not yet started. The runtime calls it at the top of
    /// a frame, so a script has started before the frame's input and update reach it.
    pub fn start(&mut self, world: &mut World) {
        self.each(world, |inst| {
            if inst.started {
                return Vec::new();
            }
            inst.started = true;
            match &inst.start {
                Some(f) => vec![("start", f.clone(), CallArgs::Entity)],
                None => Vec::new(),
            }
        });
    }

    /// Calls `update(e, dt)` on every started script.
    pub fn update(&mut self, world: &mut World, dt: f64) {
        self.each(world, |inst| match &inst.update {
            Some(f) if inst.started => vec![("update", f.clone(), CallArgs::Update(dt))],
            _ => Vec::new(),
        });
    }

    /// Calls `pointer(e, phase, x, y)` on every started script (phase: press, drag, release,
    /// hover).
    pub fn pointer(&mut self, world: &mut World, phase: &str, x: f64, y: f64) {
        let phase: Rc<str> = phase.into();
        self.each(world, |inst| match &inst.pointer {
            Some(f) if inst.started => {
                vec![("pointer", f.clone(), CallArgs::Pointer(phase.clone(), x, y))]
            }
            _ => Vec::new(),
        });
    }

    /// Calls `key(e, name, down)` on every started script.
    pub fn key(&mut self, world: &mut World, name: &str, down: bool) {
        let name: Rc<str> = name.into();
        self.each(world, |inst| match &inst.key {
            Some(f) if inst.started => vec![("key", f.clone(), CallArgs::Key(name.clone(), down))],
            _ => Vec::new(),
        });
    }

    /// Calls `text(e, text)` on every started script: typed characters or a whole paste, as
    /// one string. The string is made once and shared by every script (Lua strings cannot be
    /// changed), so a long paste is copied into Lua once.
    pub fn text(&mut self, world: &mut World, text: &str) {
        if !self.instances.iter().any(|i| i.text.is_some()) {
            return;
        }
        let text = match self.lua.create_string(text) {
            Ok(s) => s,
            Err(e) => {
                world.log().warn(format!(
                    "a text event of {} bytes did not reach the scripts: {}",
                    text.len(),
                    describe_lua_error(&e)
                ));
                return;
            }
        };
        self.each(world, |inst| match &inst.text {
            Some(f) if inst.started => {
                vec![("text", f.clone(), CallArgs::Text(text.clone()))]
            }
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
        let mut instances = std::mem::take(&mut self.instances);
        for inst in instances.iter_mut().filter(|i| !i.off) {
            for (callback, f, args) in pick(inst) {
                let e = entity_value(inst.entity);
                let mark = self.queue.borrow().len();
                self.guard.running(&inst.file, callback);
                let result = self.with_world(world, || match &args {
                    CallArgs::Entity => f.call::<()>(e),
                    CallArgs::Update(dt) => f.call::<()>((e, *dt)),
                    CallArgs::Pointer(phase, x, y) => f.call::<()>((e, &**phase, *x, *y)),
                    CallArgs::Key(name, down) => f.call::<()>((e, &**name, *down)),
                    CallArgs::Text(text) => f.call::<()>((e, text)),
                });
                if let Err(err) = result {
                    let err = self.failure(err, &inst.file, callback, mark);
                    if matches!(err.kind, ScriptErrorKind::Stopped(_)) {
                        inst.off = true;
                    }
                    errors.push(err);
                    break;
                }
            }
        }
        self.instances = instances;
        let log = world.log();
        for e in errors {
            log.error_once(e.to_string());
        }
    }

    /// Turns a failed callback into its error; a stopped one also loses what it queued.
    fn failure(
        &self,
        err: mlua::Error,
        file: &str,
        callback: &'static str,
        mark: usize,
    ) -> ScriptError {
        let stop = self
            .guard
            .stopped()
            .or_else(|| is_memory_error(&err).then_some(StopKind::Memory));
        match stop {
            Some(kind) => {
                self.queue.borrow_mut().truncate(mark);
                let message = if self.guard.stopped().is_some() {
                    describe_lua_error(&self.guard.error())
                } else {
                    format!("stopped: {}", kind.describe(&self.guard.limits()))
                };
                // What the stopped callback built is garbage now; take it back at once.
                let _ = self.lua.gc_collect();
                ScriptError::new(
                    ScriptErrorKind::Stopped(kind),
                    file,
                    Some(callback),
                    message,
                )
            }
            None => ScriptError::new(
                ScriptErrorKind::Runtime,
                file,
                Some(callback),
                describe_lua_error(&err),
            ),
        }
    }

    /// Takes the calls queued since the last take, in call order.
    pub fn take_queue(&self) -> Vec<Queued> {
        std::mem::take(&mut *self.queue.borrow_mut())
    }

    /// Applies the queued calls in order; a failing call is logged and changes nothing.
    pub fn apply_queue(&self, registry: &Registry, world: &mut World) {
        for q in self.take_queue() {
            let cmd = &registry.commands()[q.command];
            crate::doing::command(cmd.namespace(), cmd.name(), &q.by.0, q.by.1);
            if let Err(message) = cmd.apply(world, q.args) {
                // Named once: a handler that names its command already is left as it is. The
                // script and callback that queued it come first, as a script error's place does.
                let name = cmd.qualified();
                let (file, callback) = (&q.by.0, q.by.1);
                let said = message
                    .strip_prefix(&format!("{name}: "))
                    .unwrap_or(&message);
                let place = self.call_place(file, callback, q.command, registry);
                world.log().warn(format!("{place}: {name}: {said}"));
            }
        }
    }

    /// Where a refused call came from, for its warning: `file:line (in callback)` when the
    /// script calls that command on one line, else the lines it is called on. Found only when
    /// a call is refused, from the source the host already holds, so a call that succeeds
    /// pays nothing for it; a file's lines are scanned once per command.
    fn call_place(
        &self,
        file: &str,
        callback: &str,
        command: usize,
        registry: &Registry,
    ) -> String {
        let key = (file.to_string(), command);
        let mut sites = self.call_sites.borrow_mut();
        let lines = sites.entry(key).or_insert_with(|| {
            let Some(source) = self
                .sources
                .get(file.strip_prefix("assets/scripts/").unwrap_or(file))
            else {
                return Vec::new();
            };
            let cmd = &registry.commands()[command];
            let qualified = cmd.qualified();
            let mut names: Vec<&str> = vec![&qualified];
            if cmd.package() != crate::registry::CORE {
                names.push(cmd.flat());
                names.extend(cmd.aliases().iter().map(|a| a.as_str()));
            }
            code::call_lines(source, &names)
        });
        match lines.as_slice() {
            [] => format!("{file} (in {callback})"),
            [line] => format!("{file}:{line} (in {callback})"),
            many => {
                let mut list: Vec<String> = many.iter().take(8).map(|l| l.to_string()).collect();
                if many.len() > 8 {
                    list.push(format!("{} more", many.len() - 8));
                }
                format!(
                    "{file} (in {callback}; the call is on line {})",
                    or_list(&list)
                )
            }
        }
    }

    /// Publishes the bags systems just remade: last frame's copies are dropped, and each bag
    /// is converted for a script when it first reads it (`Entity.get`) in a callback, kept for
    /// the rest of that callback. Between this call and the next, bags change only in systems,
    /// which run after scripts, so every read in a frame sees the world as it was published.
    pub fn publish_bags(&mut self, _registry: &Registry, _world: &World) -> mlua::Result<()> {
        self.bags.borrow().clear()
    }

    /// Moves the world into the Lua state for the duration of `f` (so API functions can read
    /// it) under a fresh guard, then takes it back.
    fn with_world<R>(&self, world: &mut World, f: impl FnOnce() -> R) -> R {
        self.lua.set_app_data(std::mem::take(world));
        self.guard.reset();
        // Each callback reads bags into copies of its own, so a script that scribbles on a
        // bag spoils only what it sees itself: the last callback's copies are let go.
        let _ = self.bags.borrow().clear();
        let result = f();
        *world = self
            .lua
            .remove_app_data::<World>()
            .expect("the world is put back after every callback");
        result
    }
}

enum CallArgs {
    Entity,
    Update(f64),
    Pointer(Rc<str>, f64, f64),
    Key(Rc<str>, bool),
    Text(mlua::LuaString),
}

#[cfg(any(test, feature = "selftest"))]
mod library_tests;
#[cfg(any(test, feature = "selftest"))]
pub(crate) mod probe;
#[cfg(any(test, feature = "selftest"))]
mod proxy_tests;
#[cfg(any(test, feature = "selftest"))]
mod sandbox_tests;

/// The sandbox suite's cases by file, for [`crate::selftest`].
#[cfg(any(test, feature = "selftest"))]
pub(crate) const SUITE: &[(&str, crate::selftest::CaseList)] = &[
    ("sandbox_tests", sandbox_tests::CASES),
    ("library_tests", library_tests::CASES),
    ("proxy_tests", proxy_tests::CASES),
];

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
