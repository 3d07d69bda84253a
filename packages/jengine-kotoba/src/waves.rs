//! The sea behind the board: seigaiha (青海波) laid out of single scales, every one its own
//! sprite, so the pattern itself can move.
//!
//! A [`Sea`] is a small simulation on plain numbers - two crossing swells, glints, gusts, the
//! beat, the hand, and the rings and jolts the game sends - whose only output is one [`Look`]
//! per scale. [`system`] copies those looks onto a pool of sprites, and [`waves_for`] turns the
//! board's events into [`Wave`]s without touching the world.

use std::f32::consts::TAU;
use std::fmt;

use jengine::{
    AssetNameError, BulkEntity, Color, Entity, MusicClock, Name, Pointer, PointerPhase, Sprite,
    Time, Transform2D, World, check_asset_name, hecs,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

use crate::board::Pos;
use crate::play::{Ending, Event};

/// The roughest the resting sea may be.
pub const MAX_SWELL: f32 = 4.0;
/// The most scales one sea lays out; a larger `area` over `scale` is refused.
pub const MAX_SCALES: usize = 6000;
/// The most glints a second.
pub const MAX_GLINTS: f32 = 60.0;
/// The fastest beat a sea follows.
pub const MAX_BPM: f32 = 600.0;
/// The depth the scales span above `z`: the back row at `z`, the front row just under `z + 1`.
pub const Z_BAND: f32 = 1.0;

/// Frames a pointer may rest before the sea forgets it (0.75 s at 60 Hz).
const REST_FRAMES: u64 = 45;
/// The longest step simulated at once: a long hitch is taken as this, not as a leap.
const MAX_STEP: f64 = 0.25;
const MAX_RINGS: usize = 64;
const MAX_FRONTS: usize = 8;
const MAX_JOLTS: usize = 16;
const MAX_SHUDDERS: usize = 16;
const MAX_BEATS: usize = 8;
/// The most rings one [`Wave::Ring`] sends.
const MAX_RING_COUNT: u32 = 8;
/// The strongest any wave may be, either way.
const MAX_STRENGTH: f32 = 4.0;
/// Seconds a surge takes to roll across the sea.
const SURGE_SECONDS: f32 = 2.0;
/// Seconds between the rings of one [`Wave::Ring`] with a count.
const RING_GAP: f64 = 0.35;
/// A tint's channels are rounded to this many steps at the end, so float noise in the mixing
/// never makes a tint the renderer has not already made a tinted copy for.
const TINT_STEPS: f32 = 63.0;

/// The `kotoba_waves` scene component: how the sea behind the board looks and moves.
///
/// Sizes are world units; the defaults lay a gentle indigo sea a little wider than the default
/// 16x9 camera, a scale about a twelfth of its width.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Waves {
    /// One seigaiha scale under `assets/textures/`: a whole disc of rings, drawn light so the
    /// tint colours it (only its upper fan shows; the rows in front hide the rest).
    pub texture: String,
    /// Width and height of the sea in world units.
    pub area: [f32; 2],
    /// World point at the middle of the sea.
    pub centre: [f32; 2],
    /// World width of one scale; rows lie a quarter of this apart.
    pub scale: f32,
    /// Depth of the back row; the scales stay below `z + 1` ([`Z_BAND`]).
    pub z: f32,
    /// How rough the resting sea is: 0 still, 1 gentle, up to 4.
    pub swell: f32,
    /// How fast the swells' crests travel, world units a second.
    pub swell_speed: f32,
    /// World distance between one swell's crests.
    pub swell_length: f32,
    /// Glints a second: a scale catching the sun.
    pub glints: f32,
    /// Least and most seconds between gusts.
    pub gusts: [f32; 2],
    /// Set, the sea breathes on the music's beat, read from the music's playhead, and holds
    /// still when the music does; the tempo is the playing track's own when it says one, else
    /// this. Unset, the sea does not breathe to the music.
    pub bpm: Option<f32>,
    /// How much scales rise round the pointer (0 to ignore it).
    pub hover: f32,
    /// The sea in a trough.
    pub deep: Color,
    /// The sea on a crest.
    pub light: Color,
    /// Player 1's rings, and a clear's.
    pub gold: Color,
    /// Player 2's rings.
    pub coral: Color,
    /// Refusals and losses.
    pub dark: Color,
    /// Your own hurt.
    pub hurt: Color,
}

impl Default for Waves {
    fn default() -> Self {
        let hex = |text: &str| Color::parse_hex(text).expect("the default colours are valid hex");
        Waves {
            texture: "scale.png".into(),
            area: [20.0, 12.0],
            centre: [0.0, 0.0],
            scale: 1.35,
            z: -10.0,
            swell: 1.0,
            swell_speed: 0.5,
            swell_length: 9.0,
            glints: 1.5,
            gusts: [6.0, 14.0],
            bpm: None,
            hover: 1.0,
            deep: hex("#15205e"),
            light: hex("#9cc8f2"),
            gold: hex("#f4c04e"),
            coral: hex("#f47a66"),
            dark: hex("#070b26"),
            hurt: hex("#e8313c"),
        }
    }
}

impl Waves {
    /// Sets how rough the resting sea is, clamped to 0..=4 (an infinity too). A NaN is refused
    /// and changes nothing.
    pub fn set_swell(&mut self, amount: f32) -> Result<(), WaveError> {
        if amount.is_nan() {
            return Err(WaveError::NotFinite {
                what: "swell",
                value: amount,
            });
        }
        self.swell = amount.clamp(0.0, MAX_SWELL);
        Ok(())
    }

    /// The colours the sea paints with.
    pub fn palette(&self) -> Palette {
        Palette {
            deep: self.deep,
            light: self.light,
            gold: self.gold,
            coral: self.coral,
            dark: self.dark,
            hurt: self.hurt,
        }
    }

    /// Accepts a component the sea can draw; the error names the field and what it needs.
    pub fn check(&self) -> Result<(), WaveError> {
        if !self.texture.is_empty() {
            check_asset_name(&self.texture).map_err(WaveError::Texture)?;
        }
        for (i, v) in self.area.iter().enumerate() {
            positive(["area[0]", "area[1]"][i], *v)?;
        }
        for (i, v) in self.centre.iter().enumerate() {
            finite(["centre[0]", "centre[1]"][i], *v)?;
        }
        positive("scale", self.scale)?;
        finite("z", self.z)?;
        within("swell", self.swell, 0.0, MAX_SWELL)?;
        finite("swell_speed", self.swell_speed)?;
        positive("swell_length", self.swell_length)?;
        within("glints", self.glints, 0.0, MAX_GLINTS)?;
        within("gusts[0]", self.gusts[0], 0.5, f32::MAX)?;
        within("gusts[1]", self.gusts[1], self.gusts[0], f32::MAX)?;
        if let Some(bpm) = self.bpm {
            within("bpm", bpm, f32::MIN_POSITIVE, MAX_BPM)?;
        }
        within("hover", self.hover, 0.0, MAX_SWELL)?;
        let colours = [
            ("deep", self.deep),
            ("light", self.light),
            ("gold", self.gold),
            ("coral", self.coral),
            ("dark", self.dark),
            ("hurt", self.hurt),
        ];
        for (field, c) in colours {
            if !c.0.iter().all(|v| v.is_finite()) {
                return Err(WaveError::Colour { field, value: c.0 });
            }
        }
        let count = scale_count(self.area, self.scale);
        if count > MAX_SCALES {
            return Err(WaveError::TooManyScales {
                area: self.area,
                scale: self.scale,
                count,
            });
        }
        Ok(())
    }
}

/// The colours the sea and the game's waves paint with (a copy of a [`Waves`]' own).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    /// The sea in a trough.
    pub deep: Color,
    /// The sea on a crest.
    pub light: Color,
    /// Player 1.
    pub gold: Color,
    /// Player 2.
    pub coral: Color,
    /// Refusals and losses.
    pub dark: Color,
    /// Your own hurt.
    pub hurt: Color,
}

impl Default for Palette {
    fn default() -> Self {
        Waves::default().palette()
    }
}

impl Palette {
    /// Every channel held to 0..=1, so no mix of them can overflow.
    fn clamped(self) -> Palette {
        let c = |c: Color| Color(c.0.map(|v| v.clamp(0.0, 1.0)));
        Palette {
            deep: c(self.deep),
            light: c(self.light),
            gold: c(self.gold),
            coral: c(self.coral),
            dark: c(self.dark),
            hurt: c(self.hurt),
        }
    }

    /// A player's colour: gold for the first (0), coral for the second.
    pub fn player(&self, who: usize) -> Color {
        if who == 0 { self.gold } else { self.coral }
    }
}

/// Why the sea refused a value. Nothing changes when one is returned.
#[derive(Debug, Clone, PartialEq)]
pub enum WaveError {
    /// A number that must be finite was not.
    NotFinite {
        /// Which value.
        what: &'static str,
        /// What it was.
        value: f32,
    },
    /// A number outside what the field takes.
    OutOfRange {
        /// Which field.
        field: &'static str,
        /// What it was.
        value: f32,
        /// The least it may be.
        least: f32,
        /// The most it may be.
        most: f32,
    },
    /// A colour with a non-finite channel.
    Colour {
        /// Which colour.
        field: &'static str,
        /// Its channels.
        value: [f32; 4],
    },
    /// The texture name leaves the textures folder.
    Texture(AssetNameError),
    /// The area would take more than [`MAX_SCALES`] scales of this size.
    TooManyScales {
        /// The area asked for.
        area: [f32; 2],
        /// The scale asked for.
        scale: f32,
        /// How many scales that takes.
        count: usize,
    },
    /// The entity has no `kotoba_waves` component.
    NoWaves {
        /// The entity, as messages name it.
        entity: String,
    },
}

impl fmt::Display for WaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaveError::NotFinite { what, value } => {
                write!(
                    f,
                    "kotoba_waves: {what} must be a finite number, got {value}"
                )
            }
            WaveError::OutOfRange {
                field,
                value,
                least,
                most,
            } => {
                if *most == f32::MAX {
                    write!(
                        f,
                        "kotoba_waves.{field} must be at least {least}, got {value}"
                    )
                } else {
                    write!(
                        f,
                        "kotoba_waves.{field} must be from {least} to {most}, got {value}"
                    )
                }
            }
            WaveError::Colour { field, value } => write!(
                f,
                "kotoba_waves.{field} must be a colour of finite numbers, got {value:?}"
            ),
            WaveError::Texture(e) => write!(f, "kotoba_waves.texture: {e}"),
            WaveError::TooManyScales { area, scale, count } => write!(
                f,
                "kotoba_waves: an area of {area:?} in scales {scale} wide takes {count} scales, \
                 more than {MAX_SCALES}; make the scale larger or the area smaller"
            ),
            WaveError::NoWaves { entity } => {
                write!(f, "{entity} has no kotoba_waves component")
            }
        }
    }
}

impl std::error::Error for WaveError {}

fn finite(what: &'static str, value: f32) -> Result<(), WaveError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(WaveError::NotFinite { what, value })
    }
}

fn within(field: &'static str, value: f32, least: f32, most: f32) -> Result<(), WaveError> {
    finite(field, value)?;
    if (least..=most).contains(&value) {
        Ok(())
    } else {
        Err(WaveError::OutOfRange {
            field,
            value,
            least,
            most,
        })
    }
}

fn positive(field: &'static str, value: f32) -> Result<(), WaveError> {
    within(field, value, f32::MIN_POSITIVE, f32::MAX)
}

// ---------------------------------------------------------------------------------------------
// The pattern.

/// One scale's place in the pattern.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Spot {
    /// The centre of the scale's circle, and of its sprite.
    base: [f32; 2],
    /// Row from the top (the back).
    row: u32,
    /// Draw depth: later rows in front.
    z: f32,
    /// Distance from the sea's centre, for the beat's breath.
    from_centre: f32,
    /// A fixed per-scale phase, so shudders and gusts do not move scales in lockstep.
    phase: f32,
}

/// The rows a sea of `area` about `centre` takes, as row indices `i` (`y = centre.y + i * r/2`)
/// from the top down. One spare row above and two below, so a lifted or sunk edge never shows
/// the background.
fn row_range(area: [f32; 2], scale: f32) -> (i64, i64) {
    let r = scale / 2.0;
    let half = (area[1] / r).ceil() as i64;
    (half + 1, -(half + 2))
}

/// The columns `j` (`x = centre.x + offset + j * scale`) a row takes to cover the area with a
/// scale's half width to spare on each side.
fn column_range(area: [f32; 2], scale: f32, offset: f32) -> (i64, i64) {
    let r = scale / 2.0;
    let left = -area[0] / 2.0 - r - offset;
    let right = area[0] / 2.0 + r - offset;
    ((left / scale).floor() as i64, (right / scale).ceil() as i64)
}

/// How many scales a layout takes, counted without laying it out (saturating, so a hostile
/// area cannot overflow).
fn scale_count(area: [f32; 2], scale: f32) -> usize {
    let rows = (area[1] as f64 / (scale as f64 / 4.0)).ceil() + 5.0;
    let cols = (area[0] as f64 / scale as f64).ceil() + 4.0;
    let n = rows * cols;
    if n.is_finite() && n < usize::MAX as f64 {
        n as usize
    } else {
        usize::MAX
    }
}

/// Seigaiha's rows: each a quarter scale below the last and offset by half a scale, so every
/// scale (a disc) covers the lower part of the ones behind it and only its upper fan shows.
/// Rows further down come later and draw in front.
fn lay_out(area: [f32; 2], centre: [f32; 2], scale: f32, z: f32) -> Vec<Spot> {
    let r = scale / 2.0;
    let (top, bottom) = row_range(area, scale);
    let rows = (top - bottom + 1) as f32;
    let mut spots = Vec::with_capacity(scale_count(area, scale));
    for (row, i) in (bottom..=top).rev().enumerate() {
        let y = centre[1] + i as f32 * r / 2.0;
        let offset = if i.rem_euclid(2) == 1 { r } else { 0.0 };
        let (first, last) = column_range(area, scale, offset);
        for j in first..=last {
            let x = centre[0] + offset + j as f32 * scale;
            let from_centre = (x - centre[0]).hypot(y + r / 2.0 - centre[1]);
            // A fixed scramble of the grid position, the same every run.
            let phase = ((j as f32 * 12.9898 + i as f32 * 78.233).sin() * 43758.547).fract() * TAU;
            spots.push(Spot {
                base: [x, y],
                row: row as u32,
                z: z + Z_BAND * row as f32 / rows,
                from_centre,
                phase,
            });
        }
    }
    spots
}

// ---------------------------------------------------------------------------------------------
// What the game sends.

/// Something the game (or a script) sends through the sea.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Wave {
    /// Rings spreading from a world point, `count` of them a moment apart. A ring lights,
    /// lifts, tints and pushes outward the scales it passes, and fades as it spreads; a
    /// negative strength darkens and sinks instead.
    Ring {
        /// Where it starts, in world units.
        at: [f32; 2],
        /// 1 is a plain word; up to 4 either way.
        strength: f32,
        /// What it tints the scales it passes.
        color: Color,
        /// How many rings (1 to 8).
        count: u32,
    },
    /// A broad wave rolling up across the whole sea.
    Surge {
        /// 1 is a plain surge; negative sinks and darkens.
        strength: f32,
        /// What it tints.
        color: Color,
    },
    /// A knock under a point: the scales there heave and ring down, with a ring of its own.
    Jolt {
        /// Where, in world units.
        at: [f32; 2],
        /// How hard.
        strength: f32,
        /// What it tints.
        color: Color,
    },
    /// The scales round a point shake side to side and darken for a moment.
    Shudder {
        /// Where, in world units.
        at: [f32; 2],
        /// How hard.
        strength: f32,
    },
    /// The whole sea breathes once, outward from its centre (a countdown's beat).
    Beat {
        /// How deep the breath.
        strength: f32,
    },
}

/// Where the board and the players are, for [`waves_for`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaveContext {
    /// World centre of board cell (0, 0), the top-left.
    pub origin: [f32; 2],
    /// World distance between neighbouring cell centres; rows go down the screen.
    pub cell: f32,
    /// World centre of the board.
    pub board_centre: [f32; 2],
    /// World centre of each player's hand, player 1 (index 0) first.
    pub hands: [[f32; 2]; 2],
    /// Which player is you, whose hurt shows red; `None` when two bots play.
    pub you: Option<usize>,
    /// Where each player's last move aimed, for a refusal's ring; the hand when unknown.
    pub tried: [Option<[f32; 2]>; 2],
    /// The colours to send.
    pub palette: Palette,
}

impl Default for WaveContext {
    fn default() -> Self {
        WaveContext {
            origin: [0.0, 0.0],
            cell: 1.0,
            board_centre: [0.0, 0.0],
            hands: [[0.0, 0.0]; 2],
            you: Some(0),
            tried: [None; 2],
            palette: Palette::default(),
        }
    }
}

impl WaveContext {
    /// The world centre of a board cell.
    pub fn cell_centre(&self, pos: Pos) -> [f32; 2] {
        [
            self.origin[0] + pos.x as f32 * self.cell,
            self.origin[1] - pos.y as f32 * self.cell,
        ]
    }

    /// A player's hand (player 2's for any index past the first).
    fn hand(&self, who: usize) -> [f32; 2] {
        self.hands[who.min(1)]
    }
}

/// A word's ring: stronger for more points and a longer combo.
fn word_strength(points: u32, combo: u32) -> f32 {
    (0.6 + points as f32 / 12.0).min(2.5) * (1.0 + 0.25 * combo.min(4) as f32)
}

/// A hit's jolt: harder for more damage.
fn hit_strength(damage: u32) -> f32 {
    (0.5 + damage as f32 / 15.0).min(3.0)
}

/// Turns one frame's board events into waves. Pure: the same events and context always give
/// the same waves, in event order.
pub fn waves_for(events: &[Event], ctx: &WaveContext) -> Vec<Wave> {
    let pal = &ctx.palette;
    let mut out = Vec::new();
    for event in events {
        match event {
            Event::Started => out.push(Wave::Surge {
                strength: 0.5,
                color: pal.light,
            }),
            Event::Countdown(0) => {
                // "Go" lands like a drum: a deep breath and a knock under the board.
                out.push(Wave::Beat { strength: 1.6 });
                out.push(Wave::Jolt {
                    at: ctx.board_centre,
                    strength: 1.2,
                    color: pal.light,
                });
            }
            Event::Countdown(_) => out.push(Wave::Beat { strength: 0.7 }),
            Event::Placed {
                player,
                pos,
                points,
                combo,
                words,
                ..
            } => {
                let color = pal.player(*player);
                let longest = words.iter().map(|w| w.cells.len()).max().unwrap_or(0);
                let extra = longest.saturating_sub(3).min(MAX_RING_COUNT as usize - 1) as u32;
                out.push(Wave::Ring {
                    at: ctx.cell_centre(*pos),
                    strength: word_strength(*points, *combo),
                    color,
                    count: 1 + extra,
                });
                if *combo >= 2 {
                    out.push(Wave::Surge {
                        strength: 0.6 + 0.2 * (*combo - 2).min(4) as f32,
                        color,
                    });
                }
            }
            Event::Refused { player, .. } => {
                let at = ctx.tried[(*player).min(1)].unwrap_or(ctx.hand(*player));
                out.push(Wave::Ring {
                    at,
                    strength: -0.8,
                    color: pal.dark,
                    count: 1,
                });
                out.push(Wave::Shudder { at, strength: 1.0 });
            }
            Event::Turned { player, .. } => out.push(Wave::Ring {
                at: ctx.hand(*player),
                strength: 0.25,
                color: pal.light,
                count: 1,
            }),
            Event::Swapped { player, .. } => out.push(Wave::Shudder {
                at: ctx.hand(*player),
                strength: 0.6,
            }),
            Event::Hit { to, damage, .. } => {
                if *damage > 0 {
                    let color = if ctx.you == Some(*to) {
                        pal.hurt
                    } else {
                        pal.player(1 - (*to).min(1))
                    };
                    out.push(Wave::Jolt {
                        at: ctx.hand(*to),
                        strength: hit_strength(*damage),
                        color,
                    });
                }
            }
            Event::Cleared { .. } => {
                out.push(Wave::Ring {
                    at: ctx.board_centre,
                    strength: 1.6,
                    color: pal.gold,
                    count: 3,
                });
                out.push(Wave::Surge {
                    strength: 1.2,
                    color: pal.gold,
                });
            }
            Event::Failed { .. } => out.push(Wave::Surge {
                strength: -1.0,
                color: pal.dark,
            }),
            Event::Over {
                winner: Some(w),
                why,
            } => {
                let w = (*w).min(1);
                let color = pal.player(w);
                let ko = *why == Ending::Ko;
                out.push(Wave::Ring {
                    at: ctx.hand(w),
                    strength: if ko { 1.5 } else { 1.2 },
                    color,
                    count: if ko { 3 } else { 2 },
                });
                out.push(Wave::Surge {
                    strength: 1.2,
                    color,
                });
                if ko {
                    let loser = 1 - w;
                    out.push(Wave::Jolt {
                        at: ctx.hand(loser),
                        strength: 2.5,
                        color: if ctx.you == Some(loser) {
                            pal.hurt
                        } else {
                            color
                        },
                    });
                }
            }
            Event::Over { winner: None, .. } => out.push(Wave::Surge {
                strength: 0.6,
                color: pal.light,
            }),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The simulation.

/// A ring spreading from a point.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ring {
    at: [f32; 2],
    strength: f32,
    color: Color,
    /// Sea time it starts; later than now for the later rings of a count.
    born: f64,
    /// Speed and band width in scales, and how long it takes to fade (seconds).
    speed: f32,
    width: f32,
    life: f32,
    /// This step's radius and amplitude (world units, signed strength).
    radius: f32,
    amp: f32,
}

/// A surge's front rolling up the sea.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Front {
    strength: f32,
    color: Color,
    born: f64,
    y: f32,
    amp: f32,
}

/// A jolt or a shudder under a point.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Knock {
    at: [f32; 2],
    strength: f32,
    color: Color,
    born: f64,
    age: f32,
}

/// A gust rolling in from one side.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Gust {
    born: f64,
    /// +1 from the left, -1 from the right.
    dir: f32,
    strength: f32,
    /// This step's front, in world x.
    x: f32,
}

/// How one scale is drawn this frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Look {
    /// The sprite's centre (the scale's circle's), in world units.
    pub pos: [f32; 2],
    /// Its scale, both ways.
    pub scale: f32,
    /// Its tint.
    pub tint: Color,
    /// Its draw depth.
    pub z: f32,
}

/// What the layout was made from; a change lays the sea out again.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Shape {
    area: [f32; 2],
    centre: [f32; 2],
    scale: f32,
    z: f32,
}

impl Shape {
    fn of(waves: &Waves) -> Shape {
        Shape {
            area: waves.area,
            centre: waves.centre,
            scale: waves.scale,
            z: waves.z,
        }
    }
}

/// A sea's running state: the `kotoba_waves` entity's companion, added by [`system`] (or
/// [`sea_mut`]) and never saved. All its chance comes from its own seeded stream, so a sea
/// given the same seed, steps and waves moves the same way every run.
#[derive(Debug, Clone)]
pub struct Sea {
    rng: Pcg32,
    /// Seconds the sea has run.
    clock: f64,
    shape: Shape,
    spots: Vec<Spot>,
    looks: Vec<Look>,
    /// Each scale's glint, counting down from 1.
    glint: Vec<f32>,
    rings: Vec<Ring>,
    fronts: Vec<Front>,
    jolts: Vec<Knock>,
    shudders: Vec<Knock>,
    beats: Vec<Knock>,
    gust: Option<Gust>,
    until_gust: f64,
    until_glint: f64,
    /// Each swell's phase offset.
    phases: [f32; 2],
    /// How present the pointer is (0 forgotten, 1 just moved), and where.
    hover: f32,
    hover_at: [f32; 2],
    /// The pointer's last place and the path run since the last wake ring.
    last_pointer: Option<[f32; 2]>,
    wake_run: f32,
    /// How much the music's beat shows: eases to 1 while it plays, to 0 when it stops.
    music: f32,
    palette: Palette,
    land: Vec<[f32; 4]>,
}

impl Sea {
    /// A sea for `waves`, its chance seeded from `seed`; refuses a component [`Waves::check`]
    /// refuses.
    pub fn new(waves: &Waves, seed: u64) -> Result<Sea, WaveError> {
        waves.check()?;
        let mut rng = Pcg32::seed_from_u64(seed);
        let phases = [rng.random::<f32>() * TAU, rng.random::<f32>() * TAU];
        let mut sea = Sea {
            rng,
            clock: 0.0,
            shape: Shape::of(waves),
            spots: Vec::new(),
            looks: Vec::new(),
            glint: Vec::new(),
            rings: Vec::with_capacity(MAX_RINGS),
            fronts: Vec::with_capacity(MAX_FRONTS),
            jolts: Vec::with_capacity(MAX_JOLTS),
            shudders: Vec::with_capacity(MAX_SHUDDERS),
            beats: Vec::with_capacity(MAX_BEATS),
            gust: None,
            until_gust: 0.0,
            until_glint: 0.0,
            phases,
            hover: 0.0,
            hover_at: [0.0, 0.0],
            last_pointer: None,
            wake_run: 0.0,
            music: 0.0,
            palette: waves.palette().clamped(),
            land: Vec::new(),
        };
        sea.until_gust = sea.gust_wait(waves);
        sea.until_glint = sea.glint_wait(waves);
        sea.reshape(waves);
        sea.compose(waves, &MusicClock::default());
        Ok(sea)
    }

    fn reshape(&mut self, waves: &Waves) {
        self.shape = Shape::of(waves);
        self.spots = lay_out(waves.area, waves.centre, waves.scale, waves.z);
        let rest = Look {
            pos: [0.0, 0.0],
            scale: 1.0,
            tint: waves.deep,
            z: waves.z,
        };
        self.looks = vec![rest; self.spots.len()];
        self.glint = vec![0.0; self.spots.len()];
    }

    /// Lays the sea out again if the component's area, centre, scale or depth changed; true
    /// when it did (the sprites must be made again). Refuses what [`Waves::check`] refuses.
    pub fn fit(&mut self, waves: &Waves) -> Result<bool, WaveError> {
        waves.check()?;
        if Shape::of(waves) == self.shape && !self.spots.is_empty() {
            return Ok(false);
        }
        self.reshape(waves);
        self.compose(waves, &MusicClock::default());
        Ok(true)
    }

    /// How many scales the sea has.
    pub fn len(&self) -> usize {
        self.spots.len()
    }

    /// Whether the sea has no scales.
    pub fn is_empty(&self) -> bool {
        self.spots.is_empty()
    }

    /// How each scale is drawn, back row first, as of the last step.
    pub fn looks(&self) -> &[Look] {
        &self.looks
    }

    /// Seconds the sea has run.
    pub fn clock(&self) -> f64 {
        self.clock
    }

    /// Boxes `[x0, y0, x1, y1]` (world units) that are land, not sea - the board, the hands -
    /// where a press does not splash.
    pub fn set_land(&mut self, boxes: &[[f32; 4]]) {
        self.land.clear();
        self.land.extend_from_slice(boxes);
    }

    /// Whether the sea has nothing the game sent still moving in it.
    pub fn is_calm(&self) -> bool {
        self.rings.is_empty()
            && self.fronts.is_empty()
            && self.jolts.is_empty()
            && self.shudders.is_empty()
            && self.beats.is_empty()
    }

    /// The colour of a wave sent without one: gold, or dark for a negative strength.
    fn fallback(&self, strength: f32) -> Color {
        if strength < 0.0 {
            self.palette.dark
        } else {
            self.palette.gold
        }
    }

    fn gust_wait(&mut self, waves: &Waves) -> f64 {
        let [least, most] = waves.gusts;
        least as f64 + (most - least).max(0.0) as f64 * self.rng.random::<f64>()
    }

    fn glint_wait(&mut self, waves: &Waves) -> f64 {
        if waves.glints <= 0.0 {
            return f64::INFINITY;
        }
        // Uneven waits (between half and one and a half of the mean) read as chance.
        (0.5 + self.rng.random::<f64>()) / waves.glints as f64
    }

    /// Moves the sea on by `dt` seconds (clamped to a quarter second): the swells, glints,
    /// gusts, the pointer (`frame` is [`Time::frame`], to tell a pointer at rest), the music's
    /// beat and whatever the game sent. `waves` is the component the sea was laid out for (see
    /// [`Sea::fit`]); one [`Waves::check`] refuses leaves the sea as it was.
    pub fn step(
        &mut self,
        waves: &Waves,
        dt: f64,
        frame: u64,
        pointer: &Pointer,
        music: &MusicClock,
    ) {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, MAX_STEP)
        } else {
            0.0
        };
        if waves.check().is_err() {
            return;
        }
        self.palette = waves.palette().clamped();
        self.clock += dt;
        self.feel_pointer(waves, dt as f32, frame, pointer);
        self.chance(waves, dt);
        self.age(waves, dt as f32, music);
        self.compose(waves, music);
    }

    /// The hand: where it hovers, the wake of a quick sweep, a press's splash.
    fn feel_pointer(&mut self, waves: &Waves, dt: f32, frame: u64, pointer: &Pointer) {
        let u = waves.scale;
        let resting = frame.saturating_sub(pointer.moved_frame) > REST_FRAMES;
        let target = match pointer.pos {
            Some(p) if !resting && waves.hover > 0.0 && p.iter().all(|v| v.is_finite()) => {
                self.hover_at = p;
                1.0
            }
            _ => 0.0,
        };
        let rate = if target > self.hover { 6.0 } else { 2.5 };
        self.hover += (target - self.hover) * (rate * dt).min(1.0);
        if waves.hover <= 0.0 {
            self.last_pointer = pointer.pos;
            return;
        }

        let path: f32 = {
            let mut from = self.last_pointer;
            let mut run = 0.0;
            for e in &pointer.events {
                if let Some(p0) = from {
                    run += dist(p0, e.pos);
                }
                from = Some(e.pos);
            }
            run
        };
        let quick = dt > 0.0 && path / dt > 6.0 * u;
        for i in 0..pointer.events.len() {
            let e = pointer.events[i];
            if !e.pos.iter().all(|v| v.is_finite()) {
                continue;
            }
            if e.phase == PointerPhase::Press && !self.on_land(e.pos) {
                self.push_ring(e.pos, 0.7 * waves.hover, self.palette.light, 0, 1.0);
                self.push_knock(
                    KnockKind::Jolt,
                    e.pos,
                    0.4 * waves.hover,
                    self.palette.light,
                );
            }
            let seg = self.last_pointer.map_or(0.0, |p0| dist(p0, e.pos));
            // A jump (the pointer leaving and coming back elsewhere) is no sweep.
            if let Some(p0) = self.last_pointer
                && quick
                && seg < 4.0 * u
                && matches!(e.phase, PointerPhase::Hover | PointerPhase::Drag)
            {
                let spacing = 0.8 * u;
                let mut along = spacing - self.wake_run;
                while along <= seg {
                    let t = along / seg;
                    let at = [
                        p0[0] + (e.pos[0] - p0[0]) * t,
                        p0[1] + (e.pos[1] - p0[1]) * t,
                    ];
                    self.push_wake(at, 0.3 * waves.hover);
                    along += spacing;
                }
                self.wake_run = seg - (along - spacing);
            }
            self.last_pointer = Some(e.pos);
        }
        if !quick {
            self.wake_run = 0.0;
        }
    }

    fn on_land(&self, p: [f32; 2]) -> bool {
        self.land
            .iter()
            .any(|b| p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3])
    }

    /// Glints and gusts, when their time comes.
    fn chance(&mut self, waves: &Waves, dt: f64) {
        if self.until_glint.is_infinite() {
            // Glints were off; they may have been turned on since.
            self.until_glint = self.glint_wait(waves);
        }
        self.until_glint -= dt;
        while self.until_glint <= 0.0 {
            if !self.spots.is_empty() {
                let i = self.rng.random_range(0..self.spots.len());
                self.glint[i] = 1.0;
            }
            self.until_glint += self.glint_wait(waves);
        }
        self.until_gust -= dt;
        while self.until_gust <= 0.0 {
            if self.gust.is_none() && waves.swell > 0.0 {
                let dir = if self.rng.random::<bool>() { 1.0 } else { -1.0 };
                let strength = 0.6 + 0.4 * self.rng.random::<f32>();
                self.gust = Some(Gust {
                    born: self.clock,
                    dir,
                    strength,
                    x: 0.0,
                });
            }
            self.until_gust += self.gust_wait(waves);
        }
    }

    /// Moves every ring, front, knock and glint on, and lets go of the spent ones.
    fn age(&mut self, waves: &Waves, dt: f32, music: &MusicClock) {
        let u = waves.scale;
        let [w, h] = waves.area;
        let reach = w.hypot(h);
        let clock = self.clock;
        for g in &mut self.glint {
            *g = (*g - dt / 0.6).max(0.0);
        }
        for ring in &mut self.rings {
            let age = (clock - ring.born) as f32;
            ring.radius = age.max(0.0) * ring.speed * u;
            ring.amp = if age < 0.0 {
                0.0
            } else {
                // Fades with time and as it spreads over more sea.
                ring.strength * (-age / ring.life).exp() / (1.0 + ring.radius / (6.0 * u))
            };
        }
        self.rings.retain(|r| {
            let age = (clock - r.born) as f32;
            age < 0.0 || (r.amp.abs() > 0.01 && r.radius < reach + 4.0 * u)
        });
        let band = 0.9 * u;
        let bottom = waves.centre[1] - h / 2.0 - 2.0 * band;
        let run = h + 4.0 * band;
        for f in &mut self.fronts {
            let t = ((clock - f.born) as f32 / SURGE_SECONDS).max(0.0);
            f.y = bottom + run * t;
            f.amp = f.strength * (1.0 - 0.5 * t);
        }
        self.fronts
            .retain(|f| ((clock - f.born) as f32) < SURGE_SECONDS);
        for list in [&mut self.jolts, &mut self.shudders, &mut self.beats] {
            for k in list.iter_mut() {
                k.age = (clock - k.born) as f32;
            }
        }
        self.jolts.retain(|k| k.age < 2.0);
        self.shudders.retain(|k| k.age < 0.7);
        let breath_span = reach / (8.0 * u) + 1.5;
        self.beats.retain(|k| k.age < breath_span);
        if let Some(g) = &mut self.gust {
            let band = 2.2 * u;
            let t = (clock - g.born) as f32 / 2.4;
            let from = waves.centre[0] - g.dir * (w / 2.0 + 2.0 * band);
            g.x = from + g.dir * (w + 4.0 * band) * t;
            if t >= 1.0 {
                self.gust = None;
            }
        }
        let on = if tempo(waves, music).is_some() && music.playing {
            1.0
        } else {
            0.0
        };
        self.music += (on - self.music) * (4.0 * dt).min(1.0);
    }

    fn push_ring(&mut self, at: [f32; 2], strength: f32, color: Color, delay: u32, size: f32) {
        if self.rings.len() == MAX_RINGS {
            self.rings.remove(0);
        }
        self.rings.push(Ring {
            at,
            strength,
            color,
            born: self.clock + delay as f64 * RING_GAP,
            speed: 3.5 * size,
            width: 0.3 * size,
            life: 1.5 * size,
            radius: 0.0,
            amp: 0.0,
        });
    }

    fn push_wake(&mut self, at: [f32; 2], strength: f32) {
        let light = self.palette.light;
        self.push_ring(at, strength, light, 0, 0.5);
    }

    fn push_knock(&mut self, kind: KnockKind, at: [f32; 2], strength: f32, color: Color) {
        let (list, max) = match kind {
            KnockKind::Jolt => (&mut self.jolts, MAX_JOLTS),
            KnockKind::Shudder => (&mut self.shudders, MAX_SHUDDERS),
            KnockKind::Beat => (&mut self.beats, MAX_BEATS),
        };
        if list.len() == max {
            list.remove(0);
        }
        list.push(Knock {
            at,
            strength,
            color,
            born: self.clock,
            age: 0.0,
        });
    }

    /// Works out every scale's look from everything moving in the sea.
    fn compose(&mut self, waves: &Waves, music: &MusicClock) {
        let u = waves.scale;
        let r = u / 2.0;
        let rough = if waves.swell.is_finite() {
            waves.swell.clamp(0.0, MAX_SWELL)
        } else {
            0.0
        };
        let t = self.clock as f32;
        // Two swells crossing at an angle, the second shorter and slower.
        let k1 = TAU / waves.swell_length;
        let k2 = TAU / (waves.swell_length * 0.71);
        let pace = 0.75 + 0.25 * rough;
        let c1 = waves.swell_speed * pace;
        let c2 = waves.swell_speed * 0.8 * pace;
        let d1 = [0.94, 0.34];
        let d2 = [-0.5, 0.866];
        let tone = 0.2 * rough.min(2.0);
        let heave = 0.045 * rough * u;
        let gust_band = 2.2 * u;
        let front_band = 0.9 * u;
        let hover_r = 1.4 * u;
        let breath_speed = 8.0 * u;
        let beat = match tempo(waves, music) {
            Some(bpm) if self.music > 0.001 => {
                let period = 60.0 / bpm as f64;
                Some((music.position.max(0.0) / period, period as f32))
            }
            _ => None,
        };
        let pal = self.palette;
        let (deep, light, dark) = (rgb(pal.deep), rgb(pal.light), rgb(pal.dark));

        for (i, spot) in self.spots.iter().enumerate() {
            let p = [spot.base[0], spot.base[1] + r / 2.0];
            let mut lift = 0.0f32;
            let mut grow = 0.0f32;
            let mut push = [0.0f32; 2];
            let mut bright = 0.0f32;
            let mut white = 0.0f32;
            let mut mix = [0.0f32; 3];
            let mut weight = 0.0f32;

            // The swells.
            let s1 = (k1 * (p[0] * d1[0] + p[1] * d1[1] - c1 * t) + self.phases[0]).sin();
            let s2 = (k2 * (p[0] * d2[0] + p[1] * d2[1] - c2 * t) + self.phases[1]).sin();
            let swell = 0.6 * s1 + 0.4 * s2;
            lift += heave * swell;
            grow += 0.03 * rough * swell.max(0.0);
            bright += tone * swell;

            // A glint rises and falls over its short life.
            let g = self.glint[i];
            if g > 0.0 {
                let flash = 4.0 * g * (1.0 - g);
                bright += 0.6 * flash;
                white += 0.35 * flash;
            }

            if let Some(gust) = &self.gust {
                let x = (p[0] - gust.x) / gust_band;
                if x.abs() < 3.0 {
                    let ripple = 0.65 + 0.35 * (p[1] * TAU / (3.0 * u) + spot.phase * 0.3).sin();
                    let k = gust.strength * rough.min(1.5) * (-x * x).exp() * ripple;
                    lift += 0.12 * u * k;
                    grow += 0.05 * k;
                    bright += 0.35 * k;
                    push[0] += gust.dir * 0.1 * u * k;
                }
            }

            if let Some((beats, period)) = beat {
                // The breath leaves the centre on the beat and reaches the edges later.
                let since = (beats - (spot.from_centre / breath_speed) as f64 / period as f64)
                    .rem_euclid(1.0) as f32
                    * period;
                let k = 0.6 * self.music * (-since * 5.0).exp();
                lift += 0.12 * u * k;
                grow += 0.05 * k;
                bright += 0.3 * k;
            }

            if self.hover > 0.001 {
                let d2 = dist2(p, self.hover_at);
                if d2 < 9.0 * hover_r * hover_r {
                    let k = self.hover * waves.hover * (-d2 / (hover_r * hover_r)).exp();
                    lift += 0.18 * r * k;
                    grow += 0.08 * k;
                    bright += 0.35 * k;
                }
            }

            for ring in &self.rings {
                if ring.amp == 0.0 {
                    continue;
                }
                let width = ring.width * u;
                let d = dist(p, ring.at);
                let x = (d - ring.radius) / width;
                if !(-4.0..3.0).contains(&x) {
                    continue;
                }
                // A crest with a small trough behind it.
                let g = (-x * x).exp() - 0.3 * (-(x + 1.6) * (x + 1.6)).exp();
                let a = ring.amp * g;
                lift += 0.1 * u * a;
                grow += 0.08 * a;
                bright += 0.45 * a;
                if d > 1e-3 {
                    let out = 0.06 * u * a / d;
                    push[0] += (p[0] - ring.at[0]) * out;
                    push[1] += (p[1] - ring.at[1]) * out;
                }
                // Sharper than the lift, so a ring's colour is a clean line of scales.
                let w = ring.amp.abs() * g.max(0.0).powi(2) * 1.5;
                add_colour(&mut mix, &mut weight, ring.color, w);
            }

            for f in &self.fronts {
                let y = (p[1] - f.y) / front_band;
                if y.abs() > 3.0 {
                    continue;
                }
                let a = f.amp * (-y * y).exp();
                lift += 0.12 * u * a;
                grow += 0.05 * a;
                bright += 0.35 * a;
                add_colour(
                    &mut mix,
                    &mut weight,
                    f.color,
                    a.abs() * (-y * y).exp() * 0.9,
                );
            }

            for k in &self.jolts {
                let reach = (1.5 + 1.2 * k.strength.abs().min(3.0)) * u;
                let d2 = dist2(p, k.at);
                if d2 > 9.0 * reach * reach {
                    continue;
                }
                let near = k.strength * (-d2 / (reach * reach)).exp();
                let knock = (-k.age * 3.5).exp() * (k.age * 14.0).cos();
                lift += 0.15 * u * near * knock;
                grow += 0.1 * near * knock.max(0.0);
                bright += 0.4 * near * (-k.age * 3.0).exp();
                add_colour(
                    &mut mix,
                    &mut weight,
                    k.color,
                    near.abs() * (-k.age * 2.5).exp() * 0.6,
                );
            }

            for k in &self.shudders {
                let reach = 3.0 * u;
                let d2 = dist2(p, k.at);
                if d2 > 9.0 * reach * reach {
                    continue;
                }
                let near = k.strength * (-d2 / (reach * reach)).exp() * (1.0 - k.age / 0.7);
                push[0] += (k.age * 55.0 + spot.phase).sin() * 0.07 * u * near;
                bright -= 0.3 * near;
                add_colour(&mut mix, &mut weight, pal.dark, near.abs() * 0.4);
            }

            for k in &self.beats {
                let since = k.age - spot.from_centre / breath_speed;
                if since < 0.0 {
                    continue;
                }
                let a = k.strength * (-since * 5.0).exp();
                lift += 0.12 * u * a;
                grow += 0.05 * a;
                bright += 0.3 * a;
            }

            // Deep to light along the swell, darker still below deep, whiter past light.
            // Each input of the colour is rounded to a few levels, so the sea only ever uses a
            // small, fixed set of tints and the renderer's tinted copies keep being reused.
            let m = steps(0.3 + bright, 24.0);
            let mut c = if m < 0.0 {
                lerp3(deep, dark, (-m).min(1.0))
            } else if m <= 1.0 {
                lerp3(deep, light, m)
            } else {
                lerp3(light, [1.0; 3], ((m - 1.0) * 0.5).min(0.6))
            };
            let w = steps(weight.min(0.9), 8.0);
            if w > 0.0 {
                let hue = mix.map(|v| steps(v / weight, 16.0));
                c = lerp3(c, hue, w);
                // Blue and gold half mixed is grey; lift the chroma of the half-way scales so a
                // ring's edge stays coloured.
                let grey = 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2];
                let boost = 1.0 + 2.4 * w * (1.0 - w);
                c = c.map(|v| grey + (v - grey) * boost);
            }
            let white = steps(white.min(1.0), 6.0);
            if white > 0.0 {
                c = lerp3(c, [1.0; 3], white);
            }
            // Held small enough that the pattern bends but never tears.
            let lift = lift.clamp(-0.3 * u, 0.3 * u);
            let push = push.map(|v| v.clamp(-0.2 * u, 0.2 * u));
            let scale = (1.0 + grow).clamp(0.8, 1.35);
            self.looks[i] = Look {
                pos: [spot.base[0] + push[0], spot.base[1] + lift + push[1]],
                scale,
                tint: Color([quantise(c[0]), quantise(c[1]), quantise(c[2]), 1.0]),
                z: spot.z,
            };
        }
    }
}

#[derive(Clone, Copy)]
enum KnockKind {
    Jolt,
    Shudder,
    Beat,
}

fn dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

fn dist2(a: [f32; 2], b: [f32; 2]) -> f32 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    dx * dx + dy * dy
}

fn rgb(c: Color) -> [f32; 3] {
    [c.0[0], c.0[1], c.0[2]]
}

fn lerp3(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

fn add_colour(mix: &mut [f32; 3], weight: &mut f32, c: Color, w: f32) {
    if w > 0.0 {
        mix[0] += c.0[0] * w;
        mix[1] += c.0[1] * w;
        mix[2] += c.0[2] * w;
        *weight += w;
    }
}

/// `v` rounded to the nearest of `levels` steps per unit.
fn steps(v: f32, levels: f32) -> f32 {
    (v * levels).round() / levels
}

fn quantise(v: f32) -> f32 {
    (v.clamp(0.0, 1.0) * TINT_STEPS).round() / TINT_STEPS
}

/// Sends a wave through the sea. A wave with a non-finite number is refused and changes
/// nothing; strengths are held to ±4 and a ring's count to 1..=8.
pub fn apply(sea: &mut Sea, wave: Wave) -> Result<(), WaveError> {
    let strength = |s: f32| -> Result<f32, WaveError> {
        finite("wave strength", s)?;
        Ok(s.clamp(-MAX_STRENGTH, MAX_STRENGTH))
    };
    let point = |at: [f32; 2]| -> Result<[f32; 2], WaveError> {
        finite("wave x", at[0])?;
        finite("wave y", at[1])?;
        Ok(at)
    };
    let colour = |c: Color| -> Result<Color, WaveError> {
        if c.0.iter().all(|v| v.is_finite()) {
            Ok(Color(c.0.map(|v| v.clamp(0.0, 1.0))))
        } else {
            Err(WaveError::Colour {
                field: "wave colour",
                value: c.0,
            })
        }
    };
    match wave {
        Wave::Ring {
            at,
            strength: s,
            color,
            count,
        } => {
            let (at, s, color) = (point(at)?, strength(s)?, colour(color)?);
            for i in 0..count.clamp(1, MAX_RING_COUNT) {
                // Each later ring of a count a little weaker.
                sea.push_ring(at, s * 0.85f32.powi(i as i32), color, i, 1.0);
            }
        }
        Wave::Surge { strength: s, color } => {
            let (s, color) = (strength(s)?, colour(color)?);
            if sea.fronts.len() == MAX_FRONTS {
                sea.fronts.remove(0);
            }
            sea.fronts.push(Front {
                strength: s,
                color,
                born: sea.clock,
                y: f32::NEG_INFINITY,
                amp: 0.0,
            });
        }
        Wave::Jolt {
            at,
            strength: s,
            color,
        } => {
            let (at, s, color) = (point(at)?, strength(s)?, colour(color)?);
            sea.push_knock(KnockKind::Jolt, at, s, color);
            sea.push_ring(at, s * 0.7, color, 0, 1.3);
        }
        Wave::Shudder { at, strength: s } => {
            let (at, s) = (point(at)?, strength(s)?);
            let dark = sea.palette.dark;
            sea.push_knock(KnockKind::Shudder, at, s, dark);
        }
        Wave::Beat { strength: s } => {
            let s = strength(s)?;
            sea.push_knock(KnockKind::Beat, [0.0, 0.0], s, Color::WHITE);
        }
    }
    Ok(())
}

/// A ring from a world point: gold without a colour, or the sea's dark when the strength is
/// negative (which darkens and sinks the scales it passes).
pub fn ripple(
    sea: &mut Sea,
    at: [f32; 2],
    strength: f32,
    color: Option<Color>,
) -> Result<(), WaveError> {
    let color = color.unwrap_or(sea.fallback(strength));
    apply(
        sea,
        Wave::Ring {
            at,
            strength,
            color,
            count: 1,
        },
    )
}

/// A wave across the whole sea, rolling up from the bottom: gold without a colour, or the
/// sea's dark when the strength is negative.
pub fn surge(sea: &mut Sea, strength: f32, color: Option<Color>) -> Result<(), WaveError> {
    let color = color.unwrap_or(sea.fallback(strength));
    apply(sea, Wave::Surge { strength, color })
}

// ---------------------------------------------------------------------------------------------
// The seam: the sea's sprites.

/// The sprites of one sea, kept by the world so they can go when their sea does.
struct Pool {
    owner: Entity,
    scales: Vec<Entity>,
    texture: String,
}

#[derive(Default)]
struct Pools {
    pools: Vec<Pool>,
    owners: Vec<Entity>,
}

/// A stable seed for the sea on `e`: the session's seed with the entity's name, or its spawn
/// order when it has none.
fn seed_for(world: &World, e: Entity) -> u64 {
    let session = world.resources.get::<Time>().map_or(0, |t| t.seed);
    let tag = match world.entities.get::<&Name>(e) {
        // FNV-1a: the same on every platform and run.
        Ok(name) => name.0.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        }),
        Err(_) => world.spawn_order(e),
    };
    splitmix(session ^ splitmix(tag))
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The sea on `e`, made now if the entity has a `kotoba_waves` but no sea yet (so a command
/// may send waves before the first frame).
pub fn sea_mut(world: &mut World, e: Entity) -> Result<hecs::RefMut<'_, Sea>, WaveError> {
    if world.entities.get::<&Sea>(e).is_err() {
        let sea = {
            let waves = world
                .entities
                .get::<&Waves>(e)
                .map_err(|_| WaveError::NoWaves {
                    entity: world.describe(e),
                })?;
            Sea::new(&waves, seed_for(world, e))?
        };
        world
            .entities
            .insert_one(e, sea)
            .map_err(|_| WaveError::NoWaves {
                entity: world.describe(e),
            })?;
    }
    world
        .entities
        .get::<&mut Sea>(e)
        .map_err(|_| WaveError::NoWaves {
            entity: world.describe(e),
        })
}

/// The per-frame update of every `kotoba_waves`: makes its [`Sea`] and sprites when missing
/// (or when its shape changed), steps the sea and writes each scale's transform and tint.
/// A sea whose entity was despawned, or lost its component, takes its sprites with it. A
/// component the sea cannot draw is reported once and left as it was.
pub fn system(world: &mut World, dt: f64) {
    let mut pools = world.resources.remove::<Pools>().unwrap_or_default();

    pools.pools.retain(|pool| {
        let keep = world.entities.satisfies::<&Waves>(pool.owner);
        if !keep {
            for &e in &pool.scales {
                let _ = world.entities.despawn(e);
            }
            let _ = world.entities.remove_one::<Sea>(pool.owner);
        }
        keep
    });

    pools.owners.clear();
    pools.owners.extend(
        world
            .entities
            .query::<(Entity, &Waves)>()
            .iter()
            .map(|(e, _)| e),
    );

    let frame = world.resources.get::<Time>().map_or(0, |t| t.frame);
    for k in 0..pools.owners.len() {
        let owner = pools.owners[k];
        if let Err(e) = prepare(world, &mut pools, owner) {
            let at = world.describe(owner);
            world
                .log()
                .warn_once(format!("{at}: {e}; the sea is left as it was"));
            continue;
        }
        let Some(pool) = pools.pools.iter_mut().find(|p| p.owner == owner) else {
            continue;
        };
        let World {
            entities,
            resources,
        } = &mut *world;
        let (Ok(waves), Ok(mut sea)) = (
            entities.get::<&Waves>(owner),
            entities.get::<&mut Sea>(owner),
        ) else {
            continue;
        };
        let idle = Pointer::default();
        let pointer = resources.get::<Pointer>().unwrap_or(&idle);
        let music = resources.get::<MusicClock>().copied().unwrap_or_default();
        sea.step(&waves, dt, frame, pointer, &music);
        let mut broken = false;
        for (&e, look) in pool.scales.iter().zip(sea.looks()) {
            let mut scale = entities.query_one::<(&mut Transform2D, &mut Sprite)>(e);
            match scale.get() {
                Ok((t, s)) => {
                    *t = Transform2D {
                        pos: fan_centre(look, waves.scale),
                        rot: 0.0,
                        scale: [look.scale, look.scale],
                        z: look.z,
                    };
                    s.tint = look.tint;
                }
                Err(_) => broken = true,
            }
        }
        if broken {
            // Something took a scale away: the pool is made again next frame.
            pool.texture.clear();
            pool.scales.clear();
        }
    }

    world.resources.insert(pools);
}

/// How much of a scale's height the texture holds, from the top: the upper half, which shows,
/// and a margin for a scale in front lifting off the one behind. The rest is always under the
/// rows in front, so it is never drawn.
pub const FAN: f32 = 0.625;

/// The beat the sea breathes on, when the component asks for one (`bpm` set): the playing
/// track's own tempo, else the component's.
fn tempo(waves: &Waves, music: &MusicClock) -> Option<f32> {
    let asked = waves.bpm?;
    let own = music
        .bpm
        .map(|b| b as f32)
        .filter(|b| b.is_finite() && *b > 0.0 && *b <= MAX_BPM);
    Some(own.unwrap_or(asked))
}

/// Where a scale's sprite goes: the centre of its upper part, above the circle's centre.
fn fan_centre(look: &Look, width: f32) -> [f32; 2] {
    [
        look.pos[0],
        look.pos[1] + width * look.scale * (0.5 - FAN / 2.0),
    ]
}

/// Makes the sea and its sprites for `owner` when they are missing or out of date.
fn prepare(world: &mut World, pools: &mut Pools, owner: Entity) -> Result<(), WaveError> {
    drop(sea_mut(world, owner)?);
    let no_waves = |world: &World| WaveError::NoWaves {
        entity: world.describe(owner),
    };
    let respawn = {
        let waves = world
            .entities
            .get::<&Waves>(owner)
            .map_err(|_| no_waves(world))?;
        let mut sea = world
            .entities
            .get::<&mut Sea>(owner)
            .map_err(|_| no_waves(world))?;
        let reshaped = sea.fit(&waves)?;
        let pool = pools.pools.iter().find(|p| p.owner == owner);
        let stale = pool
            .is_none_or(|p| reshaped || p.texture != waves.texture || p.scales.len() != sea.len());
        stale.then(|| {
            // The texture is a scale's upper part: the fan that shows.
            let size = [waves.scale, waves.scale * FAN];
            (waves.texture.clone(), size, sea.looks().to_vec())
        })
    };
    let Some((texture, size, looks)) = respawn else {
        return Ok(());
    };
    let index = match pools.pools.iter().position(|p| p.owner == owner) {
        Some(i) => {
            for &e in &pools.pools[i].scales {
                let _ = world.entities.despawn(e);
            }
            pools.pools[i].scales.clear();
            i
        }
        None => {
            pools.pools.push(Pool {
                owner,
                scales: Vec::new(),
                texture: String::new(),
            });
            pools.pools.len() - 1
        }
    };
    let mut scales = Vec::with_capacity(looks.len());
    for look in &looks {
        scales.push(world.spawn((
            BulkEntity,
            Transform2D {
                pos: fan_centre(look, size[0]),
                rot: 0.0,
                scale: [look.scale, look.scale],
                z: look.z,
            },
            Sprite {
                texture: texture.clone(),
                size,
                tint: look.tint,
                ..Sprite::default()
            },
        )));
    }
    let pool = &mut pools.pools[index];
    pool.scales = scales;
    pool.texture = texture;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kana::Kana;
    use crate::play::{Failure, MadeWord, Refusal};
    use jengine::{LogLevel, PointerEvent};
    use proptest::prelude::*;

    /// A sea with nothing of its own moving: no swell, glints, gusts or hand.
    fn still() -> Waves {
        Waves {
            swell: 0.0,
            glints: 0.0,
            hover: 0.0,
            ..Waves::default()
        }
    }

    fn idle() -> Pointer {
        Pointer::default()
    }

    /// Steps `sea` for `seconds` at 60 Hz with no pointer or music.
    fn run(sea: &mut Sea, waves: &Waves, seconds: f64) {
        let frames = (seconds * 60.0).round() as u64;
        for _ in 0..frames {
            sea.step(waves, 1.0 / 60.0, 0, &idle(), &MusicClock::default());
        }
    }

    fn lift_of(sea: &Sea, i: usize) -> f32 {
        sea.looks[i].pos[1] - sea.spots[i].base[1]
    }

    fn moved(sea: &Sea, i: usize) -> f32 {
        dist(sea.looks[i].pos, sea.spots[i].base)
    }

    fn luma(c: Color) -> f32 {
        0.3 * c.0[0] + 0.59 * c.0[1] + 0.11 * c.0[2]
    }

    fn colour_distance(a: Color, b: Color) -> f32 {
        (0..3).map(|i| (a.0[i] - b.0[i]).abs()).sum()
    }

    /// The scale most moved from its place, and by how much.
    fn most_moved(sea: &Sea) -> (usize, f32) {
        (0..sea.len())
            .map(|i| (i, moved(sea, i)))
            .fold((0, 0.0), |a, b| if b.1 > a.1 { b } else { a })
    }

    // --- The pattern --------------------------------------------------------------------

    #[test]
    fn rows_lie_a_quarter_scale_apart_each_offset_by_half_a_scale() {
        let w = Waves::default();
        let spots = lay_out(w.area, w.centre, w.scale, w.z);
        let mut rows: Vec<Vec<Spot>> = Vec::new();
        for s in &spots {
            match rows.last_mut() {
                Some(row) if row[0].row == s.row => row.push(*s),
                _ => rows.push(vec![*s]),
            }
        }
        for pair in rows.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert!((a[0].base[1] - b[0].base[1] - w.scale / 4.0).abs() < 1e-4);
            // Within a row, one scale apart; the next row sits half a scale along.
            assert!((a[1].base[0] - a[0].base[0] - w.scale).abs() < 1e-4);
            let shift = (b[0].base[0] - a[0].base[0]).rem_euclid(w.scale);
            assert!((shift - w.scale / 2.0).abs() < 1e-4, "shift {shift}");
        }
    }

    #[test]
    fn lower_rows_draw_in_front_within_the_z_band() {
        let w = Waves::default();
        let spots = lay_out(w.area, w.centre, w.scale, w.z);
        for pair in spots.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if b.row != a.row {
                assert_eq!(b.row, a.row + 1);
                assert!(b.base[1] < a.base[1], "a later row lies further down");
                assert!(b.z > a.z, "a later row draws in front");
            }
        }
        assert!(spots.iter().all(|s| s.z >= w.z && s.z < w.z + Z_BAND));
    }

    /// The scale drawn on top at `p`: the last in draw order whose disc holds it.
    fn top_at(spots: &[Spot], r: f32, p: [f32; 2]) -> Option<usize> {
        spots.iter().rposition(|s| dist(s.base, p) <= r)
    }

    #[test]
    fn each_scale_shows_its_upper_fan_and_hides_under_the_rows_in_front() {
        let w = Waves::default();
        let r = w.scale / 2.0;
        let spots = lay_out(w.area, w.centre, w.scale, w.z);
        let inside = |p: [f32; 2]| p[0].abs() < w.area[0] / 2.0 && p[1].abs() < w.area[1] / 2.0;
        let mut checked = 0;
        for (i, s) in spots.iter().enumerate() {
            let above = [s.base[0], s.base[1] + 0.1 * r];
            let below = [s.base[0], s.base[1] - 0.3 * r];
            if inside(above) && inside(below) {
                assert_eq!(top_at(&spots, r, above), Some(i), "its fan shows");
                assert!(
                    top_at(&spots, r, below).unwrap() > i,
                    "its lower part is hidden"
                );
                checked += 1;
            }
        }
        assert!(checked > 200, "{checked}");
    }

    #[test]
    fn the_scales_cover_the_whole_area() {
        let w = Waves::default();
        let r = w.scale / 2.0;
        let spots = lay_out(w.area, w.centre, w.scale, w.z);
        for iy in 0..=60 {
            for ix in 0..=100 {
                let p = [
                    -w.area[0] / 2.0 + w.area[0] * ix as f32 / 100.0,
                    -w.area[1] / 2.0 + w.area[1] * iy as f32 / 60.0,
                ];
                assert!(top_at(&spots, r, p).is_some(), "{p:?} is bare");
            }
        }
        assert!(spots.len() <= scale_count(w.area, w.scale));
    }

    #[test]
    fn the_default_sea_is_a_few_hundred_scales() {
        let sea = Sea::new(&Waves::default(), 1).unwrap();
        assert!((300..=1000).contains(&sea.len()), "{}", sea.len());
    }

    // --- The resting sea ----------------------------------------------------------------

    #[test]
    fn a_still_sea_is_the_same_everywhere() {
        let w = still();
        let mut sea = Sea::new(&w, 1).unwrap();
        run(&mut sea, &w, 2.0);
        let first = sea.looks[0].tint;
        for i in 0..sea.len() {
            assert_eq!(sea.looks[i].tint, first);
            assert_eq!(sea.looks[i].pos, sea.spots[i].base);
            assert_eq!(sea.looks[i].scale, 1.0);
        }
    }

    #[test]
    fn swells_lift_and_brighten_the_scales_they_pass() {
        let w = Waves {
            swell: 1.0,
            ..still()
        };
        let mut sea = Sea::new(&w, 1).unwrap();
        run(&mut sea, &w, 0.5);
        let lifts: Vec<f32> = (0..sea.len()).map(|i| lift_of(&sea, i)).collect();
        let high = (0..sea.len())
            .max_by(|&a, &b| lifts[a].total_cmp(&lifts[b]))
            .unwrap();
        let low = (0..sea.len())
            .min_by(|&a, &b| lifts[a].total_cmp(&lifts[b]))
            .unwrap();
        assert!(lifts[high] > 0.0 && lifts[low] < 0.0);
        assert!(luma(sea.looks[high].tint) > luma(sea.looks[low].tint));
        assert!(sea.looks[high].scale > sea.looks[low].scale);
        // And the crests travel.
        let before = sea.looks.clone();
        run(&mut sea, &w, 1.0);
        assert_ne!(before, sea.looks);
    }

    #[test]
    fn a_rougher_sea_lifts_higher() {
        let highest = |swell: f32| {
            let w = Waves { swell, ..still() };
            let mut sea = Sea::new(&w, 1).unwrap();
            run(&mut sea, &w, 0.2);
            (0..sea.len())
                .map(|i| lift_of(&sea, i).abs())
                .fold(0.0, f32::max)
        };
        assert!(highest(4.0) > 2.0 * highest(1.0));
        assert_eq!(highest(0.0), 0.0);
    }

    #[test]
    fn glints_light_one_scale_at_a_time_and_fade() {
        let w = Waves {
            glints: 2.0,
            ..still()
        };
        let mut sea = Sea::new(&w, 3).unwrap();
        let rest = sea.looks[0].tint;
        let mut seen = 0;
        for _ in 0..300 {
            sea.step(&w, 1.0 / 60.0, 0, &idle(), &MusicClock::default());
            let lit = sea
                .looks
                .iter()
                .filter(|l| luma(l.tint) > luma(rest))
                .count();
            seen = seen.max(lit);
        }
        assert!((1..=4).contains(&seen), "{seen}");
        let glinting = sea.glint.iter().filter(|g| **g > 0.0).count();
        assert!(glinting <= 2, "a glint lasts well under a second");
    }

    #[test]
    fn a_gust_rolls_in_from_one_side() {
        let w = Waves {
            swell: 1.0,
            gusts: [0.5, 0.5],
            ..still()
        };
        let mut sea = Sea::new(&w, 5).unwrap();
        run(&mut sea, &w, 0.6);
        let gust = sea.gust.expect("a gust is due after half a second");
        let x0 = gust.x;
        run(&mut sea, &w, 0.5);
        let x1 = sea.gust.unwrap().x;
        assert_eq!(
            (x1 - x0).signum(),
            gust.dir,
            "it travels the way it came in"
        );
        run(&mut sea, &w, 3.0);
        // Gone past the far side, and the next one came in on its own.
        assert!(sea.gust.is_none_or(|g| g.born > gust.born));
    }

    // --- The beat and the hand ------------------------------------------------------------

    #[test]
    fn the_sea_breathes_on_the_music_and_holds_still_when_it_stops() {
        let w = Waves {
            bpm: Some(120.0),
            ..still()
        };
        let mut sea = Sea::new(&w, 1).unwrap();
        let playing = |position: f64| MusicClock {
            playing: true,
            position,
            bpm: None,
        };
        for f in 0..60 {
            sea.step(&w, 1.0 / 60.0, 0, &idle(), &playing(f as f64 / 60.0));
        }
        // At the centre, just after the beat (2 beats a second) against just before the next.
        let middle = (0..sea.len())
            .min_by(|&a, &b| {
                sea.spots[a]
                    .from_centre
                    .total_cmp(&sea.spots[b].from_centre)
            })
            .unwrap();
        sea.step(&w, 1.0 / 60.0, 0, &idle(), &playing(1.05));
        let on = lift_of(&sea, middle);
        sea.step(&w, 1.0 / 60.0, 0, &idle(), &playing(1.45));
        let late = lift_of(&sea, middle);
        assert!(on > 3.0 * late, "{on} {late}");
        // Stopped: the breath settles and the playhead no longer moves anything.
        let stopped = |position: f64| MusicClock {
            playing: false,
            position,
            bpm: None,
        };
        for _ in 0..120 {
            sea.step(&w, 1.0 / 60.0, 0, &idle(), &stopped(1.5));
        }
        let a = sea.looks.clone();
        sea.step(&w, 1.0 / 60.0, 0, &idle(), &stopped(3.0));
        assert_eq!(a, sea.looks);
        assert!(sea.music < 0.01);
    }

    #[test]
    fn without_bpm_the_sea_does_not_breathe_to_the_music() {
        let w = still();
        assert_eq!(w.bpm, None);
        let mut sea = Sea::new(&w, 1).unwrap();
        let clock = |position: f64| MusicClock {
            playing: true,
            position,
            bpm: Some(120.0),
        };
        let mut quiet = Sea::new(&w, 1).unwrap();
        for f in 0..90 {
            sea.step(&w, 1.0 / 60.0, 0, &idle(), &clock(f as f64 / 60.0));
            quiet.step(&w, 1.0 / 60.0, 0, &idle(), &MusicClock::default());
        }
        assert_eq!(sea.looks, quiet.looks);
        assert!(sea.music < 0.01);
    }

    #[test]
    fn the_tracks_own_tempo_leads_and_a_paused_track_holds_the_sea_still() {
        // The component asks to breathe (at 96 bpm); the track's own 120 bpm is the beat.
        let w = Waves {
            bpm: Some(96.0),
            ..still()
        };
        let mut sea = Sea::new(&w, 1).unwrap();
        let clock = |playing: bool, position: f64| MusicClock {
            playing,
            position,
            bpm: Some(120.0),
        };
        for f in 0..60 {
            sea.step(&w, 1.0 / 60.0, 0, &idle(), &clock(true, f as f64 / 60.0));
        }
        let middle = (0..sea.len())
            .min_by(|&a, &b| {
                sea.spots[a]
                    .from_centre
                    .total_cmp(&sea.spots[b].from_centre)
            })
            .unwrap();
        sea.step(&w, 1.0 / 60.0, 0, &idle(), &clock(true, 1.05));
        let on = lift_of(&sea, middle);
        sea.step(&w, 1.0 / 60.0, 0, &idle(), &clock(true, 1.45));
        let late = lift_of(&sea, middle);
        assert!(
            on > 3.0 * late,
            "the track's beat moves the sea: {on} {late}"
        );
        // Paused: the playhead stays put, the breath settles, and nothing moves after.
        for _ in 0..120 {
            sea.step(&w, 1.0 / 60.0, 0, &idle(), &clock(false, 1.45));
        }
        let held = sea.looks.clone();
        sea.step(&w, 1.0 / 60.0, 0, &idle(), &clock(false, 1.45));
        assert_eq!(held, sea.looks);
    }

    fn pointer_at(frame: u64, events: &[(PointerPhase, [f32; 2])]) -> Pointer {
        let mut p = Pointer::default();
        p.frame(
            frame,
            events
                .iter()
                .map(|&(phase, pos)| PointerEvent { phase, pos }),
        );
        p
    }

    #[test]
    fn scales_rise_round_the_pointer_and_a_resting_pointer_is_forgotten() {
        let w = Waves {
            hover: 1.0,
            ..still()
        };
        let mut sea = Sea::new(&w, 1).unwrap();
        let at = [0.3, 0.4];
        let mut pointer = pointer_at(1, &[(PointerPhase::Hover, at)]);
        for frame in 1..20 {
            sea.step(&w, 1.0 / 60.0, frame, &pointer, &MusicClock::default());
            pointer.events.clear();
        }
        let (i, _) = most_moved(&sea);
        assert!(lift_of(&sea, i) > 0.0);
        assert!(dist(sea.spots[i].base, at) < w.scale);
        // Left where it was for seconds (a finger lifted): nothing stays raised.
        for frame in 20..400 {
            sea.step(&w, 1.0 / 60.0, frame, &pointer, &MusicClock::default());
        }
        assert!(most_moved(&sea).1 < 1e-3);
    }

    #[test]
    fn a_quick_sweep_leaves_a_wake_and_a_slow_one_does_not() {
        let w = Waves {
            hover: 1.0,
            ..still()
        };
        let sweep = |step: f32| {
            let mut sea = Sea::new(&w, 1).unwrap();
            for frame in 0..30u64 {
                let p = pointer_at(
                    frame,
                    &[(PointerPhase::Hover, [-4.0 + step * frame as f32, 0.0])],
                );
                sea.step(&w, 1.0 / 60.0, frame, &p, &MusicClock::default());
            }
            sea.rings.len()
        };
        // A third of a unit a frame is 20 units a second: a sweep.
        assert!(sweep(0.3) >= 5);
        // A hundredth of a unit a frame is a drift.
        assert_eq!(sweep(0.01), 0);
    }

    #[test]
    fn a_press_on_open_sea_splashes_but_not_on_land() {
        let w = Waves {
            hover: 1.0,
            ..still()
        };
        let mut sea = Sea::new(&w, 1).unwrap();
        sea.set_land(&[[-2.0, -2.0, 2.0, 2.0]]);
        let press = |at| pointer_at(1, &[(PointerPhase::Press, at)]);
        sea.step(
            &w,
            1.0 / 60.0,
            1,
            &press([0.5, 0.5]),
            &MusicClock::default(),
        );
        assert!(sea.is_calm(), "the board is land");
        sea.step(
            &w,
            1.0 / 60.0,
            1,
            &press([5.0, 3.0]),
            &MusicClock::default(),
        );
        assert_eq!(sea.rings.len(), 1);
        assert_eq!(sea.jolts.len(), 1);
        assert_eq!(sea.rings[0].at, [5.0, 3.0]);
    }

    // --- Rings and the game's waves -------------------------------------------------------

    #[test]
    fn a_ring_spreads_outward_and_fades_as_it_goes() {
        let w = still();
        let mut sea = Sea::new(&w, 1).unwrap();
        let rest = sea.looks.clone();
        let at = [0.0, 0.0];
        apply(
            &mut sea,
            Wave::Ring {
                at,
                strength: 1.0,
                color: w.gold,
                count: 1,
            },
        )
        .unwrap();
        run(&mut sea, &w, 0.4);
        let (i1, v1) = most_moved(&sea);
        let d1 = dist(sea.spots[i1].base, at);
        run(&mut sea, &w, 0.6);
        let (i2, v2) = most_moved(&sea);
        let d2 = dist(sea.spots[i2].base, at);
        assert!(d2 > d1 + w.scale, "{d1} then {d2}");
        assert!(v2 < v1, "{v1} then {v2}");
        // Pushed outward: the moved scale sits further from the ring's start than its place.
        assert!(dist(sea.looks[i2].pos, at) > d2);
        run(&mut sea, &w, 12.0);
        assert!(sea.is_calm());
        assert_eq!(sea.looks, rest);
    }

    #[test]
    fn a_ring_tints_the_scales_it_passes_toward_its_colour() {
        let w = still();
        let mut sea = Sea::new(&w, 1).unwrap();
        let rest = sea.looks[0].tint;
        apply(
            &mut sea,
            Wave::Ring {
                at: [0.0, 0.0],
                strength: 1.5,
                color: w.coral,
                count: 1,
            },
        )
        .unwrap();
        run(&mut sea, &w, 0.5);
        let (i, _) = most_moved(&sea);
        let tint = sea.looks[i].tint;
        assert!(colour_distance(tint, w.coral) < colour_distance(rest, w.coral) / 2.0);
    }

    #[test]
    fn a_negative_ripple_darkens_in_the_seas_dark() {
        let w = still();
        let mut sea = Sea::new(&w, 1).unwrap();
        let rest = sea.looks[0].tint;
        ripple(&mut sea, [0.0, 0.0], -1.5, None).unwrap();
        assert_eq!(sea.rings[0].color, w.dark);
        run(&mut sea, &w, 0.5);
        let (i, _) = most_moved(&sea);
        assert!(lift_of(&sea, i) < 0.0, "it sinks");
        assert!(luma(sea.looks[i].tint) < luma(rest));
        // Without a colour a rising ring is gold.
        ripple(&mut sea, [0.0, 0.0], 1.0, None).unwrap();
        assert_eq!(sea.rings.last().unwrap().color, w.gold);
    }

    #[test]
    fn a_count_sends_that_many_rings_a_moment_apart() {
        let mut sea = Sea::new(&still(), 1).unwrap();
        let ring = |count| Wave::Ring {
            at: [1.0, 2.0],
            strength: 1.0,
            color: Color::WHITE,
            count,
        };
        apply(&mut sea, ring(3)).unwrap();
        let born: Vec<f64> = sea.rings.iter().map(|r| r.born).collect();
        assert_eq!(born, [0.0, RING_GAP, 2.0 * RING_GAP]);
        assert!(sea.rings[2].strength < sea.rings[0].strength);
        sea.rings.clear();
        apply(&mut sea, ring(0)).unwrap();
        apply(&mut sea, ring(1000)).unwrap();
        assert_eq!(sea.rings.len(), 1 + MAX_RING_COUNT as usize);
    }

    #[test]
    fn a_surge_rolls_up_the_whole_sea() {
        let w = still();
        let mut sea = Sea::new(&w, 1).unwrap();
        surge(&mut sea, 1.0, None).unwrap();
        assert_eq!(sea.fronts[0].color, w.gold);
        run(&mut sea, &w, 0.5);
        let y0 = sea.fronts[0].y;
        let (i, _) = most_moved(&sea);
        assert!((sea.spots[i].base[1] + w.scale / 4.0 - y0).abs() < 2.0 * w.scale);
        run(&mut sea, &w, 0.5);
        assert!(sea.fronts[0].y > y0);
        run(&mut sea, &w, 2.0);
        assert!(sea.is_calm());
        surge(&mut sea, -1.0, None).unwrap();
        assert_eq!(sea.fronts[0].color, w.dark);
    }

    #[test]
    fn jolts_shudders_and_beats_move_the_sea_and_settle() {
        let w = still();
        for wave in [
            Wave::Jolt {
                at: [1.0, 1.0],
                strength: 2.0,
                color: w.hurt,
            },
            Wave::Shudder {
                at: [1.0, 1.0],
                strength: 1.0,
            },
            Wave::Beat { strength: 1.0 },
        ] {
            let mut sea = Sea::new(&w, 1).unwrap();
            let rest = sea.looks.clone();
            apply(&mut sea, wave).unwrap();
            run(&mut sea, &w, 0.1);
            assert!(
                most_moved(&sea).1 > 0.01 * w.scale,
                "{wave:?} moves the sea"
            );
            run(&mut sea, &w, 8.0);
            assert!(sea.is_calm(), "{wave:?} settles");
            assert_eq!(sea.looks, rest);
        }
    }

    #[test]
    fn waves_with_a_non_finite_number_are_refused_and_change_nothing() {
        let mut sea = Sea::new(&still(), 1).unwrap();
        let bad = [
            Wave::Ring {
                at: [f32::NAN, 0.0],
                strength: 1.0,
                color: Color::WHITE,
                count: 1,
            },
            Wave::Ring {
                at: [0.0, 0.0],
                strength: f32::INFINITY,
                color: Color::WHITE,
                count: 1,
            },
            Wave::Surge {
                strength: 1.0,
                color: Color([f32::NAN, 0.0, 0.0, 1.0]),
            },
            Wave::Jolt {
                at: [0.0, f32::NEG_INFINITY],
                strength: 1.0,
                color: Color::WHITE,
            },
            Wave::Shudder {
                at: [0.0, 0.0],
                strength: f32::NAN,
            },
            Wave::Beat { strength: f32::NAN },
        ];
        for wave in bad {
            let err = apply(&mut sea, wave).unwrap_err();
            assert!(err.to_string().contains("wave"), "{err}");
            assert!(sea.is_calm(), "{wave:?} changed the sea");
        }
        assert!(ripple(&mut sea, [1e39f64 as f32, 0.0], 1.0, None).is_err());
        assert!(surge(&mut sea, f32::NAN, None).is_err());
        assert!(sea.is_calm());
        // Strength is held to four either way, a colour's channels to 0..=1.
        apply(&mut sea, Wave::Beat { strength: 100.0 }).unwrap();
        assert_eq!(sea.beats[0].strength, MAX_STRENGTH);
        surge(&mut sea, f32::MAX, Some(Color([f32::MAX, -3.0, 0.5, 1.0]))).unwrap();
        assert_eq!(sea.fronts[0].color, Color([1.0, 0.0, 0.5, 1.0]));
        assert_eq!(sea.fronts[0].strength, MAX_STRENGTH);
    }

    #[test]
    fn set_swell_clamps_to_zero_through_four_and_refuses_nan() {
        let mut w = Waves::default();
        w.set_swell(9.0).unwrap();
        assert_eq!(w.swell, 4.0);
        w.set_swell(-1.0).unwrap();
        assert_eq!(w.swell, 0.0);
        w.set_swell(2.5).unwrap();
        assert_eq!(w.swell, 2.5);
        w.set_swell(f32::INFINITY).unwrap();
        assert_eq!(w.swell, 4.0);
        let err = w.set_swell(f32::NAN).unwrap_err();
        assert_eq!(w.swell, 4.0);
        assert_eq!(
            err.to_string(),
            "kotoba_waves: swell must be a finite number, got NaN"
        );
    }

    // --- waves_for ------------------------------------------------------------------------

    fn ctx() -> WaveContext {
        WaveContext {
            origin: [-3.0, 3.0],
            cell: 0.5,
            board_centre: [0.0, 0.2],
            hands: [[0.0, -3.5], [0.0, 3.7]],
            you: Some(0),
            tried: [None, None],
            palette: Palette::default(),
        }
    }

    fn word(len: usize) -> MadeWord {
        MadeWord {
            reading: "か".repeat(len),
            written: String::new(),
            meaning: String::new(),
            points: 3,
            cells: (0..len).map(|x| Pos::new(x, 0)).collect(),
        }
    }

    fn placed(player: usize, points: u32, combo: u32, lens: &[usize]) -> Event {
        Event::Placed {
            player,
            pos: Pos::new(2, 4),
            kana: Kana::from_char('か').unwrap(),
            points,
            damage: points,
            combo,
            words: lens.iter().map(|&n| word(n)).collect(),
        }
    }

    fn ring_of(wave: &Wave) -> (f32, Color, u32, [f32; 2]) {
        match *wave {
            Wave::Ring {
                at,
                strength,
                color,
                count,
            } => (strength, color, count, at),
            ref other => panic!("not a ring: {other:?}"),
        }
    }

    #[test]
    fn a_word_rings_from_its_tile_gold_for_player_one_coral_for_player_two() {
        let c = ctx();
        let one = waves_for(&[placed(0, 6, 0, &[3])], &c);
        assert_eq!(one.len(), 1);
        let (_, colour, count, at) = ring_of(&one[0]);
        assert_eq!(colour, c.palette.gold);
        assert_eq!(count, 1);
        assert_eq!(at, [-3.0 + 2.0 * 0.5, 3.0 - 4.0 * 0.5]);
        let two = waves_for(&[placed(1, 6, 0, &[3])], &c);
        assert_eq!(ring_of(&two[0]).1, c.palette.coral);
    }

    #[test]
    fn more_points_and_a_longer_combo_ring_harder() {
        let c = ctx();
        let strength =
            |points, combo| ring_of(&waves_for(&[placed(0, points, combo, &[2])], &c)[0]).0;
        assert!(strength(12, 0) > strength(4, 0));
        assert!(strength(4, 1) > strength(4, 0));
        assert!(strength(4, 3) > strength(4, 1));
    }

    #[test]
    fn each_kana_past_three_adds_a_ring() {
        let c = ctx();
        let count = |lens: &[usize]| ring_of(&waves_for(&[placed(0, 5, 0, lens)], &c)[0]).2;
        assert_eq!(count(&[2]), 1);
        assert_eq!(count(&[3]), 1);
        assert_eq!(count(&[4]), 2);
        assert_eq!(
            count(&[3, 6]),
            4,
            "the longest word of the placement counts"
        );
    }

    #[test]
    fn a_combo_of_three_surges_in_the_players_colour() {
        let c = ctx();
        assert_eq!(waves_for(&[placed(1, 5, 1, &[2])], &c).len(), 1);
        let third = waves_for(&[placed(1, 5, 2, &[2])], &c);
        assert_eq!(
            third[1],
            Wave::Surge {
                strength: 0.6,
                color: c.palette.coral
            }
        );
    }

    #[test]
    fn a_hit_jolts_under_the_hurt_hand_red_for_your_own_hurt() {
        let c = ctx();
        let hit = |to, damage| waves_for(&[Event::Hit { to, damage, hp: 50 }], &c);
        match hit(0, 10)[..] {
            [Wave::Jolt { at, color, .. }] => {
                assert_eq!(at, c.hands[0]);
                assert_eq!(color, c.palette.hurt);
            }
            ref other => panic!("{other:?}"),
        }
        match hit(1, 10)[..] {
            [Wave::Jolt { at, color, .. }] => {
                assert_eq!(at, c.hands[1]);
                assert_eq!(color, c.palette.gold, "your word, your colour");
            }
            ref other => panic!("{other:?}"),
        }
        let strength = |damage| match hit(1, damage)[0] {
            Wave::Jolt { strength, .. } => strength,
            _ => unreachable!(),
        };
        assert!(strength(30) > strength(5));
        assert!(hit(1, 0).is_empty(), "no damage, no jolt");
        // Two bots: nobody's hurt is red.
        let demo = WaveContext { you: None, ..c };
        assert!(matches!(
            waves_for(&[Event::Hit { to: 0, damage: 5, hp: 1 }], &demo)[0],
            Wave::Jolt { color, .. } if color == c.palette.coral
        ));
    }

    #[test]
    fn a_refused_tile_sends_a_dark_ring_and_a_shudder() {
        let mut c = ctx();
        let refused = Event::Refused {
            player: 0,
            why: Refusal::NoWord,
        };
        let out = waves_for(std::slice::from_ref(&refused), &c);
        let (strength, colour, _, at) = ring_of(&out[0]);
        assert!(strength < 0.0);
        assert_eq!(colour, c.palette.dark);
        assert_eq!(at, c.hands[0], "no aim known: from the hand");
        assert_eq!(out[1], Wave::Shudder { at, strength: 1.0 });
        c.tried[0] = Some([1.0, 1.5]);
        let out = waves_for(&[refused], &c);
        assert_eq!(ring_of(&out[0]).3, [1.0, 1.5]);
    }

    #[test]
    fn the_countdown_beats_once_a_second_and_go_lands_like_a_drum() {
        let c = ctx();
        let beats = waves_for(
            &[
                Event::Countdown(3),
                Event::Countdown(2),
                Event::Countdown(1),
            ],
            &c,
        );
        assert_eq!(beats, vec![Wave::Beat { strength: 0.7 }; 3]);
        let go = waves_for(&[Event::Countdown(0)], &c);
        assert!(matches!(go[0], Wave::Beat { strength } if strength > 0.7));
        assert!(matches!(go[1], Wave::Jolt { at, .. } if at == c.board_centre));
    }

    #[test]
    fn a_clear_sends_three_golden_rings_and_a_surge() {
        let c = ctx();
        let out = waves_for(
            &[Event::Cleared {
                score: 100,
                bonus: 20,
                time_left: 10.0,
            }],
            &c,
        );
        let (_, colour, count, at) = ring_of(&out[0]);
        assert_eq!((colour, count, at), (c.palette.gold, 3, c.board_centre));
        assert!(
            matches!(out[1], Wave::Surge { color, strength } if color == c.palette.gold && strength > 0.0)
        );
    }

    #[test]
    fn a_loss_sends_a_dark_surge() {
        let c = ctx();
        for why in [Failure::Time, Failure::Stuck] {
            let out = waves_for(&[Event::Failed { why }], &c);
            assert_eq!(
                out,
                [Wave::Surge {
                    strength: -1.0,
                    color: c.palette.dark
                }]
            );
        }
    }

    #[test]
    fn a_knockout_rings_and_surges_in_the_winners_colour_and_strikes_the_loser() {
        let c = ctx();
        let out = waves_for(
            &[Event::Over {
                winner: Some(1),
                why: Ending::Ko,
            }],
            &c,
        );
        let (_, colour, count, at) = ring_of(&out[0]);
        assert_eq!((colour, count, at), (c.palette.coral, 3, c.hands[1]));
        assert!(matches!(out[1], Wave::Surge { color, .. } if color == c.palette.coral));
        match out[2] {
            Wave::Jolt {
                at,
                color,
                strength,
            } => {
                assert_eq!(at, c.hands[0]);
                assert_eq!(color, c.palette.hurt, "you lost: your hurt");
                assert!(strength >= 2.0);
            }
            ref other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_win_on_time_has_no_blow_and_a_draw_a_quiet_surge() {
        let c = ctx();
        let out = waves_for(
            &[Event::Over {
                winner: Some(0),
                why: Ending::Time,
            }],
            &c,
        );
        assert_eq!(out.len(), 2);
        assert_eq!(ring_of(&out[0]).1, c.palette.gold);
        let draw = waves_for(
            &[Event::Over {
                winner: None,
                why: Ending::Full,
            }],
            &c,
        );
        assert!(matches!(draw[..], [Wave::Surge { color, .. }] if color == c.palette.light));
    }

    #[test]
    fn a_start_a_turn_and_a_swap_stir_the_sea_a_little() {
        let c = ctx();
        let k = Kana::from_char('か').unwrap();
        let out = waves_for(
            &[
                Event::Started,
                Event::Turned {
                    player: 1,
                    slot: 0,
                    kana: k,
                },
                Event::Swapped {
                    player: 0,
                    slot: 2,
                    kana: k,
                },
            ],
            &c,
        );
        assert!(matches!(out[0], Wave::Surge { .. }));
        let (strength, _, _, at) = ring_of(&out[1]);
        assert!(strength < 0.5);
        assert_eq!(at, c.hands[1]);
        assert!(matches!(out[2], Wave::Shudder { at, .. } if at == c.hands[0]));
        assert!(waves_for(&[], &c).is_empty());
    }

    // --- Replays ---------------------------------------------------------------------------

    /// A minute of a busy sea, frame by frame.
    fn film(seed: u64) -> Vec<Vec<Look>> {
        let w = Waves {
            swell: 2.0,
            glints: 5.0,
            gusts: [1.0, 2.0],
            bpm: Some(100.0),
            ..Waves::default()
        };
        let mut sea = Sea::new(&w, seed).unwrap();
        let mut frames = Vec::new();
        for f in 0..240u64 {
            let p = pointer_at(f, &[(PointerPhase::Hover, [f as f32 * 0.2 - 8.0, 1.0])]);
            let music = MusicClock {
                playing: true,
                position: f as f64 / 60.0,
                bpm: None,
            };
            if f % 50 == 0 {
                ripple(&mut sea, [0.0, 0.0], 1.0, None).unwrap();
            }
            sea.step(&w, 1.0 / 60.0, f, &p, &music);
            frames.push(sea.looks.clone());
        }
        frames
    }

    #[test]
    fn the_same_seed_gives_the_same_frames() {
        assert!(film(11) == film(11));
    }

    #[test]
    fn another_seed_gives_another_sea() {
        assert!(film(11) != film(12));
    }

    // --- The component ------------------------------------------------------------------

    #[test]
    fn the_component_reads_defaults_and_refuses_unknown_keys() {
        let w: Waves = serde_json::from_str(r#"{"area": [22, 13], "bpm": 96}"#).unwrap();
        assert_eq!(w.area, [22.0, 13.0]);
        assert_eq!(w.bpm, Some(96.0));
        assert_eq!(w.scale, Waves::default().scale);
        assert!(w.check().is_ok());
        let err = serde_json::from_str::<Waves>(r#"{"swel": 2}"#).unwrap_err();
        assert!(err.to_string().contains("swel"), "{err}");
        let back: Waves = serde_json::from_value(serde_json::to_value(&w).unwrap()).unwrap();
        assert_eq!(back, w);
    }

    #[test]
    fn bad_fields_are_refused_naming_the_field() {
        let cases: [(Waves, &str); 9] = [
            (
                Waves {
                    scale: 0.0,
                    ..Waves::default()
                },
                "kotoba_waves.scale must be at least",
            ),
            (
                Waves {
                    area: [f32::NAN, 1.0],
                    ..Waves::default()
                },
                "area[0] must be a finite number",
            ),
            (
                Waves {
                    swell: 5.0,
                    ..Waves::default()
                },
                "kotoba_waves.swell must be from 0 to 4, got 5",
            ),
            (
                Waves {
                    gusts: [3.0, 2.0],
                    ..Waves::default()
                },
                "kotoba_waves.gusts[1] must be at least 3, got 2",
            ),
            (
                Waves {
                    gusts: [0.0, 2.0],
                    ..Waves::default()
                },
                "kotoba_waves.gusts[0] must be at least 0.5",
            ),
            (
                Waves {
                    bpm: Some(-1.0),
                    ..Waves::default()
                },
                "kotoba_waves.bpm must be from",
            ),
            (
                Waves {
                    texture: "../x.png".into(),
                    ..Waves::default()
                },
                "kotoba_waves.texture: \"../x.png\" leaves its folder",
            ),
            (
                Waves {
                    dark: Color([0.0, f32::NAN, 0.0, 1.0]),
                    ..Waves::default()
                },
                "kotoba_waves.dark must be a colour",
            ),
            (
                Waves {
                    area: [1e6, 1e6],
                    ..Waves::default()
                },
                "takes",
            ),
        ];
        for (w, expected) in cases {
            let err = w.check().unwrap_err().to_string();
            assert!(err.contains(expected), "{err:?} lacks {expected:?}");
            assert!(Sea::new(&w, 1).is_err());
        }
    }

    #[test]
    fn a_sea_refuses_a_component_gone_bad_and_keeps_its_looks() {
        let w = Waves::default();
        let mut sea = Sea::new(&w, 1).unwrap();
        run(&mut sea, &w, 0.5);
        let before = (sea.looks.clone(), sea.clock);
        let bad = Waves {
            swell_length: 0.0,
            ..w.clone()
        };
        sea.step(&bad, 1.0 / 60.0, 0, &idle(), &MusicClock::default());
        assert!(sea.fit(&bad).is_err());
        assert_eq!((sea.looks.clone(), sea.clock), before);
        assert_eq!(sea.fit(&w), Ok(false));
        let wider = Waves {
            area: [30.0, 12.0],
            ..w
        };
        assert_eq!(sea.fit(&wider), Ok(true));
        assert_eq!(
            sea.len(),
            lay_out(wider.area, wider.centre, wider.scale, wider.z).len()
        );
    }

    // --- The system -----------------------------------------------------------------------

    fn scales(world: &World) -> Vec<(Transform2D, Sprite)> {
        world
            .entities
            .query::<(&BulkEntity, &Transform2D, &Sprite)>()
            .iter()
            .map(|(_, t, s)| (*t, s.clone()))
            .collect()
    }

    fn frame(world: &mut World) {
        let time = world.resources.get_mut::<Time>().unwrap();
        time.frame += 1;
        let dt = time.dt;
        system(world, dt);
    }

    #[test]
    fn the_system_spawns_one_sprite_per_scale_once_and_moves_them() {
        let mut world = World::new();
        let e = world.spawn((Name("sea".into()), Waves::default()));
        frame(&mut world);
        let count = world.entities.get::<&Sea>(e).unwrap().len();
        let first = scales(&world);
        assert_eq!(first.len(), count);
        assert!(first.iter().all(|(t, s)| s.texture == "scale.png"
            && s.size == [1.35, 1.35 * FAN]
            && t.z >= -10.0
            && t.z < -9.0));
        let entities = world.entities.len();
        for _ in 0..30 {
            frame(&mut world);
        }
        assert_eq!(world.entities.len(), entities, "the pool is made once");
        assert_ne!(scales(&world), first, "and moves");
        // The sprites draw exactly what the sea says.
        let sea = world.entities.get::<&Sea>(e).unwrap();
        let mut drawn: Vec<[f32; 2]> = scales(&world).iter().map(|(t, _)| t.pos).collect();
        let width = Waves::default().scale;
        let mut looks: Vec<[f32; 2]> = sea.looks().iter().map(|l| fan_centre(l, width)).collect();
        drawn.sort_by(|a, b| a.partial_cmp(b).unwrap());
        looks.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(drawn, looks);
    }

    #[test]
    fn a_despawned_sea_takes_its_scales_with_it() {
        let mut world = World::new();
        let e = world.spawn((Waves::default(),));
        let other = world.spawn((Waves {
            area: [4.0, 4.0],
            ..Waves::default()
        },));
        frame(&mut world);
        let small = world.entities.get::<&Sea>(other).unwrap().len();
        world.entities.despawn(e).unwrap();
        frame(&mut world);
        assert_eq!(scales(&world).len(), small);
        // A sea whose component was taken off goes too, and its running state with it.
        world.entities.remove_one::<Waves>(other).unwrap();
        frame(&mut world);
        assert!(scales(&world).is_empty());
        assert!(world.entities.get::<&Sea>(other).is_err());
    }

    #[test]
    fn a_changed_shape_or_texture_makes_the_sprites_again() {
        let mut world = World::new();
        let e = world.spawn((Waves::default(),));
        frame(&mut world);
        world.entities.get::<&mut Waves>(e).unwrap().scale = 2.0;
        frame(&mut world);
        let n = world.entities.get::<&Sea>(e).unwrap().len();
        let all = scales(&world);
        assert_eq!(all.len(), n);
        assert!(all.iter().all(|(_, s)| s.size == [2.0, 2.0 * FAN]));
        world.entities.get::<&mut Waves>(e).unwrap().texture = "other.png".into();
        frame(&mut world);
        let all = scales(&world);
        assert_eq!(all.len(), n);
        assert!(all.iter().all(|(_, s)| s.texture == "other.png"));
    }

    #[test]
    fn a_component_the_sea_cannot_draw_is_reported_once_and_left_alone() {
        let mut world = World::new();
        let e = world.spawn((
            Name("sea".into()),
            Waves {
                scale: -1.0,
                ..Waves::default()
            },
        ));
        frame(&mut world);
        frame(&mut world);
        assert!(scales(&world).is_empty());
        let lines = world.log().drain();
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].level, LogLevel::Warn);
        assert!(
            lines[0]
                .message
                .starts_with("\"sea\": kotoba_waves.scale must be at least"),
            "{}",
            lines[0].message
        );
        // Mended, it is drawn.
        world.entities.get::<&mut Waves>(e).unwrap().scale = 1.35;
        frame(&mut world);
        assert!(!scales(&world).is_empty());
    }

    #[test]
    fn a_command_can_reach_the_sea_before_its_first_frame() {
        let mut world = World::new();
        let e = world.spawn((Waves::default(),));
        ripple(&mut sea_mut(&mut world, e).unwrap(), [0.0, 0.0], 1.0, None).unwrap();
        frame(&mut world);
        assert_eq!(world.entities.get::<&Sea>(e).unwrap().rings.len(), 1);
        let bare = world.spawn((Name("rock".into()),));
        let err = sea_mut(&mut world, bare).map(|_| ()).unwrap_err();
        assert_eq!(err.to_string(), "\"rock\" has no kotoba_waves component");
    }

    #[test]
    fn a_seas_seed_comes_from_the_session_and_its_name() {
        let made = |seed: u64, name: &str| {
            let mut world = World::new();
            world.resources.get_mut::<Time>().unwrap().seed = seed;
            let e = world.spawn((Name(name.into()), Waves::default()));
            let sea = sea_mut(&mut world, e).unwrap();
            sea.phases
        };
        assert_eq!(made(1, "sea"), made(1, "sea"));
        assert_ne!(made(1, "sea"), made(2, "sea"));
        assert_ne!(made(1, "sea"), made(1, "bay"));
    }

    // --- Hostile input ------------------------------------------------------------------------

    fn any_wave() -> impl Strategy<Value = Wave> {
        let num = prop_oneof![
            -1e6f32..1e6,
            Just(f32::NAN),
            Just(f32::INFINITY),
            Just(-0.0f32),
            Just(f32::MAX),
        ];
        let point = (num.clone(), num.clone()).prop_map(|(x, y)| [x, y]);
        let colour = (num.clone(), 0.0f32..1.0).prop_map(|(r, g)| Color([r, g, 0.5, 1.0]));
        prop_oneof![
            (point.clone(), num.clone(), colour.clone(), any::<u32>()).prop_map(
                |(at, strength, color, count)| Wave::Ring {
                    at,
                    strength,
                    color,
                    count
                }
            ),
            (num.clone(), colour.clone())
                .prop_map(|(strength, color)| Wave::Surge { strength, color }),
            (point.clone(), num.clone(), colour).prop_map(|(at, strength, color)| Wave::Jolt {
                at,
                strength,
                color
            }),
            (point, num.clone()).prop_map(|(at, strength)| Wave::Shudder { at, strength }),
            num.prop_map(|strength| Wave::Beat { strength }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn any_waves_leave_every_scale_drawable(waves in proptest::collection::vec(any_wave(), 0..12)) {
            let w = Waves { area: [8.0, 5.0], ..Waves::default() };
            let mut sea = Sea::new(&w, 1).unwrap();
            for wave in waves {
                let _ = apply(&mut sea, wave);
                sea.step(&w, 0.1, 0, &idle(), &MusicClock::default());
                for l in sea.looks() {
                    prop_assert!(l.pos.iter().chain([&l.scale, &l.z]).all(|v| v.is_finite()));
                    prop_assert!(l.tint.0.iter().all(|v| (0.0..=1.0).contains(v)));
                }
            }
        }

        #[test]
        fn any_component_is_checked_without_panicking(json in crate::waves::tests::waves_json()) {
            if let Ok(w) = serde_json::from_value::<Waves>(json) {
                if w.check().is_ok() {
                    let mut sea = Sea::new(&w, 1).unwrap();
                    prop_assert!(sea.len() <= MAX_SCALES);
                    sea.step(&w, 1.0 / 60.0, 0, &idle(), &MusicClock::default());
                    prop_assert!(sea.looks().iter().all(|l| l.pos.iter().all(|v| v.is_finite())));
                } else {
                    prop_assert!(Sea::new(&w, 1).is_err());
                }
            }
        }

        #[test]
        fn any_pointer_leaves_the_sea_drawable(
            moves in proptest::collection::vec((0u8..4, -1e4f32..1e4, -1e4f32..1e4, 0u64..3), 0..40),
            dt in prop_oneof![0.0f64..1.0, Just(f64::NAN), Just(-1.0), Just(1e9)],
        ) {
            let w = Waves { area: [8.0, 5.0], ..Waves::default() };
            let mut sea = Sea::new(&w, 1).unwrap();
            let mut frame = 0;
            for (phase, x, y, skip) in moves {
                frame += skip;
                let phase = [PointerPhase::Press, PointerPhase::Drag, PointerPhase::Release, PointerPhase::Hover][phase as usize];
                let p = pointer_at(frame, &[(phase, [x, y])]);
                sea.step(&w, dt, frame, &p, &MusicClock::default());
            }
            prop_assert!(sea.rings.len() <= MAX_RINGS);
            prop_assert!(sea.looks().iter().all(|l| l.pos.iter().all(|v| v.is_finite())));
        }
    }

    /// Component JSON with each field sometimes missing, sometimes wrong.
    pub(super) fn waves_json() -> impl Strategy<Value = serde_json::Value> {
        let num = prop_oneof![
            -10.0f64..40.0,
            Just(0.0),
            Just(1e30),
            Just(-1e30),
            Just(0.001)
        ];
        (
            (num.clone(), num.clone()),
            num.clone(),
            num.clone(),
            num.clone(),
            (num.clone(), num.clone()),
            proptest::option::of(num.clone()),
            "[a-z./]{0,8}",
        )
            .prop_map(|((aw, ah), scale, swell, glints, (g0, g1), bpm, texture)| {
                serde_json::json!({
                    "area": [aw, ah],
                    "scale": scale,
                    "swell": swell,
                    "glints": glints,
                    "gusts": [g0, g1],
                    "bpm": bpm,
                    "texture": texture,
                })
            })
    }
}
