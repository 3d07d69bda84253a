//! The core components every scene can use, with the scene keys they are read from.
//!
//! They are plain serde data: a scene's JSON deserializes straight into them, and
//! `Entity.get` hands them to scripts as tables. Packages draw by spawning these.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An entity's name, unique by convention; `Entity.find` looks it up. Scene key `name`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Name(pub String);

/// Position, rotation (radians, counter-clockwise), scale and draw depth. Scene key `transform`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Transform2D {
    /// World position of the entity's anchor (its centre for sprites).
    pub pos: [f32; 2],
    /// Rotation in radians, counter-clockwise.
    pub rot: f32,
    /// Scale along x and y.
    pub scale: [f32; 2],
    /// Draw depth: lower draws first; ties keep spawn order.
    pub z: f32,
}

impl Default for Transform2D {
    fn default() -> Self {
        Transform2D {
            pos: [0.0, 0.0],
            rot: 0.0,
            scale: [1.0, 1.0],
            z: 0.0,
        }
    }
}

impl Transform2D {
    /// A transform at `pos` with everything else at rest.
    pub fn at(x: f32, y: f32) -> Transform2D {
        Transform2D {
            pos: [x, y],
            ..Transform2D::default()
        }
    }
}

/// An RGBA colour with channels in 0..=1.
///
/// Scenes write it as `"#rgb"`, `"#rrggbb"`, `"#rrggbbaa"` or `[r, g, b]` / `[r, g, b, a]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Color(pub [f32; 4]);

impl Color {
    /// Opaque white: the neutral tint.
    pub const WHITE: Color = Color([1.0, 1.0, 1.0, 1.0]);
    /// Opaque black.
    pub const BLACK: Color = Color([0.0, 0.0, 0.0, 1.0]);

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa`.
    pub fn parse_hex(text: &str) -> Result<Color, String> {
        let hex = text
            .strip_prefix('#')
            .ok_or_else(|| format!("colour {text:?} must start with #"))?;
        let digit = |c: u8| -> Result<f32, String> {
            (c as char)
                .to_digit(16)
                .map(|d| d as f32)
                .ok_or_else(|| format!("colour {text:?} has a non-hex digit"))
        };
        let bytes = hex.as_bytes();
        let channels: Vec<f32> = match bytes.len() {
            3 => bytes
                .iter()
                .map(|&c| digit(c).map(|d| d * 17.0 / 255.0))
                .collect::<Result<_, _>>()?,
            6 | 8 => bytes
                .chunks(2)
                .map(|p| Ok((digit(p[0])? * 16.0 + digit(p[1])?) / 255.0))
                .collect::<Result<_, String>>()?,
            _ => return Err(format!("colour {text:?} needs 3, 6 or 8 hex digits")),
        };
        let alpha = channels.get(3).copied().unwrap_or(1.0);
        Ok(Color([channels[0], channels[1], channels[2], alpha]))
    }
}

impl Default for Color {
    fn default() -> Self {
        Color::WHITE
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Color {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Color;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a colour: \"#rrggbb\", \"#rrggbbaa\" or [r, g, b(, a)]")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Color, E> {
                Color::parse_hex(v).map_err(E::custom)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Color, A::Error> {
                let mut c = [1.0f32; 4];
                let mut n = 0;
                while let Some(v) = seq.next_element::<f32>()? {
                    if n < 4 {
                        c[n] = v;
                    }
                    n += 1;
                }
                if n == 3 || n == 4 {
                    Ok(Color(c))
                } else {
                    Err(serde::de::Error::custom(format!(
                        "a colour list has 3 or 4 numbers, got {n}"
                    )))
                }
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// A textured rectangle centred on the transform. Scene key `sprite`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Sprite {
    /// Texture file under `assets/textures/`; empty draws a plain rectangle in `tint`.
    pub texture: String,
    /// Source rectangle in texture pixels `[x, y, w, h]`; the whole texture when absent.
    pub region: Option<[f32; 4]>,
    /// Size in world units.
    pub size: [f32; 2],
    /// Multiplied into every texel; alpha fades the sprite.
    pub tint: Color,
    /// Nine-slice borders in texture pixels `[left, top, right, bottom]`: corners keep their
    /// size, edges stretch one way, the middle both.
    pub nine_slice: Option<[f32; 4]>,
}

impl Default for Sprite {
    fn default() -> Self {
        Sprite {
            texture: String::new(),
            region: None,
            size: [1.0, 1.0],
            tint: Color::WHITE,
            nine_slice: None,
        }
    }
}

/// Horizontal alignment of text about the transform's position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Align {
    /// Text starts at the position.
    Left,
    /// Text is centred on the position.
    #[default]
    Center,
    /// Text ends at the position.
    Right,
}

/// What a text box (a [`Text`] with a `height`) does with the lines that do not fit in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Overflow {
    /// The lines past the box are not drawn.
    Clip,
    /// The box's last line says how many are hidden: "… and 12 more".
    #[default]
    More,
    /// The box shows the lines from `scroll` on; the wheel, a drag and the keys move it.
    Scroll,
    /// The box's last line ends in "…", cut to fit the wrap width.
    Ellipsis,
}

/// A run of text. Scene key `text`.
///
/// With a `height` it is a text box: the box is `height` tall, centred vertically on the
/// position (as a sprite of that height is), and holds the whole lines that fit in it, from its
/// top down; `overflow` says what becomes of the rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Text {
    /// What it says; `\n` breaks lines.
    pub text: String,
    /// A TTF/OTF file under `assets/fonts/`; the host's Japanese font when empty.
    pub font: String,
    /// Line height in world units.
    pub size: f32,
    /// Fill colour.
    pub color: Color,
    /// Alignment about the position.
    pub align: Align,
    /// Wrap width in world units; no wrapping when absent. A word longer than the width (a
    /// share link) breaks between characters.
    pub wrap: Option<f32>,
    /// Box height in world units; no box (every line drawn, centred on the position) when
    /// absent.
    pub height: Option<f32>,
    /// What a box does with lines that do not fit; ignored without a `height`.
    pub overflow: Overflow,
    /// For `overflow = "scroll"`: how many lines are scrolled off the box's top (0 shows the
    /// first line). The host keeps it between 0 and the last value that keeps the box full; a
    /// fraction is kept, and whole lines are shown.
    pub scroll: f32,
}

impl Default for Text {
    fn default() -> Self {
        Text {
            text: String::new(),
            font: String::new(),
            size: 1.0,
            color: Color::WHITE,
            align: Align::Center,
            wrap: None,
            height: None,
            overflow: Overflow::More,
            scroll: 0.0,
        }
    }
}

/// What the host found when it last laid out a text box: written by the host after every
/// frame on each entity whose [`Text`] has a `height`, and read by scripts as
/// `Entity.get(e, "text_layout")`. Scripts cannot set it.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TextLayout {
    /// Lines the whole text makes once wrapped.
    pub lines: u32,
    /// Whole lines the box holds.
    pub rows: u32,
    /// The first line shown (0 is the text's first line): the scroll, as kept in range.
    pub first: u32,
    /// Lines of the text drawn (a "… and N more" line is not one of them).
    pub shown: u32,
    /// Lines of the text not drawn: `lines - shown`.
    pub hidden: u32,
    /// The largest useful `scroll`: `lines - rows`, or 0 when everything fits.
    pub max_scroll: u32,
    /// The widest line, in world units.
    pub width: f32,
    /// Whether the arrow and page keys scroll this box now (a scroll box the pointer last
    /// hovered or pressed).
    pub focused: bool,
}

/// One corner of a [`Mesh2D`] triangle.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Vertex {
    /// Position in the entity's local space (world units).
    pub pos: [f32; 2],
    /// Texture coordinate in 0..=1.
    pub uv: [f32; 2],
    /// Perspective weight: texture coordinates are interpolated as `uv * q` and `q`, then
    /// divided, so a trapezoid with `q` falling with distance maps its texture straight.
    pub q: f32,
    /// Brightness multiplier (0 black, 1 unlit texture).
    pub shade: f32,
}

impl Default for Vertex {
    fn default() -> Self {
        Vertex {
            pos: [0.0, 0.0],
            uv: [0.0, 0.0],
            q: 1.0,
            shade: 1.0,
        }
    }
}

/// Textured triangles. Scene key `mesh`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Mesh2D {
    /// Texture file under `assets/textures/`; vertex shade on `tint` alone when empty.
    pub texture: String,
    /// Multiplied into every texel.
    pub tint: Color,
    /// The corners.
    pub vertices: Vec<Vertex>,
    /// Three indices into `vertices` per triangle.
    pub indices: Vec<u32>,
}

/// What part of the world the screen shows. Scene key `camera`.
///
/// `size` is the world rectangle that is always visible; a screen of another aspect keeps the
/// scale and shows more world along its longer side.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Camera2D {
    /// World point at the centre of the screen.
    pub center: [f32; 2],
    /// World width and height that must fit on screen.
    pub size: [f32; 2],
    /// Colour behind everything.
    pub clear: Color,
}

impl Default for Camera2D {
    fn default() -> Self {
        Camera2D {
            center: [0.0, 0.0],
            size: [16.0, 9.0],
            clear: Color::BLACK,
        }
    }
}

/// Textures to load before the first frame, so nothing hitches when it first appears.
/// Scene key `sprite_library`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpriteLibrary {
    /// Files under `assets/textures/`.
    pub textures: Vec<String>,
}

/// The Lua file that drives an entity, under `assets/scripts/`. Scene key `script`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Script(pub String);

/// Marks entities spawned in numbers (tiles, particles): scripts never see them through
/// `Entity.find`, and they get no script callbacks. Scene key `bulk` (`true`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BulkEntity;

/// Links an entity a package spawned to the scene entity it was spawned for: a board's tiles
/// and texts to the table entity that has the board. Tools that select what is drawn (the
/// editor's pick) select the owner, so a click on a tile selects the table. Not a scene key;
/// packages add it when they spawn (`world.spawn((BulkEntity, SpawnedFor(owner), ...))`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpawnedFor(pub hecs::Entity);

/// A scene key kept as inert data on an entity (a v1 scene's package keys).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CustomData(pub serde_json::Map<String, serde_json::Value>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_hex_and_lists() {
        let c: Color = serde_json::from_str("\"#ff0080\"").unwrap();
        assert_eq!(c.0, [1.0, 0.0, 128.0 / 255.0, 1.0]);
        let err = serde_json::from_str::<Color>("\"#fff8\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("3, 6 or 8"), "{err}");
        let c: Color = serde_json::from_str("[0.5, 0.5, 0.5]").unwrap();
        assert_eq!(c.0[3], 1.0);
        let err = serde_json::from_str::<Color>("[1, 2]")
            .unwrap_err()
            .to_string();
        assert!(err.contains("3 or 4"), "{err}");
        let err = serde_json::from_str::<Color>("\"red\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("start with #"), "{err}");
    }

    #[test]
    fn transform_defaults_fill_missing_fields() {
        let t: Transform2D = serde_json::from_str(r#"{"pos": [1, 2]}"#).unwrap();
        assert_eq!(t.scale, [1.0, 1.0]);
        assert_eq!(t.pos, [1.0, 2.0]);
        assert!(serde_json::from_str::<Transform2D>(r#"{"position": [1, 2]}"#).is_err());
    }
}
