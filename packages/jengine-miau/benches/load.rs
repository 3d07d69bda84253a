//! Loading and validating the largest pack the contract allows: 64 levels of 4,096 entities.

use criterion::{Criterion, criterion_main};
use jengine_miau::source::{SourceKind, load};
use jengine_miau::validate::validate;

/// A CommonJS pack that builds 64 levels of 64x64 cells, one entity per cell: a few sentences
/// and a field of objects. The source is small; the data it returns is not.
const BIG_PACK: &str = r#"
const { word, object, level } = require('@miau/engine');
const levels = [];
for (let l = 0; l < 64; l++) {
  const objects = [
    word('CAT', 0, 0), word('IS', 1, 0), word('YOU', 2, 0),
    word('FLAG', 0, 1), word('IS', 1, 1), word('WIN', 2, 1),
    word('ROCK', 0, 2), word('IS', 1, 2), word('PUSH', 2, 2),
  ];
  for (let i = objects.length; i < 4096; i++) {
    const x = i % 64, y = Math.floor(i / 64);
    objects.push(object(i % 7 === 0 ? 'FLAG' : (i % 3 === 0 ? 'CAT' : 'ROCK'), x, y));
  }
  levels.push(level(64, 64, objects, { id: 'field-' + l, title: 'Field ' + l }));
}
module.exports = { manifest: { id: 'big-pack', name: 'Big Pack', version: '1.0.0' }, levels };
"#;

fn bench(c: &mut Criterion) {
    let checked = load(BIG_PACK, SourceKind::CommonJs, "big.cjs").expect("valid pack");
    assert_eq!(checked.pack.levels.len(), 64);
    assert!(checked.pack.levels.iter().all(|l| l.objects.len() == 4096));
    let data = checked.pack.to_json();
    let json = data.to_string();
    eprintln!("the pack is {} bytes of JSON", json.len());

    let mut group = c.benchmark_group("load");
    group.sample_size(10);
    group.bench_function("validate 64x4096 (data)", |b| {
        b.iter_with_large_drop(|| validate(&data).expect("valid"))
    });
    group.bench_function("json 64x4096 (parse + validate)", |b| {
        b.iter(|| {
            serde_json::from_str::<serde_json::Value>(&json).map(|v| validate(&v).expect("valid"))
        })
    });
    group.bench_function("cjs 64x4096 (sandbox + validate)", |b| {
        b.iter_with_large_drop(|| load(BIG_PACK, SourceKind::CommonJs, "big.cjs").expect("valid"))
    });
    group.finish();
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
