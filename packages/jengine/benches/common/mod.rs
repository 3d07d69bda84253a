//! What the seam's benches share: a package with a no-op command, a small component and a
//! bag of about fifty fields.

use jengine::value::entity;
use jengine::{Package, Registry};
use serde::{Deserialize, Serialize};

/// The benches' package: `Bench.noop(e)`, the `tile` component and the `big` bag.
pub struct BenchPackage;

/// A component of a few fields, for scene loads.
#[derive(Serialize, Deserialize, Default)]
pub struct Tile {
    kana: String,
    x: i32,
    y: i32,
}

/// A bag of about fifty fields: twenty named scalars and a row of thirty numbers.
#[derive(Serialize, Deserialize, Default, Clone)]
pub struct Big {
    pub a0: f64,
    pub a1: f64,
    pub a2: f64,
    pub a3: f64,
    pub a4: f64,
    pub a5: f64,
    pub a6: f64,
    pub a7: f64,
    pub a8: f64,
    pub a9: f64,
    pub b0: i64,
    pub b1: i64,
    pub b2: i64,
    pub b3: i64,
    pub b4: i64,
    pub b5: i64,
    pub b6: i64,
    pub b7: i64,
    pub name: String,
    pub over: bool,
    pub row: Vec<i32>,
}

impl Big {
    /// The bag as the benches fill it: a name and thirty numbers in the row.
    pub fn filled() -> Big {
        Big {
            name: "rival".into(),
            row: (0..30).collect(),
            ..Big::default()
        }
    }
}

impl Package for BenchPackage {
    fn name(&self) -> &'static str {
        "bench"
    }
    fn register(&self, reg: &mut Registry) {
        reg.component::<Tile>("tile");
        reg.command("Bench", "noop", (entity("e"),), |_, _| Ok(()));
        reg.bag::<Big>("big");
    }
}
