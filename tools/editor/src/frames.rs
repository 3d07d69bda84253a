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
    /// The newest version a page has been sent.
    served: u64,
    /// How long the last frame took to encode, in milliseconds.
    encode_ms: f64,
}

impl Frames {
    pub(super) fn new() -> Frames {
        Frames {
            slot: Mutex::new(FrameSlot {
                version: 0,
                frame: None,
                wanted: None,
                served: 0,
                encode_ms: 0.0,
            }),
            ready: Condvar::new(),
        }
    }

    /// Whether a new frame would be looked at: a page asked lately and has been sent the
    /// newest one (a frame drawn while the page still works on the last would be thrown
    /// away, and drawing is the game thread's dearest work). A frame not fetched for half a
    /// second counts as taken, so a page that went away and came back gets a fresh one.
    pub(super) fn wants_next(&self) -> bool {
        self.slot
            .lock()
            .map(|s| {
                s.wanted
                    .is_some_and(|t| t.elapsed() < Duration::from_secs(2))
                    && (s.served >= s.version
                        || s.wanted
                            .is_some_and(|t| t.elapsed() > Duration::from_millis(500)))
            })
            .unwrap_or(false)
    }

    /// How long the last frame took to encode as PNG, in milliseconds.
    pub(super) fn encode_ms(&self) -> f64 {
        self.slot.lock().map(|s| s.encode_ms).unwrap_or(0.0)
    }

    pub(super) fn publish(&self, frame: Frame) {
        if let Ok(mut slot) = self.slot.lock() {
            slot.version += 1;
            slot.frame = Some(Arc::new(frame));
        }
        self.ready.notify_all();
    }

    /// Waits (a little) for a frame newer than `after` and encodes it: as PNG, or with `raw`
    /// as its pixels as they are (straight RGBA, a row after another, its size in the
    /// `X-Frame-Width` and `X-Frame-Height` headers), which the page draws without decoding.
    fn newer(&self, after: u64, raw: bool) -> Response {
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
        slot.served = slot.served.max(version);
        drop(slot);
        let Some(frame) = frame else {
            return Response::error(503, "no frame yet");
        };
        if raw {
            return Response {
                status: 200,
                content_type: "application/octet-stream",
                body: frame.rgba.clone(),
                headers: vec![
                    ("X-Frame-Version", version.to_string()),
                    ("X-Frame-Width", frame.width.to_string()),
                    ("X-Frame-Height", frame.height.to_string()),
                ],
            };
        }
        let started = Instant::now();
        let png = match frame.png_fast() {
            Ok(png) => png,
            Err(e) => return Response::error(500, format!("cannot encode the frame: {e}")),
        };
        if let Ok(mut slot) = self.slot.lock() {
            slot.encode_ms = started.elapsed().as_secs_f64() * 1000.0;
        }
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
            Some(frames.newer(after, request.param("format") == Some("rgba")))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(shade: u8) -> Frame {
        Frame {
            width: 3,
            height: 2,
            rgba: vec![shade; 3 * 2 * 4],
        }
    }

    #[test]
    fn a_frame_goes_as_pixels_or_as_png_and_the_next_is_drawn_once_this_one_is_taken() {
        let frames = Frames::new();
        assert!(!frames.wants_next(), "no page has asked");
        frames.publish(frame(7));
        let raw = frames.newer(0, true);
        assert_eq!(raw.status, 200);
        assert_eq!(raw.content_type, "application/octet-stream");
        assert_eq!(raw.body, vec![7; 24]);
        let header = |name: &str| {
            raw.headers
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(header("X-Frame-Version").as_deref(), Some("1"));
        assert_eq!(header("X-Frame-Width").as_deref(), Some("3"));
        assert_eq!(header("X-Frame-Height").as_deref(), Some("2"));
        // The page has the newest frame, so the next one is worth drawing.
        assert!(frames.wants_next());
        frames.publish(frame(9));
        let png = frames.newer(1, false);
        assert_eq!(png.content_type, "image/png");
        assert!(png.body.starts_with(b"\x89PNG"));
        assert!(frames.wants_next());
    }
}
