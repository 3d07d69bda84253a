//! The sea on screen: the `kotoba_waves` component, and the system that keeps one sprite per
//! scale of its [`Sea`], stepped with the frame's pointer and music.
//!
//! The simulation is [`crate::sea`]'s, on plain numbers; this module is the seam: it reads the
//! component, the clock, the pointer and the music from the world, and writes each scale's
//! transform and tint onto a pool of sprites reused frame after frame.

use jengine::{
    BulkEntity, Color, Entity, MusicClock, Name, Pointer, PointerPhase, SpawnedFor, Sprite, Time,
    Transform2D, World, check_asset_name, hecs,
};
use serde::{Deserialize, Serialize};

use crate::sea::{
    Hand, HandEvent, HandPhase, Look, MAX_SWELL, Music, Palette, Rgba, Sea, Settings, WaveError,
};

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
    /// Depth of the back row; the scales stay below `z + 1` ([`Z_BAND`](crate::sea::Z_BAND)).
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
        Waves::with_settings("kotoba/scale.png", &Settings::default())
    }
}

impl Waves {
    /// A component with this texture that makes a sea of these settings.
    pub fn with_settings(texture: &str, s: &Settings) -> Waves {
        let c = |c: Rgba| Color(c.0);
        Waves {
            texture: texture.into(),
            area: s.area,
            centre: s.centre,
            scale: s.scale,
            z: s.z,
            swell: s.swell,
            swell_speed: s.swell_speed,
            swell_length: s.swell_length,
            glints: s.glints,
            gusts: s.gusts,
            bpm: s.bpm,
            hover: s.hover,
            deep: c(s.deep),
            light: c(s.light),
            gold: c(s.gold),
            coral: c(s.coral),
            dark: c(s.dark),
            hurt: c(s.hurt),
        }
    }

    /// The numbers the simulation reads (everything but the texture).
    pub fn settings(&self) -> Settings {
        let c = |c: Color| Rgba(c.0);
        Settings {
            area: self.area,
            centre: self.centre,
            scale: self.scale,
            z: self.z,
            swell: self.swell,
            swell_speed: self.swell_speed,
            swell_length: self.swell_length,
            glints: self.glints,
            gusts: self.gusts,
            bpm: self.bpm,
            hover: self.hover,
            deep: c(self.deep),
            light: c(self.light),
            gold: c(self.gold),
            coral: c(self.coral),
            dark: c(self.dark),
            hurt: c(self.hurt),
        }
    }

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
        self.settings().palette()
    }

    /// Accepts a component the sea can draw; the error names the field and what it needs.
    pub fn check(&self) -> Result<(), WaveError> {
        if !self.texture.is_empty() {
            check_asset_name(&self.texture).map_err(|e| WaveError::Texture(e.to_string()))?;
        }
        self.settings().check()
    }

    /// A sea for this component, its chance seeded from `seed`; refuses a component
    /// [`Waves::check`] refuses.
    pub fn sea(&self, seed: u64) -> Result<Sea, WaveError> {
        self.check()?;
        Sea::new(&self.settings(), seed)
    }
}

/// The hand as the sea feels it: the frame's pointer.
fn hand(pointer: &Pointer) -> Hand {
    Hand {
        pos: pointer.pos,
        moved_frame: pointer.moved_frame,
        events: pointer
            .events
            .iter()
            .map(|e| HandEvent {
                phase: match e.phase {
                    PointerPhase::Press => HandPhase::Press,
                    PointerPhase::Drag => HandPhase::Drag,
                    PointerPhase::Release => HandPhase::Release,
                    PointerPhase::Hover => HandPhase::Hover,
                },
                pos: e.pos,
            })
            .collect(),
    }
}

/// The music as the sea hears it.
fn music(clock: &MusicClock) -> Music {
    Music {
        playing: clock.playing,
        position: clock.position,
        bpm: clock.bpm,
    }
}

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
            waves.sea(seed_for(world, e))?
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
        let music = music(&resources.get::<MusicClock>().copied().unwrap_or_default());
        sea.step(&waves.settings(), dt, frame, &hand(pointer), &music);
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
                    s.tint = Color(look.tint.0);
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
        waves.check()?;
        let reshaped = sea.fit(&waves.settings())?;
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
            SpawnedFor(owner),
            Transform2D {
                pos: fan_centre(look, size[0]),
                rot: 0.0,
                scale: [look.scale, look.scale],
                z: look.z,
            },
            Sprite {
                texture: texture.clone(),
                size,
                tint: Color(look.tint.0),
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
pub(crate) mod tests {
    use super::*;
    use crate::sea::{MAX_SCALES, ripple};
    use jengine::LogLevel;
    use proptest::prelude::*;

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
            assert!(w.sea(1).is_err());
        }
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
        assert!(first.iter().all(|(t, s)| s.texture == "kotoba/scale.png"
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
        assert_eq!(world.entities.get::<&Sea>(e).unwrap().ring_count(), 1);
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_component_is_checked_without_panicking(json in waves_json()) {
        if let Ok(w) = serde_json::from_value::<Waves>(json) {
            if w.check().is_ok() {
                let mut sea = w.sea(1).unwrap();
                prop_assert!(sea.len() <= MAX_SCALES);
                sea.step(&w.settings(), 1.0 / 60.0, 0, &Hand::default(), &Music::default());
                prop_assert!(sea.looks().iter().all(|l| l.pos.iter().all(|v| v.is_finite())));
            } else {
                prop_assert!(w.sea(1).is_err());
            }
        }
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
