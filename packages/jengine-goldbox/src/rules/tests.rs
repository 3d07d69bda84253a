use super::*;

fn builtin_party() -> Party {
    let rules = Rules::builtin();
    Party::from_json(
        &rules,
        Source {
            file: "data/goldbox_party.json",
            text: builtin_text("goldbox_party").unwrap(),
        },
    )
    .unwrap()
}

fn with(file_index: usize, text: &str) -> Result<Rules, TableError> {
    let mut src = RuleSources::builtin();
    let s = Source {
        file: match file_index {
            0 => "data/goldbox_classes.json",
            1 => "data/goldbox_races.json",
            2 => "data/goldbox_items.json",
            3 => "data/goldbox_spells.json",
            _ => "data/goldbox_monsters.json",
        },
        text,
    };
    match file_index {
        0 => src.classes = s,
        1 => src.races = s,
        2 => src.items = s,
        3 => src.spells = s,
        _ => src.monsters = s,
    }
    Rules::from_json(src)
}

fn messages(e: TableError) -> Vec<String> {
    e.problems.iter().map(|p| p.to_string()).collect()
}

#[test]
fn the_shipped_tables_load() {
    let rules = Rules::from_json(RuleSources::builtin()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rules.classes().len(), 4);
    assert!(rules.monsters().len() >= 8);
    for school in [School::Arcane, School::Divine] {
        for level in 1..=3 {
            let n = rules
                .spells()
                .iter()
                .filter(|s| s.school == school && s.level == level)
                .count();
            assert!(n >= 2, "{school:?} level {level} has {n} spells");
        }
    }
    for shape in [Shape::Single, Shape::Radius, Shape::Line, Shape::Cone] {
        assert!(rules.spells().iter().any(|s| s.shape == shape));
    }
    assert_eq!(builtin_party().members.len(), 6);
}

#[test]
fn derived_numbers_follow_the_tables() {
    let rules = Rules::builtin();
    let party = builtin_party();
    let brannoc = &party.members[0];
    // 10, chain 5, shield 1, dexterity 14 gives nothing.
    assert_eq!(brannoc.armour_class(&rules), 4);
    assert_eq!(brannoc.thac0(&rules), 18);
    assert_eq!(brannoc.save(&rules, SaveKind::Spell), 16);
    assert_eq!(brannoc.melee_bonus(&rules), (1, 1));
    // 3 levels of d10 with constitution 16: 10+2, then 6+2 twice.
    assert_eq!(brannoc.max_hp, 28);
    // 505 coins against an allowance of 595: full speed.
    assert_eq!(brannoc.move_rate(&rules), 12);
    let hild = &party.members[1];
    // A dwarf: constitution 18 after the race, sturdy against spells (+5).
    assert_eq!(hild.abilities.constitution, 18);
    assert_eq!(hild.save(&rules, SaveKind::Spell), 16 - 5);
    assert_eq!(hild.save(&rules, SaveKind::Breath), 16);
    // Plate and halberd (625) against 560: a quarter slower than the dwarf's 9.
    assert_eq!(hild.move_rate(&rules), 6);
    let ilyra = &party.members[3];
    // Multi-class: the fighter's THAC0, the best save of either class, and the ring.
    assert_eq!(ilyra.thac0(&rules), 19);
    assert_eq!(ilyra.save(&rules, SaveKind::Rod), 10);
    assert_eq!(ilyra.slots(&rules, School::Arcane), vec![2]);
    assert!(ilyra.cannot_cast(&rules, "spark darts").is_none());
}

#[test]
fn resting_restores_spent_spells() {
    let rules = Rules::builtin();
    let mut corvin = builtin_party().members[4].clone();
    assert!(corvin.cannot_cast(&rules, "spark darts").is_none());
    corvin.spend("spark darts");
    assert_eq!(
        corvin.cannot_cast(&rules, "spark darts").unwrap(),
        "Corvin holds no unspent \"spark darts\""
    );
    corvin.rest();
    assert!(corvin.cannot_cast(&rules, "spark darts").is_none());
}

#[test]
fn arcane_spells_fail_in_armour_a_mage_may_not_wear() {
    let rules = Rules::builtin();
    let mut ilyra = builtin_party().members[3].clone();
    ilyra.items.push("chain mail".into());
    assert_eq!(
        ilyra.cannot_cast(&rules, "drowse").unwrap(),
        "Ilyra cannot cast arcane spells in that armour"
    );
}

#[test]
fn experience_is_split_over_classes_and_raises_levels() {
    let rules = Rules::builtin();
    let mut ilyra = builtin_party().members[3].clone();
    let before = ilyra.max_hp;
    let mut roller = Roller::new(3);
    // Level 2 of each is 2000 and 2500; 6000 more gives each class 3000.
    let ups = ilyra.gain_xp(&rules, 6000, &mut roller);
    let levels: Vec<(String, u8)> = ups.iter().map(|u| (u.class.clone(), u.level)).collect();
    assert_eq!(
        levels,
        [("fighter".to_string(), 3), ("mage".to_string(), 3)]
    );
    assert_eq!(ilyra.max_hp, before + ups.iter().map(|u| u.hp).sum::<i32>());
    assert_eq!(ilyra.classes[0].xp, 2000 + 3000);
    // A race's limit stops a class: elves stop at fighter 7.
    let ups = ilyra.gain_xp(&rules, 2_000_000, &mut roller);
    assert_eq!(ilyra.classes[0].level, 7);
    assert_eq!(ilyra.classes[1].level, 10);
    assert!(!ups.is_empty());
}

#[test]
fn bad_rule_tables_are_refused_naming_file_row_and_field() {
    let e = with(
        2,
        r#"[{ "name": "club", "kind": "weapon", "damage": "1x6", "sort": "blunt" },
            { "name": "spear", "kind": "weapon", "sort": "polearm", "reach": 3 },
            { "name": "Spear", "kind": "shield", "ac": 5 }]"#,
    )
    .unwrap_err();
    assert_eq!(
        messages(e),
        [
            "data/goldbox_items.json: row 1 (\"club\"), damage: \"1x6\" is not dice like 1d8, 2d4+1 or 3",
            "data/goldbox_items.json: row 3 (\"Spear\"), name: \"Spear\" is already the name of row 2",
            "data/goldbox_items.json: row 2 (\"spear\"), damage: a weapon needs damage dice",
            "data/goldbox_items.json: row 2 (\"spear\"), reach: 3 is not 1 or 2 squares",
            "data/goldbox_items.json: row 3 (\"Spear\"), ac: 5 is not 1 to 3",
        ]
    );
}

#[test]
fn every_table_reports_all_its_problems_at_once() {
    let e = with(
        4,
        r#"[{ "name": "imp", "hd": 1, "ac": 4, "move": 12, "attacks": [], "morale": 14, "xp": 5,
              "saves_as": "bard", "spells": ["wish"] },
            { "name": "wisp", "hd": 1, "ac": 4, "move": 12, "attacks": ["1d4"], "morale": 8,
              "xp": 5, "colour": "blue" },
            "not a row"]"#,
    )
    .unwrap_err();
    let said = messages(e);
    assert_eq!(
        said,
        [
            "data/goldbox_monsters.json: row 2 (\"wisp\"), colour: unknown field `colour`, expected one of \
             `name`, `hd`, `hp_bonus`, `ac`, `move`, `attacks`, `thac0`, `morale`, `xp`, \
             `treasure`, `initiative`, `undead`, `reach`, `missile`, `spells`, `saves_as`, `art`, \
             `text`",
            "data/goldbox_monsters.json: row 3: a row must be an object",
            "data/goldbox_monsters.json: row 1 (\"imp\"), morale: 14 is not 2 to 12 (a roll on 2d6)",
            "data/goldbox_monsters.json: row 1 (\"imp\"), saves_as: \"bard\" is not in the classes table",
            "data/goldbox_monsters.json: row 1 (\"imp\"), spells[0]: \"wish\" is not in the spells table",
        ]
    );
}

#[test]
fn classes_races_and_spells_are_checked_in_words() {
    let e = with(
        0,
        r#"[{ "name": "fighter", "hit_die": 9, "hit_die_levels": 3, "hp_after": 2,
              "xp": [0, 100, 50], "thac0": [20, 19], "saves": [[14,16,15,17,17],[14,16,15,17,17],[1,16,15,17,17]],
              "armour": "plate", "weapons": ["any"] },
            { "name": "mage", "hit_die": 4, "hit_die_levels": 1, "hp_after": 1, "xp": [0],
              "thac0": [20], "saves": [[14,11,13,15,12]], "armour": "none", "weapons": ["staff"],
              "casts": "arcane" }]"#,
    )
    .unwrap_err();
    let said = messages(e);
    for expected in [
        "data/goldbox_classes.json: row 1 (\"fighter\"), hit_die: 9 is not a die of 4, 6, 8, 10 or 12 faces",
        "data/goldbox_classes.json: row 1 (\"fighter\"), xp[2]: 50 is not more than the level before (100)",
        "data/goldbox_classes.json: row 1 (\"fighter\"), thac0: has 2 levels but xp has 3",
        "data/goldbox_classes.json: row 1 (\"fighter\"), saves[2][0]: 1 is not 2 to 20",
        "data/goldbox_classes.json: row 2 (\"mage\"), slots: a caster needs slots for each of its 1 levels, has 0",
        // The shipped races name classes this table no longer has.
        "data/goldbox_races.json: row 1 (\"human\"), classes[1]: \"cleric\" is not in the classes table",
    ] {
        assert!(
            said.iter().any(|s| s == expected),
            "{expected}\n in {said:#?}"
        );
    }
    let e = with(
        3,
        r#"[{ "name": "gust", "school": "arcane", "level": 1, "range": 4, "shape": "cone", "size": 0,
              "effect": "damage", "dice": "1d4", "save": "half" }]"#,
    )
    .unwrap_err();
    let said = messages(e);
    for expected in [
        "data/goldbox_spells.json: row 1 (\"gust\"), size: 0 is not 1 to 12 squares",
        "data/goldbox_spells.json: row 1 (\"gust\"), range: a line or a cone starts at the caster: its range is 0",
        "data/goldbox_spells.json: row 1 (\"gust\"), save_vs: a spell with a save must say which save",
        // The shipped monsters and party name spells this table no longer has.
        "data/goldbox_monsters.json: row 5 (\"goblin hexer\"), spells[0]: \"spark darts\" is not in the spells table",
    ] {
        assert!(
            said.iter().any(|s| s == expected),
            "{expected}\n in {said:#?}"
        );
    }
    let e = with(1, "{}").unwrap_err();
    assert_eq!(
        messages(e)[0],
        "data/goldbox_races.json: the table must be an array of rows"
    );
    let e = with(1, "[1,").unwrap_err();
    assert!(messages(e)[0].starts_with("data/goldbox_races.json: not JSON: "));
}

#[test]
fn a_bad_party_is_refused_member_by_member() {
    let rules = Rules::builtin();
    let text = r#"[
      { "name": "Ox", "race": "dwarf", "classes": ["mage"],
        "abilities": { "str": 19, "int": 6, "wis": 10, "dex": 10, "con": 10, "cha": 10 } },
      { "name": "Lark", "race": "human", "classes": ["cleric"], "levels": [1],
        "abilities": { "str": 10, "int": 10, "wis": 12, "dex": 10, "con": 10, "cha": 10 },
        "items": ["long sword", "lute"], "spells": ["mend wounds", "wound touch", "drowse"] },
      { "name": "Mule", "race": "human", "classes": ["fighter"],
        "abilities": { "str": 9, "int": 10, "wis": 10, "dex": 10, "con": 10, "cha": 10 },
        "items": ["plate mail", "halberd", "shield", "mace", "mace", "mace", "mace", "mace", "mace", "mace", "mace"] }
    ]"#;
    let e = Party::from_json(
        &rules,
        Source {
            file: "data/goldbox_party.json",
            text,
        },
    )
    .unwrap_err();
    assert_eq!(
        messages(e),
        [
            "data/goldbox_party.json: row 1 (\"Ox\"), classes: a dwarf cannot be a mage",
            "data/goldbox_party.json: row 1 (\"Ox\"), abilities.str: 19 is not 3 to 18",
            "data/goldbox_party.json: row 1 (\"Ox\"), abilities.int: a mage needs int 9, this one has 6",
            "data/goldbox_party.json: row 2 (\"Lark\"), items[0]: no class of Lark may use a blade weapon (long sword)",
            "data/goldbox_party.json: row 2 (\"Lark\"), items[1]: \"lute\" is not in the items table",
            "data/goldbox_party.json: row 2 (\"Lark\"), spells[1]: Lark holds only 1 spells of level 1; \"wound touch\" is one too many",
            "data/goldbox_party.json: row 2 (\"Lark\"), spells[2]: Lark cannot hold \"drowse\": no arcane slots of level 1",
            "data/goldbox_party.json: row 3 (\"Mule\"), items[2]: a shield with a two-handed weapon",
        ]
    );
}

#[test]
fn an_overloaded_member_is_refused_with_the_weights() {
    let rules = Rules::builtin();
    let text = r#"[{ "name": "Mule", "race": "human", "classes": ["fighter"],
        "abilities": { "str": 9, "int": 10, "wis": 10, "dex": 10, "con": 10, "cha": 10 },
        "items": ["plate mail", "mace", "mace", "mace", "mace", "mace", "mace", "mace", "mace", "mace",
                  "mace", "mace", "mace"] }]"#;
    let e = Party::from_json(
        &rules,
        Source {
            file: "data/goldbox_party.json",
            text,
        },
    )
    .unwrap_err();
    assert_eq!(
        messages(e),
        [
            "data/goldbox_party.json: row 1 (\"Mule\"), items: Mule carries 1650 coins' weight and \
          cannot move (strength 9 carries 315 at full speed)"
        ]
    );
}

/// A shop's sale through the rules: what is taken up is in use at once, and armour class,
/// damage and movement follow; the class limits, both hands, a full load and the pack's room
/// are refused in words with nothing changed; readying and giving up move what is in use.
#[test]
fn taking_up_readying_and_giving_up_items_follow_the_rules() {
    let rules = Rules::builtin();
    let party = builtin_party();
    // Pip the halfling thief: leather armour, short sword, sling.
    let mut pip = party.members[5].clone();
    let ac = pip.armour_class(&rules);
    for (item, refused) in [
        ("chain mail", "no class of Pip may wear chain mail"),
        (
            "short bow",
            "no class of Pip may use a bow weapon (short bow)",
        ),
        ("shield", "no class of Pip may carry a shield"),
        ("tower", "\"tower\" is not in the items table"),
    ] {
        assert_eq!(pip.take_up(&rules, item).unwrap_err(), refused);
    }
    assert_eq!(pip, party.members[5], "refusals change nothing");
    pip.take_up(&rules, "long sword").unwrap();
    assert_eq!(pip.weapon(&rules).unwrap().name, "long sword");
    assert_eq!(pip.armour_class(&rules), ac);
    pip.ready(&rules, "short sword").unwrap();
    assert_eq!(pip.weapon(&rules).unwrap().name, "short sword");
    assert_eq!(pip.put_down(&rules, "long sword").unwrap(), "long sword");
    assert_eq!(
        pip.put_down(&rules, "long sword").unwrap_err(),
        "Pip carries no long sword"
    );
    assert_eq!(pip.items, party.members[5].items);

    // Brannoc, a fighter: plate mail in place of chain is two better.
    let mut brannoc = party.members[0].clone();
    let ac = brannoc.armour_class(&rules);
    brannoc.take_up(&rules, "plate mail").unwrap();
    assert_eq!(brannoc.armour(&rules).unwrap().name, "plate mail");
    assert_eq!(brannoc.armour_class(&rules), ac - 2);
    // A halberd takes both hands: not beside the shield in use.
    let before = brannoc.clone();
    let said = brannoc.take_up(&rules, "halberd").unwrap_err();
    assert!(
        said.contains("two hands") && said.contains("shield"),
        "{said}"
    );
    assert_eq!(brannoc, before);
    brannoc.put_down(&rules, "shield").unwrap();
    brannoc.take_up(&rules, "halberd").unwrap();
    assert_eq!(brannoc.weapon(&rules).unwrap().reach, 2);
    assert!(brannoc.take_up(&rules, "shield").is_err());

    // Ilyra, fighter/mage: the fighter lets her wear mail, where her spells fail.
    let mut ilyra = party.members[3].clone();
    ilyra.take_up(&rules, "chain mail").unwrap();
    assert!(!ilyra.arcane_armour_ok(&rules));
    ilyra.put_down(&rules, "chain mail").unwrap();
    assert!(ilyra.arcane_armour_ok(&rules));

    // Corvin (strength 8) slows under plate and halberd, and stops before he cannot move.
    let mut corvin = party.members[4].clone();
    corvin.classes[0].class = "fighter".into();
    let said = (0..6)
        .map(|_| corvin.take_up(&rules, "plate mail"))
        .find_map(Result::err)
        .expect("a load that stops him is refused");
    assert!(
        said.starts_with("Corvin cannot carry plate mail too: "),
        "{said}"
    );
    assert!(
        said.ends_with("(strength 8 carries 280 at full speed)"),
        "{said}"
    );
    assert!(corvin.move_rate(&rules) > 0);
    // The pack holds sixteen things.
    let mut pip = party.members[5].clone();
    for _ in 0..Character::MAX_ITEMS - 3 {
        pip.take_up(&rules, "dagger").unwrap();
    }
    assert!(
        pip.take_up(&rules, "dagger")
            .unwrap_err()
            .contains("no room")
    );
}

/// A race's multi-class combination naming a class twice, or four classes, is refused at load
/// with the file, the row and the field.
#[test]
fn a_bad_combination_of_classes_is_refused_at_load() {
    let e = with(
        1,
        r#"[{ "name": "human", "classes": ["fighter", "cleric", "mage", "thief"] },
            { "name": "elf", "classes": ["fighter", "fighter/fighter", "fighter/mage/thief/cleric", "mage/bard"] }]"#,
    )
    .unwrap_err();
    let said = messages(e);
    for expected in [
        "data/goldbox_races.json: row 2 (\"elf\"), classes[1]: \"fighter/fighter\" must name one to three different classes",
        "data/goldbox_races.json: row 2 (\"elf\"), classes[2]: \"fighter/mage/thief/cleric\" must name one to three different classes",
        "data/goldbox_races.json: row 2 (\"elf\"), classes[3]: \"bard\" is not in the classes table",
    ] {
        assert!(
            said.iter().any(|s| s == expected),
            "{expected}\n in {said:#?}"
        );
    }
}

/// Ammunition: a bundle taken up adds its shots to the quiver of its sort (weighing as the
/// bundle does), one class must shoot that sort, a bundle is given up whole, and a missile
/// the tables sell nothing for needs none. Bad ammunition rows are refused at load.
#[test]
fn ammunition_is_carried_by_the_bundle_and_counted_by_the_shot() {
    let items = builtin_text("goldbox_items").unwrap().trim_end();
    let with_ammo = |extra: &str| format!("{}, {extra}]", items.strip_suffix(']').unwrap());
    let arrows = r#"{ "name": "arrows", "kind": "ammo", "sort": "bow", "count": 20, "weight": 30, "value": 2 }"#;
    let rules = with(2, &with_ammo(arrows)).unwrap_or_else(|e| panic!("{e}"));
    let mut brannoc = builtin_party().members[0].clone();
    assert_eq!(brannoc.shots(&rules), Some(0), "a bow and no arrows");
    assert_eq!(
        brannoc.shots(&Rules::builtin()),
        None,
        "no arrows sold: it shoots freely"
    );
    let load = brannoc.load(&rules);
    brannoc.take_up(&rules, "arrows").unwrap();
    brannoc.take_up(&rules, "arrows").unwrap();
    assert_eq!(brannoc.shots(&rules), Some(40));
    assert_eq!(brannoc.load(&rules), load + 60);
    assert!(
        !brannoc.items.contains(&"arrows".to_string()),
        "shots are not a thing in the pack"
    );
    brannoc.ammo.insert("bow".into(), 7);
    assert_eq!(
        brannoc.load(&rules),
        load + 11,
        "seven arrows weigh 7 * 30 / 20, rounded up"
    );
    assert_eq!(
        brannoc.put_down(&rules, "arrows").unwrap_err(),
        "Brannoc has 7 arrows left, less than a bundle of 20"
    );
    brannoc.ammo.insert("bow".into(), 20);
    brannoc.put_down(&rules, "arrows").unwrap();
    assert!(brannoc.ammo.is_empty());
    let mut corvin = builtin_party().members[4].clone();
    assert_eq!(
        corvin.take_up(&rules, "arrows").unwrap_err(),
        "no class of Corvin may use a bow weapon (arrows)"
    );
    for _ in 0..4 {
        brannoc.take_up(&rules, "arrows").unwrap();
    }
    assert!(
        brannoc
            .take_up(&rules, "arrows")
            .unwrap_err()
            .contains("over 99")
    );

    let e = with(
        2,
        &with_ammo(
            r#"{ "name": "bolts", "kind": "ammo", "sort": "crossbow", "count": 10 },
               { "name": "pebbles", "kind": "ammo", "count": 0 },
               { "name": "bundle of swords", "kind": "weapon", "damage": "1d8", "sort": "blade", "count": 5 }"#,
        ),
    )
    .unwrap_err();
    let said = messages(e);
    for expected in [
        "data/goldbox_items.json: row 16 (\"bolts\"), sort: no missile in the items table shoots \"crossbow\"",
        "data/goldbox_items.json: row 17 (\"pebbles\"), sort: ammunition needs the sort of missile it is shot from (bow, sling...)",
        "data/goldbox_items.json: row 17 (\"pebbles\"), count: 0 is not 1 to 100 shots",
        "data/goldbox_items.json: row 18 (\"bundle of swords\"), count: only ammunition comes in bundles",
    ] {
        assert!(
            said.iter().any(|s| s == expected),
            "{expected}\n in {said:#?}"
        );
    }
}
