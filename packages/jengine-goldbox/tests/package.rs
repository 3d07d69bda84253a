//! The package on the engine, driven the way a game drives it: a small project in a temp
//! folder, a scene with one `goldbox_fight`, and a Lua script making one planned call per
//! frame. What the test reads is what a script reads: the bags and the log.

use std::path::Path;

use jengine::LogLevel;
use jengine_crawler::CrawlerPackage;
use jengine_goldbox::GoldBoxPackage;
use jengine_testkit::{Options, Runtime};

/// Writes the project: `game` as the component, `tables` as extra data files, `plan` as a
/// Lua chunk returning one function a frame (called with the fight's entity).
fn project(dir: &Path, game: serde_json::Value, tables: &[(&str, &str)], plan: &str) {
    let project = serde_json::json!({
        "name": "goldbox-test", "version": "0.1.0", "start_scene": "fight",
        "packages": [{ "name": "jengine-crawler",
                       "source": { "type": "path",
                                   "path": concat!(env!("CARGO_MANIFEST_DIR"), "/../jengine-crawler") } },
                     { "name": "jengine-goldbox",
                       "source": { "type": "path", "path": env!("CARGO_MANIFEST_DIR") } }]
    });
    let scene = serde_json::json!({
        "version": 2,
        "entities": [
            { "name": "camera", "camera": { "center": [0, 0], "size": [16, 9] } },
            { "name": "fight", "goldbox_fight": game, "script": "driver.lua" }
        ]
    });
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("project.jengine", &project.to_string());
    write("assets/scenes/fight.scene", &scene.to_string());
    for (name, text) in tables {
        write(&format!("data/{name}.json"), text);
    }
    write(
        "assets/scripts/driver.lua",
        "local plan = import('plan.lua')\nlocal i = 0\n\
         function update(e, dt)\n  i = i + 1\n  local f = plan[i]\n  if f then f(e) end\nend\n",
    );
    write("assets/scripts/plan.lua", plan);
}

fn plan(steps: &[&str]) -> String {
    let mut s = String::from("return {\n");
    for step in steps {
        s.push_str(&format!("  function(e) {step} end,\n"));
    }
    s.push_str("}\n");
    s
}

fn start(dir: &Path, game: serde_json::Value, plan: &str) -> Runtime {
    start_with(dir, game, &[], plan).unwrap_or_else(|p| panic!("{p:#?}"))
}

fn start_with(
    dir: &Path,
    game: serde_json::Value,
    tables: &[(&str, &str)],
    plan: &str,
) -> Result<Runtime, Vec<String>> {
    project(dir, game, tables, plan);
    Runtime::new(dir, &[&CrawlerPackage, &GoldBoxPackage], Options::default())
}

fn state(rt: &Runtime) -> serde_json::Value {
    rt.bags()["fight"]["GoldBox"].clone()
}

fn events(rt: &Runtime) -> Vec<String> {
    rt.bags()["fight"]["GoldBoxEvents"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap().to_string())
        .collect()
}

fn warnings(rt: &mut Runtime) -> Vec<String> {
    rt.take_log()
        .into_iter()
        .filter(|l| l.level >= LogLevel::Warn)
        .map(|l| l.message)
        .collect()
}

/// Moves the active member to its first legal square (a script reading the bag).
const MOVE_FIRST: &str = "local s = Entity.get(e, 'GoldBox') local m = s.legal.moves[1] \
                          GoldBox.move(e, m.x, m.y)";

#[test]
fn a_fight_starts_from_a_named_encounter_and_the_bag_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = start(
        dir.path(),
        serde_json::json!({}),
        &plan(&["GoldBox.start(e, 'kobold pack', 3)"]),
    );
    rt.step(&[]);
    assert!(warnings(&mut rt).is_empty());
    let s = state(&rt);
    assert_eq!(s["fighting"], true);
    assert_eq!(s["seed"], 3);
    assert_eq!(
        (s["width"].as_i64(), s["height"].as_i64()),
        (Some(20), Some(14))
    );
    let units = s["units"].as_array().unwrap();
    assert_eq!(units.len(), 12, "six members and six kobolds");
    assert_eq!(units[0]["name"], "Brannoc");
    assert_eq!(units[6]["name"], "kobold 1");
    let active = s["active"].as_i64().unwrap();
    let member = &units[active as usize - 1];
    assert_eq!(member["side"], "party");
    assert_eq!(s["legal"]["unit"], active);
    assert!(!s["legal"]["moves"].as_array().unwrap().is_empty());
    assert!(
        s["order"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!(active))
    );
    let said = events(&rt);
    assert_eq!(said[0], "initiative");
    assert!(said.contains(&"turn".to_string()));
    assert_eq!(s["log"].as_array().unwrap().len(), said.len());
}

#[test]
fn every_command_runs_with_good_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "GoldBox.start(e, 'orc band', 5)",
        MOVE_FIRST,
        "GoldBox.end_turn(e)",
        "GoldBox.guard(e)",
        "GoldBox.quick(e, true)",
        "goldbox_end_turn(e)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    let mut seen = Vec::new();
    for _ in 0..steps.len() {
        rt.step(&[]);
        seen.push(events(&rt));
    }
    let said = warnings(&mut rt);
    assert!(said.is_empty(), "{said:#?}");
    assert!(seen[1].contains(&"moved".to_string()), "{:?}", seen[1]);
    assert!(seen[2].contains(&"turn".to_string()));
    assert_eq!(seen[3][0], "guarding");
    assert_eq!(seen[4][0], "quick");
}

#[test]
fn bad_arguments_are_refused_at_the_call_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = [
        (
            "GoldBox.start(e, 5)",
            "GoldBox.start: the arguments must be such that encounter is a name, JSON text or a table",
        ),
        (
            "GoldBox.start(e, 'orc band', -1)",
            "GoldBox.start: argument 3 (seed) must be 0 or more",
        ),
        ("GoldBox.move(e, 'x', 1)", "GoldBox.move: argument 2 (x)"),
        (
            "GoldBox.move(e, 64, 0)",
            "GoldBox.move: argument 2 (x) must be 0 to 63, got number 64",
        ),
        ("GoldBox.move(e, 1, 0.5)", "GoldBox.move: argument 3 (y)"),
        (
            "GoldBox.attack(e, 0)",
            "GoldBox.attack: argument 2 (unit) must be 1 to 999",
        ),
        (
            "GoldBox.cast(e, 5, 1, 1)",
            "GoldBox.cast: argument 2 (spell)",
        ),
        (
            "GoldBox.cast(e, 'drowse', 1)",
            "GoldBox.cast: argument 4 (y)",
        ),
        ("GoldBox.quick(e, 1)", "GoldBox.quick: argument 2 (on)"),
        ("GoldBox.bandage(e)", "GoldBox.bandage: argument 2 (unit)"),
        ("GoldBox.flee('e')", "GoldBox.flee: argument 1 (e)"),
        ("GoldBox.end_turn(nil)", "GoldBox.end_turn: argument 1 (e)"),
    ];
    let body: Vec<String> = bad
        .iter()
        .map(|(call, _)| {
            format!(
                "local ok, err = pcall(function() {call} end) \
                 Log.warn((ok and 'queued: ' or '') .. tostring(err))"
            )
        })
        .collect();
    let mut steps = vec!["GoldBox.start(e, 'orc band', 5)"];
    steps.extend(body.iter().map(String::as_str));
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    let before = state(&rt);
    for _ in 0..bad.len() {
        rt.step(&[]);
        assert!(events(&rt).is_empty(), "{:?}", events(&rt));
    }
    let said = warnings(&mut rt);
    assert_eq!(said.len(), bad.len(), "{said:#?}");
    for ((call, expected), message) in bad.iter().zip(&said) {
        assert!(
            message.contains("assets/scripts/plan.lua:") && message.contains(expected),
            "{call}: {message}"
        );
    }
    assert_eq!(state(&rt), before, "nothing was queued");
}

#[test]
fn commands_the_fight_refuses_say_why_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "GoldBox.end_turn(e)",
        "GoldBox.start(e, 'dragons')",
        "GoldBox.start(e, 'kobold pack', 3)",
        "GoldBox.attack(e, 99)",
        "GoldBox.move(e, 19, 0)",
        "GoldBox.cast(e, 'fire burst', 3, 3)",
        "GoldBox.bandage(e, 1)",
        "GoldBox.flee(e)",
        "GoldBox.point(e, 3, 3, 'fire burst')",
        "GoldBox.start(e, '{\"monsters\": [{\"kind\": \"dragon\", \"count\": 1}]}')",
        "GoldBox.rest(e)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    rt.step(&[]);
    rt.step(&[]);
    let before = state(&rt);
    let active = before["units"][before["active"].as_i64().unwrap() as usize - 1]["name"]
        .as_str()
        .unwrap()
        .to_string();
    for _ in 3..steps.len() {
        rt.step(&[]);
        assert!(events(&rt).is_empty(), "{:?}", events(&rt));
    }
    assert_eq!(state(&rt), before);
    let said = warnings(&mut rt);
    let expected = [
        "GoldBox.end_turn: no fight is on: call GoldBox.start first".to_string(),
        "GoldBox.start: no encounter is named \"dragons\" (there are: kobold pack, orc band, crypt, hill raiders, hexer's gang)".to_string(),
        "GoldBox.attack: there is no unit 99".to_string(),
        format!("GoldBox.move: {active} cannot reach (19, 0)"),
        format!("GoldBox.cast: {active} holds no unspent \"fire burst\""),
        "GoldBox.bandage: ".to_string(),
        format!("GoldBox.flee: {active} is not on the edge of the field"),
        format!("GoldBox.point: {active} holds no unspent \"fire burst\""),
        "GoldBox.start: the encounter: row 1, monsters[0].kind: \"dragon\" is not in the monsters table".to_string(),
        "GoldBox.rest: there is no resting in the middle of a fight".to_string(),
    ];
    assert_eq!(said.len(), expected.len(), "{said:#?}");
    for (message, expected) in said.iter().zip(&expected) {
        assert!(
            message.contains(expected.as_str()),
            "{message}\nwanted {expected}"
        );
    }
}

#[test]
fn a_fight_handed_to_the_computer_ends_and_pays_the_party() {
    let dir = tempfile::tempdir().unwrap();
    let all_quick = "for i = 1, 6 do GoldBox.quick(e, true, i) end";
    let steps = [
        "GoldBox.start(e, 'kobold pack', 9)",
        all_quick,
        "GoldBox.rest(e)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    let xp_before: i64 = state(&rt)["party"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["classes"][0]["xp"].as_i64().unwrap())
        .sum();
    rt.step(&[]);
    let said = events(&rt);
    assert_eq!(said.last().map(String::as_str), Some("end"), "{said:?}");
    let s = state(&rt);
    assert_eq!(s["outcome"]["ending"], "won");
    assert!(s["active"].is_null() && s["legal"].is_null());
    let xp_after: i64 = s["party"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["classes"][0]["xp"].as_i64().unwrap())
        .sum();
    assert!(xp_after > xp_before, "{xp_before} -> {xp_after}");
    // Every hit, miss and death of the fight is in the log.
    let log = s["log"].as_array().unwrap();
    assert!(log.iter().any(|e| e["event"] == "died"));
    assert!(
        log.iter()
            .any(|e| e["event"] == "hit" || e["event"] == "spell_damage")
    );
    rt.step(&[]);
    assert!(warnings(&mut rt).is_empty());
    let spent = state(&rt)["party"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["memorised"].as_array().unwrap().clone())
        .filter(|m| m["used"] == true)
        .count();
    assert_eq!(spent, 0, "a rest restores every spell");
}

#[test]
fn the_scene_gives_the_battlefield_and_can_start_a_fight_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let rows = [
        "##########",
        "#........#",
        "#..#..#..#",
        "#........#",
        "#..+..+..#",
        "#........#",
        "#........#",
        "#........#",
        "####//####",
    ];
    let game = serde_json::json!({ "field": rows, "seed": 4, "encounter": "kobold pack" });
    let mut rt = start(dir.path(), game, "return {}");
    rt.step(&[]);
    assert!(warnings(&mut rt).is_empty());
    let s = state(&rt);
    assert_eq!(s["field"], serde_json::json!(rows));
    assert_eq!(s["seed"], 4);
    for u in s["units"].as_array().unwrap() {
        let (x, y) = (u["x"].as_i64().unwrap(), u["y"].as_i64().unwrap());
        let c = rows[y as usize].as_bytes()[x as usize];
        assert!(
            c == b'.' || c == b'/',
            "{} stands on {:?}",
            u["name"],
            c as char
        );
    }
}

#[test]
fn an_encounter_can_be_given_as_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let steps = ["GoldBox.start(e, { monsters = { { kind = 'ogre', count = 1 } } }, 2)"];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    assert!(warnings(&mut rt).is_empty());
    let s = state(&rt);
    assert_eq!(s["units"].as_array().unwrap().len(), 7);
    assert_eq!(s["units"][6]["kind"], "ogre");
}

#[test]
fn a_bad_table_is_refused_at_startup_naming_file_row_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let monsters = r#"[{ "name": "imp", "hd": 1, "ac": 4, "move": 12, "attacks": ["1x4"],
                        "morale": 8, "xp": 5 }]"#;
    let problems = start_with(
        dir.path(),
        serde_json::json!({}),
        &[("goldbox_monsters", monsters)],
        "return {}",
    )
    .err()
    .expect("a bad monster table must not load");
    let all = problems.join("\n");
    assert!(
        all.contains(
            "data/goldbox_monsters.json: row 1 (\"imp\"): attacks[0]: \"1x4\" is not dice like 1d8, 2d4+1 or 3"
        ),
        "{all}"
    );
}

#[test]
fn a_scene_with_a_bad_field_is_refused_naming_the_square() {
    let dir = tempfile::tempdir().unwrap();
    let game = serde_json::json!({ "field": ["#####", "#.x.#", "#####"] });
    let problems = start_with(dir.path(), game, &[], "return {}")
        .err()
        .expect("a field with an unknown square must not load");
    let all = problems.join("\n");
    assert!(
        all.contains("field: field row 1, square 2: 'x' is not terrain"),
        "{all}"
    );
}

#[test]
fn a_named_table_the_project_lacks_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let game = serde_json::json!({ "tables": { "party": "heroes" } });
    let problems = start_with(dir.path(), game, &[], "return {}")
        .err()
        .expect("a missing party table must not load");
    assert!(
        problems.join("\n").contains(
            "goldbox_fight.tables.party names data/heroes.json, which the project does not have"
        ),
        "{problems:#?}"
    );
}

#[test]
fn pointing_moves_the_cursor_and_previews_a_spell() {
    let dir = tempfile::tempdir().unwrap();
    let party = r#"[{ "name": "Corvin", "race": "human", "classes": ["mage"], "levels": [5],
        "abilities": { "str": 8, "int": 17, "wis": 12, "dex": 14, "con": 12, "cha": 10 },
        "spells": ["drowse", "fire burst"] }]"#;
    let steps = [
        "GoldBox.start(e, 'kobold pack', 3)",
        "GoldBox.point(e, 4, 5)",
        "local s = Entity.get(e, 'GoldBox') local me = s.units[s.active] \
         GoldBox.point(e, me.x, me.y - 3, 'fire burst')",
    ];
    let mut rt = start_with(
        dir.path(),
        serde_json::json!({}),
        &[("goldbox_party", party)],
        &plan(&steps),
    )
    .unwrap_or_else(|p| panic!("{p:#?}"));
    rt.step(&[]);
    assert!(state(&rt)["cursor"].is_null());
    rt.step(&[]);
    assert_eq!(state(&rt)["cursor"], serde_json::json!({ "x": 4, "y": 5 }));
    assert!(state(&rt)["preview"].as_array().unwrap().is_empty());
    rt.step(&[]);
    assert!(warnings(&mut rt).is_empty());
    let s = state(&rt);
    // A burst of radius 2 in open ground: 21 squares round the cursor.
    assert_eq!(s["preview"].as_array().unwrap().len(), 21);
    assert!(
        s["units"][0]["spells"].as_array().unwrap().len() == 2,
        "aiming spends nothing"
    );
}

#[test]
fn aiming_previews_where_it_may_and_says_why_where_it_may_not() {
    let dir = tempfile::tempdir().unwrap();
    let party = r#"[{ "name": "Corvin", "race": "human", "classes": ["mage"], "levels": [5],
        "abilities": { "str": 8, "int": 17, "wis": 12, "dex": 14, "con": 12, "cha": 10 },
        "spells": ["fire burst"] }]"#;
    let steps = [
        "GoldBox.start(e, 'kobold pack', 3)",
        // On the caster's own square: the burst would cover it too.
        "local s = Entity.get(e, 'GoldBox') local me = s.units[s.active] \
         GoldBox.aim(e, me.x, me.y, 'fire burst')",
        "GoldBox.aim(e, 0, 0, 'no such spell')",
        "GoldBox.unpoint(e)",
    ];
    let mut rt = start_with(
        dir.path(),
        serde_json::json!({}),
        &[("goldbox_party", party)],
        &plan(&steps),
    )
    .unwrap_or_else(|p| panic!("{p:#?}"));
    rt.step(&[]);
    rt.step(&[]);
    let s = state(&rt);
    let me = s["units"][0].clone();
    let here = serde_json::json!({ "x": me["x"], "y": me["y"] });
    assert_eq!(s["cursor"], here);
    assert!(s["aim_refused"].is_null(), "{}", s["aim_refused"]);
    assert!(
        s["preview"].as_array().unwrap().contains(&here),
        "a friend under the burst is shown under it"
    );
    rt.step(&[]);
    assert!(
        warnings(&mut rt).is_empty(),
        "aiming where a cast is refused is no error"
    );
    let s = state(&rt);
    assert_eq!(s["cursor"], serde_json::json!({ "x": 0, "y": 0 }));
    assert!(s["preview"].as_array().unwrap().is_empty());
    let why = s["aim_refused"].as_str().expect("a reason");
    assert!(why.contains("no such spell"), "{why}");
    rt.step(&[]);
    let s = state(&rt);
    assert!(s["cursor"].is_null());
    assert!(s["preview"].as_array().unwrap().is_empty());
    assert!(s["aim_refused"].is_null());
}

fn sprites(rt: &Runtime) -> usize {
    rt.world
        .entities
        .query::<(&jengine::Sprite, &jengine::BulkEntity, &jengine::SpawnedFor)>()
        .iter()
        .count()
}

#[test]
fn the_battlefield_is_drawn_unless_the_scene_says_not() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = start(
        dir.path(),
        serde_json::json!({ "encounter": "kobold pack" }),
        "return {}",
    );
    rt.step(&[]);
    // A square a tile, and more for the units, their bars and the reach.
    assert!(sprites(&rt) > 20 * 14 + 12, "{}", sprites(&rt));
    let dir = tempfile::tempdir().unwrap();
    let game = serde_json::json!({ "encounter": "kobold pack", "view": { "draw": false } });
    let mut rt = start(dir.path(), game, "return {}");
    rt.step(&[]);
    assert_eq!(sprites(&rt), 0);
    assert_eq!(state(&rt)["fighting"], true);
}

/// Gear between fights through the engine: the bag's `sheets` show what the rules make of it,
/// `outfit` answers every change (done, or refused in words with nothing changed and nothing
/// logged as a script's error), and the middle of a fight refuses it.
#[test]
fn gear_is_given_readied_and_removed_and_answered_in_the_bag() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "GoldBox.give(e, 6, 'chain mail')",
        "GoldBox.give(e, 1, 'plate mail')",
        "GoldBox.ready(e, 1, 'chain mail')",
        "GoldBox.remove(e, 1, 'plate mail')",
        "GoldBox.ready(e, 1, 'plate mail')",
        "GoldBox.start(e, 'kobold pack', 3)",
        "GoldBox.give(e, 1, 'dagger')",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    let sheet = |rt: &Runtime, i: usize| state(rt)["sheets"][i].clone();
    let outfit = |rt: &Runtime| state(rt)["outfit"].clone();
    rt.step(&[]);
    let ac = sheet(&rt, 0)["ac"].as_i64().unwrap();
    assert_eq!(sheet(&rt, 0)["armour"], "chain mail");
    assert_eq!(
        sheet(&rt, 0)["damage"],
        "1d8+1",
        "a long sword and strength 17"
    );
    assert_eq!(outfit(&rt)["count"], 1);
    assert_eq!(
        outfit(&rt)["refused"],
        "no class of Pip may wear chain mail"
    );
    assert!(
        !sheet(&rt, 5)["usable"]
            .as_array()
            .unwrap()
            .contains(&"chain mail".into())
    );
    rt.step(&[]);
    assert!(outfit(&rt)["refused"].is_null());
    assert_eq!(outfit(&rt)["count"], 2);
    assert_eq!(sheet(&rt, 0)["armour"], "plate mail");
    assert_eq!(sheet(&rt, 0)["ac"].as_i64().unwrap(), ac - 2);
    rt.step(&[]);
    assert_eq!(sheet(&rt, 0)["armour"], "chain mail");
    rt.step(&[]);
    assert_eq!(state(&rt)["party"][0]["items"].as_array().unwrap().len(), 4);
    rt.step(&[]);
    assert_eq!(outfit(&rt)["refused"], "Brannoc carries no plate mail");
    assert_eq!(outfit(&rt)["count"], 5);
    assert!(
        warnings(&mut rt).is_empty(),
        "a refused change is no script error"
    );
    rt.step(&[]);
    rt.step(&[]);
    assert_eq!(
        outfit(&rt)["refused"],
        "gear is changed between fights, not in the middle of one"
    );
    assert_eq!(state(&rt)["party"][0]["items"].as_array().unwrap().len(), 4);
}

/// Everything drawn for the fight (sprites and floating words), in the order it was spawned.
fn drawn(rt: &Runtime) -> Vec<jengine::Entity> {
    let mut out: Vec<jengine::Entity> = rt
        .world
        .entities
        .query::<(jengine::Entity, &jengine::BulkEntity, &jengine::SpawnedFor)>()
        .iter()
        .map(|(e, _, _)| e)
        .collect();
    out.sort_by_key(|e| rt.world.spawn_order(*e));
    out
}

/// A redraw updates the entities already drawn instead of spawning new ones: moving the
/// cursor about keeps the very same entities, taking it away gives back the first set, and
/// after a move (other markers, perhaps floating numbers) the terrain's entities are the same
/// ones and nothing is left behind in the world.
#[test]
fn redrawing_keeps_the_same_entities() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "GoldBox.start(e, 'kobold pack', 3)",
        "GoldBox.point(e, 4, 5)",
        "GoldBox.point(e, 5, 5)",
        "GoldBox.point(e, 6, 6)",
        "GoldBox.unpoint(e)",
        MOVE_FIRST,
        "GoldBox.point(e, 2, 2)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    let first = drawn(&rt);
    let others = rt.world.entities.len() as usize - first.len();
    assert!(first.len() > 20 * 14 + 12, "{}", first.len());
    rt.step(&[]);
    let pointed = drawn(&rt);
    assert_eq!(pointed.len(), first.len() + 1, "one more: the cursor");
    assert_eq!(
        &pointed[..first.len()],
        &first[..],
        "the rest are the same entities"
    );
    for _ in 0..2 {
        rt.step(&[]);
        assert_eq!(drawn(&rt), pointed, "the cursor moved, nothing was spawned");
        assert_eq!(rt.world.entities.len() as usize, others + pointed.len());
    }
    rt.step(&[]);
    assert_eq!(drawn(&rt), first);
    rt.step(&[]);
    rt.step(&[]);
    assert!(warnings(&mut rt).is_empty());
    let after = drawn(&rt);
    assert_eq!(
        &after[..20 * 14],
        &first[..20 * 14],
        "the terrain is redrawn in place"
    );
    assert_eq!(rt.world.entities.len() as usize, others + after.len());
    for _ in 0..60 {
        rt.step(&[]);
    }
    // Floating numbers come and go; the world holds the drawing and nothing else of it.
    assert_eq!(rt.world.entities.len() as usize, others + drawn(&rt).len());
    assert_eq!(&drawn(&rt)[..20 * 14], &first[..20 * 14]);
}

#[test]
fn a_kept_fight_resumes_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "GoldBox.start(e, 'orc band', 8)",
        MOVE_FIRST,
        "GoldBox.end_turn(e)",
        "Save.set('fight', Entity.get(e, 'GoldBox').save)",
        "GoldBox.start(e, 'crypt', 2)",
        "GoldBox.resume(e, Save.get('fight'))",
        "GoldBox.resume(e, '{\"field\": []}')",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    for _ in 0..4 {
        rt.step(&[]);
    }
    let kept = state(&rt);
    rt.step(&[]);
    assert_ne!(state(&rt)["units"], kept["units"], "another fight");
    rt.step(&[]);
    let back = state(&rt);
    for key in [
        "units", "order", "active", "legal", "log", "round", "seed", "save",
    ] {
        assert_eq!(back[key], kept[key], "{key}");
    }
    rt.step(&[]);
    assert_eq!(
        state(&rt)["log"],
        kept["log"],
        "a refused save changes nothing"
    );
    let said = warnings(&mut rt);
    assert_eq!(said.len(), 1, "{said:#?}");
    assert!(
        said[0].contains("GoldBox.resume: the save does not fit: missing field `party`"),
        "{said:#?}"
    );
}
