//! What scripts read: the bags the package publishes on a `crawl_game` entity after its
//! systems run, each made from the crawl as it is (`Entity.get(e, "CrawlState")` and the rest).
//!
//! The bags are plain data built from plain data; the one idea is that a script never asks the
//! crawl anything: what it may want to know (what `use` would do, whether a step would move)
//! is worked out here once per change.

use crate::crawl::{self, Crawl, Fight, Member};
use crate::map::Cell;
use crate::{Area, Event, EventNow, Quad, Spotted, save_to_value};
use serde::Serialize;

/// The `CrawlView` bag: the picture as quads, far to near, in the frame's units with y down
/// and the middle of the corridor at (0, 0). In the world a corner `(x, y)` is at
/// `origin + (x, -y)`, and the picture is meant to be seen through a window of `crop` either
/// side of `origin` (plane -1).
#[derive(Debug, Clone, Default, Serialize)]
pub struct ViewBag {
    /// The quads.
    pub quads: Vec<Quad>,
    /// `crawl_game.view_origin`.
    pub origin: [f32; 2],
    /// Half the width and height of the picture at plane -1.
    pub crop: [f32; 2],
}

/// The `CrawlState` bag: where the party is and what it can do, for a game's text and buttons.
#[derive(Debug, Clone, Default, Serialize)]
pub struct StateBag {
    /// Why the crawl could not start (its tables), or `nil`.
    pub error: Option<String>,
    /// The floor, counting from 0.
    pub level: usize,
    /// Its name.
    pub level_name: String,
    /// How many floors.
    pub levels: usize,
    /// The party's cell.
    pub x: i32,
    /// The party's row.
    pub y: i32,
    /// `north`, `east`, `south` or `west`.
    pub facing: String,
    /// The party, slot by slot.
    pub party: Vec<Member>,
    /// Health left, all members together.
    pub health: u32,
    /// Health when whole, all members together.
    pub max_health: u32,
    /// Gold carried.
    pub gold: u32,
    /// Keys carried.
    pub keys: u32,
    /// Named keys carried, in the order found.
    pub keyring: Vec<String>,
    /// The party stands in a dark cell.
    pub in_dark: bool,
    /// The first item lying where the party stands (`kind:value`, what `use` takes), or `nil`.
    pub underfoot: Option<String>,
    /// The legend symbol in front (`M` for a monster).
    pub ahead: String,
    /// What `Crawler.use` would do now: `open`, `unlock`, `locked`, `pull`, `press`, `loot`,
    /// `empty`, `take`, `down`, `up` or `exit`; `nil` when nothing.
    pub use_does: Option<String>,
    /// A monster stands in front.
    pub can_attack: bool,
    /// A step forward would move the party.
    pub can_walk: bool,
    /// Standing on stairs down.
    pub on_stairs: bool,
    /// Standing on stairs up.
    pub on_stairs_up: bool,
    /// The fight waiting to be settled with `Crawler.resolve` (a parley too: `parley` true).
    pub encounter: Option<Fight>,
    /// The cell event waiting for `Crawler.choose`: `id`, `text`, `picture`, `choices` (each
    /// `label`, `outcome`, `set`, `clear`, `go`) and `at`.
    pub event: Option<EventNow>,
    /// The group spotted, waiting for `Crawler.answer`: `group`, `text`, `art`, `distance`,
    /// `at` and `who`.
    pub spotted: Option<Spotted>,
    /// The flags set, sorted.
    pub flags: Vec<String>,
    /// Ticks spent.
    pub tick: u64,
    /// The party is dead.
    pub dead: bool,
    /// The party got out at the bottom.
    pub escaped: bool,
    /// Steps (across plus along) to the nearest awake monster on this floor; `nil` while none
    /// is awake.
    pub nearest_awake: Option<u32>,
    /// The whole game as a table: `Save.set(key, state.save)` keeps it and
    /// `Crawler.load(e, Save.get(key))` brings it back. Numbers too large for a script are
    /// strings.
    pub save: serde_json::Value,
    /// Which game is in play: `new` (after `new_game`, or as the crawl starts) or `loaded`
    /// (after a good `Crawler.load`). A refused load leaves it as it was.
    pub save_in_play: String,
}

/// The `CrawlQuery` bag: the cells around the point the last `Crawler.query` asked about, as
/// they are now (see [`Crawl::around`]), remade after every command. Nothing is blanked: it is
/// for the game's own rules, not for the player's eyes.
#[derive(Debug, Clone, Default, Serialize)]
pub struct QueryBag {
    /// Whether a query has been asked (false: the rest is empty).
    pub asked: bool,
    /// The point asked about.
    pub x: i32,
    /// Its row.
    pub y: i32,
    /// How far around it.
    pub radius: u32,
    /// The cells, clipped to the map: `level`, `map`, `origin`, `width`, `height`, `cells`.
    #[serde(flatten)]
    pub area: Area,
}

/// The `CrawlMap` bag: the automap of the floor the party is on.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct MapBag {
    /// The floor, counting from 0.
    pub level: usize,
    /// One string per row: unseen cells blank, a fight not yet won `E`, a trap that has not
    /// gone off `.`, an opened door `/`, an emptied chest `c` (see [`map::LEGEND`]).
    pub rows: Vec<String>,
    /// What each symbol on this map means, in the legend's order.
    pub legend: Vec<LegendEntry>,
}

/// One line of the automap's legend.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LegendEntry {
    /// The symbol, as the rows draw it.
    pub symbol: String,
    /// What it stands for.
    pub meaning: String,
}

/// The `CrawlEvents` bag: what this frame's commands announced, in order.
#[derive(Debug, Clone, Default, Serialize)]
pub struct EventsBag {
    /// The events (each a table with its `event` name).
    pub events: Vec<Event>,
}

/// What `Crawler.use` would do from here, for a button's label.
fn use_does(crawl: &Crawl, state: &crawl::CrawlState) -> Option<&'static str> {
    let floor = crawl.floor();
    let (ax, ay) = state.facing.ahead();
    let (fx, fy) = (state.x + ax, state.y + ay);
    if floor.monster_at(fx, fy).is_none() {
        let level = &crawl.tables().levels()[state.level];
        match floor.cell(fx, fy) {
            Cell::Door => return Some("open"),
            Cell::Locked if level.is_gate(fx, fy) => return Some("locked"),
            Cell::Locked => {
                let key = level.door_at(fx, fy).and_then(|d| d.key.as_ref());
                let opens = match key {
                    Some(key) => state.keyring.contains(key),
                    None => state.keys > 0,
                };
                return Some(if opens { "unlock" } else { "locked" });
            }
            Cell::Lever { pulled: false } => return Some("pull"),
            Cell::Button { .. } => return Some("press"),
            Cell::Chest { opened: false, .. } => return Some("loot"),
            Cell::Chest { opened: true, .. } => return Some("empty"),
            _ => {}
        }
    }
    if state.underfoot.is_some() {
        return Some("take");
    }
    let linked = crawl.tables().levels()[state.level]
        .link_at(state.x, state.y)
        .is_some();
    if linked && matches!(floor.cell(state.x, state.y), Cell::Down | Cell::Up) {
        return Some("travel");
    }
    match floor.cell(state.x, state.y) {
        Cell::Down => Some("down"),
        Cell::Up if state.level == 0 => Some("exit"),
        Cell::Up => Some("up"),
        Cell::Chest { opened: false, .. } => Some("loot"),
        Cell::Chest { opened: true, .. } => Some("empty"),
        _ => None,
    }
}

pub(crate) fn state_bag(crawl: &Crawl) -> StateBag {
    let s = crawl.state();
    let floor = crawl.floor();
    let (ax, ay) = s.facing.ahead();
    let ahead_cell = floor.cell(s.x + ax, s.y + ay);
    let halted =
        s.encounter.is_some() || s.dead || s.escaped || s.event.is_some() || s.spotted.is_some();
    StateBag {
        error: None,
        level: s.level,
        level_name: crawl
            .tables()
            .levels()
            .get(s.level)
            .map(|l| l.name.clone())
            .unwrap_or_default(),
        levels: s.levels,
        x: s.x,
        y: s.y,
        facing: serde_json::to_value(s.facing)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        health: s.party.iter().map(|m| m.hp).sum(),
        max_health: s.party.iter().map(|m| m.max_hp).sum(),
        party: s.party.clone(),
        gold: s.gold,
        keys: s.keys,
        keyring: s.keyring.clone(),
        in_dark: s.in_dark,
        underfoot: s.underfoot.clone(),
        ahead: s.ahead.to_string(),
        use_does: if halted {
            None
        } else {
            use_does(crawl, &s).map(str::to_string)
        },
        can_attack: !halted && s.ahead == 'M',
        can_walk: !halted && s.ahead != 'M' && ahead_cell.is_walkable(),
        on_stairs: s.on_stairs,
        on_stairs_up: s.on_stairs_up,
        encounter: s.encounter,
        event: s.event,
        spotted: s.spotted,
        flags: s.flags,
        tick: s.tick,
        dead: s.dead,
        escaped: s.escaped,
        nearest_awake: s.nearest_awake,
        save: save_to_value(&crawl.save()),
        save_in_play: crawl.in_play().as_str().to_string(),
    }
}
