//! The runtime: a project, its listed packages, the world and the scripts, stepped at 60 Hz.
//!
//! One frame is always the same sequence: `start` for new scripts, input events (scroll boxes
//! first, then scripts), `update`, the command queue in call order (a copy to the clipboard
//! taken from it), package systems in registration order, a requested scene change, text boxes
//! laid out, bags published, the log drained, the save written. Nothing reads a clock, so the same seed and input give the same frames.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use jengine::hecs;
use jengine::host::{Assets, DiskStorage, MemoryStorage, Storage, check_asset_name, within};
use jengine::host::{
    AudioQueue, AudioRequest, ClipboardCopy, Limits, Project, SaveStore, Scene, SceneError,
    SceneRequest, ScriptHost,
};
use jengine::{Entity, LogLevel, LogLine, Package, PlayerData, Registry, Tables, Time, World};

use crate::clipboard::Clipboard;
use crate::input::{Event, InputScript, KeyUse, PasteKeys};
use crate::scroll::Scrolling;
use jengine_audio::Audio;

/// The fixed step.
pub const STEP: f64 = 1.0 / 60.0;

/// How a runtime is set up.
#[derive(Debug, Clone)]
pub struct Options {
    /// Seed for every random stream (packages read it from [`Time::seed`]).
    pub seed: u64,
    /// The player's data folder on disk, where `Save.set` writes `save.json` and packages keep
    /// their folders; used when [`Options::storage`] is `None`. In memory when both are `None`.
    pub save_dir: Option<PathBuf>,
    /// Where the player's data is kept when it is not a folder on disk (a web host's
    /// [`MemoryStorage`](jengine::host::MemoryStorage) backed by the browser's storage). Taken
    /// before [`Options::save_dir`].
    pub storage: Option<Arc<dyn Storage>>,
    /// Lua memory and instruction limits.
    pub limits: Limits,
    /// Scene to start in instead of the project's `start_scene`.
    pub scene: Option<String>,
    /// Where sound goes: nowhere (the null device, so a run replays bit for bit) or the
    /// machine's sound device when there is one.
    pub sound: Sound,
    /// The arguments after `--` on the command line, handed to packages in [`jengine::Launch`]
    /// and to scripts by `Game.args()`.
    pub args: Vec<String>,
    /// Whether `Clipboard.copy` and a paste use the system clipboard (a window) or a string
    /// kept in memory (headless runs and tests, so they never touch the machine's clipboard).
    pub system_clipboard: bool,
    /// How the machine's sound device and clipboard are opened, when asked for.
    pub platform: crate::Platform,
    /// Whether a first scene that does not load still gives a runtime (its problems in the
    /// log, the world empty, the scene named as running) so it can be mended while running, as
    /// the editor does; otherwise it is an error.
    pub broken_scene_ok: bool,
}

/// Where a runtime's sound goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sound {
    /// Mixed against a null device that advances on the fixed clock: headless runs and tests.
    #[default]
    Silent,
    /// The machine's sound device (the [`crate::Platform`]'s), falling back to silence without
    /// one.
    Device,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 1,
            save_dir: None,
            storage: None,
            limits: Limits::default(),
            scene: None,
            sound: Sound::Silent,
            args: Vec::new(),
            system_clipboard: false,
            platform: crate::Platform::headless(),
            broken_scene_ok: false,
        }
    }
}

/// Where the player's data is kept: the host's store, the data folder on disk (made at once,
/// so a package handed its path can write beside the save), or a store in memory that goes
/// when the run ends.
fn player_storage(options: &Options, world: &mut World) -> Arc<dyn Storage> {
    if let Some(storage) = &options.storage {
        return storage.clone();
    }
    let Some(dir) = &options.save_dir else {
        return Arc::new(MemoryStorage::new());
    };
    let disk = DiskStorage::new(dir);
    if let Err(e) = disk.make_folder() {
        world.log().warn(format!(
            "{}: cannot make the player's data folder: {}",
            dir.display(),
            e.problem
        ));
    }
    Arc::new(disk)
}

/// A running project.
pub struct Runtime {
    /// The project being run.
    pub project: Project,
    /// What the listed packages registered.
    pub registry: Rc<Registry>,
    /// Entities and resources.
    pub world: World,
    scripts: ScriptHost,
    audio: Audio,
    /// The track last asked for, so asking again for the one playing lets it play on.
    music: Option<String>,
    scene: String,
    scene_generation: u64,
    log: Vec<LogLine>,
    clipboard: Clipboard,
    paste_keys: PasteKeys,
    delivered: Vec<Event>,
    /// The entities the scene file spawned, in file order.
    spawned: Vec<Entity>,
    /// The latest sounds scripts asked for, oldest first (at most [`HEARD_KEPT`]).
    heard: std::collections::VecDeque<Heard>,
    /// Lays text boxes out as the renderer will, for their scroll and `text_layout`.
    measure: jengine_render::TextMeasure,
    /// The scroll box with the keys and the drag under way.
    scrolling: Scrolling,
    /// Whether a scene's `Scene.load` waits instead of loading (an editor holding a scene
    /// still to edit it).
    hold_scene_changes: bool,
}

/// How many of the latest sounds [`Runtime::heard`] keeps.
pub const HEARD_KEPT: usize = 256;

/// A sound a script asked for with `Audio.play`: which, how, and on which frame. Kept so tests
/// and tools can tell what a game sounded like without listening to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Heard {
    /// The sound's name.
    pub name: String,
    /// Volume as asked, 0 to 1.
    pub volume: f32,
    /// Playback speed as asked (2 is an octave up).
    pub pitch: f32,
    /// Pan as asked, -1 left to 1 right.
    pub pan: f32,
    /// The frame it was asked on.
    pub frame: u64,
}

/// Keeps the linked packages that the project lists, in listing order, and reports listed
/// packages this build does not link.
pub fn select<'a>(
    project: &Project,
    linked: &[&'a dyn Package],
) -> Result<Vec<&'a dyn Package>, Vec<String>> {
    let mut chosen = Vec::new();
    let mut missing = Vec::new();
    for listed in &project.file.packages {
        match linked.iter().find(|p| p.name() == listed.name) {
            Some(p) => chosen.push(*p),
            None => missing.push(format!(
                "{}: lists {}, which this build does not link; run `jengine viewport-build {}`",
                project.dir.join("project.jengine").display(),
                listed.name,
                project.dir.display()
            )),
        }
    }
    if missing.is_empty() {
        Ok(chosen)
    } else {
        Err(missing)
    }
}

impl Runtime {
    /// Loads the project in the folder `dir` on disk with the packages it lists (taken from
    /// `linked`), its tables and its start scene. Every problem found is returned together.
    pub fn new(
        dir: &Path,
        linked: &[&dyn Package],
        options: Options,
    ) -> Result<Runtime, Vec<String>> {
        let project = Project::load(dir).map_err(|e| vec![e.to_string()])?;
        // A folder run straight from disk may have been built by hand: its listing is checked
        // against the packages' crates beside it, as `jengine viewport-build` does.
        jengine::host::listed_packages(&project)?;
        Runtime::start(project, linked, options)
    }

    /// Loads the project whose files are `assets` (a folder on disk, or bytes a host handed
    /// in) with the packages it lists, its tables and its start scene. Its project file,
    /// tables, scenes, scripts and sounds are all read through `assets`, and the player's data
    /// through [`Options::storage`] (or the folder [`Options::save_dir`]). The packages' crates are not looked at:
    /// a host that hands in bytes was built with its packages, and the build checked the
    /// listing.
    pub fn with_assets(
        assets: Arc<dyn Assets>,
        linked: &[&dyn Package],
        options: Options,
    ) -> Result<Runtime, Vec<String>> {
        let project = Project::open(assets).map_err(|e| vec![e.to_string()])?;
        Runtime::start(project, linked, options)
    }

    fn start(
        mut project: Project,
        linked: &[&dyn Package],
        options: Options,
    ) -> Result<Runtime, Vec<String>> {
        let packages = select(&project, linked)?;
        let registry = Registry::with(&packages);
        if !registry.problems().is_empty() {
            return Err(registry.problems().iter().map(|p| p.to_string()).collect());
        }
        // The packages' default files sit under the project's own: every loader (and the
        // renderer, through the world's resource) reads a name the project lacks from them.
        let defaults = registry.default_assets();
        project.assets = jengine::host::with_defaults(project.assets, defaults.clone());
        let (tables, errors) = Tables::load(&*project.assets);
        let mut problems: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        problems.extend(registry.check_tables(&tables));
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut world = World::new();
        world.resources.insert(Time {
            seed: options.seed,
            ..Time::default()
        });
        world.resources.insert(tables);
        world
            .resources
            .insert(jengine::ProjectFiles(project.assets.clone()));
        world
            .resources
            .insert(jengine::host::DefaultAssets(defaults));
        world.resources.insert(jengine::Launch {
            project_dir: project.dir.clone(),
            data_dir: options.save_dir.clone(),
            args: options.args.clone(),
        });
        // What the packages put in the world for each other (a protocol, say), before any
        // scene or script can ask for it.
        registry.set_up(&mut world);
        let scripts = within(&project.assets, "assets/scripts");
        let mut scripts = ScriptHost::with_assets(&registry, scripts, options.limits, options.seed)
            .map_err(|e| {
                vec![format!(
                    "cannot start Lua: {}",
                    jengine::host::describe_lua_error(&e)
                )]
            })?;
        let registry = Rc::new(registry);
        scripts.set_registry(registry.clone());
        let storage = player_storage(&options, &mut world);
        world.resources.insert(PlayerData(storage.clone()));
        let (store, warning) = SaveStore::open_in(storage, "save.json");
        if let Some(w) = warning {
            world.log().warn(w);
        }
        scripts.set_save(store);
        let scene = options
            .scene
            .clone()
            .unwrap_or_else(|| project.file.start_scene.clone());
        let assets = within(&project.assets, "assets");
        let measure = jengine_render::TextMeasure::with_assets(assets.clone());
        let audio = match options.sound {
            Sound::Silent => Audio::with_assets(assets, Box::new(jengine_audio::NullDevice::new())),
            Sound::Device => Audio::open_in(assets, options.platform.sound_device),
        };
        let mut runtime = Runtime {
            project,
            registry,
            world,
            scripts,
            audio,
            music: None,
            scene: String::new(),
            scene_generation: 0,
            log: Vec::new(),
            clipboard: if options.system_clipboard {
                Clipboard::system(options.platform.clipboard)
            } else {
                Clipboard::memory()
            },
            paste_keys: PasteKeys::default(),
            delivered: Vec::new(),
            spawned: Vec::new(),
            heard: std::collections::VecDeque::new(),
            measure,
            scrolling: Scrolling::default(),
            hold_scene_changes: false,
        };
        match runtime.load_scene(&scene) {
            Ok(()) => {}
            Err(e) if options.broken_scene_ok && check_asset_name(&scene).is_ok() => {
                runtime.world.log().error(format!(
                    "scene {scene:?} does not load; nothing runs until it does:\n{e}"
                ));
                runtime.scene = scene;
            }
            Err(e) => return Err(vec![e]),
        }
        runtime.lay_out_text();
        runtime.collect_log();
        Ok(runtime)
    }

    /// Replaces the world's entities with the scene `name`. A scene that fails to load
    /// changes nothing.
    pub fn load_scene(&mut self, name: &str) -> Result<(), String> {
        check_asset_name(name).map_err(|e| format!("scene {e}"))?;
        let file = format!("assets/scenes/{name}.scene");
        let text = self
            .project
            .read_scene(name)
            .map_err(|e| format!("{file}: cannot read scene: {}", e.problem))?;
        self.load_scene_text(name, &text)
    }

    /// Checks `text` as the scene `name` the way a scene file is loaded (every problem, joined
    /// by newlines), without changing anything.
    pub fn check_scene_text(&self, name: &str, text: &str) -> Result<Scene, Vec<SceneError>> {
        let file = format!("assets/scenes/{name}.scene");
        let scene = Scene::parse(&file, text, &self.registry)?;
        if let Some(tables) = self.world.resources.get::<Tables>() {
            let problems = scene.check_tables(&self.registry, tables);
            if !problems.is_empty() {
                return Err(problems);
            }
        }
        Ok(scene)
    }

    /// Replaces the world's entities with the scene `name` read from `text` instead of its
    /// file (an editor's unsaved copy). A scene that fails to load changes nothing.
    pub fn load_scene_text(&mut self, name: &str, text: &str) -> Result<(), String> {
        check_asset_name(name).map_err(|e| format!("scene {e}"))?;
        let scene = self.check_scene_text(name, text).map_err(|errors| {
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })?;
        for notice in scene.notices.iter().chain(&scene.warnings) {
            self.world.log().warn_once(notice.clone());
        }
        self.scripts.detach_all(&mut self.world);
        // Each entity despawned on its own, never `clear()`: despawning moves an id to its next
        // generation, so a handle a package kept from the old scene can never name an entity
        // of the new one.
        let old: Vec<Entity> = self.world.entities.iter().map(|e| e.entity()).collect();
        for e in old {
            let _ = self.world.entities.despawn(e);
        }
        let spawned = scene.spawn(&mut self.world);
        for err in self.scripts.attach(&mut self.world, &spawned) {
            self.world.log().error(err.to_string());
        }
        self.spawned = spawned;
        self.scrolling.forget();
        self.scene = name.to_string();
        self.scene_generation += 1;
        Ok(())
    }

    /// Holds a scene's `Scene.load` (logged, not loaded) while `held`: an editor running a
    /// scene's first frame to edit it keeps that scene, though its script moves on at once.
    pub fn hold_scene_changes(&mut self, held: bool) {
        self.hold_scene_changes = held;
    }

    /// The entities the running scene's file spawned, in file order (an entity the game has
    /// since despawned is still listed; `World::entities.contains` tells).
    pub fn scene_entities(&self) -> &[Entity] {
        &self.spawned
    }

    /// Replaces component `key` of the scene's entity `index` with `value` (as a scene file
    /// writes it) while the game runs on. `Ok(false)` when that entity is gone.
    pub fn set_component(
        &mut self,
        index: usize,
        key: &str,
        value: &serde_json::value::RawValue,
    ) -> Result<bool, String> {
        let Some(&e) = self.spawned.get(index) else {
            return Ok(false);
        };
        if !self.world.entities.contains(e) {
            return Ok(false);
        }
        let binding = self
            .registry
            .binding(key)
            .ok_or_else(|| format!("no listed package registers {key:?}"))?;
        let mut builder = hecs::EntityBuilder::new();
        binding.spawn(&mut builder, value)?;
        self.world
            .entities
            .insert(e, builder.build())
            .map_err(|e| e.to_string())?;
        self.scene_generation += 1;
        Ok(true)
    }

    /// Reads the project's tables again; on any problem the old ones stay and every problem
    /// is returned.
    pub fn reload_tables(&mut self) -> Result<(), Vec<String>> {
        let (tables, errors) = Tables::load(&*self.project.assets);
        let mut problems: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        problems.extend(self.registry.check_tables(&tables));
        if !problems.is_empty() {
            return Err(problems);
        }
        self.world.resources.insert(tables);
        Ok(())
    }

    /// Forgets the decoded sounds, so the next play of each reads its file again.
    pub fn forget_sounds(&mut self) {
        self.audio.forget();
    }

    /// Forgets the script sources read so far, so the next scene load reads them again.
    pub fn forget_scripts(&mut self) {
        self.scripts.forget_sources();
    }

    /// Counts scene loads, so a renderer knows when to preload again.
    pub fn scene_generation(&self) -> u64 {
        self.scene_generation
    }

    /// The scene now running.
    pub fn scene(&self) -> &str {
        &self.scene
    }

    /// Whether a script asked the game to end (`Scene.quit`).
    pub fn quit_requested(&self) -> bool {
        self.world
            .resources
            .contains::<jengine::host::QuitRequest>()
    }

    /// Frames completed.
    pub fn frame(&self) -> u64 {
        self.time().frame
    }

    fn time(&self) -> Time {
        self.world
            .resources
            .get::<Time>()
            .copied()
            .unwrap_or_default()
    }

    /// Runs one frame with these input events. A paste (Ctrl+V, Shift+Insert) becomes a text
    /// event holding the clipboard's text, and a text event over [`jengine::MAX_TEXT_INPUT`]
    /// bytes is refused with a warning; [`Runtime::delivered`] is what reached the scripts.
    pub fn step(&mut self, events: &[Event]) {
        let mut time = self.time();
        time.frame += 1;
        time.elapsed = time.frame as f64 * STEP;
        time.dt = STEP;
        self.world.resources.insert(time);
        let events = self.prepare(events);
        // Packages read the pointer and text as resources; scripts get the same events below.
        let pointer_events = events.iter().filter_map(|event| match event {
            Event::Pointer { phase, x, y } => Some(jengine::PointerEvent {
                phase: phase.seam(),
                pos: [*x as f32, *y as f32],
            }),
            _ => None,
        });
        self.world
            .resources
            .get_or_default::<jengine::Pointer>()
            .frame(time.frame, pointer_events);
        let text_events = events.iter().filter_map(|event| match event {
            Event::Text { text } => Some(text.clone()),
            _ => None,
        });
        self.world
            .resources
            .get_or_default::<jengine::TextInput>()
            .frame(text_events);
        // Scripts start first, so a scene's first frame already hands them its input; scroll
        // boxes move before the scripts hear of it, so they read the new scroll.
        self.scripts.start(&mut self.world);
        self.scrolling.input(&mut self.world, &events);
        for event in &events {
            match event {
                Event::Pointer { phase, x, y } => {
                    self.scripts
                        .pointer(&mut self.world, phase.as_str(), *x, *y)
                }
                Event::Key { key, down } => self.scripts.key(&mut self.world, key, *down),
                Event::Text { text } => self.scripts.text(&mut self.world, text),
                Event::Wheel { .. } => {}
            }
        }
        self.delivered = events;
        self.scripts.update(&mut self.world, STEP);
        self.scripts.apply_queue(&self.registry, &mut self.world);
        if let Some(ClipboardCopy(text)) = self.world.resources.remove::<ClipboardCopy>()
            && let Some(said) = self.clipboard.copy(text)
        {
            self.world.log().warn_once(said);
        }
        jengine::host::clear_doing();
        self.play_sound();
        for system in self.registry.systems() {
            jengine::host::doing_system(system.name(), system.package());
            system.run(&mut self.world, STEP);
        }
        jengine::host::clear_doing();
        if let Some(SceneRequest(Some(name))) = self.world.resources.remove::<SceneRequest>() {
            if self.hold_scene_changes {
                self.world.log().info(format!(
                    "Scene.load({name:?}) is held: the scene stays while it is edited"
                ));
            } else if let Err(e) = self.load_scene(&name) {
                self.world
                    .log()
                    .warn(format!("Scene.load({name:?}) failed, the scene stays: {e}"));
            }
        }
        self.lay_out_text();
        if let Err(e) = self.scripts.publish_bags(&self.registry, &self.world) {
            self.world.log().warn(format!(
                "publishing bags failed: {}",
                jengine::host::describe_lua_error(&e)
            ));
        }
        if let Err(e) = self.scripts.flush_save() {
            self.world.log().warn(e);
        }
        self.collect_log();
    }

    /// The events as they reach scripts: a paste's key press replaced by the clipboard's
    /// text (and its release dropped), an oversized text event refused.
    fn prepare(&mut self, events: &[Event]) -> Vec<Event> {
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            let text = match event {
                Event::Key { key, down } => match self.paste_keys.key(key, *down) {
                    KeyUse::Deliver => {
                        out.push(event.clone());
                        continue;
                    }
                    KeyUse::Drop => continue,
                    KeyUse::Paste => {
                        let (text, said) = self.clipboard.paste();
                        if let Some(said) = said {
                            self.world.log().warn_once(said);
                        }
                        match text {
                            Some(text) if !text.is_empty() => text,
                            _ => continue,
                        }
                    }
                },
                Event::Text { text } => text.clone(),
                Event::Pointer { .. } | Event::Wheel { .. } => {
                    out.push(event.clone());
                    continue;
                }
            };
            match crate::input::check_text(&text) {
                Ok(()) => out.push(Event::Text { text }),
                Err(e) => self.world.log().warn(e),
            }
        }
        out
    }

    /// Lays out every text box, keeps scroll boxes in range and writes their `text_layout`.
    fn lay_out_text(&mut self) {
        self.scrolling.lay_out(&mut self.world, &mut self.measure);
    }

    /// The events that reached the scripts on the last frame, as [`Runtime::step`] turned
    /// them (a paste is its text): what a window records, so a replay sees the same.
    pub fn delivered(&self) -> &[Event] {
        &self.delivered
    }

    /// A value scripts saved with `Save.set(key, ...)`, as JSON; `None` when there is none.
    pub fn saved(&self, key: &str) -> Option<serde_json::Value> {
        self.scripts.saved(key)
    }

    /// The latest sounds scripts asked for with `Audio.play`, oldest first.
    pub fn heard(&self) -> impl Iterator<Item = &Heard> {
        self.heard.iter()
    }

    /// The text last put on the clipboard by `Clipboard.copy`, kept whether or not a system
    /// clipboard took it too.
    pub fn clipboard(&self) -> Option<&str> {
        self.clipboard.copied()
    }

    /// This frame's `Audio.*` requests, in call order, then one step of the mixer; the music
    /// clock packages read is what the device has actually played.
    fn play_sound(&mut self) {
        let requests = self
            .world
            .resources
            .get_mut::<AudioQueue>()
            .map(|q| std::mem::take(&mut q.0))
            .unwrap_or_default();
        let mut problems = Vec::new();
        for request in requests {
            let result = match request {
                AudioRequest::Music { name, options } => {
                    if self.music.as_deref() == Some(name.as_str()) && self.audio.clock().playing {
                        Ok(())
                    } else {
                        self.music = Some(name.clone());
                        self.audio.music(&name, options)
                    }
                }
                AudioRequest::PauseMusic => {
                    self.audio.pause_music();
                    Ok(())
                }
                AudioRequest::ResumeMusic => {
                    self.audio.resume_music();
                    Ok(())
                }
                AudioRequest::StopMusic { fade } => {
                    self.music = None;
                    self.audio.stop_music(fade)
                }
                AudioRequest::Play { name, options } => {
                    if self.heard.len() == HEARD_KEPT {
                        self.heard.pop_front();
                    }
                    self.heard.push_back(Heard {
                        name: name.clone(),
                        volume: options.volume,
                        pitch: options.pitch,
                        pan: options.pan,
                        frame: self.frame(),
                    });
                    self.audio.play(&name, options)
                }
                AudioRequest::Volume { kind, value } => self.audio.volume(kind, value),
            };
            if let Err(e) = result {
                problems.push(e.to_string());
            }
        }
        self.audio.step(STEP);
        let clock = self.audio.clock();
        self.world.resources.insert(clock);
        problems.extend(self.audio.take_warnings());
        let log = self.world.log();
        for p in problems {
            // A missing or bad file is said once; the game goes on without that sound.
            log.warn_once(p);
        }
    }

    /// Ends the run: every started script's `stop(e)` runs, and the save is written.
    pub fn finish(&mut self) {
        self.scripts.detach_all(&mut self.world);
        if let Err(e) = self.scripts.flush_save() {
            self.world.log().warn(e);
        }
        self.collect_log();
    }

    /// Runs `frames` frames, feeding `input`'s events on their frames.
    pub fn run(&mut self, frames: u64, input: &mut InputScript, mut each: impl FnMut(&Runtime)) {
        for _ in 0..frames {
            if self.quit_requested() {
                return;
            }
            let events = input.due(self.frame() + 1);
            self.step(&events);
            each(self);
        }
    }

    fn collect_log(&mut self) {
        let lines = self.world.log().drain();
        self.log.extend(lines);
    }

    /// Takes the log lines written since the last take.
    pub fn take_log(&mut self) -> Vec<LogLine> {
        std::mem::take(&mut self.log)
    }

    /// Every published bag as JSON: `{ "<entity>": { "<bag>": {...} } }`, entities by name
    /// (or `#<id>` when unnamed), in a stable order.
    pub fn bags(&self) -> serde_json::Value {
        let mut out = serde_json::Map::new();
        for bag in self.registry.bags() {
            for (entity, value) in bag.to_json(&self.world) {
                let key = self.world.describe(entity).trim_matches('"').to_string();
                let slot = out
                    .entry(key)
                    .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
                if let Some(map) = slot.as_object_mut() {
                    map.insert(bag.key().to_string(), value);
                }
            }
        }
        serde_json::Value::Object(out)
    }

    /// The entity named `name`.
    pub fn find(&self, name: &str) -> Option<Entity> {
        self.world.find(name)
    }

    /// What the `text` of the entity named `name` says now (for tests and tools that read the
    /// screen); `None` when there is no such entity or it has no text.
    pub fn text(&self, name: &str) -> Option<String> {
        let e = self.find(name)?;
        let text = self.world.entities.get::<&jengine::Text>(e).ok()?;
        Some(text.text.clone())
    }

    /// Runs a Lua test file (`code`, named `name` in messages) in this run's sandbox, with the
    /// project's scripts for `import` and its tables for `Data.table`: the file returns a table
    /// of test functions, each called in name order. See [`jengine::host::ScriptHost::run_tests`].
    pub fn run_lua_tests(
        &mut self,
        name: &str,
        code: &str,
    ) -> Result<Vec<jengine::host::LuaTest>, String> {
        let outcomes = self
            .scripts
            .run_tests(&mut self.world, name, code)
            .map_err(|e| e.to_string());
        self.collect_log();
        outcomes
    }
}

/// Prints log lines the way the tool shows them.
pub fn print_log(lines: &[LogLine]) {
    for line in lines {
        match line.level {
            LogLevel::Info => eprintln!("info: {}", line.message),
            LogLevel::Warn => eprintln!("warning: {}", line.message),
            LogLevel::Error => eprintln!("error: {}", line.message),
        }
    }
}
