//! Saltmarch's fights played many times over by two kinds of player, to hold the campaign's
//! difficulty to a curve.
//!
//! The fights are the ones the committed playthrough meets, each taken as it began there: the
//! battlefield cut from the level, the encounter, and the party as a careful player brings it
//! (trained, healed, spells memorised, draughts drunk). Each is then fought again from many
//! fixed seeds by:
//!
//! * **the human**: sees only the monsters some standing member has a line of sight to, reads
//!   what the fight screen shows (hit points, who stands), and plays by a person's rules of
//!   thumb: bandage the bleeding, mend the badly hurt, put spells where they catch enemies and
//!   no friend, strike the weakest enemy in reach, close in without walking away from a blow.
//!   A seeded stream makes it slip now and then (a random target, a spell kept back, a blow
//!   walked into); it never looks ahead at rolls;
//! * **the computer**: every member handed to the fight's own play (the game's Q).
//!
//! A third run is the careless party: the new party without a spell, fighting every fight in
//! turn on whatever hit points the last one left it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use jengine_goldbox::fight::{
    Command, Ending, Field, Fight, FightSave, Pos, Side, Status, Unit, UnitId,
};
use jengine_goldbox::rules::{Effect, Party, RuleSources, Rules, Source};
use jengine_testkit::{InputScript, Options};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use saltmarch_tests::{open, project};

/// Seeds each fight is fought from, by each player.
const SEEDS: u64 = 100;
/// How often the human slips.
const SLIP: f64 = 0.15;

/// The project's rule tables, as the game loads them.
fn rules() -> Rules {
    let read = |name: &str| {
        let path = project().join("data").join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let texts = [
        read("goldbox_classes.json"),
        read("goldbox_races.json"),
        read("goldbox_items.json"),
        read("goldbox_spells.json"),
        read("goldbox_monsters.json"),
    ];
    let s = |i: usize, file: &'static str| Source {
        file,
        text: &texts[i],
    };
    Rules::from_json(RuleSources {
        classes: s(0, "data/goldbox_classes.json"),
        races: s(1, "data/goldbox_races.json"),
        items: s(2, "data/goldbox_items.json"),
        spells: s(3, "data/goldbox_spells.json"),
        monsters: s(4, "data/goldbox_monsters.json"),
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Every fight the committed playthrough meets, as it began, in the order met.
fn fights_met() -> Vec<FightSave> {
    let path = project().join("tests/inputs/saltmarch_playthrough.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut input = InputScript::parse(&text).unwrap();
    let mut game = open(Options::default());
    let last = input.last_frame().unwrap_or(0) + 2000;
    let mut seen = BTreeSet::new();
    let mut met = Vec::new();
    for _ in 0..last {
        let events = input.due(game.rt.frame());
        game.step(&events);
        let bag = game.bag("fight", "GoldBox");
        if bag["fighting"] != true {
            continue;
        }
        let Some(save) = bag["save"].as_str() else {
            continue;
        };
        let save: FightSave = serde_json::from_str(save).unwrap();
        if seen.insert((save.encounter.name.clone(), save.seed.clone())) {
            met.push(save);
        }
    }
    assert_eq!(game.text("m_head"), "The Bog King is Fallen");
    met
}

/// A player who plays like a person: see the module's words.
struct Human {
    rng: Pcg64,
    /// Where each monster was last seen (a person remembers what went round a corner).
    memory: BTreeMap<u16, Pos>,
}

impl Human {
    fn slips(&mut self) -> bool {
        self.rng.random::<f64>() < SLIP
    }

    /// The weakest of `targets` by the hit points shown, or (slipping) any of them.
    fn pick(&mut self, f: &Fight, targets: &[UnitId]) -> Option<UnitId> {
        if targets.is_empty() {
            return None;
        }
        if self.slips() {
            return Some(targets[self.rng.random_range(0..targets.len())]);
        }
        targets
            .iter()
            .copied()
            .min_by_key(|&t| f.unit(t).map_or(i32::MAX, |u| u.hp))
    }

    /// What the active member does next.
    fn choose(&mut self, f: &Fight) -> Command {
        let Some(legal) = f.legal() else {
            return Command::EndTurn;
        };
        let Some(me) = f.unit(legal.unit) else {
            return Command::EndTurn;
        };
        let party: Vec<&Unit> = f.units().iter().filter(|u| u.side == Side::Party).collect();
        let seen: Vec<&Unit> = f
            .units()
            .iter()
            .filter(|m| m.side == Side::Monsters && m.status.standing())
            .filter(|m| {
                party
                    .iter()
                    .any(|p| p.status.standing() && f.field().line_of_sight(p.pos, m.pos))
            })
            .collect();
        if let Some(&target) = legal.bandage.first()
            && !self.slips()
        {
            return Command::Bandage { target };
        }
        if !self.slips()
            && let Some(cast) = spell(f, &legal.spells, &party, &seen)
        {
            return cast;
        }
        if let Some(target) = self.pick(f, &legal.attacks) {
            return Command::Attack { target };
        }
        if let Some(target) = self.pick(f, &legal.shots) {
            return Command::Attack { target };
        }
        for m in &seen {
            self.memory.insert(m.id.0, m.pos);
        }
        let field = f.field();
        let in_sight = |p: Pos| {
            party
                .iter()
                .any(|m| m.status.standing() && field.line_of_sight(m.pos, p))
        };
        // The list beside the field shows who still stands, not where; a remembered square
        // now in sight with nobody there is forgotten.
        let seen_ids: Vec<u16> = seen.iter().map(|m| m.id.0).collect();
        self.memory.retain(|id, p| {
            f.unit(UnitId(*id)).is_some_and(|u| u.status.standing())
                && (seen_ids.contains(id) || !in_sight(*p))
        });
        if !me.moved {
            let goals: Vec<Pos> = if self.memory.is_empty() {
                // Nobody known: go and look where nobody sees.
                (0..field.height())
                    .flat_map(|y| (0..field.width()).map(move |x| Pos::new(x, y)))
                    .filter(|&p| field.passable(p) && !in_sight(p))
                    .collect()
            } else {
                self.memory.values().copied().collect()
            };
            let dist = field.distances_to(goals);
            let at = |x: i32, y: i32| dist[(y * field.width() + x) as usize];
            let careless = self.slips();
            let best = legal.moves.iter().min_by_key(|s| {
                let risk = if careless { 0 } else { s.risk };
                (risk, at(s.x, s.y), s.cost)
            });
            if let Some(s) = best
                && at(s.x, s.y) < at(me.pos.x, me.pos.y)
            {
                return Command::Move { x: s.x, y: s.y };
            }
        }
        if legal.can_guard {
            Command::Guard
        } else {
            Command::EndTurn
        }
    }
}

/// A spell worth casting now, by a person's reckoning of the field: a mending for the worst
/// hurt friend at half hit points or less, a release for a friend asleep or held, and a harmful
/// spell where it catches seen enemies and no friend (a sleep only on two or more when more
/// than two are seen).
fn spell(f: &Fight, spells: &[String], party: &[&Unit], seen: &[&Unit]) -> Option<Command> {
    let rules = f.rules();
    let cast = |name: &String, p: Pos| Command::Cast {
        spell: name.clone(),
        x: p.x,
        y: p.y,
    };
    for name in spells {
        let Some(sp) = rules.spell(name) else {
            continue;
        };
        match sp.effect {
            Effect::Heal => {
                let mut hurt: Vec<&&Unit> = party
                    .iter()
                    .filter(|p| {
                        matches!(p.status, Status::Ok | Status::Unconscious | Status::Dying)
                            && p.hp * 2 <= p.max_hp
                    })
                    .collect();
                hurt.sort_by_key(|p| p.hp);
                if let Some(p) = hurt
                    .into_iter()
                    .find(|p| f.spell_area(name, p.pos.x, p.pos.y).is_ok())
                {
                    return Some(cast(name, p.pos));
                }
            }
            Effect::Release => {
                if let Some(p) = party.iter().find(|p| {
                    matches!(p.status, Status::Asleep | Status::Held)
                        && f.spell_area(name, p.pos.x, p.pos.y).is_ok()
                }) {
                    return Some(cast(name, p.pos));
                }
            }
            Effect::Damage | Effect::Sleep | Effect::Hold => {
                let want = if sp.effect == Effect::Sleep && seen.len() > 2 {
                    2
                } else {
                    1
                };
                let mut best: Option<(usize, i32, Pos)> = None;
                for m in seen {
                    let Ok(area) = f.spell_area(name, m.pos.x, m.pos.y) else {
                        continue;
                    };
                    if party
                        .iter()
                        .any(|p| p.status.occupies() && area.contains(&p.pos))
                    {
                        continue;
                    }
                    let foes = seen.iter().filter(|e| area.contains(&e.pos)).count();
                    let better = best.is_none_or(|(n, hp, _)| foes > n || (foes == n && m.hp < hp));
                    if foes >= want && better {
                        best = Some((foes, m.hp, m.pos));
                    }
                }
                if let Some((_, _, p)) = best {
                    return Some(cast(name, p));
                }
            }
        }
    }
    None
}

/// Plays `f` to its end: by `human`, or with every member handed to the computer.
fn play(f: &mut Fight, human: Option<&mut Human>) {
    match human {
        None => {
            let members: Vec<UnitId> = f
                .units()
                .iter()
                .filter(|u| u.side == Side::Party)
                .map(|u| u.id)
                .collect();
            for unit in members {
                if f.outcome().is_some() {
                    break;
                }
                let _ = f.apply(Command::Quick { unit, on: true });
            }
        }
        Some(h) => {
            for _ in 0..5000 {
                if f.outcome().is_some() {
                    break;
                }
                let c = h.choose(f);
                if f.apply(c).is_err() && f.apply(Command::EndTurn).is_err() {
                    break;
                }
            }
        }
    }
    assert!(f.outcome().is_some(), "a fight did not end");
}

/// The party after `f`: hit points as the fight left them, spells cast spent.
fn after(f: &Fight, mut party: Party) -> Party {
    for u in f.units().iter().filter(|u| u.side == Side::Party) {
        let Some(slot) = u.member else { continue };
        let c = &mut party.members[slot];
        c.hp = u.hp;
        for s in &mut c.memorised {
            s.used = s.used || !u.holds(&s.spell);
        }
    }
    party
}

/// How one fight went over its seeds.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    fights: u32,
    won: u32,
    /// Neither side could finish it (a fallen member blocking a one-square corridor).
    parted: u32,
    lost: u32,
    dead: u32,
    down: u32,
    rounds: u32,
    /// Hit points lost, per mille of the party's whole.
    hurt: u32,
}

impl Tally {
    fn win_rate(&self) -> f64 {
        f64::from(self.won) / f64::from(self.fights.max(1))
    }

    fn per(&self, n: u32) -> f64 {
        f64::from(n) / f64::from(self.fights.max(1))
    }

    fn add(&mut self, f: &Fight, start: &Party) {
        self.fights += 1;
        match f.outcome().map(|o| o.ending) {
            Some(Ending::Won) => self.won += 1,
            Some(Ending::Parted) => self.parted += 1,
            _ => self.lost += 1,
        }
        self.rounds += f.round();
        let members: Vec<&Unit> = f.units().iter().filter(|u| u.side == Side::Party).collect();
        self.dead += members.iter().filter(|u| u.status == Status::Dead).count() as u32;
        self.down += members
            .iter()
            .filter(|u| !u.status.standing() && u.status != Status::Fled)
            .count() as u32;
        let whole: i32 = start.members.iter().map(|c| c.max_hp).sum();
        let lost: i32 = members
            .iter()
            .filter_map(|u| u.member.map(|s| (start.members[s].hp - u.hp.max(0)).max(0)))
            .sum();
        self.hurt += (lost * 1000 / whole.max(1)) as u32;
    }
}

fn fight_once(
    rules: &Arc<Rules>,
    save: &FightSave,
    party: &Party,
    seed: u64,
    human: bool,
) -> Fight {
    let field = Field::from_rows(&save.field).unwrap();
    let mut f = Fight::start(rules.clone(), field, party.clone(), &save.encounter, seed).unwrap();
    let mut h = Human {
        rng: Pcg64::seed_from_u64(seed ^ 0x5a17),
        memory: BTreeMap::new(),
    };
    play(&mut f, human.then_some(&mut h));
    f
}

/// The curve: the warren is won almost always with some wounds, the middle fights cost, the
/// Bog King falls to a careful party most of the time with few deaths, and a careless party
/// is lost on the way.
#[test]
fn the_fights_keep_to_the_difficulty_curve() {
    let rules = Arc::new(rules());
    let met = fights_met();
    let names: Vec<&str> = met.iter().map(|s| s.encounter.name.as_str()).collect();
    assert!(names.contains(&"bog king"), "fights met: {names:?}");
    println!("| fight | player | won | parted | lost | dead | down | hp lost | rounds |");
    println!("| ----- | ------ | --- | ------ | ---- | ---- | ---- | ------- | ------ |");
    let mut by_player = Vec::new();
    for save in &met {
        for human in [true, false] {
            let mut t = Tally::default();
            for seed in 0..SEEDS {
                let f = fight_once(&rules, save, &save.party, seed, human);
                t.add(&f, &save.party);
            }
            println!(
                "| {} | {} | {:.0}% | {:.0}% | {:.0}% | {:.2} | {:.2} | {:.0}% | {:.1} |",
                save.encounter.name,
                if human { "human" } else { "computer" },
                t.win_rate() * 100.0,
                t.per(t.parted) * 100.0,
                t.per(t.lost) * 100.0,
                t.per(t.dead),
                t.per(t.down),
                t.per(t.hurt) / 10.0,
                t.per(t.rounds)
            );
            by_player.push((save.encounter.name.clone(), human, t));
        }
    }
    // The careless party: the new one without its spells, every fight in turn, no rest.
    let mut careless_won = 0;
    let mut fights_won = 0;
    for seed in 0..SEEDS {
        let mut party = met[0].party.clone();
        for c in &mut party.members {
            c.memorised.clear();
        }
        let mut all = true;
        for (i, save) in met.iter().enumerate() {
            if party.members.iter().all(|c| c.hp <= 0) {
                all = false;
                break;
            }
            let f = fight_once(&rules, save, &party, seed * 31 + i as u64, true);
            party = after(&f, party);
            if f.outcome().map(|o| o.ending) != Some(Ending::Won) {
                all = false;
                break;
            }
            fights_won += 1;
        }
        if all {
            careless_won += 1;
        }
    }
    println!(
        "careless: campaign won {careless_won} of {SEEDS}, {:.1} of {} fights won on average",
        f64::from(fights_won) / SEEDS as f64,
        met.len()
    );
    // The bounds the tables hold today (see the README's balance section for the figures
    // and for what is still short of the curve the campaign aims at).
    for (name, human, t) in &by_player {
        let who = if *human { "the human" } else { "the computer" };
        assert!(
            t.per(t.lost) <= 0.30,
            "{name}: {who} lost {:.2} of its fights",
            t.per(t.lost)
        );
        if *human {
            assert!(t.hurt > 0, "{name}: nobody was hurt");
            assert!(
                t.win_rate() >= 0.25,
                "{name}: the human won {:.2}",
                t.win_rate()
            );
            assert!(
                t.per(t.dead) <= 1.0,
                "{name}: the human lost {:.2} members on average",
                t.per(t.dead)
            );
        }
        // The curve: the warren's first fights are won almost always, and the Bog King by a
        // careful human party most of the time, but not always.
        if *human && (name == "kobold pack" || name == "slingers") {
            assert!(
                t.win_rate() >= 0.90,
                "{name}: the human won {:.2}",
                t.win_rate()
            );
        }
        if name == "bog king" {
            let (lo, hi) = if *human { (0.60, 0.92) } else { (0.70, 1.0) };
            assert!(
                (lo..=hi).contains(&t.win_rate()),
                "the Bog King: {who} won {:.2}",
                t.win_rate()
            );
        }
    }
    assert!(
        careless_won * 10 <= SEEDS as u32,
        "the careless party won the whole campaign {careless_won} times in {SEEDS}"
    );
}
