//! Loading and checking the tables, level by level: each test names the error a broken
//! level gets, word for word, since that text is what a game's author reads.

use super::*;
use serde_json::{Value, json};

const MONSTERS: &str = r#"[{ "name": "rat", "hp": 3 }, { "name": "bat", "hp": 2, "sight": 3 }]"#;
const PARTY: &str = r#"[{ "name": "Vess", "reach": 3 }]"#;

fn level(name: &str, map: &[&str]) -> Value {
    json!({ "name": name, "map": map })
}

fn load(levels: &[Value]) -> Result<Tables, MapError> {
    Tables::from_json(&Value::from(levels.to_vec()).to_string(), MONSTERS, PARTY)
}

fn fails(levels: &[Value]) -> String {
    match load(levels) {
        Ok(_) => panic!("the tables loaded"),
        Err(e) => e.to_string(),
    }
}

fn with(mut v: Value, key: &str, value: Value) -> Value {
    v[key] = value;
    v
}

const TOP: [&str; 4] = ["#####", "#<.>#", "#...#", "#####"];

#[test]
fn a_good_dungeon_loads_with_everything_in_its_place() {
    let top = json!({
        "name": "Top",
        "map": ["#######", "#<.M.C#", "#^.^..#", "#..M>.#", "#######"],
        "monsters": ["rat", "bat"],
        "chests": ["gold:5"],
        "traps": ["dart", "net"],
        "encounters": [{ "at": [2, 3], "group": "kobolds", "text": "Kobolds!" }],
        "encounter_rate": 0.1, "groups": ["rats"], "encounter_grace": 3
    });
    let tables = load(&[top, level("Bottom", &["#####", "#<.>#", "#####"])]).unwrap();
    let top = &tables.levels[0];
    assert_eq!((top.width, top.height), (7, 5));
    assert_eq!(top.start, (1, 1), "the start defaults to the stairs up");
    assert_eq!(top.monsters.len(), 2);
    assert_eq!((top.monsters[0].kind, top.monsters[1].kind), (0, 1));
    let traps: Vec<&Cell> = top.cells.iter().filter(|c| c.symbol() == '^').collect();
    assert_eq!(
        traps,
        vec![
            &Cell::Trap {
                name: "dart".into(),
                sprung: false,
                damage: 0
            },
            &Cell::Trap {
                name: "net".into(),
                sprung: false,
                damage: 0
            }
        ]
    );
    assert_eq!(top.encounter_grace, 3);
    assert_eq!(top.rows()[1], "#<...C#", "a monster's cell is floor");
    assert_eq!(tables.crawlers[0].reach, 3);
}

#[test]
fn a_row_of_the_wrong_width_names_its_row() {
    let e = fails(&[level("Top", &["#####", "#<.>#", "#..#", "#####"])]);
    assert_eq!(
        e,
        "level 1 (Top), row 2: the row is 4 cells wide, the first row is 5"
    );
}

#[test]
fn a_symbol_outside_the_legend_names_its_cell() {
    let e = fails(&[level("Top", &["#####", "#<.>#", "#.x.#", "#####"])]);
    assert_eq!(
        e,
        "level 1 (Top), row 2, cell 2: 'x' is not in the legend (. # + = A L > C O M < ^ S T % D _ B)"
    );
}

#[test]
fn a_level_with_no_way_down_fails() {
    let e = fails(&[level("Top", &["#####", "#<..#", "#####"])]);
    assert_eq!(
        e,
        "level 1 (Top): no way down: draw a > (or, on the last floor, give a fight \"goal\": true)"
    );
    let walled = fails(&[level("Top", &["#######", "#<.#.>#", "#######"])]);
    assert_eq!(
        walled,
        "level 1 (Top), row 1, cell 5: the way down cannot be reached from the start"
    );
}

#[test]
fn a_goal_fight_is_the_last_floors_way_out_and_only_there() {
    let goal = json!([{ "at": [2, 1], "group": "chief", "goal": true }]);
    let last = with(
        level("End", &["#####", "#<..#", "#####"]),
        "encounters",
        goal.clone(),
    );
    assert!(load(&[level("Top", &TOP), last.clone()]).is_ok());
    let e = fails(&[with(level("Top", &TOP), "encounters", goal), last]);
    assert_eq!(
        e,
        "level 1 (Top), row 1, cell 2: a \"goal\" fight is only the way out on the last floor"
    );
}

#[test]
fn a_party_starting_in_a_wall_fails() {
    let e = fails(&[with(level("Top", &TOP), "start", json!([0, 2]))]);
    assert_eq!(
        e,
        "level 1 (Top), row 2, cell 0: the party starts inside a wall"
    );
    let off = fails(&[with(level("Top", &TOP), "start", json!([40, -2]))]);
    assert_eq!(
        off,
        "level 1 (Top), row -2, cell 40: the party starts inside a wall"
    );
    let none = fails(&[level("Top", &["#####", "#..>#", "#####"])]);
    assert_eq!(none, "level 1 (Top): no start: give \"start\" or draw a <");
}

#[test]
fn an_undefined_monster_fails_at_its_cell() {
    let map = ["#####", "#<M>#", "#####"];
    let e = fails(&[with(level("Top", &map), "monsters", json!(["dragon"]))]);
    assert_eq!(
        e,
        "level 1 (Top), row 1, cell 2: the monster \"dragon\" is not in the monsters table"
    );
    let e = fails(&[level("Top", &map)]);
    assert_eq!(
        e,
        "level 1 (Top), row 1, cell 2: a monster is drawn here but the level's \"monsters\" list is empty"
    );
    let spare = fails(&[with(level("Top", &TOP), "monsters", json!(["ghoul"]))]);
    assert_eq!(
        spare,
        "level 1 (Top): the monster \"ghoul\" is not in the monsters table"
    );
}

#[test]
fn stairs_up_behind_a_key_fail() {
    let map = ["#######", "#.<=.>#", "#######"];
    let row = with(level("Top", &map), "chests", json!([]));
    let e = fails(&[with(row, "start", json!([5, 1]))]);
    assert_eq!(
        e,
        "level 1 (Top), row 1, cell 2: the stairs up are behind a locked door"
    );
    // Behind a plain door is fine: it opens without a key.
    let ok = with(
        level("Top", &["#######", "#.<+.>#", "#######"]),
        "start",
        json!([5, 1]),
    );
    assert!(load(&[ok]).is_ok());
}

#[test]
fn a_locked_door_nobody_can_open_fails() {
    let map = ["#######", "#<.=.>#", "#######"];
    let e = fails(&[level("Top", &map)]);
    assert_eq!(
        e,
        "level 1 (Top), row 1, cell 3: a locked door nobody can open: no key in a chest on this floor or above, no lever on this floor"
    );
    let keyed = with(
        level("Top", &["#######", "#<C=.>#", "#######"]),
        "chests",
        json!(["key:1"]),
    );
    assert!(load(&[keyed]).is_ok());
    let lever = json!({ "name": "Top", "map": ["#######", "#<.=.>#", "##L####"],
                        "doors": [{ "at": [3, 1], "name": "gate" }],
                        "levers": [{ "at": [2, 2], "opens": ["gate"] }] });
    assert!(load(&[lever]).is_ok());
}

#[test]
fn a_fight_nobody_can_reach_fails() {
    let map = ["#######", "#<.>#.#", "#######"];
    let at = |x: i32, y: i32| json!([{ "at": [x, y], "group": "rats" }]);
    let e = fails(&[with(level("Top", &map), "encounters", at(5, 1))]);
    assert_eq!(
        e,
        "level 1 (Top), row 1, cell 5: a fight is placed on a cell nobody can reach"
    );
    let e = fails(&[with(level("Top", &map), "encounters", at(4, 1))]);
    assert_eq!(
        e,
        "level 1 (Top), row 1, cell 4: a fight is placed inside a wall"
    );
    let e = fails(&[with(level("Top", &map), "encounters", at(9, 9))]);
    assert_eq!(
        e,
        "level 1 (Top), row 9, cell 9: a fight is placed off the map"
    );
}

#[test]
fn random_fights_need_groups_and_a_rate_that_is_a_chance() {
    let e = fails(&[with(level("Top", &TOP), "encounter_rate", json!(0.2))]);
    assert_eq!(
        e,
        "level 1 (Top): random fights (encounter_rate 0.2) with no groups to draw from"
    );
    let e = fails(&[with(level("Top", &TOP), "encounter_rate", json!(1.5))]);
    assert_eq!(
        e,
        "level 1 (Top): encounter_rate 1.5 is not between 0 and 1"
    );
}

#[test]
fn chests_and_their_loot_must_match() {
    let map = ["######", "#<CC>#", "######"];
    let e = fails(&[with(level("Top", &map), "chests", json!(["gold:1"]))]);
    assert_eq!(
        e,
        "level 1 (Top), row 1, cell 3: a chest is drawn here but the level's \"chests\" list has no loot left for it"
    );
    let e = fails(&[with(
        level("Top", &map),
        "chests",
        json!(["gold:1", "key:1", "heal:2"]),
    )]);
    assert_eq!(
        e,
        "level 1 (Top): the \"chests\" list has 1 more loot than chests drawn"
    );
    let e = fails(&[with(
        level("Top", &map),
        "chests",
        json!(["gold:1", "gold:lots"]),
    )]);
    assert_eq!(
        e,
        "level 1 (Top), row 1, cell 3: loot \"gold:lots\" is not kind:value (gold: and heal: need a whole number, key: a number or a name)"
    );
    assert!(
        load(&[with(
            level("Top", &map),
            "chests",
            json!(["gold:1", "item:healing potion"])
        )])
        .is_ok()
    );
}

#[test]
fn a_trap_needs_a_name() {
    let e = fails(&[level("Top", &["#####", "#<^>#", "#####"])]);
    assert_eq!(
        e,
        "level 1 (Top), row 1, cell 2: a trap is drawn here but the level's \"traps\" list is empty"
    );
}

#[test]
fn later_levels_are_named_by_number_and_name() {
    let e = fails(&[level("Top", &TOP), level("Deep", &["####", "#<.#", "####"])]);
    assert!(e.starts_with("level 2 (Deep): no way down"), "{e}");
}

#[test]
fn broken_tables_say_which_and_where() {
    let e = Tables::from_json("[{", MONSTERS, PARTY)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("levels table: EOF while parsing"), "{e}");
    let e = Tables::from_json("[]", MONSTERS, PARTY)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "levels table: there are no levels");
    let levels = Value::from(vec![level("Top", &TOP)]).to_string();
    let e = Tables::from_json(&levels, r#"[{"name":"rat","hp":0}]"#, PARTY).unwrap_err();
    assert_eq!(e.to_string(), "monsters table, row 0: rat has no hp");
    let e = Tables::from_json(
        &levels,
        r#"[{"name":"a","hp":1},{"name":"a","hp":1}]"#,
        PARTY,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "monsters table, row 1: a is defined twice"
    );
    let e = Tables::from_json(&levels, MONSTERS, r#"[{"name":"V","reach":7}]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "crawlers table, row 0: V's reach 7 is not 1 to 4"
    );
    let five = r#"[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e"}]"#;
    let e = Tables::from_json(&levels, MONSTERS, five).unwrap_err();
    assert_eq!(
        e.to_string(),
        "crawlers table, row 4: the formation has four slots"
    );
    let typo = Value::from(vec![with(level("Top", &TOP), "encounter_rat", json!(1))]);
    let e = Tables::from_json(&typo.to_string(), MONSTERS, PARTY)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("level 1 (Top): unknown field `encounter_rat`"),
        "{e}"
    );
}

#[test]
fn the_readme_example_loads() {
    let row = json!({
        "name": "Kobold Halls",
        "map": ["#########", "#<..C..M#", "#.#####.#", "#.#^..#.#", "#..+..=>#", "#########"],
        "start": [1, 1], "facing": "east", "monsters": ["kobold"], "chests": ["key:1"],
        "traps": ["poison needle"],
        "encounters": [{ "at": [5, 3], "group": "chief", "text": "The chief blocks the way.",
                         "art": "m_chief", "goal": false }],
        "encounter_rate": 0.08, "groups": ["kobolds", "rats"], "encounter_grace": 5
    });
    let monsters = r#"[{ "name": "kobold", "hp": 6, "attack": 2, "sight": 5, "art": "m_kobold" }]"#;
    let crawlers = r#"[{ "name": "Vess", "hp": 12, "attack": 3, "reach": 3 }]"#;
    let tables = Tables::from_json(&Value::from(vec![row]).to_string(), monsters, crawlers);
    assert_eq!(tables.unwrap().levels[0].start, (1, 1));
}

#[test]
fn a_game_with_no_party_and_no_monsters_loads() {
    let levels = Value::from(vec![level("Top", &TOP)]).to_string();
    let tables = Tables::from_json(&levels, "[]", "[]").unwrap();
    assert!(tables.crawlers.is_empty() && tables.monsters.is_empty());
}

#[test]
fn line_of_sight_is_stopped_by_walls_not_by_open_floor() {
    let d = Dungeon::from_rows(&["#######", "#.....#", "#..#..#", "#.....#", "#######"]);
    assert!(d.line_of_sight((1, 1), (5, 1)));
    assert!(!d.line_of_sight((1, 2), (5, 2)), "the pillar is in the way");
    assert!(d.line_of_sight((1, 1), (5, 3)) == d.line_of_sight((5, 3), (1, 1)));
    assert!(d.line_of_sight((2, 2), (2, 2)));
}

#[test]
fn the_automap_blanks_the_unseen_and_keeps_secrets() {
    let mut d = Dungeon::from_rows(&["#####", "#.^.#", "#####"]);
    d.encounters.push(Encounter {
        spot: EncounterSpot {
            at: [3, 1],
            group: "g".into(),
            text: String::new(),
            art: None,
            goal: false,
            sight: None,
        },
        won: false,
    });
    for x in 0..4 {
        d.see(x, 1);
    }
    assert_eq!(d.automap(), vec!["     ", "#..E ", "     "]);
    let text = d.seen_string();
    assert_eq!(text, "00000/11110/00000");
    assert_eq!(d.parse_seen(&text), Some(d.seen.clone()));
    assert_eq!(d.parse_seen("0000/11110/00000"), None);
}

#[test]
fn facing_turns_round_the_compass() {
    assert_eq!(Facing::North.turned(1), Facing::East);
    assert_eq!(Facing::North.turned(-1), Facing::West);
    assert_eq!(Facing::West.turned(6), Facing::East);
    assert_eq!(Facing::South.right(), (-1, 0));
}

#[test]
fn stairs_up_cut_off_say_what_cuts_them_off() {
    let walled = with(
        level("Top", &["########", "#.<#..>#", "########"]),
        "start",
        json!([4, 1]),
    );
    assert_eq!(
        fails(&[walled]),
        "level 1 (Top), row 1, cell 2: the stairs up are walled off: rock stands between them and both the start and the stairs down"
    );
    let pit = with(
        level("Top", &["########", "#.<O..>#", "########"]),
        "start",
        json!([4, 1]),
    );
    assert_eq!(
        fails(&[pit]),
        "level 1 (Top), row 1, cell 2: the stairs up are cut off by a pit: the only way to them crosses one, and a pit drops the party a floor"
    );
}

#[test]
fn a_lock_whose_only_key_is_behind_it_fails() {
    // A key is drawn on the floor, so the old rule passed it, but it lies behind the lock.
    let row = with(
        level("Top", &["########", "#<.=C.>#", "########"]),
        "chests",
        json!(["key:1"]),
    );
    assert_eq!(
        fails(&[row]),
        "level 1 (Top), row 1, cell 3: more locked doors than keys on the way down: 1 locked on the way, 0 key(s) to be had (stuck at the locks at row 1, cell 3)"
    );
}

#[test]
fn a_side_lock_no_key_can_reach_fails_at_its_cells() {
    // The way down is open; the vault's lock has a key drawn, but only inside the vault.
    let row = with(
        level(
            "Top",
            &["#######", "#<...>#", "###=###", "###C###", "#######"],
        ),
        "chests",
        json!(["key:1"]),
    );
    assert_eq!(
        fails(&[row]),
        "level 1 (Top), row 2, cell 3: a locked door no key can reach: every key to be had before it is spent or behind it, and no lever opens it (locks at row 2, cell 3)"
    );
}

#[test]
fn more_locks_than_keys_on_the_way_down_fails_on_the_floor_that_runs_out() {
    let top = with(
        level("Top", &["#######", "#<C..>#", "#######"]),
        "chests",
        json!(["key:1"]),
    );
    let two_locks = level("Deep", &["#########", "#<.=.=.>#", "#########"]);
    assert_eq!(
        fails(&[top.clone(), two_locks]),
        "level 2 (Deep), row 1, cell 5: more locked doors than keys on the way down: 2 locked on the way, 1 key(s) to be had (stuck at the locks at row 1, cell 5)"
    );
    // The key spent above is gone below.
    let spent = with(
        level("Top", &["########", "#<C=..>#", "########"]),
        "chests",
        json!(["key:1"]),
    );
    let one_lock = level("Deep", &["#######", "#<.=.>#", "#######"]);
    assert_eq!(
        fails(&[spent, one_lock.clone()]),
        "level 2 (Deep), row 1, cell 3: more locked doors than keys on the way down: 1 locked on the way, 0 key(s) to be had (stuck at the locks at row 1, cell 3)"
    );
    // One key carried down opens one lock there; a key behind the first lock opens the second.
    assert!(load(&[top.clone(), one_lock]).is_ok());
    let relay = with(
        level("Deep", &["##########", "#<.=C.=.>#", "##########"]),
        "chests",
        json!(["key:1"]),
    );
    assert!(load(&[top, relay]).is_ok());
    // A lever in reach opens the gates it names, keys or not.
    let gates = json!({ "name": "Top", "map": ["#########", "#<.=.=.>#", "##L######"],
                        "doors": [{ "at": [3, 1], "name": "a" }, { "at": [5, 1], "name": "b" }],
                        "levers": [{ "at": [2, 2], "opens": ["a", "b"] }] });
    assert!(load(&[gates]).is_ok());
}

#[test]
fn a_floor_of_many_locks_loads_without_trying_every_order() {
    // Twenty-four vaults, each holding a key, all but the first behind a lock: 2^23 orders of
    // opening them, far more than the search tries, so it stops and lets the level load.
    let n = 24;
    let map = [
        "#".repeat(2 * n + 1),
        format!("#{}", "C#".repeat(n)),
        format!("#.#{}", "=#".repeat(n - 1)),
        format!("#<{}>#", ".".repeat(2 * n - 3)),
        "#".repeat(2 * n + 1),
    ];
    let rows: Vec<&str> = map.iter().map(String::as_str).collect();
    let vaults = with(level("Top", &rows), "chests", json!(vec!["key:1"; n]));
    assert!(load(&[vaults]).is_ok());
    // Seventy locks are past what it plays out at all: the floor loads on the keys above.
    let many = [
        format!("#{}#", "=".repeat(70)),
        format!("#<{}>#", ".".repeat(68)),
        format!("#{}#", "#".repeat(70)),
    ];
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let top = with(
        level("Top", &["######", "#<CC>#", "######"]),
        "chests",
        json!(["key:1", "key:1"]),
    );
    assert!(load(&[top, level("Deep", &many)]).is_ok());
}

/// A floor with one of each new thing: a secret door, a teleporter, a spinner, a dark cell, a
/// plate, a button and a lever, named doors, items, decor and a wall set.
fn furnished() -> Value {
    json!({
        "name": "Works",
        "map": ["##########",
                "#<._.S..T#",
                "#.####=#.#",
                "#%D..+.B.#",
                "#.L#######",
                "#...>=...#",
                "##########"],
        "doors": [{ "at": [6, 2], "name": "north gate" }, { "at": [5, 1], "name": "hidden" },
                  { "at": [5, 5], "name": "vault", "key": "bronze" }, { "at": [5, 3], "name": "inner" }],
        "levers": [{ "at": [2, 4], "opens": ["north gate"] }],
        "plates": [{ "at": [3, 1], "opens": [], "shuts": ["inner"] }],
        "buttons": [{ "at": [7, 3], "opens": ["inner"] }],
        "teleports": [{ "at": [8, 1], "to": [1, 5], "facing": "east" }],
        "spinners": [{ "at": [1, 3], "turn": 2 }],
        "items": [{ "at": [2, 5], "loot": "key:bronze", "art": "i_key" }, { "at": [2, 5], "loot": "gold:5" }],
        "decor": [{ "at": [3, 4], "side": "north", "art": "banner" }],
        "traps": [{ "name": "darts", "damage": 3 }],
        "walls": "roots"
    })
}

fn furnished_with(key: &str, value: Value) -> String {
    fails(&[with(furnished(), key, value)])
}

#[test]
fn a_furnished_floor_loads_with_every_row_field_kept() {
    let tables = load(&[furnished()]).unwrap();
    let l = &tables.levels[0];
    assert_eq!(l.cell(5, 1), &Cell::Secret);
    assert_eq!(l.cell(8, 1), &Cell::Teleporter);
    assert_eq!(l.cell(1, 3), &Cell::Spinner);
    assert_eq!(l.cell(2, 3), &Cell::Dark);
    assert_eq!(l.cell(3, 1), &Cell::Plate { pressed: false });
    assert_eq!(l.cell(7, 3), &Cell::Button { pressed: false });
    assert!(l.cell(5, 1).is_solid() && l.cell(7, 3).is_solid());
    assert!(l.cell(8, 1).is_walkable() && l.cell(2, 3).is_walkable());
    assert!(l.is_gate(6, 2) && l.is_gate(5, 3) && !l.is_gate(5, 5));
    assert_eq!(
        l.door_named("vault").unwrap().key.as_deref(),
        Some("bronze")
    );
    assert_eq!(l.teleport_at(8, 1).unwrap().to, [1, 5]);
    assert_eq!(l.spinner_at(1, 3).unwrap().turn, Some(2));
    assert_eq!(l.items.len(), 2);
    assert_eq!(l.items[0].loot.named_key(), Some("bronze"));
    assert_eq!((l.items[1].index, l.items[1].art.as_deref()), (1, None));
    assert_eq!(l.decor[0].art, "banner");
    assert_eq!(l.walls.as_deref(), Some("roots"));
    let floor = Dungeon::new(l, &tables.monsters);
    assert_eq!((floor.items.len(), floor.decor.len()), (2, 1));
    assert_eq!(floor.walls.as_deref(), Some("roots"));
    assert_eq!(l.rows()[3], "#%D..+.B.#", "the new symbols read back");
}

#[test]
fn every_lever_plate_button_and_teleporter_needs_one_entry_on_its_symbol() {
    assert_eq!(
        furnished_with("levers", json!([])),
        "level 1 (Works), row 4, cell 2: a L is drawn here but the level's \"levers\" list has no entry for it"
    );
    assert_eq!(
        furnished_with("plates", json!([])),
        "level 1 (Works), row 1, cell 3: a _ is drawn here but the level's \"plates\" list has no entry for it"
    );
    assert_eq!(
        furnished_with("buttons", json!([])),
        "level 1 (Works), row 3, cell 7: a B is drawn here but the level's \"buttons\" list has no entry for it"
    );
    assert_eq!(
        furnished_with("teleports", json!([])),
        "level 1 (Works), row 1, cell 8: a T is drawn here but the level's \"teleports\" list has no entry for it"
    );
    assert_eq!(
        furnished_with(
            "levers",
            json!([{ "at": [2, 4], "opens": ["north gate"] }, { "at": [3, 3] }])
        ),
        "level 1 (Works), row 3, cell 3: this \"levers\" entry stands on a '.', not a L"
    );
    assert_eq!(
        furnished_with(
            "buttons",
            json!([{ "at": [7, 3], "opens": ["inner"] }, { "at": [7, 3] }])
        ),
        "level 1 (Works), row 3, cell 7: two \"buttons\" entries stand on this cell"
    );
    assert_eq!(
        furnished_with("spinners", json!([{ "at": [40, 3] }])),
        "level 1 (Works), row 3, cell 40: this \"spinners\" entry stands on a '#', not a %"
    );
    // A spinner needs no entry: it turns at random.
    let mut row = furnished();
    row["spinners"] = json!([]);
    assert!(load(&[row]).is_ok());
}

#[test]
fn named_doors_stand_on_doors_and_mechanisms_name_only_them() {
    let doors = |extra: Value| {
        let mut list = furnished()["doors"].clone();
        list.as_array_mut().unwrap().push(extra);
        furnished_with("doors", list)
    };
    assert_eq!(
        doors(json!({ "at": [2, 1], "name": "floor" })),
        "level 1 (Works), row 1, cell 2: the door \"floor\" is named on a cell that is not a door (+ = or S)"
    );
    assert_eq!(
        doors(json!({ "at": [5, 5], "name": "vault" })),
        "level 1 (Works), row 5, cell 5: the door name \"vault\" is empty or names two doors on this floor"
    );
    let mut row = furnished();
    row["doors"][3]["key"] = json!("iron");
    assert_eq!(
        fails(&[row]),
        "level 1 (Works), row 3, cell 5: the door \"inner\" takes a key but is not a locked door (=)"
    );
    assert_eq!(
        furnished_with("levers", json!([{ "at": [2, 4], "opens": ["west gate"] }])),
        "level 1 (Works), row 4, cell 2: this \"levers\" entry names the door \"west gate\", which is not one of this floor's doors"
    );
}

#[test]
fn a_door_needing_a_named_key_nobody_holds_is_refused() {
    let mut row = furnished();
    row["items"] = json!([{ "at": [2, 5], "loot": "key:iron" }]);
    assert_eq!(
        fails(&[row]),
        "level 1 (Works), row 5, cell 5: the door \"vault\" opens with the key \"bronze\", and no chest or item on this floor or above holds it"
    );
    // A key found above opens the door below (and is kept).
    let top = with(
        level("Top", &["######", "#<C.>#", "######"]),
        "chests",
        json!(["key:bronze"]),
    );
    let below = json!({ "name": "Deep", "map": ["#######", "#<.=.>#", "#######"],
                        "doors": [{ "at": [3, 1], "name": "v", "key": "bronze" }] });
    assert!(load(&[top, below.clone()]).is_ok());
    // The key behind its own door does not open it.
    let inside = json!({ "name": "Top", "map": ["########", "#<.=C.>#", "########"],
                         "chests": ["key:bronze"], "doors": [{ "at": [3, 1], "name": "v", "key": "bronze" }] });
    assert_eq!(
        fails(&[inside]),
        "level 1 (Top), row 1, cell 6: the way down cannot be reached from the start"
    );
}

#[test]
fn a_gate_opens_only_when_a_mechanism_naming_it_is_in_reach() {
    let gate = |lever_at: [i32; 2], map: &[&str]| {
        json!({ "name": "Top", "map": map, "doors": [{ "at": [3, 1], "name": "g" }],
                "levers": [{ "at": lever_at, "opens": ["g"] }] })
    };
    assert!(load(&[gate([2, 2], &["#######", "#<.=.>#", "##L####"])]).is_ok());
    // The lever is behind the gate it opens: stuck.
    assert_eq!(
        fails(&[gate([4, 2], &["#######", "#<.=.>#", "####L##"])]),
        "level 1 (Top), row 1, cell 5: the way down cannot be reached from the start"
    );
    // A key does not open a gate.
    let keyed = json!({ "name": "Top", "map": ["#######", "#C.=.>#", "#<##L##"],
                        "chests": ["key:1"], "start": [1, 1],
                        "doors": [{ "at": [3, 1], "name": "g" }],
                        "levers": [{ "at": [4, 2], "opens": ["g"] }] });
    assert!(fails(&[keyed]).contains("the way down cannot be reached"));
    // A plate opens what it names when stood on.
    let plate = json!({ "name": "Top", "map": ["#######", "#<_=.>#", "#######"],
                        "doors": [{ "at": [3, 1], "name": "g" }],
                        "plates": [{ "at": [2, 1], "opens": ["g"] }] });
    assert!(load(&[plate]).is_ok());
}

#[test]
fn the_way_down_may_lie_through_a_teleporter_or_a_secret_door() {
    let teleport = json!({ "name": "Top", "map": ["#######", "#<.T#>#", "#######"],
                           "teleports": [{ "at": [3, 1], "to": [5, 1] }] });
    assert!(load(&[teleport]).is_ok());
    let secret = level("Top", &["#######", "#<.S.>#", "#######"]);
    assert!(load(&[secret]).is_ok());
    // A teleporter is not walked across: the cell beyond it is not reached through it.
    let across = json!({ "name": "Top", "map": ["#######", "#<.T.>#", "#######"],
                         "teleports": [{ "at": [3, 1], "to": [1, 1] }] });
    assert_eq!(
        fails(&[across]),
        "level 1 (Top), row 1, cell 5: the way down cannot be reached from the start"
    );
}

#[test]
fn a_teleporter_lands_on_a_floor_and_a_cell_the_party_can_stand_on() {
    let to = |t: Value| furnished_with("teleports", json!([t]));
    assert_eq!(
        to(json!({ "at": [8, 1], "to": [0, 0] })),
        "level 1 (Works), row 1, cell 8: the teleporter sends the party to row 0, cell 0 of its own floor, which is off the map or solid"
    );
    assert_eq!(
        to(json!({ "at": [8, 1], "to": [8, 1] })),
        "level 1 (Works), row 1, cell 8: the teleporter sends the party to row 1, cell 8 of its own floor, which is another teleporter"
    );
    assert_eq!(
        to(json!({ "at": [8, 1], "to": [1, 5], "floor": 3 })),
        "level 1 (Works), row 1, cell 8: the teleporter sends the party to floor 3, which does not exist (floors count from 0; there are 1)"
    );
    let mut row = furnished();
    row["teleports"] = json!([{ "at": [8, 1], "to": [0, 1], "floor": 1 }]);
    let deep = level("Deep", &["#####", "#<.>#", "#####"]);
    assert_eq!(
        fails(&[row.clone(), deep.clone()]),
        "level 1 (Works), row 1, cell 8: the teleporter sends the party to row 1, cell 0 of floor 1, which is off the map or solid"
    );
    row["teleports"][0]["to"] = json!([2, 1]);
    assert!(load(&[row.clone(), deep]).is_ok(), "to another floor");
    let vault = with(
        level("Deep", &["#######", "#<C>=.#", "#######"]),
        "chests",
        json!(["key:1"]),
    );
    row["teleports"][0]["to"] = json!([5, 1]);
    assert_eq!(
        fails(&[row, vault]),
        "level 1 (Works), row 1, cell 8: the teleporter sends the party to row 1, cell 5 of floor 1, from where the stairs up are behind a locked door"
    );
    let fight = with(
        furnished(),
        "encounters",
        json!([{ "at": [1, 5], "group": "g" }]),
    );
    assert_eq!(
        fails(&[fight]),
        "level 1 (Works), row 1, cell 8: the teleporter sends the party to row 5, cell 1 of its own floor, which is a fight's cell"
    );
}

#[test]
fn spinners_items_decor_and_wall_sets_are_checked_against_the_drawing() {
    assert_eq!(
        furnished_with("spinners", json!([{ "at": [1, 3], "turn": 4 }])),
        "level 1 (Works), row 3, cell 1: a spinner's turn 4 is not 1 to 3 quarter turns"
    );
    assert_eq!(
        furnished_with("items", json!([{ "at": [1, 3], "loot": "gold:1" }])),
        "level 1 (Works), row 3, cell 1: an item lies here, but items lie only on open floor (.)"
    );
    assert_eq!(
        furnished_with("items", json!([{ "at": [2, 5], "loot": "gold" }])),
        "level 1 (Works), row 5, cell 2: loot \"gold\" is not kind:value (gold: and heal: need a whole number, key: a number or a name)"
    );
    assert_eq!(
        furnished_with(
            "decor",
            json!([{ "at": [2, 5], "side": "north", "art": "x" }])
        ),
        "level 1 (Works), row 5, cell 2: decor hangs only on a solid cell (# S B L)"
    );
    assert_eq!(
        furnished_with(
            "decor",
            json!([{ "at": [0, 0], "side": "north", "art": "x" }])
        ),
        "level 1 (Works), row 0, cell 0: decor on the face toward north looks into rock: the cell on that side must be open"
    );
    assert_eq!(
        furnished_with("walls", json!(" ")),
        "level 1 (Works): \"walls\" is empty"
    );
    let typo = furnished_with("decor", json!([{ "at": [3, 4], "side": "up", "art": "x" }]));
    assert!(
        typo.starts_with("level 1 (Works): unknown variant `up`"),
        "{typo}"
    );
}

#[test]
fn a_trap_may_say_how_much_it_hurts() {
    let tables = load(&[furnished()]).unwrap();
    assert!(
        tables.levels[0]
            .cells
            .iter()
            .all(|c| !matches!(c, Cell::Trap { .. }))
    );
    let row = with(
        level("Top", &["#####", "#<^>#", "#####"]),
        "traps",
        json!([{ "name": "darts", "damage": 3 }]),
    );
    let tables = load(std::slice::from_ref(&row)).unwrap();
    assert_eq!(
        tables.levels[0].cell(2, 1),
        &Cell::Trap {
            name: "darts".into(),
            sprung: false,
            damage: 3
        }
    );
    let bad = with(row, "traps", json!([7]));
    let e = fails(&[bad]);
    assert!(
        e.starts_with("level 1 (Top): a trap is a name or {\"name\": .., \"damage\": N}, not 7"),
        "{e}"
    );
}

#[test]
fn a_pit_drops_onto_open_floor_below_and_never_from_the_last_floor() {
    let top = level("Top", &["######", "#<.>O#", "######"]);
    assert_eq!(
        fails(std::slice::from_ref(&top)),
        "level 1 (Top), row 1, cell 4: a pit on the last floor leads nowhere"
    );
    let below = |row: &str| level("Deep", &["######", row, "######"]);
    assert!(load(&[top.clone(), below("#<>..#")]).is_ok());
    for (row, what) in [
        ("#<>.##", "off its map or solid"),
        ("#<.>>#", "stairs"),
        ("#<>.T#", "a teleporter"),
    ] {
        let mut deep = below(row);
        if row.contains('T') {
            deep["teleports"] = json!([{ "at": [4, 1], "to": [3, 1] }]);
        }
        assert_eq!(
            fails(&[top.clone(), deep]),
            format!(
                "level 1 (Top), row 1, cell 4: the pit drops the party to the same cell on the next floor, which is {what}"
            )
        );
    }
    // Landing beneath a pit, the party must still be able to reach the stairs up.
    let shut_in = level("Deep", &["#######", "#<.>=.#", "#######"]);
    let top = level("Top", &["#######", "#<.C>O#", "#######"]);
    let top = with(top, "chests", json!(["key:1"]));
    let e = fails(&[top, shut_in]);
    assert_eq!(
        e,
        "level 2 (Deep), row 1, cell 1: the stairs up are behind a locked door"
    );
}

#[test]
fn fights_stand_one_to_a_cell_off_the_stairs_and_off_monsters_with_named_groups() {
    let map = ["#######", "#<.M.>#", "#######"];
    let fights = |list: Value| {
        let row = with(level("Top", &map), "monsters", json!(["rat"]));
        fails(&[with(row, "encounters", list)])
    };
    assert_eq!(
        fights(json!([{ "at": [2, 1], "group": "a" }, { "at": [2, 1], "group": "b" }])),
        "level 1 (Top), row 1, cell 2: two fights are placed on this cell"
    );
    assert_eq!(
        fights(json!([{ "at": [5, 1], "group": "a" }])),
        "level 1 (Top), row 1, cell 5: a fight is placed on the stairs"
    );
    assert_eq!(
        fights(json!([{ "at": [1, 1], "group": "a" }])),
        "level 1 (Top), row 1, cell 1: a fight is placed on the stairs"
    );
    assert_eq!(
        fights(json!([{ "at": [3, 1], "group": "a" }])),
        "level 1 (Top), row 1, cell 3: a fight is placed where a monster starts"
    );
    assert_eq!(
        fights(json!([{ "at": [2, 1], "group": " " }])),
        "level 1 (Top), row 1, cell 2: a group with an empty name"
    );
    let groups = with(level("Top", &TOP), "groups", json!(["rats", ""]));
    assert_eq!(
        fails(&[groups]),
        "level 1 (Top): a group with an empty name"
    );
}

#[test]
fn a_named_key_reads_as_a_key_not_a_number() {
    let bronze = Loot::parse("key:bronze").unwrap();
    assert_eq!(
        (bronze.named_key(), bronze.plain_keys()),
        (Some("bronze"), 0)
    );
    let two = Loot::parse("key:2").unwrap();
    assert_eq!((two.named_key(), two.plain_keys()), (None, 2));
    assert_eq!(two.text(), "key:2");
}

#[test]
fn the_furniture_is_in_the_dungeons_fingerprint() {
    let plain = load(&[level("Top", &TOP)]).unwrap().fingerprint();
    let walled = load(&[with(level("Top", &TOP), "walls", json!("roots"))]).unwrap();
    assert_ne!(plain, walled.fingerprint());
    let base = load(&[furnished()]).unwrap().fingerprint();
    let mut moved = furnished();
    moved["spinners"][0]["turn"] = json!(1);
    assert_ne!(base, load(&[moved]).unwrap().fingerprint());
}
