//! A project running headless, driven and read as a player would: by the names of the
//! entities on the screen.

use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};

use jengine::{Entity, Package};
use jengine_runtime::input::{Event, InputScript, Phase};
use jengine_runtime::{Options, Runtime};

/// The size frames are rendered at for goldens unless a test says otherwise.
pub const GOLDEN_SIZE: (u32, u32) = (1280, 720);

/// A project in a headless [`Runtime`], with the folder its goldens live in. It derefs to the
/// runtime, so `game.step(&[])`, `game.scene()` and `game.world` read as on a runtime.
pub struct Game {
    /// The running project.
    pub rt: Runtime,
    project: PathBuf,
    goldens: PathBuf,
    out: PathBuf,
    size: (u32, u32),
    after: usize,
}

impl Game {
    /// Runs the project at `project` with the packages it lists (taken from `packages`).
    /// Panics with every problem found when it does not load: a test cannot go on without it.
    pub fn open(project: impl AsRef<Path>, packages: &[&dyn Package], options: Options) -> Game {
        let project = project.as_ref().to_path_buf();
        let rt = Runtime::new(&project, packages, options)
            .unwrap_or_else(|problems| panic!("{} does not run: {problems:#?}", project.display()));
        Game::around(rt, project)
    }

    /// A game around a runtime already made (say with options a test built itself).
    pub fn around(rt: Runtime, project: impl AsRef<Path>) -> Game {
        let project = project.as_ref().to_path_buf();
        let out = std::env::temp_dir().join("jengine-golden");
        Game {
            rt,
            goldens: project.join("tests/golden"),
            project,
            out,
            size: GOLDEN_SIZE,
            after: 3,
        }
    }

    /// Checks frames against goldens in `dir` (by default the project's `tests/golden`), and
    /// writes a frame that differs, with its diff, into `out`.
    pub fn goldens(mut self, dir: impl AsRef<Path>, out: impl AsRef<Path>) -> Game {
        self.goldens = dir.as_ref().to_path_buf();
        self.out = out.as_ref().to_path_buf();
        self
    }

    /// Renders golden frames at `size` rather than [`GOLDEN_SIZE`].
    pub fn sized(mut self, size: (u32, u32)) -> Game {
        self.size = size;
        self
    }

    /// How many empty frames follow a click, key or text for its answer to show (3 unless
    /// set): the frame after the input runs the scripts, the next applies their commands.
    pub fn settling(mut self, frames: usize) -> Game {
        self.after = frames;
        self
    }

    /// The project's folder.
    pub fn project(&self) -> &Path {
        &self.project
    }

    /// Steps `frames` frames with no input.
    pub fn settle(&mut self, frames: usize) {
        for _ in 0..frames {
            self.rt.step(&[]);
        }
    }

    /// Presses and releases the key `name` (one frame each), then settles.
    pub fn key(&mut self, name: &str) {
        for down in [true, false] {
            self.rt.step(&[Event::Key {
                key: name.into(),
                down,
            }]);
        }
        self.settle(self.after);
    }

    /// Presses the keys in order, each as [`Game::key`].
    pub fn keys(&mut self, names: &[&str]) {
        for name in names {
            self.key(name);
        }
    }

    /// Presses and releases the pointer at the middle of the entity named `name` (one frame
    /// each), then settles. Panics when there is no such entity.
    pub fn click(&mut self, name: &str) {
        let [x, y] = self.centre(name);
        self.click_at(x as f64, y as f64);
    }

    /// Presses and releases the pointer at a point of the world, then settles.
    pub fn click_at(&mut self, x: f64, y: f64) {
        for phase in [Phase::Press, Phase::Release] {
            self.rt.step(&[Event::Pointer { phase, x, y }]);
        }
        self.settle(self.after);
    }

    /// Types (or pastes) `text` as one text event, then settles.
    pub fn type_text(&mut self, text: &str) {
        self.rt.step(&[Event::Text { text: text.into() }]);
        self.settle(self.after);
    }

    /// Steps until `done` holds, at most `frames` frames; returns how many were stepped.
    /// Panics, saying `what`, when it never held: a game that hangs fails rather than waits.
    pub fn until(
        &mut self,
        frames: usize,
        what: &str,
        mut done: impl FnMut(&Runtime) -> bool,
    ) -> usize {
        for stepped in 0..=frames {
            if done(&self.rt) {
                return stepped;
            }
            if stepped < frames {
                self.rt.step(&[]);
            }
        }
        panic!(
            "{what}: not so after {frames} frames (scene {})",
            self.rt.scene()
        )
    }

    /// Plays an input file (its frames count from the run's start) from the frame the runtime
    /// is on through its last event, then `tail` frames more. Panics when it does not parse.
    pub fn play_file(&mut self, path: impl AsRef<Path>, tail: u64) {
        let path = path.as_ref();
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut input =
            InputScript::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let end = input.last_frame().unwrap_or(0) + tail;
        let frames = end.saturating_sub(self.rt.frame());
        self.rt.run(frames, &mut input, |_| {});
    }

    /// The entity named `name`; panics, naming the scene, when there is none.
    pub fn entity(&self, name: &str) -> Entity {
        self.rt
            .find(name)
            .unwrap_or_else(|| panic!("no entity {name:?} in the scene {}", self.rt.scene()))
    }

    /// What the entity named `name` says; panics when it has no text.
    pub fn text(&self, name: &str) -> String {
        self.entity(name);
        self.rt
            .text(name)
            .unwrap_or_else(|| panic!("{name:?} has no text in the scene {}", self.rt.scene()))
    }

    /// Where the entity named `name` is, in world units.
    pub fn centre(&self, name: &str) -> [f32; 2] {
        let e = self.entity(name);
        self.rt
            .world
            .entities
            .get::<&jengine::Transform2D>(e)
            .unwrap_or_else(|_| panic!("{name:?} has no transform"))
            .pos
    }

    /// The bag `key` that the entity named `entity` publishes (JSON null when it has none).
    pub fn bag(&self, entity: &str, key: &str) -> serde_json::Value {
        self.rt.bags()[entity][key].clone()
    }

    /// The first bag `key` any entity publishes (JSON null when none does), for a scene whose
    /// one game entity's name a test need not know.
    pub fn any_bag(&self, key: &str) -> serde_json::Value {
        let bags = self.rt.bags();
        bags.as_object()
            .and_then(|o| o.values().find_map(|v| v.get(key)))
            .cloned()
            .unwrap_or_default()
    }

    /// The warnings and errors logged since the last take (a script error, a scene that did
    /// not load, ...); the other lines are dropped.
    pub fn warnings(&mut self) -> Vec<String> {
        self.rt
            .take_log()
            .into_iter()
            .filter(|l| l.level >= jengine::LogLevel::Warn)
            .map(|l| l.message)
            .collect()
    }

    /// Panics with them when any warning was logged since the last take.
    pub fn no_warnings(&mut self) {
        let warnings = self.warnings();
        assert!(warnings.is_empty(), "{warnings:#?}");
    }

    /// How many sounds scripts have asked for so far (of the latest kept).
    pub fn heard_count(&self) -> usize {
        self.rt.heard().count()
    }

    /// The names of the sounds asked for after the first `from`.
    pub fn heard_since(&self, from: usize) -> Vec<String> {
        self.rt.heard().skip(from).map(|h| h.name.clone()).collect()
    }

    /// Renders the world as a window would and checks it against the golden `name`; panics
    /// with where the differing frame was written.
    pub fn golden(&self, name: &str) {
        let assets = self.project.join("assets");
        if let Err(e) = crate::golden::check_world(
            &assets,
            &self.rt.world,
            self.size,
            &self.goldens,
            &self.out,
            name,
        ) {
            panic!("{e}");
        }
    }

    /// Renders the world at `size` with the project's assets, as a window would.
    pub fn frame(&self, size: (u32, u32)) -> jengine_render::Frame {
        let mut renderer = jengine_render::Renderer::new(&self.project.join("assets"));
        renderer.preload(&self.rt.world);
        renderer.render(&self.rt.world, size.0, size.1)
    }
}

impl Deref for Game {
    type Target = Runtime;
    fn deref(&self) -> &Runtime {
        &self.rt
    }
}

impl DerefMut for Game {
    fn deref_mut(&mut self) -> &mut Runtime {
        &mut self.rt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter() -> Game {
        let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/counter-project");
        Game::open(
            project,
            &[&jengine_counter::CounterPackage],
            Options::default(),
        )
    }

    #[test]
    fn a_click_a_key_and_a_settle_reach_the_scripts_by_entity_name() {
        let mut game = counter();
        game.settle(2);
        let before = game.bag("box", "counter")["count"].as_i64().unwrap();
        assert_eq!(before, 3, "start added 1 and 2");
        // The box is at x = 0: a press there adds floor(0) = 0; at x = 5 it adds 5.
        game.click_at(5.0, 1.0);
        assert_eq!(game.bag("box", "counter")["count"], 8);
        game.key("r");
        assert_eq!(game.bag("box", "counter")["count"], 0);
        assert!(
            game.text("label").starts_with("count 0 after"),
            "{}",
            game.text("label")
        );
        assert_eq!(game.centre("label"), [0.0, -2.0]);
        game.no_warnings();
    }

    #[test]
    #[should_panic(expected = "no entity \"nobody\" in the scene main")]
    fn a_click_on_a_name_the_scene_lacks_says_so() {
        counter().click("nobody");
    }

    #[test]
    fn until_counts_the_frames_it_stepped_and_a_wait_that_never_ends_fails() {
        let mut game = counter();
        let stepped = game.until(10, "the label is set", |rt| {
            rt.text("label").is_some_and(|t| !t.is_empty())
        });
        assert!((1..=3).contains(&stepped), "{stepped}");
        let hung = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            game.until(5, "the count reaches a million", |_| false)
        }));
        assert!(hung.is_err());
    }
}
