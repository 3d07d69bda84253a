//! Saves written before the campaign rules still load: a save made by the crawler as it was
//! before events, links, doors by the game, long rests and groups seen from afar is kept in
//! `tests/saves/` and must load into the same dungeon and play on.

use jengine_crawler::Crawl;
use jengine_crawler::map::Tables;
use serde_json::json;

/// Two floors with a door, a chest, a trap, a fixed fight, random fights, a lever and its gate.
fn dungeon() -> Tables {
    let levels = json!([
        { "name": "Top",
          "map": ["#########", "#<..+..C#", "#.#####^#", "#...L=..#", "#.#####>#", "#########"],
          "chests": ["gold:4"], "traps": ["dart"],
          "doors": [{ "at": [5, 3], "name": "gate" }],
          "levers": [{ "at": [4, 3], "opens": ["gate"] }],
          "encounters": [{ "at": [3, 3], "group": "kobolds", "text": "Kobolds!" }],
          "encounter_rate": 0.2, "groups": ["rats"], "encounter_grace": 2 },
        { "name": "Bottom", "map": ["#######", "#<...>#", "#######"] }
    ]);
    let crawlers = r#"[{ "name": "A", "hp": 12 }, { "name": "B", "hp": 9, "reach": 2 }]"#;
    Tables::from_json(&levels.to_string(), "[]", crawlers).unwrap()
}

fn played() -> Crawl {
    let mut c = Crawl::new(dungeon(), 21);
    // To the door and through it, onto the chest and empty it, down over the trap, a rest.
    for step in ["w", "w", "u", "w", "w", "w", "u", "t", "w", "w", "r"] {
        if c.state().encounter.is_some() {
            c.resolve(true);
        }
        match step {
            "w" => c.walk(0, 1),
            "u" => c.use_ahead(),
            "r" => c.rest(),
            _ => c.turn(1),
        };
    }
    c
}

/// The save the crawler wrote for `played()` before the campaign rules (the door opened, the
/// chest emptied, a rest), kept byte for byte.
const BEFORE: &str = include_str!("saves/before_campaign.json");

#[test]
fn a_save_from_before_the_campaign_rules_loads_and_plays_on_the_same() {
    let now = played();
    assert_eq!(
        now.tables().fingerprint(),
        serde_json::from_str::<serde_json::Value>(BEFORE).unwrap()["dungeon"],
        "a dungeon without campaign fields keeps its fingerprint"
    );
    let mut old = Crawl::new(dungeon(), 1);
    old.load(BEFORE).unwrap();
    assert!(old.same_as(&now), "the old save is the game played now");
    assert_eq!(old.save_json(), BEFORE, "and saves again as it was written");
    let mut now = now;
    for _ in 0..6 {
        assert_eq!(old.walk(0, 1), now.walk(0, 1));
        assert_eq!(old.turn(1), now.turn(1));
    }
    assert!(old.same_as(&now));
}
