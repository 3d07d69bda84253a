//! Solver throughput on the shipped worlds: attempted actions per second and bytes per
//! retained state.

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jengine_miau::board::Proof;
use jengine_miau::pack::RuleText;
use jengine_miau::solve::{Search, solve};
use jengine_miau::source::load_file;
use jengine_miau::worlds::{self, CheckOptions};

fn mods() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../projects/miau/mods")
}

fn proof(file: &str, level: &str) -> Proof {
    let pack = load_file(&mods().join(file)).expect("pack loads").pack;
    Proof::new(pack.level(level).expect("level")).expect("valid proof")
}

fn bench(c: &mut Criterion) {
    // The largest search the gate runs: proving DOG IS YOU necessary exhausts every state.
    let shared = proof("word-lab.cjs", "shared-control");
    let necessity = Search {
        forbid: vec![RuleText::parse("DOG IS YOU").expect("rule")],
        ..Search::default()
    };
    let report = solve(&shared, &necessity);
    eprintln!(
        "shared-control necessity: {:?} after {} attempts, {} states, {:.1} bytes per state ({} packed)",
        report.outcome,
        report.attempts,
        report.visited,
        report.bytes_per_state,
        shared.packed_len()
    );
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    group.throughput(Throughput::Elements(report.attempts));
    group.bench_function("shared-control necessity (attempts)", |b| {
        b.iter(|| solve(&shared, &necessity))
    });

    let cargo = proof("word-lab.cjs", "rules-are-cargo");
    let free = Search::default();
    let report = solve(&cargo, &free);
    eprintln!(
        "rules-are-cargo: {} attempts, {} states, {:.1} bytes per state",
        report.attempts, report.visited, report.bytes_per_state
    );
    group.throughput(Throughput::Elements(report.attempts));
    group.bench_function("rules-are-cargo solve (attempts)", |b| {
        b.iter(|| solve(&cargo, &free))
    });
    group.finish();

    let mut gate = c.benchmark_group("gate");
    gate.sample_size(10);
    gate.bench_function("check-worlds", |b| {
        b.iter(|| worlds::check_worlds(&mods(), &CheckOptions::default()))
    });
    gate.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
