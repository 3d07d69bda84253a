//! Frames: one protocol version byte, then the payload in postcard.
//!
//! The version byte is checked before a single payload byte is read, so two builds that disagree
//! about the protocol say so in words instead of decoding each other's bytes into nonsense. The
//! size limit is checked before anything else, and encoding stops storing bytes at the limit, so
//! neither side ever holds an oversized frame in memory.

use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

/// The frame size limit both ends use unless told otherwise: 64 KiB, version byte included.
pub const DEFAULT_MAX_FRAME: usize = 64 * 1024;

/// What is wrong with a frame. Decoding never panics, whatever the bytes.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FrameError {
    /// The frame's version byte is not the one this side speaks.
    #[error("the other side speaks protocol {theirs}, this side {ours}")]
    Version {
        /// The version byte the frame carries.
        theirs: u8,
        /// The version this side speaks.
        ours: u8,
    },
    /// A frame with no bytes at all, so not even a version.
    #[error("empty frame: not even a protocol version byte")]
    Empty,
    /// The payload stops in the middle of a value.
    #[error("truncated frame: its {len} bytes end in the middle of the payload")]
    Truncated {
        /// The frame's length, version byte included.
        len: usize,
    },
    /// Bytes that are not an encoding of the payload type.
    #[error("garbage frame: {why}")]
    Garbage {
        /// What the decoder found, in words.
        why: String,
    },
    /// A frame over the size limit (version byte included).
    #[error("frame of {size} bytes is over the limit of {limit}")]
    TooLarge {
        /// The frame's size in bytes.
        size: usize,
        /// The limit it broke.
        limit: usize,
    },
    /// The payload could not be encoded (for example a sequence of unknown length).
    #[error("cannot encode the payload: {why}")]
    Encode {
        /// What the encoder said.
        why: String,
    },
}

/// Encodes and decodes frames for one protocol version under one size limit.
///
/// The version is the protocol the game speaks over the transport (its message types), not the
/// transport's own: bump it whenever a payload type changes shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Codec {
    /// The protocol version written as the first byte of every frame.
    pub version: u8,
    /// The largest frame accepted or produced, in bytes, version byte included.
    pub max_frame: usize,
}

impl Default for Codec {
    /// Version 1, [`DEFAULT_MAX_FRAME`].
    fn default() -> Self {
        Codec::new(1)
    }
}

impl Codec {
    /// A codec for protocol `version` with the default size limit.
    pub const fn new(version: u8) -> Self {
        Codec {
            version,
            max_frame: DEFAULT_MAX_FRAME,
        }
    }

    /// The same codec with another size limit.
    pub const fn with_max_frame(self, max_frame: usize) -> Self {
        Codec { max_frame, ..self }
    }

    /// One frame: the version byte, then `payload` in postcard.
    pub fn encode<T: Serialize + ?Sized>(&self, payload: &T) -> Result<Vec<u8>, FrameError> {
        // Room for a typical frame up front, so a small one is built without reallocating.
        let mut bytes = Vec::with_capacity(self.max_frame.min(256));
        bytes.push(self.version);
        let out = Bounded {
            bytes,
            size: 1,
            limit: self.max_frame,
        };
        let out =
            postcard::serialize_with_flavor(payload, out).map_err(|e| FrameError::Encode {
                why: encode_error(e),
            })?;
        if out.size > self.max_frame {
            return Err(FrameError::TooLarge {
                size: out.size,
                limit: self.max_frame,
            });
        }
        Ok(out.bytes)
    }

    /// The payload of one frame. The size limit is checked first, then the version byte, and
    /// every byte must belong to the payload.
    pub fn decode<T: DeserializeOwned>(&self, frame: &[u8]) -> Result<T, FrameError> {
        if frame.len() > self.max_frame {
            return Err(FrameError::TooLarge {
                size: frame.len(),
                limit: self.max_frame,
            });
        }
        let (&version, body) = frame.split_first().ok_or(FrameError::Empty)?;
        if version != self.version {
            return Err(FrameError::Version {
                theirs: version,
                ours: self.version,
            });
        }
        match postcard::take_from_bytes::<T>(body) {
            Ok((value, [])) => Ok(value),
            Ok((_, rest)) => Err(FrameError::Garbage {
                why: format!("{} bytes left over after the payload", rest.len()),
            }),
            Err(postcard::Error::DeserializeUnexpectedEnd) => {
                Err(FrameError::Truncated { len: frame.len() })
            }
            Err(e) => Err(FrameError::Garbage {
                why: decode_error(e),
            }),
        }
    }
}

/// A postcard output that keeps bytes up to the limit and only counts the rest, so an oversized
/// payload is measured without being stored.
struct Bounded {
    bytes: Vec<u8>,
    size: usize,
    limit: usize,
}

impl postcard::ser_flavors::Flavor for Bounded {
    type Output = Bounded;

    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        self.size += data.len();
        if self.size <= self.limit {
            self.bytes.extend_from_slice(data);
        }
        Ok(())
    }

    fn try_push(&mut self, data: u8) -> postcard::Result<()> {
        self.size += 1;
        if self.size <= self.limit {
            self.bytes.push(data);
        }
        Ok(())
    }

    fn finalize(self) -> postcard::Result<Bounded> {
        Ok(self)
    }
}

fn decode_error(e: postcard::Error) -> String {
    use postcard::Error::*;
    match e {
        DeserializeBadVarint => "a number that does not end".into(),
        DeserializeBadBool => "a bool that is neither 0 nor 1".into(),
        DeserializeBadChar => "a character that is not a Unicode scalar".into(),
        DeserializeBadUtf8 => "text that is not UTF-8".into(),
        DeserializeBadOption => "an option tag that is neither 0 nor 1".into(),
        DeserializeBadEnum => "an enum tag past u32".into(),
        DeserializeBadEncoding => "bytes that are not a postcard encoding".into(),
        SerdeDeCustom => "a value the payload type does not accept (an unknown variant?)".into(),
        other => other.to_string(),
    }
}

fn encode_error(e: postcard::Error) -> String {
    match e {
        postcard::Error::SerializeSeqLengthUnknown => "a sequence of unknown length".into(),
        postcard::Error::SerdeSerCustom => "the payload's Serialize returned an error".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Move {
        Place { x: u8, y: u8, kana: char },
        Turn,
        Say(String),
        Many(Vec<(i32, Option<u64>)>),
        Table(BTreeMap<String, f32>),
    }

    fn any_move() -> impl Strategy<Value = Move> {
        prop_oneof![
            (any::<u8>(), any::<u8>(), any::<char>()).prop_map(|(x, y, kana)| Move::Place {
                x,
                y,
                kana
            }),
            Just(Move::Turn),
            ".{0,40}".prop_map(Move::Say),
            prop::collection::vec((any::<i32>(), any::<Option<u64>>()), 0..20).prop_map(Move::Many),
            prop::collection::btree_map(".{0,8}", -1e6f32..1e6, 0..8).prop_map(Move::Table),
        ]
    }

    #[test]
    fn a_frame_is_the_version_byte_then_postcard() {
        let codec = Codec::new(7);
        let frame = codec.encode(&(3u8, "ab")).unwrap();
        assert_eq!(frame, [7, 3, 2, b'a', b'b']);
        assert_eq!(
            codec.decode::<(u8, String)>(&frame).unwrap(),
            (3, "ab".into())
        );
    }

    #[test]
    fn another_version_is_reported_in_words() {
        let frame = Codec::new(2).encode(&5u32).unwrap();
        let err = Codec::new(1).decode::<u32>(&frame).unwrap_err();
        assert_eq!(err, FrameError::Version { theirs: 2, ours: 1 });
        assert_eq!(
            err.to_string(),
            "the other side speaks protocol 2, this side 1"
        );
    }

    #[test]
    fn empty_truncated_and_left_over_bytes_are_told_apart() {
        let codec = Codec::new(1);
        assert_eq!(codec.decode::<u8>(&[]).unwrap_err(), FrameError::Empty);
        let frame = codec.encode(&"hello".to_string()).unwrap();
        assert_eq!(
            codec.decode::<String>(&frame[..4]).unwrap_err(),
            FrameError::Truncated { len: 4 }
        );
        let mut long = frame.clone();
        long.extend([9, 9]);
        assert_eq!(
            codec.decode::<String>(&long).unwrap_err().to_string(),
            "garbage frame: 2 bytes left over after the payload"
        );
    }

    #[test]
    fn an_unknown_variant_is_garbage() {
        let codec = Codec::new(1);
        let err = codec.decode::<Move>(&[1, 9]).unwrap_err();
        assert!(matches!(err, FrameError::Garbage { .. }), "{err}");
    }

    #[test]
    fn the_size_limit_holds_both_ways_and_names_the_size() {
        let codec = Codec::new(1).with_max_frame(16);
        let big = vec![0u8; 20];
        assert_eq!(
            codec.encode(&big).unwrap_err(),
            FrameError::TooLarge {
                size: 22,
                limit: 16
            }
        );
        assert_eq!(
            codec.decode::<Vec<u8>>(&[0; 17]).unwrap_err().to_string(),
            "frame of 17 bytes is over the limit of 16"
        );
        let fits = vec![0u8; 14];
        assert_eq!(codec.encode(&fits).unwrap().len(), 16);
    }

    proptest! {
        #[test]
        fn decoding_random_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
            let codec = Codec::new(1);
            let _ = codec.decode::<Move>(&bytes);
            let _ = codec.decode::<Vec<Move>>(&bytes);
            let _ = codec.decode::<(String, Option<char>, f64)>(&bytes);
        }

        #[test]
        fn a_version_one_body_of_random_bytes_never_panics(body in prop::collection::vec(any::<u8>(), 0..300)) {
            let mut frame = vec![1];
            frame.extend(body);
            let _ = Codec::new(1).decode::<Vec<Move>>(&frame);
        }

        #[test]
        fn encode_then_decode_gives_the_payload_back(moves in prop::collection::vec(any_move(), 0..8), version: u8) {
            let codec = Codec::new(version);
            let frame = codec.encode(&moves).unwrap();
            prop_assert_eq!(frame[0], version);
            prop_assert_eq!(codec.decode::<Vec<Move>>(&frame).unwrap(), moves);
        }
    }
}
