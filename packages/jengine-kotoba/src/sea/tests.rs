//! The simulation on its own: the pattern, the resting sea, the beat and the hand, the waves
//! the game sends, replays and hostile input, all without an engine.

use super::layout::scale_count;
use super::*;
use proptest::prelude::*;

/// A sea with nothing of its own moving: no swell, glints, gusts or hand.
fn still() -> Settings {
    Settings {
        swell: 0.0,
        glints: 0.0,
        hover: 0.0,
        ..Settings::default()
    }
}

fn idle() -> Hand {
    Hand::default()
}

/// Steps `sea` for `seconds` at 60 Hz with no pointer or music.
fn run(sea: &mut Sea, settings: &Settings, seconds: f64) {
    let frames = (seconds * 60.0).round() as u64;
    for _ in 0..frames {
        sea.step(settings, 1.0 / 60.0, 0, &idle(), &Music::default());
    }
}

fn lift_of(sea: &Sea, i: usize) -> f32 {
    sea.looks[i].pos[1] - sea.spots[i].base[1]
}

fn moved(sea: &Sea, i: usize) -> f32 {
    dist(sea.looks[i].pos, sea.spots[i].base)
}

fn luma(c: Rgba) -> f32 {
    0.3 * c.0[0] + 0.59 * c.0[1] + 0.11 * c.0[2]
}

fn colour_distance(a: Rgba, b: Rgba) -> f32 {
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
    let w = Settings::default();
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
    let w = Settings::default();
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
    let w = Settings::default();
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
    let w = Settings::default();
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
    let sea = Sea::new(&Settings::default(), 1).unwrap();
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
    let w = Settings {
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
        let w = Settings { swell, ..still() };
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
    let w = Settings {
        glints: 2.0,
        ..still()
    };
    let mut sea = Sea::new(&w, 3).unwrap();
    let rest = sea.looks[0].tint;
    let mut seen = 0;
    for _ in 0..300 {
        sea.step(&w, 1.0 / 60.0, 0, &idle(), &Music::default());
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
    let w = Settings {
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
    let w = Settings {
        bpm: Some(120.0),
        ..still()
    };
    let mut sea = Sea::new(&w, 1).unwrap();
    let playing = |position: f64| Music {
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
    let stopped = |position: f64| Music {
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
    let clock = |position: f64| Music {
        playing: true,
        position,
        bpm: Some(120.0),
    };
    let mut quiet = Sea::new(&w, 1).unwrap();
    for f in 0..90 {
        sea.step(&w, 1.0 / 60.0, 0, &idle(), &clock(f as f64 / 60.0));
        quiet.step(&w, 1.0 / 60.0, 0, &idle(), &Music::default());
    }
    assert_eq!(sea.looks, quiet.looks);
    assert!(sea.music < 0.01);
}

#[test]
fn the_tracks_own_tempo_leads_and_a_paused_track_holds_the_sea_still() {
    // The component asks to breathe (at 96 bpm); the track's own 120 bpm is the beat.
    let w = Settings {
        bpm: Some(96.0),
        ..still()
    };
    let mut sea = Sea::new(&w, 1).unwrap();
    let clock = |playing: bool, position: f64| Music {
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

fn pointer_at(frame: u64, events: &[(HandPhase, [f32; 2])]) -> Hand {
    // As the engine's pointer takes in a frame: each event moves it.
    Hand {
        pos: events.last().map(|&(_, pos)| pos),
        moved_frame: if events.is_empty() { 0 } else { frame },
        events: events
            .iter()
            .map(|&(phase, pos)| HandEvent { phase, pos })
            .collect(),
    }
}

#[test]
fn scales_rise_round_the_pointer_and_a_resting_pointer_is_forgotten() {
    let w = Settings {
        hover: 1.0,
        ..still()
    };
    let mut sea = Sea::new(&w, 1).unwrap();
    let at = [0.3, 0.4];
    let mut pointer = pointer_at(1, &[(HandPhase::Hover, at)]);
    for frame in 1..20 {
        sea.step(&w, 1.0 / 60.0, frame, &pointer, &Music::default());
        pointer.events.clear();
    }
    let (i, _) = most_moved(&sea);
    assert!(lift_of(&sea, i) > 0.0);
    assert!(dist(sea.spots[i].base, at) < w.scale);
    // Left where it was for seconds (a finger lifted): nothing stays raised.
    for frame in 20..400 {
        sea.step(&w, 1.0 / 60.0, frame, &pointer, &Music::default());
    }
    assert!(most_moved(&sea).1 < 1e-3);
}

#[test]
fn a_quick_sweep_leaves_a_wake_and_a_slow_one_does_not() {
    let w = Settings {
        hover: 1.0,
        ..still()
    };
    let sweep = |step: f32| {
        let mut sea = Sea::new(&w, 1).unwrap();
        for frame in 0..30u64 {
            let p = pointer_at(
                frame,
                &[(HandPhase::Hover, [-4.0 + step * frame as f32, 0.0])],
            );
            sea.step(&w, 1.0 / 60.0, frame, &p, &Music::default());
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
    let w = Settings {
        hover: 1.0,
        ..still()
    };
    let mut sea = Sea::new(&w, 1).unwrap();
    sea.set_land(&[[-2.0, -2.0, 2.0, 2.0]]);
    let press = |at| pointer_at(1, &[(HandPhase::Press, at)]);
    sea.step(&w, 1.0 / 60.0, 1, &press([0.5, 0.5]), &Music::default());
    assert!(sea.is_calm(), "the board is land");
    sea.step(&w, 1.0 / 60.0, 1, &press([5.0, 3.0]), &Music::default());
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
        color: Rgba::WHITE,
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
            color: Rgba::WHITE,
            count: 1,
        },
        Wave::Ring {
            at: [0.0, 0.0],
            strength: f32::INFINITY,
            color: Rgba::WHITE,
            count: 1,
        },
        Wave::Surge {
            strength: 1.0,
            color: Rgba([f32::NAN, 0.0, 0.0, 1.0]),
        },
        Wave::Jolt {
            at: [0.0, f32::NEG_INFINITY],
            strength: 1.0,
            color: Rgba::WHITE,
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
    surge(&mut sea, f32::MAX, Some(Rgba([f32::MAX, -3.0, 0.5, 1.0]))).unwrap();
    assert_eq!(sea.fronts[0].color, Rgba([1.0, 0.0, 0.5, 1.0]));
    assert_eq!(sea.fronts[0].strength, MAX_STRENGTH);
}

// --- Replays ---------------------------------------------------------------------------

/// A minute of a busy sea, frame by frame.
fn film(seed: u64) -> Vec<Vec<Look>> {
    let w = Settings {
        swell: 2.0,
        glints: 5.0,
        gusts: [1.0, 2.0],
        bpm: Some(100.0),
        ..Settings::default()
    };
    let mut sea = Sea::new(&w, seed).unwrap();
    let mut frames = Vec::new();
    for f in 0..240u64 {
        let p = pointer_at(f, &[(HandPhase::Hover, [f as f32 * 0.2 - 8.0, 1.0])]);
        let music = Music {
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

// --- Settings gone bad ---------------------------------------------------------------

#[test]
fn a_sea_refuses_a_component_gone_bad_and_keeps_its_looks() {
    let w = Settings::default();
    let mut sea = Sea::new(&w, 1).unwrap();
    run(&mut sea, &w, 0.5);
    let before = (sea.looks.clone(), sea.clock);
    let bad = Settings {
        swell_length: 0.0,
        ..w
    };
    sea.step(&bad, 1.0 / 60.0, 0, &idle(), &Music::default());
    assert!(sea.fit(&bad).is_err());
    assert_eq!((sea.looks.clone(), sea.clock), before);
    assert_eq!(sea.fit(&w), Ok(false));
    let wider = Settings {
        area: [30.0, 12.0],
        ..w
    };
    assert_eq!(sea.fit(&wider), Ok(true));
    assert_eq!(
        sea.len(),
        lay_out(wider.area, wider.centre, wider.scale, wider.z).len()
    );
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
    let colour = (num.clone(), 0.0f32..1.0).prop_map(|(r, g)| Rgba([r, g, 0.5, 1.0]));
    prop_oneof![
        (point.clone(), num.clone(), colour.clone(), any::<u32>()).prop_map(
            |(at, strength, color, count)| Wave::Ring {
                at,
                strength,
                color,
                count
            }
        ),
        (num.clone(), colour.clone()).prop_map(|(strength, color)| Wave::Surge { strength, color }),
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
        let w = Settings { area: [8.0, 5.0], ..Settings::default() };
        let mut sea = Sea::new(&w, 1).unwrap();
        for wave in waves {
            let _ = apply(&mut sea, wave);
            sea.step(&w, 0.1, 0, &idle(), &Music::default());
            for l in sea.looks() {
                prop_assert!(l.pos.iter().chain([&l.scale, &l.z]).all(|v| v.is_finite()));
                prop_assert!(l.tint.0.iter().all(|v| (0.0..=1.0).contains(v)));
            }
        }
    }

    #[test]
    fn any_pointer_leaves_the_sea_drawable(
        moves in proptest::collection::vec((0u8..4, -1e4f32..1e4, -1e4f32..1e4, 0u64..3), 0..40),
        dt in prop_oneof![0.0f64..1.0, Just(f64::NAN), Just(-1.0), Just(1e9)],
    ) {
        let w = Settings { area: [8.0, 5.0], ..Settings::default() };
        let mut sea = Sea::new(&w, 1).unwrap();
        let mut frame = 0;
        for (phase, x, y, skip) in moves {
            frame += skip;
            let phase = [HandPhase::Press, HandPhase::Drag, HandPhase::Release, HandPhase::Hover][phase as usize];
            let p = pointer_at(frame, &[(phase, [x, y])]);
            sea.step(&w, dt, frame, &p, &Music::default());
        }
        prop_assert!(sea.rings.len() <= MAX_RINGS);
        prop_assert!(sea.looks().iter().all(|l| l.pos.iter().all(|v| v.is_finite())));
    }
}
