//! The page and the frames: answered on the server's own threads, without the game. The
//! session publishes each frame it renders into a shared slot; a request for a frame waits
//! (briefly) for one newer than the page has, and encodes it as PNG off the game's thread.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::http::{Request, Response};
use jengine_render::Frame;

/// The page page.
const PAGE: &str = include_str!("page.html");

/// The latest frame, shared with the server's threads.
pub struct Frames {
    slot: Mutex<FrameSlot>,
    ready: Condvar,
}

struct FrameSlot {
    version: u64,
    frame: Option<Arc<Frame>>,
    wanted: Option<Instant>,
}

impl Frames {
    pub(super) fn new() -> Frames {
        Frames {
            slot: Mutex::new(FrameSlot {
                version: 0,
                frame: None,
                wanted: None,
            }),
            ready: Condvar::new(),
        }
    }

    pub(super) fn wanted_recently(&self) -> bool {
        self.slot
            .lock()
            .map(|s| {
                s.wanted
                    .is_some_and(|t| t.elapsed() < Duration::from_secs(2))
            })
            .unwrap_or(false)
    }

    pub(super) fn publish(&self, frame: Frame) {
        if let Ok(mut slot) = self.slot.lock() {
            slot.version += 1;
            slot.frame = Some(Arc::new(frame));
        }
        self.ready.notify_all();
    }

    /// Waits (a little) for a frame newer than `after` and encodes it.
    fn newer(&self, after: u64) -> Response {
        let Ok(mut slot) = self.slot.lock() else {
            return Response::error(500, "the frame slot is broken");
        };
        slot.wanted = Some(Instant::now());
        let deadline = Instant::now() + Duration::from_millis(500);
        while slot.version <= after || slot.frame.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            slot = match self.ready.wait_timeout(slot, left) {
                Ok((s, _)) => s,
                Err(_) => return Response::error(500, "the frame slot is broken"),
            };
        }
        let (version, frame) = (slot.version, slot.frame.clone());
        drop(slot);
        let Some(frame) = frame else {
            return Response::error(503, "no frame yet");
        };
        let png = match frame.png_fast() {
            Ok(png) => png,
            Err(e) => return Response::error(500, format!("cannot encode the frame: {e}")),
        };
        Response {
            status: 200,
            content_type: "image/png",
            body: png,
            headers: vec![("X-Frame-Version", version.to_string())],
        }
    }
}

/// Answers the requests that need no game: the page itself and frames.
pub fn serve_outside(request: &Request, frames: &Frames) -> Option<Response> {
    match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/") | ("GET", "/index.html") => Some(Response {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: PAGE.as_bytes().to_vec(),
            headers: vec![(
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'".into(),
            )],
        }),
        ("GET", "/api/frame") => {
            let after = request
                .param("after")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            Some(frames.newer(after))
        }
        _ => None,
    }
}
