//! Why a connection ended: one enum for both ends, each reason with its WebSocket close code and
//! the words sent in the close frame.
//!
//! The words are written for the reader at the other end, so a version mismatch names the server
//! and the client rather than "this side", which would mean different things on each.

use std::fmt;
use std::time::Duration;

use crate::frame::FrameError;

/// Why a connection ended, whichever side ended it.
///
/// [`CloseReason::code`] is the WebSocket close code; `Display` gives the words sent in the close
/// frame (cut to the 123 bytes a close frame can carry).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CloseReason {
    /// Closed on purpose (1000), with the closing side's words.
    Normal(String),
    /// The server is shutting down (1001). A client with reconnection on tries again.
    GoingAway,
    /// The two ends speak different protocol versions (1002).
    Protocol {
        /// The version the server speaks.
        server: u8,
        /// The version the client speaks.
        client: u8,
    },
    /// A frame that breaks the WebSocket rules themselves (1002).
    BadWebSocket(String),
    /// A text frame: this transport speaks binary frames only (1003).
    Text,
    /// A frame that is not an encoding of the payload type (1007).
    Garbage(String),
    /// More frames than the rate limit allows (1008).
    Flood {
        /// Frames a second allowed over time.
        per_second: u32,
        /// Frames allowed at once.
        burst: u32,
    },
    /// A frame over the size limit (1009).
    TooLarge {
        /// The frame's size in bytes.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// Nothing was heard (not even a pong) for too long (4000). A client with reconnection on
    /// tries again.
    Idle {
        /// How long the silence was allowed to last.
        after: Duration,
    },
    /// The peer stopped reading and its outgoing queue filled (4001). No close frame is sent:
    /// the peer would not read it; the connection is dropped.
    SlowReader {
        /// The queue's capacity, in frames.
        queued: usize,
    },
    /// More frames arrived than may wait unread (4002): a browser's page cannot stop reading
    /// its socket, so a client there that falls this far behind closes instead.
    Backlog {
        /// Frames that may wait.
        waiting: usize,
    },
    /// The other side closed, with its code and words.
    Peer {
        /// The code it sent (1005 when its close frame had none).
        code: u16,
        /// Its words.
        why: String,
    },
    /// The connection ended without a close frame: a reset, an end of stream, a socket error
    /// (1006, never sent).
    Lost(String),
}

/// The longest reason a close frame carries, in bytes.
const MAX_REASON: usize = 123;

impl CloseReason {
    /// The WebSocket close code.
    pub fn code(&self) -> u16 {
        match self {
            CloseReason::Normal(_) => 1000,
            CloseReason::GoingAway => 1001,
            CloseReason::Protocol { .. } | CloseReason::BadWebSocket(_) => 1002,
            CloseReason::Text => 1003,
            CloseReason::Lost(_) => 1006,
            CloseReason::Garbage(_) => 1007,
            CloseReason::Flood { .. } => 1008,
            CloseReason::TooLarge { .. } => 1009,
            CloseReason::Idle { .. } => 4000,
            CloseReason::SlowReader { .. } => 4001,
            CloseReason::Backlog { .. } => 4002,
            CloseReason::Peer { code, .. } => *code,
        }
    }

    /// Whether the reason goes out in a close frame. A peer that has closed, a lost connection
    /// and a peer that does not read get none.
    pub(crate) fn is_sent(&self) -> bool {
        !matches!(
            self,
            CloseReason::Peer { .. } | CloseReason::Lost(_) | CloseReason::SlowReader { .. }
        )
    }

    /// The words for the close frame, cut at a character boundary to fit.
    pub(crate) fn wire_text(&self) -> String {
        let mut text = self.to_string();
        if text.len() > MAX_REASON {
            let mut end = MAX_REASON;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
        }
        text
    }

    /// The reason for a frame that would not decode, on the server (`server_side`) or the client.
    pub(crate) fn for_frame(err: FrameError, server_side: bool) -> CloseReason {
        match err {
            FrameError::Version { theirs, ours } if server_side => CloseReason::Protocol {
                server: ours,
                client: theirs,
            },
            FrameError::Version { theirs, ours } => CloseReason::Protocol {
                server: theirs,
                client: ours,
            },
            FrameError::TooLarge { size, limit } => CloseReason::TooLarge { size, limit },
            other => CloseReason::Garbage(other.to_string()),
        }
    }
}

/// Whether a client with reconnection on should try again after a close with this code: the
/// server going away or restarting, a lost connection, silence. Not after a close the client
/// caused (garbage, flood, version) or a deliberate one.
pub(crate) fn worth_retrying(code: u16) -> bool {
    matches!(code, 1001 | 1006 | 1011 | 1012 | 1013 | 4000)
}

impl fmt::Display for CloseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CloseReason::Normal(why) => f.write_str(why),
            CloseReason::GoingAway => f.write_str("the server is shutting down"),
            CloseReason::Protocol { server, client } => write!(
                f,
                "protocol mismatch: the server speaks protocol {server}, the client {client}"
            ),
            CloseReason::BadWebSocket(why) => write!(f, "broken WebSocket frame: {why}"),
            CloseReason::Text => f.write_str("text frame: this connection speaks binary frames"),
            CloseReason::Garbage(why) => f.write_str(why),
            CloseReason::Flood { per_second, burst } => write!(
                f,
                "flood: more than {per_second} frames a second (bursts of {burst})"
            ),
            CloseReason::TooLarge { size, limit } => {
                write!(f, "frame of {size} bytes is over the limit of {limit}")
            }
            CloseReason::Idle { after } => {
                write!(f, "idle: nothing heard for {} ms", after.as_millis())
            }
            CloseReason::SlowReader { queued } => write!(
                f,
                "not reading: {queued} frames waiting to be sent, connection dropped"
            ),
            CloseReason::Backlog { waiting } => write!(
                f,
                "behind: more than {waiting} frames from the server waited unread"
            ),
            CloseReason::Peer { code, why } if why.is_empty() => {
                write!(f, "closed with code {code}")
            }
            CloseReason::Peer { why, .. } => f.write_str(why),
            CloseReason::Lost(why) => write!(f, "connection lost: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_mismatch_names_both_ends_from_either_side() {
        let seen_by_server =
            CloseReason::for_frame(FrameError::Version { theirs: 2, ours: 1 }, true);
        let seen_by_client =
            CloseReason::for_frame(FrameError::Version { theirs: 1, ours: 2 }, false);
        assert_eq!(seen_by_server, seen_by_client);
        assert_eq!(
            seen_by_server.to_string(),
            "protocol mismatch: the server speaks protocol 1, the client 2"
        );
        assert_eq!(seen_by_server.code(), 1002);
    }

    #[test]
    fn a_long_reason_is_cut_at_a_character_boundary() {
        let reason = CloseReason::Normal("語".repeat(60));
        let text = reason.wire_text();
        assert!(text.len() <= MAX_REASON);
        assert_eq!(text.chars().count(), MAX_REASON / 3);
    }

    #[test]
    fn only_going_away_lost_and_silence_are_retried() {
        assert!(worth_retrying(CloseReason::GoingAway.code()));
        assert!(worth_retrying(CloseReason::Lost(String::new()).code()));
        assert!(worth_retrying(
            CloseReason::Idle {
                after: Duration::ZERO
            }
            .code()
        ));
        assert!(!worth_retrying(CloseReason::Normal(String::new()).code()));
        assert!(!worth_retrying(CloseReason::Text.code()));
        assert!(!worth_retrying(
            CloseReason::Flood {
                per_second: 1,
                burst: 1
            }
            .code()
        ));
    }
}
