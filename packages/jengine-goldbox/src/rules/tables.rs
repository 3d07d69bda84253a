//! The rule tables (classes, races, items, spells, monsters) as they are written in JSON, and
//! the loader that checks them. Each row is read on its own and then checked against its
//! neighbours, so one pass reports every problem in every file with its row and field.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::dice::Dice;

/// One thing wrong in a table: the file, the 1-based row (0 for the file itself), the row's
/// name when it has one, the field, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file, as `data/<name>.json`.
    pub file: String,
    /// The row, counting from 1; 0 when the file as a whole is wrong.
    pub row: usize,
    /// The row's `name`, if it has one.
    pub label: Option<String>,
    /// The field at fault (`attacks[1]`), empty for the whole row.
    pub field: String,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.row > 0 {
            write!(f, ": row {}", self.row)?;
            if let Some(label) = &self.label {
                write!(f, " ({label:?})")?;
            }
        }
        if !self.field.is_empty() {
            write!(f, ", {}", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Every problem found while loading a set of tables, in file and row order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    /// The problems, at least one.
    pub problems: Vec<Problem>,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for TableError {}

/// One table's text and the file it came from (for the messages).
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The file, as `data/<name>.json`.
    pub file: &'a str,
    /// Its JSON text: an array of row objects.
    pub text: &'a str,
}

/// Collects the problems of one file as rows are read and checked.
pub(crate) struct Report<'p> {
    pub file: String,
    pub problems: &'p mut Vec<Problem>,
}

impl Report<'_> {
    pub fn add(&mut self, row: usize, label: &str, field: &str, message: impl Into<String>) {
        self.problems.push(Problem {
            file: self.file.clone(),
            row,
            label: (!label.is_empty()).then(|| label.to_string()),
            field: field.to_string(),
            message: message.into(),
        });
    }
}

/// Reads every row of `source` as a `T`, reporting each row that does not fit (with the path
/// to the field serde stopped at) and keeping the rest with their 1-based row numbers.
pub(crate) fn read_rows<T: DeserializeOwned>(
    source: Source<'_>,
    problems: &mut Vec<Problem>,
) -> Vec<(usize, T)> {
    let mut report = Report {
        file: source.file.to_string(),
        problems,
    };
    let value: serde_json::Value = match serde_json::from_str(source.text) {
        Ok(v) => v,
        Err(e) => {
            report.add(0, "", "", format!("not JSON: {e}"));
            return Vec::new();
        }
    };
    let serde_json::Value::Array(rows) = value else {
        report.add(0, "", "", "the table must be an array of rows");
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, row) in rows.into_iter().enumerate() {
        let label = row
            .get("name")
            .and_then(|n| n.as_str())
            .unwrap_or_default()
            .to_string();
        if !row.is_object() {
            report.add(i + 1, "", "", "a row must be an object");
            continue;
        }
        match serde_path_to_error::deserialize::<_, T>(&row) {
            Ok(v) => out.push((i + 1, v)),
            Err(e) => {
                let path = e.path().to_string();
                let field = if path == "." { String::new() } else { path };
                report.add(i + 1, &label, &field, e.inner().to_string());
            }
        }
    }
    out
}

/// Reports empty and repeated names (compared without case) in a table's rows.
pub(crate) fn check_names<'a>(
    report: &mut Report<'_>,
    rows: impl IntoIterator<Item = (usize, &'a str)>,
) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (row, name) in rows {
        if name.trim().is_empty() {
            report.add(row, "", "name", "a row needs a name");
            continue;
        }
        let key = name.to_lowercase();
        if let Some(first) = seen.get(&key) {
            report.add(
                row,
                name,
                "name",
                format!("{name:?} is already the name of row {first}"),
            );
        } else {
            seen.insert(key, row);
        }
    }
}

/// The six abilities, each 3 to 18 for a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ability {
    /// Strength: to-hit and damage in melee, how much can be carried.
    Str,
    /// Intelligence.
    Int,
    /// Wisdom.
    Wis,
    /// Dexterity: armour class, missiles, initiative.
    Dex,
    /// Constitution: hit points per level.
    Con,
    /// Charisma.
    Cha,
}

impl Ability {
    /// All six, in the usual order.
    pub const ALL: [Ability; 6] = [
        Ability::Str,
        Ability::Int,
        Ability::Wis,
        Ability::Dex,
        Ability::Con,
        Ability::Cha,
    ];

    /// The table's word for it.
    pub fn word(self) -> &'static str {
        match self {
            Ability::Str => "str",
            Ability::Int => "int",
            Ability::Wis => "wis",
            Ability::Dex => "dex",
            Ability::Con => "con",
            Ability::Cha => "cha",
        }
    }
}

/// The five kinds of saving throw, in the order a class's `saves` rows list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SaveKind {
    /// Paralysis, poison and death magic.
    Paralysis,
    /// Rods, staves and wands.
    Rod,
    /// Petrification and polymorph.
    Petrify,
    /// Breath weapons.
    Breath,
    /// Spells.
    Spell,
}

impl SaveKind {
    /// All five, in table order.
    pub const ALL: [SaveKind; 5] = [
        SaveKind::Paralysis,
        SaveKind::Rod,
        SaveKind::Petrify,
        SaveKind::Breath,
        SaveKind::Spell,
    ];

    /// Its place in a `saves` row.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How heavy an armour is; a class wears up to its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArmourWeight {
    /// No armour at all.
    None,
    /// Leather, padded, studded.
    Leather,
    /// Scale, chain, ring.
    Mail,
    /// Banded, splint, plate.
    Plate,
}

/// Where a caster's spells come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum School {
    /// Learnt from books; spoilt by armour heavier than the class allows.
    Arcane,
    /// Granted by prayer.
    Divine,
}

impl School {
    /// The table's word for it.
    pub fn word(self) -> &'static str {
        match self {
            School::Arcane => "arcane",
            School::Divine => "divine",
        }
    }
}

/// A class: hit dice, experience, fighting, saving throws, what it may wear and wield, and
/// spell slots. Every per-level list has one entry per level up to the class's cap.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    /// The class's name (`fighter`).
    pub name: String,
    /// Faces of the hit die rolled each level up to `hit_die_levels`.
    pub hit_die: u8,
    /// How many levels roll a hit die.
    pub hit_die_levels: u8,
    /// Hit points a level after those.
    pub hp_after: u8,
    /// Warriors get the full constitution bonus (above +2).
    #[serde(default)]
    pub warrior: bool,
    /// The least each ability may be for this class.
    #[serde(default)]
    pub minimum: BTreeMap<Ability, u8>,
    /// Experience to reach each level; the first is 0.
    pub xp: Vec<u32>,
    /// The roll needed to hit armour class 0, at each level.
    pub thac0: Vec<i32>,
    /// At each level, the five saving throws (paralysis, rod, petrify, breath, spell).
    pub saves: Vec<[i32; 5]>,
    /// The heaviest armour the class wears.
    pub armour: ArmourWeight,
    /// Whether it may carry a shield.
    #[serde(default)]
    pub shield: bool,
    /// The sorts of weapon it may use (`blade`, `blunt`...), or `any`.
    pub weapons: Vec<String>,
    /// Where its spells come from, if it casts.
    #[serde(default)]
    pub casts: Option<School>,
    /// At each level, the spells it may hold of each spell level (first entry: level 1).
    #[serde(default)]
    pub slots: Vec<Vec<u8>>,
}

impl Class {
    /// The highest level in the tables.
    pub fn cap(&self) -> u8 {
        self.xp.len() as u8
    }

    /// Whether this class may use a weapon of `sort`.
    pub fn wields(&self, sort: &str) -> bool {
        self.weapons
            .iter()
            .any(|w| w == "any" || w.eq_ignore_ascii_case(sort))
    }

    /// The row for `level` (1-based) of a per-level list, clamped into the table.
    pub fn at<T: Copy>(&self, list: &[T], level: u8) -> Option<T> {
        let i = (level.max(1) as usize - 1).min(list.len().checked_sub(1)?);
        list.get(i).copied()
    }
}

/// A race: ability adjustments, the classes (and multi-class combinations) open to it,
/// its movement and its level limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Race {
    /// The race's name.
    pub name: String,
    /// Added to the rolled abilities.
    #[serde(default)]
    pub adjust: BTreeMap<Ability, i8>,
    /// Classes open to it, multi-class ones written `fighter/mage`.
    pub classes: Vec<String>,
    /// Squares a round unencumbered, in half-squares (12 is six squares straight on).
    #[serde(default = "twelve", rename = "move")]
    pub move_rate: u8,
    /// Small, stout folk: a bonus on saves against poison, wands and spells from constitution.
    #[serde(default)]
    pub sturdy: bool,
    /// The highest level it may reach in a class, by class name (no entry: no limit).
    #[serde(default)]
    pub level_limits: BTreeMap<String, u8>,
}

fn twelve() -> u8 {
    12
}
fn one() -> u8 {
    1
}
fn one16() -> u16 {
    1
}

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    /// A weapon held in hand.
    Weapon,
    /// A bow or sling: shoots at range.
    Missile,
    /// Body armour.
    Armour,
    /// A shield.
    Shield,
    /// A ring or charm: armour class and saving throw bonus.
    Ring,
    /// Shots for a missile of its `sort` (arrows for a bow), sold `count` to a bundle.
    Ammo,
}

/// An item: its damage dice, bonus, armour, weight (in coins) and worth (in gold).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    /// The item's name.
    pub name: String,
    /// What it is.
    pub kind: ItemKind,
    /// Damage dice of a weapon or missile.
    #[serde(default)]
    pub damage: Option<Dice>,
    /// Magic: to hit and damage for a weapon, armour class for armour and shields.
    #[serde(default)]
    pub bonus: i8,
    /// Armour class it gives (armour, shield, ring).
    #[serde(default)]
    pub ac: i8,
    /// How heavy armour it is.
    #[serde(default)]
    pub armour: Option<ArmourWeight>,
    /// The weapon's sort, which classes may use it.
    #[serde(default)]
    pub sort: Option<String>,
    /// Weight, in coins (ten to a pound).
    #[serde(default)]
    pub weight: u32,
    /// Worth, in gold.
    #[serde(default)]
    pub value: u32,
    /// How far a melee weapon reaches, in squares (1 or 2).
    #[serde(default = "one")]
    pub reach: u8,
    /// How far a missile shoots, in squares.
    #[serde(default)]
    pub range: u8,
    /// Hands it takes (two-handed weapons and bows forbid a shield).
    #[serde(default = "one")]
    pub hands: u8,
    /// Bonus to every saving throw (rings).
    #[serde(default)]
    pub save: i8,
    /// Shots in a bundle of ammunition (1 for everything else).
    #[serde(default = "one16")]
    pub count: u16,
    /// A line about it.
    #[serde(default)]
    pub text: String,
}

/// The ground a spell covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// The one unit on the chosen square.
    Single,
    /// Every square within `size` of the chosen square that it can see.
    Radius,
    /// A straight line of `size` squares from the caster through the chosen square.
    Line,
    /// A widening wedge of `size` squares from the caster toward the chosen square.
    Cone,
}

/// What a spell does to each unit it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Effect {
    /// Hurts by `dice`.
    Damage,
    /// Heals by `dice` (wakes a downed member with hit points above 0).
    Heal,
    /// Puts to sleep up to `dice` hit dice of the weakest, none above `max_level`.
    Sleep,
    /// Holds still for `dice` rounds.
    Hold,
    /// Ends sleep and holding.
    Release,
}

/// How the dice grow with the caster's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// The dice as written.
    #[default]
    Flat,
    /// The dice once per caster level, up to `max_level`.
    PerLevel,
    /// One dart at level 1 and another every two levels, up to `max_level` levels.
    Darts,
}

/// What a saving throw does against a spell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SaveRule {
    /// No save.
    #[default]
    None,
    /// A save takes half the damage.
    Half,
    /// A save escapes it entirely.
    Negates,
}

/// A spell: school and level, reach and shape, what it does and what a save does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    /// The spell's name.
    pub name: String,
    /// Arcane or divine.
    pub school: School,
    /// Spell level, 1 to 9.
    pub level: u8,
    /// How far from the caster the chosen square may be (0: the caster or a neighbour).
    pub range: u8,
    /// The ground it covers.
    pub shape: Shape,
    /// Radius, line length or cone length; 0 for a single target.
    #[serde(default)]
    pub size: u8,
    /// What it does.
    pub effect: Effect,
    /// Damage, healing, hit dice put to sleep, or rounds held.
    pub dice: Dice,
    /// How the dice grow with the caster's level.
    #[serde(default)]
    pub scale: Scale,
    /// The level the growth stops at (Sleep: the highest level it affects); 0 for no cap.
    #[serde(default)]
    pub max_level: u8,
    /// What a save does.
    #[serde(default)]
    pub save: SaveRule,
    /// Which save, when there is one.
    #[serde(default)]
    pub save_vs: Option<SaveKind>,
    /// A line about it.
    #[serde(default)]
    pub text: String,
}

/// A monster's shot at range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterMissile {
    /// Damage a hit.
    pub damage: Dice,
    /// How far, in squares.
    pub range: u8,
}

/// A monster kind: hit dice, armour, attacks, morale, experience and treasure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Monster {
    /// The kind's name.
    pub name: String,
    /// Hit dice (d8 each); 0 for less than one.
    pub hd: u8,
    /// Added to the hit dice total (at least 1 hit point remains).
    #[serde(default)]
    pub hp_bonus: i8,
    /// Armour class (10 unarmoured, lower is better).
    pub ac: i8,
    /// Half-squares a round.
    #[serde(rename = "move")]
    pub move_rate: u8,
    /// Damage of each attack a round.
    pub attacks: Vec<Dice>,
    /// The roll needed to hit armour class 0; from the hit dice when left out.
    #[serde(default)]
    pub thac0: Option<i32>,
    /// Morale on 2d6: a roll above it breaks the monster (2 to 12; 12 never breaks).
    pub morale: u8,
    /// Experience for killing one.
    pub xp: u32,
    /// Gold it carries.
    #[serde(default)]
    pub treasure: Option<Dice>,
    /// Added to its initiative roll.
    #[serde(default)]
    pub initiative: i8,
    /// Undead: neither sleep nor holding touches it, and it never breaks.
    #[serde(default)]
    pub undead: bool,
    /// How far its attacks reach.
    #[serde(default = "one")]
    pub reach: u8,
    /// A shot at range, if it has one.
    #[serde(default)]
    pub missile: Option<MonsterMissile>,
    /// Spells it casts (each once a fight), at a level equal to its hit dice.
    #[serde(default)]
    pub spells: Vec<String>,
    /// The class whose saves it uses, at a level equal to its hit dice.
    #[serde(default = "fighter")]
    pub saves_as: String,
    /// Its picture on the sheet.
    #[serde(default)]
    pub art: String,
    /// A line about it.
    #[serde(default)]
    pub text: String,
}

fn fighter() -> String {
    "fighter".into()
}

impl Monster {
    /// The roll it needs to hit armour class 0.
    pub fn thac0(&self) -> i32 {
        self.thac0.unwrap_or(20 - self.hd as i32)
    }
}

/// Checks one class row.
pub(crate) fn check_class(r: &mut Report<'_>, row: usize, c: &Class) {
    let n = &c.name;
    if ![4, 6, 8, 10, 12].contains(&c.hit_die) {
        r.add(
            row,
            n,
            "hit_die",
            format!("{} is not a die of 4, 6, 8, 10 or 12 faces", c.hit_die),
        );
    }
    if c.xp.is_empty() {
        r.add(row, n, "xp", "a class needs at least one level");
        return;
    }
    if c.xp[0] != 0 {
        r.add(
            row,
            n,
            "xp[0]",
            format!("level 1 starts at 0 experience, not {}", c.xp[0]),
        );
    }
    for (i, pair) in c.xp.windows(2).enumerate() {
        if pair[1] <= pair[0] {
            r.add(
                row,
                n,
                &format!("xp[{}]", i + 1),
                format!(
                    "{} is not more than the level before ({})",
                    pair[1], pair[0]
                ),
            );
        }
    }
    if c.hit_die_levels == 0 || c.hit_die_levels > c.cap() {
        r.add(
            row,
            n,
            "hit_die_levels",
            format!(
                "{} is not a level of the class (1 to {})",
                c.hit_die_levels,
                c.cap()
            ),
        );
    }
    let levels = c.xp.len();
    if c.thac0.len() != levels {
        r.add(
            row,
            n,
            "thac0",
            format!("has {} levels but xp has {levels}", c.thac0.len()),
        );
    }
    for (i, t) in c.thac0.iter().enumerate() {
        if !(1..=20).contains(t) {
            r.add(
                row,
                n,
                &format!("thac0[{i}]"),
                format!("{t} is not 1 to 20"),
            );
        }
    }
    if c.saves.len() != levels {
        r.add(
            row,
            n,
            "saves",
            format!("has {} levels but xp has {levels}", c.saves.len()),
        );
    }
    for (i, s) in c.saves.iter().enumerate() {
        for (k, v) in s.iter().enumerate() {
            if !(2..=20).contains(v) {
                r.add(
                    row,
                    n,
                    &format!("saves[{i}][{k}]"),
                    format!("{v} is not 2 to 20"),
                );
            }
        }
    }
    for (a, v) in &c.minimum {
        if !(3..=18).contains(v) {
            r.add(
                row,
                n,
                &format!("minimum.{}", a.word()),
                format!("{v} is not 3 to 18"),
            );
        }
    }
    if c.weapons.is_empty() {
        r.add(
            row,
            n,
            "weapons",
            "a class needs a weapon sort it may use, or \"any\"",
        );
    }
    match c.casts {
        Some(_) if c.slots.len() != levels => r.add(
            row,
            n,
            "slots",
            format!(
                "a caster needs slots for each of its {levels} levels, has {}",
                c.slots.len()
            ),
        ),
        None if !c.slots.is_empty() => r.add(
            row,
            n,
            "slots",
            "a class that does not cast has no spell slots",
        ),
        _ => {}
    }
    for (i, s) in c.slots.iter().enumerate() {
        if s.len() > 9 {
            r.add(row, n, &format!("slots[{i}]"), "spells go up to level 9");
        }
    }
}

/// Checks one race row against the classes.
pub(crate) fn check_race(r: &mut Report<'_>, row: usize, race: &Race, classes: &[Class]) {
    let n = &race.name;
    let known = |c: &str| classes.iter().any(|k| k.name.eq_ignore_ascii_case(c));
    for (i, combo) in race.classes.iter().enumerate() {
        let parts: Vec<&str> = combo.split('/').collect();
        for part in &parts {
            if !known(part) {
                r.add(
                    row,
                    n,
                    &format!("classes[{i}]"),
                    format!("{part:?} is not in the classes table"),
                );
            }
        }
        let unique: BTreeSet<String> = parts.iter().map(|p| p.to_lowercase()).collect();
        if unique.len() != parts.len() || parts.len() > 3 {
            r.add(
                row,
                n,
                &format!("classes[{i}]"),
                format!("{combo:?} must name one to three different classes"),
            );
        }
    }
    for (a, v) in &race.adjust {
        if !(-2..=2).contains(v) {
            r.add(
                row,
                n,
                &format!("adjust.{}", a.word()),
                format!("{v} is not -2 to 2"),
            );
        }
    }
    for (class, limit) in &race.level_limits {
        if !known(class) {
            r.add(
                row,
                n,
                &format!("level_limits.{class}"),
                format!("{class:?} is not in the classes table"),
            );
        } else if *limit == 0 {
            r.add(
                row,
                n,
                &format!("level_limits.{class}"),
                "a limit is at least level 1",
            );
        }
    }
    if race.move_rate == 0 || race.move_rate > 24 {
        r.add(row, n, "move", format!("{} is not 1 to 24", race.move_rate));
    }
}

/// Checks one item row.
pub(crate) fn check_item(r: &mut Report<'_>, row: usize, it: &Item) {
    let n = &it.name;
    let armed = matches!(it.kind, ItemKind::Weapon | ItemKind::Missile);
    if it.kind == ItemKind::Ammo {
        if it.sort.as_deref().is_none_or(|s| s.trim().is_empty()) {
            r.add(
                row,
                n,
                "sort",
                "ammunition needs the sort of missile it is shot from (bow, sling...)",
            );
        }
        if !(1..=100).contains(&it.count) {
            r.add(
                row,
                n,
                "count",
                format!("{} is not 1 to 100 shots", it.count),
            );
        }
    } else if it.count != 1 {
        r.add(row, n, "count", "only ammunition comes in bundles");
    }
    if armed && it.damage.is_none() {
        r.add(row, n, "damage", "a weapon needs damage dice");
    }
    if armed && it.sort.as_deref().is_none_or(|s| s.trim().is_empty()) {
        r.add(
            row,
            n,
            "sort",
            "a weapon needs a sort (blade, blunt, bow...) for class limits",
        );
    }
    if !armed && it.damage.is_some() {
        r.add(row, n, "damage", "only weapons have damage dice");
    }
    if it.kind == ItemKind::Missile && !(2..=30).contains(&it.range) {
        r.add(
            row,
            n,
            "range",
            format!("{} is not 2 to 30 squares", it.range),
        );
    }
    if it.kind != ItemKind::Missile && it.range != 0 {
        r.add(row, n, "range", "only missiles shoot at range");
    }
    if !(1..=2).contains(&it.reach) {
        r.add(
            row,
            n,
            "reach",
            format!("{} is not 1 or 2 squares", it.reach),
        );
    }
    if !(1..=2).contains(&it.hands) {
        r.add(row, n, "hands", format!("{} is not 1 or 2", it.hands));
    }
    if !(-5..=5).contains(&it.bonus) {
        r.add(row, n, "bonus", format!("{} is not -5 to 5", it.bonus));
    }
    match it.kind {
        ItemKind::Armour => {
            if it.armour.is_none() {
                r.add(
                    row,
                    n,
                    "armour",
                    "armour needs its weight: leather, mail or plate",
                );
            }
            if !(1..=9).contains(&it.ac) {
                r.add(row, n, "ac", format!("{} is not 1 to 9", it.ac));
            }
        }
        ItemKind::Shield if !(1..=3).contains(&it.ac) => {
            r.add(row, n, "ac", format!("{} is not 1 to 3", it.ac));
        }
        _ => {}
    }
}

/// Checks one spell row.
pub(crate) fn check_spell(r: &mut Report<'_>, row: usize, s: &Spell) {
    let n = &s.name;
    if !(1..=9).contains(&s.level) {
        r.add(row, n, "level", format!("{} is not 1 to 9", s.level));
    }
    match s.shape {
        Shape::Single if s.size != 0 => r.add(row, n, "size", "a single-target spell has no size"),
        Shape::Radius | Shape::Line | Shape::Cone if !(1..=12).contains(&s.size) => {
            r.add(row, n, "size", format!("{} is not 1 to 12 squares", s.size))
        }
        _ => {}
    }
    if s.range > 30 {
        r.add(
            row,
            n,
            "range",
            format!("{} is more than 30 squares", s.range),
        );
    }
    if matches!(s.shape, Shape::Line | Shape::Cone) && s.range != 0 {
        r.add(
            row,
            n,
            "range",
            "a line or a cone starts at the caster: its range is 0",
        );
    }
    if s.save != SaveRule::None && s.save_vs.is_none() {
        r.add(row, n, "save_vs", "a spell with a save must say which save");
    }
    if s.save == SaveRule::Half && s.effect != Effect::Damage {
        r.add(row, n, "save", "only damage can be halved");
    }
    if s.dice.max() <= 0 && s.effect != Effect::Release {
        r.add(
            row,
            n,
            "dice",
            format!("{} can never come to more than 0", s.dice),
        );
    }
    if s.effect == Effect::Sleep && s.max_level == 0 {
        r.add(
            row,
            n,
            "max_level",
            "sleep needs the highest level it affects",
        );
    }
}

/// Checks one monster row against the classes and spells.
pub(crate) fn check_monster(
    r: &mut Report<'_>,
    row: usize,
    m: &Monster,
    classes: &[Class],
    spells: &[Spell],
) {
    let n = &m.name;
    if m.hd > 20 {
        r.add(row, n, "hd", format!("{} is more than 20", m.hd));
    }
    if !(-10..=10).contains(&m.ac) {
        r.add(row, n, "ac", format!("{} is not -10 to 10", m.ac));
    }
    if m.move_rate == 0 || m.move_rate > 30 {
        r.add(row, n, "move", format!("{} is not 1 to 30", m.move_rate));
    }
    if m.attacks.is_empty() && m.missile.is_none() && m.spells.is_empty() {
        r.add(
            row,
            n,
            "attacks",
            "a monster needs an attack, a missile or a spell",
        );
    }
    if m.attacks.len() > 4 {
        r.add(row, n, "attacks", "at most 4 attacks a round");
    }
    if !(2..=12).contains(&m.morale) {
        r.add(
            row,
            n,
            "morale",
            format!("{} is not 2 to 12 (a roll on 2d6)", m.morale),
        );
    }
    if let Some(t) = m.thac0
        && !(1..=20).contains(&t)
    {
        r.add(row, n, "thac0", format!("{t} is not 1 to 20"));
    }
    if !(1..=2).contains(&m.reach) {
        r.add(
            row,
            n,
            "reach",
            format!("{} is not 1 or 2 squares", m.reach),
        );
    }
    if let Some(missile) = &m.missile
        && !(2..=30).contains(&missile.range)
    {
        r.add(
            row,
            n,
            "missile.range",
            format!("{} is not 2 to 30 squares", missile.range),
        );
    }
    if !classes
        .iter()
        .any(|c| c.name.eq_ignore_ascii_case(&m.saves_as))
    {
        r.add(
            row,
            n,
            "saves_as",
            format!("{:?} is not in the classes table", m.saves_as),
        );
    }
    for (i, s) in m.spells.iter().enumerate() {
        if !spells.iter().any(|k| k.name.eq_ignore_ascii_case(s)) {
            r.add(
                row,
                n,
                &format!("spells[{i}]"),
                format!("{s:?} is not in the spells table"),
            );
        }
    }
}
