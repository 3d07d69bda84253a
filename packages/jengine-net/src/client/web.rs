//! The browser's transport: the page's `WebSocket`, reached through the module's `net` imports
//! (answered by the page part `net.js`), under the same connection logic as natively.
//!
//! There is no thread: the logic steps inside the game's own calls ([`Client::poll`],
//! [`Client::send`], [`Client::close`]), on the page's monotonic clock. The page holds what
//! arrived until a poll takes it, within bounds it is given at open: a frame over the size limit
//! is dropped there and only its size is passed on (this side checks the size again before it
//! copies anything), and past `event_queue` frames waiting unread the page stops keeping them and
//! says so, which closes the connection (4002), since a page cannot stop reading its socket.
//!
//! What differs from native, all forced by the browser's WebSocket API: a page can send no pings
//! and sees none, so there is no round trip and silence closes nothing (the server's pings, which
//! the browser answers itself, keep its side honest); a close frame a page sends may carry only
//! 1000 or 3000 to 4999, so the client's other reasons (1002, 1003, 1007, 1009) go out as 1000 with
//! their words, while the game's own event says the real code; the browser hides why a
//! connection could not be made.
//!
//! [`Client::poll`]: super::Client::poll
//! [`Client::send`]: super::Client::send
//! [`Client::close`]: super::Client::close

use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;

use super::life::{Life, Opening, Refused, Seen, Wire};
use super::{ClientConfig, ConnectError, Shared, Target};
use crate::clock::page_now;
use crate::close::CloseReason;

/// The page's side of the sockets (`tools/web/page/net.js`).
mod page {
    #[link(wasm_import_module = "net")]
    unsafe extern "C" {
        /// Opens a WebSocket to the URL in `(ptr, len)`; its id, or 0 if the page refused it.
        pub fn socket_open(
            ptr: *const u8,
            len: usize,
            max_frame: usize,
            max_waiting: usize,
            max_buffered: usize,
        ) -> u32;
        /// 1 if the page took the frame, 0 if it has no room or the socket is not open.
        pub fn socket_send(id: u32, ptr: *const u8, len: usize) -> u32;
        /// Starts a close with this code and words.
        pub fn socket_close(id: u32, code: u32, ptr: *const u8, len: usize);
        /// Lets go of the socket (closing it if it is open) and what it held.
        pub fn socket_forget(id: u32);
        /// Takes the socket's next item; its kind (see `Kind`), 0 if there is none.
        pub fn socket_next(id: u32) -> u32;
        /// The bytes of the item taken last (a frame, or a close's words).
        pub fn item_len() -> usize;
        /// The item's number: a close code, or the size of an oversized frame.
        pub fn item_number() -> f64;
        /// Copies the item's bytes to `ptr` (room for `item_len` bytes).
        pub fn item_copy(ptr: *mut u8);
    }
}

/// What `socket_next` says arrived.
const OPENED: u32 = 1;
const BINARY: u32 = 2;
const TEXT: u32 = 3;
const TOO_LARGE: u32 = 4;
const CLOSED: u32 = 5;
const LOST: u32 = 6;
const BEHIND: u32 = 7;

/// The connection logic of one client, stepped in the game's calls.
pub(super) struct Driver {
    life: Life<PageSocket>,
}

impl Driver {
    /// Starts the first attempt at once: the page opens its socket now.
    pub(super) fn start<In: DeserializeOwned + Send + 'static>(
        target: Target,
        config: ClientConfig,
        shared: Arc<Shared<In>>,
    ) -> Result<Driver, ConnectError> {
        let socket = PageSocket {
            id: 0,
            max_frame: config.codec.max_frame,
            max_waiting: config.event_queue,
            after_close: false,
        };
        let mut driver = Driver {
            life: Life::new(socket, target, config),
        };
        driver.turn(&shared);
        Ok(driver)
    }

    /// The page's clock.
    pub(super) fn now(&self) -> Duration {
        page_now()
    }

    /// Does what is due: takes what arrived, sends what is queued, watches the time.
    pub(super) fn turn<In: DeserializeOwned>(&mut self, shared: &Shared<In>) {
        self.life.step(page_now(), shared);
    }

    /// The client is dropped: its close frame goes now and the page finishes the close alone.
    pub(super) fn let_go<In>(&mut self, shared: &Shared<In>) {
        self.life.let_go(page_now(), shared);
    }
}

/// One of the page's sockets, by its id (0: none).
struct PageSocket {
    id: u32,
    max_frame: usize,
    max_waiting: usize,
    /// The peer's close was passed on; the socket's end follows it.
    after_close: bool,
}

/// The page's send buffer may hold this much before a frame waits in the client's own queue,
/// as natively (128 KiB, and room for two frames at the limit).
fn max_buffered(max_frame: usize) -> usize {
    128 * 1024 + 2 * max_frame + 1024
}

impl Wire for PageSocket {
    fn open(&mut self, target: &Target, _: &ClientConfig) -> Result<Opening, String> {
        self.drop_connection();
        let url = target.url.as_bytes();
        // SAFETY: the page reads `len` bytes at `ptr`, which live through the call.
        let id = unsafe {
            page::socket_open(
                url.as_ptr(),
                url.len(),
                self.max_frame,
                self.max_waiting,
                max_buffered(self.max_frame),
            )
        };
        if id == 0 {
            return Err("the page's WebSocket refused the address".into());
        }
        self.id = id;
        self.after_close = false;
        Ok(Opening::Pending)
    }

    fn next(&mut self) -> Option<Seen> {
        if self.id == 0 {
            return None;
        }
        if self.after_close {
            self.after_close = false;
            self.drop_connection();
            return Some(Seen::Ended(CloseReason::Lost(
                "the socket is closed".into(),
            )));
        }
        // SAFETY: the imports take and return plain numbers.
        let (kind, len, number) = unsafe {
            let kind = page::socket_next(self.id);
            (kind, page::item_len(), page::item_number())
        };
        let number = if number.is_finite() {
            number.max(0.0) as u64
        } else {
            0
        };
        Some(match kind {
            0 => return None,
            OPENED => Seen::Opened,
            BINARY if len > self.max_frame => Seen::Ended(CloseReason::TooLarge {
                size: len,
                limit: self.max_frame,
            }),
            BINARY => Seen::Frame(item_bytes(len)),
            TEXT => Seen::Text,
            TOO_LARGE => Seen::Ended(CloseReason::TooLarge {
                size: usize::try_from(number).unwrap_or(usize::MAX),
                limit: self.max_frame,
            }),
            CLOSED => {
                self.after_close = true;
                let why = if len <= 123 {
                    String::from_utf8_lossy(&item_bytes(len)).into_owned()
                } else {
                    String::new()
                };
                Seen::Close {
                    code: u16::try_from(number).unwrap_or(1005),
                    why,
                }
            }
            LOST => {
                self.drop_connection();
                Seen::Ended(CloseReason::Lost(format!(
                    "the browser's WebSocket closed with code {number} and no close frame"
                )))
            }
            BEHIND => Seen::Ended(CloseReason::Backlog {
                waiting: self.max_waiting,
            }),
            other => Seen::Ended(CloseReason::Lost(format!(
                "the page said {other}, which is no socket event"
            ))),
        })
    }

    fn send(&mut self, frame: Vec<u8>) -> Result<(), Refused> {
        if self.id == 0 {
            return Err(Refused::Full(frame));
        }
        // SAFETY: the page copies `len` bytes at `ptr` during the call.
        match unsafe { page::socket_send(self.id, frame.as_ptr(), frame.len()) } {
            1 => Ok(()),
            // No room, or the socket is closing: its close event explains it next.
            _ => Err(Refused::Full(frame)),
        }
    }

    fn pings(&self) -> bool {
        false
    }

    fn ping(&mut self, _payload: Vec<u8>) -> Result<(), CloseReason> {
        Ok(())
    }

    fn flush(&mut self) -> Result<(), CloseReason> {
        Ok(())
    }

    fn close(&mut self, reason: &CloseReason) {
        if self.id == 0 {
            return;
        }
        let code = match reason.code() {
            code @ (1000 | 3000..=4999) => code,
            _ => 1000,
        };
        let words = reason.wire_text();
        // SAFETY: the page reads `len` bytes at `ptr` during the call.
        unsafe { page::socket_close(self.id, u32::from(code), words.as_ptr(), words.len()) };
    }

    fn drop_connection(&mut self) {
        if self.id != 0 {
            // SAFETY: a plain number.
            unsafe { page::socket_forget(self.id) };
            self.id = 0;
        }
    }
}

/// The bytes of the item `socket_next` took.
fn item_bytes(len: usize) -> Vec<u8> {
    let mut bytes = vec![0; len];
    // SAFETY: `bytes` has room for the `len` bytes the page copies.
    unsafe { page::item_copy(bytes.as_mut_ptr()) };
    bytes
}
