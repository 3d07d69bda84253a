//! Properties of every fight, whatever the field, the seed and the commands: no unit stands in
//! rock or on another, no walk is longer than the walker's movement, and a fight replays from
//! its seed and commands event for event. And no reader of outside text panics.

use std::sync::Arc;

use jengine_goldbox::fight::setup::{START_GAP, places};
use jengine_goldbox::fight::{Command, Encounter, Event, Field, Fight, Group, Pos, Terrain};
use jengine_goldbox::rules::{Dice, Party, RuleSources, Rules, Source, builtin_text};
use proptest::prelude::*;

fn rules() -> Arc<Rules> {
    Arc::new(Rules::builtin())
}

fn party(rules: &Rules) -> Party {
    Party::from_json(
        rules,
        Source {
            file: "data/goldbox_party.json",
            text: builtin_text("goldbox_party").unwrap(),
        },
    )
    .unwrap()
}

const KINDS: [&str; 8] = [
    "kobold",
    "goblin",
    "goblin slinger",
    "goblin hexer",
    "orc",
    "gnoll",
    "skeleton",
    "ogre",
];

fn field_from(walls: &[bool], w: usize) -> Field {
    let cells = walls
        .iter()
        .map(|&wall| if wall { Terrain::Wall } else { Terrain::Floor })
        .collect::<Vec<_>>();
    Field::new(w, walls.len() / w, cells).unwrap()
}

/// The player's pick among what the active unit may do, by number.
fn pick(f: &Fight, n: u16) -> Command {
    let Some(legal) = f.legal() else {
        return Command::EndTurn;
    };
    let mut options: Vec<Command> = vec![Command::EndTurn, Command::Guard, Command::Delay];
    options.extend(legal.moves.iter().map(|s| Command::Move { x: s.x, y: s.y }));
    options.extend(legal.attacks.iter().map(|t| Command::Attack { target: *t }));
    options.extend(legal.shots.iter().map(|t| Command::Attack { target: *t }));
    for spell in &legal.spells {
        for u in f.units().iter().filter(|u| u.status.occupies()) {
            options.push(Command::Cast {
                spell: spell.clone(),
                x: u.pos.x,
                y: u.pos.y,
            });
        }
    }
    if legal.can_flee {
        options.push(Command::Flee);
    }
    if let Some(b) = legal.bandage.first() {
        options.push(Command::Bandage { target: *b });
    }
    if n.is_multiple_of(17) {
        options.push(Command::Quick {
            unit: legal.unit,
            on: true,
        });
    }
    options[n as usize % options.len()].clone()
}

fn check_places(f: &Fight) -> Result<(), TestCaseError> {
    let mut seen: Vec<Pos> = Vec::new();
    for u in f.units().iter().filter(|u| u.status.occupies()) {
        prop_assert!(
            f.field().passable(u.pos),
            "{} stands in rock at {}",
            u.name,
            u.pos
        );
        prop_assert!(!seen.contains(&u.pos), "two units on {}", u.pos);
        seen.push(u.pos);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever the field and the anchors: everyone stands on open ground, nobody on another,
    /// and when the field has at least as many open squares on the monsters' side and
    /// `START_GAP` from every member as there are monsters, every monster starts that far off.
    #[test]
    fn monsters_start_off_the_party_when_the_field_allows(
        walls in proptest::collection::vec(proptest::bool::weighted(0.35), 15 * 12),
        members in 1usize..7,
        monsters in 1usize..13,
        party_at in (0i32..15, 0i32..12),
        monsters_at in (0i32..15, 0i32..12),
    ) {
        let field = field_from(&walls, 15);
        let party_at = Pos::new(party_at.0, party_at.1);
        let monsters_at = Pos::new(monsters_at.0, monsters_at.1);
        let Ok((party, band)) = places(&field, members, monsters, party_at, monsters_at) else {
            let open = (0..12).flat_map(|y| (0..15).map(move |x| Pos::new(x, y)))
                .filter(|p| field.passable(*p)).count();
            prop_assert!(open < members + monsters, "refused with {open} open squares");
            return Ok(());
        };
        prop_assert_eq!((party.len(), band.len()), (members, monsters));
        let mut seen = Vec::new();
        for p in party.iter().chain(&band) {
            prop_assert!(field.passable(*p), "{p} is rock");
            prop_assert!(!seen.contains(p), "two on {p}");
            seen.push(*p);
        }
        let gap = |p: Pos| party.iter().map(|m| m.distance(p)).min().unwrap();
        let room = |least: i32| (0..12).flat_map(|y| (0..15).map(move |x| Pos::new(x, y)))
            .filter(|&p| field.passable(p) && p.distance(monsters_at) <= p.distance(party_at))
            .filter(|&p| gap(p) >= least)
            .count();
        if room(START_GAP) >= monsters {
            prop_assert!(band.iter().all(|&m| gap(m) >= START_GAP), "{band:?} near {party:?}");
        }
    }

    #[test]
    fn fights_keep_units_apart_walks_short_and_replay_exactly(
        walls in proptest::collection::vec(proptest::bool::weighted(0.12), 20 * 16),
        seed in any::<u64>(),
        kinds in proptest::collection::vec((0..KINDS.len(), 1u8..4), 1..4),
        picks in proptest::collection::vec(any::<u16>(), 0..60),
    ) {
        let rules = rules();
        let field = field_from(&walls, 20);
        let encounter = Encounter {
            name: "prop".into(),
            monsters: kinds.iter().map(|(k, n)| Group { kind: KINDS[*k].into(), count: *n }).collect(),
            field: None,
            party_at: None,
            monsters_at: None,
        };
        let p = party(&rules);
        let Ok(mut f) = Fight::start(rules.clone(), field.clone(), p.clone(), &encounter, seed) else {
            // A field too full of rock for everyone is refused, not a failure.
            return Ok(());
        };
        check_places(&f)?;
        for n in &picks {
            if f.outcome().is_some() {
                break;
            }
            let command = pick(&f, *n);
            let before = (f.units().to_vec(), f.log().len());
            match f.apply(command) {
                Ok(_) => check_places(&f)?,
                Err(_) => prop_assert_eq!((f.units().to_vec(), f.log().len()), before),
            }
        }
        // Every walk, the computer's too, was within the walker's movement for a turn.
        for e in f.log() {
            if let Event::Moved { unit, from, to } = e {
                let u = f.unit(*unit).unwrap();
                let cost = f.field().walk_costs(*from, u16::MAX - 8, |_| false).cost(*to);
                prop_assert!(cost.is_some_and(|c| c <= u.rate as u16),
                    "{} walked {from} to {to} ({cost:?}) on a rate of {}", u.name, u.rate);
            }
        }
        let again = Fight::replay(rules, field, p, &encounter, seed, f.commands()).unwrap();
        prop_assert_eq!(again.log(), f.log());
        prop_assert_eq!(again.units(), f.units());
    }

    #[test]
    fn field_rows_never_panic(rows in proptest::collection::vec("[#./+ x]{0,8}", 0..6)) {
        if let Ok(field) = Field::from_rows(&rows) {
            prop_assert_eq!(field.height() as usize, rows.len());
        }
    }

    #[test]
    fn dice_never_panic_and_read_back(text in "[0-9dD+-]{0,8}") {
        if let Ok(d) = Dice::parse(&text) {
            prop_assert_eq!(Dice::parse(&d.to_string()), Ok(d));
            prop_assert!(d.min() <= d.max());
        }
    }

    #[test]
    fn tables_of_any_text_are_refused_in_words_not_panics(text in ".{0,80}") {
        let mut src = RuleSources::builtin();
        src.items = Source { file: "data/goldbox_items.json", text: &text };
        if let Err(e) = Rules::from_json(src) {
            prop_assert!(e.to_string().starts_with("data/goldbox_items.json"));
        }
    }
}
