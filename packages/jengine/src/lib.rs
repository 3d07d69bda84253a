//! The seam between jengine packages and the host.
//!
//! A package is a crate with one [`Package`] entry point whose `register` lists everything it
//! adds: scene components bound to keys, Lua commands in a namespace, per-frame systems, the
//! bags scripts read and the data tables it validates. Its rules live in plain modules that
//! never import this crate; only registration and drawing touch it.
//!
//! The crate root is what a package author uses: [`Package`] and [`Registry`]; the [`World`]
//! with its [`Entity`]s, resources, [`Time`] and [`Log`]; the core components
//! ([`Transform2D`], [`Sprite`], [`Text`], [`Mesh2D`], ...); the typed command parameters in
//! [`value`]; and [`Row`] with [`Tables`] for data tables. Everything the host alone needs
//! (the Lua bridge, the file formats, the dependency rule) is in [`host`].
//!
//! ```
//! use jengine::{Package, Registry, World, value::{entity, integer}};
//!
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Counter { count: i64 }
//!
//! struct CounterPackage;
//! impl Package for CounterPackage {
//!     fn name(&self) -> &'static str { "jengine-counter" }
//!     fn register(&self, reg: &mut Registry) {
//!         reg.component::<Counter>("counter");
//!         reg.command("Counter", "add", (entity("e"), integer("n")), |world, (e, n)| {
//!             let mut c = world.entities.get::<&mut Counter>(e).map_err(|_| "no counter")?;
//!             c.count += n;
//!             Ok(())
//!         });
//!         reg.bag::<Counter>("counter");
//!     }
//! }
//!
//! let reg = Registry::with(&[&CounterPackage]);
//! assert_eq!(reg.find_command("counter_add").unwrap().signature(), "Counter.add(e, n)");
//! ```

#![warn(missing_docs)]

// On wasm32 Lua itself comes from jengine-web-lua (mlua-sys's `external`): linking it is all
// this line does.
#[cfg(target_arch = "wasm32")]
use jengine_web_lua as _;

mod asset;
mod assets;
mod audio;
mod clock;
mod components;
mod convert;
mod core;
mod defaults;
mod doing;
pub mod glyphs;
mod meta;
mod project;
mod registry;
mod save;
mod scene;
mod script;
#[cfg(feature = "selftest")]
pub mod selftest;
#[cfg(all(test, not(feature = "selftest")))]
mod selftest;
mod storage;
mod table;
pub mod value;
mod world;

pub use crate::asset::{AssetNameError, check_asset_name};
pub use crate::components::{
    Align, BulkEntity, Camera2D, Color, CustomData, Mesh2D, Name, Overflow, Script, SpawnedFor,
    Sprite, SpriteLibrary, Text, TextLayout, Transform2D, Vertex,
};
pub use crate::defaults::{AssetField, AssetSource};
pub use crate::registry::{Package, Registry};
pub use crate::scene::AssetKind;
pub use crate::storage::PlayerData;
pub use crate::table::{RawTable, Row, RowError, Tables};
pub use crate::value::{Args, Value};
pub use crate::world::{
    Entity, Launch, Log, LogLevel, LogLine, MAX_TEXT_INPUT, MusicClock, Pointer, PointerEvent,
    PointerPhase, ProjectFiles, Resources, TextInput, Time, World,
};
pub use hecs;

/// What the host needs and a package does not: the Lua bridge, the file formats, the
/// [`Assets`](host::Assets) every loader reads through, the registry's records and the
/// dependency-coverage rule.
pub mod host {
    pub use crate::asset::{AssetNameError, check_asset_name};
    pub use crate::assets::{
        AssetEntry, AssetError, AssetProblem, Assets, DiskAssets, MemoryAssets, within,
    };
    pub use crate::audio::{AudioQueue, AudioRequest, MusicOptions, SoundOptions, VolumeKind};
    pub use crate::clock::{Clock, current as clock, set_clock};
    pub use crate::convert::{describe_lua_error, parse_json, to_lua};
    pub use crate::core::{ClipboardCopy, QuitRequest, SceneRequest};
    pub use crate::defaults::{DefaultAssets, kind_folder, with_defaults};
    pub use crate::doing::{clear as clear_doing, doing, system as doing_system};
    pub use crate::meta::{PackageMeta, coverage_problems, listed_packages, workspace_root};
    pub use crate::project::{FileError, PackageRef, Project, ProjectFile, Source, Window};
    pub use crate::registry::{
        Bag, CORE, Command, ComponentBinding, RegistryProblem, System, TableBinding,
    };
    pub use crate::save::{
        MAX_SAVE_TOTAL, MAX_SAVE_VALUE, SaveStore, SaveTooLarge, SetAside, read_kept, read_kept_in,
    };
    pub use crate::scene::{AssetKind, AssetUse, Outline, Scene, SceneError, each_problem_once};
    pub use crate::script::{
        Budget, BudgetStop, Limits, LuaTest, MAX_STRING_ARG, Meter, Queued, ScriptError,
        ScriptErrorKind, ScriptHost, StopKind, call_lines, code_only, harden,
    };
    pub use crate::storage::{
        DiskStorage, MAX_SET_ASIDE, MAX_SLOT_NAME, MemoryStorage, SlotNameError, Storage,
        StorageError, StorageProblem, check_slot_name, is_set_aside_name, write_atomically,
    };
    pub use crate::table::{TableError, closest, describe_path_error, json_kind, table_name};
    pub use crate::world::{MAX_LOG_LINE, MAX_MESSAGE, SpawnOrder, WARN_ONCE_MEMORY, cut};
    pub use crate::{
        project::{MAX_PATH, MAX_TITLE},
        scene::{MAX_NAME, NameError, check_name},
        table::MAX_STRING,
    };
}

#[cfg(test)]
mod testing {
    use proptest::prelude::*;

    /// The unit tests' package: a `counter` component with a command and a bag.
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Counter {
        pub start: i64,
    }

    pub struct CounterPackage;

    impl crate::Package for CounterPackage {
        fn name(&self) -> &'static str {
            "jengine-counter"
        }
        fn register(&self, reg: &mut crate::Registry) {
            use crate::value::{entity, number};
            reg.component::<Counter>("counter");
            reg.command("Counter", "add", (entity("e"), number("n")), |_, _| Ok(()));
            reg.bag::<Counter>("counter");
        }
    }

    /// Random JSON of any shape, a few levels deep.
    pub fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i32>().prop_map(|n| serde_json::json!(n)),
            (-1e6f64..1e6).prop_map(|n| serde_json::json!(n)),
            "[a-z#0-9.]{0,8}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
                proptest::collection::btree_map("[a-z_]{1,6}", inner, 0..4)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }
}
