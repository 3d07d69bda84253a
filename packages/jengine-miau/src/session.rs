//! A player's session: the catalog with solved marks, the level being played, a pack waiting
//! for the player's decision (a gift), and what the last pack operation said.
//!
//! Every operation either succeeds whole or leaves the session as it was and says why in an
//! [`Outcome`]: a game shows outcomes, it never has to undo anything. Progress is one small JSON
//! file written atomically; a file that does not read is set aside as `progress.json.bad` (or the
//! next free `.bad.N`) before anything is written, never overwritten.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

use std::sync::Arc;

use jengine::host::{DiskStorage, Storage, read_kept_in};
use serde_json::{Value, json};

use crate::board::{Action, Proof, Turn};
use crate::game::Game;
use crate::library::{ExportFormat, InstallMode, Library, PackSummary, Preview, export_pack};
use crate::pack::{Glyph, Level};
use crate::share;
use crate::source::{Loading, ScriptLimits, SourceKind, load, load_in_background};
use crate::validate::{Checked, MAX_SOURCE_BYTES, Note, PackError, Problem, validate};
use crate::worlds;

/// The largest progress file read, in bytes (a bigger one is set aside unread).
pub const MAX_PROGRESS_BYTES: u64 = jengine::host::MAX_SAVE_TOTAL as u64;

/// The slot a session's progress is kept in.
const PROGRESS: &str = "progress.json";

/// The longest file path the Workshop reads, in bytes.
pub const MAX_PATH_BYTES: usize = 4096;

/// The level being played.
#[derive(Clone, Debug)]
pub struct Playing {
    /// The pack's id.
    pub pack: String,
    /// The pack's display name.
    pub pack_name: String,
    /// The level as authored.
    pub level: Level,
    /// Its place in the pack, from 0.
    pub index: usize,
    /// How many levels the pack has.
    pub count: usize,
    /// How the pack draws its nouns.
    pub palette: BTreeMap<String, Glyph>,
    /// The proof, its board and its history.
    pub game: Game,
    /// Turns taken since the level started (undo takes one back, restart starts again).
    pub moves: u32,
    /// Notes about this level's loose words.
    pub notes: Vec<Note>,
    /// Counts every change of the board (a move, an undo, a restart, the start).
    pub changes: u64,
    /// What the last change was.
    pub last: Change,
}

/// What last changed the board, so a picture can animate it the right way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The level just started.
    Start,
    /// A turn was played.
    Move(Turn),
    /// A turn was taken back.
    Undo,
    /// The level started again.
    Restart,
}

/// Why a player's move or undo did nothing. The board is as it was; a game says so at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No level is being played.
    NoLevel,
    /// Every YOU is stopped (by the edge or something STOP) and nothing else moved.
    Blocked,
    /// No object is YOU, so a move has nothing to move.
    NothingIsYou,
    /// The push would stack more words than the rules can be read through.
    TooManyWords,
    /// Undo with no turn to take back.
    NothingToUndo,
    /// The level is won and takes no more turns.
    AlreadyWon,
}

impl Refusal {
    /// A short name for scripts: `no level`, `blocked`, `nothing is YOU`, `too many words`,
    /// `nothing to undo`, `already won`.
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::NoLevel => "no level",
            Refusal::Blocked => "blocked",
            Refusal::NothingIsYou => "nothing is YOU",
            Refusal::TooManyWords => "too many words",
            Refusal::NothingToUndo => "nothing to undo",
            Refusal::AlreadyWon => "already won",
        }
    }

    /// One line for the player.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::NoLevel => "No level is being played.",
            Refusal::Blocked => "Blocked: nothing can move that way.",
            Refusal::NothingIsYou => "Nothing is YOU, so nothing moves.",
            Refusal::TooManyWords => "That push would stack too many words to read.",
            Refusal::NothingToUndo => "Nothing to undo.",
            Refusal::AlreadyWon => "Already solved: no more moves here.",
        }
    }
}

/// The last refusal, counted so a game sees every one, even the same twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused {
    /// Counts refusals over the session.
    pub serial: u64,
    /// Why.
    pub refusal: Refusal,
}

/// Where a pending pack came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Pasted text.
    Text,
    /// A file the player named.
    File,
    /// A share link.
    Link,
}

impl Origin {
    /// `text`, `file` or `link`.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Text => "text",
            Origin::File => "file",
            Origin::Link => "link",
        }
    }
}

/// A validated pack waiting to be kept or left.
#[derive(Clone, Debug)]
pub struct Pending {
    /// The pack and its notes.
    pub preview: Preview,
    /// Where it came from.
    pub origin: Origin,
}

/// What the last pack operation said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Counts outcomes, so a game sees a new one even when it says the same thing.
    pub serial: u64,
    /// The operation: `play`, `import`, `link`, `keep`, `leave`, `export`, `share`, `remove`.
    pub op: String,
    /// Whether it did what was asked.
    pub ok: bool,
    /// One line for the player.
    pub message: String,
    /// Every problem of a pack that failed validation, with its path.
    pub errors: Vec<Problem>,
    /// The pack it concerned.
    pub pack: Option<String>,
    /// A file it wrote.
    pub path: Option<String>,
    /// A share link it made.
    pub link: Option<String>,
}

/// An outcome that failed, boxed (it is large and travels in `Err`).
type Failure = Box<Outcome>;

/// One catalog level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogLevel {
    /// Level id.
    pub id: String,
    /// Display title.
    pub title: String,
    /// Whether the player has won it.
    pub solved: bool,
}

/// One catalog pack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogPack {
    /// Id, name, version, whether it ships with the game, what it forks.
    pub summary: PackSummary,
    /// Its levels in order.
    pub levels: Vec<CatalogLevel>,
}

/// Levels won, by pack id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Progress {
    solved: BTreeMap<String, BTreeSet<String>>,
}

impl Progress {
    fn to_json(&self) -> Value {
        json!({ "version": 1, "solved": self.solved })
    }

    /// Reads a progress file's bytes.
    fn from_bytes(bytes: &[u8]) -> Result<Progress, String> {
        let value = serde_json::from_slice::<Value>(bytes).map_err(|e| e.to_string())?;
        Progress::from_json(&value)
    }

    fn from_json(value: &Value) -> Result<Progress, String> {
        if value.get("version").and_then(Value::as_u64) != Some(1) {
            return Err("it is not version 1 progress".into());
        }
        let solved = value
            .get("solved")
            .and_then(Value::as_object)
            .ok_or("it has no 'solved' record")?;
        let mut out = Progress::default();
        for (pack, levels) in solved {
            let levels = levels
                .as_array()
                .ok_or_else(|| format!("solved.{pack} is not a list"))?;
            let set = out.solved.entry(pack.clone()).or_default();
            for (i, level) in levels.iter().enumerate() {
                let level = level
                    .as_str()
                    .ok_or_else(|| format!("solved.{pack}[{i}] is not a level id"))?;
                set.insert(level.to_string());
            }
        }
        Ok(out)
    }
}

/// A pack script being read on its own thread, and where its text came from.
struct Importing {
    loading: Loading,
    origin: Origin,
}

/// A player's session over one library folder.
pub struct Session {
    library: Library,
    progress: Progress,
    /// The store progress is written to; `None` when a bad slot there could not be set aside.
    progress_file: Option<Arc<dyn Storage>>,
    exports: Arc<dyn Storage>,
    catalog: Vec<CatalogPack>,
    broken: Vec<(String, String)>,
    playing: Option<Playing>,
    pending: Option<Pending>,
    /// A pasted or named pack script still running; its outcome comes when it ends.
    importing: Option<Importing>,
    /// What an imported pack script may use.
    limits: ScriptLimits,
    outcome: Option<Outcome>,
    /// The last move or undo that did nothing, and why; cleared when a level starts.
    refused: Option<Refused>,
    /// Refusals so far (never reset, so a serial is never seen twice).
    refusals: u64,
    /// Problems found opening the session (shipped packs that did not load, progress set
    /// aside), for the game's log.
    startup: Vec<String>,
    /// Counts calls that may have changed something, so a reader remakes its view only then.
    revision: u64,
}

fn io(path: &Path, e: impl std::fmt::Display) -> String {
    format!("{}: {e}", path.display())
}

impl Session {
    /// Opens the session kept in `folder` (installed packs in `packs/`, progress in
    /// `progress.json`, exports in `exports/`), with the packs in `shipped` (a game's own
    /// `mods` folder, read as trusted sources) listed after the core pack.
    pub fn open(folder: &Path, shipped: Option<&Path>) -> Result<Session, String> {
        let disk = DiskStorage::new(folder);
        disk.make_folder()
            .map_err(|e| format!("{}: {}", e.path.display(), e.problem))?;
        Session::open_in(Arc::new(disk), shipped)
    }

    /// Opens the session kept in `storage` (installed packs in its folder `packs`, progress in
    /// the slot `progress.json`, exports in the folder `exports`), as [`Session::open`] does.
    pub fn open_in(storage: Arc<dyn Storage>, shipped: Option<&Path>) -> Result<Session, String> {
        match shipped {
            Some(dir) => {
                let files = jengine::host::DiskAssets::new(dir);
                Session::open_shipped(storage, Some((&files, "")))
            }
            None => Session::open_shipped(storage, None),
        }
    }

    /// [`Session::open_in`] with the shipped packs read from the folder `folder` of a set of
    /// files (the project's, [`jengine::ProjectFiles`]: a folder on disk, or a web build's
    /// bundle). A pack file that does not load is said at startup and left out.
    pub fn open_shipped(
        storage: Arc<dyn Storage>,
        shipped: Option<(&dyn jengine::host::Assets, &str)>,
    ) -> Result<Session, String> {
        let mut startup = Vec::new();
        let mut packs = Vec::new();
        if let Some((files, folder)) = shipped {
            for (name, text) in worlds::shipped_sources(files, folder).map_err(|e| e.to_string())? {
                match text.and_then(|text| load(&text, SourceKind::from_name(&name), &name)) {
                    Ok(checked) => packs.push(checked.pack),
                    Err(e) => startup.push(format!("{name}: {e}")),
                }
            }
        }
        let packs_folder = storage.folder("packs").map_err(|e| e.to_string())?;
        let library = Library::in_storage(packs_folder);
        let (library, doubled) = library.with_shipped(packs);
        for id in doubled {
            startup.push(format!(
                "two shipped packs have the id '{id}'; the first is kept"
            ));
        }
        let (progress, progress_file) = match read_kept_in(
            &*storage,
            PROGRESS,
            MAX_PROGRESS_BYTES,
            Progress::from_bytes,
        ) {
            Ok(progress) => (progress.unwrap_or_default(), Some(storage.clone())),
            Err(aside) => {
                startup.push(format!("{aside}; progress starts afresh"));
                // A file that could not be moved aside is never written over.
                let keep = aside.kept.is_ok().then_some(storage.clone());
                (Progress::default(), keep)
            }
        };
        let mut session = Session {
            library,
            progress,
            progress_file,
            exports: storage.folder("exports").map_err(|e| e.to_string())?,
            catalog: Vec::new(),
            broken: Vec::new(),
            playing: None,
            pending: None,
            importing: None,
            limits: ScriptLimits::default(),
            outcome: None,
            refused: None,
            refusals: 0,
            startup,
            revision: 0,
        };
        session.refresh_catalog();
        Ok(session)
    }

    /// Counts operations that may have changed the session.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Marks the session as possibly changed (every operation through a game does).
    pub fn touch(&mut self) {
        self.revision += 1;
    }

    /// Problems found while opening, said once by the caller.
    pub fn take_startup_problems(&mut self) -> Vec<String> {
        std::mem::take(&mut self.startup)
    }

    /// The packs with their levels and solved marks.
    pub fn catalog(&self) -> &[CatalogPack] {
        &self.catalog
    }

    /// Installed files that did not load, with why.
    pub fn broken(&self) -> &[(String, String)] {
        &self.broken
    }

    /// The level being played.
    pub fn playing(&self) -> Option<&Playing> {
        self.playing.as_ref()
    }

    /// The pack waiting for the player's decision.
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// What the last pack operation said.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The last move or undo that did nothing, and why.
    pub fn refused(&self) -> Option<Refused> {
        self.refused
    }

    fn refuse(&mut self, refusal: Refusal) -> Refusal {
        self.refusals += 1;
        self.refused = Some(Refused {
            serial: self.refusals,
            refusal,
        });
        refusal
    }

    /// The library under the session.
    pub fn library(&self) -> &Library {
        &self.library
    }

    fn refresh_catalog(&mut self) {
        let (packs, broken) = self.library.scan();
        self.catalog = packs
            .into_iter()
            .map(|(summary, pack)| {
                let solved = self.progress.solved.get(&summary.id);
                let levels = pack
                    .levels
                    .iter()
                    .map(|l| CatalogLevel {
                        id: l.id.clone(),
                        title: l.display_title().to_string(),
                        solved: solved.is_some_and(|s| s.contains(&l.id)),
                    })
                    .collect();
                CatalogPack { summary, levels }
            })
            .collect();
        self.broken = broken
            .into_iter()
            .map(|(id, e)| (id, e.to_string()))
            .collect();
    }

    fn say(&mut self, op: &str, result: Result<Outcome, Failure>) {
        let serial = self.outcome.as_ref().map_or(0, |o| o.serial) + 1;
        let mut outcome = match result {
            Ok(o) => Outcome { ok: true, ..o },
            Err(o) => Outcome { ok: false, ..*o },
        };
        outcome.serial = serial;
        outcome.op = op.to_string();
        self.outcome = Some(outcome);
    }

    fn failure(message: impl Into<String>) -> Failure {
        Box::new(Outcome {
            message: message.into(),
            ..Outcome::default()
        })
    }

    fn pack_failure(error: PackError) -> Failure {
        match error {
            PackError::Invalid(problems) => Box::new(Outcome {
                message: format!(
                    "The pack has {} problem{}; nothing was changed.",
                    problems.len(),
                    if problems.len() == 1 { "" } else { "s" }
                ),
                errors: problems,
                ..Outcome::default()
            }),
            other => Session::failure(other.to_string()),
        }
    }

    /// Starts a level: `level` is its id, or empty for the first level not yet solved (the
    /// first level when all are). A pack or level that is not there changes nothing.
    pub fn play(&mut self, pack_id: &str, level: &str) {
        let result = self.start(pack_id, level);
        self.say("play", result);
    }

    fn start(&mut self, pack_id: &str, level: &str) -> Result<Outcome, Failure> {
        let pack = self.library.pack(pack_id).map_err(Session::pack_failure)?;
        let index = if level.is_empty() {
            let solved = self.progress.solved.get(pack_id);
            pack.levels
                .iter()
                .position(|l| !solved.is_some_and(|s| s.contains(&l.id)))
                .unwrap_or(0)
        } else {
            pack.levels
                .iter()
                .position(|l| l.id == level)
                .ok_or_else(|| {
                    Session::failure(format!("'{}' has no level '{level}'", pack.manifest.name))
                })?
        };
        let authored = pack.levels[index].clone();
        let proof =
            Proof::new(&authored).map_err(|e| Session::failure(format!("{}: {e}", authored.id)))?;
        // Notes are worked out by the validator, so they say what the Workshop says.
        let notes = validate(&pack.to_json())
            .map(|c| c.notes)
            .unwrap_or_default()
            .into_iter()
            .filter(|n| n.level_id == authored.id)
            .collect();
        let changes = self.playing.as_ref().map_or(0, |p| p.changes) + 1;
        self.playing = Some(Playing {
            pack: pack.manifest.id.clone(),
            pack_name: pack.manifest.name.clone(),
            index,
            count: pack.levels.len(),
            palette: pack.palette.clone(),
            game: Game::new(proof),
            moves: 0,
            notes,
            changes,
            last: Change::Start,
            level: authored,
        });
        self.refused = None;
        Ok(Outcome {
            message: format!(
                "{}: {}",
                pack.manifest.name,
                pack.levels[index].display_title()
            ),
            pack: Some(pack.manifest.id),
            ..Outcome::default()
        })
    }

    /// Plays one turn of the level being played. A turn that would change nothing (every YOU
    /// stopped, nothing else moving), a won level or no level is refused: nothing changes, the
    /// move is not counted, and [`Session::refused`] says why.
    pub fn step(&mut self, action: Action) -> Result<Turn, Refusal> {
        let Some(playing) = self.playing.as_mut() else {
            return Err(self.refuse(Refusal::NoLevel));
        };
        if playing.game.board().is_won() {
            return Err(self.refuse(Refusal::AlreadyWon));
        }
        let before = playing.game.board().clone();
        let turn = playing.game.play(action);
        if turn.blocked {
            return Err(self.refuse(Refusal::TooManyWords));
        }
        if action != Action::Wait && playing.game.board() == &before {
            // Nothing moved: take the empty turn back out of the history.
            playing.game.undo();
            let why = if before.you_count() == 0 {
                Refusal::NothingIsYou
            } else {
                Refusal::Blocked
            };
            return Err(self.refuse(why));
        }
        playing.moves += 1;
        playing.changes += 1;
        playing.last = Change::Move(turn);
        if turn.won {
            let (pack, level) = (playing.pack.clone(), playing.level.id.clone());
            if self.progress.solved.entry(pack).or_default().insert(level) {
                if let Err(e) = self.save_progress() {
                    self.startup.push(e);
                }
                self.refresh_solved();
            }
        }
        Ok(turn)
    }

    /// Takes back the last turn; refused when there is none.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        let Some(playing) = self.playing.as_mut() else {
            return Err(self.refuse(Refusal::NoLevel));
        };
        if !playing.game.undo() {
            return Err(self.refuse(Refusal::NothingToUndo));
        }
        playing.moves = playing.moves.saturating_sub(1);
        playing.changes += 1;
        playing.last = Change::Undo;
        Ok(())
    }

    /// Starts the level again (undo brings the board back).
    pub fn restart(&mut self) -> Result<(), Refusal> {
        let Some(playing) = self.playing.as_mut() else {
            return Err(self.refuse(Refusal::NoLevel));
        };
        playing.game.restart();
        playing.moves = 0;
        playing.changes += 1;
        playing.last = Change::Restart;
        Ok(())
    }

    /// Stops playing.
    pub fn stop(&mut self) {
        self.playing = None;
    }

    fn refresh_solved(&mut self) {
        for pack in &mut self.catalog {
            let solved = self.progress.solved.get(&pack.summary.id);
            for level in &mut pack.levels {
                level.solved = solved.is_some_and(|s| s.contains(&level.id));
            }
        }
    }

    fn save_progress(&self) -> Result<(), String> {
        let Some(storage) = &self.progress_file else {
            return Ok(());
        };
        let file = storage.path_of(PROGRESS);
        let text =
            serde_json::to_string_pretty(&self.progress.to_json()).map_err(|e| io(&file, e))?;
        // Larger would be set aside when read back.
        if text.len() as u64 > MAX_PROGRESS_BYTES {
            return Err(format!(
                "{}: progress would be {} bytes; it may be at most {MAX_PROGRESS_BYTES}, so it was not written",
                file.display(),
                text.len()
            ));
        }
        storage
            .write(PROGRESS, text.as_bytes())
            .map_err(|e| e.to_string())
    }

    fn hold(&mut self, op: &str, origin: Origin, preview: Result<Preview, PackError>) {
        let result = preview.map_err(Session::pack_failure).map(|preview| {
            let p = &preview.pack;
            let message = format!(
                "{} {} ({} level{}){}",
                p.manifest.name,
                p.manifest.version,
                p.levels.len(),
                if p.levels.len() == 1 { "" } else { "s" },
                if preview.conflict {
                    ": a pack with this id is already installed"
                } else {
                    ""
                }
            );
            let outcome = Outcome {
                message,
                pack: Some(p.manifest.id.clone()),
                ..Outcome::default()
            };
            self.pending = Some(Pending { preview, origin });
            outcome
        });
        self.say(op, result);
    }

    /// Reads pack text (`.cjs`, `.lua` or `.json`, told by `filename`; JSON when it has no
    /// such ending) into a pending preview. A bad pack changes nothing and lists every problem.
    ///
    /// JSON is read at once. A script runs on its own thread and its outcome comes from a later
    /// [`Session::poll_import`] (or [`Session::finish_import`]), so the caller's frame never
    /// waits for it; a newer import stops one still running.
    pub fn import_text(&mut self, text: &str, filename: &str) {
        let lower = filename.to_ascii_lowercase();
        let named = [".cjs", ".js", ".lua", ".json"]
            .iter()
            .any(|end| lower.ends_with(end));
        let name = if named {
            filename.to_string()
        } else if text.trim_start().starts_with('{') {
            // Pasted text without a name: a JSON object, or else a script by what it says.
            "pasted.json".into()
        } else if text.contains("module.exports") {
            "pasted.cjs".into()
        } else {
            "pasted.lua".into()
        };
        self.start_import(text, name, Origin::Text);
    }

    /// Reads a pack file the player named into a pending preview, as [`Session::import_text`]
    /// does (a script's outcome comes later).
    pub fn import_file(&mut self, path: &str) {
        match read_pack_file(path) {
            Ok((text, name)) => self.start_import(&text, name, Origin::File),
            Err(e) => {
                self.importing = None;
                self.hold("import", Origin::File, Err(e));
            }
        }
    }

    fn start_import(&mut self, text: &str, name: String, origin: Origin) {
        // A newer import replaces one still running, which stops at its next check.
        self.importing = None;
        match SourceKind::from_name(&name) {
            SourceKind::Json => {
                let preview = self.library.import(text, &name);
                self.hold("import", origin, preview);
            }
            kind => {
                let loading = load_in_background(text.to_string(), kind, name, self.limits);
                self.importing = Some(Importing { loading, origin });
            }
        }
    }

    /// Takes the outcome of a running pack script if it has ended, or has run out of time (it
    /// is then stopped and the outcome says it ran too long). Never blocks; returns whether
    /// an outcome was taken. A game calls it every frame.
    pub fn poll_import(&mut self) -> bool {
        let Some(result) = self.importing.as_ref().and_then(|i| i.loading.poll()) else {
            return false;
        };
        if let Some(importing) = self.importing.take() {
            self.end_import(importing.origin, result);
        }
        true
    }

    /// Waits for a running pack script's outcome (for tools and tests, never a frame).
    pub fn finish_import(&mut self) {
        if let Some(importing) = self.importing.take() {
            let origin = importing.origin;
            let result = importing.loading.wait();
            self.end_import(origin, result);
        }
    }

    fn end_import(&mut self, origin: Origin, result: Result<Checked, PackError>) {
        let preview = result.map(|c| self.library.preview(c));
        self.hold("import", origin, preview);
    }

    /// Whether a pasted or named pack script is still being read.
    pub fn importing(&self) -> bool {
        self.importing.is_some()
    }

    /// What imported pack scripts may use from now on (memory and time).
    pub fn set_script_limits(&mut self, limits: ScriptLimits) {
        self.limits = limits;
    }

    /// Reads a share link (or its fragment) into a pending preview. Runs no code.
    pub fn open_link(&mut self, link: &str) {
        self.importing = None;
        let preview = self.library.decode_link(link.trim());
        self.hold("link", Origin::Link, preview);
    }

    /// Installs the pending pack. With a pack of the same id installed, `mode` must say
    /// whether to replace it or keep both; without one it is ignored.
    pub fn keep(&mut self, mode: Option<InstallMode>) {
        let result = self.install(mode);
        self.say("keep", result);
    }

    fn install(&mut self, mode: Option<InstallMode>) -> Result<Outcome, Failure> {
        let pending = self
            .pending
            .as_ref()
            .ok_or_else(|| Session::failure("There is no pack waiting to be kept."))?;
        let mode = match (pending.preview.conflict, mode) {
            (false, _) => InstallMode::Replace,
            (true, Some(mode)) => mode,
            (true, None) => {
                return Err(Session::failure(format!(
                    "'{}' is already installed: replace it or keep both.",
                    pending.preview.pack.manifest.id
                )));
            }
        };
        let summary = self
            .library
            .install(&pending.preview, mode)
            .map_err(Session::pack_failure)?;
        self.pending = None;
        self.refresh_catalog();
        Ok(Outcome {
            message: format!("Kept {} as '{}'.", summary.name, summary.id),
            pack: Some(summary.id),
            ..Outcome::default()
        })
    }

    /// Drops the pending pack; the catalog is as it was.
    pub fn leave(&mut self) {
        let result = match self.pending.take() {
            Some(p) => Ok(Outcome {
                message: format!(
                    "Left {}; nothing was installed.",
                    p.preview.pack.manifest.name
                ),
                pack: Some(p.preview.pack.manifest.id),
                ..Outcome::default()
            }),
            None => Err(Session::failure("There is no pack waiting.")),
        };
        self.say("leave", result);
    }

    /// Writes a catalog pack as a `.cjs` file in the exports folder.
    pub fn export(&mut self, id: &str) {
        let result = self
            .library
            .pack(id)
            .and_then(|pack| export_pack(&pack, ExportFormat::CommonJs))
            .map_err(Session::pack_failure)
            .and_then(|text| {
                // The id was checked by `pack`, so it is a safe slot name.
                let slot = format!("{id}.cjs");
                self.exports
                    .write(&slot, text.as_bytes())
                    .map_err(|e| Session::failure(e.to_string()))?;
                let path = self.exports.path_of(&slot);
                Ok(Outcome {
                    message: format!("Exported to {}", path.display()),
                    pack: Some(id.to_string()),
                    path: Some(path.display().to_string()),
                    ..Outcome::default()
                })
            });
        self.say("export", result);
    }

    /// Makes a share link for a catalog pack.
    pub fn share(&mut self, id: &str) {
        let result = self
            .library
            .share_link(id, share::DEFAULT_LINK_BASE)
            .map_err(Session::pack_failure)
            .map(|link| Outcome {
                message: format!("A link to '{id}' ({} characters).", link.len()),
                pack: Some(id.to_string()),
                link: Some(link),
                ..Outcome::default()
            });
        self.say("share", result);
    }

    /// Removes an installed pack and its solved marks.
    pub fn remove(&mut self, id: &str) {
        let result = self
            .library
            .remove(id)
            .map_err(Session::pack_failure)
            .map(|()| {
                if self.progress.solved.remove(id).is_some()
                    && let Err(e) = self.save_progress()
                {
                    self.startup.push(e);
                }
                if self.playing.as_ref().is_some_and(|p| p.pack == id) {
                    self.playing = None;
                }
                self.refresh_catalog();
                Outcome {
                    message: format!("Removed '{id}'."),
                    pack: Some(id.to_string()),
                    ..Outcome::default()
                }
            });
        self.say("remove", result);
    }
}

/// Reads a pack file named by the player: at most [`MAX_SOURCE_BYTES`] (one byte more is read
/// so a larger file is refused, not cut), returning its text and file name.
fn read_pack_file(path: &str) -> Result<(String, String), PackError> {
    if path.len() > MAX_PATH_BYTES || path.trim().is_empty() || path.contains('\0') {
        return Err(PackError::Io(
            "that is not a file path (empty, too long or with a NUL)".into(),
        ));
    }
    let path = Path::new(path.trim());
    let file = std::fs::File::open(path).map_err(|e| PackError::Io(io(path, e)))?;
    if !file.metadata().map(|m| m.is_file()).unwrap_or(false) {
        return Err(PackError::Io(format!("{} is not a file", path.display())));
    }
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| PackError::Io(io(path, e)))?;
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(PackError::TooLarge {
            bytes: bytes.len(),
            limit: MAX_SOURCE_BYTES,
        });
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| PackError::Syntax(format!("{} is not UTF-8 text", path.display())))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok((text, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HELLO: &str = r#"module.exports = { manifest: { id: 'hello-miau', name: 'Hello Miau', version: '1.0.0' },
      palette: { MIAU: '🐈', FLAG: '🚩' },
      levels: [{ id: 'intro', width: 5, height: 3, objects: [
        { kind: 'word', text: 'MIAU', x: 0, y: 0 }, { kind: 'word', text: 'IS', x: 1, y: 0 },
        { kind: 'word', text: 'YOU', x: 2, y: 0 }, { kind: 'object', noun: 'MIAU', x: 0, y: 1 } ] }] };"#;

    const BROKEN: &str = r#"{ "manifest": { "id": "Bad Id", "name": "", "version": "one" },
      "levels": [{ "id": "a", "width": 3, "height": 3, "objects": [
        { "kind": "word", "text": "CAT", "x": 9, "y": 0 }, { "kind": "thing", "x": 0, "y": 0 } ] }] }"#;

    fn open() -> (tempfile::TempDir, Session) {
        let dir = tempfile::tempdir().expect("temp dir");
        let session = Session::open(dir.path(), None).expect("opens");
        (dir, session)
    }

    fn outcome(s: &Session) -> &Outcome {
        s.outcome().expect("an outcome")
    }

    #[test]
    fn a_won_level_is_marked_solved_and_stays_so() {
        let (dir, mut s) = open();
        s.play("core", "");
        assert!(outcome(&s).ok, "{:?}", s.outcome());
        assert_eq!(s.playing().expect("playing").level.id, "first-steps");
        for _ in 0..4 {
            assert!(s.step(Action::Right).is_ok());
        }
        assert!(s.playing().expect("playing").game.board().is_won());
        assert!(s.catalog()[0].levels[0].solved);
        // A won board takes no more turns.
        assert_eq!(s.step(Action::Left), Err(Refusal::AlreadyWon));
        let again = Session::open(dir.path(), None).expect("reopens");
        assert!(again.catalog()[0].levels[0].solved);
        // The first level not yet solved is where an empty level id starts.
        let mut again = again;
        again.play("core", "");
        assert_eq!(again.playing().expect("playing").index, 1);
    }

    #[test]
    fn moves_undo_and_restart_count_as_a_player_expects() {
        let (_d, mut s) = open();
        s.play("core", "first-steps");
        assert!(s.step(Action::Right).is_ok());
        assert!(s.step(Action::Right).is_ok());
        assert_eq!(s.playing().expect("p").moves, 2);
        assert_eq!(s.undo(), Ok(()));
        assert_eq!(s.playing().expect("p").moves, 1);
        assert_eq!(s.restart(), Ok(()));
        let p = s.playing().expect("p");
        assert_eq!((p.moves, p.last), (0, Change::Restart));
        assert_eq!(p.game.board(), p.game.proof().initial());
    }

    #[test]
    fn a_runaway_pasted_script_never_holds_up_the_caller() {
        let (_d, mut s) = open();
        s.set_script_limits(ScriptLimits {
            memory: 8 << 20,
            time: std::time::Duration::from_millis(200),
        });
        // The script can only end by its time running out, so a call that returns while it
        // is still importing did not wait for it.
        s.import_text("module.exports = {}; for (;;) {}", "loop.cjs");
        assert!(s.importing(), "the import returned before the script ended");
        assert!(s.outcome().is_none(), "no outcome until the script ends");
        while !s.poll_import() {
            std::thread::yield_now();
        }
        let o = outcome(&s);
        assert!(!o.ok && o.message.contains("longer"), "{o:?}");
        assert!(!s.importing() && s.pending().is_none());
        // A newer import replaces one still running.
        s.import_text("for (;;) {}", "first.lua");
        s.import_text(HELLO, "hello.cjs");
        s.finish_import();
        assert!(outcome(&s).ok, "{:?}", s.outcome());
        assert_eq!(
            s.pending().expect("pending").preview.pack.manifest.id,
            "hello-miau"
        );
    }

    /// The cat stands above `IS`: a step down pushes it out of `MIAU IS YOU`.
    const LOOSE: &str = r#"{ "manifest": { "id": "loose", "name": "Loose", "version": "1.0.0" },
      "levels": [{ "id": "a", "width": 5, "height": 4, "objects": [
        { "kind": "word", "text": "MIAU", "x": 0, "y": 1 }, { "kind": "word", "text": "IS", "x": 1, "y": 1 },
        { "kind": "word", "text": "YOU", "x": 2, "y": 1 }, { "kind": "object", "noun": "MIAU", "x": 1, "y": 0 } ] }] }"#;

    #[test]
    fn refused_moves_and_undos_change_nothing_and_say_why() {
        let (_d, mut s) = open();
        assert_eq!(s.step(Action::Up), Err(Refusal::NoLevel));
        s.import_text(LOOSE, "loose.json");
        s.finish_import();
        s.keep(None);
        s.play("loose", "");
        assert_eq!(s.refused(), None, "a level starts with nothing refused");
        let start = s.playing().expect("p").game.board().clone();
        assert_eq!(s.undo(), Err(Refusal::NothingToUndo));
        // Up is the edge: the cat cannot move and nothing else does.
        assert_eq!(s.step(Action::Up), Err(Refusal::Blocked));
        let p = s.playing().expect("p");
        assert_eq!((p.moves, p.game.history_len()), (0, 0), "not counted");
        assert_eq!(p.game.board(), &start);
        let first = s.refused().expect("refused");
        assert_eq!(first.refusal.reason(), "blocked");
        // The same refusal again is a new one.
        assert!(s.step(Action::Up).is_err());
        assert_eq!(s.refused().expect("refused").serial, first.serial + 1);
        // Down pushes IS out of the sentence: the rules remain, none is YOU.
        assert!(s.step(Action::Down).is_ok());
        assert_eq!(s.step(Action::Right), Err(Refusal::NothingIsYou));
        assert_eq!(s.refused().expect("r").refusal.reason(), "nothing is YOU");
        assert_eq!(s.playing().expect("p").moves, 1);
        // Waiting is a turn even when nothing moves.
        assert!(s.step(Action::Wait).is_ok());
        assert_eq!(s.undo(), Ok(()));
        assert_eq!(s.undo(), Ok(()));
        assert_eq!(s.playing().expect("p").game.board(), &start);
        assert_eq!(s.undo(), Err(Refusal::NothingToUndo));
        assert_eq!(
            s.refused().expect("r").refusal.message(),
            "Nothing to undo."
        );
    }

    #[test]
    fn a_pack_or_level_that_is_not_there_changes_nothing() {
        let (_d, mut s) = open();
        s.play("core", "first-steps");
        let before = s.playing().expect("p").level.id.clone();
        s.play("core", "no-such-level");
        assert!(!outcome(&s).ok);
        assert!(outcome(&s).message.contains("no level 'no-such-level'"));
        s.play("../etc", "");
        assert!(!outcome(&s).ok);
        assert_eq!(s.playing().expect("p").level.id, before);
    }

    /// Wins the first core level, which writes progress.
    fn win_first_level(s: &mut Session) {
        s.play("core", "first-steps");
        for _ in 0..4 {
            assert!(s.step(Action::Right).is_ok());
        }
        assert!(s.catalog()[0].levels[0].solved);
    }

    #[test]
    fn a_session_in_memory_keeps_packs_and_sets_bad_progress_aside_as_on_disk() {
        let memory = jengine::host::MemoryStorage::named("browser");
        memory
            .insert("progress.json", "{ not json")
            .expect("puts back");
        let mut s = Session::open_in(Arc::new(memory.clone()), None).expect("opens");
        let problems = s.take_startup_problems();
        assert!(
            problems[0].contains("kept as browser/progress.json.bad"),
            "{problems:?}"
        );
        s.import_text(HELLO, "");
        s.finish_import();
        s.keep(None);
        assert!(outcome(&s).ok, "{:?}", s.outcome());
        let names: Vec<String> = memory.slots().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["packs/hello-miau.json", "progress.json.bad"]);
        let again = Session::open_in(Arc::new(memory.clone()), None).expect("reopens");
        assert_eq!(again.catalog()[1].summary.id, "hello-miau");
        assert_eq!(
            memory
                .read_at_most("progress.json.bad", 100)
                .expect("reads")
                .expect("kept"),
            b"{ not json"
        );
    }

    #[test]
    fn a_corrupt_progress_file_is_set_aside_and_said() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("progress.json"), "{ not json").expect("writes");
        let mut s = Session::open(dir.path(), None).expect("opens");
        let problems = s.take_startup_problems();
        assert!(problems[0].contains("progress.json.bad"), "{problems:?}");
        assert!(
            problems[0].ends_with("progress starts afresh"),
            "{problems:?}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("progress.json.bad")).expect("kept"),
            "{ not json"
        );
    }

    #[test]
    fn progress_that_is_not_utf8_is_kept_beside_older_bad_files_and_not_overwritten() {
        let dir = tempfile::tempdir().expect("temp dir");
        let bytes = b"\xff\xfe{\"version\": 1, \"solved\": {}}";
        std::fs::write(dir.path().join("progress.json"), bytes).expect("writes");
        std::fs::write(dir.path().join("progress.json.bad"), "older").expect("writes");
        let mut s = Session::open(dir.path(), None).expect("opens");
        let problems = s.take_startup_problems();
        assert!(problems[0].contains("progress.json.bad.1"), "{problems:?}");
        win_first_level(&mut s);
        assert_eq!(
            std::fs::read(dir.path().join("progress.json.bad.1")).expect("kept"),
            bytes
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("progress.json.bad")).expect("kept"),
            "older"
        );
        let again = Session::open(dir.path(), None).expect("reopens");
        assert!(again.catalog()[0].levels[0].solved);
    }

    #[test]
    fn oversize_progress_is_set_aside_unread_and_progress_is_kept_after() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("progress.json");
        let size = MAX_PROGRESS_BYTES + (1 << 20);
        std::fs::File::create(&file)
            .and_then(|f| f.set_len(size))
            .expect("a sparse file");
        let mut s = Session::open(dir.path(), None).expect("opens");
        let problems = s.take_startup_problems();
        assert!(
            problems[0].contains(&format!("it is {size} bytes")),
            "{problems:?}"
        );
        let bad = dir.path().join("progress.json.bad");
        assert_eq!(std::fs::metadata(&bad).expect("kept").len(), size);
        win_first_level(&mut s);
        let again = Session::open(dir.path(), None).expect("reopens");
        assert!(again.catalog()[0].levels[0].solved);
    }

    #[test]
    fn leftover_progress_temporaries_are_removed_at_open() {
        let dir = tempfile::tempdir().expect("temp dir");
        let left = dir.path().join("progress.json.tmp999");
        std::fs::write(&left, "half").expect("writes");
        let mut s = Session::open(dir.path(), None).expect("opens");
        assert!(!left.exists());
        assert!(s.take_startup_problems().is_empty());
    }

    #[test]
    fn a_bad_pack_reports_every_problem_and_changes_nothing() {
        let (_d, mut s) = open();
        let before = s.catalog().to_vec();
        s.import_text(BROKEN, "");
        s.finish_import();
        let o = outcome(&s);
        assert!(!o.ok);
        let paths: Vec<&str> = o.errors.iter().map(|p| p.path.as_str()).collect();
        for path in [
            "manifest.id",
            "manifest.name",
            "manifest.version",
            "levels[0].objects[0].x",
            "levels[0].objects[1].kind",
        ] {
            assert!(paths.contains(&path), "{path} missing from {paths:?}");
        }
        assert!(s.pending().is_none());
        assert_eq!(s.catalog(), before.as_slice());
    }

    #[test]
    fn import_keep_play_export_and_remove() {
        let (dir, mut s) = open();
        s.import_text(HELLO, "");
        s.finish_import();
        assert!(outcome(&s).ok, "{:?}", s.outcome());
        assert_eq!(s.pending().expect("pending").origin, Origin::Text);
        assert_eq!(s.catalog().len(), 1, "a preview installs nothing");
        s.keep(None);
        assert!(outcome(&s).ok, "{:?}", s.outcome());
        assert!(s.pending().is_none());
        assert_eq!(s.catalog()[1].summary.id, "hello-miau");
        // Kept as data: the file is JSON and reloads without the script.
        let file = dir.path().join("packs/hello-miau.json");
        let data: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).expect("file")).expect("json");
        assert_eq!(data["manifest"]["id"], "hello-miau");
        s.play("hello-miau", "");
        assert!(outcome(&s).ok);
        s.export("hello-miau");
        let path = outcome(&s).path.clone().expect("a path");
        assert!(path.ends_with("exports/hello-miau.cjs"), "{path}");
        let text = std::fs::read_to_string(&path).expect("exported");
        s.remove("hello-miau");
        assert!(outcome(&s).ok);
        assert!(s.playing().is_none(), "the removed pack stops playing");
        assert_eq!(s.catalog().len(), 1);
        // The export brings it back.
        s.import_text(&text, "hello-miau.cjs");
        s.finish_import();
        s.keep(None);
        assert_eq!(s.catalog()[1].summary.id, "hello-miau");
    }

    #[test]
    fn a_second_copy_needs_a_choice_and_can_be_kept_as_a_fork() {
        let (_d, mut s) = open();
        s.import_text(HELLO, "hello.cjs");
        s.finish_import();
        s.keep(None);
        s.import_text(HELLO, "hello.cjs");
        s.finish_import();
        assert!(s.pending().expect("pending").preview.conflict);
        s.keep(None);
        assert!(!outcome(&s).ok);
        assert!(outcome(&s).message.contains("replace it or keep both"));
        assert!(s.pending().is_some(), "still waiting");
        s.keep(Some(InstallMode::KeepBoth));
        assert_eq!(outcome(&s).pack.as_deref(), Some("hello-miau-fork"));
        let ids: Vec<&str> = s.catalog().iter().map(|c| c.summary.id.as_str()).collect();
        assert_eq!(ids, ["core", "hello-miau", "hello-miau-fork"]);
    }

    #[test]
    fn a_gift_link_left_changes_nothing_and_kept_installs() {
        let (_d, mut s) = open();
        s.import_text(HELLO, "hello.cjs");
        s.finish_import();
        s.keep(None);
        s.share("hello-miau");
        let link = outcome(&s).link.clone().expect("link");
        s.remove("hello-miau");
        let before = s.catalog().to_vec();
        s.open_link(&link);
        assert_eq!(s.pending().expect("pending").origin, Origin::Link);
        s.leave();
        assert!(outcome(&s).ok);
        assert!(s.pending().is_none());
        assert_eq!(s.catalog(), before.as_slice());
        s.open_link(&format!("  {link}\n"));
        s.keep(None);
        assert!(outcome(&s).ok);
        assert_eq!(s.catalog().len(), 2);
    }

    #[test]
    fn hostile_requests_are_refused_in_words() {
        let (dir, mut s) = open();
        let victim = dir.path().join("victim.json");
        std::fs::write(&victim, "{}").expect("writes");
        for id in ["../victim", "..", "/etc/passwd", "core", ""] {
            s.remove(id);
            assert!(!outcome(&s).ok, "{id}");
            s.export(id);
            if id != "core" {
                assert!(!outcome(&s).ok, "{id}");
            }
        }
        assert!(victim.is_file());
        s.keep(Some(InstallMode::Replace));
        assert!(!outcome(&s).ok, "nothing to keep");
        s.leave();
        assert!(!outcome(&s).ok, "nothing to leave");
        for link in [
            "",
            "miau://play",
            "miau://play#pack=1.!!!",
            &"#".repeat(100_000),
        ] {
            s.open_link(link);
            assert!(!outcome(&s).ok, "{link:.40}");
        }
        s.import_text(&"x".repeat(MAX_SOURCE_BYTES + 1), "big.json");
        s.finish_import();
        assert!(
            outcome(&s).message.contains("over the limit"),
            "{:?}",
            s.outcome()
        );
    }

    #[test]
    fn files_are_read_with_care() {
        let (dir, mut s) = open();
        let missing = dir.path().join("missing.cjs");
        s.import_file(&missing.display().to_string());
        s.finish_import();
        assert!(!outcome(&s).ok);
        s.import_file(&dir.path().display().to_string());
        s.finish_import();
        assert!(
            outcome(&s).message.contains("is not a file"),
            "{:?}",
            s.outcome()
        );
        s.import_file("a\0b.cjs");
        s.finish_import();
        assert!(outcome(&s).message.contains("not a file path"));
        let big = dir.path().join("big.json");
        std::fs::write(&big, vec![b' '; MAX_SOURCE_BYTES + 10]).expect("writes");
        s.import_file(&big.display().to_string());
        s.finish_import();
        assert!(
            outcome(&s).message.contains("over the limit"),
            "{:?}",
            s.outcome()
        );
        let good = dir.path().join("hello.cjs");
        std::fs::write(&good, HELLO).expect("writes");
        s.import_file(&good.display().to_string());
        s.finish_import();
        assert!(outcome(&s).ok);
        assert_eq!(s.pending().expect("pending").origin, Origin::File);
    }

    #[test]
    fn shipped_packs_come_from_the_games_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mods = dir.path().join("mods");
        std::fs::create_dir_all(&mods).expect("mods");
        std::fs::write(mods.join("hello.cjs"), HELLO).expect("writes");
        std::fs::write(mods.join("broken.json"), BROKEN).expect("writes");
        let mut s = Session::open(&dir.path().join("data"), Some(&mods)).expect("opens");
        let problems = s.take_startup_problems();
        assert!(
            problems.len() == 1 && problems[0].contains("broken.json"),
            "{problems:?}"
        );
        let ids: Vec<(&str, bool)> = s
            .catalog()
            .iter()
            .map(|c| (c.summary.id.as_str(), c.summary.built_in))
            .collect();
        assert_eq!(ids, [("core", true), ("hello-miau", true)]);
        s.remove("hello-miau");
        assert!(outcome(&s).message.contains("ships with the game"));
    }

    /// A web build has no folder on disk: the packs come from the bundle's files in memory,
    /// and a file that is too large or not text is said at startup like a broken one.
    #[test]
    fn shipped_packs_come_from_files_in_memory_too() {
        let mut files = jengine::host::MemoryAssets::named("bundle");
        files.insert("mods/hello.cjs", HELLO.as_bytes()).unwrap();
        files.insert("mods/broken.json", BROKEN.as_bytes()).unwrap();
        files
            .insert("mods/notes.txt", b"not a pack".as_slice())
            .unwrap();
        files
            .insert("mods/binary.json", [0xff_u8, 0xfe, 0].as_slice())
            .unwrap();
        let huge = vec![b' '; MAX_SOURCE_BYTES + 1];
        files.insert("mods/huge.json", huge).unwrap();
        let storage = Arc::new(jengine::host::MemoryStorage::new());
        let mut s = Session::open_shipped(storage, Some((&files, "mods"))).expect("opens");
        let mut problems = s.take_startup_problems();
        problems.sort();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("binary.json") && problems[0].contains("not UTF-8"));
        assert!(problems[1].contains("broken.json"));
        assert!(problems[2].contains("huge.json"), "{problems:?}");
        let ids: Vec<&str> = s.catalog().iter().map(|c| c.summary.id.as_str()).collect();
        assert_eq!(ids, ["core", "hello-miau"]);
    }
}
