//! The game's messages on the transport's dynamic frames: a player's [`Value`] read as a
//! [`ToServer`] and checked, a [`ToClient`] made a [`Value`] to send.
//!
//! Frames are `Value`s (not typed postcard) because a game's scripts speak through the generic
//! `Online.send`, which makes `Value`s; both ends then read the kotoba messages out of them.

use jengine_kotoba::net::{Gone, ToClient, ToServer};
use jengine_net::{CloseReason, Sender, Value};

/// A player's frame as a message of this game, checked against its caps. The error is the
/// reason to close the connection with.
pub fn read(frame: &Value) -> Result<ToServer, CloseReason> {
    let msg = frame
        .read::<ToServer>()
        .map_err(|e| CloseReason::Garbage(format!("not a message of this game: {e}")))?;
    msg.validate()
        .map_err(|e| CloseReason::Garbage(format!("invalid message: {e}")))?;
    Ok(msg)
}

/// A message as a frame. Every message the rooms send makes one (its nesting is shallow, its
/// floats finite, its whole numbers within 63 bits: a battle's seed is drawn that way); one
/// that would not is left unsent and written in the log.
pub fn frame(msg: &ToClient) -> Option<Value> {
    match Value::of(msg) {
        Ok(value) => Some(value),
        Err(e) => {
            eprintln!("event=error what=\"a message that makes no frame: {e}\"");
            None
        }
    }
}

/// Queues a message to a player. A player who stopped reading is dropped by the transport
/// (their queue is full), and their own task then reports them gone; nothing to do here.
pub fn send(out: &Sender<Value>, msg: &ToClient) {
    if let Some(frame) = frame(msg) {
        let _ = out.send(&frame);
    }
}

/// Sets `acked` in a `State`'s frame (serde's JSON shape: `{"State": {"acked": n, ...}}`), so
/// one frame serves both seats. Says whether the frame had the field.
pub fn set_acked(frame: &mut Value, acked: u32) -> bool {
    let Value::Map(outer) = frame else {
        return false;
    };
    let Some((_, Value::Map(fields))) = outer.iter_mut().find(|(k, _)| k == "State") else {
        return false;
    };
    match fields.iter_mut().find(|(k, _)| k == "acked") {
        Some((_, value)) => {
            *value = Value::Int(i64::from(acked));
            true
        }
        None => false,
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
    use jengine_net::Codec;
    use proptest::prelude::*;

    #[test]
    fn a_message_reads_back_and_a_wrong_one_says_why() {
        let hello = ToServer::Hello {
            version: VERSION,
            name: "ことだま".into(),
        };
        assert_eq!(read(&Value::of(&hello).unwrap()), Ok(hello));
        let Err(CloseReason::Garbage(why)) = read(&Value::Int(3)) else {
            panic!("a number is no message");
        };
        assert!(why.starts_with("not a message of this game"), "{why}");
        let zero = ToServer::Play {
            number: 0,
            mv: Move::Swap { slot: 0 },
        };
        let Err(CloseReason::Garbage(why)) = read(&Value::of(&zero).unwrap()) else {
            panic!("move 0 is refused");
        };
        assert_eq!(
            why,
            "invalid message: Play.number is 0; it must be 1 or more"
        );
    }

    #[test]
    fn a_states_frame_is_given_another_acked() {
        use jengine_kotoba::battle::Battle;
        use jengine_kotoba::dict::Dict;
        use jengine_kotoba::kana::TileStats;
        use jengine_kotoba::net::state_for;
        let (_, setup) = crate::Config::default().setup(["あ", "い"], 9);
        let battle = Battle::new(&setup, &TileStats::from_dict(Dict::japanese())).unwrap();
        let mut value = frame(&ToClient::State(state_for(&battle, 0))).unwrap();
        assert!(set_acked(&mut value, 41));
        assert_eq!(
            value.read::<ToClient>(),
            Ok(ToClient::State(state_for(&battle, 41)))
        );
        let mut other = frame(&ToClient::Left { why: Gone::Quit }).unwrap();
        assert!(!set_acked(&mut other, 1));
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

        /// Whatever bytes arrive, the frame decoder, the value and the message reader answer
        /// without panicking.
        #[test]
        fn decoding_random_bytes_never_panics(
            bytes in prop::collection::vec(any::<u8>(), 0..512),
        ) {
            let codec = Codec::new(1);
            if let Ok(value) = codec.decode::<Value>(&bytes) {
                let _ = read(&value);
            }
            let mut framed = vec![1];
            framed.extend(&bytes);
            if let Ok(value) = codec.decode::<Value>(&framed) {
                let _ = read(&value);
            }
        }

        /// Frames that are values of the right outer shape, with random insides, are read or
        /// refused, never a panic.
        #[test]
        fn random_values_never_panic(
            tag in prop::sample::select(vec!["Hello", "Queue", "Create", "Join", "Play", "Again", "Leave", "Rejoin", "Claim", "Turn"]),
            ints in prop::collection::vec(any::<i64>(), 0..6),
            text in ".{0,40}",
        ) {
            let fields: Vec<(String, Value)> = ints
                .iter()
                .enumerate()
                .map(|(i, n)| (["version", "number", "slot", "x", "y", "name"][i % 6].to_string(), Value::Int(*n)))
                .chain([
                    ("code".to_string(), Value::Str(text.clone())),
                    ("ticket".to_string(), Value::Str(text.clone())),
                    ("reservation".to_string(), Value::Str(text.clone())),
                    ("name".to_string(), Value::Str(text)),
                ])
                .collect();
            let value = Value::Map(vec![(tag.to_string(), Value::Map(fields))]);
            let _ = read(&value);
        }
    }
}
