//! The crawl played step by step: time, doors, stairs, traps, fights, monsters and saves,
//! each test driving a small dungeon and naming exactly what it expects to happen.

use super::*;
use crate::map::{Cell, Dungeon, Facing, Monster, Tables};
use serde_json::{Value, json};

const MONSTERS: &str = r#"[
    { "name": "rat", "hp": 50, "attack": 1, "sight": 3 },
    { "name": "bat", "hp": 1, "attack": 1, "sight": 2 }
]"#;

fn crawl_with(levels: Value, crawlers: &str) -> Crawl {
    let tables = Tables::from_json(&levels.to_string(), MONSTERS, crawlers).unwrap();
    Crawl::new(tables, 7)
}

fn party(reaches: &[u32]) -> String {
    let rows: Vec<Value> = reaches
        .iter()
        .enumerate()
        .map(|(i, r)| json!({ "name": format!("m{i}"), "hp": 20, "attack": 1, "reach": r }))
        .collect();
    Value::from(rows).to_string()
}

/// Three floors with stairs both ways, a door, chests, traps and a fixed fight.
fn three_floors() -> Value {
    json!([
        {
            "name": "Top",
            "map": ["#########",
                    "#<..+..C#",
                    "#.#####.#",
                    "#.#####^#",
                    "#.#####.#",
                    "#.#####^#",
                    "#......>#",
                    "#########"],
            "chests": ["gold:12"], "traps": ["dart", "net"], "facing": "east"
        },
        {
            "name": "Middle",
            "map": ["#######",
                    "#<...C#",
                    "###.###",
                    "#>...O#",
                    "#######"],
            "chests": ["key:1"],
            "encounters": [{ "at": [3, 2], "group": "kobolds", "text": "Kobolds!", "art": "m_kobold" }]
        },
        {
            "name": "Bottom",
            "map": ["#######",
                    "#<.=.>#",
                    "#.###.#",
                    "#.....#",
                    "#######"]
        }
    ])
}

fn events(list: &[Event]) -> Vec<Event> {
    list.to_vec()
}

#[test]
fn time_moves_only_when_the_party_does() {
    let mut c = crawl_with(three_floors(), &party(&[1]));
    assert_eq!((c.state().x, c.state().facing), (1, Facing::East));
    c.turn(-1); // north: rock ahead
    assert_eq!(c.state().tick, 1);
    c.walk(0, 1);
    assert_eq!(c.state().tick, 1, "walking into rock spends no time");
    c.turn(1);
    c.walk(0, 1);
    c.walk(1, 0); // strafe right: rock
    assert_eq!((c.state().x, c.state().tick), (2, 3));
    c.wait();
    c.attack();
    assert_eq!(c.state().tick, 5, "a wait and a swing are a tick each");
    c.rest();
    assert_eq!(c.state().tick, 9, "a rest is four");
    assert_eq!(c.events(), &[Event::Rested]);
    c.walk(0, -1); // step back
    assert_eq!((c.state().x, c.state().tick), (1, 10));
}

#[test]
fn doors_chests_and_stairs_both_ways_with_the_floor_remembered() {
    let mut c = crawl_with(three_floors(), &party(&[1]));
    c.walk(0, 1);
    assert_eq!(
        events(c.use_ahead()),
        vec![Event::Nothing],
        "nothing to use on open floor"
    );
    c.walk(0, 1);
    assert_eq!(events(c.use_ahead()), vec![Event::Door]);
    for _ in 0..3 {
        c.walk(0, 1);
    }
    assert_eq!(c.state().ahead, 'C');
    c.use_ahead();
    assert_eq!(
        c.events(),
        &[Event::Loot {
            what: "gold".into(),
            value: "12".into(),
            from: "chest".into()
        }]
    );
    assert_eq!(c.state().gold, 12);
    c.use_ahead();
    assert_eq!(c.events(), &[Event::Empty]);
    c.walk(0, 1); // onto the chest's cell
    c.turn(1); // south
    for _ in 0..5 {
        c.walk(0, 1);
    }
    assert!(c.state().on_stairs);
    let down = events(c.use_ahead());
    assert_eq!(
        down,
        vec![Event::Level {
            level: 1,
            name: "Middle".into()
        }]
    );
    let s = c.state();
    assert_eq!(
        (s.level, s.x, s.y),
        (1, 1, 1),
        "out of the next floor's stairs up"
    );
    assert_eq!(s.facing, Facing::East, "facing the way on");
    assert!(s.on_stairs_up);

    c.use_ahead();
    let s = c.state();
    assert_eq!(
        (s.level, s.x, s.y),
        (0, 7, 6),
        "back out of the floor's stairs down"
    );
    assert_eq!(s.facing, Facing::North, "the way on, not the wall behind");
    let top = c.floor();
    assert_eq!(*top.cell(4, 1), Cell::Open, "the door is still open");
    assert!(matches!(top.cell(7, 1), Cell::Chest { opened: true, .. }));
    assert!(top.is_seen(5, 1), "the automap remembers");
    // The rock behind the stairs was never in the picture; the door is open, the chest empty.
    assert_eq!(top.automap()[1], " <../..c#");
}

#[test]
fn the_top_floors_stairs_up_lead_out() {
    let mut c = crawl_with(three_floors(), &party(&[1]));
    assert_eq!(events(c.use_ahead()), vec![Event::Exit]);
    assert_eq!((c.state().level, c.state().x, c.state().y), (0, 1, 1));
    assert_eq!(c.state().tick, 0);
}

#[test]
fn a_trap_goes_off_once_named_in_order() {
    let mut c = crawl_with(three_floors(), &party(&[1]));
    c.state.x = 7;
    c.state.y = 2;
    c.state.facing = Facing::South;
    assert_eq!(
        events(c.walk(0, 1)),
        vec![Event::Trap {
            name: "dart".into()
        }]
    );
    c.walk(0, 1);
    assert!(c.walk(0, 1).contains(&Event::Trap { name: "net".into() }));
    c.walk(0, -1);
    assert!(c.walk(0, 1).is_empty(), "gone off already");
    c.walk(0, -1);
    c.walk(0, -1);
    assert!(c.events().is_empty(), "the first one too");
    assert_eq!(
        c.floor().automap()[3].chars().nth(7),
        Some('^'),
        "sprung, on the automap"
    );
}

#[test]
fn a_fixed_fight_won_is_gone_and_fled_puts_the_party_back() {
    let mut c = crawl_with(three_floors(), &party(&[1]));
    c.state.level = 1;
    c.state.x = 3;
    c.state.y = 1;
    c.state.facing = Facing::South;
    let started = events(c.walk(0, 1));
    assert_eq!(
        started,
        vec![Event::Encounter {
            group: "kobolds".into(),
            text: "Kobolds!".into(),
            art: Some("m_kobold".into())
        }]
    );
    let tick = c.state().tick;
    assert!(c.walk(0, 1).is_empty() && c.wait().is_empty() && c.turn(1).is_empty());
    assert_eq!(
        c.state().tick,
        tick,
        "nothing moves until the game settles it"
    );
    assert_eq!(
        events(c.resolve(false)),
        vec![Event::Resolved { won: false }]
    );
    assert_eq!(
        (c.state().x, c.state().y),
        (3, 1),
        "back where it stepped from"
    );
    assert!(c.state().encounter.is_none());

    assert!(
        matches!(c.walk(0, 1)[0], Event::Encounter { .. }),
        "still waiting"
    );
    c.resolve(true);
    assert_eq!((c.state().x, c.state().y), (3, 2));
    c.walk(0, -1);
    assert!(c.walk(0, 1).is_empty(), "won for good");
    assert!(c.floor().encounters[0].won);
}

#[test]
fn random_fights_come_after_the_grace_from_the_groups() {
    let level = json!([{
        "name": "Warren", "map": ["########", "#<....>#", "########"],
        "encounter_rate": 1.0, "groups": ["rats"], "encounter_grace": 2, "facing": "east"
    }]);
    let mut c = crawl_with(level, "[]");
    assert!(c.walk(0, 1).is_empty());
    assert!(c.walk(0, 1).is_empty());
    let third = events(c.walk(0, 1));
    assert_eq!(
        third,
        vec![Event::Encounter {
            group: "rats".into(),
            text: String::new(),
            art: None
        }]
    );
    let fight = c.state().encounter.unwrap();
    assert_eq!((fight.fixed, fight.from), (None, [3, 1]));
    c.resolve(false);
    assert_eq!(c.state().x, 3);
}

#[test]
fn a_goal_fight_won_ends_the_game() {
    let levels = json!([{
        "name": "Lair", "map": ["#####", "#<..#", "#####"], "facing": "east",
        "encounters": [{ "at": [3, 1], "group": "chief", "goal": true }]
    }]);
    let mut c = crawl_with(levels, "[]");
    c.walk(0, 1);
    assert!(
        c.walk(0, 1)
            .iter()
            .any(|e| matches!(e, Event::Encounter { .. }))
    );
    assert_eq!(
        events(c.resolve(true)),
        vec![Event::Resolved { won: true }, Event::Escaped]
    );
    assert!(c.state().escaped);
    assert!(c.walk(0, -1).is_empty(), "the game is over");
}

fn corridor_with(monster: &str) -> Value {
    json!([{
        "name": "Hall",
        "map": ["###########",
                "#<.......>#",
                "#.#########",
                "#.........#",
                "###########"],
        "monsters": [monster], "facing": "east"
    }])
}

#[test]
fn a_monster_wakes_on_sight_and_never_forgets() {
    let mut levels = corridor_with("rat");
    levels[0]["map"][1] = json!("#<.....M.>#");
    let mut c = crawl_with(levels, &party(&[1]));
    c.walk(0, 1);
    assert!(
        !c.floor().monsters[0].awake,
        "five cells off, its sight is three"
    );
    c.walk(0, 1);
    c.walk(0, 1);
    assert!(c.floor().monsters[0].awake);
    // Round the corner, out of its sight and its line of sight: it still comes.
    c.state.x = 1;
    c.state.y = 3;
    let before = (c.floor().monsters[0].x, c.floor().monsters[0].y);
    for _ in 0..4 {
        c.wait();
    }
    let m = &c.floor().monsters[0];
    assert!(m.awake);
    assert_ne!((m.x, m.y), before, "it hunts the party");
    assert!(!c.floor().line_of_sight((m.x, m.y), (1, 3)));
}

#[test]
fn the_state_tells_how_far_the_nearest_awake_monster_is() {
    let mut levels = corridor_with("rat");
    levels[0]["map"][1] = json!("#<.....M.>#");
    let mut c = crawl_with(levels, &party(&[1]));
    assert_eq!(c.state().nearest_awake, None, "asleep, it is not counted");
    c.walk(0, 1);
    c.walk(0, 1);
    assert_eq!(c.state().nearest_awake, None);
    c.walk(0, 1);
    assert_eq!(c.state().nearest_awake, Some(3), "it woke three cells off");
    c.wait();
    assert_eq!(c.state().nearest_awake, Some(2), "and comes a step closer");
    // Round the corner it is still counted, across plus along, walls and all.
    c.state.x = 1;
    c.state.y = 3;
    let m = &c.floor().monsters[0];
    assert_eq!(
        c.state().nearest_awake,
        Some((m.x - 1).unsigned_abs() + (m.y - 3).unsigned_abs())
    );
    let json = serde_json::to_value(c.state()).unwrap();
    assert!(json["nearest_awake"].is_u64());
}

#[test]
fn with_no_monster_awake_the_state_leaves_nearest_awake_out() {
    let mut c = crawl_with(corridor_with("rat"), &party(&[1]));
    c.wait();
    assert_eq!(c.state().nearest_awake, None);
    let json = serde_json::to_value(c.state()).unwrap();
    assert!(json.get("nearest_awake").is_none());
}

#[test]
fn a_monster_out_of_sight_sleeps() {
    let mut levels = corridor_with("rat");
    levels[0]["map"][3] = json!("#........M#");
    let mut c = crawl_with(levels, &party(&[1]));
    for _ in 0..5 {
        c.wait();
    }
    assert!(!c.floor().monsters[0].awake, "a wall between");
    assert_eq!((c.floor().monsters[0].x, c.floor().monsters[0].y), (9, 3));
}

#[test]
fn an_awake_monster_bites_the_front_rank_on_its_tick() {
    let mut levels = corridor_with("rat");
    levels[0]["map"][1] = json!("#<M......>#");
    let mut c = crawl_with(levels, &party(&[1, 1, 1]));
    c.wait(); // it wakes
    let bites = events(c.wait());
    assert!(
        matches!(&bites[..], [Event::Wait, Event::Bitten { monster, member, damage: 1 }]
            if monster == "rat" && (member == "m0" || member == "m1")),
        "from ahead it bites one of the front two: {bites:?}"
    );
    c.state.party[0].hp = 0;
    c.wait();
    assert!(matches!(&c.events()[1], Event::Bitten { member, .. } if member == "m1"));
}

#[test]
fn the_front_two_fight_and_the_back_need_the_reach() {
    let mut levels = corridor_with("rat");
    levels[0]["map"][1] = json!("#<M......>#");
    let mut c = crawl_with(levels, &party(&[1, 1, 3, 3]));
    let swung: Vec<String> = c
        .attack()
        .iter()
        .filter_map(|e| match e {
            Event::Hit { member, .. } => Some(member.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(swung, vec!["m0", "m1", "m2"], "slot four needs reach 4");
    assert_eq!(c.floor().monsters[0].hp, 47);
    assert!(c.floor().monsters[0].awake, "being hit wakes it");
}

#[test]
fn a_monster_slain_is_gone() {
    let mut levels = corridor_with("bat");
    levels[0]["map"][1] = json!("#<M......>#");
    let mut c = crawl_with(levels, &party(&[1]));
    let hit = events(c.attack());
    assert_eq!(
        hit,
        vec![
            Event::Hit {
                member: "m0".into(),
                monster: "bat".into(),
                damage: 1
            },
            Event::Slain {
                monster: "bat".into()
            }
        ]
    );
    assert!(c.floor().monsters.is_empty());
    c.walk(0, 1);
    assert_eq!(c.state().x, 2);
}

#[test]
fn the_party_falls_once_and_the_game_is_lost() {
    let mut levels = corridor_with("rat");
    levels[0]["map"][1] = json!("#<M......>#");
    let mut c = crawl_with(levels, r#"[{ "name": "Lone", "hp": 1 }]"#);
    c.wait();
    assert_eq!(c.wait().last(), Some(&Event::Dead));
    assert!(c.state().dead);
    assert!(c.wait().is_empty(), "nothing happens to the dead");
}

#[test]
fn with_no_party_nobody_is_hurt() {
    let mut levels = corridor_with("rat");
    levels[0]["map"][1] = json!("#<M......>#");
    let mut c = crawl_with(levels, "[]");
    for _ in 0..10 {
        c.wait();
        assert_eq!(c.events(), &[Event::Wait]);
    }
    assert!(!c.state().dead);
}

#[test]
fn a_refused_step_or_use_says_what_was_there_and_costs_nothing() {
    let bumped = |what: &str| vec![Event::Bumped { what: what.into() }];
    // The top floor: on the stairs up at (1, 1) facing east, rock behind and to the left.
    let mut c = crawl_with(three_floors(), &party(&[1]));
    assert_eq!(events(c.walk(0, -1)), bumped("wall"));
    assert_eq!(events(c.walk(-1, 0)), bumped("wall"));
    c.walk(0, 1);
    // Floor ahead and underfoot: nothing to use.
    assert_eq!(events(c.use_ahead()), vec![Event::Nothing]);
    c.walk(0, 1);
    assert_eq!(
        events(c.walk(0, 1)),
        bumped("door"),
        "a shut door is not walked through"
    );
    assert_eq!(
        (c.state().x, c.state().tick),
        (3, 2),
        "refusals cost nothing"
    );

    let levels = json!([{ "name": "Vault", "map": ["#######", "#<.=.>#", "##L=###", "##.####", "#######"],
                          "doors": [{ "at": [3, 1], "name": "gate" }, { "at": [3, 2], "name": "vault" }],
                          "levers": [{ "at": [2, 2], "opens": ["gate", "vault"] }] }]);
    let mut c = crawl_with(levels, &party(&[1]));
    c.state.x = 2;
    c.state.facing = Facing::South;
    assert_eq!(events(c.walk(0, 1)), bumped("lever"));

    // A monster in front: the step is refused, and it is not something to use either.
    let mut levels = corridor_with("rat");
    levels[0]["map"][1] = json!("#<.M.....>#");
    let mut c = crawl_with(levels, &party(&[1]));
    c.state.x = 2;
    assert_eq!(c.state().ahead, 'M');
    assert_eq!(events(c.walk(0, 1)), bumped("monster"));
    assert_eq!(events(c.use_ahead()), vec![Event::Nothing]);
    assert_eq!(c.state().tick, 0);
}

#[test]
fn keys_open_locks_and_a_lever_opens_what_it_names() {
    let mut c = crawl_with(three_floors(), &party(&[1]));
    c.state.level = 2;
    c.state.x = 2;
    c.state.y = 1;
    c.state.facing = Facing::East;
    assert_eq!(events(c.use_ahead()), vec![Event::Locked]);
    assert_eq!(c.state().tick, 0, "a locked door costs nothing");
    assert_eq!(events(c.walk(0, 1)), vec![Event::Locked]);
    c.state.keys = 1;
    assert_eq!(events(c.use_ahead()), vec![Event::Unlocked]);
    assert_eq!((c.state().keys, c.floor().cell(3, 1)), (0, &Cell::Open));

    let levels = json!([{ "name": "Vault", "map": ["#######", "#<.=.>#", "##L=###", "##.####", "#######"],
                          "doors": [{ "at": [3, 1], "name": "gate" }, { "at": [3, 2], "name": "vault" }],
                          "levers": [{ "at": [2, 2], "opens": ["gate", "vault"] }] }]);
    let mut c = crawl_with(levels, &party(&[1]));
    c.state.x = 2;
    c.state.y = 1;
    c.state.facing = Facing::South;
    assert_eq!(
        events(c.use_ahead()),
        vec![
            Event::Lever,
            Event::Opened {
                name: "gate".into()
            },
            Event::Opened {
                name: "vault".into()
            }
        ]
    );
    assert_eq!(
        (c.floor().cell(3, 1), c.floor().cell(3, 2)),
        (&Cell::Open, &Cell::Open)
    );
    assert_eq!(
        events(c.use_ahead()),
        vec![Event::Nothing],
        "it only goes one way"
    );
}

#[test]
fn every_kind_of_loot_is_announced() {
    let levels = json!([{ "name": "Hoard", "map": ["######", "#<CCC#", "#>...#", "######"],
                          "chests": ["heal:3", "key:2", "item:healing potion"], "facing": "east" }]);
    let mut c = crawl_with(levels, &party(&[1]));
    c.state.party[0].hp = 10;
    c.use_ahead();
    assert_eq!(c.state().party[0].hp, 13);
    c.walk(0, 1);
    c.use_ahead();
    assert_eq!(c.state().keys, 2);
    c.walk(0, 1);
    assert_eq!(
        events(c.use_ahead()),
        vec![Event::Loot {
            what: "item".into(),
            value: "healing potion".into(),
            from: "chest".into()
        }]
    );
    c.walk(0, 1);
    let tick = c.state().tick;
    assert_eq!(events(c.use_ahead()), vec![Event::Empty], "underfoot");
    assert_eq!(c.state().tick, tick, "an empty chest costs no time");
}

#[test]
fn reveal_shows_the_floor_around_the_party_or_all_of_it() {
    let mut c = crawl_with(three_floors(), &party(&[1]));
    assert!(!c.floor().is_seen(1, 5));
    assert_eq!(events(c.reveal(2)), vec![Event::Revealed { radius: 2 }]);
    assert!(c.floor().is_seen(3, 3) && !c.floor().is_seen(4, 4) && !c.floor().is_seen(1, 5));
    c.reveal(0);
    assert!(c.floor().seen.iter().all(|s| *s));
    assert_eq!(c.state().tick, 0, "looking costs no time");
    assert_eq!(
        c.floor().automap()[3],
        "#.#####.#",
        "an unsprung trap reads as floor"
    );
}

#[test]
fn a_pit_hurts_and_drops_the_party_a_floor() {
    let mut c = crawl_with(three_floors(), &party(&[1]));
    c.state.level = 1;
    c.state.x = 4;
    c.state.y = 3;
    c.state.facing = Facing::East;
    let fell = events(c.walk(0, 1));
    assert_eq!(
        fell,
        vec![
            Event::Pit,
            Event::Level {
                level: 2,
                name: "Bottom".into()
            }
        ]
    );
    assert_eq!(c.state().party[0].hp, 18);
    assert_eq!(
        (c.state().x, c.state().y, c.state().facing),
        (5, 3, Facing::East),
        "on the cell under the pit, facing as it fell"
    );
}

#[test]
fn a_save_mid_fight_round_trips_everything() {
    let mut c = crawl_with(three_floors(), &party(&[1, 1]));
    c.walk(0, 1);
    c.walk(0, 1);
    c.use_ahead();
    c.state.level = 1;
    c.state.x = 3;
    c.state.y = 1;
    c.state.facing = Facing::South;
    c.reveal(2);
    c.walk(0, 1);
    assert!(c.state().encounter.is_some());
    let json = c.save_json();

    let mut other = crawl_with(three_floors(), &party(&[1, 1]));
    other.load(&json).unwrap();
    assert!(other.same_as(&c));
    assert_eq!(other.save(), c.save());
    assert_eq!(other.floor_at(0).unwrap().seen, c.floor_at(0).unwrap().seen);
    // Both carry on identically, fight and all.
    c.resolve(false);
    other.resolve(false);
    for _ in 0..3 {
        c.rest();
        other.rest();
    }
    assert!(other.same_as(&c));
}

#[test]
fn a_bad_save_says_where_and_leaves_the_game_alone() {
    let mut c = crawl_with(three_floors(), &party(&[1]));
    c.walk(0, 1);
    let before = c.save();

    let e = c.load("{ not json").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("the save is not valid: key must be a string at line 1"),
        "{e}"
    );

    let mut foreign = before.clone();
    foreign.dungeon = "0123456789abcdef".into();
    let e = c.restore(&foreign).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "the save is from another dungeon (0123456789abcdef; this one is {})",
            before.dungeon
        )
    );

    let mut lost = before.clone();
    lost.x = 0;
    let e = c.restore(&lost).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the save puts the party at level 0, cell 0, row 1, which is off the map or solid"
    );
    lost.x = 5000;
    lost.y = -3;
    let e = c.restore(&lost).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the save puts the party at level 0, cell 5000, row -3, which is off the map or solid"
    );

    let mut bogus = before.clone();
    bogus.floors[0].opened.push([2, 1]);
    let e = c.restore(&bogus).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the save's level 0, cell 2, row 1: saved as an opened door, but no door is there"
    );

    let mut short = before.clone();
    short.floors.pop();
    assert!(matches!(c.restore(&short), Err(SaveError::Shape(_))));
    assert_eq!(c.save(), before, "untouched");
}

#[test]
fn a_new_game_starts_over_and_the_seed_replays() {
    let levels = json!([{
        "name": "Warren", "map": ["##########", "#<.......#", "#.......>#", "##########"],
        "encounter_rate": 0.5, "groups": ["rats", "bats", "newts"], "facing": "east"
    }]);
    let play = |c: &mut Crawl| {
        let mut log = Vec::new();
        for i in 0..40 {
            if c.state().encounter.is_some() {
                c.resolve(i % 2 == 0);
            } else if c.state().ahead == '#' {
                c.turn(1);
            } else {
                c.walk(0, 1);
            }
            log.extend(c.events().iter().cloned());
        }
        log
    };
    let mut a = crawl_with(levels.clone(), "[]");
    let first = play(&mut a);
    a.new_game(None);
    assert_eq!(play(&mut a), first, "same seed, same game");
    a.new_game(Some(99));
    assert_eq!(a.state().tick, 0);
}

#[test]
fn a_trap_ahead_reads_as_floor_until_it_goes_off() {
    let mut c = crawl_with(three_floors(), &party(&[1]));
    c.state.x = 7;
    c.state.y = 2;
    c.state.facing = Facing::South;
    assert_eq!(c.state().ahead, '.', "a secret until it goes off");
    c.walk(0, 1);
    c.walk(0, -1);
    assert_eq!(c.state().ahead, '^', "sprung, it shows");
}

/// The dungeon `a_save_from_a_changed_dungeon_is_refused` saves from, as its three tables.
fn fingerprinted() -> (Value, Value, Value) {
    let levels = json!([{
        "name": "Hall", "map": ["########", "#<.M.C^#", "#.....>#", "########"],
        "monsters": ["rat"], "chests": ["gold:3"], "traps": ["dart"], "start": [1, 1],
        "encounters": [{ "at": [2, 2], "group": "kobolds", "text": "Kobolds!" }]
    }]);
    let monsters = json!([
        { "name": "rat", "hp": 5, "attack": 1, "sight": 3 },
        { "name": "bat", "hp": 5, "attack": 1, "sight": 3 }
    ]);
    let crawlers = json!([{ "name": "Vess", "hp": 12, "attack": 3, "reach": 1 }]);
    (levels, monsters, crawlers)
}

#[test]
fn a_save_from_a_changed_dungeon_is_refused() {
    let game = |(l, m, c): &(Value, Value, Value)| {
        Crawl::new(
            Tables::from_json(&l.to_string(), &m.to_string(), &c.to_string()).unwrap(),
            3,
        )
    };
    let original = fingerprinted();
    let save = game(&original).save_json();
    assert!(
        game(&original).load(&save).is_ok(),
        "the same dungeon takes it"
    );
    type Change = fn(&mut (Value, Value, Value));
    let changes: [(&str, Change); 9] = [
        ("a monster moved", |t| t.0[0]["map"][1] = json!("#<..MC^#")),
        ("a monster's kind", |t| t.0[0]["monsters"] = json!(["bat"])),
        ("a monster's stats", |t| t.1[0]["hp"] = json!(6)),
        ("a fixed fight", |t| {
            t.0[0]["encounters"][0]["group"] = json!("rats")
        }),
        ("the loot", |t| t.0[0]["chests"] = json!(["gold:30"])),
        ("a trap's name", |t| t.0[0]["traps"] = json!(["net"])),
        ("the start", |t| t.0[0]["start"] = json!([2, 1])),
        ("a crawler's stats", |t| t.2[0]["attack"] = json!(4)),
        ("a crawler's reach", |t| t.2[0]["reach"] = json!(2)),
    ];
    for (what, change) in changes {
        let mut tables = original.clone();
        change(&mut tables);
        let mut other = game(&tables);
        let before = other.save();
        let e = other.load(&save).unwrap_err();
        assert!(matches!(e, SaveError::OtherDungeon { .. }), "{what}: {e}");
        assert_eq!(other.save(), before, "{what}: the game is untouched");
    }
}

/// Two floors of furniture. The top: a plate, a secret door, a teleporter to the floor below, a
/// spinner, a dark cell, a gate, a button, a lever, a door that opens with a named key, items
/// and a trap that hurts. Below: a teleporter on the same floor and a spinner with no entry.
fn works() -> Value {
    json!([
        {
            "name": "Works",
            "map": ["##########",
                    "#<._.S..T#",
                    "#.####+#.#",
                    "#%D..=.B.#",
                    "#.L#######",
                    "#..^>=...#",
                    "##########"],
            "doors": [{ "at": [6, 2], "name": "north" }, { "at": [5, 3], "name": "inner" },
                      { "at": [5, 5], "name": "vault", "key": "bronze" }, { "at": [5, 1], "name": "hidden" }],
            "plates": [{ "at": [3, 1], "opens": ["inner"] }],
            "buttons": [{ "at": [7, 3], "shuts": ["inner"] }],
            "levers": [{ "at": [2, 4], "opens": ["north"] }],
            "teleports": [{ "at": [8, 1], "to": [2, 1], "floor": 1, "facing": "south" }],
            "spinners": [{ "at": [1, 3], "turn": 2 }],
            "items": [{ "at": [1, 5], "loot": "key:bronze", "art": "i_key" }, { "at": [1, 5], "loot": "gold:5" }],
            "traps": [{ "name": "darts", "damage": 3 }],
            "facing": "east"
        },
        {
            "name": "Deep",
            "map": ["#######",
                    "#<.T..#",
                    "#.###.#",
                    "#>..%.#",
                    "#######"],
            "teleports": [{ "at": [3, 1], "to": [5, 3] }]
        }
    ])
}

fn works_crawl(reaches: &[u32]) -> Crawl {
    crawl_with(works(), &party(reaches))
}

/// Puts the party at (x, y) of `level`, facing `facing`, as if it had walked there.
fn put(c: &mut Crawl, level: usize, x: i32, y: i32, facing: Facing) {
    c.state.level = level;
    c.state.x = x;
    c.state.y = y;
    c.state.facing = facing;
}

#[test]
fn a_secret_door_is_rock_until_used_or_searched_and_then_a_door() {
    let mut c = works_crawl(&[1]);
    put(&mut c, 0, 4, 1, Facing::East);
    assert_eq!(c.state().ahead, '#', "a secret is not told");
    assert_eq!(
        events(c.walk(0, 1)),
        vec![Event::Bumped {
            what: "wall".into()
        }]
    );
    assert_eq!(events(c.use_ahead()), vec![Event::Found { x: 5, y: 1 }]);
    assert_eq!((c.floor().cell(5, 1), c.state().tick), (&Cell::Door, 1));
    assert_eq!(events(c.use_ahead()), vec![Event::Door]);
    assert_eq!(c.floor().cell(5, 1), &Cell::Open);

    let mut c = works_crawl(&[1]);
    put(&mut c, 0, 6, 1, Facing::North);
    assert_eq!(events(c.search()), vec![Event::Found { x: 5, y: 1 }]);
    assert_eq!(c.state().tick, 1, "a search that finds takes a tick");
    assert_eq!(events(c.search()), vec![Event::Nothing]);
    assert_eq!(c.state().tick, 1, "finding nothing takes none");
}

#[test]
fn a_plate_opens_its_gate_each_time_and_a_button_shuts_it_unless_someone_stands_in_it() {
    let mut c = works_crawl(&[1]);
    assert_eq!(c.floor().cell(5, 3), &Cell::Locked);
    c.walk(0, 1);
    assert_eq!(
        events(c.walk(0, 1)),
        vec![
            Event::Plate { x: 3, y: 1 },
            Event::Opened {
                name: "inner".into()
            }
        ]
    );
    assert_eq!(c.floor().cell(5, 3), &Cell::Open);
    assert_eq!(c.floor().cell(3, 1), &Cell::Plate { pressed: true });
    c.walk(0, 1);
    assert_eq!(
        events(c.walk(0, -1)),
        vec![Event::Plate { x: 3, y: 1 }],
        "pressed again: the gate is open already"
    );

    put(&mut c, 0, 6, 3, Facing::East);
    assert_eq!(
        events(c.walk(0, 1)),
        vec![Event::Bumped {
            what: "button".into()
        }]
    );
    assert_eq!(
        events(c.use_ahead()),
        vec![
            Event::Button { x: 7, y: 3 },
            Event::Shut {
                name: "inner".into()
            }
        ]
    );
    assert_eq!(c.floor().cell(5, 3), &Cell::Locked);
    c.state.keys = 3;
    put(&mut c, 0, 4, 3, Facing::East);
    assert_eq!(
        events(c.use_ahead()),
        vec![Event::Locked],
        "a key opens no gate"
    );
    assert_eq!(c.state().keys, 3);

    // A monster standing in the doorway keeps it from shutting.
    *c.state.floors[0].cell_mut(5, 3).unwrap() = Cell::Open;
    c.state.floors[0].monsters.push(Monster {
        kind: 1,
        x: 5,
        y: 3,
        hp: 1,
        awake: false,
        art: "bat".into(),
    });
    put(&mut c, 0, 6, 3, Facing::East);
    assert_eq!(events(c.use_ahead()), vec![Event::Button { x: 7, y: 3 }]);
    assert_eq!(c.floor().cell(5, 3), &Cell::Open);
}

#[test]
fn a_lever_opens_only_the_door_it_names() {
    let mut c = works_crawl(&[1]);
    put(&mut c, 0, 1, 4, Facing::East);
    assert_eq!(
        events(c.use_ahead()),
        vec![
            Event::Lever,
            Event::Opened {
                name: "north".into()
            }
        ]
    );
    assert_eq!(c.floor().cell(6, 2), &Cell::Open);
    assert_eq!(
        c.floor().cell(5, 3),
        &Cell::Locked,
        "the gate it does not name"
    );
}

#[test]
fn items_on_the_floor_are_taken_one_use_at_a_time_and_a_named_key_opens_its_door() {
    let mut c = works_crawl(&[1]);
    put(&mut c, 0, 4, 5, Facing::East);
    assert_eq!(
        events(c.use_ahead()),
        vec![Event::Locked],
        "no bronze key yet"
    );
    put(&mut c, 0, 1, 5, Facing::South);
    assert_eq!(c.state().underfoot.as_deref(), Some("key:bronze"));
    assert_eq!(
        events(c.use_ahead()),
        vec![Event::Loot {
            what: "key".into(),
            value: "bronze".into(),
            from: "floor".into()
        }]
    );
    assert_eq!(
        (c.state().keyring, c.state().keys),
        (vec!["bronze".to_string()], 0)
    );
    assert_eq!(c.state().underfoot.as_deref(), Some("gold:5"));
    let tick = c.state().tick;
    c.use_ahead();
    assert_eq!((c.state().gold, c.state().tick), (5, tick + 1));
    assert_eq!(c.state().underfoot, None);
    assert_eq!(events(c.use_ahead()), vec![Event::Nothing]);
    put(&mut c, 0, 4, 5, Facing::East);
    assert_eq!(events(c.use_ahead()), vec![Event::Unlocked]);
    assert_eq!(
        c.state().keyring,
        vec!["bronze".to_string()],
        "a named key is kept"
    );
}

#[test]
fn a_trap_with_damage_hurts_the_standing_front_rank_and_can_kill() {
    let mut c = works_crawl(&[1, 1, 1]);
    put(&mut c, 0, 2, 5, Facing::East);
    let hit = events(c.walk(0, 1));
    assert_eq!(
        hit[0],
        Event::Trap {
            name: "darts".into()
        }
    );
    let hurt: Vec<(String, u32)> = hit[1..]
        .iter()
        .map(|e| match e {
            Event::Hurt {
                member,
                damage,
                from,
            } if from == "darts" => (member.clone(), *damage),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        hurt.iter().map(|h| h.0.as_str()).collect::<Vec<_>>(),
        ["m0", "m1"]
    );
    for (slot, (_, damage)) in hurt.iter().enumerate() {
        assert!((1..=3).contains(damage));
        assert_eq!(c.state().party[slot].hp, 20 - damage);
    }
    assert_eq!(c.state().party[2].hp, 20, "the back rank is not hurt");

    let mut c = works_crawl(&[1, 1]);
    c.state.party[0].hp = 1;
    c.state.party[1].hp = 1;
    put(&mut c, 0, 2, 5, Facing::East);
    c.walk(0, 1);
    assert!(c.state().dead && c.events().contains(&Event::Dead));
}

#[test]
fn a_teleporter_moves_the_party_on_its_floor_or_to_another_kept_as_it_was() {
    let mut c = works_crawl(&[1]);
    c.walk(0, 1);
    c.walk(0, 1); // the plate opens the gate
    put(&mut c, 0, 7, 1, Facing::East);
    assert_eq!(
        events(c.walk(0, 1)),
        vec![
            Event::Teleport {
                level: 1,
                x: 2,
                y: 1
            },
            Event::Level {
                level: 1,
                name: "Deep".into()
            }
        ]
    );
    let s = c.state();
    assert_eq!((s.level, s.x, s.y, s.facing), (1, 2, 1, Facing::South));
    c.turn(-1); // east, toward the teleporter
    assert_eq!(
        events(c.walk(0, 1)),
        vec![Event::Teleport {
            level: 1,
            x: 5,
            y: 3
        }]
    );
    assert_eq!((c.state().x, c.state().y), (5, 3));
    assert_eq!(
        c.floor_at(0).unwrap().cell(5, 3),
        &Cell::Open,
        "the floor above is kept"
    );
}

#[test]
fn a_spinner_turns_the_party_by_its_entry_or_from_the_stream() {
    let mut c = works_crawl(&[1]);
    put(&mut c, 0, 1, 2, Facing::South);
    assert_eq!(
        events(c.walk(0, 1)),
        vec![Event::Spun {
            facing: Facing::North
        }]
    );
    assert_eq!(c.state().facing, Facing::North);

    let spun = |seed: u64| {
        let mut c = works_crawl(&[1]);
        c.new_game(Some(seed));
        put(&mut c, 1, 3, 3, Facing::East);
        c.walk(0, 1);
        assert!(
            matches!(c.events(), [Event::Spun { .. }]),
            "{:?}",
            c.events()
        );
        c.state().facing
    };
    assert_eq!(spun(3), spun(3), "the same seed spins the same way");
    let turns: std::collections::HashSet<Facing> = (0..12).map(spun).collect();
    assert!(!turns.contains(&Facing::East), "a spinner always turns");
    assert!(turns.len() > 1, "and not always the same way");
}

#[test]
fn stepping_into_the_dark_is_announced_once() {
    let mut c = works_crawl(&[1]);
    put(&mut c, 0, 3, 3, Facing::West);
    assert!(!c.state().in_dark);
    assert_eq!(events(c.walk(0, 1)), vec![Event::Dark]);
    assert!(c.state().in_dark);
    assert!(c.view().is_empty(), "the dark shows nothing");
    c.turn(1);
    assert!(
        !c.events().contains(&Event::Dark),
        "turning in it is not stepping into it"
    );
    c.turn(-1);
    c.walk(0, 1);
    assert!(!c.state().in_dark);
}

#[test]
fn a_monster_walks_round_a_wall_to_the_party() {
    let levels = json!([{ "name": "Bend", "map": ["#######",
                                                   "#<.#M.#",
                                                   "#..#..#",
                                                   "#....>#",
                                                   "#######"],
                          "monsters": ["rat"], "facing": "south" }]);
    let mut c = crawl_with(levels, &party(&[1]));
    c.state.floors[0].monsters[0].awake = true;
    c.wait();
    let m = &c.floor().monsters[0];
    assert_eq!((m.x, m.y), (4, 2), "round the wall, not into it");
    let mut bitten = false;
    for _ in 0..8 {
        c.wait();
        bitten |= c.events().iter().any(|e| matches!(e, Event::Bitten { .. }));
    }
    assert!(bitten, "it found its way: {:?}", c.floor().monsters[0]);

    // Nor does a monster cross a pit or stand on a teleporter.
    let floor = Dungeon::from_rows(&["#######", "#.O.M.#", "#######"]);
    assert_eq!(super::monsters::path_step(&floor, (4, 1), (1, 1)), None);
}

/// A room with a party of four in the middle facing east, and a rat awake on one side.
fn rat_beside(offset: (i32, i32)) -> Crawl {
    let levels = json!([{ "name": "Room", "map": ["#######", "#.....#", "#..<..#", "#....>#", "#######"],
                          "facing": "east" }]);
    let mut c = crawl_with(levels, &party(&[1, 1, 1, 1]));
    c.state.floors[0].monsters.push(Monster {
        kind: 0,
        x: 3 + offset.0,
        y: 2 + offset.1,
        hp: 50,
        awake: true,
        art: "rat".into(),
    });
    c
}

fn bitten_in(c: &mut Crawl, turns: usize) -> std::collections::BTreeSet<String> {
    let mut who = std::collections::BTreeSet::new();
    for _ in 0..turns {
        for e in c.wait() {
            if let Event::Bitten { member, .. } = e {
                who.insert(member.clone());
            }
        }
    }
    who
}

#[test]
fn a_monster_bites_the_rank_on_its_side_of_the_formation() {
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
    // Facing east: ahead is east, behind west, right south, left north.
    for (offset, side) in [
        ((1, 0), ["m0", "m1"]),
        ((-1, 0), ["m2", "m3"]),
        ((0, 1), ["m1", "m3"]),
        ((0, -1), ["m0", "m2"]),
    ] {
        let mut c = rat_beside(offset);
        let who = bitten_in(&mut c, 16);
        assert_eq!(who, set(&side), "from {offset:?}");
    }
    // With nobody standing on that side, whoever stands.
    let mut c = rat_beside((-1, 0));
    c.state.party[2].hp = 0;
    c.state.party[3].hp = 0;
    let who = bitten_in(&mut c, 16);
    assert!(
        !who.is_empty() && who.is_subset(&set(&["m0", "m1"])),
        "{who:?}"
    );
}

#[test]
fn swapping_reorders_the_party_at_no_cost_and_the_save_keeps_the_order() {
    let mut c = crawl_with(three_floors(), &party(&[1, 1, 3]));
    assert_eq!(events(c.swap(1, 3)), vec![Event::Swapped { a: 1, b: 3 }]);
    let names: Vec<String> = c.state().party.iter().map(|m| m.name.clone()).collect();
    assert_eq!(names, ["m2", "m1", "m0"]);
    assert_eq!(c.state().tick, 0, "no time");
    assert!(
        c.swap(0, 1).is_empty() && c.swap(1, 4).is_empty(),
        "no such slot"
    );
    c.state.party[0].hp = 7;
    let json = c.save_json();
    let mut other = crawl_with(three_floors(), &party(&[1, 1, 3]));
    other.load(&json).unwrap();
    assert!(other.same_as(&c));
    assert_eq!(
        (
            other.state().party[0].name.as_str(),
            other.state().party[0].hp
        ),
        ("m2", 7)
    );
    let mut bad = c.save();
    bad.order = vec![0, 0, 1];
    let e = other.restore(&bad).unwrap_err().to_string();
    assert_eq!(
        e,
        "the save does not fit this dungeon: the party's order [0, 0, 1] is not each of its 3 members once"
    );
}

#[test]
fn the_furniture_is_saved_and_a_save_that_does_not_fit_it_is_refused() {
    let mut c = works_crawl(&[1, 1]);
    c.walk(0, 1);
    c.walk(0, 1); // the plate: pressed, the gate open
    put(&mut c, 0, 4, 1, Facing::East);
    c.use_ahead(); // the secret door found
    put(&mut c, 0, 1, 5, Facing::South);
    c.use_ahead(); // the bronze key taken
    put(&mut c, 0, 6, 3, Facing::East);
    c.use_ahead(); // the button: pressed, the gate shut
    c.swap(1, 2);
    let save = c.save();
    let floor = &save.floors[0];
    assert_eq!(floor.found, vec![[5, 1]]);
    assert_eq!(floor.pressed, vec![[3, 1], [7, 3]]);
    assert_eq!(floor.taken, vec![0]);
    assert_eq!(
        floor.shut,
        Vec::<[i32; 2]>::new(),
        "a gate drawn locked is locked again"
    );
    assert_eq!(
        (save.keyring.clone(), save.order.clone()),
        (vec!["bronze".into()], vec![1, 0])
    );
    let mut other = works_crawl(&[1, 1]);
    other.load(&c.save_json()).unwrap();
    assert!(other.same_as(&c));

    let refused = |change: &dyn Fn(&mut Save)| {
        let mut bad = save.clone();
        change(&mut bad);
        let mut game = works_crawl(&[1, 1]);
        let before = game.save();
        let e = game.restore(&bad).unwrap_err().to_string();
        assert_eq!(game.save(), before);
        e
    };
    assert_eq!(
        refused(&|s| s.floors[0].found.push([2, 1])),
        "the save's level 0, cell 2, row 1: saved as a found secret door, but none is there"
    );
    assert_eq!(
        refused(&|s| s.floors[0].shut.push([1, 2])),
        "the save's level 0, cell 1, row 2: saved as a locked door, but no door is there"
    );
    assert_eq!(
        refused(&|s| s.floors[0].pressed.push([2, 1])),
        "the save's level 0, cell 2, row 1: saved as pressed, but no plate or button is there"
    );
    assert_eq!(
        refused(&|s| s.floors[0].taken.push(0)),
        "the save's level 0, cell -1, row -1: item 0 taken, but the level has no such item left"
    );
    assert_eq!(
        refused(&|s| s.keyring.push("iron".into())),
        "the save does not fit this dungeon: the key \"iron\" is not one the dungeon holds, or is carried twice"
    );
}

#[test]
fn a_shut_door_drawn_open_is_saved_as_shut() {
    let levels = json!([{ "name": "Shut", "map": ["#######", "#<_+.>#", "#######"],
                          "doors": [{ "at": [3, 1], "name": "d" }],
                          "plates": [{ "at": [2, 1], "shuts": ["d"] }] }]);
    let mut c = crawl_with(levels.clone(), &party(&[1]));
    put(&mut c, 0, 2, 1, Facing::East);
    c.use_ahead(); // open the door by hand
    c.walk(0, -1);
    assert_eq!(
        events(c.walk(0, 1)),
        vec![
            Event::Plate { x: 2, y: 1 },
            Event::Shut { name: "d".into() }
        ]
    );
    assert_eq!(c.floor().cell(3, 1), &Cell::Locked);
    assert_eq!(c.save().floors[0].shut, vec![[3, 1]]);
    let mut other = crawl_with(levels, &party(&[1]));
    other.load(&c.save_json()).unwrap();
    assert!(other.same_as(&c));
}
