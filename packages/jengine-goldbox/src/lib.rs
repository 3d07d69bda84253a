//! Gold Box adventures, as SSI's AD&D games played them: a party of six made from classes,
//! races and abilities, and fights on a top-down grid where every member and monster moves,
//! strikes, shoots and casts in initiative order.
//!
//! Two modules of plain Rust hold the game, neither knowing about an engine:
//! - [`rules`] reads the tables (classes, races, items, spells, monsters, the party) and checks
//!   them, reporting every problem with its file, row and field; characters work out their
//!   armour class, THAC0, saves and movement from them;
//! - [`fight`] plays a tactical fight on a [`Field`](fight::Field) of terrain: a grid a caller
//!   may cut from any level. A fight is its seed plus its commands, so it replays exactly.
//!
//! [`crawl`] links the two to `jengine-crawler`: a crawl's waiting fight cut from its level
//! (`GoldBox.from_crawl`), settled when it ends.
//!
//! On top of them [`GoldBoxPackage`] puts fights on the engine: the `goldbox_fight` component,
//! the `GoldBox.*` commands and the `GoldBox` and `GoldBoxEvents` bags ([`bag`]).
//!
//! What matters, in order: the rules are right and fair (every roll seeded, every refusal in
//! words); bad tables fail at load with the place at fault, never mid-fight and never with a
//! panic; and a turn is cheap enough to plan for every monster on a 2-core machine.
//!
//! ```
//! use std::sync::Arc;
//! use jengine_goldbox::fight::{Command, Encounter, Field, Fight, Group};
//! use jengine_goldbox::rules::{Party, Rules, Source, builtin_text};
//!
//! let rules = Arc::new(Rules::builtin());
//! let text = builtin_text("goldbox_party").unwrap();
//! let party = Party::from_json(&rules, Source { file: "party", text }).unwrap();
//! let field = Field::from_rows(&["##########", "#........#", "#........#", "#........#",
//!                                "#........#", "#........#", "##########"]).unwrap();
//! let kobolds = Encounter { name: "pack".into(), field: None, party_at: None, monsters_at: None,
//!                           monsters: vec![Group { kind: "kobold".into(), count: 3 }] };
//! let mut fight = Fight::start(rules, field, party, &kobolds, 7).unwrap();
//! let legal = fight.legal().unwrap();          // the active member's moves and targets
//! let step = legal.moves[0];
//! fight.apply(Command::Move { x: step.x, y: step.y }).unwrap();
//! fight.apply(Command::EndTurn).unwrap();      // the kobolds play at once, then it waits
//! assert!(fight.round() >= 1);
//! ```

#![warn(missing_docs)]

pub mod bag;
pub mod crawl;
pub mod fight;
pub mod rules;

// The package on the engine's drawing: the battlefield as sprites. Everything above is plain
// Rust; this and `lib.rs` are all that touch the engine.
pub mod draw;

use std::sync::Arc;

use jengine::value::{Params, Value, any, boolean, entity, integer, string};
use jengine::{AssetField, Entity, Package, RawTable, Registry, RowError, World};
use serde::{Deserialize, Serialize};

use bag::{EventsBag, FightBag};
use fight::{Command, Encounter, Event, Field, Fight, FightSave, Pos, UnitId};
use rules::{Party, Roller, RuleSources, Rules, Source, TableError};

/// The data tables `goldbox_fight.tables` names when a scene leaves them out. A project that
/// has none of them plays with the ones the crate ships; any it has are checked at startup.
pub const DEFAULT_TABLES: [&str; 7] = [
    "goldbox_classes",
    "goldbox_races",
    "goldbox_items",
    "goldbox_spells",
    "goldbox_monsters",
    "goldbox_party",
    "goldbox_encounters",
];

/// Which of the project's data tables (`data/<name>.json`) the fight is built from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TableNames {
    /// Classes.
    pub classes: String,
    /// Races.
    pub races: String,
    /// Items.
    pub items: String,
    /// Spells.
    pub spells: String,
    /// Monster kinds.
    pub monsters: String,
    /// The party, in marching order.
    pub party: String,
    /// Encounters by name.
    pub encounters: String,
}

impl Default for TableNames {
    fn default() -> TableNames {
        let n = |i: usize| DEFAULT_TABLES[i].to_string();
        TableNames {
            classes: n(0),
            races: n(1),
            items: n(2),
            spells: n(3),
            monsters: n(4),
            party: n(5),
            encounters: n(6),
        }
    }
}

impl TableNames {
    fn all(&self) -> [(&'static str, &str); 7] {
        [
            ("classes", &self.classes),
            ("races", &self.races),
            ("items", &self.items),
            ("spells", &self.spells),
            ("monsters", &self.monsters),
            ("party", &self.party),
            ("encounters", &self.encounters),
        ]
    }
}

/// The `goldbox_fight` scene component: the tables, the battlefield and the seed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoldBoxFight {
    /// The data tables.
    pub tables: TableNames,
    /// The battlefield as rows of terrain (`#` wall, `.` floor, `/` open door, `+` shut door);
    /// empty for open ground of 20 by 14. An encounter with its own field fights there.
    pub field: Vec<String>,
    /// The seed of a fight started without one.
    pub seed: u64,
    /// An encounter to start as the scene loads, by name.
    pub encounter: Option<String>,
    /// How the battlefield is drawn.
    pub view: draw::View,
    /// Levels are trained: experience won in a fight is kept, but a level it reaches waits
    /// for `GoldBox.train` (a training hall), as in the old games.
    pub train: bool,
}

impl Default for GoldBoxFight {
    fn default() -> GoldBoxFight {
        GoldBoxFight {
            tables: TableNames::default(),
            field: Vec::new(),
            seed: 1,
            encounter: None,
            view: draw::View::default(),
            train: false,
        }
    }
}

impl GoldBoxFight {
    /// What a scene may not hold: a field that is not terrain, a table name that leaves
    /// `data/`. The message names the field.
    pub fn check(&self) -> Result<(), String> {
        for (field, name) in self.tables.all() {
            let bare = jengine::host::table_name(name);
            if bare.trim().is_empty() || bare.contains(['/', '\\']) || bare == ".." {
                return Err(format!(
                    "tables.{field}: {name:?} is not a table under data/"
                ));
            }
        }
        self.view.check()?;
        self.battlefield()
            .map(|_| ())
            .map_err(|e| format!("field: {e}"))
    }

    /// The battlefield it names.
    pub fn battlefield(&self) -> Result<Field, fight::FieldError> {
        if self.field.is_empty() {
            Field::open(20, 14)
        } else {
            Field::from_rows(&self.field)
        }
    }
}

/// The checked tables a fight needs.
#[derive(Debug, Clone)]
struct Loaded {
    rules: Arc<Rules>,
    party: Party,
    encounters: Vec<Encounter>,
}

/// One table's rows as JSON text: the project's, or the shipped one when the project has no
/// table of the default name.
fn table_text(
    data: Option<&jengine::Tables>,
    field: &str,
    name: &str,
) -> Result<(String, String), String> {
    let bare = jengine::host::table_name(name);
    let file = format!("data/{bare}.json");
    if let Some(raw) = data.and_then(|t| t.raw(bare)) {
        return Ok((
            raw.file.clone(),
            serde_json::Value::Array(raw.rows.clone()).to_string(),
        ));
    }
    match rules::builtin_text(bare) {
        Some(text) => Ok((file, text.to_string())),
        None => Err(format!(
            "goldbox_fight.tables.{field} names {file}, which the project does not have"
        )),
    }
}

/// All seven tables, checked together.
fn load(data: Option<&jengine::Tables>, game: &GoldBoxFight) -> Result<Loaded, String> {
    let mut texts = Vec::new();
    for (field, name) in game.tables.all() {
        texts.push(table_text(data, field, name)?);
    }
    let src = |i: usize| Source {
        file: &texts[i].0,
        text: &texts[i].1,
    };
    let rules = Rules::from_json(RuleSources {
        classes: src(0),
        races: src(1),
        items: src(2),
        spells: src(3),
        monsters: src(4),
    })
    .map_err(|e| e.to_string())?;
    let party = Party::from_json(&rules, src(5)).map_err(|e| e.to_string())?;
    let encounters = Encounter::table(&rules, src(6)).map_err(|e| e.to_string())?;
    Ok(Loaded {
        rules: Arc::new(rules),
        party,
        encounters,
    })
}

/// The fight running on a `goldbox_fight` entity.
pub struct Run {
    loaded: Result<Loaded, String>,
    party: Option<Party>,
    fight: Option<Fight>,
    pending: Vec<Event>,
    dirty: bool,
    pointing: draw::Pointing,
    floaters: Vec<draw::Floater>,
    pool: Vec<Entity>,
    redraw: bool,
    /// The `crawl_game` entity whose encounter this fight is, until it is settled.
    link: Option<Entity>,
    /// The party has been written back from the fight's end.
    written: bool,
    /// The answer to the last change of gear.
    outfit: bag::Outfit,
}

impl Run {
    /// The fight, once one has started.
    pub fn fight(&self) -> Option<&Fight> {
        self.fight.as_ref()
    }
}

/// Starts the run on `e` if it has none yet (and the scene's encounter, if it names one).
fn ensure(world: &mut World, e: Entity) -> Result<(), String> {
    if world.entities.get::<&Run>(e).is_ok() {
        return Ok(());
    }
    let game = world
        .entities
        .get::<&GoldBoxFight>(e)
        .map(|g| (*g).clone())
        .map_err(|_| format!("entity {} has no goldbox_fight", world.describe(e)))?;
    let loaded = load(world.resources.get::<jengine::Tables>(), &game);
    if let Err(problem) = &loaded {
        world.log().warn_once(problem.clone());
    }
    let mut run = Run {
        party: loaded.as_ref().ok().map(|l| l.party.clone()),
        loaded,
        fight: None,
        pending: Vec::new(),
        dirty: true,
        pointing: draw::Pointing::default(),
        floaters: Vec::new(),
        pool: Vec::new(),
        outfit: bag::Outfit::default(),
        redraw: true,
        link: None,
        written: false,
    };
    let mut problem = None;
    if let Some(name) = &game.encounter
        && run.loaded.is_ok()
    {
        match begin(&mut run, &game, &Value::Str(name.clone()), game.seed) {
            Ok(events) => run.pending.extend(events),
            Err(p) => problem = Some(p),
        }
    }
    if let Some(p) = problem {
        world
            .log()
            .warn_once(format!("goldbox_fight.encounter: {p}"));
    }
    let gone = |_| format!("entity {} is gone", e.to_bits());
    world
        .entities
        .insert(e, (run, FightBag::default(), EventsBag::default()))
        .map_err(gone)
}

/// Runs `f` on the run at `e`, keeping what it announced for this frame's events.
fn act(
    world: &mut World,
    e: Entity,
    f: impl FnOnce(&mut Run, &GoldBoxFight) -> Result<Vec<Event>, String>,
) -> Result<(), String> {
    ensure(world, e)?;
    let game = world
        .entities
        .get::<&GoldBoxFight>(e)
        .map(|g| (*g).clone())
        .map_err(|_| format!("entity {} is gone", e.to_bits()))?;
    let mut run = world
        .entities
        .get::<&mut Run>(e)
        .map_err(|_| format!("entity {} is gone", e.to_bits()))?;
    let events = f(&mut run, &game)?;
    run.pending.extend(events);
    run.dirty = true;
    if let Some(fight) = &run.fight
        && fight.outcome().is_some()
        && !run.written
    {
        let party = finished(fight, game.train);
        run.party = Some(party);
        run.written = true;
    }
    let settle = match (&run.fight, run.link) {
        (Some(fight), Some(crawl_e)) => fight.outcome().map(|o| (crawl_e, crawl::won(o.ending))),
        _ => None,
    };
    if settle.is_some() {
        run.link = None;
    }
    drop(run);
    if let Some((crawl_e, won)) = settle {
        settle_crawl(world, crawl_e, won);
    }
    Ok(())
}

/// The party a finished fight leaves: hit points, spent spells and experience as the fight
/// wrote them back; with `train`, each class's level (and the hit points it rolled) as they
/// were before the fight, the experience waiting for `GoldBox.train`.
fn finished(fight: &Fight, train: bool) -> Party {
    let mut after = fight.party().clone();
    if !train {
        return after;
    }
    let before = &fight.save().party;
    for (now, was) in after.members.iter_mut().zip(&before.members) {
        for (c, old) in now.classes.iter_mut().zip(&was.classes) {
            c.level = old.level;
        }
        let gained = now.max_hp - was.max_hp;
        if gained > 0 {
            now.max_hp = was.max_hp;
            if now.hp > 0 {
                now.hp = (now.hp - gained).max(1);
            }
        }
    }
    after
}

/// Settles the encounter the crawl at `crawl_e` is waiting on: won, the group is gone; not,
/// the party is back where it stepped from. The crawl's `resolved` goes out in its events.
fn settle_crawl(world: &mut World, crawl_e: Entity, won: bool) {
    let settled = world
        .entities
        .get::<&mut jengine_crawler::Run>(crawl_e)
        .ok()
        .and_then(|mut crawl| {
            crawl.act(|c| {
                if c.state().encounter.is_some() {
                    c.resolve(won);
                    true
                } else {
                    false
                }
            })
        });
    if settled != Some(true) {
        world.log().warn(format!(
            "GoldBox.from_crawl: the crawl on entity {} had no fight left to settle",
            crawl_e.to_bits()
        ));
    }
}

/// `GoldBox.from_crawl(e, crawl, seed)`: the fight the crawl at `crawl_e` is waiting on,
/// fought on its level round the party (see [`crawl`]).
fn from_crawl(
    world: &mut World,
    (e, crawl_e, seed): (Entity, Entity, Option<i64>),
) -> Result<(), String> {
    let cut = {
        let loaded = {
            ensure(world, e)?;
            let run = world
                .entities
                .get::<&Run>(e)
                .map_err(|_| format!("entity {} is gone", e.to_bits()))?;
            run.loaded
                .as_ref()
                .map_err(|p| p.clone())?
                .encounters
                .clone()
        };
        let crawl = world
            .entities
            .get::<&jengine_crawler::Run>(crawl_e)
            .map_err(|_| {
                format!(
                    "entity {} has no crawl running (a crawl_game that has played a frame)",
                    world.describe(crawl_e)
                )
            })?;
        let game = crawl
            .crawl()
            .ok_or("the crawl's tables did not load, so there is no fight to take")?;
        crawl::cut(game, &loaded)?
    };
    act(world, e, |run, game| {
        let loaded = run.loaded.as_ref().map_err(|p| p.clone())?;
        let seed = seed.map_or(game.seed, |s| s as u64);
        let party = run.party.clone().unwrap_or_else(|| loaded.party.clone());
        let fight = Fight::start(loaded.rules.clone(), cut.field, party, &cut.encounter, seed)
            .map_err(|r| r.0)?;
        let events = fight.log().to_vec();
        run.fight = Some(fight);
        run.written = false;
        run.link = Some(crawl_e);
        run.pointing = draw::Pointing::default();
        run.floaters.clear();
        Ok(events)
    })
}

/// `GoldBox.party(e, rows)`: a new party, as rows of the party table (a game's character
/// creation), checked as the table is. Refused in the middle of a fight.
fn set_party(world: &mut World, (e, rows): (Entity, Value)) -> Result<(), String> {
    act(world, e, |run, _| {
        if run.fight.as_ref().is_some_and(|f| f.outcome().is_none()) {
            return Err("the party cannot change in the middle of a fight".into());
        }
        let loaded = run.loaded.as_ref().map_err(|p| p.clone())?;
        let text = match &rows {
            Value::Str(text) => text.clone(),
            Value::Table(t) => t.to_string(),
            other => return Err(format!("the party is {other}, not rows")),
        };
        let party = match kept_party(&loaded.rules, &text) {
            Some(kept) => kept?,
            None => Party::from_json(
                &loaded.rules,
                Source {
                    file: "the party",
                    text: &text,
                },
            )
            .map_err(|e| e.to_string())?,
        };
        if party.members.is_empty() {
            return Err("a party needs at least one member".into());
        }
        run.party = Some(party);
        Ok(Vec::new())
    })
}

/// A party as the bag's `party` gave it (characters with their classes' levels and
/// experience, hit points and spells held), for a game loading its save; `None` when the text
/// is rows of the party table instead. Every name is checked against the rules, and the
/// numbers against what a character may be.
fn kept_party(rules: &Rules, text: &str) -> Option<Result<Party, String>> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let kept = value.as_array()?.iter().all(|m| {
        m["classes"]
            .as_array()
            .is_some_and(|c| c.iter().all(|c| c.is_object()))
    });
    if !kept {
        return None;
    }
    Some((|| {
        let members: Vec<rules::Character> = serde_path_to_error::deserialize(&value)
            .map_err(|e| format!("the kept party, at {}: {}", e.path(), e.inner()))?;
        if members.is_empty() || members.len() > Party::MAX {
            return Err(format!(
                "a party has 1 to {} members, this one {}",
                Party::MAX,
                members.len()
            ));
        }
        for (i, m) in members.iter().enumerate() {
            let at = format!("the kept party, member {} ({})", i + 1, m.name);
            if rules.race(&m.race).is_none() {
                return Err(format!("{at}: {:?} is not in the races table", m.race));
            }
            if m.classes.is_empty() {
                return Err(format!("{at}: no class"));
            }
            for c in &m.classes {
                let k = rules
                    .class(&c.class)
                    .ok_or_else(|| format!("{at}: {:?} is not in the classes table", c.class))?;
                if c.level == 0 || c.level > k.cap() {
                    return Err(format!("{at}: level {} is not 1 to {}", c.level, k.cap()));
                }
            }
            if m.max_hp < 1 || m.hp > m.max_hp || m.hp < -10 {
                return Err(format!(
                    "{at}: hit points {} of {} cannot be",
                    m.hp, m.max_hp
                ));
            }
            for a in rules::tables::Ability::ALL {
                if !(3..=19).contains(&m.abilities.get(a)) {
                    return Err(format!(
                        "{at}: {} {} is not 3 to 19",
                        a.word(),
                        m.abilities.get(a)
                    ));
                }
            }
            if let Some(item) = m.items.iter().find(|i| rules.item(i).is_none()) {
                return Err(format!("{at}: {item:?} is not in the items table"));
            }
            if let Some(s) = m.memorised.iter().find(|s| rules.spell(&s.spell).is_none()) {
                return Err(format!("{at}: {:?} is not in the spells table", s.spell));
            }
            if let Some((sort, n)) = m
                .ammo
                .iter()
                .find(|(s, n)| rules.ammo_for(s).is_none() || **n > rules::Character::MAX_SHOTS)
            {
                return Err(format!(
                    "{at}: {n} shots for a {sort:?} cannot be (the items table sells none, or more than {})",
                    rules::Character::MAX_SHOTS
                ));
            }
        }
        Ok(Party { members })
    })())
}

/// `GoldBox.memorise(e, member, spells)`: member `member` (from 1) memorises `spells` (a
/// table of names) in place of what it held, as its slots allow. Refused mid-fight.
fn memorise(world: &mut World, (e, member, spells): (Entity, i64, Value)) -> Result<(), String> {
    act(world, e, |run, _| {
        if run.fight.as_ref().is_some_and(|f| f.outcome().is_none()) {
            return Err("there is no memorising in the middle of a fight".into());
        }
        let names: Vec<String> = match &spells {
            Value::Table(serde_json::Value::Array(a)) => a
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<String>>>()
                .ok_or("the spells are not all names")?,
            // An empty Lua table reaches the call as an empty object.
            Value::Table(serde_json::Value::Object(o)) if o.is_empty() => Vec::new(),
            other => return Err(format!("the spells are {other}, not a list of names")),
        };
        let loaded = run.loaded.as_ref().map_err(|p| p.clone())?;
        let rules = loaded.rules.clone();
        let party = run
            .party
            .as_mut()
            .ok_or("the party's tables did not load")?;
        let count = party.members.len();
        let who = party
            .members
            .get_mut(member as usize - 1)
            .ok_or_else(|| format!("the party has {count} members, not {member}"))?;
        who.memorise(&rules, &names)?;
        Ok(Vec::new())
    })
}

/// `GoldBox.heal(e, member, amount)`: member `member` (from 1) gains `amount` hit points, to
/// its whole; one below 0 is brought to 0 first (a temple's care). The dead (at -10) are
/// refused, as is a member already whole, and the middle of a fight.
fn heal(world: &mut World, (e, member, amount): (Entity, i64, i64)) -> Result<(), String> {
    mend(world, e, member, amount, false)
}

/// `GoldBox.raise(e, member)`: a dead member (at -10) is brought back with 1 hit point.
fn raise(world: &mut World, (e, member): (Entity, i64)) -> Result<(), String> {
    mend(world, e, member, 1, true)
}

fn mend(world: &mut World, e: Entity, member: i64, amount: i64, raise: bool) -> Result<(), String> {
    act(world, e, |run, _| {
        if run.fight.as_ref().is_some_and(|f| f.outcome().is_none()) {
            return Err("healing is for between fights".into());
        }
        let party = run
            .party
            .as_mut()
            .ok_or("the party's tables did not load")?;
        let count = party.members.len();
        let who = party
            .members
            .get_mut(member as usize - 1)
            .ok_or_else(|| format!("the party has {count} members, not {member}"))?;
        if who.hp <= -10 && !raise {
            return Err(format!("{} is dead, past healing", who.name));
        }
        if raise && who.hp > -10 {
            return Err(format!("{} is not dead", who.name));
        }
        if who.hp >= who.max_hp {
            return Err(format!("{} is already whole", who.name));
        }
        who.hp = (who.hp.max(0) + amount as i32).min(who.max_hp);
        Ok(Vec::new())
    })
}

/// `GoldBox.train(e, member, seed)`: member `member` (from 1) rises as many levels as its
/// experience reaches, rolling the new hit points from `seed`. Refused in words when it has
/// no level waiting, and in the middle of a fight.
fn train(world: &mut World, (e, member, seed): (Entity, i64, i64)) -> Result<(), String> {
    act(world, e, |run, _| {
        if run.fight.as_ref().is_some_and(|f| f.outcome().is_none()) {
            return Err("there is no training in the middle of a fight".into());
        }
        let loaded = run.loaded.as_ref().map_err(|p| p.clone())?;
        let rules = loaded.rules.clone();
        let party = run
            .party
            .as_mut()
            .ok_or("the party's tables did not load")?;
        let count = party.members.len();
        let who = party
            .members
            .get_mut(member as usize - 1)
            .ok_or_else(|| format!("the party has {count} members, not {member}"))?;
        let mut trained = who.clone();
        let ups = trained.gain_xp(&rules, 0, &mut Roller::new(seed as u64));
        if ups.is_empty() {
            return Err(format!("{} has no level waiting to be trained", who.name));
        }
        *who = trained;
        Ok(Vec::new())
    })
}

/// A change of one member's gear: `GoldBox.give`, `GoldBox.ready` or `GoldBox.remove`.
#[derive(Debug, Clone, Copy)]
enum Gear {
    Give,
    Ready,
    Remove,
}

/// `GoldBox.give(e, member, item)` (takes it up and readies it), `GoldBox.ready(e, member,
/// item)` (readies one it carries) and `GoldBox.remove(e, member, item)` (gives one up), all
/// between fights. The rules' answer, done or refused in words, is the bag's `outfit`; a
/// refusal changes nothing and is no error of the script's.
fn outfit(
    world: &mut World,
    e: Entity,
    member: i64,
    item: String,
    gear: Gear,
) -> Result<(), String> {
    act(world, e, |run, _| {
        let answer = (|| {
            if run.fight.as_ref().is_some_and(|f| f.outcome().is_none()) {
                return Err("gear is changed between fights, not in the middle of one".to_string());
            }
            let loaded = run.loaded.as_ref().map_err(|p| p.clone())?;
            let rules = loaded.rules.clone();
            let party = run.party.get_or_insert_with(|| loaded.party.clone());
            let count = party.members.len();
            let who = party
                .members
                .get_mut(member as usize - 1)
                .ok_or_else(|| format!("the party has {count} members, not {member}"))?;
            match gear {
                Gear::Give => who.take_up(&rules, &item),
                Gear::Ready => who.ready(&rules, &item),
                Gear::Remove => who.put_down(&rules, &item).map(|_| ()),
            }
        })();
        run.outfit = bag::Outfit {
            count: run.outfit.count + 1,
            member,
            item: item.clone(),
            refused: answer.err(),
        };
        Ok(Vec::new())
    })
}

/// Starts a fight from an encounter given by name, as JSON text or as a table.
fn begin(
    run: &mut Run,
    game: &GoldBoxFight,
    which: &Value,
    seed: u64,
) -> Result<Vec<Event>, String> {
    let loaded = run.loaded.as_ref().map_err(|p| p.clone())?;
    let encounter = match which {
        Value::Str(text) if text.trim_start().starts_with('{') => {
            Encounter::from_json(&loaded.rules, "the encounter", text).map_err(|e| e.to_string())?
        }
        Value::Str(name) => loaded
            .encounters
            .iter()
            .find(|x| x.name.eq_ignore_ascii_case(name.trim()))
            .cloned()
            .ok_or_else(|| {
                let names: Vec<&str> = loaded.encounters.iter().map(|x| x.name.as_str()).collect();
                format!(
                    "no encounter is named {name:?} (there are: {})",
                    names.join(", ")
                )
            })?,
        Value::Table(t) => Encounter::from_json(&loaded.rules, "the encounter", &t.to_string())
            .map_err(|e| e.to_string())?,
        other => {
            return Err(format!(
                "the encounter is {other}, not a name, JSON text or a table"
            ));
        }
    };
    let field = game
        .battlefield()
        .map_err(|e| format!("goldbox_fight.field: {e}"))?;
    let party = run.party.clone().unwrap_or_else(|| loaded.party.clone());
    let fight =
        Fight::start(loaded.rules.clone(), field, party, &encounter, seed).map_err(|r| r.0)?;
    let events = fight.log().to_vec();
    if fight.outcome().is_some() {
        run.party = Some(fight.party().clone());
    }
    run.fight = Some(fight);
    run.written = false;
    // A fight started by name is nobody's crawl's: one taken from a crawl is abandoned.
    run.link = None;
    run.pointing = draw::Pointing::default();
    run.floaters.clear();
    Ok(events)
}

/// Gives the fight at `e` one command.
fn order(w: &mut World, e: Entity, command: Command) -> Result<(), String> {
    act(w, e, |run, _| {
        let fight = run
            .fight
            .as_mut()
            .ok_or("no fight is on: call GoldBox.start first")?;
        let events = fight.apply(command).map_err(|r| r.0)?;
        if fight.outcome().is_some() {
            run.party = Some(fight.party().clone());
        }
        Ok(events)
    })
}

fn unit(n: i64) -> UnitId {
    UnitId(n as u16)
}

/// The frame's fights: every `goldbox_fight` started, and the bags of every one something
/// happened to remade.
fn play(world: &mut World, _dt: f64) {
    let fights: Vec<Entity> = world
        .entities
        .query::<(Entity, &GoldBoxFight)>()
        .iter()
        .map(|(e, _)| e)
        .collect();
    for e in fights {
        let _ = ensure(world, e);
    }
    for (run, state, events) in world
        .entities
        .query_mut::<(&mut Run, &mut FightBag, &mut EventsBag)>()
    {
        events.events.clear();
        events.events.append(&mut run.pending);
        // Floating numbers age a frame at a time, so a replayed session draws the same.
        for f in &mut run.floaters {
            f.age += 1;
        }
        run.floaters.retain(|f| f.age < draw::FLOAT_FRAMES);
        if let Some(fight) = &run.fight {
            run.floaters
                .extend(draw::Floater::from_events(fight, &events.events));
        }
        if !run.floaters.is_empty() {
            run.redraw = true;
        }
        if !run.dirty {
            continue;
        }
        run.dirty = false;
        run.redraw = true;
        *state = match (&run.loaded, &run.fight) {
            (Err(p), _) => FightBag {
                error: Some(p.clone()),
                ..FightBag::default()
            },
            (Ok(l), Some(f)) => FightBag {
                // After a rest the party is newer than the fight's.
                party: run.party.as_ref().unwrap_or(f.party()).members.clone(),
                sheets: sheets(&l.rules, run.party.as_ref().unwrap_or(f.party())),
                ..FightBag::of(f)
            },
            (Ok(l), None) => FightBag {
                party: run.party.as_ref().unwrap_or(&l.party).members.clone(),
                sheets: sheets(&l.rules, run.party.as_ref().unwrap_or(&l.party)),
                ..FightBag::default()
            },
        };
        state.outfit.clone_from(&run.outfit);
        state.cursor = run.pointing.cursor;
        state.preview.clone_from(&run.pointing.preview);
        state.aim_refused.clone_from(&run.pointing.refused);
    }
}

fn sheets(rules: &Rules, party: &Party) -> Vec<bag::Sheet> {
    party
        .members
        .iter()
        .map(|m| bag::Sheet::of(rules, m))
        .collect()
}

/// Writes every fight whose picture changed into its pool of sprites.
fn draw_system(world: &mut World, _dt: f64) {
    let changed: Vec<Entity> = world
        .entities
        .query::<(Entity, &Run)>()
        .iter()
        .filter(|(_, run)| run.redraw)
        .map(|(e, _)| e)
        .collect();
    for e in changed {
        let Ok(view) = world
            .entities
            .get::<&GoldBoxFight>(e)
            .map(|g| g.view.clone())
        else {
            continue;
        };
        let (mut pool, pieces) = {
            let Ok(mut run) = world.entities.get::<&mut Run>(e) else {
                continue;
            };
            run.redraw = false;
            let pieces = match (&run.fight, view.draw) {
                (Some(f), true) => draw::pieces(f, &view, &run.pointing, &run.floaters),
                _ => Vec::new(),
            };
            (std::mem::take(&mut run.pool), pieces)
        };
        draw::write(world, e, &mut pool, &view, &pieces);
        if let Ok(mut run) = world.entities.get::<&mut Run>(e) {
            run.pool = pool;
        }
    }
}

/// A default-named table checked alone by the crate's own loader, the shipped tables
/// standing in for the rest. Only its own rows are reported here, and not the names it
/// gives other tables: those are checked when a `goldbox_fight` loads every table together.
fn check_table(raw: &RawTable, which: usize) -> Vec<RowError> {
    let text = serde_json::Value::Array(raw.rows.clone()).to_string();
    let own = Source {
        file: &raw.file,
        text: &text,
    };
    let result: Result<(), TableError> = match which {
        0..=4 => {
            let mut src = RuleSources::builtin();
            match which {
                0 => src.classes = own,
                1 => src.races = own,
                2 => src.items = own,
                3 => src.spells = own,
                _ => src.monsters = own,
            }
            Rules::from_json(src).map(|_| ())
        }
        5 => Party::from_json(&Rules::builtin(), own).map(|_| ()),
        _ => Encounter::table(&Rules::builtin(), own).map(|_| ()),
    };
    let Err(error) = result else {
        return Vec::new();
    };
    error
        .problems
        .into_iter()
        .filter(|p| p.file == raw.file && !p.message.contains("is not in the "))
        .map(|p| RowError {
            file: p.file,
            row: p.row,
            label: p.label,
            message: if p.field.is_empty() {
                p.message
            } else {
                format!("{}: {}", p.field, p.message)
            },
        })
        .collect()
}

/// `GoldBox.point(e, x, y, spell)`: puts the cursor on a square and, with a spell, previews
/// the ground it would cover cast there by the active unit. A cast the fight would refuse is
/// refused here too, in the same words, and the cursor stays where it was.
fn point(
    w: &mut World,
    (e, x, y, spell): (Entity, i64, i64, Option<String>),
) -> Result<(), String> {
    act(w, e, |run, _| {
        let fight = run
            .fight
            .as_ref()
            .ok_or("no fight is on: call GoldBox.start first")?;
        let at = Pos::new(x as i32, y as i32);
        if !fight.field().inside(at) {
            return Err(format!("{at} is off the field"));
        }
        let preview = match &spell {
            Some(spell) => fight.spell_area(spell, at.x, at.y).map_err(|r| r.0)?,
            None => Vec::new(),
        };
        run.pointing = draw::Pointing {
            cursor: Some(at),
            preview,
            refused: None,
        };
        Ok(Vec::new())
    })
}

/// `GoldBox.aim(e, x, y, spell)`: the targeting cursor. It moves to any square of the field;
/// with a spell the active unit could cast there, the ground it would cover is previewed,
/// friends and foes alike; where it could not, the preview is empty and the bag's
/// `aim_refused` says why (the same words a cast there would be refused in).
fn aim(w: &mut World, (e, x, y, spell): (Entity, i64, i64, Option<String>)) -> Result<(), String> {
    act(w, e, |run, _| {
        let fight = run
            .fight
            .as_ref()
            .ok_or("no fight is on: call GoldBox.start first")?;
        let at = Pos::new(x as i32, y as i32);
        if !fight.field().inside(at) {
            return Err(format!("{at} is off the field"));
        }
        let (preview, refused) = match &spell {
            Some(spell) => match fight.spell_area(spell, at.x, at.y) {
                Ok(area) => (area, None),
                Err(r) => (Vec::new(), Some(r.0)),
            },
            None => (Vec::new(), None),
        };
        run.pointing = draw::Pointing {
            cursor: Some(at),
            preview,
            refused,
        };
        Ok(Vec::new())
    })
}

/// `GoldBox.unpoint(e)`: takes the cursor and any preview off the field.
fn unpoint(w: &mut World, (e,): (Entity,)) -> Result<(), String> {
    act(w, e, |run, _| {
        run.pointing = draw::Pointing::default();
        Ok(Vec::new())
    })
}

/// `GoldBox.resume(e, save)`: a kept fight played again to where it was. A save that does not
/// fit is refused in words and the fight in progress goes on as it was.
fn resume(w: &mut World, (e, save): (Entity, Value)) -> Result<(), String> {
    act(w, e, |run, _| {
        let loaded = run.loaded.as_ref().map_err(|p| p.clone())?;
        let parsed: Result<FightSave, String> = match &save {
            Value::Str(text) => serde_json::from_str(text).map_err(|e| e.to_string()),
            Value::Table(t) => serde_json::from_value(t.clone()).map_err(|e| e.to_string()),
            other => Err(format!("it is {other}")),
        };
        let save = parsed.map_err(|e| format!("the save does not fit: {e}"))?;
        let fight = Fight::resume(loaded.rules.clone(), &save).map_err(|r| r.0)?;
        run.party = Some(if fight.outcome().is_some() {
            fight.party().clone()
        } else {
            save.party.clone()
        });
        // A kept fight that had ended wrote its party back when it was played.
        run.written = fight.outcome().is_some();
        run.fight = Some(fight);
        run.link = None;
        run.pointing = draw::Pointing::default();
        run.floaters.clear();
        Ok(Vec::new())
    })
}

/// The fields of `goldbox_fight` that name textures.
const FIGHT_ASSETS: &[AssetField] = &[AssetField::texture("view.sheet.texture")];

/// The textures the package ships, by name under `assets/textures/`: the default sheet
/// (painted by `cargo run -p jengine-goldbox --example sheet`).
pub const DEFAULT_TEXTURES: &[(&str, &[u8])] = &[(
    "goldbox/sheet.png",
    include_bytes!("../assets/textures/goldbox/sheet.png"),
)];

/// The package entry point.
pub struct GoldBoxPackage;

impl Package for GoldBoxPackage {
    fn name(&self) -> &'static str {
        "jengine-goldbox"
    }

    fn register(&self, reg: &mut Registry) {
        reg.component_checked::<GoldBoxFight>("goldbox_fight", GoldBoxFight::check);
        reg.component_assets::<GoldBoxFight>("goldbox_fight", FIGHT_ASSETS);
        for (name, bytes) in DEFAULT_TEXTURES {
            reg.asset(&format!("textures/{name}"), bytes);
        }
        // Whatever tables a fight names are checked, together, when its scene loads.
        reg.component_tables::<GoldBoxFight>("goldbox_fight", |game, data| {
            load(Some(data), game).err().into_iter().collect()
        });
        for (which, name) in DEFAULT_TABLES.iter().enumerate() {
            reg.optional_table(name, move |raw| check_table(raw, which));
        }

        reg.command(
            "GoldBox",
            "start",
            (
                entity("e"),
                any("encounter").about(
                    "an encounter's name in the encounters table, or one encounter as JSON text or a table",
                ),
                integer("seed").at_least(0).optional(),
            )
                .such_that(
                    "encounter is a name, JSON text or a table",
                    |(_, which, _)| matches!(which, Value::Str(_) | Value::Table(_)),
                ),
            |w, (e, which, seed)| {
                act(w, e, |run, game| {
                    // Declared 0 or more, so the cast keeps every seed a script can give.
                    let seed = seed.map_or(game.seed, |s| s as u64);
                    begin(run, game, &which, seed)
                })
            },
        );
        reg.command(
            "GoldBox",
            "move",
            (
                entity("e"),
                integer("x").range(0, 63),
                integer("y").range(0, 63),
            ),
            |w, (e, x, y)| {
                order(
                    w,
                    e,
                    Command::Move {
                        x: x as i32,
                        y: y as i32,
                    },
                )
            },
        );
        reg.command(
            "GoldBox",
            "attack",
            (entity("e"), integer("unit").range(1, 999)),
            |w, (e, n)| order(w, e, Command::Attack { target: unit(n) }),
        );
        reg.command(
            "GoldBox",
            "cast",
            (
                entity("e"),
                string("spell").up_to(64),
                integer("x").range(0, 63),
                integer("y").range(0, 63),
            ),
            |w, (e, spell, x, y)| {
                order(
                    w,
                    e,
                    Command::Cast {
                        spell,
                        x: x as i32,
                        y: y as i32,
                    },
                )
            },
        );
        reg.command("GoldBox", "delay", (entity("e"),), |w, (e,)| {
            order(w, e, Command::Delay)
        });
        reg.command("GoldBox", "guard", (entity("e"),), |w, (e,)| {
            order(w, e, Command::Guard)
        });
        reg.command(
            "GoldBox",
            "quick",
            (
                entity("e"),
                boolean("on"),
                integer("unit").range(1, 999).optional(),
            ),
            |w, (e, on, n)| {
                act(w, e, |run, _| {
                    let fight = run
                        .fight
                        .as_mut()
                        .ok_or("no fight is on: call GoldBox.start first")?;
                    let who = match n {
                        Some(n) => unit(n),
                        None => fight
                            .active()
                            .map(|u| u.id)
                            .ok_or("the fight is over: nobody to hand to the computer")?,
                    };
                    let events = fight
                        .apply(Command::Quick { unit: who, on })
                        .map_err(|r| r.0)?;
                    if fight.outcome().is_some() {
                        run.party = Some(fight.party().clone());
                    }
                    Ok(events)
                })
            },
        );
        reg.command(
            "GoldBox",
            "bandage",
            (entity("e"), integer("unit").range(1, 999)),
            |w, (e, n)| order(w, e, Command::Bandage { target: unit(n) }),
        );
        reg.command("GoldBox", "flee", (entity("e"),), |w, (e,)| {
            order(w, e, Command::Flee)
        });
        reg.command("GoldBox", "end_turn", (entity("e"),), |w, (e,)| {
            order(w, e, Command::EndTurn)
        });
        reg.command("GoldBox", "rest", (entity("e"),), |w, (e,)| {
            act(w, e, |run, _| {
                if run.fight.as_ref().is_some_and(|f| f.outcome().is_none()) {
                    return Err("there is no resting in the middle of a fight".into());
                }
                let party = run
                    .party
                    .as_mut()
                    .ok_or("the party's tables did not load")?;
                for m in &mut party.members {
                    m.rest();
                }
                Ok(Vec::new())
            })
        });

        reg.command(
            "GoldBox",
            "from_crawl",
            (
                entity("e"),
                entity("crawl").about("the crawl_game entity whose fight is waiting"),
                integer("seed").at_least(0).optional(),
            ),
            from_crawl,
        );
        reg.command(
            "GoldBox",
            "party",
            (
                entity("e"),
                any("rows").about("the party as rows of the party table: JSON text or a table"),
            )
                .such_that("rows is JSON text or a table", |(_, rows)| {
                    matches!(rows, Value::Str(_) | Value::Table(_))
                }),
            set_party,
        );
        reg.command(
            "GoldBox",
            "memorise",
            (
                entity("e"),
                integer("member").range(1, 6),
                any("spells").about("a list of spell names"),
            )
                .such_that("spells is a table", |(_, _, s)| {
                    matches!(s, Value::Table(_))
                }),
            memorise,
        );
        reg.command(
            "GoldBox",
            "heal",
            (
                entity("e"),
                integer("member").range(1, 6),
                integer("amount").range(1, 999),
            ),
            heal,
        );
        reg.command(
            "GoldBox",
            "raise",
            (entity("e"), integer("member").range(1, 6)),
            raise,
        );
        reg.command(
            "GoldBox",
            "train",
            (
                entity("e"),
                integer("member").range(1, 6),
                integer("seed").at_least(0),
            ),
            train,
        );
        for (name, gear, about) in [
            ("give", Gear::Give, "the item to take up and ready"),
            ("ready", Gear::Ready, "the carried item to ready"),
            ("remove", Gear::Remove, "the carried item to give up"),
        ] {
            reg.command(
                "GoldBox",
                name,
                (
                    entity("e"),
                    integer("member").range(1, 6),
                    string("item").up_to(64).about(about),
                ),
                move |w, (e, member, item)| outfit(w, e, member, item, gear),
            );
        }
        reg.command(
            "GoldBox",
            "resume",
            (
                entity("e"),
                any("save").about("a fight kept from the bag's `save`: its JSON text or a table"),
            )
                .such_that("save is JSON text or a table", |(_, save)| {
                    matches!(save, Value::Str(_) | Value::Table(_))
                }),
            resume,
        );
        reg.command(
            "GoldBox",
            "point",
            (
                entity("e"),
                integer("x").range(0, 63),
                integer("y").range(0, 63),
                string("spell").up_to(64).optional(),
            ),
            point,
        );
        reg.command(
            "GoldBox",
            "aim",
            (
                entity("e"),
                integer("x").range(0, 63),
                integer("y").range(0, 63),
                string("spell").up_to(64).optional(),
            ),
            aim,
        );
        reg.command("GoldBox", "unpoint", (entity("e"),), unpoint);

        reg.system("goldbox", play);
        reg.system("draw", draw_system);
        reg.bag::<FightBag>("GoldBox");
        reg.bag::<EventsBag>("GoldBoxEvents");
    }
}
