//! Solver throughput on the worlds Miau ships (the package's core pack and the packs in
//! `mods/`): attempted actions per second and bytes per retained state, over every search the
//! worlds gate runs, and the whole gate.

use criterion::{Criterion, Throughput, criterion_main};
use jengine_miau::board::Proof;
use jengine_miau::pack::{Level, Placement, RuleText};
use jengine_miau::solve::{Constraint, Search, solve};
use jengine_miau::source::load_file;
use jengine_miau::worlds::{self, CheckOptions};
use miau_tests::mods;

/// Every shipped proof with every search the gate would run on it.
fn searches() -> Vec<(Proof, Search)> {
    let mut levels: Vec<Level> = worlds::core().expect("core").pack.levels;
    for file in worlds::pack_files(&mods()).expect("mods folder") {
        if file.file_name().and_then(|n| n.to_str()) != Some(worlds::CORE_FILE) {
            levels.extend(load_file(&file).expect("pack loads").pack.levels);
        }
    }
    let mut out = Vec::new();
    for level in &levels {
        let proof = Proof::new(level).expect("valid proof");
        let mut kinds = vec![Search::default()];
        for c in [Constraint::Bypass, Constraint::HandsOff] {
            kinds.push(Search {
                constraint: c,
                ..Search::default()
            });
        }
        for rule in &level.must_form {
            kinds.push(Search {
                forbid: vec![rule.clone()],
                ..Search::default()
            });
        }
        out.extend(kinds.into_iter().map(|s| (proof.clone(), s)));
    }
    out
}

fn bench(c: &mut Criterion) {
    let all = searches();
    let (mut attempts, mut states, mut largest) = (0u64, 0usize, (0usize, 0.0f64, String::new()));
    for (proof, search) in &all {
        let r = solve(proof, search);
        attempts += r.attempts;
        states += r.visited;
        if r.visited > largest.0 {
            largest = (r.visited, r.bytes_per_state, proof.id.clone());
        }
    }
    eprintln!(
        "{} searches: {attempts} attempts, {states} states; largest: {} ({} states, {:.1} bytes per state)",
        all.len(),
        largest.2,
        largest.0,
        largest.1
    );
    // Memory at scale: an open field with loose words runs into the default cap.
    let field = Level::new(
        "open-field",
        12,
        10,
        vec![
            Placement::word("CAT", 0, 0),
            Placement::word("IS", 1, 0),
            Placement::word("YOU", 2, 0),
            Placement::word("ROCK", 0, 9),
            Placement::word("IS", 1, 9),
            Placement::word("PUSH", 2, 9),
            Placement::word("WIN", 6, 5),
            Placement::word("FLAG", 8, 8),
            Placement::word("IS", 9, 8),
            Placement::object("CAT", 5, 5),
            Placement::object("ROCK", 3, 3),
            Placement::object("ROCK", 7, 2),
            Placement::object("FLAG", 11, 0),
        ],
    );
    let field = Proof::new(&field).expect("valid proof");
    let search = Search {
        forbid: vec![RuleText::parse("FLAG IS WIN").expect("rule")],
        ..Search::default()
    };
    let started = std::time::Instant::now();
    let r = solve(&field, &search);
    eprintln!(
        "open field: {:?} after {} attempts in {:.2?}, {} states, {:.1} bytes per state ({} packed)",
        r.outcome,
        r.attempts,
        started.elapsed(),
        r.visited,
        r.bytes_per_state,
        field.packed_len()
    );

    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    group.throughput(Throughput::Elements(attempts));
    group.bench_function("every gate search on the shipped worlds (attempts)", |b| {
        b.iter(|| all.iter().map(|(p, s)| solve(p, s).attempts).sum::<u64>())
    });
    group.finish();

    let mut gate = c.benchmark_group("gate");
    gate.sample_size(10);
    gate.bench_function("check-worlds (load + every search)", |b| {
        b.iter(|| worlds::check_worlds(&mods(), &CheckOptions::default()))
    });
    gate.finish();
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
