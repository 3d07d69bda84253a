//! The campaign commands on the engine, driven from Lua as a game drives them: the live query,
//! events and their choices, flags, travel between named maps, doors by the game's rules,
//! rests of many ticks and answers to a group spotted, with their bags and their refusals.

mod common;

use std::path::Path;

use jengine::LogLevel;
use jengine_crawler::CrawlerPackage;
use jengine_testkit::{Options, Runtime};
use serde_json::{Value, json};

/// A town with a well and a gate linked to the crypt; in the crypt a shut door, and beyond it
/// a group seen from four cells down the corridor.
fn levels() -> Value {
    json!([
        {
            "name": "Town",
            "map": ["#######",
                    "#.....#",
                    "#.###.#",
                    "#.....#",
                    "#######"],
            "start": [1, 1], "facing": "east",
            "links": [{ "at": [5, 3], "to": "Crypt", "cell": [2, 1], "facing": "east" }],
            "events": [{ "at": [3, 1], "id": "well", "text": "A well.", "picture": "p_well", "once": true,
                         "choices": [{ "label": "Drink", "outcome": "drink", "set": ["drank"] }] }]
        },
        {
            "name": "Crypt",
            "map": ["###########",
                    "#<.+......#",
                    "#########>#",
                    "###########"],
            "links": [{ "at": [1, 1], "to": "Town", "cell": [4, 3], "facing": "west" }],
            "encounters": [{ "at": [7, 1], "group": "ghouls", "text": "Ghouls!", "sight": 4 }]
        }
    ])
}

fn plan(steps: &[&str]) -> String {
    let mut s = String::from("return {\n");
    for step in steps {
        s.push_str(&format!("  function(e) {step} end,\n"));
    }
    s.push_str("}\n");
    s
}

fn start(dir: &Path, steps: &[&str]) -> Runtime {
    let camera = json!({ "center": [0, 0], "size": [16, 9] });
    common::write_project(
        dir,
        &levels(),
        camera,
        json!({ "draw": false }),
        &plan(steps),
    );
    Runtime::new(dir, &[&CrawlerPackage], Options::default()).unwrap_or_else(|p| panic!("{p:#?}"))
}

fn bag(rt: &Runtime, key: &str) -> Value {
    rt.bags()["crawl"][key].clone()
}

fn events(rt: &Runtime) -> Vec<Value> {
    bag(rt, "CrawlEvents")["events"].as_array().unwrap().clone()
}

fn names(rt: &Runtime) -> Vec<String> {
    events(rt)
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

#[test]
fn a_campaign_is_played_through_the_new_commands() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "Crawler.query(e, 3, 1, 1)",
        "Crawler.walk(e, 0, 1)",
        "Crawler.walk(e, 0, 1)",
        "Crawler.choose(e, 1)",
        "Crawler.flag(e, 'met_mayor') Crawler.flag(e, 'drank', false) Crawler.flag(e, 'drank')",
        "Crawler.travel(e, 'Crypt', 2, 1, 'east')",
        "Crawler.door(e, 3, 1, 'open')",
        "Crawler.walk(e, 0, 1)",
        "Crawler.answer(e, 'advance')",
        "Crawler.rest(e, 3)",
        "Crawler.rest(e)",
        "Crawler.walk(e, 0, 1)",
    ];
    let mut rt = start(dir.path(), &steps);
    rt.step(&[]);
    rt.step(&[]);
    let q = bag(&rt, "CrawlQuery");
    assert_eq!(
        (
            q["asked"].clone(),
            q["origin"].clone(),
            q["width"].clone(),
            q["height"].clone()
        ),
        (json!(true), json!([2, 0]), json!(3), json!(3))
    );
    let well = &q["cells"][4];
    assert_eq!(
        (
            well["x"].clone(),
            well["kind"].clone(),
            well["events"].clone()
        ),
        (json!(3), json!("floor"), json!(["well"]))
    );
    rt.step(&[]);
    assert_eq!(names(&rt), ["event"]);
    let ev = &events(&rt)[0];
    assert_eq!(
        (
            ev["id"].clone(),
            ev["picture"].clone(),
            ev["choices"].clone()
        ),
        (json!("well"), json!("p_well"), json!(["Drink"]))
    );
    let state = bag(&rt, "CrawlState");
    assert_eq!(state["event"]["choices"][0]["outcome"], "drink");
    assert_eq!(
        state["can_walk"], false,
        "nothing moves while the event waits"
    );
    rt.step(&[]);
    assert_eq!(names(&rt), ["outcome"]);
    assert_eq!(bag(&rt, "CrawlState")["flags"], json!(["drank"]));
    assert!(
        bag(&rt, "CrawlQuery")["cells"][4]["events"]
            .as_array()
            .unwrap()
            .is_empty(),
        "the query follows: the well is done"
    );
    rt.step(&[]);
    assert_eq!(
        bag(&rt, "CrawlState")["flags"],
        json!(["drank", "met_mayor"])
    );
    rt.step(&[]);
    assert_eq!(names(&rt), ["travel", "level"]);
    let state = bag(&rt, "CrawlState");
    assert_eq!(
        (state["level_name"].clone(), state["x"].clone()),
        (json!("Crypt"), json!(2))
    );
    assert_eq!(
        bag(&rt, "CrawlQuery")["map"],
        "Crypt",
        "the query is of the party's level"
    );
    rt.step(&[]);
    assert_eq!(
        events(&rt)[0],
        json!({ "event": "door_changed", "x": 3, "y": 1, "state": "open" })
    );
    rt.step(&[]);
    assert_eq!(names(&rt), ["spotted"]);
    assert_eq!(events(&rt)[0]["distance"], 4);
    assert_eq!(bag(&rt, "CrawlState")["spotted"]["group"], "ghouls");
    rt.step(&[]);
    assert_eq!(names(&rt), ["answered"]);
    rt.step(&[]);
    assert_eq!(names(&rt), ["rested"]);
    let tick = bag(&rt, "CrawlState")["tick"].as_u64().unwrap();
    rt.step(&[]);
    assert_eq!(
        bag(&rt, "CrawlState")["tick"].as_u64().unwrap(),
        tick + 4,
        "the old rest: four ticks"
    );
    rt.step(&[]);
    assert!(
        names(&rt).is_empty(),
        "advanced: not announced again on this approach"
    );
    assert!(warnings(&mut rt).is_empty());
}

#[test]
fn refusals_by_the_crawl_are_announced_in_words_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "Crawler.door(e, 2, 1, 'open')",
        "Crawler.travel(e, 'Moon', 1, 1)",
        "Crawler.travel(e, 'Crypt', 0, 0)",
        "Crawler.choose(e, 1)",
        "Crawler.answer(e, 'fight')",
    ];
    let mut rt = start(dir.path(), &steps);
    let mut said = Vec::new();
    for _ in 0..steps.len() + 1 {
        rt.step(&[]);
        said.extend(events(&rt));
    }
    let reasons: Vec<(String, String)> = said
        .iter()
        .map(|e| {
            assert_eq!(e["event"], "refused");
            (
                e["command"].as_str().unwrap().into(),
                e["reason"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        reasons,
        [
            ("door".into(), "row 1, cell 2 is '.', not a door".into()),
            ("travel".into(), "no level is called \"Moon\"".into()),
            (
                "travel".into(),
                "row 0, cell 0 of \"Crypt\" is inside a wall".into()
            ),
            ("choose".into(), "no event is waiting for a choice".into()),
            ("answer".into(), "no group has been spotted".into()),
        ]
    );
    let logged = warnings(&mut rt);
    assert_eq!(logged.len(), 5, "{logged:#?}");
    assert!(logged[0].starts_with("Crawler.door: row 1, cell 2"));
    let state = bag(&rt, "CrawlState");
    assert_eq!(
        (
            state["level_name"].clone(),
            state["x"].clone(),
            state["tick"].clone()
        ),
        (json!("Town"), json!(1), json!(0))
    );
}

#[test]
fn the_new_commands_refuse_bad_arguments_at_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let bad = [
        (
            "Crawler.door(e, 3, 1, 'ajar')",
            "Crawler.door: argument 4 (state)",
        ),
        (
            "Crawler.answer(e, 'dance')",
            "Crawler.answer: argument 2 (answer)",
        ),
        (
            "Crawler.rest(e, 0)",
            "Crawler.rest: argument 2 (ticks) must be 1 to 10000",
        ),
        (
            "Crawler.query(e, 1, 1, 65)",
            "Crawler.query: argument 4 (radius) must be 0 to 64",
        ),
        ("Crawler.query(e, 'a', 1)", "Crawler.query: argument 2 (x)"),
        (
            "Crawler.travel(e, 'Town', 1, 1, 'up')",
            "Crawler.travel: argument 5 (facing)",
        ),
        (
            "Crawler.travel(e, 3, 1, 1)",
            "Crawler.travel: argument 2 (map)",
        ),
        (
            "Crawler.choose(e, 10)",
            "Crawler.choose: argument 2 (choice) must be 0 to 9",
        ),
        (
            "Crawler.flag(e, ' ')",
            "Crawler.flag: the arguments must be such that name is not empty",
        ),
    ];
    let body: Vec<String> = bad
        .iter()
        .map(|(call, _)| {
            format!("local ok, err = pcall(function() {call} end) Log.warn(tostring(err))")
        })
        .collect();
    let steps: Vec<&str> = body.iter().map(String::as_str).collect();
    let mut rt = start(dir.path(), &steps);
    for _ in 0..bad.len() {
        rt.step(&[]);
    }
    let said = warnings(&mut rt);
    assert_eq!(said.len(), bad.len(), "{said:#?}");
    for ((call, expected), message) in bad.iter().zip(&said) {
        assert!(
            message.contains("assets/scripts/plan.lua:") && message.contains(expected),
            "{call}: {message}"
        );
    }
}

#[test]
fn an_event_in_progress_comes_back_with_a_save() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "Crawler.walk(e, 0, 1)",
        "Crawler.walk(e, 0, 1)",
        "Save.set('crawl', Entity.get(e, 'CrawlState').save) Crawler.new_game(e)",
        "Crawler.load(e, Save.get('crawl'))",
    ];
    let mut rt = start(dir.path(), &steps);
    for _ in 0..3 {
        rt.step(&[]);
    }
    assert!(bag(&rt, "CrawlState")["event"].is_null());
    rt.step(&[]);
    rt.step(&[]);
    let state = bag(&rt, "CrawlState");
    assert_eq!(
        (state["save_in_play"].clone(), state["event"]["id"].clone()),
        (json!("loaded"), json!("well"))
    );
    assert!(warnings(&mut rt).is_empty());
}

#[test]
fn a_broken_campaign_row_stops_the_game_at_startup_with_file_row_and_cell() {
    let cases = [
        (
            "links",
            json!([{ "at": [5, 3], "to": "Moon", "cell": [1, 1] }]),
            "data/crawl_levels.json: row 1 (\"Town\"): map row 3, cell 5: the link or choice leads to \"Moon\": no level is called \"Moon\"",
        ),
        (
            "links",
            json!([{ "at": [5, 3], "to": "Crypt", "cell": [0, 0] }]),
            "map row 3, cell 5: the link or choice leads to row 0, cell 0 of \"Crypt\", which is inside a wall",
        ),
        (
            "events",
            json!([{ "at": [3, 1], "id": "" }]),
            "map row 1, cell 3: the event id \"\" is empty or used twice on this level",
        ),
        (
            "events",
            json!([{ "at": [3, 1], "id": "w", "choices": [{ "label": "Go", "outcome": "" }] }]),
            "the event \"w\" has a bad choice list: choice 1 (\"Go\") has no outcome",
        ),
    ];
    for (field, value, want) in cases {
        let dir = tempfile::tempdir().unwrap();
        let mut broken = levels();
        broken[0][field] = value;
        let camera = json!({ "center": [0, 0], "size": [16, 9] });
        common::write_project(dir.path(), &broken, camera, json!({}), "return {}");
        let problems = Runtime::new(dir.path(), &[&CrawlerPackage], Options::default())
            .err()
            .expect("a broken campaign row must not load");
        assert!(
            problems.iter().any(|p| p.contains(want)),
            "{want}\n{problems:#?}"
        );
    }
}

#[test]
fn a_package_built_on_the_crawl_acts_on_it_as_a_command_would() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = start(dir.path(), &["Crawler.walk(e, 0, 1)"]);
    rt.step(&[]);
    rt.step(&[]);
    let mut acted = 0;
    for run in rt.world.entities.query_mut::<&mut jengine_crawler::Run>() {
        let x = run.act(|c| {
            c.travel("Crypt", 2, 1, None).unwrap();
            c.state().x
        });
        assert_eq!(x, Some(2));
        acted += 1;
    }
    assert_eq!(acted, 1);
    rt.step(&[]);
    assert_eq!(names(&rt), ["travel", "level"]);
    assert_eq!(bag(&rt, "CrawlState")["level_name"], "Crypt");
}
