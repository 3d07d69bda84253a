//! A tactical turn on a 20x20 field, six members against twelve monsters: the active
//! member's legal moves and targets, and the choice the monster AI makes for a monster. And
//! the same fight redrawn into a world: its entities updated in place, against despawning and
//! spawning them all again as the drawing once did.

use std::sync::Arc;

use criterion::{Criterion, criterion_main};
use jengine::World;
use jengine_goldbox::draw::{self, Pointing, View};
use jengine_goldbox::fight::{Encounter, Field, Fight, Group, Side, Status};
use jengine_goldbox::rules::{Party, Rules, Source, builtin_text};

fn fight() -> Fight {
    let rules = Arc::new(Rules::builtin());
    let party = Party::from_json(
        &rules,
        Source {
            file: "data/goldbox_party.json",
            text: builtin_text("goldbox_party").unwrap_or("[]"),
        },
    )
    .expect("the shipped party");
    let group = |kind: &str, count| Group {
        kind: kind.into(),
        count,
    };
    let encounter = Encounter {
        name: "bench".into(),
        monsters: vec![group("orc", 6), group("goblin", 4), group("gnoll", 2)],
        field: None,
        party_at: Some([10, 12]),
        monsters_at: Some([10, 7]),
    };
    let field = Field::from_rows(&[
        "....................",
        "....................",
        "....##........##....",
        "....##........##....",
        "....................",
        "........#..#........",
        "....................",
        "....................",
        "....................",
        "........#..#........",
        "....................",
        "....................",
        "....................",
        "....##........##....",
        "....##........##....",
        "....................",
        "....................",
        "....................",
        "....................",
        "....................",
    ])
    .expect("the bench field");
    Fight::start(rules, field, party, &encounter, 7).expect("the bench fight")
}

fn turn(c: &mut Criterion) {
    let f = fight();
    let monster = f
        .units()
        .iter()
        .find(|u| u.side == Side::Monsters && u.status == Status::Ok)
        .map(|u| u.id)
        .expect("a monster standing");
    let standing = f.units().iter().filter(|u| u.status.occupies()).count();
    assert_eq!(standing, 18, "six against twelve");
    c.bench_function("tactical turn, 6 vs 12 on 20x20", |b| {
        b.iter(|| {
            let legal = f.legal().expect("a member to act");
            let choice = f.computer_choice(monster);
            std::hint::black_box((legal, choice))
        })
    });
}

fn redraw(c: &mut Criterion) {
    let f = fight();
    let view = View::default();
    let pieces = draw::pieces(&f, &view, &Pointing::default(), &[]);
    let mut world = World::new();
    let owner = world.spawn(((),));
    let mut pool = Vec::new();
    draw::write(&mut world, owner, &mut pool, &view, &pieces);
    c.bench_function("redraw in place, 6 vs 12 on 20x20", |b| {
        b.iter(|| draw::write(&mut world, owner, &mut pool, &view, &pieces))
    });
    c.bench_function("redraw spawning anew, 6 vs 12 on 20x20", |b| {
        b.iter(|| {
            draw::clear(&mut world, &mut pool);
            draw::write(&mut world, owner, &mut pool, &view, &pieces)
        })
    });
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    turn(&mut c);
    redraw(&mut c);
}

criterion_main!(benches);
