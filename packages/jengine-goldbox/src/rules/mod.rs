//! The game's rules as plain data: dice, the five rule tables, characters and the party.
//! [`Rules`] is the checked set of tables everything else looks names up in; once built, a
//! name in it is known to be good, so nothing downstream re-checks.

pub mod character;
pub mod dice;
pub mod tables;

pub use character::{Abilities, Character, ClassLevel, LevelUp, Memorised, Party};
pub use dice::{Dice, Roller};
pub use tables::{
    Ability, ArmourWeight, Class, Effect, Item, ItemKind, Monster, MonsterMissile, Problem, Race,
    SaveKind, SaveRule, Scale, School, Shape, Source, Spell, TableError,
};

use tables::{
    Report, check_class, check_item, check_monster, check_names, check_race, check_spell, read_rows,
};

/// The default tables the crate ships, by the name a project's `data/` would give them.
pub const BUILTIN: [(&str, &str); 7] = [
    (
        "goldbox_classes",
        include_str!("../../data/goldbox_classes.json"),
    ),
    (
        "goldbox_races",
        include_str!("../../data/goldbox_races.json"),
    ),
    (
        "goldbox_items",
        include_str!("../../data/goldbox_items.json"),
    ),
    (
        "goldbox_spells",
        include_str!("../../data/goldbox_spells.json"),
    ),
    (
        "goldbox_monsters",
        include_str!("../../data/goldbox_monsters.json"),
    ),
    (
        "goldbox_party",
        include_str!("../../data/goldbox_party.json"),
    ),
    (
        "goldbox_encounters",
        include_str!("../../data/goldbox_encounters.json"),
    ),
];

/// The shipped text of one default table.
pub fn builtin_text(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The five rule tables, read from where they came from.
#[derive(Debug, Clone, Copy)]
pub struct RuleSources<'a> {
    /// Classes.
    pub classes: Source<'a>,
    /// Races.
    pub races: Source<'a>,
    /// Items.
    pub items: Source<'a>,
    /// Spells.
    pub spells: Source<'a>,
    /// Monsters.
    pub monsters: Source<'a>,
}

impl RuleSources<'static> {
    /// The tables the crate ships.
    pub fn builtin() -> RuleSources<'static> {
        let s = |i: usize| Source {
            file: match i {
                0 => "data/goldbox_classes.json",
                1 => "data/goldbox_races.json",
                2 => "data/goldbox_items.json",
                3 => "data/goldbox_spells.json",
                _ => "data/goldbox_monsters.json",
            },
            text: BUILTIN[i].1,
        };
        RuleSources {
            classes: s(0),
            races: s(1),
            items: s(2),
            spells: s(3),
            monsters: s(4),
        }
    }
}

/// The checked rule tables.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    classes: Vec<Class>,
    races: Vec<Race>,
    items: Vec<Item>,
    spells: Vec<Spell>,
    monsters: Vec<Monster>,
}

fn find<'a, T>(rows: &'a [T], name: &str, key: impl Fn(&T) -> &str) -> Option<&'a T> {
    rows.iter()
        .find(|r| key(r).eq_ignore_ascii_case(name.trim()))
}

impl Rules {
    /// Reads and checks all five tables together (races name classes, monsters name classes
    /// and spells), reporting every problem at once.
    pub fn from_json(src: RuleSources<'_>) -> Result<Rules, TableError> {
        let mut problems = Vec::new();
        let classes: Vec<(usize, Class)> = read_rows(src.classes, &mut problems);
        let races: Vec<(usize, Race)> = read_rows(src.races, &mut problems);
        let items: Vec<(usize, Item)> = read_rows(src.items, &mut problems);
        let spells: Vec<(usize, Spell)> = read_rows(src.spells, &mut problems);
        let monsters: Vec<(usize, Monster)> = read_rows(src.monsters, &mut problems);
        let class_list: Vec<Class> = classes.iter().map(|(_, c)| c.clone()).collect();
        let spell_list: Vec<Spell> = spells.iter().map(|(_, s)| s.clone()).collect();
        {
            let mut r = Report {
                file: src.classes.file.into(),
                problems: &mut problems,
            };
            check_names(&mut r, classes.iter().map(|(i, c)| (*i, c.name.as_str())));
            for (i, c) in &classes {
                check_class(&mut r, *i, c);
            }
        }
        {
            let mut r = Report {
                file: src.races.file.into(),
                problems: &mut problems,
            };
            check_names(&mut r, races.iter().map(|(i, c)| (*i, c.name.as_str())));
            for (i, race) in &races {
                check_race(&mut r, *i, race, &class_list);
            }
        }
        {
            let mut r = Report {
                file: src.items.file.into(),
                problems: &mut problems,
            };
            check_names(&mut r, items.iter().map(|(i, c)| (*i, c.name.as_str())));
            for (i, it) in &items {
                check_item(&mut r, *i, it);
            }
            // Ammunition must feed a missile the table has.
            for (i, it) in items.iter().filter(|(_, it)| it.kind == ItemKind::Ammo) {
                let Some(sort) = it.sort.as_deref().filter(|s| !s.trim().is_empty()) else {
                    continue;
                };
                let shot = items.iter().any(|(_, m)| {
                    m.kind == ItemKind::Missile
                        && m.sort
                            .as_deref()
                            .is_some_and(|m| m.eq_ignore_ascii_case(sort))
                });
                if !shot {
                    r.add(
                        *i,
                        &it.name,
                        "sort",
                        format!("no missile in the items table shoots {sort:?}"),
                    );
                }
            }
        }
        {
            let mut r = Report {
                file: src.spells.file.into(),
                problems: &mut problems,
            };
            check_names(&mut r, spells.iter().map(|(i, c)| (*i, c.name.as_str())));
            for (i, s) in &spells {
                check_spell(&mut r, *i, s);
            }
        }
        {
            let mut r = Report {
                file: src.monsters.file.into(),
                problems: &mut problems,
            };
            check_names(&mut r, monsters.iter().map(|(i, c)| (*i, c.name.as_str())));
            for (i, m) in &monsters {
                check_monster(&mut r, *i, m, &class_list, &spell_list);
            }
        }
        if !problems.is_empty() {
            return Err(TableError { problems });
        }
        Ok(Rules {
            classes: class_list,
            races: races.into_iter().map(|(_, r)| r).collect(),
            items: items.into_iter().map(|(_, r)| r).collect(),
            spells: spell_list,
            monsters: monsters.into_iter().map(|(_, r)| r).collect(),
        })
    }

    /// The tables the crate ships (checked by this crate's tests).
    pub fn builtin() -> Rules {
        match Rules::from_json(RuleSources::builtin()) {
            Ok(rules) => rules,
            // The shipped tables are checked by the tests; an empty set keeps a broken build
            // from panicking in a game.
            Err(_) => Rules {
                classes: Vec::new(),
                races: Vec::new(),
                items: Vec::new(),
                spells: Vec::new(),
                monsters: Vec::new(),
            },
        }
    }

    /// The ammunition a missile of `sort` shoots, when the items table sells any: a missile
    /// with none shoots as often as it likes.
    pub fn ammo_for(&self, sort: &str) -> Option<&Item> {
        self.items.iter().find(|i| {
            i.kind == ItemKind::Ammo
                && i.sort
                    .as_deref()
                    .is_some_and(|s| s.eq_ignore_ascii_case(sort))
        })
    }

    /// A class by name (any case).
    pub fn class(&self, name: &str) -> Option<&Class> {
        find(&self.classes, name, |c| &c.name)
    }
    /// A race by name.
    pub fn race(&self, name: &str) -> Option<&Race> {
        find(&self.races, name, |c| &c.name)
    }
    /// An item by name.
    pub fn item(&self, name: &str) -> Option<&Item> {
        find(&self.items, name, |c| &c.name)
    }
    /// A spell by name.
    pub fn spell(&self, name: &str) -> Option<&Spell> {
        find(&self.spells, name, |c| &c.name)
    }
    /// A monster kind by name.
    pub fn monster(&self, name: &str) -> Option<&Monster> {
        find(&self.monsters, name, |c| &c.name)
    }
    /// Every class.
    pub fn classes(&self) -> &[Class] {
        &self.classes
    }
    /// Every race.
    pub fn races(&self) -> &[Race] {
        &self.races
    }
    /// Every item.
    pub fn items(&self) -> &[Item] {
        &self.items
    }
    /// Every spell.
    pub fn spells(&self) -> &[Spell] {
        &self.spells
    }
    /// Every monster kind.
    pub fn monsters(&self) -> &[Monster] {
        &self.monsters
    }
}

/// Melee to-hit from strength.
pub fn str_to_hit(s: u8) -> i32 {
    match s {
        0..=3 => -3,
        4..=5 => -2,
        6..=7 => -1,
        8..=16 => 0,
        17..=18 => 1,
        _ => 3,
    }
}

/// Melee damage from strength.
pub fn str_damage(s: u8) -> i32 {
    match s {
        0..=5 => -1,
        6..=15 => 0,
        16..=17 => 1,
        18 => 2,
        _ => 4,
    }
}

/// Armour class from dexterity (negative is better).
pub fn dex_ac(d: u8) -> i32 {
    match d {
        0..=3 => 4,
        4 => 3,
        5 => 2,
        6 => 1,
        7..=14 => 0,
        15 => -1,
        16 => -2,
        17 => -3,
        _ => -4,
    }
}

/// Missile to-hit and initiative from dexterity.
pub fn dex_missile(d: u8) -> i32 {
    match d {
        0..=3 => -3,
        4 => -2,
        5 => -1,
        6..=15 => 0,
        16 => 1,
        17 => 2,
        _ => 3,
    }
}

/// Hit points a level from constitution; only warriors get more than +2.
pub fn con_hp(c: u8, warrior: bool) -> i32 {
    let bonus = match c {
        0..=3 => -2,
        4..=6 => -1,
        7..=14 => 0,
        15 => 1,
        16 => 2,
        17 => 3,
        _ => 4,
    };
    if warrior { bonus } else { bonus.min(2) }
}

/// The sturdy races' save bonus from constitution.
pub fn sturdy_save(c: u8) -> i32 {
    match c {
        0..=6 => 1,
        7..=10 => 2,
        11..=13 => 3,
        14..=17 => 4,
        _ => 5,
    }
}

#[cfg(test)]
mod tests;
