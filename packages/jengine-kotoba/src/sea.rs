//! The sea behind the board: seigaiha (青海波) laid out of single scales, every one of them
//! moving on its own, so the pattern itself can move.
//!
//! A [`Sea`] is a small simulation on plain numbers - two crossing swells, glints, gusts, the
//! beat, the hand, and the rings and jolts the game sends - whose only output is one [`Look`]
//! per scale. It reads its [`Settings`], the [`Hand`] and the [`Music`], and knows nothing of
//! the engine: `draw::sea` copies the looks onto sprites, and [`waves_for`] turns the board's
//! events into [`Wave`]s.

use std::f32::consts::TAU;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

mod events;
mod layout;
mod settings;
#[cfg(test)]
mod tests;
mod wave;

pub use events::{WaveContext, waves_for};
pub use settings::{Palette, Rgba, Settings, WaveError};
pub use wave::{Wave, apply, ripple, surge};

use layout::{Spot, lay_out};

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

/// What a pointer did this frame, as the sea feels it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandPhase {
    /// Went down.
    Press,
    /// Moved while down.
    Drag,
    /// Came up.
    Release,
    /// Moved while up.
    Hover,
}

/// One pointer event, in world units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandEvent {
    /// What it did.
    pub phase: HandPhase,
    /// Where.
    pub pos: [f32; 2],
}

/// The hand over the sea this frame: where the pointer is, the frame it last moved, and what
/// it did since the last frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Hand {
    /// Where the pointer was last seen, if it has been.
    pub pos: Option<[f32; 2]>,
    /// The frame it last moved (a pointer at rest is forgotten).
    pub moved_frame: u64,
    /// This frame's events, in order.
    pub events: Vec<HandEvent>,
}

/// The music as the sea hears it: whether it plays, where its playhead is, and its tempo when
/// the track says one.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Music {
    /// Whether the music is playing.
    pub playing: bool,
    /// The playhead, in seconds.
    pub position: f64,
    /// The playing track's own tempo, if it says one.
    pub bpm: Option<f64>,
}

/// A ring spreading from a point.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ring {
    at: [f32; 2],
    strength: f32,
    color: Rgba,
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
    color: Rgba,
    born: f64,
    y: f32,
    amp: f32,
}

/// A jolt or a shudder under a point.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Knock {
    at: [f32; 2],
    strength: f32,
    color: Rgba,
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
    pub tint: Rgba,
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
    fn of(settings: &Settings) -> Shape {
        Shape {
            area: settings.area,
            centre: settings.centre,
            scale: settings.scale,
            z: settings.z,
        }
    }
}

/// A sea's running state (on the engine side, the `kotoba_waves` entity's companion, never
/// saved). All its chance comes from its own seeded stream, so a sea
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
    pub(crate) phases: [f32; 2],
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
    /// A sea for `settings`, its chance seeded from `seed`; refuses settings [`Settings::check`]
    /// refuses.
    pub fn new(settings: &Settings, seed: u64) -> Result<Sea, WaveError> {
        settings.check()?;
        let mut rng = Pcg32::seed_from_u64(seed);
        let phases = [rng.random::<f32>() * TAU, rng.random::<f32>() * TAU];
        let mut sea = Sea {
            rng,
            clock: 0.0,
            shape: Shape::of(settings),
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
            palette: settings.palette().clamped(),
            land: Vec::new(),
        };
        sea.until_gust = sea.gust_wait(settings);
        sea.until_glint = sea.glint_wait(settings);
        sea.reshape(settings);
        sea.compose(settings, &Music::default());
        Ok(sea)
    }

    fn reshape(&mut self, settings: &Settings) {
        self.shape = Shape::of(settings);
        self.spots = lay_out(settings.area, settings.centre, settings.scale, settings.z);
        let rest = Look {
            pos: [0.0, 0.0],
            scale: 1.0,
            tint: settings.deep,
            z: settings.z,
        };
        self.looks = vec![rest; self.spots.len()];
        self.glint = vec![0.0; self.spots.len()];
    }

    /// Lays the sea out again if the settings' area, centre, scale or depth changed; true
    /// when it did (the sprites must be made again). Refuses what [`Settings::check`] refuses.
    pub fn fit(&mut self, settings: &Settings) -> Result<bool, WaveError> {
        settings.check()?;
        if Shape::of(settings) == self.shape && !self.spots.is_empty() {
            return Ok(false);
        }
        self.reshape(settings);
        self.compose(settings, &Music::default());
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

    /// How many rings are spreading (for the engine side's tests).
    #[cfg(all(test, feature = "engine"))]
    pub(crate) fn ring_count(&self) -> usize {
        self.rings.len()
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
    fn fallback(&self, strength: f32) -> Rgba {
        if strength < 0.0 {
            self.palette.dark
        } else {
            self.palette.gold
        }
    }

    fn gust_wait(&mut self, settings: &Settings) -> f64 {
        let [least, most] = settings.gusts;
        least as f64 + (most - least).max(0.0) as f64 * self.rng.random::<f64>()
    }

    fn glint_wait(&mut self, settings: &Settings) -> f64 {
        if settings.glints <= 0.0 {
            return f64::INFINITY;
        }
        // Uneven waits (between half and one and a half of the mean) read as chance.
        (0.5 + self.rng.random::<f64>()) / settings.glints as f64
    }

    /// Moves the sea on by `dt` seconds (clamped to a quarter second): the swells, glints,
    /// gusts, the pointer (`frame` is the frame number, to tell a pointer at rest), the music's
    /// beat and whatever the game sent. `settings` are what the sea was laid out for (see
    /// [`Sea::fit`]); one [`Settings::check`] refuses leaves the sea as it was.
    pub fn step(
        &mut self,
        settings: &Settings,
        dt: f64,
        frame: u64,
        pointer: &Hand,
        music: &Music,
    ) {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, MAX_STEP)
        } else {
            0.0
        };
        if settings.check().is_err() {
            return;
        }
        self.palette = settings.palette().clamped();
        self.clock += dt;
        self.feel_pointer(settings, dt as f32, frame, pointer);
        self.chance(settings, dt);
        self.age(settings, dt as f32, music);
        self.compose(settings, music);
    }

    /// The hand: where it hovers, the wake of a quick sweep, a press's splash.
    fn feel_pointer(&mut self, settings: &Settings, dt: f32, frame: u64, pointer: &Hand) {
        let u = settings.scale;
        let resting = frame.saturating_sub(pointer.moved_frame) > REST_FRAMES;
        let target = match pointer.pos {
            Some(p) if !resting && settings.hover > 0.0 && p.iter().all(|v| v.is_finite()) => {
                self.hover_at = p;
                1.0
            }
            _ => 0.0,
        };
        let rate = if target > self.hover { 6.0 } else { 2.5 };
        self.hover += (target - self.hover) * (rate * dt).min(1.0);
        if settings.hover <= 0.0 {
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
            if e.phase == HandPhase::Press && !self.on_land(e.pos) {
                self.push_ring(e.pos, 0.7 * settings.hover, self.palette.light, 0, 1.0);
                self.push_knock(
                    KnockKind::Jolt,
                    e.pos,
                    0.4 * settings.hover,
                    self.palette.light,
                );
            }
            let seg = self.last_pointer.map_or(0.0, |p0| dist(p0, e.pos));
            // A jump (the pointer leaving and coming back elsewhere) is no sweep.
            if let Some(p0) = self.last_pointer
                && quick
                && seg < 4.0 * u
                && matches!(e.phase, HandPhase::Hover | HandPhase::Drag)
            {
                let spacing = 0.8 * u;
                let mut along = spacing - self.wake_run;
                while along <= seg {
                    let t = along / seg;
                    let at = [
                        p0[0] + (e.pos[0] - p0[0]) * t,
                        p0[1] + (e.pos[1] - p0[1]) * t,
                    ];
                    self.push_wake(at, 0.3 * settings.hover);
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
    fn chance(&mut self, settings: &Settings, dt: f64) {
        if self.until_glint.is_infinite() {
            // Glints were off; they may have been turned on since.
            self.until_glint = self.glint_wait(settings);
        }
        self.until_glint -= dt;
        while self.until_glint <= 0.0 {
            if !self.spots.is_empty() {
                let i = self.rng.random_range(0..self.spots.len());
                self.glint[i] = 1.0;
            }
            self.until_glint += self.glint_wait(settings);
        }
        self.until_gust -= dt;
        while self.until_gust <= 0.0 {
            if self.gust.is_none() && settings.swell > 0.0 {
                let dir = if self.rng.random::<bool>() { 1.0 } else { -1.0 };
                let strength = 0.6 + 0.4 * self.rng.random::<f32>();
                self.gust = Some(Gust {
                    born: self.clock,
                    dir,
                    strength,
                    x: 0.0,
                });
            }
            self.until_gust += self.gust_wait(settings);
        }
    }

    /// Moves every ring, front, knock and glint on, and lets go of the spent ones.
    fn age(&mut self, settings: &Settings, dt: f32, music: &Music) {
        let u = settings.scale;
        let [w, h] = settings.area;
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
        let bottom = settings.centre[1] - h / 2.0 - 2.0 * band;
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
            let from = settings.centre[0] - g.dir * (w / 2.0 + 2.0 * band);
            g.x = from + g.dir * (w + 4.0 * band) * t;
            if t >= 1.0 {
                self.gust = None;
            }
        }
        let on = if tempo(settings, music).is_some() && music.playing {
            1.0
        } else {
            0.0
        };
        self.music += (on - self.music) * (4.0 * dt).min(1.0);
    }

    fn push_ring(&mut self, at: [f32; 2], strength: f32, color: Rgba, delay: u32, size: f32) {
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

    fn push_knock(&mut self, kind: KnockKind, at: [f32; 2], strength: f32, color: Rgba) {
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
    fn compose(&mut self, settings: &Settings, music: &Music) {
        let u = settings.scale;
        let r = u / 2.0;
        let rough = if settings.swell.is_finite() {
            settings.swell.clamp(0.0, MAX_SWELL)
        } else {
            0.0
        };
        let t = self.clock as f32;
        // Two swells crossing at an angle, the second shorter and slower.
        let k1 = TAU / settings.swell_length;
        let k2 = TAU / (settings.swell_length * 0.71);
        let pace = 0.75 + 0.25 * rough;
        let c1 = settings.swell_speed * pace;
        let c2 = settings.swell_speed * 0.8 * pace;
        let d1 = [0.94, 0.34];
        let d2 = [-0.5, 0.866];
        let tone = 0.2 * rough.min(2.0);
        let heave = 0.045 * rough * u;
        let gust_band = 2.2 * u;
        let front_band = 0.9 * u;
        let hover_r = 1.4 * u;
        let breath_speed = 8.0 * u;
        let beat = match tempo(settings, music) {
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
                    let k = self.hover * settings.hover * (-d2 / (hover_r * hover_r)).exp();
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
                tint: Rgba([quantise(c[0]), quantise(c[1]), quantise(c[2]), 1.0]),
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

fn rgb(c: Rgba) -> [f32; 3] {
    [c.0[0], c.0[1], c.0[2]]
}

fn lerp3(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

fn add_colour(mix: &mut [f32; 3], weight: &mut f32, c: Rgba, w: f32) {
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

/// The beat the sea breathes on, when the settings ask for one (`bpm` set): the playing
/// track's own tempo, else the settings'.
fn tempo(settings: &Settings, music: &Music) -> Option<f32> {
    let asked = settings.bpm?;
    let own = music
        .bpm
        .map(|b| b as f32)
        .filter(|b| b.is_finite() && *b > 0.0 && *b <= MAX_BPM);
    Some(own.unwrap_or(asked))
}
