//! Characters: abilities, race, one to three classes, what they carry and the spells they hold,
//! and everything worked out from them (armour class, THAC0, saves, movement). A multi-class
//! character splits its experience evenly, fights and saves with its best class, and wears
//! what its most lenient class allows, but an arcane spell still fails in heavy armour.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::dice::Roller;
use super::tables::{
    Ability, ArmourWeight, Class, Item, ItemKind, Problem, Report, SaveKind, School, Source,
    check_names, read_rows,
};
use super::{Rules, con_hp, dex_ac, dex_missile, str_damage, str_to_hit, sturdy_save};

/// The six abilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Abilities {
    /// Strength.
    #[serde(rename = "str")]
    pub strength: u8,
    /// Intelligence.
    #[serde(rename = "int")]
    pub intelligence: u8,
    /// Wisdom.
    #[serde(rename = "wis")]
    pub wisdom: u8,
    /// Dexterity.
    #[serde(rename = "dex")]
    pub dexterity: u8,
    /// Constitution.
    #[serde(rename = "con")]
    pub constitution: u8,
    /// Charisma.
    #[serde(rename = "cha")]
    pub charisma: u8,
}

impl Abilities {
    /// One ability's score.
    pub fn get(&self, a: Ability) -> u8 {
        match a {
            Ability::Str => self.strength,
            Ability::Int => self.intelligence,
            Ability::Wis => self.wisdom,
            Ability::Dex => self.dexterity,
            Ability::Con => self.constitution,
            Ability::Cha => self.charisma,
        }
    }

    fn set(&mut self, a: Ability, v: u8) {
        match a {
            Ability::Str => self.strength = v,
            Ability::Int => self.intelligence = v,
            Ability::Wis => self.wisdom = v,
            Ability::Dex => self.dexterity = v,
            Ability::Con => self.constitution = v,
            Ability::Cha => self.charisma = v,
        }
    }
}

/// One of a character's classes and how far along it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassLevel {
    /// The class's name.
    pub class: String,
    /// Its level.
    pub level: u8,
    /// Experience in it.
    pub xp: u32,
}

/// A spell held in memory, and whether it has been cast since the last rest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memorised {
    /// The spell's name.
    pub spell: String,
    /// Cast already; a rest restores it.
    pub used: bool,
}

/// A level gained.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelUp {
    /// The class.
    pub class: String,
    /// The new level.
    pub level: u8,
    /// Hit points gained.
    pub hp: i32,
}

/// A member of the party.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Character {
    /// The name.
    pub name: String,
    /// The race.
    pub race: String,
    /// One to three classes.
    pub classes: Vec<ClassLevel>,
    /// Abilities, with the race's adjustments made.
    pub abilities: Abilities,
    /// Hit points now.
    pub hp: i32,
    /// Hit points when whole.
    pub max_hp: i32,
    /// What it carries; the first weapon, missile, armour, shield and ring are in use.
    pub items: Vec<String>,
    /// Spells held.
    pub memorised: Vec<Memorised>,
    /// Shots carried, by the sort of missile they are shot from (`bow`: arrows).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ammo: BTreeMap<String, u32>,
}

impl Character {
    /// The most things one character carries.
    pub const MAX_ITEMS: usize = 16;
    /// The most shots of one sort it carries.
    pub const MAX_SHOTS: u32 = 99;

    fn first(&self, rules: &Rules, kind: ItemKind) -> Option<Item> {
        self.items
            .iter()
            .filter_map(|n| rules.item(n))
            .find(|i| i.kind == kind)
            .cloned()
    }

    /// The weapon in hand.
    pub fn weapon(&self, rules: &Rules) -> Option<Item> {
        self.first(rules, ItemKind::Weapon)
    }
    /// The bow or sling carried.
    pub fn missile(&self, rules: &Rules) -> Option<Item> {
        self.first(rules, ItemKind::Missile)
    }
    /// The armour worn.
    pub fn armour(&self, rules: &Rules) -> Option<Item> {
        self.first(rules, ItemKind::Armour)
    }

    /// The highest level among its classes.
    pub fn level(&self) -> u8 {
        self.classes.iter().map(|c| c.level).max().unwrap_or(1)
    }

    /// Its level in the classes of a school (for a spell's power), if it casts that school.
    pub fn caster_level(&self, rules: &Rules, school: School) -> Option<u8> {
        self.classes
            .iter()
            .filter(|c| rules.class(&c.class).and_then(|k| k.casts) == Some(school))
            .map(|c| c.level)
            .max()
    }

    /// Armour class: 10, less armour, shield, ring and their magic, adjusted by dexterity.
    pub fn armour_class(&self, rules: &Rules) -> i32 {
        let mut ac = 10 + dex_ac(self.abilities.dexterity);
        for kind in [ItemKind::Armour, ItemKind::Shield, ItemKind::Ring] {
            if let Some(it) = self.first(rules, kind) {
                ac -= it.ac as i32;
                if kind != ItemKind::Ring {
                    ac -= it.bonus as i32;
                }
            }
        }
        ac
    }

    /// The roll it needs to hit armour class 0: its best class's.
    pub fn thac0(&self, rules: &Rules) -> i32 {
        self.classes
            .iter()
            .filter_map(|c| {
                let k = rules.class(&c.class)?;
                k.at(&k.thac0, c.level)
            })
            .min()
            .unwrap_or(20)
    }

    /// The roll it needs on a d20 to save: its best class's, less a ring's and a sturdy
    /// race's bonus.
    pub fn save(&self, rules: &Rules, kind: SaveKind) -> i32 {
        let base = self
            .classes
            .iter()
            .filter_map(|c| {
                let k = rules.class(&c.class)?;
                Some(k.at(&k.saves, c.level)?[kind.index()])
            })
            .min()
            .unwrap_or(20);
        let ring = self
            .first(rules, ItemKind::Ring)
            .map_or(0, |r| r.save as i32);
        let sturdy = match rules.race(&self.race) {
            Some(r) if r.sturdy && kind != SaveKind::Breath && kind != SaveKind::Petrify => {
                sturdy_save(self.abilities.constitution)
            }
            _ => 0,
        };
        base - ring - sturdy
    }

    /// Melee: to-hit bonus and damage bonus (strength and the weapon's magic).
    pub fn melee_bonus(&self, rules: &Rules) -> (i32, i32) {
        let magic = self.weapon(rules).map_or(0, |w| w.bonus as i32);
        (
            str_to_hit(self.abilities.strength) + magic,
            str_damage(self.abilities.strength) + magic,
        )
    }

    /// Missiles: to-hit bonus (dexterity and magic) and damage bonus (magic).
    pub fn missile_bonus(&self, rules: &Rules) -> (i32, i32) {
        let magic = self.missile(rules).map_or(0, |w| w.bonus as i32);
        (dex_missile(self.abilities.dexterity) + magic, magic)
    }

    /// Weight carried, in coins: the items, and the shots at their bundle's weight.
    pub fn load(&self, rules: &Rules) -> u32 {
        let items: u32 = self
            .items
            .iter()
            .filter_map(|n| rules.item(n))
            .map(|i| i.weight)
            .sum();
        let shots: u32 = self
            .ammo
            .iter()
            .filter_map(|(sort, n)| {
                let a = rules.ammo_for(sort)?;
                Some((n.saturating_mul(a.weight)).div_ceil(a.count.max(1) as u32))
            })
            .sum();
        items.saturating_add(shots)
    }

    /// Shots left for the missile in use, or `None` when it needs none (no missile, or the
    /// tables sell nothing for it to shoot).
    pub fn shots(&self, rules: &Rules) -> Option<u32> {
        let sort = self.missile(rules)?.sort?;
        rules.ammo_for(&sort)?;
        Some(self.ammo.get(&sort).copied().unwrap_or(0))
    }

    /// What it can carry at full speed, in coins: 35 a point of strength.
    pub fn allowance(&self) -> u32 {
        35 * self.abilities.strength as u32
    }

    /// Half-squares a round: the race's rate, a quarter less for each 350 coins over the
    /// allowance; 0 when overloaded.
    pub fn move_rate(&self, rules: &Rules) -> u8 {
        let base = rules.race(&self.race).map_or(12, |r| r.move_rate) as u32;
        let over = self.load(rules).saturating_sub(self.allowance());
        let quarters = over.div_ceil(350).min(4);
        (base * (4 - quarters) / 4) as u8
    }

    /// Spells of each level it may hold, for one school (index 0 is level 1).
    pub fn slots(&self, rules: &Rules, school: School) -> Vec<u8> {
        let mut out: Vec<u8> = Vec::new();
        for c in &self.classes {
            let Some(k) = rules.class(&c.class) else {
                continue;
            };
            if k.casts != Some(school) || k.slots.is_empty() {
                continue;
            }
            let i = (c.level as usize).clamp(1, k.slots.len()) - 1;
            for (l, n) in k.slots[i].iter().enumerate() {
                if out.len() <= l {
                    out.resize(l + 1, 0);
                }
                out[l] = out[l].max(*n);
            }
        }
        out
    }

    /// Why it cannot cast `spell` now, or `None` when it can.
    pub fn cannot_cast(&self, rules: &Rules, spell: &str) -> Option<String> {
        let Some(s) = rules.spell(spell) else {
            return Some(format!("there is no spell {spell:?}"));
        };
        if !self
            .memorised
            .iter()
            .any(|m| !m.used && m.spell.eq_ignore_ascii_case(&s.name))
        {
            return Some(format!("{} holds no unspent {:?}", self.name, s.name));
        }
        if s.school == School::Arcane && !self.arcane_armour_ok(rules) {
            return Some(format!(
                "{} cannot cast arcane spells in that armour",
                self.name
            ));
        }
        None
    }

    /// Whether the armour worn lets it cast arcane spells: no heavier than its arcane class
    /// allows (a fighter/mage in mail fights well and casts nothing).
    pub fn arcane_armour_ok(&self, rules: &Rules) -> bool {
        let worn = self.armour(rules).and_then(|a| a.armour);
        let allowed = self
            .classes
            .iter()
            .filter_map(|c| rules.class(&c.class))
            .filter(|k| k.casts == Some(School::Arcane))
            .map(|k| k.armour)
            .max();
        match (worn, allowed) {
            (Some(worn), Some(allowed)) => worn <= allowed,
            _ => true,
        }
    }

    /// Why no class of it may use `item` (the weapon's sort, the armour's weight, a shield),
    /// or `None` when one may.
    pub fn cannot_use(&self, rules: &Rules, item: &Item) -> Option<String> {
        let classes: Vec<Class> = self
            .classes
            .iter()
            .filter_map(|c| rules.class(&c.class).cloned())
            .collect();
        class_bars(&self.name, &classes, item)
    }

    /// Takes `item` into its pack and readies it (the first of its kind, so in use), as a
    /// shop's sale does. Refused in words, changing nothing: an item the tables lack, one no
    /// class of it may use, a shield beside a two-handed weapon (or the other way round), a
    /// full pack, or a load it could not move under.
    pub fn take_up(&mut self, rules: &Rules, item: &str) -> Result<(), String> {
        let it = rules
            .item(item)
            .ok_or_else(|| format!("{item:?} is not in the items table"))?;
        if it.kind == ItemKind::Ammo {
            return self.take_shots(rules, it);
        }
        if self.items.len() >= Character::MAX_ITEMS {
            return Err(format!(
                "{} carries {} things already and has no room for {}",
                self.name,
                self.items.len(),
                it.name
            ));
        }
        let mut next = self.clone();
        next.items.push(it.name.clone());
        let at = next.items.len() - 1;
        next.ready_at(rules, at)?;
        self.settle(rules, it, next)
    }

    /// Takes `next` (this member with `it` added) as this member, unless the load would stop
    /// them: refused in words then, changing nothing.
    fn settle(&mut self, rules: &Rules, it: &Item, next: Character) -> Result<(), String> {
        if next.move_rate(rules) == 0 {
            return Err(format!(
                "{} cannot carry {} too: {} coins' weight would stop them (strength {} carries {} at full speed)",
                self.name,
                it.name,
                next.load(rules),
                self.abilities.strength,
                self.allowance()
            ));
        }
        *self = next;
        Ok(())
    }

    /// A bundle of ammunition into the quiver or pouch: its shots added to those of its sort.
    fn take_shots(&mut self, rules: &Rules, it: &Item) -> Result<(), String> {
        if let Some(why) = self.cannot_use(rules, it) {
            return Err(why);
        }
        let sort = it.sort.clone().unwrap_or_default();
        let mut next = self.clone();
        let held = next.ammo.entry(sort).or_insert(0);
        if *held + it.count as u32 > Character::MAX_SHOTS {
            return Err(format!(
                "{} carries {} {} already; {} more would be over {}",
                self.name,
                held,
                it.name,
                it.count,
                Character::MAX_SHOTS
            ));
        }
        *held += it.count as u32;
        self.settle(rules, it, next)
    }

    /// Readies an item it carries: puts it first of its kind, so it is the one in use.
    /// Refused in words, changing nothing, for an item it does not carry, one no class of it
    /// may use, or a shield beside a two-handed weapon (or the other way round).
    pub fn ready(&mut self, rules: &Rules, item: &str) -> Result<(), String> {
        let at = self
            .items
            .iter()
            .position(|i| i.eq_ignore_ascii_case(item))
            .ok_or_else(|| format!("{} carries no {item}", self.name))?;
        let mut next = self.clone();
        next.ready_at(rules, at)?;
        *self = next;
        Ok(())
    }

    /// Puts the item at `at` of the pack first of its kind, after the checks of [`ready`].
    fn ready_at(&mut self, rules: &Rules, at: usize) -> Result<(), String> {
        let it = rules
            .item(&self.items[at])
            .cloned()
            .ok_or_else(|| format!("{:?} is not in the items table", self.items[at]))?;
        if let Some(why) = self.cannot_use(rules, &it) {
            return Err(why);
        }
        let name = self.items.remove(at);
        let first = self
            .items
            .iter()
            .position(|n| rules.item(n).is_some_and(|i| i.kind == it.kind))
            .unwrap_or(self.items.len());
        self.items.insert(first, name);
        let two_hands = self.weapon(rules).is_some_and(|w| w.hands >= 2);
        if two_hands && self.first(rules, ItemKind::Shield).is_some() {
            let weapon = self.weapon(rules).map(|w| w.name).unwrap_or_default();
            return Err(format!(
                "{} cannot hold the {weapon} (two hands) and a shield at once: sell the one or the other first",
                self.name
            ));
        }
        Ok(())
    }

    /// Gives up one carried `item` (a spare before the one in use, so selling a second sword
    /// keeps the first in hand; for ammunition, one whole bundle of shots). Refused in words
    /// when it carries none (or less than a bundle).
    pub fn put_down(&mut self, rules: &Rules, item: &str) -> Result<String, String> {
        if let Some(it) = rules.item(item).filter(|i| i.kind == ItemKind::Ammo) {
            let sort = it.sort.clone().unwrap_or_default();
            let held = self.ammo.get(&sort).copied().unwrap_or(0);
            if held < it.count as u32 {
                return Err(format!(
                    "{} has {held} {} left, less than a bundle of {}",
                    self.name, it.name, it.count
                ));
            }
            let left = held - it.count as u32;
            if left == 0 {
                self.ammo.remove(&sort);
            } else {
                self.ammo.insert(sort, left);
            }
            return Ok(it.name.clone());
        }
        let at = self
            .items
            .iter()
            .rposition(|i| i.eq_ignore_ascii_case(item))
            .ok_or_else(|| format!("{} carries no {item}", self.name))?;
        Ok(self.items.remove(at))
    }

    /// Marks one held copy of `spell` spent.
    pub fn spend(&mut self, spell: &str) {
        if let Some(m) = self
            .memorised
            .iter_mut()
            .find(|m| !m.used && m.spell.eq_ignore_ascii_case(spell))
        {
            m.used = true;
        }
    }

    /// A night's rest: every held spell is back, and one hit point a level of the best class
    /// returns (a downed member wakes only with more than 0).
    pub fn rest(&mut self) {
        for m in &mut self.memorised {
            m.used = false;
        }
        if self.hp > -10 {
            self.hp = (self.hp + self.level() as i32).min(self.max_hp);
        }
    }

    /// Memorises `spells` in place of what it held, all unspent, as its spell slots allow
    /// (the same checks as the party table's `spells`). Refused in words, changing nothing,
    /// for a spell the tables lack or one more than the slots of its level hold.
    pub fn memorise(&mut self, rules: &Rules, spells: &[String]) -> Result<(), String> {
        let mut held: Vec<(School, u8)> = Vec::new();
        let mut memorised = Vec::new();
        let n = &self.name;
        for s in spells {
            let spell = rules
                .spell(s)
                .ok_or_else(|| format!("{s:?} is not in the spells table"))?;
            let have = self
                .slots(rules, spell.school)
                .get(spell.level as usize - 1)
                .copied()
                .unwrap_or(0);
            let used = held
                .iter()
                .filter(|h| **h == (spell.school, spell.level))
                .count() as u8;
            if have == 0 {
                return Err(format!(
                    "{n} cannot hold {:?}: no {} slots of level {}",
                    spell.name,
                    spell.school.word(),
                    spell.level
                ));
            }
            if used >= have {
                return Err(format!(
                    "{n} holds only {have} spells of level {}; {:?} is one too many",
                    spell.level, spell.name
                ));
            }
            held.push((spell.school, spell.level));
            memorised.push(Memorised {
                spell: spell.name.clone(),
                used: false,
            });
        }
        self.memorised = memorised;
        Ok(())
    }

    /// Gives experience, split evenly over its classes, and raises each class as far as it
    /// reaches (no further than the class's table or the race's limit). New hit points are
    /// rolled from `roller`, shared by the classes.
    pub fn gain_xp(&mut self, rules: &Rules, amount: u32, roller: &mut Roller) -> Vec<LevelUp> {
        let n = self.classes.len().max(1) as u32;
        let share = amount / n;
        let mut ups = Vec::new();
        let race = rules.race(&self.race).cloned();
        for c in &mut self.classes {
            let Some(k) = rules.class(&c.class) else {
                continue;
            };
            c.xp = c.xp.saturating_add(share);
            let limit = race
                .as_ref()
                .and_then(|r| r.level_limits.get(&k.name).copied())
                .unwrap_or(u8::MAX)
                .min(k.cap());
            while c.level < limit && c.xp >= k.xp[c.level as usize] {
                c.level += 1;
                let gain = if c.level <= k.hit_die_levels {
                    (roller.die(k.hit_die) + con_hp(self.abilities.constitution, k.warrior)).max(1)
                } else {
                    k.hp_after as i32
                };
                // A multi-class character's hit points are the average of its classes'.
                let gain = (gain as u32).div_ceil(n) as i32;
                ups.push(LevelUp {
                    class: k.name.clone(),
                    level: c.level,
                    hp: gain,
                });
            }
        }
        for up in &ups {
            self.max_hp += up.hp;
            if self.hp > 0 {
                self.hp += up.hp;
            }
        }
        ups
    }

    /// Hit points when whole for a new character at its levels: the first hit die in full,
    /// the average after, constitution each level, averaged over the classes.
    pub fn starting_hp(&self, rules: &Rules) -> i32 {
        let n = self.classes.len().max(1) as i32;
        let mut total = 0;
        for c in &self.classes {
            let Some(k) = rules.class(&c.class) else {
                continue;
            };
            let con = con_hp(self.abilities.constitution, k.warrior);
            for level in 1..=c.level {
                total += if level == 1 {
                    (k.hit_die as i32 + con).max(1)
                } else if level <= k.hit_die_levels {
                    ((k.hit_die as i32 + 2) / 2 + con).max(1)
                } else {
                    k.hp_after as i32
                };
            }
        }
        (total + n - 1) / n
    }
}

/// Why no class among `classes` lets `who` use `it` (a weapon's or missile's sort, armour
/// heavier than every class wears, a shield no class carries), or `None` when one does.
fn class_bars(who: &str, classes: &[Class], it: &Item) -> Option<String> {
    if classes.is_empty() {
        return None;
    }
    match it.kind {
        ItemKind::Weapon | ItemKind::Missile | ItemKind::Ammo => {
            let sort = it.sort.as_deref().unwrap_or_default();
            (!classes.iter().any(|k| k.wields(sort)))
                .then(|| format!("no class of {who} may use a {sort} weapon ({})", it.name))
        }
        ItemKind::Armour => {
            let weight = it.armour.unwrap_or(ArmourWeight::Plate);
            let most = classes.iter().map(|k| k.armour).max();
            most.is_some_and(|most| weight > most)
                .then(|| format!("no class of {who} may wear {}", it.name))
        }
        ItemKind::Shield => (!classes.iter().any(|k| k.shield))
            .then(|| format!("no class of {who} may carry a shield")),
        ItemKind::Ring => None,
    }
}

/// One row of the party table, as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct MemberRow {
    name: String,
    race: String,
    classes: Vec<String>,
    #[serde(default)]
    levels: Vec<u8>,
    abilities: Abilities,
    #[serde(default)]
    hp: Option<i32>,
    #[serde(default)]
    items: Vec<String>,
    #[serde(default)]
    spells: Vec<String>,
}

/// The party: up to six characters, in marching order (the first three fight in front).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Party {
    /// The members.
    pub members: Vec<Character>,
}

impl Party {
    /// The most a party holds.
    pub const MAX: usize = 6;

    /// Reads and checks a party table against the rules: known race, classes the race may
    /// take together, abilities in range and at the classes' minimums, levels within limits,
    /// known items the classes may use, a load that still moves, and spells the members may
    /// hold. Every problem is reported, with its row and field.
    pub fn from_json(rules: &Rules, src: Source<'_>) -> Result<Party, super::TableError> {
        let mut problems: Vec<Problem> = Vec::new();
        let rows: Vec<(usize, MemberRow)> = read_rows(src, &mut problems);
        let mut r = Report {
            file: src.file.to_string(),
            problems: &mut problems,
        };
        check_names(&mut r, rows.iter().map(|(i, m)| (*i, m.name.as_str())));
        if rows.len() > Party::MAX {
            r.add(
                0,
                "",
                "",
                format!(
                    "a party has at most {} members, this one {}",
                    Party::MAX,
                    rows.len()
                ),
            );
        }
        let mut members = Vec::new();
        for (row, m) in &rows {
            if let Some(c) = member(rules, &mut r, *row, m) {
                members.push(c);
            }
        }
        if !problems.is_empty() {
            return Err(super::TableError { problems });
        }
        Ok(Party { members })
    }
}

/// Builds one member, or reports why not.
fn member(rules: &Rules, r: &mut Report<'_>, row: usize, m: &MemberRow) -> Option<Character> {
    let n = m.name.as_str();
    let before = r.problems.len();
    let race = rules.race(&m.race);
    if race.is_none() {
        r.add(
            row,
            n,
            "race",
            format!("{:?} is not in the races table", m.race),
        );
    }
    if m.classes.is_empty() || m.classes.len() > 3 {
        r.add(row, n, "classes", "a character has one to three classes");
    }
    let mut classes = Vec::new();
    for (i, c) in m.classes.iter().enumerate() {
        match rules.class(c) {
            Some(k) => classes.push(k.clone()),
            None => r.add(
                row,
                n,
                &format!("classes[{i}]"),
                format!("{c:?} is not in the classes table"),
            ),
        }
    }
    if let Some(race) = race
        && classes.len() == m.classes.len()
        && !m.classes.is_empty()
    {
        let combo = m.classes.join("/");
        let open = race.classes.iter().any(|c| {
            let mut a: Vec<String> = c.split('/').map(str::to_lowercase).collect();
            let mut b: Vec<String> = m.classes.iter().map(|s| s.to_lowercase()).collect();
            a.sort();
            b.sort();
            a == b
        });
        if !open {
            r.add(
                row,
                n,
                "classes",
                format!("a {} cannot be a {combo}", race.name),
            );
        }
    }
    let mut abilities = m.abilities;
    for a in Ability::ALL {
        let v = m.abilities.get(a);
        if !(3..=18).contains(&v) {
            r.add(
                row,
                n,
                &format!("abilities.{}", a.word()),
                format!("{v} is not 3 to 18"),
            );
        }
        let adj = race.and_then(|r| r.adjust.get(&a)).copied().unwrap_or(0);
        abilities.set(a, (v as i32 + adj as i32).clamp(3, 19) as u8);
    }
    for k in &classes {
        for (a, min) in &k.minimum {
            if abilities.get(*a) < *min {
                r.add(
                    row,
                    n,
                    &format!("abilities.{}", a.word()),
                    format!(
                        "a {} needs {} {min}, this one has {}",
                        k.name,
                        a.word(),
                        abilities.get(*a)
                    ),
                );
            }
        }
    }
    let levels: Vec<u8> = if m.levels.is_empty() {
        vec![1; classes.len()]
    } else {
        m.levels.clone()
    };
    if levels.len() != m.classes.len() {
        r.add(
            row,
            n,
            "levels",
            format!("{} levels for {} classes", levels.len(), m.classes.len()),
        );
    }
    let mut class_levels = Vec::new();
    for (i, (k, level)) in classes.iter().zip(&levels).enumerate() {
        let limit = race
            .and_then(|r| r.level_limits.get(&k.name).copied())
            .unwrap_or(u8::MAX)
            .min(k.cap());
        if *level == 0 || *level > limit {
            r.add(
                row,
                n,
                &format!("levels[{i}]"),
                format!("{level} is not a level a {} may be (1 to {limit})", k.name),
            );
        }
        let lv = (*level).clamp(1, k.cap());
        class_levels.push(ClassLevel {
            class: k.name.clone(),
            level: lv,
            xp: k.xp[lv as usize - 1],
        });
    }
    let mut kinds_seen: Vec<ItemKind> = Vec::new();
    let mut hands = 0;
    let mut ammo: BTreeMap<String, u32> = BTreeMap::new();
    for (i, name) in m.items.iter().enumerate() {
        let field = format!("items[{i}]");
        let Some(it) = rules.item(name) else {
            r.add(
                row,
                n,
                &field,
                format!("{name:?} is not in the items table"),
            );
            continue;
        };
        if it.kind == ItemKind::Ammo {
            if let Some(why) = class_bars(n, &classes, it) {
                r.add(row, n, &field, why);
            }
            let sort = it.sort.clone().unwrap_or_default();
            *ammo.entry(sort).or_insert(0) += it.count as u32;
            continue;
        }
        let in_use = !kinds_seen.contains(&it.kind);
        kinds_seen.push(it.kind);
        if !in_use {
            continue;
        }
        if let Some(why) = class_bars(n, &classes, it) {
            r.add(row, n, &field, why);
        }
        match it.kind {
            ItemKind::Weapon => hands = hands.max(it.hands),
            ItemKind::Shield if hands >= 2 => {
                r.add(row, n, &field, "a shield with a two-handed weapon");
            }
            _ => {}
        }
    }
    let mut c = Character {
        name: m.name.clone(),
        race: race.map(|r| r.name.clone()).unwrap_or_default(),
        classes: class_levels,
        abilities,
        hp: 1,
        max_hp: 1,
        items: m
            .items
            .iter()
            .filter_map(|i| rules.item(i))
            .filter(|it| it.kind != ItemKind::Ammo)
            .map(|it| it.name.clone())
            .collect(),
        memorised: Vec::new(),
        ammo,
    };
    if r.problems.len() == before && c.move_rate(rules) == 0 {
        r.add(
            row,
            n,
            "items",
            format!(
                "{} carries {} coins' weight and cannot move (strength {} carries {} at full speed)",
                n,
                c.load(rules),
                c.abilities.strength,
                c.allowance()
            ),
        );
    }
    let mut held: Vec<(School, u8)> = Vec::new();
    for (i, s) in m.spells.iter().enumerate() {
        let field = format!("spells[{i}]");
        let Some(spell) = rules.spell(s) else {
            r.add(row, n, &field, format!("{s:?} is not in the spells table"));
            continue;
        };
        let slots = c.slots(rules, spell.school);
        let have = slots.get(spell.level as usize - 1).copied().unwrap_or(0);
        let used = held
            .iter()
            .filter(|h| **h == (spell.school, spell.level))
            .count() as u8;
        if have == 0 {
            r.add(
                row,
                n,
                &field,
                format!(
                    "{n} cannot hold {:?}: no {} slots of level {}",
                    spell.name,
                    spell.school.word(),
                    spell.level
                ),
            );
        } else if used >= have {
            r.add(
                row,
                n,
                &field,
                format!(
                    "{n} holds only {have} spells of level {}; {:?} is one too many",
                    spell.level, spell.name
                ),
            );
        }
        held.push((spell.school, spell.level));
        c.memorised.push(Memorised {
            spell: spell.name.clone(),
            used: false,
        });
    }
    let max = c.starting_hp(rules);
    match m.hp {
        Some(hp) if hp < 1 || hp > max.max(1) * 2 => r.add(
            row,
            n,
            "hp",
            format!(
                "{hp} is not 1 to {} (twice what the levels give)",
                max.max(1) * 2
            ),
        ),
        Some(hp) => {
            c.hp = hp;
            c.max_hp = hp;
        }
        None => {
            c.hp = max.max(1);
            c.max_hp = max.max(1);
        }
    }
    (r.problems.len() == before).then_some(c)
}
