//! Timed input for headless runs: a JSON list of pointer, key and text events, each at a frame.
//!
//! The same file replayed against the same seed gives the same session, which is how a
//! run is compared with a replay of itself. [`PasteKeys`] is the one rule for telling a paste
//! (Ctrl+V, Shift+Insert) in a stream of key events, in a window and headless alike.

use serde::{Deserialize, Serialize};

/// A pointer phase, as scripts receive it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Button went down.
    Press,
    /// Moved with the button down.
    Drag,
    /// Button came up.
    Release,
    /// Moved with the button up.
    Hover,
}

impl Phase {
    /// The seam's name for it, as packages read it from [`jengine::Pointer`].
    pub fn seam(self) -> jengine::PointerPhase {
        match self {
            Phase::Press => jengine::PointerPhase::Press,
            Phase::Drag => jengine::PointerPhase::Drag,
            Phase::Release => jengine::PointerPhase::Release,
            Phase::Hover => jengine::PointerPhase::Hover,
        }
    }

    /// The name scripts see.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Press => "press",
            Phase::Drag => "drag",
            Phase::Release => "release",
            Phase::Hover => "hover",
        }
    }
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Event {
    /// A pointer event in world coordinates.
    Pointer {
        /// Press, drag, release or hover.
        phase: Phase,
        /// World x.
        x: f64,
        /// World y.
        y: f64,
    },
    /// A key going down or up, by name (`left`, `space`, `a`, `escape`, ...).
    Key {
        /// The key's name.
        key: String,
        /// Whether it went down.
        down: bool,
    },
    /// The mouse wheel turned with the pointer at a point in world coordinates. It scrolls the
    /// text box there (`overflow = "scroll"`); scripts get no callback for it.
    Wheel {
        /// World x of the pointer.
        x: f64,
        /// World y of the pointer.
        y: f64,
        /// Notches turned: above zero away from the player (up, toward a box's first line),
        /// below zero toward them. A touchpad gives fractions.
        dy: f64,
    },
    /// Text the player typed or pasted: a character, or a whole paste as one event. At most
    /// [`jengine::MAX_TEXT_INPUT`] bytes.
    Text {
        /// The text, as given (it may hold any character, newlines and NULs included).
        text: String,
    },
}

/// `Ok` when a text event of this text may reach the game; else why it is refused (it is
/// never cut: half a share link is worse than none).
pub fn check_text(text: &str) -> Result<(), String> {
    if text.len() > jengine::MAX_TEXT_INPUT {
        Err(format!(
            "a text event of {} bytes is refused; one may be at most {} bytes",
            text.len(),
            jengine::MAX_TEXT_INPUT
        ))
    } else {
        Ok(())
    }
}

/// What a key event is, once [`PasteKeys`] has seen it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyUse {
    /// An ordinary key event: it goes to the scripts.
    Deliver,
    /// The press of a paste: the clipboard's text goes to the scripts in its place.
    Paste,
    /// The release of a key whose press was a paste: it goes nowhere, as its press did.
    Drop,
}

/// Follows Ctrl and Shift through key events (by the names scripts get: `ctrl`, `shift`) and
/// tells a paste: `v` pressed with Ctrl held, or `insert` with Shift held. The paste key itself
/// never reaches scripts, so a recording holds the pasted text and not the keys, and a replay
/// does not paste again.
#[derive(Debug, Clone, Default)]
pub struct PasteKeys {
    ctrl: bool,
    shift: bool,
    /// Paste keys pressed and not yet released.
    held: Vec<String>,
}

impl PasteKeys {
    /// What the key event `key`/`down` is.
    pub fn key(&mut self, key: &str, down: bool) -> KeyUse {
        match key {
            "ctrl" => self.ctrl = down,
            "shift" => self.shift = down,
            _ => {}
        }
        let paste = (self.ctrl && key == "v") || (self.shift && key == "insert");
        if down && paste {
            if !self.held.iter().any(|k| k == key) {
                self.held.push(key.to_string());
            }
            return KeyUse::Paste;
        }
        if !down && let Some(i) = self.held.iter().position(|k| k == key) {
            self.held.swap_remove(i);
            return KeyUse::Drop;
        }
        KeyUse::Deliver
    }
}

/// An event and the frame it arrives on (1 is the first frame).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimedEvent {
    /// The frame.
    pub frame: u64,
    /// The event.
    #[serde(flatten)]
    pub event: Event,
}

/// Events sorted by frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InputScript {
    events: Vec<TimedEvent>,
    next: usize,
}

/// Key presses as the text of an input file, one event a line: each `(frame, key)` goes down
/// on `frame` and comes up on the next. Tests that play a game write their presses with it, so
/// the committed file is exactly what they pressed.
pub fn key_presses_json<K: AsRef<str>>(keys: &[(u64, K)]) -> String {
    let mut lines = Vec::with_capacity(keys.len() * 2);
    for (frame, key) in keys {
        let key = serde_json::to_string(key.as_ref()).unwrap_or_default();
        lines.push(format!(
            r#"  {{ "frame": {frame}, "type": "key", "key": {key}, "down": true }}"#
        ));
        lines.push(format!(
            r#"  {{ "frame": {}, "type": "key", "key": {key}, "down": false }}"#,
            frame + 1
        ));
    }
    format!("[\n{}\n]\n", lines.join(",\n"))
}

impl InputScript {
    /// Parses an input file; every problem names the event's index and field.
    pub fn parse(text: &str) -> Result<InputScript, String> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let events: Vec<TimedEvent> = serde_path_to_error_deserialize(de)?;
        for (i, e) in events.iter().enumerate() {
            if e.frame == 0 {
                return Err(format!("[{i}].frame: frames count from 1"));
            }
            match &e.event {
                Event::Pointer { x, y, .. } if !(x.is_finite() && y.is_finite()) => {
                    return Err(format!("[{i}]: pointer position must be finite"));
                }
                Event::Wheel { x, y, .. } if !(x.is_finite() && y.is_finite()) => {
                    return Err(format!("[{i}]: wheel position must be finite"));
                }
                Event::Wheel { dy, .. } if !dy.is_finite() => {
                    return Err(format!("[{i}].dy: notches must be a finite number"));
                }
                Event::Text { text } => check_text(text).map_err(|e| format!("[{i}].text: {e}"))?,
                _ => {}
            }
        }
        let mut events = events;
        events.sort_by_key(|e| e.frame);
        Ok(InputScript { events, next: 0 })
    }

    /// A script from events already in memory.
    pub fn from_events(mut events: Vec<TimedEvent>) -> InputScript {
        events.sort_by_key(|e| e.frame);
        InputScript { events, next: 0 }
    }

    /// The frame of the script's last event, `None` for an empty script.
    pub fn last_frame(&self) -> Option<u64> {
        self.events.last().map(|e| e.frame)
    }

    /// The events due on `frame`, in file order; each is handed out once.
    pub fn due(&mut self, frame: u64) -> Vec<Event> {
        let mut out = Vec::new();
        while let Some(e) = self.events.get(self.next) {
            if e.frame > frame {
                break;
            }
            out.push(e.event.clone());
            self.next += 1;
        }
        out
    }
}

fn serde_path_to_error_deserialize<'de, T: Deserialize<'de>>(
    de: &mut serde_json::Deserializer<serde_json::de::StrRead<'de>>,
) -> Result<T, String> {
    let value: T = serde_path_to_error::deserialize(&mut *de)
        .map_err(|e| jengine::host::describe_path_error(&e))?;
    de.end().map_err(|e| e.to_string())?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn random_text_never_panics_the_input_parser(text in ".{0,120}") {
            let _ = InputScript::parse(&text);
        }

        #[test]
        fn random_events_never_panic_and_come_out_in_frame_order(
            frames in proptest::collection::vec(0u64..20, 0..12),
            xs in proptest::collection::vec(-1e9f64..1e9, 12),
        ) {
            let events: Vec<serde_json::Value> = frames
                .iter()
                .zip(&xs)
                .map(|(f, x)| serde_json::json!({"frame": f, "type": "pointer", "phase": "hover", "x": x, "y": 0}))
                .collect();
            if let Ok(mut input) = InputScript::parse(&serde_json::Value::Array(events).to_string()) {
                let total: usize = (1..20).map(|f| input.due(f).len()).sum();
                prop_assert_eq!(total, frames.len());
            } else {
                prop_assert!(frames.contains(&0));
            }
        }
    }

    #[test]
    fn events_come_out_on_their_frame() {
        let text = r#"[
            {"frame": 3, "type": "key", "key": "r", "down": true},
            {"frame": 1, "type": "pointer", "phase": "press", "x": 2.5, "y": 0}
        ]"#;
        let mut input = InputScript::parse(text).unwrap();
        assert_eq!(input.due(1).len(), 1);
        assert!(input.due(2).is_empty());
        assert_eq!(
            input.due(3),
            vec![Event::Key {
                key: "r".into(),
                down: true
            }]
        );
    }

    #[test]
    fn text_events_round_trip_as_json() {
        let events = vec![
            TimedEvent {
                frame: 2,
                event: Event::Text {
                    text: "miau://pack?d=\u{0}\u{7}\n\t猫".into(),
                },
            },
            TimedEvent {
                frame: 1,
                event: Event::Key {
                    key: "a".into(),
                    down: true,
                },
            },
        ];
        let text = serde_json::to_string(&events).unwrap();
        assert!(text.contains(r#""type":"text","text":"#), "{text}");
        let mut input = InputScript::parse(&text).unwrap();
        assert_eq!(input.due(1), vec![events[1].event.clone()]);
        assert_eq!(input.due(2), vec![events[0].event.clone()]);
        let written = r#"[{"frame": 1, "type": "text", "text": "héllo"}]"#;
        let mut input = InputScript::parse(written).unwrap();
        assert_eq!(
            input.due(1),
            vec![Event::Text {
                text: "héllo".into()
            }]
        );
    }

    #[test]
    fn an_oversized_text_event_is_refused_not_cut() {
        let most = "x".repeat(jengine::MAX_TEXT_INPUT);
        let fits = serde_json::json!([{"frame": 1, "type": "text", "text": most}]);
        assert!(InputScript::parse(&fits.to_string()).is_ok());
        let over = serde_json::json!([
            {"frame": 1, "type": "key", "key": "a", "down": true},
            {"frame": 1, "type": "text", "text": most + "y"}
        ]);
        let err = InputScript::parse(&over.to_string()).unwrap_err();
        assert_eq!(
            err,
            "[1].text: a text event of 1048577 bytes is refused; one may be at most 1048576 bytes"
        );
        let err = InputScript::parse(r#"[{"frame": 1, "type": "text"}]"#).unwrap_err();
        assert!(err.contains("text"), "{err}");
    }

    #[test]
    fn ctrl_v_and_shift_insert_are_pastes_and_their_keys_go_nowhere() {
        let mut keys = PasteKeys::default();
        assert_eq!(keys.key("v", true), KeyUse::Deliver);
        assert_eq!(keys.key("v", false), KeyUse::Deliver);
        assert_eq!(keys.key("ctrl", true), KeyUse::Deliver);
        assert_eq!(keys.key("v", true), KeyUse::Paste);
        assert_eq!(keys.key("ctrl", false), KeyUse::Deliver);
        // Released after Ctrl: still the paste's key.
        assert_eq!(keys.key("v", false), KeyUse::Drop);
        assert_eq!(keys.key("v", false), KeyUse::Deliver);
        assert_eq!(keys.key("shift", true), KeyUse::Deliver);
        assert_eq!(keys.key("insert", true), KeyUse::Paste);
        assert_eq!(keys.key("insert", false), KeyUse::Drop);
        assert_eq!(keys.key("c", true), KeyUse::Deliver);
    }

    #[test]
    fn bad_events_name_index_and_field() {
        let err = InputScript::parse(
            r#"[{"frame": 1, "type": "pointer", "phase": "tap", "x": 0, "y": 0}]"#,
        )
        .unwrap_err();
        assert!(err.contains("[0]") && err.contains("tap"), "{err}");
        let err = InputScript::parse(r#"[{"frame": 0, "type": "key", "key": "a", "down": true}]"#)
            .unwrap_err();
        assert!(err.contains("[0].frame"), "{err}");
    }
}
