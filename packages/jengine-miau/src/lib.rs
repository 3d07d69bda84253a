//! `jengine-miau`: the pure core of Miau, a puzzle where the rules are word tiles on the board.
//!
//! Pushing `CAT`, `IS` and `YOU` into a line makes every cat move with the player; break the
//! line and they stop. This crate is everything below the game's presentation:
//!
//! 1. [`rules`] reads sentences and rules from word tiles, [`board`] plays turns on a proof
//!    (a compiled level) and [`game`] adds undo and restart; [`automata`] moves objects that
//!    have a proof's own behaviour words.
//! 2. [`pack`] is the level-pack data model, [`validate`] the one validator every source goes
//!    through, and [`source`] turns CommonJS, Lua and JSON text into checked packs.
//! 3. [`library`] keeps installed packs on disk and [`share`] encodes them into links.
//! 4. [`solve`] is the author solver and [`worlds`] the shipped packs and their gate.
//!
//! It imports nothing from the `jengine` seam: everything here is plain data, tested directly.
//!
//! ```
//! use jengine_miau::{Action, Game, Level, Placement, Proof};
//!
//! let level = Level::new("intro", 5, 3, vec![
//!     Placement::word("CAT", 0, 0), Placement::word("IS", 1, 0), Placement::word("YOU", 2, 0),
//!     Placement::word("FLAG", 0, 2), Placement::word("IS", 1, 2), Placement::word("WIN", 2, 2),
//!     Placement::object("CAT", 3, 1), Placement::object("FLAG", 4, 1),
//! ]);
//! let mut game = Game::new(Proof::new(&level).unwrap());
//! assert!(game.play(Action::Right).won);
//! ```
#![warn(missing_docs)]

pub mod automata;
pub mod board;
pub mod game;
pub mod gift;
pub mod library;
pub mod pack;
pub mod rules;
#[cfg(any(test, feature = "selftest"))]
pub mod selftest;
pub mod session;
pub mod share;
pub mod solve;
pub mod source;
pub mod validate;
pub mod worlds;

pub use board::{Action, Board, Entity, Proof, ProofError, Turn};
pub use game::Game;
pub use pack::{
    Behaviour, Facing, Glyph, Level, Manifest, Pack, Placement, PlacementKind, RuleText,
};
pub use rules::{Axis, Rule, Rules, Sentence};

// The package on the engine: the `miau_game` component, the `Miau.*` commands, the bags
// scripts read, and `draw`, which turns a board into entities. Everything above this line is
// plain Rust.
mod defaults;
pub mod draw;

use std::collections::HashMap;
use std::sync::Arc;

use jengine::host::{DiskStorage, MemoryStorage, Storage};

use jengine::value::{entity, string};
use jengine::{Launch, Package, PlayerData, Registry, World};
use serde::{Deserialize, Serialize};

use crate::library::InstallMode;
use crate::rules::TokenKind;
use crate::session::{Change, Session};

/// The `miau_game` scene component: where the player's packs live, which level to start on,
/// and where and how big the board is drawn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MiauGame {
    /// The folder, under the player's data folder, holding installed packs (`packs/`),
    /// progress and exports. Scenes naming the same folder share one session.
    pub folder: String,
    /// The project folder of packs that ship with the game (read as trusted sources); empty
    /// for none.
    pub shipped: String,
    /// A pack to start playing when the scene loads; empty to start none.
    pub pack: String,
    /// Its level; empty for the first not yet solved.
    pub level: String,
    /// The largest cell size, in world units.
    pub tile: f32,
    /// The area the board must fit in, `[w, h]` in world units (cells shrink to fit).
    pub area: [f32; 2],
    /// The middle of the board in the world.
    pub origin: [f32; 2],
    /// The depth of the board; tiles and objects draw just above it.
    pub z: f32,
    /// Seconds an entity takes to slide from one cell to the next.
    pub step: f32,
    /// A tile texture under `assets/textures/` (white, tinted per word); plain when empty.
    pub tile_texture: String,
    /// A soft bar texture for sentence bars; plain when empty.
    pub bar_texture: String,
    /// A spark texture for the win burst; small squares when empty.
    pub spark_texture: String,
    /// Whether the package draws the board (false: a game draws its own from `MiauBoard`).
    pub draw: bool,
}

impl Default for MiauGame {
    fn default() -> MiauGame {
        MiauGame {
            folder: "miau".into(),
            shipped: "mods".into(),
            pack: String::new(),
            level: String::new(),
            tile: 1.0,
            area: [12.0, 8.0],
            origin: [0.0, 0.0],
            z: 0.0,
            step: 0.12,
            // The package's own art (see `defaults`), so a game that merely lists the package
            // draws Miau's tiles; a project's file of the same name wins.
            tile_texture: "miau/tile.png".into(),
            bar_texture: "miau/bar.png".into(),
            spark_texture: "miau/spark.png".into(),
            draw: true,
        }
    }
}

/// A folder name: one plain component, no `..`, no separators.
fn plain_folder(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

impl MiauGame {
    /// What a scene may not hold: folders that leave their place, sizes that are not sizes.
    pub fn check(&self) -> Result<(), String> {
        if !plain_folder(&self.folder) {
            return Err(format!(
                "folder: {:?} is not a plain folder name (letters, digits, '-', '_', '.')",
                self.folder
            ));
        }
        if !self.shipped.is_empty() && !plain_folder(&self.shipped) {
            return Err(format!(
                "shipped: {:?} is not a folder of the project",
                self.shipped
            ));
        }
        if !(self.tile.is_finite() && self.tile > 0.0) {
            return Err(format!("tile: {} is not a size above 0", self.tile));
        }
        if self.area.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
            return Err(format!("area: {:?} is not a size above 0", self.area));
        }
        if self.origin.iter().any(|v| !v.is_finite()) || !self.z.is_finite() {
            return Err(format!("origin: {:?} is not a point", self.origin));
        }
        if !(self.step.is_finite() && (0.0..=2.0).contains(&self.step)) {
            return Err(format!("step: {} is not 0 to 2 seconds", self.step));
        }
        for (field, name) in [
            ("tile_texture", &self.tile_texture),
            ("bar_texture", &self.bar_texture),
            ("spark_texture", &self.spark_texture),
        ] {
            if !name.is_empty() {
                jengine::check_asset_name(name).map_err(|e| format!("{field}: {e}"))?;
            }
        }
        Ok(())
    }
}

/// A problem of a pack, where it is.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ProblemBag {
    /// Such as `levels[2].objects[7].x`.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// A note about a loose word.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct NoteBag {
    /// The word.
    pub word: String,
    /// The level's id.
    pub level_id: String,
    /// The level's title.
    pub level_title: String,
    /// The sentence it stands in, if any.
    pub sentence: Option<String>,
    /// For a player.
    pub message: String,
    /// For an author.
    pub detail: String,
    /// Where in the pack it points when not at a word tile (`palette.SKULL`), or `nil`.
    pub path: Option<String>,
    /// How many times the same note was said (stacked copies of one loose word are one note).
    pub count: usize,
}

impl NoteBag {
    /// The notes as the screens show them: identical ones merged, with their count.
    pub fn merged(notes: &[validate::Note]) -> Vec<NoteBag> {
        validate::merged(notes)
            .into_iter()
            .map(|(n, count)| NoteBag {
                count,
                ..NoteBag::from(n)
            })
            .collect()
    }
}

impl From<&validate::Note> for NoteBag {
    fn from(n: &validate::Note) -> NoteBag {
        NoteBag {
            word: n.word.clone(),
            level_id: n.level_id.clone(),
            level_title: n.level_title.clone(),
            sentence: n.sentence.clone(),
            message: n.message.clone(),
            detail: n.detail.clone(),
            path: n.path.clone(),
            count: 1,
        }
    }
}

/// A catalog level.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LevelBag {
    /// Level id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Won by the player.
    pub solved: bool,
}

/// A catalog pack.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PackBag {
    /// Pack id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Version.
    pub version: String,
    /// Ships with the game (cannot be removed).
    pub built_in: bool,
    /// The pack it was forked from.
    pub fork_of: Option<String>,
    /// Its levels.
    pub levels: Vec<LevelBag>,
    /// How many are solved.
    pub solved: usize,
}

/// The pack waiting to be kept or left.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PendingBag {
    /// `text`, `file` or `link`.
    pub origin: String,
    /// Pack id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Version.
    pub version: String,
    /// Level titles, in order.
    pub levels: Vec<String>,
    /// The palette's glyphs, noun by noun, sorted by noun; a glyph the fonts cannot draw is
    /// the noun in brackets (`[skull]`).
    pub glyphs: Vec<String>,
    /// Notes about loose words.
    pub notes: Vec<NoteBag>,
    /// A pack with this id is installed: keeping needs `replace` or `both`.
    pub conflict: bool,
}

/// What the last pack operation said.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct OutcomeBag {
    /// Counts outcomes.
    pub serial: u64,
    /// The operation.
    pub op: String,
    /// It did what was asked.
    pub ok: bool,
    /// One line for the player.
    pub message: String,
    /// Every problem of a pack that failed, with its path.
    pub errors: Vec<ProblemBag>,
    /// The pack it concerned.
    pub pack: Option<String>,
    /// A file it wrote.
    pub path: Option<String>,
    /// A share link it made.
    pub link: Option<String>,
}

/// A move or undo that did nothing, and why.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RefusedBag {
    /// Counts refusals: a new one has a new serial, even when it says the same thing.
    pub serial: u64,
    /// `blocked`, `nothing is YOU`, `too many words`, `nothing to undo`, `already won` or
    /// `no level`.
    pub reason: String,
    /// One line for the player.
    pub message: String,
}

/// The level being played.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PlayingBag {
    /// Pack id.
    pub pack: String,
    /// Pack name.
    pub pack_name: String,
    /// Level id.
    pub level: String,
    /// Level title.
    pub title: String,
    /// The author's hint.
    pub hint: Option<String>,
    /// Its place in the pack, from 1.
    pub number: usize,
    /// Levels in the pack.
    pub count: usize,
    /// Levels of the pack solved so far, this one included once it is won.
    pub solved: usize,
    /// The next level's id, if any.
    pub next: Option<String>,
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
}

/// A sentence on the board, for sentence bars and the rule list.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SentenceBag {
    /// `h` (across) or `v` (down).
    pub axis: String,
    /// Column of its first word.
    pub x: u16,
    /// Row of its first word.
    pub y: u16,
    /// Words in it.
    pub length: usize,
    /// Its words, such as `CAT IS YOU`.
    pub text: String,
}

/// The `Miau` bag: the session as a game's screens need it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct MiauBag {
    /// Why the session could not open, or `nil`.
    pub error: Option<String>,
    /// The level being played, or `nil`.
    pub playing: Option<PlayingBag>,
    /// The rules in force, each once, such as `CAT IS YOU`.
    pub rules: Vec<String>,
    /// Those of `rules` read through a cell where several words are stacked (the ledger marks
    /// them, as the board shows only the front tile of a stack whole).
    pub stacked_rules: Vec<String>,
    /// Every sentence on the board.
    pub sentences: Vec<SentenceBag>,
    /// The level is won.
    pub won: bool,
    /// Turns taken.
    pub moves: u32,
    /// Turns undo can take back.
    pub can_undo: bool,
    /// Notes about this level's loose words.
    pub notes: Vec<NoteBag>,
    /// Packs and levels, with solved marks.
    pub catalog: Vec<PackBag>,
    /// Installed pack files that did not load.
    pub broken: Vec<ProblemBag>,
    /// The pack waiting to be kept or left.
    pub pending: Option<PendingBag>,
    /// A pasted or named pack script is still being read; its outcome comes when it ends.
    pub importing: bool,
    /// What the last pack operation said.
    pub outcome: Option<OutcomeBag>,
    /// The last move or undo that did nothing, and why (`nil` since the level started).
    pub refused: Option<RefusedBag>,
    /// Counts board changes (moves, undos, restarts, starts).
    pub changes: u64,
    /// What the last change was: `start`, `move`, `push` (a move that pushed a word), `undo`
    /// or `restart`; empty when no level is being played.
    pub last: String,
    /// How many things are YOU now.
    pub you: usize,
    /// Objects the last move turned into another noun (0 after anything but a move).
    pub transformed: usize,
    /// YOUs the last move brought to something DEFEAT, and lost.
    pub defeated: usize,
    /// Things a SINK took down on the last move, the SINK included.
    pub sunk: usize,
}

/// One entity on the board.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PieceBag {
    /// Its id (stable for the level).
    pub id: u32,
    /// A word tile (rule text) rather than an object.
    pub word: bool,
    /// The word, or the object's noun.
    pub text: String,
    /// For a word: `noun`, `operator` or `property`.
    pub kind: Option<String>,
    /// Column.
    pub x: u16,
    /// Row.
    pub y: u16,
    /// `left` or `right`.
    pub facing: String,
    /// What an object is drawn as (its palette glyph), `nil` for a word or an unlisted noun.
    pub glyph: Option<String>,
    /// Whether the glyph is drawn mirrored (it faces the other way).
    pub flipped: bool,
    /// For a word: it stands in a sentence.
    pub active: bool,
}

/// The `MiauBoard` bag: the live entities of the board.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BoardBag {
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
    /// The live entities, by id.
    pub pieces: Vec<PieceBag>,
}

/// Every session by folder, kept across scenes, and the store of a run that keeps nothing.
#[derive(Default)]
struct Sessions {
    by_folder: HashMap<String, Result<Session, String>>,
    scratch: Option<MemoryStorage>,
    /// The launch's `--gift` was opened already (it opens once per run, not per scene).
    gift_taken: bool,
}

/// Where the session of `folder` lives: a folder of the player's data ([`PlayerData`], or the
/// launch's data folder on disk), or a store in memory that goes when the run ends. Each part
/// of `folder` is held to the store's name rule, so it cannot climb out.
fn session_storage(world: &mut World, folder: &str) -> Result<Arc<dyn Storage>, String> {
    let player: Arc<dyn Storage> = if let Some(data) = world.resources.get::<PlayerData>() {
        data.0.clone()
    } else if let Some(dir) = world
        .resources
        .get::<Launch>()
        .and_then(|l| l.data_dir.clone())
    {
        Arc::new(DiskStorage::new(&dir))
    } else {
        let sessions = world.resources.get_or_default::<Sessions>();
        Arc::new(
            sessions
                .scratch
                .get_or_insert_with(MemoryStorage::new)
                .clone(),
        )
    };
    folder
        .split('/')
        .try_fold(player, |store, part| store.folder(part))
        .map_err(|e| format!("folder {folder:?}: {e}"))
}

/// The value after `--gift` in the launch arguments, else the gift a host offered (a web
/// page's `#gift=`, see [`gift`]), if this run has one not yet opened.
fn launch_gift(world: &mut World) -> Option<String> {
    if world.resources.get_or_default::<Sessions>().gift_taken {
        return None;
    }
    let args = world
        .resources
        .get::<Launch>()
        .map(|l| l.args.clone())
        .unwrap_or_default();
    let gift = match args.iter().position(|a| a == "--gift") {
        Some(at) => args.get(at + 1).cloned(),
        None => Some(gift::take_offered()?),
    };
    world.resources.get_or_default::<Sessions>().gift_taken = true;
    gift
}

/// Opens the session `game` names if it is not open, with the launch's gift, and starts the
/// scene's level.
fn ensure(world: &mut World, e: jengine::Entity) -> Result<(), String> {
    if world.entities.get::<&draw::Run>(e).is_ok() {
        return Ok(());
    }
    let game = world
        .entities
        .get::<&MiauGame>(e)
        .map(|g| (*g).clone())
        .map_err(|_| format!("entity {} has no miau_game", world.describe(e)))?;
    let opened = world
        .resources
        .get::<Sessions>()
        .is_some_and(|s| s.by_folder.contains_key(&game.folder));
    if !opened {
        let session = session_storage(world, &game.folder).and_then(|storage| {
            // Read through the project's files, so a web build's bundle serves them too.
            let files = world
                .resources
                .get::<jengine::ProjectFiles>()
                .map(|f| f.0.clone());
            let shipped = files
                .as_deref()
                .filter(|f| !game.shipped.is_empty() && f.list(&game.shipped).is_ok());
            Session::open_shipped(storage, shipped.map(|f| (f, game.shipped.as_str())))
        });
        let session = match session {
            Ok(mut s) => {
                for problem in s.take_startup_problems() {
                    world.log().warn(format!("miau_game: {problem}"));
                }
                Ok(s)
            }
            Err(e) => {
                world.log().warn(format!("miau_game: {e}"));
                Err(e)
            }
        };
        world
            .resources
            .get_or_default::<Sessions>()
            .by_folder
            .entry(game.folder.clone())
            .or_insert(session);
    }
    let gift = if opened { None } else { launch_gift(world) };
    let session = world
        .resources
        .get_mut::<Sessions>()
        .and_then(|s| s.by_folder.get_mut(&game.folder))
        .and_then(|s| s.as_mut().ok());
    if let Some(session) = session {
        if !game.pack.is_empty() {
            session.play(&game.pack, &game.level);
            session.touch();
        }
        // After the scene's level, so the gift's outcome is the last one: a refused gift is
        // said on the screen rather than replaced by the level's.
        if let Some(link) = gift {
            session.open_link(&link);
        }
    }
    let gone = |_| format!("entity {} is gone", e.to_bits());
    world
        .entities
        .insert(
            e,
            (
                draw::Run::new(&game),
                MiauBag::default(),
                BoardBag::default(),
            ),
        )
        .map_err(gone)
}

/// Runs `f` on the session of the `miau_game` at `e`.
fn with_session<R>(
    world: &mut World,
    e: jengine::Entity,
    f: impl FnOnce(&mut Session) -> R,
) -> Result<R, String> {
    ensure(world, e)?;
    let folder = world
        .entities
        .get::<&MiauGame>(e)
        .map(|g| g.folder.clone())
        .map_err(|_| format!("entity {} has no miau_game", e.to_bits()))?;
    let session = world
        .resources
        .get_mut::<Sessions>()
        .and_then(|s| s.by_folder.get_mut(&folder))
        .ok_or_else(|| format!("no session for {folder}"))?;
    let session = session.as_mut().map_err(|e| e.clone())?;
    let result = f(session);
    session.touch();
    Ok(result)
}

/// What `Miau.move` takes, declared with its parameter.
const MOVES: [&str; 5] = ["up", "down", "left", "right", "wait"];

/// What `Miau.keep` takes besides nil: `""` (ask again), `"replace"` or `"both"`.
const KEEP_MODES: [&str; 3] = ["", "replace", "both"];

fn action(name: &str) -> Result<Action, String> {
    Ok(match name {
        "up" => Action::Up,
        "down" => Action::Down,
        "left" => Action::Left,
        "right" => Action::Right,
        "wait" => Action::Wait,
        other => {
            return Err(format!(
                "Miau.move: {other:?} is not a move (up, down, left, right or wait)"
            ));
        }
    })
}

fn install_mode(mode: Option<String>) -> Result<Option<InstallMode>, String> {
    match mode.as_deref() {
        None | Some("") => Ok(None),
        Some("replace") => Ok(Some(InstallMode::Replace)),
        Some("both") => Ok(Some(InstallMode::KeepBoth)),
        Some(other) => Err(format!(
            "Miau.keep: {other:?} is not a way to keep a pack (\"replace\" or \"both\")"
        )),
    }
}

/// The `Miau` bag of a session.
fn miau_bag(session: &Session) -> MiauBag {
    let catalog = session
        .catalog()
        .iter()
        .map(|p| PackBag {
            id: p.summary.id.clone(),
            name: p.summary.name.clone(),
            version: p.summary.version.clone(),
            built_in: p.summary.built_in,
            fork_of: p.summary.fork_of.clone(),
            solved: p.levels.iter().filter(|l| l.solved).count(),
            levels: p
                .levels
                .iter()
                .map(|l| LevelBag {
                    id: l.id.clone(),
                    title: l.title.clone(),
                    solved: l.solved,
                })
                .collect(),
        })
        .collect();
    let broken = session
        .broken()
        .iter()
        .map(|(id, message)| ProblemBag {
            path: format!("{id}.json"),
            message: message.clone(),
        })
        .collect();
    let pending = session.pending().map(|p| {
        let pack = &p.preview.pack;
        PendingBag {
            origin: p.origin.as_str().into(),
            id: pack.manifest.id.clone(),
            name: pack.manifest.name.clone(),
            version: pack.manifest.version.clone(),
            levels: pack
                .levels
                .iter()
                .map(|l| l.display_title().to_string())
                .collect(),
            glyphs: pack
                .palette
                .iter()
                .map(|(noun, g)| match drawable_glyph(g) {
                    Some(text) => text.to_string(),
                    None => format!("[{}]", noun.to_lowercase()),
                })
                .collect(),
            notes: NoteBag::merged(&p.preview.notes),
            conflict: p.preview.conflict,
        }
    });
    let outcome = session.outcome().map(|o| OutcomeBag {
        serial: o.serial,
        op: o.op.clone(),
        ok: o.ok,
        message: o.message.clone(),
        errors: o
            .errors
            .iter()
            .map(|p| ProblemBag {
                path: p.path.clone(),
                message: p.message.clone(),
            })
            .collect(),
        pack: o.pack.clone(),
        path: o.path.clone(),
        link: o.link.clone(),
    });
    let refused = session.refused().map(|r| RefusedBag {
        serial: r.serial,
        reason: r.refusal.reason().into(),
        message: r.refusal.message().into(),
    });
    let mut bag = MiauBag {
        catalog,
        broken,
        pending,
        importing: session.importing(),
        outcome,
        refused,
        ..MiauBag::default()
    };
    if let Some(p) = session.playing() {
        let board = p.game.board();
        let proof = p.game.proof();
        let rules = board.rules();
        let mut texts = rules.texts(&proof.lexicon);
        let mut seen = std::collections::HashSet::new();
        texts.retain(|t| seen.insert(t.clone()));
        bag.rules = texts;
        let entities = board.entities();
        let mut words_at: HashMap<(u16, u16), usize> = HashMap::new();
        for e in entities.iter().filter(|e| e.alive && e.is_word) {
            *words_at.entry((e.x, e.y)).or_default() += 1;
        }
        for r in &rules.rules {
            let stacked = r.words.iter().any(|&w| {
                entities
                    .get(w as usize)
                    .is_some_and(|e| words_at.get(&(e.x, e.y)).is_some_and(|&n| n > 1))
            });
            let text = format!(
                "{} IS {}",
                proof.lexicon.text(r.subject),
                proof.lexicon.text(r.predicate)
            );
            if stacked && !bag.stacked_rules.contains(&text) {
                bag.stacked_rules.push(text);
            }
        }
        bag.sentences = rules
            .sentences
            .iter()
            .map(|s| SentenceBag {
                axis: s.axis.as_str().into(),
                x: s.x,
                y: s.y,
                length: s.words.len(),
                text: board.sentence_text(proof, s),
            })
            .collect();
        bag.won = board.is_won();
        bag.moves = p.moves;
        bag.can_undo = p.game.history_len() > 0;
        bag.notes = NoteBag::merged(&p.notes);
        bag.changes = p.changes;
        bag.last = match p.last {
            Change::Start => "start",
            Change::Move(turn) if turn.player_moved_word => "push",
            Change::Move(_) => "move",
            Change::Undo => "undo",
            Change::Restart => "restart",
        }
        .into();
        bag.you = board.you_count();
        if let Change::Move(turn) = p.last {
            bag.transformed = turn.transformed;
            bag.defeated = turn.defeated;
            bag.sunk = turn.sunk;
        }
        let next = session
            .catalog()
            .iter()
            .find(|c| c.summary.id == p.pack)
            .and_then(|c| c.levels.get(p.index + 1))
            .map(|l| l.id.clone());
        bag.playing = Some(PlayingBag {
            pack: p.pack.clone(),
            pack_name: p.pack_name.clone(),
            level: p.level.id.clone(),
            title: p.level.display_title().to_string(),
            hint: p.level.hint.clone(),
            number: p.index + 1,
            count: p.count,
            solved: bag
                .catalog
                .iter()
                .find(|c| c.id == p.pack)
                .map_or(0, |c| c.solved),
            next,
            width: proof.width,
            height: proof.height,
        });
    }
    bag
}

/// The text a palette entry draws.
pub fn glyph_text(glyph: &Glyph) -> &str {
    match glyph {
        Glyph::Plain(text) => text,
        Glyph::Directional { glyph, .. } => glyph,
    }
}

/// The text a palette entry draws, when the bundled fonts can draw all of it.
fn drawable_glyph(glyph: &Glyph) -> Option<&str> {
    let text = glyph_text(glyph);
    jengine::glyphs::undrawable(text).is_empty().then_some(text)
}

/// The `MiauBoard` bag of the level being played.
fn board_bag(playing: &session::Playing) -> BoardBag {
    let proof = playing.game.proof();
    let lex = &proof.lexicon;
    let board = playing.game.board();
    let mut active = vec![false; board.entities().len()];
    for sentence in &board.rules().sentences {
        for &w in &sentence.words {
            if let Some(a) = active.get_mut(w as usize) {
                *a = true;
            }
        }
    }
    let pieces = board
        .entities()
        .iter()
        .enumerate()
        .filter(|(_, e)| e.alive)
        .map(|(id, e)| {
            let text = lex.text(e.token).to_string();
            // A glyph the fonts cannot draw is left out: the noun's name card is drawn instead
                // of a box (the pack's notes say which glyph and why).
            let glyph = (!e.is_word)
                .then(|| playing.palette.get(&text))
                .flatten()
                .filter(|g| drawable_glyph(g).is_some());
            PieceBag {
                id: id as u32,
                word: e.is_word,
                kind: e.is_word.then(|| word_kind(lex.kind(e.token)).to_string()),
                x: e.x,
                y: e.y,
                facing: e.facing.as_str().into(),
                glyph: glyph.map(|g| glyph_text(g).to_string()),
                flipped: matches!(glyph, Some(Glyph::Directional { faces, .. }) if *faces != e.facing),
                active: active[id],
                text,
            }
        })
        .collect();
    BoardBag {
        width: proof.width,
        height: proof.height,
        pieces,
    }
}

/// `noun`, `operator` or `property`: the three colours of word tiles.
pub fn word_kind(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::Noun => "noun",
        TokenKind::Is | TokenKind::And => "operator",
        _ => "property",
    }
}

/// The frame's sessions: every `miau_game` opened, and the bags of those whose session
/// changed since they were last made (nothing is rebuilt on a quiet frame).
fn publish(world: &mut World, _dt: f64) {
    // Pack scripts run on their own threads; a frame only looks whether one has ended.
    if let Some(sessions) = world.resources.get_mut::<Sessions>() {
        for session in sessions.by_folder.values_mut().flatten() {
            if session.poll_import() {
                session.touch();
            }
        }
    }
    let games: Vec<jengine::Entity> = world
        .entities
        .query::<(jengine::Entity, &MiauGame)>()
        .iter()
        .map(|(e, _)| e)
        .collect();
    for e in games {
        if let Err(problem) = ensure(world, e) {
            world.log().warn_once(problem);
            continue;
        }
        let Some((folder, seen)) = world
            .entities
            .query_one_mut::<(&MiauGame, &draw::Run)>(e)
            .ok()
            .map(|(g, run)| (g.folder.clone(), run.revision()))
        else {
            continue;
        };
        let Some(sessions) = world.resources.get::<Sessions>() else {
            continue;
        };
        let made = match sessions.by_folder.get(&folder) {
            Some(Ok(session)) if seen != Some(session.revision()) => {
                let change = session.playing().map(|p| (p.changes, p.last));
                let board = session.playing().map(board_bag).unwrap_or_default();
                Some((session.revision(), miau_bag(session), board, change))
            }
            Some(Err(problem)) if seen.is_none() => Some((
                0,
                MiauBag {
                    error: Some(problem.clone()),
                    ..MiauBag::default()
                },
                BoardBag::default(),
                None,
            )),
            _ => None,
        };
        let Some((revision, bag, board, change)) = made else {
            continue;
        };
        if let Ok((run, miau, board_out)) =
            world
                .entities
                .query_one_mut::<(&mut draw::Run, &mut MiauBag, &mut BoardBag)>(e)
        {
            run.observe(revision, change, bag.won);
            *miau = bag;
            *board_out = board;
        }
    }
}

/// The package entry point.
pub struct MiauPackage;

impl Package for MiauPackage {
    fn name(&self) -> &'static str {
        "jengine-miau"
    }

    fn register(&self, reg: &mut Registry) {
        reg.component_checked::<MiauGame>("miau_game", MiauGame::check);
        defaults::register(reg);

        reg.command(
            "Miau",
            "play",
            (entity("e"), string("pack"), string("level").optional()),
            |w, (e, pack, level)| {
                with_session(w, e, |s| s.play(&pack, level.as_deref().unwrap_or("")))
            },
        );
        reg.command(
            "Miau",
            "move",
            (entity("e"), string("dir").one_of(&MOVES)),
            |w, (e, dir)| {
                let action = action(&dir)?;
                // A refused move is in the bag (`refused`), for the game to show.
                with_session(w, e, |s| {
                    let _ = s.step(action);
                })
            },
        );
        reg.command("Miau", "undo", (entity("e"),), |w, (e,)| {
            with_session(w, e, |s| {
                let _ = s.undo();
            })
        });
        reg.command("Miau", "restart", (entity("e"),), |w, (e,)| {
            with_session(w, e, |s| {
                let _ = s.restart();
            })
        });
        reg.command("Miau", "stop", (entity("e"),), |w, (e,)| {
            with_session(w, e, Session::stop)
        });
        reg.command(
            "Miau",
            "import",
            // Up to what one paste can carry, so an oversized pack is told off by the
            // validator, in the game, rather than refused at the call.
            (
                entity("e"),
                string("text").up_to(jengine::MAX_TEXT_INPUT),
                string("name").optional(),
            ),
            |w, (e, text, name)| {
                with_session(w, e, |s| {
                    s.import_text(&text, name.as_deref().unwrap_or(""))
                })
            },
        );
        reg.command(
            "Miau",
            "import_file",
            (entity("e"), string("path")),
            |w, (e, path)| with_session(w, e, |s| s.import_file(&path)),
        );
        reg.command(
            "Miau",
            "open_link",
            (entity("e"), string("link").up_to(jengine::MAX_TEXT_INPUT)),
            |w, (e, link)| with_session(w, e, |s| s.open_link(&link)),
        );
        reg.command(
            "Miau",
            "keep",
            (entity("e"), string("mode").one_of(&KEEP_MODES).optional()),
            |w, (e, mode)| {
                let mode = install_mode(mode)?;
                with_session(w, e, |s| s.keep(mode))
            },
        );
        reg.command("Miau", "leave", (entity("e"),), |w, (e,)| {
            with_session(w, e, Session::leave)
        });
        reg.command(
            "Miau",
            "export",
            (entity("e"), string("pack")),
            |w, (e, pack)| with_session(w, e, |s| s.export(&pack)),
        );
        reg.command(
            "Miau",
            "share",
            (entity("e"), string("pack")),
            |w, (e, pack)| with_session(w, e, |s| s.share(&pack)),
        );
        reg.command(
            "Miau",
            "remove",
            (entity("e"), string("pack")),
            |w, (e, pack)| with_session(w, e, |s| s.remove(&pack)),
        );

        reg.system("session", publish);
        reg.system("draw", draw::system);
        reg.bag::<MiauBag>("Miau");
        reg.bag::<BoardBag>("MiauBoard");
    }
}
