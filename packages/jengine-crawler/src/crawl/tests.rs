//! The crawl played step by step: time, doors, stairs, traps, fights, monsters and saves,
//! each test driving a small dungeon and naming exactly what it expects to happen.

use super::*;
use crate::map::{Cell, Facing, Tables};
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
    assert_eq!(top.automap()[1], "#<..A..C#");
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
    assert_eq!(
        bites,
        vec![
            Event::Wait,
            Event::Bitten {
                monster: "rat".into(),
                member: "m0".into(),
                damage: 1
            }
        ]
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
