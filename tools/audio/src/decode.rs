//! Decoding: Ogg Vorbis (lewton) and WAV (hound) into one shape, f32 frames at the mixer's rate.
//!
//! A file is decoded whole, folded down to one or two channels and resampled once when it is
//! loaded, so playback only ever reads 48 kHz frames and pitch is the one place it interpolates.
//! The format is told by the file's first bytes, not its name; every failure is a message.

use std::io::Cursor;

/// The mixer's rate: every decoded sound is resampled to it.
pub const RATE: u32 = 48_000;
/// The longest sound accepted, in seconds: a bound on the memory one file can take.
pub const MAX_SECONDS: u64 = 600;
/// The most channels a file may have; more are refused rather than guessed at.
pub const MAX_CHANNELS: usize = 8;
/// File sample rates outside this range are refused.
pub const RATES: std::ops::RangeInclusive<u32> = 1_000..=384_000;

/// A decoded sound: interleaved f32 samples at [`RATE`], one channel (mono) or two (left,
/// right), each sample finite and within -1..1.
#[derive(Debug, Clone, PartialEq)]
pub struct Sound {
    channels: usize,
    samples: Vec<f32>,
}

impl Sound {
    /// 1 (mono) or 2 (stereo).
    pub fn channels(&self) -> usize {
        self.channels
    }

    /// The interleaved samples.
    pub fn samples(&self) -> &[f32] {
        &self.samples
    }

    /// How many frames (one sample per channel) there are.
    pub fn frames(&self) -> usize {
        self.samples.len() / self.channels
    }

    /// The length in seconds.
    pub fn seconds(&self) -> f64 {
        self.frames() as f64 / RATE as f64
    }
}

/// What a decoder hands on: the file's own rate, up to [`MAX_CHANNELS`] interleaved channels.
struct Raw {
    rate: u32,
    channels: usize,
    samples: Vec<f32>,
    /// Where each channel sits, for folding down to stereo.
    layout: Layout,
}

#[derive(Clone, Copy)]
enum Layout {
    Vorbis,
    Wav,
}

/// Decodes an Ogg Vorbis or WAV file held in memory into a [`Sound`] at [`RATE`].
///
/// Never panics: a decoder library that did would be a bug there, and it is reported as a
/// damaged file instead of taking the game down.
pub fn decode(bytes: &[u8]) -> Result<Sound, String> {
    let raw = std::panic::catch_unwind(|| decode_raw(bytes))
        .unwrap_or_else(|_| Err("the decoder failed on damaged data".to_string()))?;
    if raw.samples.is_empty() {
        return Err("the file holds no audio".into());
    }
    let (channels, samples) = fold_to_stereo(raw.channels, raw.layout, raw.samples);
    let samples = resample(&samples, channels, raw.rate);
    Ok(Sound { channels, samples })
}

fn decode_raw(bytes: &[u8]) -> Result<Raw, String> {
    match bytes.get(..4) {
        Some(b"OggS") => decode_ogg(bytes),
        Some(b"RIFF") => decode_wav(bytes),
        Some(b"RIFX") | Some(b"RF64") => Err(
            "a big-endian or 64-bit WAV, which is not supported: save it as plain RIFF WAV".into(),
        ),
        _ => Err(
            "not an Ogg Vorbis or WAV file (it does not start with \"OggS\" or \"RIFF\")".into(),
        ),
    }
}

fn check_shape(rate: u32, channels: usize) -> Result<(), String> {
    if !RATES.contains(&rate) {
        return Err(format!(
            "sample rate {rate} Hz is outside {}..{} Hz",
            RATES.start(),
            RATES.end()
        ));
    }
    if channels == 0 || channels > MAX_CHANNELS {
        return Err(format!(
            "{channels} channels: 1 to {MAX_CHANNELS} are supported"
        ));
    }
    Ok(())
}

fn too_long(rate: u32) -> String {
    format!("longer than {MAX_SECONDS} s at {rate} Hz")
}

fn decode_wav(bytes: &[u8]) -> Result<Raw, String> {
    let mut reader = hound::WavReader::new(Cursor::new(bytes))
        .map_err(|e| format!("not a readable WAV file: {e}"))?;
    let spec = reader.spec();
    let channels = spec.channels as usize;
    check_shape(spec.sample_rate, channels)?;
    if u64::from(reader.duration()) > MAX_SECONDS * u64::from(spec.sample_rate) {
        return Err(too_long(spec.sample_rate));
    }
    // The header's length is a claim; the bytes present bound what can really be read.
    let claimed = reader.len() as usize;
    let mut samples = Vec::with_capacity(claimed.min(bytes.len()));
    let damaged = |e: hound::Error| format!("the sample data is truncated or damaged: {e}");
    match (spec.sample_format, spec.bits_per_sample) {
        (hound::SampleFormat::Float, 32) => {
            for s in reader.samples::<f32>() {
                samples.push(s.map_err(damaged)?);
            }
        }
        (hound::SampleFormat::Int, bits @ (8 | 16 | 24 | 32)) => {
            let scale = 1.0 / (1u64 << (bits - 1)) as f64;
            for s in reader.samples::<i32>() {
                samples.push((f64::from(s.map_err(damaged)?) * scale) as f32);
            }
        }
        (format, bits) => {
            let kind = match format {
                hound::SampleFormat::Float => "float",
                hound::SampleFormat::Int => "integer",
            };
            return Err(format!(
                "{bits}-bit {kind} samples are not supported (8, 16, 24 or 32-bit integer, or 32-bit float)"
            ));
        }
    }
    if samples.len() != claimed {
        return Err("the sample data is truncated".into());
    }
    Ok(Raw {
        rate: spec.sample_rate,
        channels,
        samples,
        layout: Layout::Wav,
    })
}

fn decode_ogg(bytes: &[u8]) -> Result<Raw, String> {
    use lewton::audio::{PreviousWindowRight, read_audio_packet_generic};
    use lewton::header::{read_header_comment, read_header_ident, read_header_setup};
    use lewton::samples::InterleavedSamples;

    let ogg = |e: ogg::OggReadError| format!("a damaged Ogg stream: {e}");
    let mut reader = ogg::PacketReader::new(Cursor::new(bytes));
    let first = reader.read_packet_expected().map_err(ogg)?;
    let ident = read_header_ident(&first.data)
        .map_err(|e| format!("not an Ogg Vorbis stream (its first header: {e:?})"))?;
    let serial = first.stream_serial();
    let channels = usize::from(ident.audio_channels);
    let rate = ident.audio_sample_rate;
    check_shape(rate, channels)?;

    // The comment and setup headers follow; packets of other streams (say, a video) are skipped.
    let next_own = |reader: &mut ogg::PacketReader<Cursor<&[u8]>>| loop {
        let p = reader.read_packet_expected().map_err(ogg)?;
        if p.stream_serial() == serial {
            return Ok::<_, String>(p);
        }
    };
    let comment = next_own(&mut reader)?;
    read_header_comment(&comment.data)
        .map_err(|e| format!("a damaged Vorbis comment header: {e:?}"))?;
    let setup_packet = next_own(&mut reader)?;
    let setup = read_header_setup(
        &setup_packet.data,
        ident.audio_channels,
        (ident.blocksize_0, ident.blocksize_1),
    )
    .map_err(|e| format!("a damaged Vorbis setup header: {e:?}"))?;

    let max_frames = MAX_SECONDS * u64::from(rate);
    let mut pwr = PreviousWindowRight::new();
    let mut samples: Vec<f32> = Vec::new();
    // A page's granule position counts the frames up to the end of its last packet, from
    // where the stream started; the first page that ends tells that start, and the last
    // page how much of its last packet is real audio (the rest is padding to a block).
    let mut start: Option<u64> = None;
    let mut ended = setup_packet.last_in_stream();
    while !ended {
        let Some(packet) = reader.read_packet().map_err(ogg)? else {
            return Err("truncated: the Ogg stream stops before its last page".into());
        };
        if packet.stream_serial() != serial {
            continue;
        }
        let decoded: InterleavedSamples<f32> =
            read_audio_packet_generic(&ident, &setup, &packet.data, &mut pwr)
                .map_err(|e| format!("a damaged Vorbis audio packet: {e:?}"))?;
        let total = (samples.len() + decoded.samples.len()) / channels;
        if total as u64 > max_frames {
            return Err(too_long(rate));
        }
        samples.extend_from_slice(&decoded.samples);
        ended = packet.last_in_stream();
        if ended {
            let end = packet.absgp_page().saturating_sub(start.unwrap_or(0));
            samples.truncate(end.min(total as u64) as usize * channels);
        } else if packet.last_in_page() && start.is_none() {
            start = Some(packet.absgp_page().saturating_sub(total as u64));
        }
    }
    Ok(Raw {
        rate,
        channels,
        samples,
        layout: Layout::Vorbis,
    })
}

/// Where a channel is heard: its share of left and right.
fn channel_gains(layout: Layout, channels: usize) -> Vec<(f32, f32)> {
    const L: (f32, f32) = (1.0, 0.0);
    const R: (f32, f32) = (0.0, 1.0);
    const C: (f32, f32) = (0.707_106_77, 0.707_106_77);
    const SL: (f32, f32) = (0.707_106_77, 0.0);
    const SR: (f32, f32) = (0.0, 0.707_106_77);
    const BC: (f32, f32) = (0.5, 0.5);
    // The low-frequency channel is dropped: small speakers cannot play it and it only clips.
    const LFE: (f32, f32) = (0.0, 0.0);
    let order: &[(f32, f32)] = match (layout, channels) {
        (_, 2) => &[L, R],
        // Vorbis I specification, section 4.3.9.
        (Layout::Vorbis, 3) => &[L, C, R],
        (Layout::Vorbis, 4) => &[L, R, SL, SR],
        (Layout::Vorbis, 5) => &[L, C, R, SL, SR],
        (Layout::Vorbis, 6) => &[L, C, R, SL, SR, LFE],
        (Layout::Vorbis, 7) => &[L, C, R, SL, SR, BC, LFE],
        (Layout::Vorbis, _) => &[L, C, R, SL, SR, SL, SR, LFE],
        // WAV's default speaker order (the WAVE_FORMAT_EXTENSIBLE mask, lowest bits first).
        (Layout::Wav, 3) => &[L, R, C],
        (Layout::Wav, 4) => &[L, R, SL, SR],
        (Layout::Wav, 5) => &[L, R, C, SL, SR],
        (Layout::Wav, 6) => &[L, R, C, LFE, SL, SR],
        (Layout::Wav, 7) => &[L, R, C, LFE, BC, SL, SR],
        (Layout::Wav, _) => &[L, R, C, LFE, SL, SR, SL, SR],
    };
    order.to_vec()
}

/// Mono and stereo pass through; more channels are mixed into stereo, scaled so that channels
/// all at full scale still stay within -1..1.
fn fold_to_stereo(channels: usize, layout: Layout, samples: Vec<f32>) -> (usize, Vec<f32>) {
    let clean = |s: f32| {
        if s.is_finite() {
            s.clamp(-1.0, 1.0)
        } else {
            0.0
        }
    };
    if channels <= 2 {
        return (channels, samples.into_iter().map(clean).collect());
    }
    let gains = channel_gains(layout, channels);
    let left: f32 = gains.iter().map(|g| g.0).sum();
    let right: f32 = gains.iter().map(|g| g.1).sum();
    let norm = 1.0 / left.max(right);
    let mut out = Vec::with_capacity(samples.len() / channels * 2);
    for frame in samples.chunks_exact(channels) {
        let (mut l, mut r) = (0.0, 0.0);
        for (&s, &(gl, gr)) in frame.iter().zip(&gains) {
            let s = clean(s);
            l += s * gl;
            r += s * gr;
        }
        out.push((l * norm).clamp(-1.0, 1.0));
        out.push((r * norm).clamp(-1.0, 1.0));
    }
    (2, out)
}

/// Linear interpolation from `rate` to [`RATE`]. Positions are exact fractions (integer
/// arithmetic), so the result does not depend on floating-point rounding of the ratio.
fn resample(samples: &[f32], channels: usize, rate: u32) -> Vec<f32> {
    let frames = samples.len() / channels;
    if rate == RATE || frames == 0 {
        return samples.to_vec();
    }
    let (from, to) = (u64::from(rate), u64::from(RATE));
    // The last output frame lands on or before the last input frame.
    let out_frames = ((frames as u64 - 1) * to / from + 1) as usize;
    let mut out = Vec::with_capacity(out_frames * channels);
    for i in 0..out_frames as u64 {
        let at = i * from;
        let index = (at / to) as usize;
        let frac = (at % to) as f32 / to as f32;
        let next = (index + 1).min(frames - 1);
        for c in 0..channels {
            let a = samples[index * channels + c];
            let b = samples[next * channels + c];
            out.push(a + (b - a) * frac);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn wav(
        spec: hound::WavSpec,
        write: impl FnOnce(&mut hound::WavWriter<Cursor<&mut Vec<u8>>>),
    ) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut w = hound::WavWriter::new(Cursor::new(&mut bytes), spec).unwrap();
        write(&mut w);
        w.finalize().unwrap();
        bytes
    }

    fn spec(channels: u16, rate: u32, bits: u16, format: hound::SampleFormat) -> hound::WavSpec {
        hound::WavSpec {
            channels,
            sample_rate: rate,
            bits_per_sample: bits,
            sample_format: format,
        }
    }

    #[test]
    fn resampling_keeps_the_ends_and_interpolates_between() {
        // 24 kHz to 48 kHz: every other output frame is a midpoint.
        let out = resample(&[0.0, 1.0, 0.0], 1, 24_000);
        assert_eq!(out, vec![0.0, 0.5, 1.0, 0.5, 0.0]);
        // 96 kHz to 48 kHz keeps every other frame.
        let out = resample(&[0.0, 0.1, 0.2, 0.3, 0.4], 1, 96_000);
        assert_eq!(out, vec![0.0, 0.2, 0.4]);
        // Channels stay apart.
        let out = resample(&[0.0, 1.0, 1.0, 0.0], 2, 24_000);
        assert_eq!(out, vec![0.0, 1.0, 0.5, 0.5, 1.0, 0.0]);
    }

    #[test]
    fn six_channel_wav_folds_into_stereo_with_the_lfe_dropped() {
        let bytes = wav(spec(6, 48_000, 16, hound::SampleFormat::Int), |w| {
            // Only the LFE (4th) channel sounds: nothing must come out.
            for c in 0..6 {
                w.write_sample(if c == 3 { i16::MAX } else { 0 }).unwrap();
            }
            // Only front left.
            for c in 0..6 {
                w.write_sample(if c == 0 { 16384i16 } else { 0 }).unwrap();
            }
        });
        let sound = decode(&bytes).unwrap();
        assert_eq!(sound.channels(), 2);
        assert_eq!(sound.frames(), 2);
        let s = sound.samples();
        assert_eq!((s[0], s[1]), (0.0, 0.0));
        assert!(s[2] > 0.0 && s[3] == 0.0, "{s:?}");
    }

    #[test]
    fn nan_and_overloud_float_samples_are_made_safe() {
        let bytes = wav(spec(1, 48_000, 32, hound::SampleFormat::Float), |w| {
            for s in [f32::NAN, f32::INFINITY, 3.0, -0.5] {
                w.write_sample(s).unwrap();
            }
        });
        assert_eq!(decode(&bytes).unwrap().samples(), &[0.0, 0.0, 1.0, -0.5]);
    }

    #[test]
    fn an_empty_wav_is_refused() {
        let bytes = wav(spec(1, 48_000, 16, hound::SampleFormat::Int), |_| {});
        assert_eq!(decode(&bytes), Err("the file holds no audio".into()));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn random_bytes_are_an_error_not_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let _ = decode(&bytes);
        }

        #[test]
        fn random_bytes_behind_a_wav_header_never_panic(
            tail in proptest::collection::vec(any::<u8>(), 0..400),
            cut in 0usize..60,
        ) {
            let good = wav(spec(2, 22_050, 16, hound::SampleFormat::Int), |w| {
                for i in 0..64i16 {
                    w.write_sample(i * 100).unwrap();
                }
            });
            let mut bytes = good[..cut.min(good.len())].to_vec();
            bytes.extend_from_slice(&tail);
            let _ = decode(&bytes);
        }

        #[test]
        fn random_bytes_behind_an_ogg_page_header_never_panic(
            tail in proptest::collection::vec(any::<u8>(), 0..400),
        ) {
            let mut bytes = b"OggS\0\x02".to_vec();
            bytes.extend_from_slice(&tail);
            let _ = decode(&bytes);
        }
    }
}
