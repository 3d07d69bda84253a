//! The files the package ships and the fields of `miau_game` that name them.
//!
//! `miau_game`'s texture fields name `miau/tile.png`, `miau/bar.png` and `miau/spark.png` unless
//! a scene says otherwise, so a project that merely lists the package draws Miau's own art from
//! it, unless it has a file of that name itself; empty fields draw plain tiles, bars and sparks.

use jengine::{AssetField, Registry};

use crate::MiauGame;

/// The textures the package ships, by name under `assets/textures/`. They are Miau's
/// (`projects/miau/tools/art`, the `miau-art` tool).
pub const DEFAULT_TEXTURES: &[(&str, &[u8])] = &[
    (
        "miau/tile.png",
        include_bytes!("../assets/textures/miau/tile.png"),
    ),
    (
        "miau/bar.png",
        include_bytes!("../assets/textures/miau/bar.png"),
    ),
    (
        "miau/spark.png",
        include_bytes!("../assets/textures/miau/spark.png"),
    ),
];

/// The fields of `miau_game` that name textures.
const GAME_ASSETS: &[AssetField] = &[
    AssetField::texture("tile_texture"),
    AssetField::texture("bar_texture"),
    AssetField::texture("spark_texture"),
];

/// Declares the asset fields and ships the default textures (after `miau_game` is bound).
pub(crate) fn register(reg: &mut Registry) {
    reg.component_assets::<MiauGame>("miau_game", GAME_ASSETS);
    for (name, bytes) in DEFAULT_TEXTURES {
        reg.asset(&format!("textures/{name}"), bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_textures_and_fields_register_cleanly() {
        let reg = Registry::with(&[&crate::MiauPackage]);
        assert!(reg.problems().is_empty(), "{:?}", reg.problems());
        for (name, bytes) in super::DEFAULT_TEXTURES {
            let shipped = reg.default_asset(&format!("textures/{name}")).unwrap();
            assert_eq!((shipped.0, shipped.1.len()), ("jengine-miau", bytes.len()));
            assert!(bytes.starts_with(b"\x89PNG"), "{name}");
        }
        let game = reg.binding("miau_game").unwrap();
        let raw = serde_json::value::RawValue::from_string(
            r#"{"tile_texture": "miau/tile.png", "spark_texture": "mine.png"}"#.into(),
        )
        .unwrap();
        let names: Vec<String> = game.asset_uses(&raw).into_iter().map(|u| u.2).collect();
        // The field left out is read at its default, the package's own bar.
        assert_eq!(names, ["miau/tile.png", "miau/bar.png", "mine.png"]);
    }

    #[test]
    fn the_components_default_textures_are_the_ones_shipped() {
        let game = MiauGame::default();
        for name in [&game.tile_texture, &game.bar_texture, &game.spark_texture] {
            assert!(
                DEFAULT_TEXTURES.iter().any(|(shipped, _)| shipped == name),
                "{name} is not shipped"
            );
        }
    }
}
