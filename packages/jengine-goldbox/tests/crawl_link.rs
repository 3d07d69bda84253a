//! A fight taken from a crawl, on the engine: a project with a `crawl_game` and a
//! `goldbox_fight`, a script walking the party into a group, starting the fight from the
//! crawl, handing it to the computer, and the crawl's encounter settled when it ends.

use std::path::Path;

use jengine::LogLevel;
use jengine_crawler::CrawlerPackage;
use jengine_goldbox::GoldBoxPackage;
use jengine_testkit::{Options, Runtime};

fn project(dir: &Path, levels: serde_json::Value, plan: &[&str]) -> Runtime {
    let project = serde_json::json!({
        "name": "goldbox-crawl-test", "version": "0.1.0", "start_scene": "fight",
        "packages": [
            { "name": "jengine-crawler",
              "source": { "type": "path", "path": concat!(env!("CARGO_MANIFEST_DIR"), "/../jengine-crawler") } },
            { "name": "jengine-goldbox",
              "source": { "type": "path", "path": env!("CARGO_MANIFEST_DIR") } }]
    });
    let scene = serde_json::json!({
        "version": 2,
        "entities": [
            { "name": "camera", "camera": { "center": [0, 0], "size": [16, 9] } },
            { "name": "crawl", "crawl_game": {
                "tables": { "levels": "halls", "monsters": "", "crawlers": "" },
                "draw": false, "publish_view": false } },
            { "name": "fight", "goldbox_fight": { "train": true }, "script": "driver.lua" }
        ]
    });
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("project.jengine", &project.to_string());
    write("assets/scenes/fight.scene", &scene.to_string());
    write("data/halls.json", &levels.to_string());
    let mut steps =
        String::from("local c = function() return Entity.find('crawl') end\nreturn {\n");
    for step in plan {
        steps.push_str(&format!("  function(e) {step} end,\n"));
    }
    steps.push_str("}\n");
    write("assets/scripts/plan.lua", &steps);
    write(
        "assets/scripts/driver.lua",
        "local plan = import('plan.lua')\nlocal i = 0\n\
         function update(e, dt)\n  i = i + 1\n  local f = plan[i]\n  if f then f(e) end\nend\n",
    );
    Runtime::new(dir, &[&CrawlerPackage, &GoldBoxPackage], Options::default())
        .unwrap_or_else(|p| panic!("{p:#?}"))
}

fn halls(group: &str) -> serde_json::Value {
    serde_json::json!([{
        "name": "Halls",
        "map": ["#########",
                "#>......#",
                "#.......#",
                "#.......#",
                "#...+...#",
                "#.......#",
                "#.......#",
                "#...<...#",
                "#########"],
        "facing": "north",
        "encounters": [{ "at": [4, 5], "group": group, "text": "Something moves." }]
    }])
}

fn warnings(rt: &mut Runtime) -> Vec<String> {
    rt.take_log()
        .into_iter()
        .filter(|l| l.level >= LogLevel::Warn)
        .map(|l| l.message)
        .collect()
}

fn crawl_events(rt: &Runtime) -> Vec<String> {
    rt.bags()["crawl"]["CrawlEvents"]["events"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| e["event"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_fight_taken_from_the_crawl_is_cut_from_its_level_and_settles_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = project(
        dir.path(),
        halls("kobold pack"),
        &[
            "Crawler.walk(c(), 0, 1)",
            "Crawler.walk(c(), 0, 1)",
            "GoldBox.from_crawl(e, c(), 4)",
            "GoldBox.quick(e, true, 1) GoldBox.quick(e, true, 2) GoldBox.quick(e, true, 3) \
             GoldBox.quick(e, true, 4) GoldBox.quick(e, true, 5) GoldBox.quick(e, true, 6)",
        ],
    );
    rt.step(&[]);
    rt.step(&[]);
    let s = rt.bags()["crawl"]["CrawlState"].clone();
    assert_eq!(s["encounter"]["group"], "kobold pack", "{s:#}");
    rt.step(&[]);
    assert!(warnings(&mut rt).is_empty());
    let f = rt.bags()["fight"]["GoldBox"].clone();
    assert_eq!(f["fighting"], true);
    assert_eq!(
        (f["width"].as_i64(), f["height"].as_i64()),
        (Some(15), Some(12))
    );
    // Up the field is north: the row ahead of the party holds the shut door of row 4.
    let rows: Vec<String> = f["field"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    assert_eq!(&rows[8][7..8], "+", "{rows:#?}");
    assert_eq!(&rows[9][7..8], ".");
    // The map's east wall (x 8) is four squares to the party's right, x 11 on the field.
    assert_eq!(&rows[9][11..12], "#");
    assert_eq!(&rows[9][10..11], ".");
    let units = f["units"].as_array().unwrap();
    let brannoc = &units[0];
    assert_eq!(
        (brannoc["y"].as_i64(), units[3]["y"].as_i64()),
        (Some(9), Some(10))
    );
    assert!(
        units[6]["y"].as_i64().unwrap() < 9,
        "the kobolds stand ahead"
    );
    for _ in 0..400 {
        rt.step(&[]);
        if !rt.bags()["fight"]["GoldBox"]["outcome"].is_null() {
            break;
        }
    }
    let f = rt.bags()["fight"]["GoldBox"].clone();
    assert_eq!(f["outcome"]["ending"], "won", "{:#}", f["outcome"]);
    let said = crawl_events(&rt);
    assert!(said.contains(&"resolved".to_string()), "{said:?}");
    rt.step(&[]);
    let s = rt.bags()["crawl"]["CrawlState"].clone();
    assert!(s["encounter"].is_null(), "the crawl goes on: {s:#}");
    assert!(warnings(&mut rt).is_empty());
    // With training on, experience is kept and the level waits.
    let party = f["party"].as_array().unwrap();
    assert!(party[0]["classes"][0]["xp"].as_u64().unwrap() > 0);
}

#[test]
fn taking_a_fight_the_crawl_does_not_have_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = project(
        dir.path(),
        halls("dragons"),
        &[
            "local _ = 0",
            "GoldBox.from_crawl(e, c())",
            "Crawler.walk(c(), 0, 1)",
            "Crawler.walk(c(), 0, 1)",
            "GoldBox.from_crawl(e, c())",
            "GoldBox.from_crawl(e, e)",
        ],
    );
    rt.step(&[]);
    rt.step(&[]);
    let said = warnings(&mut rt);
    assert!(
        said.iter()
            .any(|w| w.contains("the crawl has no fight waiting")),
        "{said:?}"
    );
    rt.step(&[]);
    rt.step(&[]);
    rt.step(&[]);
    let said = warnings(&mut rt);
    assert!(
        said.iter()
            .any(|w| w.contains("the crawl's group \"dragons\" is not in the encounters table")),
        "{said:?}"
    );
    rt.step(&[]);
    let said = warnings(&mut rt);
    assert!(
        said.iter().any(|w| w.contains("has no crawl running")),
        "{said:?}"
    );
    assert_eq!(rt.bags()["fight"]["GoldBox"]["fighting"], false);
}

#[test]
fn a_party_is_set_from_rows_and_trained_levels_wait_for_the_hall() {
    let dir = tempfile::tempdir().unwrap();
    let row = r#"[{"name":"Ada","race":"human","classes":["fighter"],"levels":[1],"abilities":{"str":16,"int":9,"wis":9,"dex":12,"con":15,"cha":9},"items":["long sword"]}]"#;
    let mut rt = project(
        dir.path(),
        halls("kobold pack"),
        &[
            &format!("GoldBox.party(e, '{row}')"),
            "GoldBox.train(e, 1, 3) GoldBox.memorise(e, 1, { 'spark darts' })",
            "GoldBox.party(e, '[{\"name\":\"Bo\",\"race\":\"elf\",\"classes\":[\"paladin\"],\"abilities\":{\"str\":9,\"int\":9,\"wis\":9,\"dex\":9,\"con\":9,\"cha\":9}}]')",
        ],
    );
    rt.step(&[]);
    let party = rt.bags()["fight"]["GoldBox"]["party"].clone();
    assert_eq!(party.as_array().unwrap().len(), 1);
    assert_eq!(party[0]["name"], "Ada");
    rt.step(&[]);
    let said = warnings(&mut rt);
    assert!(
        said.iter()
            .any(|w| w.contains("Ada has no level waiting to be trained")),
        "{said:?}"
    );
    rt.step(&[]);
    let said = warnings(&mut rt);
    assert!(
        said.iter()
            .any(|w| w.contains("\"paladin\" is not in the classes table")),
        "{said:?}"
    );
    assert_eq!(rt.bags()["fight"]["GoldBox"]["party"][0]["name"], "Ada");
}

#[test]
fn a_kept_party_loads_and_healing_and_raising_are_refused_in_words_when_they_cannot_be() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = project(
        dir.path(),
        halls("kobold pack"),
        &[
            "local _ = 0",
            "local s = Entity.get(e, 'GoldBox') KEPT = s.party",
            "KEPT[1].hp = 3 KEPT[2].hp = -10 GoldBox.party(e, KEPT)",
            "GoldBox.heal(e, 1, 2) GoldBox.heal(e, 2, 5) GoldBox.raise(e, 3)",
            "GoldBox.raise(e, 2) GoldBox.heal(e, 3, 1)",
            "KEPT[1].hp = 'lots' GoldBox.party(e, KEPT)",
        ],
    );
    rt.step(&[]);
    rt.step(&[]);
    rt.step(&[]);
    let party = rt.bags()["fight"]["GoldBox"]["party"].clone();
    assert_eq!(
        (party[0]["hp"].as_i64(), party[1]["hp"].as_i64()),
        (Some(3), Some(-10)),
        "{:?}",
        warnings(&mut rt)
    );
    rt.step(&[]);
    let said = warnings(&mut rt);
    let party = rt.bags()["fight"]["GoldBox"]["party"].clone();
    assert_eq!(party[0]["hp"].as_i64(), Some(5));
    assert!(
        said.iter()
            .any(|w| w.contains("Hild is dead, past healing")),
        "{said:?}"
    );
    assert!(
        said.iter().any(|w| w.contains("Sef is not dead")),
        "{said:?}"
    );
    rt.step(&[]);
    let said = warnings(&mut rt);
    let party = rt.bags()["fight"]["GoldBox"]["party"].clone();
    assert_eq!(party[1]["hp"].as_i64(), Some(1), "raised with 1 hit point");
    assert!(
        said.iter().any(|w| w.contains("Sef is already whole")),
        "{said:?}"
    );
    rt.step(&[]);
    let said = warnings(&mut rt);
    assert!(
        said.iter().any(|w| w.contains("the kept party, at [0].hp")),
        "{said:?}"
    );
    assert_eq!(
        rt.bags()["fight"]["GoldBox"]["party"][0]["hp"].as_i64(),
        Some(5)
    );
}
