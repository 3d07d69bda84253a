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
