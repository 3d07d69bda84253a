use super::*;
use crate::rules::{SaveKind, Source, builtin_text};

fn rules() -> Arc<Rules> {
    Arc::new(Rules::builtin())
}

/// A fighter, a mage of level 6 and a cleric of level 3.
fn party(rules: &Rules) -> Party {
    let text = r#"[
      { "name": "Ana", "race": "human", "classes": ["fighter"], "levels": [3], "hp": 20,
        "abilities": { "str": 16, "int": 9, "wis": 10, "dex": 10, "con": 12, "cha": 10 },
        "items": ["long sword", "short bow", "chain mail", "shield"] },
      { "name": "Bo", "race": "human", "classes": ["mage"], "levels": [6], "hp": 14,
        "abilities": { "str": 9, "int": 17, "wis": 10, "dex": 10, "con": 12, "cha": 10 },
        "items": ["dagger"],
        "spells": ["drowse", "fan of flame", "spark darts", "spark darts", "clinging web",
                   "acid bolt", "fire burst", "thunder line"] },
      { "name": "Cy", "race": "human", "classes": ["cleric"], "levels": [3], "hp": 16,
        "abilities": { "str": 12, "int": 9, "wis": 15, "dex": 10, "con": 12, "cha": 10 },
        "items": ["mace", "chain mail", "shield"],
        "spells": ["mend wounds", "wound touch", "still body"] }
    ]"#;
    Party::from_json(
        rules,
        Source {
            file: "test party",
            text,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn encounter(monsters: &[(&str, u8)]) -> Encounter {
    Encounter {
        name: "test".into(),
        monsters: monsters
            .iter()
            .map(|(k, n)| Group {
                kind: k.to_string(),
                count: *n,
            })
            .collect(),
        field: None,
        party_at: None,
        monsters_at: None,
    }
}

/// A fight on an open 12x12 field, the monsters unable to act until a test gives them a turn.
fn fight(monsters: &[(&str, u8)], seed: u64) -> Fight {
    let rules = rules();
    let p = party(&rules);
    Fight::start(
        rules,
        Field::open(12, 12).unwrap(),
        p,
        &encounter(monsters),
        seed,
    )
    .unwrap()
}

/// Puts units where a test wants them, and gives `id` the turn with full moves.
fn arrange(f: &mut Fight, places: &[(u16, i32, i32)], id: u16) {
    for &(u, x, y) in places {
        f.units[u as usize - 1].pos = Pos::new(x, y);
    }
    give_turn(f, id);
}

fn give_turn(f: &mut Fight, id: u16) {
    let id = UnitId(id);
    f.order.retain(|u| *u != id);
    f.order.insert(f.turn.min(f.order.len()), id);
    f.turn = f.order.iter().position(|u| *u == id).unwrap();
    f.units[id.index()].quick = false;
    f.begin_turn(id);
}

/// Makes every monster a still target: computer-played but unable to act.
fn hold_monsters(f: &mut Fight) {
    for u in &mut f.units {
        if u.side == Side::Monsters {
            u.status = Status::Held;
            u.rounds = 99;
        }
    }
}

fn events_since(f: &Fight, from: usize) -> Vec<&Event> {
    f.log()[from..].iter().collect()
}

#[test]
fn initiative_orders_every_able_unit_highest_roll_first() {
    let f = fight(&[("orc", 3)], 5);
    let Some(Event::Initiative { round, order }) = f
        .log()
        .iter()
        .find(|e| matches!(e, Event::Initiative { .. }))
    else {
        panic!("no initiative in {:?}", f.log());
    };
    assert_eq!(*round, 1);
    assert_eq!(order.len(), 6);
    assert!(order.windows(2).all(|w| w[0].roll >= w[1].roll));
    for r in order {
        let bonus = f.unit(r.unit).unwrap().initiative;
        assert!((1 + bonus..=10 + bonus).contains(&r.roll), "{r:?}");
    }
    // The same seed rolls the same order; another seed, over a few, not always.
    let again = fight(&[("orc", 3)], 5);
    assert_eq!(f.log(), again.log());
    let orders: Vec<Vec<UnitId>> = (0..6)
        .map(|s| {
            fight(&[("orc", 3)], s)
                .log()
                .iter()
                .find_map(|e| match e {
                    Event::Initiative { order, .. } => Some(order.iter().map(|r| r.unit).collect()),
                    _ => None,
                })
                .unwrap()
        })
        .collect();
    assert!(orders.iter().any(|o| *o != orders[0]));
}

#[test]
fn a_unit_walking_away_from_an_enemy_gets_one_free_attack_a_round() {
    let mut f = fight(&[("orc", 2)], 1);
    // Ana at (5, 5); orc 4 next to her at (5, 4), orc 5 far away.
    arrange(&mut f, &[(1, 5, 5), (4, 5, 4), (5, 11, 0)], 1);
    f.units[3].status = Status::Ok;
    f.units[3].hp = 100;
    f.units[0].hp = 100;
    f.units[0].max_hp = 100;
    let start = f.log().len();
    // Sliding along the orc keeps her next to it: no free attack.
    f.execute(&Command::Move { x: 6, y: 5 }).unwrap();
    assert!(
        !events_since(&f, start)
            .iter()
            .any(|e| matches!(e, Event::FreeAttack { .. }))
    );
    // Walking off draws one.
    let start = f.log().len();
    f.execute(&Command::Move { x: 6, y: 7 }).unwrap();
    let said = events_since(&f, start);
    assert!(matches!(
        said[0],
        Event::FreeAttack {
            by: UnitId(4),
            target: UnitId(1)
        }
    ));
    assert!(matches!(said[1], Event::Hit { .. } | Event::Miss { .. }));
    // Back next to it and away again in the same round: the orc has had its free attack.
    give_turn(&mut f, 1);
    f.execute(&Command::Move { x: 5, y: 5 }).unwrap();
    let start = f.log().len();
    f.execute(&Command::Move { x: 5, y: 8 }).unwrap();
    assert!(
        !events_since(&f, start)
            .iter()
            .any(|e| matches!(e, Event::FreeAttack { .. }))
    );
}

#[test]
fn a_guard_strikes_the_first_enemy_to_come_into_reach() {
    let mut f = fight(&[("orc", 1)], 2);
    arrange(&mut f, &[(1, 5, 8), (4, 5, 4)], 4);
    f.units[3].status = Status::Ok;
    f.execute(&Command::Guard).unwrap();
    assert!(f.units[3].guarding);
    give_turn(&mut f, 1);
    f.units[0].hp = 100;
    let start = f.log().len();
    f.execute(&Command::Move { x: 5, y: 5 }).unwrap();
    let said = events_since(&f, start);
    assert!(
        matches!(
            said[0],
            Event::GuardStrike {
                by: UnitId(4),
                target: UnitId(1)
            }
        ),
        "{said:?}"
    );
    assert!(!f.units[3].guarding, "one strike");
}

#[test]
fn shots_need_sight_range_and_no_enemy_alongside() {
    let rules = rules();
    let p = party(&rules);
    let field = Field::from_rows(&[
        "............",
        "............",
        "............",
        "......#.....",
        "............",
        "............",
    ])
    .unwrap();
    let mut f = Fight::start(rules, field, p, &encounter(&[("orc", 2)]), 3).unwrap();
    hold_monsters(&mut f);
    // Ana shoots along row 3, the wall between her and orc 4.
    arrange(&mut f, &[(1, 3, 3), (4, 9, 3), (5, 3, 0)], 1);
    let before = f.units.clone();
    let said = f
        .execute(&Command::Attack { target: UnitId(4) })
        .unwrap_err();
    assert_eq!(
        said.0,
        "orc 1 is out of Ana's reach: 6 squares away (it cannot see the target)"
    );
    assert_eq!(f.units, before, "a refused shot changes nothing");
    // In sight but out of the bow's range of 7.
    f.units[3].pos = Pos::new(11, 5);
    assert!(
        !f.field.line_of_sight(Pos::new(3, 3), Pos::new(11, 5)) || {
            let said = f
                .execute(&Command::Attack { target: UnitId(4) })
                .unwrap_err();
            said.0.contains("8 squares away (reach 1, missile range 7)")
        }
    );
    // An enemy alongside: too close to shoot.
    f.units[3].pos = Pos::new(3, 5);
    f.units[4].pos = Pos::new(4, 4);
    let said = f
        .execute(&Command::Attack { target: UnitId(4) })
        .unwrap_err();
    assert!(
        said.0
            .ends_with("(an enemy is next to it, too close to shoot)"),
        "{said}"
    );
    // Clear: the shot is taken.
    f.units[4].pos = Pos::new(0, 0);
    let start = f.log().len();
    f.execute(&Command::Attack { target: UnitId(4) }).unwrap();
    assert!(matches!(
        f.log()[start],
        Event::Hit {
            by: UnitId(1),
            target: UnitId(4),
            ..
        } | Event::Miss {
            by: UnitId(1),
            target: UnitId(4),
            ..
        }
    ));
}

fn covered(f: &Fight, from: usize) -> Vec<Pos> {
    f.log()[from..]
        .iter()
        .find_map(|e| match e {
            Event::Cast { area, .. } => Some(area.clone()),
            _ => None,
        })
        .unwrap()
}

fn damaged(f: &Fight, from: usize) -> Vec<UnitId> {
    f.log()[from..]
        .iter()
        .filter_map(|e| match e {
            Event::SpellDamage { unit, .. } => Some(*unit),
            _ => None,
        })
        .collect()
}

#[test]
fn a_burst_spares_no_friend() {
    let mut f = fight(&[("ogre", 2)], 4);
    hold_monsters(&mut f);
    // Bo casts at orc... at ogre 4 with Ana beside it: both are caught.
    arrange(
        &mut f,
        &[(1, 6, 3), (2, 6, 10), (3, 0, 11), (4, 5, 3), (5, 11, 11)],
        2,
    );
    for u in &mut f.units {
        u.hp = 200;
        u.max_hp = 200;
    }
    let start = f.log().len();
    f.execute(&Command::Cast {
        spell: "fire burst".into(),
        x: 5,
        y: 3,
    })
    .unwrap();
    let area = covered(&f, start);
    assert_eq!(area.len(), 21);
    let hurt = damaged(&f, start);
    assert!(hurt.contains(&UnitId(1)), "the friend is burnt too");
    assert!(hurt.contains(&UnitId(4)));
    assert!(!hurt.contains(&UnitId(5)));
    // Each caught unit saved, for half.
    let saves = f.log()[start..]
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Save {
                    against: SaveKind::Spell,
                    ..
                }
            )
        })
        .count();
    assert_eq!(saves, 2);
    assert!(!f.units[1].holds("fire burst"));
}

#[test]
fn a_line_and_a_cone_start_at_the_caster() {
    let mut f = fight(&[("ogre", 3)], 6);
    hold_monsters(&mut f);
    for u in &mut f.units {
        u.hp = 200;
    }
    arrange(
        &mut f,
        &[
            (1, 0, 0),
            (3, 0, 11),
            (2, 2, 6),
            (4, 5, 6),
            (5, 10, 6),
            (6, 4, 8),
        ],
        2,
    );
    let start = f.log().len();
    f.execute(&Command::Cast {
        spell: "thunder line".into(),
        x: 3,
        y: 6,
    })
    .unwrap();
    let line = covered(&f, start);
    assert_eq!(line.first(), Some(&Pos::new(3, 6)));
    assert_eq!(line.last(), Some(&Pos::new(10, 6)));
    assert_eq!(damaged(&f, start), [UnitId(4), UnitId(5)]);
    give_turn(&mut f, 2);
    let start = f.log().len();
    f.execute(&Command::Cast {
        spell: "fan of flame".into(),
        x: 3,
        y: 7,
    })
    .unwrap();
    let cone = covered(&f, start);
    assert!(cone.contains(&Pos::new(4, 8)) && cone.contains(&Pos::new(5, 6)));
    assert!(!cone.contains(&Pos::new(2, 6)) && !cone.contains(&Pos::new(1, 5)));
    assert_eq!(damaged(&f, start), [UnitId(4), UnitId(6)]);
}

#[test]
fn a_single_target_spell_needs_someone_on_its_square_and_in_range() {
    let mut f = fight(&[("orc", 1)], 7);
    hold_monsters(&mut f);
    arrange(&mut f, &[(1, 0, 0), (3, 0, 11), (2, 2, 2), (4, 9, 2)], 2);
    let said = f
        .execute(&Command::Cast {
            spell: "acid bolt".into(),
            x: 9,
            y: 2,
        })
        .unwrap_err();
    assert_eq!(said.0, "(9, 2) is 7 squares away; \"acid bolt\" reaches 6");
    let said = f
        .execute(&Command::Cast {
            spell: "acid bolt".into(),
            x: 7,
            y: 2,
        })
        .unwrap_err();
    assert_eq!(said.0, "nobody stands at (7, 2) for \"acid bolt\"");
    let said = f
        .execute(&Command::Cast {
            spell: "knit flesh".into(),
            x: 2,
            y: 2,
        })
        .unwrap_err();
    assert_eq!(said.0, "Bo holds no unspent \"knit flesh\"");
    f.units[3].pos = Pos::new(7, 2);
    let start = f.log().len();
    f.execute(&Command::Cast {
        spell: "spark darts".into(),
        x: 7,
        y: 2,
    })
    .unwrap();
    // Level 6: three darts, no save, never a miss.
    let Event::SpellDamage { damage, .. } = f.log()[start + 1] else {
        panic!("{:?}", &f.log()[start..]);
    };
    assert!((6..=15).contains(&damage), "{damage}");
}

#[test]
fn sleep_takes_the_weakest_first_and_never_the_undead() {
    let mut f = fight(&[("kobold", 2), ("gnoll", 1), ("skeleton", 1)], 8);
    arrange(
        &mut f,
        &[
            (1, 0, 11),
            (3, 1, 11),
            (2, 5, 9),
            (4, 5, 4),
            (5, 6, 4),
            (6, 4, 4),
            (7, 5, 3),
        ],
        2,
    );
    for u in &mut f.units {
        if u.side == Side::Monsters {
            u.status = Status::Ok;
        }
    }
    let start = f.log().len();
    f.execute(&Command::Cast {
        spell: "drowse".into(),
        x: 5,
        y: 4,
    })
    .unwrap();
    let slept: Vec<UnitId> = f.log()[start..]
        .iter()
        .filter_map(|e| match e {
            Event::Slept { unit } => Some(*unit),
            _ => None,
        })
        .collect();
    // 2d4 hit dice: the kobolds (1 each) go first, then the gnoll (2), never the skeleton.
    assert!(slept.len() >= 2, "{slept:?}");
    assert_eq!(&slept[..2], [UnitId(4), UnitId(5)]);
    assert!(!slept.contains(&UnitId(7)));
    assert_eq!(f.units[6].status, Status::Ok);
    // A blow wakes a sleeper still standing.
    f.hurt(UnitId(4), 0);
    assert_eq!(f.units[3].status, Status::Ok);
}

#[test]
fn hold_stops_a_unit_until_it_wears_off_or_is_loosed() {
    let mut f = fight(&[("orc", 1)], 9);
    arrange(&mut f, &[(1, 0, 11), (2, 1, 11), (3, 5, 8), (4, 5, 3)], 3);
    f.units[3].status = Status::Ok;
    f.units[3].saves = [21; 5];
    let start = f.log().len();
    f.execute(&Command::Cast {
        spell: "still body".into(),
        x: 5,
        y: 3,
    })
    .unwrap();
    let held = f.log()[start..].iter().find_map(|e| match e {
        Event::HeldFast { unit, rounds } => Some((*unit, *rounds)),
        _ => None,
    });
    let (unit, rounds) = held.unwrap();
    assert_eq!(unit, UnitId(4));
    assert!((4..=7).contains(&rounds));
    assert_eq!(f.units[3].status, Status::Held);
    assert!(!f.units[3].can_act());
}

#[test]
fn a_hurt_monster_tests_morale_and_runs_when_it_breaks() {
    // Over a few seeds a coward (morale 2) always tests once hurt, and the result follows
    // the roll: 2 holds, 3 or 4 falls back, more runs.
    for seed in 0..10 {
        let mut f = fight(&[("kobold", 1), ("kobold", 1)], seed);
        hold_monsters(&mut f);
        f.units[3].status = Status::Ok;
        f.units[3].morale = 2;
        f.units[3].max_hp = 10;
        f.units[3].hp = 4;
        let start = f.log().len();
        arrange(&mut f, &[(1, 5, 9), (2, 6, 10), (3, 4, 10), (4, 5, 3)], 4);
        let Some(Event::Morale { roll, result, .. }) = f.log()[start..]
            .iter()
            .find(|e| matches!(e, Event::Morale { .. }))
        else {
            panic!("no morale test: {:?}", &f.log()[start..]);
        };
        let expected = match roll {
            2 => "holds",
            3 | 4 => "retreats",
            _ => "flees",
        };
        assert_eq!(result, expected);
        if result == "flees" {
            assert!(f.units[3].fleeing);
            // Its turn goes to the computer: it makes for the edge (3 rows up) and leaves.
            f.units[3].quick = true;
            f.run_computer();
            assert_eq!(f.units[3].status, Status::Fled, "{:?}", &f.log()[start..]);
        }
    }
}

#[test]
fn the_undead_never_test_morale() {
    let mut f = fight(&[("skeleton", 2)], 10);
    f.units[3].hp = 1;
    f.units[4].status = Status::Dead;
    arrange(&mut f, &[(4, 5, 3)], 4);
    assert!(!f.log().iter().any(|e| matches!(e, Event::Morale { .. })));
}

#[test]
fn a_member_below_zero_bleeds_each_round_and_dies_at_minus_ten() {
    let mut f = fight(&[("orc", 1)], 11);
    hold_monsters(&mut f);
    f.hurt(UnitId(1), f.units[0].hp + 3);
    assert_eq!(f.units[0].status, Status::Dying);
    assert_eq!(f.units[0].hp, -3);
    assert!(matches!(
        f.log().last(),
        Some(Event::Downed {
            unit: UnitId(1),
            hp: -3,
            dying: true
        })
    ));
    for expected in [-4, -5, -6, -7, -8, -9] {
        f.start_round();
        assert_eq!(f.units[0].hp, expected);
        assert_eq!(f.units[0].status, Status::Dying);
    }
    f.start_round();
    assert_eq!(f.units[0].hp, -10);
    assert_eq!(f.units[0].status, Status::Dead);
    assert!(
        f.log()
            .iter()
            .any(|e| matches!(e, Event::Died { unit: UnitId(1) }))
    );
}

#[test]
fn zero_is_unconscious_and_a_bandage_stops_the_bleeding() {
    let mut f = fight(&[("orc", 1)], 12);
    hold_monsters(&mut f);
    let hp = f.units[1].hp;
    f.hurt(UnitId(2), hp);
    assert_eq!(f.units[1].status, Status::Unconscious);
    f.start_round();
    assert_eq!(f.units[1].hp, 0, "no bleeding at 0");
    f.hurt(UnitId(2), 2);
    assert_eq!(f.units[1].status, Status::Dying);
    arrange(&mut f, &[(1, 3, 3), (2, 4, 4), (3, 9, 9)], 1);
    let said = f
        .execute(&Command::Bandage { target: UnitId(3) })
        .unwrap_err();
    assert_eq!(said.0, "Cy is not a dying friend");
    f.execute(&Command::Bandage { target: UnitId(2) }).unwrap();
    assert_eq!(f.units[1].status, Status::Unconscious);
    f.start_round();
    assert_eq!(f.units[1].hp, -2);
}

#[test]
fn a_monster_dies_at_zero_and_a_won_fight_shares_experience_and_gold() {
    let mut f = fight(&[("orc", 1)], 13);
    let hp = f.units[3].hp;
    let xp_before: u32 = f.party().members.iter().map(|m| m.classes[0].xp).sum();
    f.hurt(UnitId(4), hp);
    assert_eq!(f.units[3].status, Status::Dead);
    let out = f.outcome().unwrap();
    assert_eq!(out.ending, Ending::Won);
    assert_eq!(out.xp, 15);
    assert_eq!(out.xp_each, 5);
    assert!((2..=12).contains(&out.gold));
    let xp_after: u32 = f.party().members.iter().map(|m| m.classes[0].xp).sum();
    assert_eq!(xp_after, xp_before + 15);
    assert!(matches!(
        f.log().last(),
        Some(Event::End {
            ending: Ending::Won,
            ..
        })
    ));
    assert!(f.active().is_none());
    assert_eq!(
        f.clone().apply(Command::EndTurn).unwrap_err().0,
        "the fight is over"
    );
}

#[test]
fn delay_moves_a_unit_to_the_end_of_the_round() {
    let mut f = fight(&[("orc", 1)], 14);
    hold_monsters(&mut f);
    f.order = vec![UnitId(1), UnitId(2), UnitId(3), UnitId(4)];
    f.turn = 0;
    f.begin_turn(UnitId(1));
    f.execute(&Command::Delay).unwrap();
    assert_eq!(f.order, [UnitId(2), UnitId(3), UnitId(4), UnitId(1)]);
    assert_eq!(f.active().unwrap().id, UnitId(2));
    f.execute(&Command::EndTurn).unwrap();
    f.execute(&Command::EndTurn).unwrap();
    // The held orc is skipped; Ana's turn comes round again and she cannot delay twice.
    assert_eq!(f.active().unwrap().id, UnitId(1));
    assert_eq!(
        f.execute(&Command::Delay).unwrap_err().0,
        "Ana has already delayed this round"
    );
}

#[test]
fn quick_hands_a_member_to_the_computer() {
    let mut f = fight(&[("orc", 1)], 15);
    hold_monsters(&mut f);
    let active = f.active().unwrap().id;
    let start = f.log().len();
    f.apply(Command::Quick {
        unit: active,
        on: true,
    })
    .unwrap();
    // The computer took the turn (and every quick turn after it).
    assert!(matches!(f.log()[start], Event::Quick { on: true, .. }));
    assert!(f.active().is_none_or(|u| u.id != active || !u.quick));
    assert!(f.log().len() > start + 1);
    assert_eq!(
        f.apply(Command::Quick {
            unit: UnitId(4),
            on: true
        })
        .unwrap_err()
        .0,
        "orc is not a member of the party"
    );
}

#[test]
fn fleeing_needs_the_edge() {
    let mut f = fight(&[("orc", 1)], 16);
    hold_monsters(&mut f);
    arrange(&mut f, &[(1, 5, 5)], 1);
    assert_eq!(
        f.execute(&Command::Flee).unwrap_err().0,
        "Ana is not on the edge of the field (at (5, 5))"
    );
    f.units[0].pos = Pos::new(0, 5);
    f.execute(&Command::Flee).unwrap();
    assert_eq!(f.units[0].status, Status::Fled);
    assert!(f.unit_at(Pos::new(0, 5)).is_none());
}

#[test]
fn refused_moves_change_nothing() {
    let mut f = fight(&[("orc", 1)], 17);
    hold_monsters(&mut f);
    arrange(&mut f, &[(1, 5, 5), (2, 6, 5), (4, 0, 0)], 1);
    let before = (f.units.clone(), f.log().len(), f.roller.clone());
    for (c, words) in [
        (Command::Move { x: 6, y: 5 }, "Bo stands at (6, 5)"),
        (Command::Move { x: 5, y: 5 }, "Ana already stands at (5, 5)"),
        (Command::Move { x: 12, y: 0 }, "(12, 0) is off the field"),
        (
            Command::Move { x: 11, y: 11 },
            "Ana cannot reach (11, 11) with 12 moves left",
        ),
        (Command::Attack { target: UnitId(9) }, "there is no unit 9"),
        (
            Command::Attack { target: UnitId(2) },
            "Bo is on Ana's own side",
        ),
    ] {
        assert_eq!(f.execute(&c).unwrap_err().0, words);
    }
    assert_eq!((f.units.clone(), f.log().len(), f.roller.clone()), before);
}

#[test]
fn legal_moves_stay_within_the_points_and_off_other_units() {
    let mut f = fight(&[("orc", 2)], 18);
    arrange(&mut f, &[(1, 5, 5), (2, 6, 5), (4, 5, 4), (5, 9, 9)], 1);
    let legal = f.legal().unwrap();
    assert_eq!(legal.moves_left, 12);
    assert!(legal.moves.iter().all(|s| s.cost <= 12));
    assert!(
        !legal
            .moves
            .iter()
            .any(|s| (s.x, s.y) == (6, 5) || (s.x, s.y) == (5, 4))
    );
    assert!(legal.moves.iter().any(|s| (s.x, s.y) == (5, 11)));
    assert_eq!(legal.attacks, [UnitId(4)]);
    // Stepping away from the orc invites its free attack.
    let away = legal.moves.iter().find(|s| (s.x, s.y) == (5, 7)).unwrap();
    assert_eq!(away.risk, 1);
    assert!(legal.can_guard && !legal.can_flee);
    // Any unit's, on its next turn with full moves: the orc next to Ana can strike her.
    let orc = f.legal_for(UnitId(4)).unwrap();
    assert_eq!(orc.moves_left, 9);
    assert!(orc.attacks.contains(&UnitId(1)));
    assert!(orc.moves.iter().all(|s| s.cost <= 9));
    f.units[4].status = Status::Asleep;
    assert!(f.legal_for(UnitId(5)).is_none(), "a sleeper can do nothing");
}

#[test]
fn the_computer_goes_for_the_weakest_it_can_reach_and_flanks() {
    let mut f = fight(&[("orc", 2)], 19);
    // Bo (weak) and Ana (strong) both within reach of orc 4; orc 5 already next to Bo.
    arrange(
        &mut f,
        &[(1, 2, 6), (2, 6, 6), (3, 0, 11), (4, 4, 5), (5, 6, 5)],
        4,
    );
    f.units[0].hp = 20;
    f.units[1].hp = 5;
    f.units[3].status = Status::Ok;
    f.units[4].status = Status::Ok;
    let plan = ai::plan(&f);
    assert_eq!(plan.last(), Some(&Command::Attack { target: UnitId(2) }));
    // It stands across from orc 5, on Bo's far side.
    assert_eq!(plan[0], Command::Move { x: 6, y: 7 }, "{plan:?}");
}

#[test]
fn a_fight_played_by_the_computer_ends_and_replays_identically() {
    let rules = rules();
    let p = Party::from_json(
        &rules,
        Source {
            file: "data/goldbox_party.json",
            text: builtin_text("goldbox_party").unwrap(),
        },
    )
    .unwrap();
    let enc = encounter(&[("orc", 4), ("goblin slinger", 2), ("hobgoblin", 1)]);
    let mut f = Fight::start(
        rules.clone(),
        Field::open(20, 14).unwrap(),
        p.clone(),
        &enc,
        21,
    )
    .unwrap();
    for id in 1..=6 {
        f.apply(Command::Quick {
            unit: UnitId(id),
            on: true,
        })
        .unwrap();
    }
    let out = f.outcome().expect("the computer finishes the fight");
    assert_ne!(out.ending, Ending::Parted);
    let again = Fight::replay(
        rules,
        Field::open(20, 14).unwrap(),
        p,
        &enc,
        21,
        f.commands(),
    )
    .unwrap();
    assert_eq!(again.log(), f.log());
    assert_eq!(again.units(), f.units());
}

#[test]
fn a_shaken_monster_falls_back_and_a_cornered_one_fights() {
    let mut f = fight(&[("orc", 1)], 22);
    hold_monsters(&mut f);
    arrange(&mut f, &[(1, 5, 8), (2, 6, 9), (3, 4, 9), (4, 5, 6)], 4);
    f.units[3].status = Status::Ok;
    f.units[3].retreating = 2;
    let plan = ai::plan(&f);
    let Some(Command::Move { x, y }) = plan.first() else {
        panic!("{plan:?}");
    };
    // As far from the party as nine half-squares take it, and then on guard.
    assert!(Pos::new(*x, *y).distance(Pos::new(5, 8)) > 2, "{plan:?}");
    assert_eq!(plan.last(), Some(&Command::Guard));
    // Broken but walled in, with no edge to reach: it fights, the weakest first (Bo).
    let rules = rules();
    let p = party(&rules);
    let field = Field::from_rows(&[
        "#######", "#.....#", "#.....#", "#.....#", "#.....#", "#######",
    ])
    .unwrap();
    let mut f = Fight::start(rules, field, p, &encounter(&[("orc", 1)]), 23).unwrap();
    hold_monsters(&mut f);
    arrange(&mut f, &[(1, 3, 3), (2, 1, 4), (3, 5, 4), (4, 3, 2)], 4);
    f.units[3].status = Status::Ok;
    f.units[3].fleeing = true;
    assert_eq!(
        ai::plan(&f).last(),
        Some(&Command::Attack { target: UnitId(2) })
    );
}

#[test]
fn a_saved_fight_resumes_where_it_was() {
    let mut f = fight(&[("orc", 2)], 24);
    for _ in 0..4 {
        if let Some(step) = f.legal().and_then(|l| l.moves.last().copied()) {
            f.apply(Command::Move {
                x: step.x,
                y: step.y,
            })
            .unwrap();
        }
        let _ = f.apply(Command::EndTurn);
    }
    let save = f.save();
    let text = serde_json::to_string(&save).unwrap();
    let back: FightSave = serde_json::from_str(&text).unwrap();
    let again = Fight::resume(rules(), &back).unwrap();
    assert_eq!(again.log(), f.log());
    assert_eq!(again.units(), f.units());
    // A save that does not fit is refused in words.
    let mut bad = save.clone();
    bad.seed = "many".into();
    assert_eq!(
        Fight::resume(rules(), &bad).unwrap_err().0,
        "the save's seed \"many\" is not a whole number 0 or more"
    );
    let mut bad = save.clone();
    bad.commands
        .insert(0, Command::Attack { target: UnitId(40) });
    assert_eq!(
        Fight::resume(rules(), &bad).unwrap_err().0,
        "the save's command 1: there is no unit 40"
    );
    let mut bad = save;
    bad.field = vec!["#x#".into()];
    assert!(
        Fight::resume(rules(), &bad)
            .unwrap_err()
            .0
            .starts_with("the save's field: ")
    );
}

/// A member down in a one-square corridor does not wall off the friends behind: they walk
/// through the square (never stopping on it) to the enemy beyond.
#[test]
fn friends_walk_through_a_fallen_member_but_never_stop_on_one() {
    let rules = rules();
    let p = party(&rules);
    let mut rows = vec!["############"];
    rows.extend(["#####.######"; 7]);
    rows.extend([
        "#..........#",
        "#..........#",
        "#..........#",
        "############",
    ]);
    let field = Field::from_rows(&rows).unwrap();
    let mut f = Fight::start(rules, field, p, &encounter(&[("orc", 1)]), 18).unwrap();
    hold_monsters(&mut f);
    // Ana down in the corridor, Bo behind her, the orc up the corridor.
    arrange(&mut f, &[(1, 5, 5), (2, 5, 6), (3, 2, 9), (4, 5, 1)], 2);
    f.units[0].hp = 0;
    f.units[0].status = Status::Unconscious;
    let legal = f.legal().unwrap();
    let at = |x, y| legal.moves.iter().any(|s| (s.x, s.y) == (x, y));
    assert!(
        at(5, 4) && at(5, 2),
        "past the fallen member: {:?}",
        legal.moves
    );
    assert!(!at(5, 5), "never onto them");
    assert!(!at(5, 1), "never onto an enemy");
    // The walk there goes through her square, and moving says the same.
    f.execute(&Command::Move { x: 5, y: 3 }).unwrap();
    assert_eq!(f.units[1].pos, Pos::new(5, 3));
    assert_eq!(f.units[0].pos, Pos::new(5, 5));
}

/// The shipped items with arrows for bows added.
fn rules_with_arrows() -> Arc<Rules> {
    let items = builtin_text("goldbox_items").unwrap().trim_end();
    let items = format!(
        "{}, {{ \"name\": \"arrows\", \"kind\": \"ammo\", \"sort\": \"bow\", \"count\": 20, \"weight\": 20, \"value\": 2 }}]",
        items.strip_suffix(']').unwrap()
    );
    let mut src = crate::rules::RuleSources::builtin();
    src.items = Source {
        file: "items",
        text: &items,
    };
    Arc::new(Rules::from_json(src).unwrap_or_else(|e| panic!("{e}")))
}

/// Where the tables sell arrows a bow shoots only what its bearer carries: the shot spends
/// one, an empty quiver takes the shots off the legal moves and refuses one in words, and the
/// quiver the fight leaves is the party's. Monsters shoot as before, without counting.
#[test]
fn a_bow_shoots_only_what_is_in_the_quiver() {
    let rules = rules_with_arrows();
    let mut p = party(&rules);
    p.members[0].ammo.insert("bow".into(), 1);
    let mut f = Fight::start(
        rules.clone(),
        Field::open(12, 12).unwrap(),
        p,
        &encounter(&[("orc", 1), ("goblin slinger", 1)]),
        3,
    )
    .unwrap();
    hold_monsters(&mut f);
    assert_eq!(f.units[3].shots, None, "a monster counts no shots");
    assert_eq!(f.units[4].shots, None);
    arrange(&mut f, &[(1, 3, 3), (4, 3, 8), (5, 11, 11)], 1);
    // An orc no single arrow fells.
    f.units[3].hp = 60;
    f.units[3].max_hp = 60;
    assert_eq!(f.units[0].shots, Some(1));
    assert_eq!(f.legal().unwrap().shots, vec![UnitId(4)]);
    f.execute(&Command::Attack { target: UnitId(4) }).unwrap();
    assert_eq!(f.units[0].shots, Some(0));
    give_turn(&mut f, 1);
    assert!(f.legal().unwrap().shots.is_empty());
    let before = f.units.clone();
    let said = f
        .execute(&Command::Attack { target: UnitId(4) })
        .unwrap_err();
    assert_eq!(
        said.0,
        "orc is out of Ana's reach: 5 squares away (reach 1, and nothing left to shoot)"
    );
    assert_eq!(f.units, before);
    for id in [4, 5] {
        let hp = f.units[id - 1].hp;
        f.hurt(UnitId(id as u16), hp.max(1));
    }
    assert!(f.outcome().is_some());
    assert_eq!(f.party().members[0].ammo.get("bow"), Some(&0));
}
