//! A first-person grid dungeon crawler: the picture, the levels and the crawl, as plain Rust.
//!
//! Three modules, none of which knows about an engine:
//! - [`view`] turns a floor and a place to stand into quads, drawn far to near;
//! - [`map`] loads and checks levels drawn in ASCII, and holds the live floor ([`Dungeon`]);
//! - [`crawl`] moves the party one tick at a time and says what happened as [`Event`]s.
//!
//! A campaign (a town, an overland map and dungeons, as the Gold Box games had) uses the same
//! crawl: [`Crawl::cell_at`] and [`Crawl::around`] tell the game what the level is now, events
//! on cells wait for its choice, links lead to any cell of any level by name, and groups seen
//! down a corridor wait for its answer.
//!
//! On top of them, [`CrawlerPackage`] puts a crawl on the engine: the `crawl_game` component,
//! the `Crawler.*` commands, the bags scripts read, and [`draw`], which turns the picture into
//! meshes from a pool the crawl owns.
//!
//! What matters, in order: the picture is right (it is geometry, so it is unit-tested rather
//! than eyeballed); bad tables and saves fail at load with the place at fault, never fifty steps
//! in and never with a panic; and a game replays exactly from its seed and its saves.
//!
//! ```
//! use jengine_crawler::{Crawl, Event, Tables};
//!
//! let map = ["######", "#<.+>#", "######"];
//! let levels = serde_json::json!([{ "name": "Cellar", "map": map, "facing": "east" }]);
//! let tables = Tables::from_json(&levels.to_string(), "[]", "[]").unwrap();
//! let mut game = Crawl::new(tables, 7);
//! game.walk(0, 1);
//! assert_eq!(game.use_ahead(), &[Event::Door]);
//! assert_eq!(game.state().tick, 2);
//! assert!(!game.view().is_empty());
//! ```

#![warn(missing_docs)]

pub mod crawl;
pub mod map;
pub mod view;

pub use crawl::{
    Area, CellInfo, Crawl, CrawlState, DoorState, Event, EventNow, InPlay, Save, SaveError,
    Sighting, Spotted, Wanderer,
};
pub use map::{Cell, Dungeon, Facing, MapError, Tables};
pub use view::{Face, Frame, Quad};

// The package on the engine: the `crawl_game` component, the `Crawler.*` commands, the bags
// scripts read and the mesh pool (`draw`). Everything above this line is plain Rust.
pub mod draw;

mod bag;
use bag::state_bag;
pub use bag::{EventsBag, LegendEntry, MapBag, QueryBag, StateBag, ViewBag};

use jengine::value::{Params, Value, any, boolean, entity, integer, string};
use jengine::{AssetField, Entity, Package, RawTable, Registry, RowError, World};
use serde::{Deserialize, Serialize};

/// The data tables `crawl_game.tables` names when a scene leaves them out. These three are
/// also declared to the host, so `jengine check` and startup run the crawl's own table checks
/// on them.
pub const DEFAULT_TABLES: [&str; 3] = ["crawl_levels", "crawl_monsters", "crawl_crawlers"];

/// Which of the project's data tables (`data/<name>.json`) the crawl is built from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TableNames {
    /// The floors, top first.
    pub levels: String,
    /// The monster kinds; empty for none.
    pub monsters: String,
    /// The party; empty for a game that keeps its own.
    pub crawlers: String,
}

impl Default for TableNames {
    fn default() -> TableNames {
        TableNames {
            levels: DEFAULT_TABLES[0].into(),
            monsters: DEFAULT_TABLES[1].into(),
            crawlers: DEFAULT_TABLES[2].into(),
        }
    }
}

/// The view's layout in world units (see [`Frame`]): plane 0, the wall right ahead, is
/// `cell_w x cell_h`; the picture cropped to plane -1 is that divided by `falloff`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FrameSpec {
    /// Width of plane 0.
    pub cell_w: f32,
    /// Height of plane 0.
    pub cell_h: f32,
    /// How much smaller each plane back is (0 to 1).
    pub falloff: f32,
    /// How much darker each plane back is (0 to 1).
    pub gloom: f32,
    /// How many cells ahead the picture reaches (1 to 16).
    pub depth: u32,
}

impl Default for FrameSpec {
    fn default() -> FrameSpec {
        // Cropped to plane -1 this is about 8.4 x 7.1 units: most of a 16 x 9 camera's height.
        FrameSpec {
            cell_w: 4.7,
            cell_h: 4.0,
            falloff: 0.56,
            gloom: 0.8,
            depth: 4,
        }
    }
}

impl FrameSpec {
    fn frame(&self) -> Frame {
        Frame {
            cell_w: self.cell_w,
            cell_h: self.cell_h,
            falloff: self.falloff,
            gloom: self.gloom,
            depth: self.depth,
        }
    }

    fn check(&self) -> Result<(), String> {
        let size = |name: &str, v: f32| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!("frame.{name}: {v} is not a size above 0"))
            }
        };
        size("cell_w", self.cell_w)?;
        size("cell_h", self.cell_h)?;
        if !(self.falloff > 0.0 && self.falloff < 1.0) {
            return Err(format!(
                "frame.falloff: {} is not between 0 and 1 (each plane back is that much smaller)",
                self.falloff
            ));
        }
        if !(0.0..=1.0).contains(&self.gloom) {
            return Err(format!(
                "frame.gloom: {} is not between 0 and 1",
                self.gloom
            ));
        }
        if !(1..=16).contains(&self.depth) {
            return Err(format!(
                "frame.depth: {} is not between 1 and 16",
                self.depth
            ));
        }
        Ok(())
    }
}

/// The `crawl_game` scene component: which tables the crawl is built from, how its picture is
/// laid out and drawn, and what it publishes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrawlGame {
    /// The data tables.
    pub tables: TableNames,
    /// The view's layout, in world units.
    pub frame: FrameSpec,
    /// The seed of the first game (chance in fights and random encounters).
    pub seed: u64,
    /// The art.
    pub sheet: draw::Sheet,
    /// Where the middle of the corridor is in the world.
    pub view_origin: [f32; 2],
    /// The depth of the farthest quad; quad `i` is drawn at `z_base + i`.
    pub z_base: f32,
    /// Whether the package draws the picture (false: a game places its own sprites).
    pub draw: bool,
    /// Whether `CrawlView.quads` is published each frame.
    pub publish_view: bool,
}

impl Default for CrawlGame {
    fn default() -> CrawlGame {
        CrawlGame {
            tables: TableNames::default(),
            frame: FrameSpec::default(),
            seed: 1,
            sheet: draw::Sheet::default(),
            view_origin: [0.0, 0.0],
            z_base: 0.0,
            draw: true,
            publish_view: true,
        }
    }
}

impl CrawlGame {
    /// What a scene may not hold: a frame out of range, a broken sheet, a non-finite place,
    /// no levels table. The message names the field.
    pub fn check(&self) -> Result<(), String> {
        if self.tables.levels.trim().is_empty() {
            return Err("tables.levels: a crawl needs a levels table".into());
        }
        for (field, name) in [
            ("levels", &self.tables.levels),
            ("monsters", &self.tables.monsters),
            ("crawlers", &self.tables.crawlers),
        ] {
            let bare = jengine::host::table_name(name);
            if bare.contains(['/', '\\']) || bare == ".." {
                return Err(format!(
                    "tables.{field}: {name:?} is not a table under data/"
                ));
            }
        }
        self.frame.check()?;
        self.sheet.check()?;
        if self.view_origin.iter().any(|v| !v.is_finite()) {
            return Err(format!(
                "view_origin: {:?} is not a point",
                self.view_origin
            ));
        }
        if !self.z_base.is_finite() {
            return Err(format!("z_base: {} is not a number", self.z_base));
        }
        Ok(())
    }
}

/// The crawl running on a `crawl_game` entity.
pub struct Run {
    crawl: Result<Crawl, String>,
    /// Events of this frame's commands, published by the next system run.
    pending: Vec<Event>,
    /// Something changed since the bags and the picture were last made.
    dirty: bool,
    /// The picture last made.
    quads: Vec<Quad>,
    /// The picture changed since the pool was last written.
    redraw: bool,
    /// The point and radius of the last `Crawler.query`.
    query: Option<(i32, i32, u32)>,
}

impl Run {
    /// The game, if its tables loaded.
    pub fn crawl(&self) -> Option<&Crawl> {
        self.crawl.as_ref().ok()
    }

    /// Runs `f` on the game as a command would, for a package built on this one (a tactical
    /// fight settled by its own rules, say): what the crawl announces after `f` (its last
    /// action's events) goes out in this frame's `CrawlEvents`, and the bags and the picture
    /// are remade. `None` when the crawl's tables did not load.
    pub fn act<R>(&mut self, f: impl FnOnce(&mut Crawl) -> R) -> Option<R> {
        let crawl = self.crawl.as_mut().ok()?;
        let out = f(crawl);
        self.pending.extend(crawl.events().iter().cloned());
        self.dirty = true;
        Some(out)
    }
}

/// Reads one named table from the project's data as a JSON array; an empty name is no rows.
fn table_json(tables: Option<&jengine::Tables>, field: &str, name: &str) -> Result<String, String> {
    if name.trim().is_empty() {
        return Ok("[]".into());
    }
    let bare = jengine::host::table_name(name);
    let raw = tables.and_then(|t| t.raw(bare)).ok_or_else(|| {
        format!("crawl_game.tables.{field} names data/{bare}.json, which the project does not have")
    })?;
    Ok(rows(raw).to_string())
}

fn rows(raw: &RawTable) -> serde_json::Value {
    serde_json::Value::Array(raw.rows.clone())
}

/// The crawl's tables for `game`, read from the project's data and checked by the crawl's own
/// loader: all three together, so a monster the levels name must be in the monsters table.
fn load_tables(data: Option<&jengine::Tables>, game: &CrawlGame) -> Result<Tables, String> {
    let names = &game.tables;
    let levels = table_json(data, "levels", &names.levels)?;
    let monsters = table_json(data, "monsters", &names.monsters)?;
    let crawlers = table_json(data, "crawlers", &names.crawlers)?;
    let tables = Tables::from_json(&levels, &monsters, &crawlers)
        .map_err(|e| format!("crawl_game tables ({}): {e}", names.levels))?;
    // Every floor's wall set must be one the sheet paints.
    let walls = tables
        .levels()
        .iter()
        .map(|l| (l.name.as_str(), l.walls.as_deref()));
    game.sheet
        .check_sets(walls)
        .map_err(|e| format!("crawl_game tables ({}): {e}", names.levels))?;
    Ok(tables)
}

/// Builds the crawl for `game` from the project's tables, checked by the crawl's own loader.
fn start(world: &World, game: &CrawlGame) -> Result<Crawl, String> {
    let tables = load_tables(world.resources.get::<jengine::Tables>(), game)?;
    let mut crawl = Crawl::new(tables, game.seed);
    crawl.set_frame(game.frame.frame());
    // Again with the frame set: what the party sees on arrival depends on it.
    crawl.new_game(None);
    Ok(crawl)
}

/// Starts the crawl on `e` if it has none yet: the run, its bags and its pool.
fn ensure(world: &mut World, e: Entity) -> Result<(), String> {
    if world.entities.get::<&Run>(e).is_ok() {
        return Ok(());
    }
    let game = world
        .entities
        .get::<&CrawlGame>(e)
        .map(|g| (*g).clone())
        .map_err(|_| format!("entity {} has no crawl_game", world.describe(e)))?;
    let crawl = start(world, &game);
    if let Err(problem) = &crawl {
        world.log().warn_once(problem.clone());
    }
    let run = Run {
        crawl,
        pending: Vec::new(),
        dirty: true,
        quads: Vec::new(),
        redraw: true,
        query: None,
    };
    let pool = draw::Pool::new(&game.sheet);
    let bags = (StateBag::default(), MapBag::default(), EventsBag::default());
    let gone = |_| format!("entity {} is gone", e.to_bits());
    world.entities.insert(e, (run, pool)).map_err(gone)?;
    world.entities.insert(e, bags).map_err(gone)?;
    world
        .entities
        .insert_one(e, QueryBag::default())
        .map_err(gone)?;
    if game.publish_view {
        world
            .entities
            .insert_one(e, ViewBag::default())
            .map_err(gone)?;
    }
    Ok(())
}

/// Runs a command on the crawl at `e`, keeping what it announced for this frame's events.
fn act(
    world: &mut World,
    e: Entity,
    f: impl FnOnce(&mut Crawl) -> Result<Vec<Event>, String>,
) -> Result<(), String> {
    ensure(world, e)?;
    let mut run = world
        .entities
        .get::<&mut Run>(e)
        .map_err(|_| format!("entity {} is gone", e.to_bits()))?;
    let run = &mut *run;
    let crawl = run.crawl.as_mut().map_err(|p| p.clone())?;
    let events = f(crawl)?;
    run.pending.extend(events);
    run.dirty = true;
    Ok(())
}

/// Runs a command the game's rules decide (a door, a journey, a choice, an answer): when the
/// crawl refuses it, the refusal is announced as a `refused` event naming the command and the
/// reason (and logged), and nothing changes.
fn act_or_refuse(
    world: &mut World,
    e: Entity,
    command: &str,
    f: impl FnOnce(&mut Crawl) -> Result<Vec<Event>, String>,
) -> Result<(), String> {
    let mut refused = None;
    act(world, e, |c| match f(c) {
        Ok(events) => Ok(events),
        Err(reason) => {
            refused = Some(reason.clone());
            Ok(vec![Event::Refused {
                command: command.to_string(),
                reason,
            }])
        }
    })?;
    if let Some(reason) = refused {
        world.log().warn(format!("Crawler.{command}: {reason}"));
    }
    Ok(())
}

/// `Crawler.query(e, x, y, radius)`: from now on `CrawlQuery` holds the cells within `radius`
/// of (x, y) on the party's level, remade after every command.
fn query(w: &mut World, (e, x, y, radius): (Entity, i64, i64, Option<i64>)) -> Result<(), String> {
    ensure(w, e)?;
    let mut run = w
        .entities
        .get::<&mut Run>(e)
        .map_err(|_| format!("entity {} is gone", e.to_bits()))?;
    // Declared within the map's reach, so the casts keep every value a script can give.
    run.query = Some((x as i32, y as i32, radius.unwrap_or(0) as u32));
    run.dirty = true;
    Ok(())
}

/// `Crawler.load(e, save)`: the save as a table (what `Save.get` gives back) or its JSON text.
/// A save that does not fit is no error of the call: it is answered with a `load_refused`
/// event (and a warning in the log), and the game in progress goes on as it was.
fn load(w: &mut World, (e, save): (Entity, Value)) -> Result<(), String> {
    let save = match save {
        Value::Table(t) => Ok(t),
        Value::Str(text) => {
            serde_json::from_str(&text).map_err(|err| format!("the save's text is not JSON: {err}"))
        }
        other => Err(format!("the save is {other}, not a table or its JSON text")),
    };
    let mut refused = None;
    act(w, e, |c| {
        let restored = save.and_then(|save| {
            let save = save_from_value(save).map_err(|err| err.to_string())?;
            c.restore(&save).map_err(|err| err.to_string())
        });
        match restored {
            Ok(()) => Ok(Vec::new()),
            Err(reason) => {
                refused = Some(reason.clone());
                Ok(vec![Event::LoadRefused { reason }])
            }
        }
    })?;
    if let Some(reason) = refused {
        w.log().warn(format!("Crawler.load: {reason}"));
    }
    Ok(())
}

/// The save as a table a script can hold: the random stream's 64-bit words do not fit a Lua
/// integer, so every number that large becomes its decimal string.
pub fn save_to_value(save: &Save) -> serde_json::Value {
    fn walk(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Number(n) if n.as_i64().is_none() => {
                *v = serde_json::Value::String(n.to_string());
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(walk),
            serde_json::Value::Object(map) => map.values_mut().for_each(walk),
            _ => {}
        }
    }
    let mut value = serde_json::to_value(save).unwrap_or_default();
    walk(&mut value);
    value
}

/// Reads back what [`save_to_value`] wrote (the 64-bit words as strings or as numbers).
pub fn save_from_value(mut value: serde_json::Value) -> Result<Save, SaveError> {
    fn unstring(v: Option<&mut serde_json::Value>) {
        if let Some(v) = v
            && let Some(n) = v.as_str().and_then(|s| s.parse::<u64>().ok())
        {
            *v = serde_json::Value::from(n);
        }
    }
    unstring(value.get_mut("seed"));
    if let Some(rng) = value.get_mut("rng") {
        unstring(rng.get_mut("state"));
        unstring(rng.get_mut("increment"));
    }
    serde_json::from_value(value).map_err(|e| SaveError::Json(e.to_string()))
}

/// The frame's crawl: every `crawl_game` started, and the bags of every crawl something
/// happened to remade. The picture is only rebuilt when a command ran: the dungeon does not
/// move on its own.
fn play(world: &mut World, _dt: f64) {
    let games: Vec<Entity> = world
        .entities
        .query::<(Entity, &CrawlGame)>()
        .iter()
        .map(|(e, _)| e)
        .collect();
    for e in games {
        let _ = ensure(world, e);
    }
    for (game, run, state, map, events, view, asked) in world.entities.query_mut::<(
        &CrawlGame,
        &mut Run,
        &mut StateBag,
        &mut MapBag,
        &mut EventsBag,
        Option<&mut ViewBag>,
        Option<&mut QueryBag>,
    )>() {
        events.events.clear();
        events.events.append(&mut run.pending);
        if !run.dirty {
            continue;
        }
        run.dirty = false;
        run.redraw = true;
        match &run.crawl {
            Err(problem) => {
                state.error = Some(problem.clone());
                run.quads.clear();
            }
            Ok(crawl) => {
                *state = state_bag(crawl);
                if let (Some(bag), Some((x, y, radius))) = (asked, run.query) {
                    *bag = QueryBag {
                        asked: true,
                        x,
                        y,
                        radius,
                        area: crawl.around(x, y, radius),
                    };
                }
                run.quads = crawl.view();
                let rows = crawl.floor().automap();
                let level = crawl.state().level;
                // Only when something new is seen (or the floor changes), so a script
                // redrawing its automap on change has little to compare.
                if map.rows != rows || map.level != level {
                    map.legend = map::legend(&rows)
                        .into_iter()
                        .map(|(symbol, meaning)| LegendEntry {
                            symbol: symbol.to_string(),
                            meaning: meaning.to_string(),
                        })
                        .collect();
                    map.rows = rows;
                    map.level = level;
                }
            }
        }
        if let Some(view) = view {
            view.quads.clone_from(&run.quads);
            view.origin = game.view_origin;
            let frame = game.frame.frame();
            view.crop = [frame.half_width(), frame.half_height()];
        }
    }
}

/// Writes every crawl's picture into its pool of meshes when it changed.
fn draw_system(world: &mut World, _dt: f64) {
    let games: Vec<Entity> = world
        .entities
        .query::<(Entity, &CrawlGame, &Run)>()
        .iter()
        .filter(|(_, _, run)| run.redraw)
        .map(|(e, _, _)| e)
        .collect();
    for e in games {
        let Ok(mut pool) = world.entities.remove_one::<draw::Pool>(e) else {
            continue;
        };
        let (game, quads) = {
            let Ok((game, run)) = world.entities.query_one_mut::<(&CrawlGame, &mut Run)>(e) else {
                continue;
            };
            run.redraw = false;
            let frame = game.frame.frame();
            let set = run.crawl().and_then(|c| c.floor().walls.clone());
            (
                (
                    game.draw,
                    game.view_origin,
                    game.z_base,
                    [frame.half_width(), frame.half_height()],
                    set,
                ),
                std::mem::take(&mut run.quads),
            )
        };
        let (on, origin, z_base, crop, set) = game;
        if on {
            let at = draw::Placing {
                origin,
                z_base,
                crop,
                set: set.as_deref(),
                owner: e,
            };
            draw::write(world, &mut pool, &quads, at);
        } else {
            draw::clear_from(world, &mut pool, 0);
        }
        if let Ok(mut run) = world.entities.get::<&mut Run>(e) {
            run.quads = quads;
        }
        let _ = world.entities.insert_one(e, pool);
    }
}

/// A crawl table checked alone by the crawl's loader, the other two stood in for: monster
/// names the levels use get a stand-in row, and a one-room dungeon carries a lone monsters or
/// crawlers table. What needs the real neighbours is checked again when the crawl starts.
fn check_table(raw: &RawTable, which: usize) -> Vec<RowError> {
    let room = serde_json::json!([{ "name": "check", "map": ["####", "#<>#", "####"] }]);
    let room = room.to_string();
    let json = rows(raw).to_string();
    let result = match which {
        0 => {
            let mut names: Vec<&str> = raw
                .rows
                .iter()
                .filter_map(|r| r.get("monsters")?.as_array())
                .flatten()
                .filter_map(|n| n.as_str())
                .collect();
            names.sort_unstable();
            names.dedup();
            let stand_ins: Vec<serde_json::Value> = names
                .iter()
                .map(|n| serde_json::json!({ "name": n, "hp": 1 }))
                .collect();
            let stand_ins = serde_json::Value::Array(stand_ins).to_string();
            Tables::from_json(&json, &stand_ins, "[]")
        }
        1 => Tables::from_json(&room, &json, "[]"),
        _ => Tables::from_json(&room, "[]", &json),
    };
    let Err(error) = result else {
        return Vec::new();
    };
    let label = |row: usize| {
        raw.rows
            .get(row)
            .and_then(|r| r.get("name"))
            .and_then(|n| n.as_str())
            .map(str::to_string)
    };
    let (row, label, message) = match &error {
        MapError::Table { message, .. } => (0, None, message.clone()),
        MapError::Row { row, message, .. } => (row + 1, label(*row), message.clone()),
        MapError::Level { at, problem } => {
            let place = match (at.row, at.cell) {
                (Some(r), Some(c)) => format!("map row {r}, cell {c}: "),
                (Some(r), None) => format!("map row {r}: "),
                _ => String::new(),
            };
            (
                at.level,
                label(at.level.saturating_sub(1)),
                format!("{place}{problem}"),
            )
        }
    };
    vec![RowError {
        file: raw.file.clone(),
        row,
        label,
        message,
    }]
}

/// The package entry point.
pub struct CrawlerPackage;

/// The farthest cell or row a command may name, either side of 0 (a map is far smaller).
const QUERY_REACH: i64 = 1 << 20;
/// The largest radius `Crawler.query` takes.
pub const MAX_QUERY_RADIUS: u32 = 64;
/// The most ticks one `Crawler.rest` may take.
pub const MAX_REST: u32 = 10_000;
/// The ways to face, as `Crawler.travel` takes them.
const FACINGS: [&str; 4] = ["north", "east", "south", "west"];

/// The fields of `crawl_game` that name textures: the sheet's faces, its named art and its
/// wall sets' art.
const CRAWL_ASSETS: &[AssetField] = &[
    AssetField::texture("sheet.texture"),
    AssetField::texture("sheet.art.*.texture"),
    AssetField::texture("sheet.sets.*.*.texture"),
];

/// The textures the package ships, by name under `assets/textures/`: the default sheet's faces
/// and its four creatures, so a crawl whose scene names no art of its own still draws. They are
/// Umber Warren's (`projects/arcade-classics/tools/art`, painted with `tools/crawler-art`).
pub const DEFAULT_TEXTURES: &[(&str, &[u8])] = &[
    (
        "crawler/crawler.png",
        include_bytes!("../assets/textures/crawler/crawler.png"),
    ),
    (
        "crawler/monsters.png",
        include_bytes!("../assets/textures/crawler/monsters.png"),
    ),
];

impl Package for CrawlerPackage {
    fn name(&self) -> &'static str {
        "jengine-crawler"
    }

    fn register(&self, reg: &mut Registry) {
        reg.component_checked::<CrawlGame>("crawl_game", CrawlGame::check);
        // Whatever tables a crawl names are checked, together, when its scene loads.
        reg.component_tables::<CrawlGame>("crawl_game", |game, data| {
            load_tables(Some(data), game).err().into_iter().collect()
        });
        reg.component_assets::<CrawlGame>("crawl_game", CRAWL_ASSETS);
        for (name, bytes) in DEFAULT_TEXTURES {
            reg.asset(&format!("textures/{name}"), bytes);
        }

        reg.command(
            "Crawler",
            "new_game",
            (entity("e"), integer("seed").at_least(0).optional()),
            |w, (e, seed)| {
                // Declared 0 or more, so the cast keeps every seed a script can give.
                let seed = seed.map(|s| s as u64);
                act(w, e, |c| {
                    c.new_game(seed);
                    Ok(c.events().to_vec())
                })
            },
        );
        reg.command(
            "Crawler",
            "walk",
            (entity("e"), integer("dx").range(-1, 1), integer("dy").range(-1, 1)).such_that(
                "(dx, dy) is one step: (0, 1) forward, (0, -1) back, (1, 0) right or (-1, 0) left",
                |(_, dx, dy)| dx.abs() + dy.abs() == 1,
            ),
            |w, (e, dx, dy)| act(w, e, |c| Ok(c.walk(dx as i32, dy as i32).to_vec())),
        );
        reg.command(
            "Crawler",
            "turn",
            (entity("e"), integer("steps")),
            |w, (e, steps)| {
                // Quarter turns repeat every four, so any whole number is a turn.
                let steps = steps.rem_euclid(4) as i32;
                act(w, e, |c| Ok(c.turn(steps).to_vec()))
            },
        );
        reg.command("Crawler", "use", (entity("e"),), |w, (e,)| {
            act(w, e, |c| Ok(c.use_ahead().to_vec()))
        });
        reg.command("Crawler", "search", (entity("e"),), |w, (e,)| {
            act(w, e, |c| Ok(c.search().to_vec()))
        });
        reg.command(
            "Crawler",
            "swap",
            // The formation has four slots; a slot past the party's own size is refused when
            // the call is applied.
            (entity("e"), integer("a").range(1, 4), integer("b").range(1, 4)),
            |w, (e, a, b)| {
                act(w, e, |c| {
                    let n = c.state().party.len();
                    for (name, slot) in [("a", a), ("b", b)] {
                        if slot > n as i64 {
                            return Err(format!(
                                "Crawler.swap: {name} = {slot} is not a slot of the party (1 to {n})"
                            ));
                        }
                    }
                    Ok(c.swap(a as usize, b as usize).to_vec())
                })
            },
        );
        reg.command("Crawler", "attack", (entity("e"),), |w, (e,)| {
            act(w, e, |c| Ok(c.attack().to_vec()))
        });
        reg.command("Crawler", "wait", (entity("e"),), |w, (e,)| {
            act(w, e, |c| Ok(c.wait().to_vec()))
        });
        reg.command(
            "Crawler",
            "rest",
            // Left out, the old rest: four ticks nothing interrupts.
            (
                entity("e"),
                integer("ticks")
                    .range(1, MAX_REST as i64)
                    .about("ticks to rest, each may draw a wandering group; left out: four, uninterrupted")
                    .optional(),
            ),
            |w, (e, ticks)| {
                act(w, e, |c| {
                    Ok(match ticks {
                        None => c.rest().to_vec(),
                        Some(t) => c.rest_for(t as u32).to_vec(),
                    })
                })
            },
        );
        reg.command(
            "Crawler",
            "resolve",
            (entity("e"), boolean("won")),
            |w, (e, won)| act(w, e, |c| Ok(c.resolve(won).to_vec())),
        );
        reg.command(
            "Crawler",
            "reveal",
            // 0 reveals the whole floor; the top is the largest radius the map's cells count to.
            (entity("e"), integer("radius").range(0, i32::MAX as i64)),
            |w, (e, radius)| act(w, e, |c| Ok(c.reveal(radius as u32).to_vec())),
        );
        reg.command(
            "Crawler",
            "query",
            (
                entity("e"),
                integer("x")
                    .range(-QUERY_REACH, QUERY_REACH)
                    .about("a cell of the party's level"),
                integer("y")
                    .range(-QUERY_REACH, QUERY_REACH)
                    .about("a row of the party's level"),
                integer("radius")
                    .range(0, MAX_QUERY_RADIUS as i64)
                    .about("cells either way around (x, y); left out: 0, the one cell")
                    .optional(),
            ),
            query,
        );
        reg.command(
            "Crawler",
            "choose",
            (
                entity("e"),
                integer("choice")
                    .range(0, map::MAX_CHOICES as i64)
                    .about("the event's choice, counted from 1; 0 dismisses it"),
            ),
            |w, (e, n)| {
                act_or_refuse(w, e, "choose", |c| {
                    c.choose(n as usize).map(<[Event]>::to_vec)
                })
            },
        );
        reg.command(
            "Crawler",
            "flag",
            (
                entity("e"),
                string("name").up_to(256),
                boolean("on")
                    .about("true sets it, false clears it; left out: true")
                    .optional(),
            )
                .such_that("name is not empty", |(_, name, _)| !name.trim().is_empty()),
            |w, (e, name, on)| {
                act(w, e, |c| {
                    c.set_flag(&name, on.unwrap_or(true));
                    Ok(Vec::new())
                })
            },
        );
        reg.command(
            "Crawler",
            "travel",
            (
                entity("e"),
                string("map")
                    .up_to(256)
                    .about("a level's name in the levels table"),
                integer("x")
                    .range(-QUERY_REACH, QUERY_REACH)
                    .about("a cell of that level"),
                integer("y")
                    .range(-QUERY_REACH, QUERY_REACH)
                    .about("a row of that level"),
                string("facing")
                    .one_of(&FACINGS)
                    .about("left out: as the party faces")
                    .optional(),
            ),
            |w, (e, map, x, y, facing)| {
                let facing = facing.as_deref().and_then(crawl::facing_named);
                act_or_refuse(w, e, "travel", |c| {
                    c.travel(&map, x as i32, y as i32, facing)
                        .map(<[Event]>::to_vec)
                })
            },
        );
        reg.command(
            "Crawler",
            "door",
            (
                entity("e"),
                integer("x")
                    .range(-QUERY_REACH, QUERY_REACH)
                    .about("the door's cell on the party's level"),
                integer("y")
                    .range(-QUERY_REACH, QUERY_REACH)
                    .about("the door's row"),
                string("state")
                    .one_of(&DoorState::NAMES)
                    .about("what the game's rules make of the door"),
            ),
            |w, (e, x, y, state)| {
                act_or_refuse(w, e, "door", |c| {
                    let state = DoorState::named(&state).ok_or("not a door state")?;
                    c.set_door(x as i32, y as i32, state).map(<[Event]>::to_vec)
                })
            },
        );
        reg.command(
            "Crawler",
            "answer",
            (
                entity("e"),
                string("answer")
                    .one_of(&crawl::ANSWERS)
                    .about("the game's answer to the group spotted"),
            ),
            |w, (e, answer)| {
                act_or_refuse(w, e, "answer", |c| c.answer(&answer).map(<[Event]>::to_vec))
            },
        );
        reg.command(
            "Crawler",
            "load",
            (entity("e"), any("save"))
                .such_that("save is a table or its JSON text", |(_, save)| {
                    matches!(save, Value::Table(_) | Value::Str(_))
                }),
            load,
        );

        // The short flat names (`crawl_walk`) beside the namespace's own (`crawler_walk`).
        reg.flat_alias("Crawler", "crawl");

        reg.system("crawl", play);
        reg.system("draw", draw_system);
        reg.bag::<ViewBag>("CrawlView");
        reg.bag::<StateBag>("CrawlState");
        reg.bag::<MapBag>("CrawlMap");
        reg.bag::<EventsBag>("CrawlEvents");
        reg.bag::<QueryBag>("CrawlQuery");
        for (which, name) in DEFAULT_TABLES.iter().enumerate() {
            reg.optional_table(name, move |raw| check_table(raw, which));
        }
    }
}
