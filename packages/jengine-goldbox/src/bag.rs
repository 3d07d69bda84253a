//! What scripts read: the `GoldBox` bag (the battlefield, every unit, the order, what the
//! active unit may do, the log and the party) and the `GoldBoxEvents` bag (this frame's
//! events). Both are plain copies made from the fight after commands run.

use serde::Serialize;

use crate::fight::{Event, Fight, Legal, Outcome, Pos, Side, Status, UnitId};
use crate::rules::{Character, Rules};

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
    /// Shots left for its missile, or `nil` when it needs none.
    pub shots: Option<u32>,
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
    /// What each member's gear makes of it, in the party's order (see [`Sheet`]).
    pub sheets: Vec<Sheet>,
    /// The answer to the last `GoldBox.give`, `ready` or `remove`.
    pub outfit: Outfit,
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

/// One member's gear and what the rules make of it, for a shop or a character screen.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Sheet {
    /// Armour class.
    pub ac: i32,
    /// The roll to hit armour class 0.
    pub thac0: i32,
    /// The weapon in hand, or `""`.
    pub weapon: String,
    /// Its damage with strength and magic (`1d8+1`), or `""` bare-handed.
    pub damage: String,
    /// The bow or sling in use, or `""`.
    pub missile: String,
    /// Shots carried for it, or `nil` when it needs none.
    pub shots: Option<u32>,
    /// The armour worn, or `""`.
    pub armour: String,
    /// The shield carried, or `""`.
    pub shield: String,
    /// Half-squares a round, after the load.
    pub move_rate: u8,
    /// Weight carried, in coins.
    pub load: u32,
    /// What it carries at full speed, in coins.
    pub allowance: u32,
    /// Whether its armour lets it cast arcane spells (true for those who cast none).
    pub arcane_ok: bool,
    /// The items of the tables some class of it may use.
    pub usable: Vec<String>,
}

impl Sheet {
    /// The sheet of `c` under `rules`.
    pub fn of(rules: &Rules, c: &Character) -> Sheet {
        let name = |i: Option<crate::rules::Item>| i.map(|i| i.name).unwrap_or_default();
        let weapon = c.weapon(rules);
        let damage = weapon
            .as_ref()
            .and_then(|w| w.damage)
            .map(|d| {
                let plus = c.melee_bonus(rules).1 as i16;
                crate::rules::Dice {
                    bonus: d.bonus.saturating_add(plus),
                    ..d
                }
                .to_string()
            })
            .unwrap_or_default();
        Sheet {
            ac: c.armour_class(rules),
            thac0: c.thac0(rules),
            weapon: name(weapon),
            damage,
            missile: name(c.missile(rules)),
            shots: c.shots(rules),
            armour: name(c.armour(rules)),
            shield: name(
                c.items
                    .iter()
                    .filter_map(|n| rules.item(n))
                    .find(|i| i.kind == crate::rules::ItemKind::Shield)
                    .cloned(),
            ),
            move_rate: c.move_rate(rules),
            load: c.load(rules),
            allowance: c.allowance(),
            arcane_ok: c.arcane_armour_ok(rules),
            usable: rules
                .items()
                .iter()
                .filter(|i| c.cannot_use(rules, i).is_none())
                .map(|i| i.name.clone())
                .collect(),
        }
    }
}

/// The answer to the last change of a member's gear. A refusal is an answer here, not an
/// error: a shop reads it, says it, and charges nothing.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Outfit {
    /// How many changes have been answered: it grows by one with each.
    pub count: u32,
    /// The member (from 1) and the item of the last one.
    pub member: i64,
    /// The item.
    pub item: String,
    /// Why it was refused, in words, or `nil` when it was done.
    pub refused: Option<String>,
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
        shots: u.shots,
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
            sheets: Vec::new(),
            outfit: Outfit::default(),
            seed: f.seed(),
            cursor: None,
            preview: Vec::new(),
            aim_refused: None,
            save: serde_json::to_string(&f.save()).ok(),
        }
    }
}
