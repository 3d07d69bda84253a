//! The WebSocket transport under jengine's online play: typed frames between a game and a
//! server, with every limit kept by the transport so the code above it need not.
//!
//! It knows nothing of the ECS, the scripts or any game, and links none of them: a room server
//! builds on it without the engine. (A project still lists `jengine-net` by name; the entry that
//! listing names, `jengine_online::NetPackage`, lives in `jengine-online`.) Three parts:
//!
//! - **Frames** ([`Codec`]): one protocol version byte, then a postcard payload of any serde
//!   type. Decoding checks the size, then the version (a mismatch is reported in words), and
//!   never panics.
//! - **[`Client`]**: a game's connection. A game calls [`Client::poll`] and [`Client::send`]
//!   once a frame and neither ever waits: events come out of a queue, frames go into a bounded
//!   one. Pings measure the round trip; reconnection with backoff is a setting. The same client
//!   and the same connection logic run on both platforms over a small transport: natively a
//!   thread of its own over tungstenite, in a browser (wasm32) the page's `WebSocket`, reached
//!   through the module's `net` imports (the page part `tools/web/page/net.js` answers them).
//!   There a page can neither ping nor see pongs, so no round trip is measured and silence
//!   closes nothing; a close frame the page sends carries 1000 for the codes a browser refuses.
//! - **Server** ([`serve`], [`Connection`]; native only): a tokio acceptor that hands each
//!   client to a handler as a stream of typed frames, after the handshake, and closes with a
//!   reason any client that idles, floods, sends garbage or oversized frames, or stops reading.
//!
//! Priorities, in order: a game frame never blocks; a bad peer costs the other side bounded
//! memory and time; every close says why, in words, on both ends; then speed.
//!
//! ```no_run
//! use jengine_net::{Client, ClientConfig, Event};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize)]
//! enum Up { Hello(String) }
//! #[derive(Deserialize, Debug)]
//! enum Down { Welcome(u32) }
//!
//! let mut client: Client<Up, Down> =
//!     Client::connect("ws://127.0.0.1:7777/room", ClientConfig::default()).unwrap();
//! client.send(&Up::Hello("tama".into())).unwrap(); // queued until the connection opens
//! loop {
//!     for event in client.poll() {
//!         match event {
//!             Event::Message(Down::Welcome(seat)) => println!("seat {seat}"),
//!             Event::Closed { code, why } => return println!("closed ({code}): {why}"),
//!             _ => {}
//!         }
//!     }
//!     std::thread::sleep(std::time::Duration::from_millis(16)); // one game frame
//! }
//! ```
//!
//! The server side of the same protocol, in a tokio runtime:
//!
//! ```no_run
//! # use serde::{Deserialize, Serialize};
//! # #[derive(Deserialize)] enum Up { Hello(String) }
//! # #[derive(Serialize)] enum Down { Welcome(u32) }
//! # async fn run() -> std::io::Result<()> {
//! use jengine_net::{serve, Connection, ServerConfig};
//!
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:7777").await?;
//! let server = serve(listener, ServerConfig::default(), |mut conn: Connection<Down, Up>| async move {
//!     while let Ok(Up::Hello(_name)) = conn.recv().await {
//!         let _ = conn.send(&Down::Welcome(1));
//!     }
//! })?;
//! // It accepts until shut down (or dropped): tell every client, wait for the handlers.
//! server.shutdown(std::time::Duration::from_secs(5)).await;
//! # Ok(()) }
//! ```
#![warn(missing_docs)]

mod client;
mod clock;
mod close;
mod frame;
mod limit;
mod ping;
#[cfg(not(target_arch = "wasm32"))]
mod server;
mod value;
mod value_ser;

pub use client::{Client, ClientConfig, ConnectError, Event, Reconnect, SendError, State};
pub use close::CloseReason;
pub use frame::{Codec, DEFAULT_MAX_FRAME, FrameError};
pub use limit::RateLimit;
#[cfg(not(target_arch = "wasm32"))]
pub use server::{AcceptError, Connection, Sender, Server, ServerConfig, serve};
pub use value::{MAX_DEPTH, MAX_NODES, Value, ValueError};

/// tungstenite's settings for a frame size limit: nothing larger is read (the check is on the
/// frame header, before the payload is buffered), and the write buffer is bounded so a peer
/// that does not read pushes back instead of growing it.
///
/// The read buffer is one page whatever the limit: tungstenite zeroes the whole buffer before
/// every read from the socket (a poll that finds nothing included), so a buffer the size of a
/// 64 KiB limit cost a server most of its time at a few thousand connections, and 64 KiB of
/// memory each. A game's frames are far smaller; a larger one is still read, in several reads.
#[cfg(not(target_arch = "wasm32"))]
fn ws_config(max_frame: usize) -> tungstenite::protocol::WebSocketConfig {
    const WRITE_BUFFER: usize = 128 * 1024;
    const READ_BUFFER: usize = 4096;
    tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(max_frame))
        .max_frame_size(Some(max_frame))
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(WRITE_BUFFER + 2 * max_frame + 1024)
}
