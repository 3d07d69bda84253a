//! What scripts read: the `GoldBox` bag (the battlefield, every unit, the order, what the
//! active unit may do, the log and the party) and the `GoldBoxEvents` bag (this frame's
//! events). Both are plain copies made from the fight after commands run.

use serde::Serialize;

use crate::fight::{Event, Fight, Legal, Outcome, Pos, Side, Status, UnitId};
use crate::rules::Character;

/// One unit, as a script sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitView {
    /// Its number: what `GoldBox.attack` and friends take.
    pub id: u16,
    /// Its name.
    pub name: String,
    /// `party` or `monsters`.
    pub side: Side,
    /// Monster kind or classes.
    pub kind: String,
    /// Its picture on the sheet.
    pub art: String,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Hit points.
    pub hp: i32,
    /// Hit points when whole.
    pub max_hp: i32,
    /// `ok`, `asleep`, `held`, `unconscious`, `dying`, `dead` or `fled`.
    pub status: Status,
    /// Half-squares of movement left (this turn, for the active unit).
    pub moves_left: u16,
    /// Armour class.
    pub ac: i32,
    /// Played by the computer.
    pub quick: bool,
    /// Standing guard.
    pub guarding: bool,
    /// Its morale broke.
    pub fleeing: bool,
    /// Spells it still holds.
    pub spells: Vec<String>,
}

/// The `GoldBox` bag.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FightBag {
    /// Why the tables, the party or the last start could not be used, or `nil`.
    pub error: Option<String>,
    /// A fight is on the field (it may be over: see `outcome`).
    pub fighting: bool,
    /// The round, from 1.
    pub round: u32,
    /// The battlefield as rows of `#`, `.`, `/`, `+`.
    pub field: Vec<String>,
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// Every unit.
    pub units: Vec<UnitView>,
    /// This round's order, by unit number.
    pub order: Vec<u16>,
    /// The unit to act, or `nil`.
    pub active: Option<u16>,
    /// What it may do (moves with cost and risk, attacks, shots, spells, bandage, can_*).
    pub legal: Option<Legal>,
    /// Every event of the fight so far.
    pub log: Vec<Event>,
    /// How it ended, once it has.
    pub outcome: Option<Outcome>,
    /// The party as it stands (hit points, experience, spells).
    pub party: Vec<Character>,
    /// The fight's seed, for a replay.
    pub seed: u64,
    /// The cursor's square (`GoldBox.point`), or `nil`.
    pub cursor: Option<Pos>,
    /// The squares the spell being aimed would cover.
    pub preview: Vec<Pos>,
    /// Why the spell being aimed (`GoldBox.aim`) cannot be cast at the cursor, or `nil`.
    pub aim_refused: Option<String>,
    /// The fight as JSON text to keep (`Save.set(key, state.save)`); `GoldBox.resume(e, text)`
    /// plays it again to where it was. `nil` before a fight.
    pub save: Option<String>,
}

/// The `GoldBoxEvents` bag.
#[derive(Debug, Clone, Default, Serialize)]
pub struct EventsBag {
    /// This frame's events, in order (each a table with its `event` name).
    pub events: Vec<Event>,
}

fn view(f: &Fight, id: UnitId) -> Option<UnitView> {
    let u = f.unit(id)?;
    Some(UnitView {
        id: u.id.0,
        name: u.name.clone(),
        side: u.side,
        kind: u.kind.clone(),
        art: u.art.clone(),
        x: u.pos.x,
        y: u.pos.y,
        hp: u.hp,
        max_hp: u.max_hp,
        status: u.status,
        moves_left: u.moves_left,
        ac: u.ac,
        quick: u.quick,
        guarding: u.guarding,
        fleeing: u.fleeing,
        spells: u
            .spells
            .iter()
            .filter(|h| !h.used)
            .map(|h| h.spell.clone())
            .collect(),
    })
}

impl FightBag {
    /// The bag for a fight.
    pub fn of(f: &Fight) -> FightBag {
        FightBag {
            error: None,
            fighting: true,
            round: f.round(),
            field: f.field().rows(),
            width: f.field().width(),
            height: f.field().height(),
            units: f.units().iter().filter_map(|u| view(f, u.id)).collect(),
            order: f.order().iter().map(|u| u.0).collect(),
            active: f.active().map(|u| u.id.0),
            legal: f.legal(),
            log: f.log().to_vec(),
            outcome: f.outcome().cloned(),
            party: f.party().members.clone(),
            seed: f.seed(),
            cursor: None,
            preview: Vec::new(),
            aim_refused: None,
            save: serde_json::to_string(&f.save()).ok(),
        }
    }
}
