//! The world a package sees: a hecs ECS for entities plus a typed map of resources.
//!
//! Resources are singletons keyed by their Rust type (time, input, data tables, a package's
//! dictionary). Keeping both in one struct lets a command or system take `&mut World` and reach
//! everything it may change, with nothing global.

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet, VecDeque};

pub use hecs::Entity;

/// Entities (the hecs world) and resources, side by side.
#[derive(Default)]
pub struct World {
    /// The entities and their components.
    pub entities: hecs::World,
    /// Typed singletons: time, input, tables, a package's long-lived state.
    pub resources: Resources,
}

impl World {
    /// An empty world with the host's standard resources ([`Time`], [`Log`], [`Pointer`],
    /// [`TextInput`] and [`MusicClock`]).
    pub fn new() -> World {
        let mut world = World::default();
        world.resources.insert(Time::default());
        world.resources.insert(Log::default());
        world.resources.insert(Pointer::default());
        world.resources.insert(TextInput::default());
        world.resources.insert(MusicClock::default());
        world
    }

    /// The log every package and script writes to; created on first use.
    pub fn log(&mut self) -> &mut Log {
        self.resources.get_or_default::<Log>()
    }

    /// Spawns an entity stamped with its [`SpawnOrder`], so draw order and `find` can tell
    /// which came first even after hecs reuses ids. Packages spawn through this.
    pub fn spawn(&mut self, components: impl hecs::DynamicBundle) -> Entity {
        let mut builder = hecs::EntityBuilder::new();
        builder.add_bundle(components);
        self.spawn_built(&mut builder)
    }

    /// Spawns what `builder` holds, stamped with its [`SpawnOrder`] (and empties the builder).
    /// The stamp goes in with the rest, so the entity lands in its archetype once.
    pub fn spawn_built(&mut self, builder: &mut hecs::EntityBuilder) -> Entity {
        let order = self.resources.get_or_default::<SpawnCounter>();
        order.0 += 1;
        builder.add(SpawnOrder(order.0));
        self.entities.spawn(builder.build())
    }

    /// When `e` was spawned through [`World::spawn`]; `u64::MAX` for entities spawned directly.
    pub fn spawn_order(&self, e: Entity) -> u64 {
        self.entities
            .get::<&SpawnOrder>(e)
            .map(|o| o.0)
            .unwrap_or(u64::MAX)
    }

    /// An entity as messages name it: its name in quotes if it has one, else `#<handle>`.
    pub fn describe(&self, e: Entity) -> String {
        match self.entities.get::<&crate::Name>(e) {
            Ok(name) => format!("{:?}", name.0),
            Err(_) => format!("#{}", e.to_bits()),
        }
    }

    /// The entity carrying this [`crate::Name`], if any (the first spawned wins).
    pub fn find(&self, name: &str) -> Option<Entity> {
        let mut query = self
            .entities
            .query::<(Entity, &crate::Name, Option<&SpawnOrder>)>();
        let mut found: Option<(u64, Entity)> = None;
        for (entity, n, order) in query.iter() {
            let key = (order.map_or(u64::MAX, |o| o.0), entity);
            if n.0 == name && found.is_none_or(|f| (key.0, key.1.id()) < (f.0, f.1.id())) {
                found = Some(key);
            }
        }
        found.map(|f| f.1)
    }
}

/// The order an entity was spawned in (see [`World::spawn`]): ties in draw depth keep it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct SpawnOrder(pub u64);

#[derive(Default)]
struct SpawnCounter(u64);

/// A map from type to one value of that type.
#[derive(Default)]
pub struct Resources {
    map: HashMap<TypeId, Box<dyn Any>>,
}

impl Resources {
    /// Stores `value`, returning the one it replaces.
    pub fn insert<T: 'static>(&mut self, value: T) -> Option<T> {
        self.map
            .insert(TypeId::of::<T>(), Box::new(value))
            .and_then(|old| old.downcast().ok().map(|b| *b))
    }

    /// The stored `T`, if any.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.map.get(&TypeId::of::<T>())?.downcast_ref()
    }

    /// The stored `T`, mutably, if any.
    pub fn get_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.map.get_mut(&TypeId::of::<T>())?.downcast_mut()
    }

    /// The stored `T`, inserting `T::default()` first if there is none.
    pub fn get_or_default<T: Default + 'static>(&mut self) -> &mut T {
        self.map
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Box::new(T::default()))
            .downcast_mut()
            .expect("a resource is stored under its own TypeId")
    }

    /// Takes the stored `T` out.
    pub fn remove<T: 'static>(&mut self) -> Option<T> {
        self.map
            .remove(&TypeId::of::<T>())
            .and_then(|old| old.downcast().ok().map(|b| *b))
    }

    /// Whether a `T` is stored.
    pub fn contains<T: 'static>(&self) -> bool {
        self.map.contains_key(&TypeId::of::<T>())
    }
}

/// The fixed-step clock. The runtime advances it once per frame before systems run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Time {
    /// Frames completed since the runtime started.
    pub frame: u64,
    /// Seconds per step (1/60 at the host's fixed 60 Hz).
    pub dt: f64,
    /// Seconds of game time since start.
    pub elapsed: f64,
    /// The session's seed; packages derive their `rand_pcg` streams from it.
    pub seed: u64,
}

impl Default for Time {
    fn default() -> Self {
        Time {
            frame: 0,
            dt: 1.0 / 60.0,
            elapsed: 0.0,
            seed: 0,
        }
    }
}

/// The project's files as the runtime reads them (a folder on disk, or a web build's bundle in
/// memory), for packages that read files of the project beyond scenes and tables, such as the
/// folders `project.jengine` lists in `folders`. The runtime inserts it before the first scene.
#[derive(Debug, Clone)]
pub struct ProjectFiles(pub std::sync::Arc<dyn crate::host::Assets>);

/// How the project was started, for packages that keep files or read the command line: the
/// project's folder, the folder the player's data lives in, and the arguments given after `--`
/// (`jengine run projects/miau -- --gift LINK`). The runtime inserts it before the first scene.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Launch {
    /// The project folder (the one holding `project.jengine`).
    pub project_dir: std::path::PathBuf,
    /// Where the player's data is kept between runs (the folder holding `save.json`, made
    /// when the run starts): `--save-dir`, or for a window `$XDG_DATA_HOME/jengine/<project>`.
    /// `None` when the run keeps nothing (tests, headless runs without `--save-dir`).
    pub data_dir: Option<std::path::PathBuf>,
    /// The arguments after `--`, as given.
    pub args: Vec<String>,
}

/// What a pointer did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointerPhase {
    /// A button went down.
    Press,
    /// It moved with a button held.
    Drag,
    /// The button came up.
    Release,
    /// It moved with no button held.
    Hover,
}

/// One pointer event, at a point in world units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointerEvent {
    /// What happened.
    pub phase: PointerPhase,
    /// Where, in world units.
    pub pos: [f32; 2],
}

/// The pointer as the host saw it this frame, in world units. Packages read it (a background
/// that rises under the hand); scripts get the same events through `pointer(e, ...)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pointer {
    /// Where it was last seen, if it has been.
    pub pos: Option<[f32; 2]>,
    /// Whether a button is held.
    pub down: bool,
    /// The frame it last moved or changed, to tell a pointer at rest.
    pub moved_frame: u64,
    /// This frame's events, in order.
    pub events: Vec<PointerEvent>,
}

impl Pointer {
    /// Takes in one frame's events (replacing the last frame's).
    pub fn frame(&mut self, frame: u64, events: impl IntoIterator<Item = PointerEvent>) {
        self.events.clear();
        for e in events {
            self.pos = Some(e.pos);
            self.down = matches!(e.phase, PointerPhase::Press | PointerPhase::Drag);
            self.moved_frame = frame;
            self.events.push(e);
        }
    }
}

/// The most bytes one text event may carry (1 MiB: a pasted share link is about 100 KB). The
/// host refuses a longer one with a warning rather than cutting it, since half a link is
/// worse than none.
pub const MAX_TEXT_INPUT: usize = 1 << 20;

/// Text the player typed or pasted this frame, in order: one entry per text event (a typed
/// character, or a whole paste). Packages read it (a text field); scripts get the same events
/// through `text(e, text)`. Each entry is at most [`MAX_TEXT_INPUT`] bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TextInput {
    /// This frame's text events, in order.
    pub events: Vec<String>,
}

impl TextInput {
    /// Takes in one frame's text events (replacing the last frame's).
    pub fn frame(&mut self, events: impl IntoIterator<Item = String>) {
        self.events.clear();
        self.events.extend(events);
    }
}

/// The music's clock, as the audio host last reported it: the position actually played, not a
/// timer. Without audio it stays at rest (`playing` false), and what follows the beat holds still.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MusicClock {
    /// Whether music is playing (not paused or stopped).
    pub playing: bool,
    /// Seconds into the track.
    pub position: f64,
    /// The track's tempo, when known.
    pub bpm: Option<f64>,
}

/// How loud a log line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// Ordinary progress.
    Info,
    /// Something went wrong; the game goes on.
    Warn,
    /// A part of the game stopped: a script that failed to compile or whose callback failed,
    /// a scene that does not load. The rest goes on.
    Error,
}

/// One line written to the [`Log`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// Info or warning.
    pub level: LogLevel,
    /// The text, already naming where it came from.
    pub message: String,
}

/// The most bytes of a message the host keeps (a log line, a script's error).
pub const MAX_MESSAGE: usize = 8 * 1024;

/// The most bytes one log line keeps; the rest is cut, saying how much.
pub const MAX_LOG_LINE: usize = MAX_MESSAGE;

/// `text` cut to [`MAX_MESSAGE`] bytes on a character boundary, saying how much was cut.
pub fn cut(mut text: String) -> String {
    if text.len() > MAX_MESSAGE {
        let mut end = MAX_MESSAGE;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let cut = text.len() - end;
        text.truncate(end);
        text.push_str(&format!("... ({cut} more bytes)"));
    }
    text
}

/// How many distinct messages [`Log::warn_once`] remembers; past that the oldest is forgotten
/// (and would be said again), so an endless stream of distinct errors cannot grow memory.
pub const WARN_ONCE_MEMORY: usize = 1024;

/// Lines written this frame, drained by the host, plus the warnings already said once.
#[derive(Debug, Default)]
pub struct Log {
    lines: Vec<LogLine>,
    said: HashSet<String>,
    said_order: VecDeque<String>,
}

impl Log {
    fn push(&mut self, level: LogLevel, message: String) {
        self.lines.push(LogLine {
            level,
            message: cut(message),
        });
    }

    /// Writes an info line.
    pub fn info(&mut self, message: impl Into<String>) {
        self.push(LogLevel::Info, message.into());
    }

    /// Writes a warning.
    pub fn warn(&mut self, message: impl Into<String>) {
        self.push(LogLevel::Warn, message.into());
    }

    /// Writes a warning only the first time this exact message is given (among the last
    /// [`WARN_ONCE_MEMORY`] distinct ones).
    pub fn warn_once(&mut self, message: impl Into<String>) {
        self.push_once(LogLevel::Warn, message.into());
    }

    /// Writes an error: a part of the game stopped.
    pub fn error(&mut self, message: impl Into<String>) {
        self.push(LogLevel::Error, message.into());
    }

    /// Writes an error only the first time this exact message is given (as
    /// [`Log::warn_once`]).
    pub fn error_once(&mut self, message: impl Into<String>) {
        self.push_once(LogLevel::Error, message.into());
    }

    fn push_once(&mut self, level: LogLevel, message: String) {
        let message = cut(message);
        if self.said.contains(&message) {
            return;
        }
        if self.said_order.len() == WARN_ONCE_MEMORY
            && let Some(oldest) = self.said_order.pop_front()
        {
            self.said.remove(&oldest);
        }
        self.said.insert(message.clone());
        self.said_order.push_back(message.clone());
        self.push(level, message);
    }

    /// Takes the lines written since the last drain.
    pub fn drain(&mut self) -> Vec<LogLine> {
        std::mem::take(&mut self.lines)
    }

    /// The lines not yet drained.
    pub fn lines(&self) -> &[LogLine] {
        &self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_are_keyed_by_type() {
        let mut res = Resources::default();
        assert!(res.insert(5u32).is_none());
        assert_eq!(res.insert(7u32), Some(5));
        res.insert(String::from("x"));
        assert_eq!(res.get::<u32>(), Some(&7));
        *res.get_mut::<String>().unwrap() += "y";
        assert_eq!(res.get::<String>().map(String::as_str), Some("xy"));
        assert_eq!(res.remove::<u32>(), Some(7));
        assert!(!res.contains::<u32>());
        assert_eq!(*res.get_or_default::<u64>(), 0);
    }

    #[test]
    fn warn_once_says_a_message_once() {
        let mut log = Log::default();
        log.warn_once("a");
        log.warn_once("a");
        log.warn_once("b");
        assert_eq!(log.drain().len(), 2);
        log.warn_once("a");
        assert!(log.lines().is_empty());
    }

    #[test]
    fn distinct_warnings_without_end_keep_memory_bounded() {
        let mut log = Log::default();
        for i in 0..WARN_ONCE_MEMORY * 3 {
            log.warn_once(format!("error {i}"));
            log.drain();
        }
        assert_eq!(log.said.len(), WARN_ONCE_MEMORY);
        assert_eq!(log.said_order.len(), WARN_ONCE_MEMORY);
        log.warn("x".repeat(10 << 20));
        assert!(log.lines()[0].message.len() < MAX_LOG_LINE + 40);
    }

    #[test]
    fn find_returns_the_first_spawned_of_a_name() {
        let mut world = World::new();
        let a = world.spawn((crate::Name("x".into()),));
        world.spawn((crate::Name("x".into()),));
        assert_eq!(world.find("x"), Some(a));
        assert_eq!(world.find("y"), None);
    }
}
