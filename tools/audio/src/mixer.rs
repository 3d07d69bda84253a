//! The mixer: one music track (plus the tracks it is fading away from) and up to 32 sound
//! voices, summed into interleaved stereo f32 and clamped.
//!
//! All state moves one output frame at a time with plain arithmetic (no libm, no clock), so the
//! same commands at the same frames give the same samples whatever the block sizes. Every change
//! in how the music position moves is noted as a marker at its output frame; the clock reads the
//! marker for the frame the device has actually played, not the frame last mixed.

use std::collections::VecDeque;
use std::sync::Arc;

use jengine::MusicClock;
use jengine::host::VolumeKind;

use super::decode::{RATE, Sound};

/// Sound voices playing at once; a new sound past this stops the oldest.
pub const MAX_VOICES: usize = 32;
/// Tracks fading out at once; past this the oldest is cut (only reachable by changing the
/// music faster than its fades).
const MAX_OUTGOING: usize = 4;
/// Markers kept for the clock, a bound for a device that never reports progress.
const MAX_MARKERS: usize = 1024;
/// A 5 ms ramp for every change that would otherwise step the waveform and click: pause,
/// resume, a cut, a volume change.
pub const DECLICK: u32 = RATE / 200;

/// A gain moving linearly towards a target, one frame at a time. Each value is computed from
/// the ramp's start (not by adding steps up), so it lands exactly on the target on its frame.
#[derive(Debug, Clone, Copy)]
struct Ramp {
    value: f32,
    from: f32,
    target: f32,
    frames: u32,
    done: u32,
}

impl Ramp {
    fn at(value: f32) -> Ramp {
        Ramp {
            value,
            from: value,
            target: value,
            frames: 0,
            done: 0,
        }
    }

    /// Heads for `target` from the present value, arriving after `frames` frames (at once
    /// for 0).
    fn to(&mut self, target: f32, frames: u32) {
        *self = Ramp {
            value: if frames == 0 { target } else { self.value },
            from: self.value,
            target,
            frames,
            done: 0,
        };
    }

    /// The gain for the next frame.
    #[inline]
    fn next(&mut self) -> f32 {
        if self.done < self.frames {
            self.done += 1;
            self.value = if self.done == self.frames {
                self.target
            } else {
                self.from + (self.target - self.from) * (self.done as f32 / self.frames as f32)
            };
        }
        self.value
    }
}

/// How the music position moves from `frame` on, until the next marker.
#[derive(Debug, Clone, Copy)]
struct Marker {
    /// The output frame it takes effect at.
    frame: u64,
    /// The track position (in frames) at that output frame.
    pos: u64,
    playing: bool,
    looping: bool,
    len: u64,
    bpm: Option<f64>,
}

impl Marker {
    fn rest(frame: u64) -> Marker {
        Marker {
            frame,
            pos: 0,
            playing: false,
            looping: false,
            len: 0,
            bpm: None,
        }
    }
}

struct Track {
    sound: Arc<Sound>,
    pos: usize,
    looping: bool,
    volume: f32,
    /// Fade in and out.
    fade: Ramp,
    /// 1 while playing, ramping to 0 to pause without a click.
    hold: Ramp,
    paused: bool,
    /// Dropped once `fade` reaches 0.
    stopping: bool,
    finished: bool,
    bpm: Option<f64>,
}

impl Track {
    fn marker(&self, frame: u64, playing: bool) -> Marker {
        Marker {
            frame,
            pos: self.pos as u64,
            playing,
            looping: self.looping,
            len: self.sound.frames() as u64,
            bpm: self.bpm,
        }
    }

    fn held(&self) -> bool {
        self.paused && self.hold.value == 0.0
    }

    /// Adds `bus.len()` frames into `out`, noting on `markers` (the current track's) where it
    /// comes to rest.
    fn mix(&mut self, out: &mut [f32], bus: &[f32], start: u64, mut markers: Option<&mut Markers>) {
        let samples = self.sound.samples();
        let channels = self.sound.channels();
        let len = self.sound.frames();
        for (f, &bus) in bus.iter().enumerate() {
            if self.finished || self.held() {
                return;
            }
            let g = self.fade.next() * self.hold.next() * self.volume * bus;
            let i = self.pos * channels;
            let (l, r) = if channels == 1 {
                (samples[i], samples[i])
            } else {
                (samples[i], samples[i + 1])
            };
            out[2 * f] += l * g;
            out[2 * f + 1] += r * g;
            self.pos += 1;
            let here = start + f as u64 + 1;
            if self.pos >= len {
                if self.looping {
                    self.pos = 0;
                } else {
                    self.finished = true;
                    if let Some(m) = markers.as_deref_mut() {
                        m.push_back(self.marker(here, false));
                    }
                }
            }
            if self.stopping && self.fade.value == 0.0 {
                self.finished = true;
            } else if self.held()
                && let Some(m) = markers.as_deref_mut()
            {
                m.push_back(self.marker(here, false));
            }
        }
    }
}

struct Voice {
    sound: Arc<Sound>,
    /// Position in source frames; advances by `rate` per output frame.
    pos: f64,
    rate: f64,
    left: f32,
    right: f32,
}

impl Voice {
    /// Adds into `out`; false once the sound has ended.
    fn mix(&mut self, out: &mut [f32], bus: &[f32]) -> bool {
        let samples = self.sound.samples();
        let len = self.sound.frames();
        let stereo = self.sound.channels() == 2;
        for (f, &bus) in bus.iter().enumerate() {
            let i = self.pos as usize;
            if i >= len {
                return false;
            }
            let frac = (self.pos - i as f64) as f32;
            // Past the last frame the waveform heads to silence rather than holding a level.
            let (l, r) = if stereo {
                let (a, b) = (samples[2 * i], samples[2 * i + 1]);
                let (c, d) = if i + 1 < len {
                    (samples[2 * i + 2], samples[2 * i + 3])
                } else {
                    (0.0, 0.0)
                };
                (a + (c - a) * frac, b + (d - b) * frac)
            } else {
                let a = samples[i];
                let c = if i + 1 < len { samples[i + 1] } else { 0.0 };
                let v = a + (c - a) * frac;
                (v, v)
            };
            out[2 * f] += l * self.left * bus;
            out[2 * f + 1] += r * self.right * bus;
            self.pos += self.rate;
        }
        (self.pos as usize) < len
    }
}

type Markers = VecDeque<Marker>;

/// sin(x) for x in 0..=π/2 by its Taylor series (error under 1e-9), so panning does not
/// depend on the platform's libm.
fn sin_quarter(x: f64) -> f64 {
    let x2 = x * x;
    // x - x³/3! + x⁵/5! - ... + x¹³/13!, nested so each factor is the next term's ratio.
    let mut t = 1.0;
    for d in [156.0, 110.0, 72.0, 42.0, 20.0, 6.0] {
        t = 1.0 - x2 / d * t;
    }
    x * t
}

/// Left and right gains for `pan` in -1..1 with equal power: cos and sin of (pan+1)·π/4.
pub(crate) fn pan_gains(pan: f64) -> (f32, f32) {
    let angle = (pan.clamp(-1.0, 1.0) + 1.0) * std::f64::consts::FRAC_PI_4;
    let right = sin_quarter(angle);
    let left = sin_quarter(std::f64::consts::FRAC_PI_2 - angle);
    (left as f32, right as f32)
}

/// One music track and its fading predecessors, the sound voices, and three volumes.
pub struct Mixer {
    frame: u64,
    music: Option<Track>,
    outgoing: Vec<Track>,
    voices: VecDeque<Voice>,
    master: f32,
    music_volume: f32,
    sound_volume: f32,
    music_bus: Ramp,
    sound_bus: Ramp,
    markers: Markers,
    scratch_music: Vec<f32>,
    scratch_sound: Vec<f32>,
}

impl Default for Mixer {
    fn default() -> Self {
        Mixer::new()
    }
}

impl Mixer {
    /// Silence, all volumes at 1.
    pub fn new() -> Mixer {
        Mixer {
            frame: 0,
            music: None,
            outgoing: Vec::new(),
            voices: VecDeque::new(),
            master: 1.0,
            music_volume: 1.0,
            sound_volume: 1.0,
            music_bus: Ramp::at(1.0),
            sound_bus: Ramp::at(1.0),
            markers: VecDeque::from([Marker::rest(0)]),
            scratch_music: Vec::new(),
            scratch_sound: Vec::new(),
        }
    }

    /// Output frames mixed so far.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// Voices sounding now.
    pub fn voices(&self) -> usize {
        self.voices.len()
    }

    fn mark(&mut self, marker: Marker) {
        // A later marker at the same frame replaces the earlier one: only the last state counts.
        if self.markers.back().is_some_and(|m| m.frame == marker.frame) {
            self.markers.pop_back();
        }
        self.markers.push_back(marker);
        if self.markers.len() > MAX_MARKERS {
            self.markers.pop_front();
        }
    }

    /// Starts `sound` as the music from its first frame, fading in over `fade` frames; the
    /// track playing before fades out over the same time (at least [`DECLICK`]).
    pub fn play_music(
        &mut self,
        sound: Arc<Sound>,
        looping: bool,
        volume: f32,
        fade: u32,
        bpm: Option<f64>,
    ) {
        self.retire_music(fade);
        let mut f = Ramp::at(if fade == 0 { 1.0 } else { 0.0 });
        f.to(1.0, fade);
        let track = Track {
            sound,
            pos: 0,
            looping,
            volume,
            fade: f,
            hold: Ramp::at(1.0),
            paused: false,
            stopping: false,
            finished: false,
            bpm,
        };
        self.mark(track.marker(self.frame, true));
        self.music = Some(track);
    }

    fn retire_music(&mut self, fade: u32) {
        if let Some(mut old) = self.music.take() {
            old.stopping = true;
            old.fade.to(0.0, fade.max(DECLICK));
            if old.held() {
                old.finished = true;
            } else {
                if self.outgoing.len() == MAX_OUTGOING {
                    self.outgoing.remove(0);
                }
                self.outgoing.push(old);
            }
        }
    }

    /// Pauses the music after a [`DECLICK`] ramp; the clock holds where it stopped.
    pub fn pause_music(&mut self) {
        if let Some(t) = self.music.as_mut()
            && !t.paused
        {
            t.paused = true;
            t.hold.to(0.0, DECLICK);
        }
    }

    /// Resumes paused music from where it was, with a [`DECLICK`] ramp.
    pub fn resume_music(&mut self) {
        let frame = self.frame;
        let Some(t) = self.music.as_mut() else { return };
        if !t.paused {
            return;
        }
        let was_held = t.held();
        t.paused = false;
        t.hold.to(1.0, DECLICK);
        if was_held {
            let m = t.marker(frame, true);
            self.mark(m);
        }
    }

    /// Fades the music out over `fade` frames (at least [`DECLICK`]) and drops it; the clock
    /// goes to rest at once.
    pub fn stop_music(&mut self, fade: u32) {
        if self.music.is_some() {
            self.retire_music(fade);
            self.mark(Marker::rest(self.frame));
        }
    }

    /// Starts a voice: `volume` 0..1, `pitch` a playback-rate multiplier, `pan` -1..1. At
    /// [`MAX_VOICES`] the oldest voice is stopped to make room.
    pub fn play(&mut self, sound: Arc<Sound>, volume: f32, pitch: f64, pan: f64) {
        let (mut left, mut right) = pan_gains(pan);
        if sound.channels() == 2 {
            // A stereo sound is balanced, not re-panned: unity in the middle, one side fading.
            left = (left * std::f32::consts::SQRT_2).min(1.0);
            right = (right * std::f32::consts::SQRT_2).min(1.0);
        }
        if self.voices.len() == MAX_VOICES {
            self.voices.pop_front();
        }
        self.voices.push_back(Voice {
            sound,
            pos: 0.0,
            rate: pitch,
            left: left * volume,
            right: right * volume,
        });
    }

    /// Sets one of the three volumes (0..1); the change ramps over [`DECLICK`] frames.
    pub fn set_volume(&mut self, kind: VolumeKind, volume: f32) {
        match kind {
            VolumeKind::Master => self.master = volume,
            VolumeKind::Music => self.music_volume = volume,
            VolumeKind::Sound => self.sound_volume = volume,
        }
        self.music_bus.to(self.master * self.music_volume, DECLICK);
        self.sound_bus.to(self.master * self.sound_volume, DECLICK);
    }

    /// Mixes `out.len() / 2` stereo frames into `out` (overwriting it), each sample in -1..1.
    pub fn mix(&mut self, out: &mut [f32]) {
        let n = out.len() / 2;
        out.fill(0.0);
        let mut music_bus = std::mem::take(&mut self.scratch_music);
        let mut sound_bus = std::mem::take(&mut self.scratch_sound);
        music_bus.clear();
        sound_bus.clear();
        music_bus.extend((0..n).map(|_| self.music_bus.next()));
        sound_bus.extend((0..n).map(|_| self.sound_bus.next()));

        let start = self.frame;
        if let Some(track) = self.music.as_mut() {
            let mut found = VecDeque::new();
            track.mix(out, &music_bus, start, Some(&mut found));
            if track.finished {
                self.music = None;
            }
            for m in found {
                self.mark(m);
            }
        }
        for track in &mut self.outgoing {
            track.mix(out, &music_bus, start, None);
        }
        self.outgoing.retain(|t| !t.finished);
        self.voices.retain_mut(|voice| voice.mix(out, &sound_bus));
        for s in out.iter_mut() {
            *s = s.clamp(-1.0, 1.0);
        }
        self.frame += n as u64;
        self.scratch_music = music_bus;
        self.scratch_sound = sound_bus;
    }

    /// The music clock at output frame `played` (the frames the device has consumed).
    pub fn clock(&self, played: u64) -> MusicClock {
        let Some(m) = self.markers.iter().rev().find(|m| m.frame <= played) else {
            return MusicClock::default();
        };
        let mut pos = m.pos;
        if m.playing {
            pos += played - m.frame;
            if m.looping && m.len > 0 {
                pos %= m.len;
            } else {
                pos = pos.min(m.len);
            }
        }
        MusicClock {
            playing: m.playing,
            position: pos as f64 / RATE as f64,
            bpm: m.bpm,
        }
    }

    /// Forgets markers the clock can no longer need once the device has played `played`.
    pub fn prune(&mut self, played: u64) {
        while self.markers.len() > 1 && self.markers[1].frame <= played {
            self.markers.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sin_quarter_matches_libm() {
        for i in 0..=1000 {
            let x = i as f64 / 1000.0 * std::f64::consts::FRAC_PI_2;
            assert!((sin_quarter(x) - x.sin()).abs() < 1e-9, "{x}");
        }
    }

    #[test]
    fn equal_power_pan_keeps_the_power_constant() {
        for i in -10..=10 {
            let (l, r) = pan_gains(i as f64 / 10.0);
            assert!((l * l + r * r - 1.0).abs() < 1e-6, "{i}: {l} {r}");
        }
        let (l, r) = pan_gains(-1.0);
        assert!((l - 1.0).abs() < 1e-7 && r.abs() < 1e-7);
        let (l, r) = pan_gains(0.0);
        assert!((l - r).abs() < 1e-7 && (l - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-7);
    }

    #[test]
    fn a_ramp_arrives_exactly_on_its_frame() {
        let mut r = Ramp::at(0.0);
        r.to(1.0, 4);
        let got: Vec<f32> = (0..6).map(|_| r.next()).collect();
        assert_eq!(got, vec![0.25, 0.5, 0.75, 1.0, 1.0, 1.0]);
    }
}
