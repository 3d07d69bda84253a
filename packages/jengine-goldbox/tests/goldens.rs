//! Golden images of the battlefield drawn from above through the shipped sheet: a fight as
//! it starts (terrain, units, the active member's reach), a spell being aimed (cursor and the
//! ground it covers), and the moment after it went off (damage floating up, the fallen).
//! Each is rendered headless at 480x360 and compared with `tests/golden/<case>.png`
//! (`JENGINE_BLESS=1` rewrites them after a change was looked at).

use std::path::Path;

use jengine_crawler::CrawlerPackage;
use jengine_goldbox::GoldBoxPackage;
use jengine_testkit::{Game, Options, Runtime};

const SIZE: (u32, u32) = (480, 360);

const FIELD: [&str; 14] = [
    "####################",
    "#..................#",
    "#...##........##...#",
    "#...##........##...#",
    "#..................#",
    "#.......+..........#",
    "#######/.###########",
    "#..................#",
    "#..................#",
    "#.....#......#.....#",
    "#..................#",
    "#..................#",
    "#..................#",
    "#########//#########",
];

/// An open hall with four pillars, for the spell cases.
const HALL: [&str; 14] = [
    "####################",
    "#..................#",
    "#..................#",
    "#...#..........#...#",
    "#..................#",
    "#..................#",
    "#..................#",
    "#..................#",
    "#..................#",
    "#..................#",
    "#...#..........#...#",
    "#..................#",
    "#..................#",
    "####################",
];

/// One mage who holds a fire burst, so the aimed cases know who acts.
const MAGE: &str = r#"[{ "name": "Corvin", "race": "human", "classes": ["mage"], "levels": [5],
    "hp": 14, "abilities": { "str": 8, "int": 17, "wis": 12, "dex": 14, "con": 12, "cha": 10 },
    "items": ["quarterstaff"], "spells": ["spark darts", "fire burst"] }]"#;

fn run(dir: &Path, field: &[&str], party: Option<&str>, calls: &[&str]) -> Runtime {
    let project = serde_json::json!({
        "name": "goldbox-golden", "version": "0.1.0", "start_scene": "fight",
        "packages": [{ "name": "jengine-crawler",
                       "source": { "type": "path",
                                   "path": concat!(env!("CARGO_MANIFEST_DIR"), "/../jengine-crawler") } },
                     { "name": "jengine-goldbox",
                       "source": { "type": "path", "path": env!("CARGO_MANIFEST_DIR") } }]
    });
    let game = serde_json::json!({ "field": field, "seed": 5 });
    let scene = serde_json::json!({
        "version": 2,
        "entities": [
            { "name": "camera", "camera": { "center": [0, 0], "size": [10.4, 7.4],
                                            "clear": [0.05, 0.05, 0.08, 1.0] } },
            { "name": "fight", "goldbox_fight": game, "script": "driver.lua" }
        ]
    });
    let mut plan = String::from("return {\n");
    for c in calls {
        plan.push_str(&format!("  function(e) {c} end,\n"));
    }
    plan.push_str("}\n");
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("project.jengine", &project.to_string());
    write("assets/scenes/fight.scene", &scene.to_string());
    if let Some(party) = party {
        write("data/goldbox_party.json", party);
    }
    write(
        "assets/scripts/driver.lua",
        "local plan = import('plan.lua')\nlocal i = 0\n\
         function update(e, dt)\n  i = i + 1\n  local f = plan[i]\n  if f then f(e) end\nend\n",
    );
    write("assets/scripts/plan.lua", &plan);
    Runtime::new(dir, &[&CrawlerPackage, &GoldBoxPackage], Options::default())
        .unwrap_or_else(|p| panic!("{p:#?}"))
}

/// Three kobolds and a gnoll packed together near the top of the hall.
const PACK: &str = "GoldBox.start(e, { monsters = { { kind = 'kobold', count = 3 }, \
                    { kind = 'gnoll', count = 1 } }, monsters_at = { 10, 3 }, \
                    party_at = { 10, 10 } }, 5)";

/// A golden's name, its field, its party table (the shipped one when `None`), the calls
/// (one a frame) and how many frames to run before the picture is taken.
type Case<'a> = (&'a str, &'a [&'a str], Option<&'a str>, Vec<&'a str>, usize);

#[test]
fn the_battlefield_is_drawn_as_its_goldens_show() {
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let out = std::env::temp_dir().join("jengine-golden/goldbox");
    let cases: [Case; 4] = [
        // The shipped party against the orc band: walls, a shut and two open doors, six
        // members below, seven monsters above, the active member's reach in green.
        (
            "goldbox_start",
            &FIELD,
            None,
            vec!["GoldBox.start(e, 'orc band', 5)"],
            3,
        ),
        // Corvin aims a fire burst at the pack: the cursor and the ground it would burn.
        (
            "goldbox_aim",
            &HALL,
            Some(MAGE),
            vec![PACK, "GoldBox.point(e, 10, 3, 'fire burst')"],
            4,
        ),
        // The targeting cursor between the pack and the party, the burst's ground laid over
        // whoever stands in it, the kobold beside the caster included.
        (
            "goldbox_aim_friends",
            &HALL,
            Some(MAGE),
            vec![PACK, "GoldBox.aim(e, 10, 8, 'fire burst')"],
            4,
        ),
        // A frame after the burst: damage floats up from the survivors, crosses mark the dead.
        (
            "goldbox_burst",
            &HALL,
            Some(MAGE),
            vec![PACK, "GoldBox.cast(e, 'fire burst', 10, 3)"],
            4,
        ),
    ];
    for (name, field, party, calls, frames) in cases {
        let dir = tempfile::tempdir().unwrap();
        let rt = run(dir.path(), field, party, &calls);
        let mut game = Game::around(rt, dir.path())
            .goldens(&goldens, &out)
            .sized(SIZE);
        game.settle(frames);
        let problems: Vec<String> = game
            .take_log()
            .into_iter()
            .filter(|l| l.level >= jengine::LogLevel::Warn)
            .map(|l| l.message)
            .collect();
        assert!(problems.is_empty(), "{name}: {problems:#?}");
        let state = game.bags()["fight"]["GoldBox"].clone();
        assert_eq!(state["fighting"], true, "{name}");
        if name == "goldbox_aim_friends" {
            assert!(
                state["aim_refused"].is_null(),
                "{name}: {}",
                state["aim_refused"]
            );
            assert!(!state["preview"].as_array().unwrap().is_empty(), "{name}");
        }
        if name == "goldbox_aim" {
            assert_eq!(state["preview"].as_array().unwrap().len(), 21, "{name}");
        }
        game.golden(name);
    }
}
