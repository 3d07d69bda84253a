//! Benchmarks for the hot paths: filled in as the modules land.
use criterion::{Criterion, criterion_group, criterion_main};

fn dictionary(c: &mut Criterion) {
    c.bench_function("dict_load", |b| {
        b.iter(|| jengine_kotoba::Dict::parse(jengine_kotoba::dict::JAPANESE))
    });
}

criterion_group!(benches, dictionary);
criterion_main!(benches);
