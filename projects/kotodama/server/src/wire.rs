//! The game's messages on the wire: the transport decodes a player's frame straight into a
//! [`ToServer`] (version byte [`crate::PROTOCOL`], then the message's postcard), and this reads
//! it against the message's caps; a [`ToClient`] goes out as its own postcard.
//!
//! No dynamic tree stands between the bytes and the types, so a state costs the server one
//! postcard encoding a seat and half the bytes its fields' names would take.

use jengine_kotoba::net::{Gone, ToClient, ToServer};
use jengine_net::{CloseReason, SendError, Sender};

/// A player's message, checked against its caps. The error is the reason to close the
/// connection with.
pub fn read(msg: ToServer) -> Result<ToServer, CloseReason> {
    msg.validate()
        .map_err(|e| CloseReason::Garbage(format!("invalid message: {e}")))?;
    Ok(msg)
}

/// Queues a message to a player. A player who stopped reading is dropped by the transport
/// (their queue is full), and their own task then reports them gone; nothing to do here. A
/// message too large for a frame (none the rooms make is) is left unsent and written in the
/// log.
pub fn send(out: &Sender<ToClient>, msg: &ToClient) {
    if let Err(SendError::Frame(e)) = out.send(msg) {
        eprintln!("event=error what=\"a message that makes no frame: {e}\"");
    }
}

/// How a player's connection ended, in the words the other player is told.
pub fn gone(reason: &CloseReason) -> Gone {
    match reason {
        CloseReason::Lost(_) | CloseReason::Idle { .. } | CloseReason::SlowReader { .. } => {
            Gone::Lost
        }
        CloseReason::Normal(_) | CloseReason::GoingAway | CloseReason::Peer { .. } => Gone::Quit,
        _ => Gone::Removed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jengine_kotoba::Move;
    use jengine_kotoba::net::VERSION;
    use jengine_net::{Codec, FrameError};
    use proptest::prelude::*;

    fn codec() -> Codec {
        Codec::new(crate::PROTOCOL)
    }

    #[test]
    fn a_message_reads_back_and_a_wrong_one_says_why() {
        let hello = ToServer::Hello {
            version: VERSION,
            name: "ことだま".into(),
        };
        let bytes = codec().encode(&hello).unwrap();
        assert_eq!(read(codec().decode(&bytes).unwrap()), Ok(hello));
        let zero = ToServer::Play {
            number: 0,
            mv: Move::Swap { slot: 0 },
        };
        let Err(CloseReason::Garbage(why)) = read(zero) else {
            panic!("move 0 is refused");
        };
        assert_eq!(
            why,
            "invalid message: Play.number is 0; it must be 1 or more"
        );
    }

    #[test]
    fn a_frame_of_the_dynamic_protocol_is_refused_saying_both_versions() {
        let old = jengine_net::Value::of(&ToServer::Queue).unwrap();
        let bytes = Codec::new(1).encode(&old).unwrap();
        assert_eq!(
            codec().decode::<ToServer>(&bytes).unwrap_err(),
            FrameError::Version {
                theirs: 1,
                ours: crate::PROTOCOL
            }
        );
    }

    #[test]
    fn a_state_is_half_the_bytes_of_its_dynamic_frame() {
        use jengine_kotoba::battle::Battle;
        use jengine_kotoba::dict::Dict;
        use jengine_kotoba::kana::TileStats;
        use jengine_kotoba::net::state_for;
        let (_, setup) = crate::Config::default().setup(["あ", "い"], 9);
        let battle = Battle::new(&setup, &TileStats::from_dict(Dict::japanese())).unwrap();
        let msg = ToClient::State(state_for(&battle, 41));
        let typed = codec().encode(&msg).unwrap();
        let dynamic = Codec::new(1)
            .encode(&jengine_net::Value::of(&msg).unwrap())
            .unwrap();
        assert!(
            typed.len() * 2 <= dynamic.len(),
            "{} against {}",
            typed.len(),
            dynamic.len()
        );
        assert_eq!(codec().decode::<ToClient>(&typed), Ok(msg));
    }

    #[test]
    fn the_one_left_behind_hears_how() {
        assert_eq!(gone(&CloseReason::Lost("reset".into())), Gone::Lost);
        assert_eq!(gone(&CloseReason::SlowReader { queued: 4 }), Gone::Lost);
        assert_eq!(
            gone(&CloseReason::Peer {
                code: 1000,
                why: String::new()
            }),
            Gone::Quit
        );
        assert_eq!(
            gone(&CloseReason::Flood {
                per_second: 1,
                burst: 1
            }),
            Gone::Removed
        );
        assert_eq!(gone(&CloseReason::Garbage(String::new())), Gone::Removed);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Whatever bytes arrive, behind the right version byte or not, the decoder and the
        /// message reader answer without panicking.
        #[test]
        fn decoding_random_bytes_never_panics(
            bytes in prop::collection::vec(any::<u8>(), 0..512),
        ) {
            if let Ok(msg) = codec().decode::<ToServer>(&bytes) {
                let _ = read(msg);
            }
            let mut framed = vec![crate::PROTOCOL];
            framed.extend(&bytes);
            if let Ok(msg) = codec().decode::<ToServer>(&framed) {
                let _ = read(msg);
            }
        }

        /// A real message with its bytes flipped or cut is read or refused, never a panic.
        #[test]
        fn tampered_messages_never_panic(
            number in any::<u32>(),
            name in ".{0,40}",
            flip in any::<prop::sample::Index>(),
            bit in 0u8..8,
            cut in any::<prop::sample::Index>(),
        ) {
            for msg in [
                ToServer::Hello { version: VERSION, name: name.clone() },
                ToServer::Join { code: name.clone() },
                ToServer::Play { number, mv: Move::Swap { slot: (number % 9) as usize } },
            ] {
                let mut bytes = codec().encode(&msg).unwrap();
                let at = flip.index(bytes.len());
                bytes[at] ^= 1 << bit;
                if let Ok(msg) = codec().decode::<ToServer>(&bytes) {
                    let _ = read(msg);
                }
                bytes.truncate(cut.index(bytes.len() + 1));
                if let Ok(msg) = codec().decode::<ToServer>(&bytes) {
                    let _ = read(msg);
                }
            }
        }
    }
}
