//! Properties of the campaign rules: random events, links and sight never panic the loader and
//! what loads plays; a campaign saved at any point (mid-event, mid-sighting, a wanderer on the
//! floor) carries on identically; a mangled save loads whole or not at all.

use jengine_crawler::map::Tables;
use jengine_crawler::{Crawl, DoorState};
use proptest::prelude::*;
use serde_json::{Value, json};

fn at() -> impl Strategy<Value = Value> {
    (-1i32..9, -1i32..7).prop_map(|(x, y)| json!([x, y]))
}

fn target() -> impl Strategy<Value = Value> {
    (
        prop_oneof![Just("A"), Just("B"), Just("Nowhere"), Just("")],
        at(),
    )
        .prop_map(|(to, cell)| json!({ "to": to, "cell": cell }))
}

fn flags() -> impl Strategy<Value = Vec<&'static str>> {
    prop::collection::vec(prop_oneof![Just("f"), Just("g"), Just("")], 0..2)
}

fn choice() -> impl Strategy<Value = Value> {
    (
        prop_oneof![Just("Go"), Just("Stay"), Just("")],
        prop_oneof![Just("go"), Just("")],
        flags(),
        prop::option::of(target()),
    )
        .prop_map(|(label, outcome, set, go)| {
            let mut c = json!({ "label": label, "outcome": outcome, "set": set });
            if let Some(go) = go {
                c["go"] = go;
            }
            c
        })
}

fn event() -> impl Strategy<Value = Value> {
    (
        at(),
        prop_oneof![Just("e1"), Just("e2"), Just("")],
        prop::collection::vec(choice(), 0..3),
        any::<bool>(),
        flags(),
        flags(),
    )
        .prop_map(|(at, id, choices, once, needs, unless)| {
            json!({ "at": at, "id": id, "text": "t", "choices": choices, "once": once,
                    "needs": needs, "unless": unless })
        })
}

fn link() -> impl Strategy<Value = Value> {
    (at(), target()).prop_map(|(at, mut t)| {
        t["at"] = at;
        t
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_events_links_and_sight_never_panic_the_loader_and_what_loads_plays(
        rows in prop::collection::vec("[.#+=<>A^O]{0,9}", 1..6),
        events in prop::collection::vec(event(), 0..3),
        links in prop::collection::vec(link(), 0..3),
        sight in prop_oneof![Just(0u32), Just(3), Just(40)],
        fight_sight in prop::option::of(0u32..6),
        actions in prop::collection::vec(0u8..16, 0..40),
    ) {
        let a = json!({ "name": "A", "map": rows, "start": [1, 1], "events": events,
                        "links": links, "sight": sight, "traps": ["t"],
                        "encounter_rate": 0.3, "groups": ["g"],
                        "encounters": [{ "at": [2, 1], "group": "x", "sight": fight_sight }] });
        let b = json!({ "name": "B", "map": ["#####", "#<.>#", "#####"] });
        if let Ok(tables) = Tables::from_json(&json!([a, b]).to_string(), "[]", "[]") {
            let mut crawl = Crawl::new(tables, 2);
            play(&mut crawl, &actions);
            let s = crawl.state();
            prop_assert!(crawl.floor().cell(s.x, s.y).is_walkable());
        }
    }

    #[test]
    fn any_campaign_saved_anywhere_carries_on_identically(
        actions in prop::collection::vec(0u8..16, 0..80),
        after in prop::collection::vec(0u8..16, 0..30),
    ) {
        let mut crawl = campaign();
        play(&mut crawl, &actions);
        let mut copy = campaign();
        copy.load(&crawl.save_json()).unwrap();
        prop_assert!(copy.same_as(&crawl));
        play(&mut crawl, &after);
        play(&mut copy, &after);
        prop_assert!(copy.same_as(&crawl));
        // A load clears what the last action announced, so only actions after it compare.
        if !after.is_empty() {
            prop_assert_eq!(copy.events(), crawl.events());
        }
    }

    #[test]
    fn a_mangled_campaign_save_loads_whole_or_not_at_all(
        actions in prop::collection::vec(0u8..16, 0..60),
        path in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
        replacement in prop_oneof![
            Just(json!(null)), Just(json!(-1)), Just(json!(7)), Just(json!(0)), Just(json!("x")),
            Just(json!([])), Just(json!(["ghost"])), Just(json!([1, 1])), Just(json!({ "fixed": 5 })),
        ],
    ) {
        let mut crawl = campaign();
        play(&mut crawl, &actions);
        let mut save: Value = serde_json::from_str(&crawl.save_json()).unwrap();
        let mut pointer = String::new();
        for index in &path {
            let here = save.pointer(&pointer).unwrap();
            let step = match here {
                Value::Object(map) if !map.is_empty() => {
                    map.keys().nth(index.index(map.len())).cloned().unwrap()
                }
                Value::Array(items) if !items.is_empty() => index.index(items.len()).to_string(),
                _ => break,
            };
            pointer = format!("{pointer}/{step}");
        }
        *save.pointer_mut(&pointer).unwrap() = replacement;
        let before = crawl.save_json();
        match crawl.load(&save.to_string()) {
            Ok(()) => {
                let s = crawl.state();
                prop_assert!(crawl.floor().cell(s.x, s.y).is_walkable());
            }
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
                prop_assert_eq!(crawl.save_json(), before);
            }
        }
    }
}

/// A town with events and a gate to a dungeon where groups are seen from afar and wander.
fn campaign() -> Crawl {
    let levels = json!([
        { "name": "Town",
          "map": ["########", "#......#", "#.####.#", "#......#", "########"],
          "start": [1, 1], "facing": "east",
          "links": [{ "at": [6, 3], "to": "Dungeon", "cell": [1, 1], "facing": "east" }],
          "events": [
            { "at": [3, 1], "id": "well", "text": "A well", "once": true,
              "choices": [{ "label": "Drink", "outcome": "drink", "set": ["drank"] },
                          { "label": "Wish", "outcome": "wish", "clear": ["drank"],
                            "go": { "to": "Dungeon", "cell": [5, 3] } }] },
            { "at": [1, 3], "id": "sign", "text": "A sign", "needs": ["drank"] } ] },
        { "name": "Dungeon",
          "map": ["#########", "#<..+...#", "#.#####.#", "#.......#", "#######>#", "#########"],
          "links": [{ "at": [1, 1], "to": "Town", "cell": [5, 3], "facing": "west" }],
          "sight": 4, "encounter_rate": 0.25, "groups": ["wolves", "bats"],
          "encounters": [{ "at": [6, 3], "group": "ogre", "text": "An ogre" }],
          "events": [{ "at": [3, 3], "id": "bones", "text": "Bones", "once": true }] },
        { "name": "Deep", "map": ["#####", "#<.>#", "#####"] }
    ]);
    let crawlers = r#"[{ "name": "A", "hp": 20 }, { "name": "B", "hp": 20 }]"#;
    Crawl::new(
        Tables::from_json(&levels.to_string(), "[]", crawlers).unwrap(),
        13,
    )
}

/// Plays a list of actions, answering whatever waits first: an event with a choice (or a
/// dismissal), a spotted group with an answer, a fight with a result.
fn play(crawl: &mut Crawl, actions: &[u8]) {
    const ANSWERS: [&str; 5] = ["fight", "wait", "flee", "advance", "parley"];
    for &a in actions {
        let s = crawl.state();
        if s.encounter.is_some() {
            crawl.resolve(a % 2 == 0);
            continue;
        }
        if let Some(e) = s.event {
            let _ = crawl.choose(a as usize % (e.choices.len() + 1));
            continue;
        }
        if s.spotted.is_some() {
            let _ = crawl.answer(ANSWERS[a as usize % 5]);
            continue;
        }
        let (ax, ay) = s.facing.ahead();
        match a {
            0..=2 => {
                crawl.walk(0, 1);
            }
            3 => {
                crawl.turn(1);
            }
            4 => {
                crawl.turn(-1);
            }
            5 => {
                crawl.use_ahead();
            }
            6 => {
                crawl.rest_for(1 + u32::from(a) % 5);
            }
            7 => {
                crawl.rest();
            }
            8 => {
                let _ = crawl.set_door(s.x + ax, s.y + ay, DoorState::Open);
            }
            9 => {
                let _ = crawl.set_door(s.x + ax, s.y + ay, DoorState::Locked);
            }
            10 => {
                let _ = crawl.travel("Dungeon", 3, 1, None);
            }
            11 => {
                let _ = crawl.travel("Town", 1, 1, None);
            }
            12 => crawl.set_flag("drank", true),
            13 => {
                crawl.walk(1, 0);
            }
            14 => {
                let _ = crawl.set_door(s.x + ax, s.y + ay, DoorState::Shut);
            }
            _ => {
                crawl.wait();
            }
        }
    }
}

/// The campaign the properties play reaches every rule they are about, so a property that
/// holds is not holding over games that never met an event or a sighting.
#[test]
fn the_campaign_played_at_random_meets_every_campaign_rule() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg32::seed_from_u64(4);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        let mut crawl = campaign();
        for _ in 0..80 {
            let a: u8 = rng.random_range(0..16);
            play(&mut crawl, &[a]);
            for e in crawl.events() {
                let name = serde_json::to_value(e).unwrap()["event"].clone();
                seen.insert(name.as_str().unwrap().to_string());
            }
        }
    }
    for rule in [
        "event",
        "outcome",
        "dismissed",
        "travel",
        "door_changed",
        "spotted",
        "answered",
        "parley",
        "encounter",
        "rest_interrupted",
        "level",
    ] {
        assert!(seen.contains(rule), "{rule} never came: {seen:?}");
    }
}
