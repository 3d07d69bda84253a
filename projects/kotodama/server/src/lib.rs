//! Kotodama's room server: players meet in a lobby, sit two to a room, and fight a word
//! battle the room owns.
//!
//! The room is always right. It applies moves in the order it hears them (two players racing
//! for one cell are settled by whose move arrived first), answers every move at once with a
//! state that acknowledges its number, and sends the state ten times a second besides. Players
//! predict their own moves on a `jengine_kotoba::net::Mirror` and take the room's word when it
//! comes.
//!
//! Every frame is version byte `jengine_kotoba::net::WIRE` then the postcard of a
//! `jengine_kotoba::net` message, decoded by the transport straight into the message type. The
//! transport keeps the limits (frame size, rate, handshake and idle timeouts, a player who stops
//! reading) and closes a frame that is no message with 1007 and the reason; the server adds the
//! lobby's (a hello timeout, most players, most rooms) and closes a message that breaks its
//! caps the same way, while the room goes on.
//!
//! Priorities, in order: the room's word is the same for both players; one bad or slow player
//! costs the others nothing; a fleet can run it (health, metrics, drain); then speed.
//!
//! ```no_run
//! use kotodama_server::{Config, spawn};
//!
//! let (server, thread) = spawn(Config::default()).unwrap();
//! println!("players connect to {}", server.url());
//! // ... play ...
//! server.drain(); // finish the matches being played, take no new ones, then stop
//! thread.join().unwrap();
//! ```
#![warn(missing_docs)]

mod config;
mod fleet;
#[doc(hidden)]
pub mod hot;
mod http;
mod life;
mod lobby;
mod metrics;
mod player;
mod room;
mod server;
mod wire;

/// The protocol version byte of every frame (`jengine_net::Codec::new(PROTOCOL)`): the
/// postcard of a `jengine_kotoba::net` message follows it.
pub const PROTOCOL: u8 = jengine_kotoba::net::WIRE;

pub use config::{Config, read_board};
pub use fleet::FleetConfig;
pub use metrics::{ACK_SAMPLES, FleetFigures, Metrics};
pub use server::{Handle, bind, run, spawn, start};
