//! A package's typed protocol through the online component, against a real server on
//! localhost that knows only the typed messages: scripts' tables go out as the messages' own
//! postcard and come back as tables; a table that is no message, or one that breaks the
//! protocol's checks, is refused at the call; a bad message from the server is said in the bag
//! and never reaches scripts; a protocol no package declared is refused at connect.

mod support;

use jengine::{Package, Registry};
use jengine_net::Connection;
use serde::{Deserialize, Serialize};
use support::Game;

/// The version byte of the test protocol.
const WIRE: u8 = 9;

/// What a player sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Up {
    Say {
        text: String,
    },
    /// Asks the server for a message the player's checks refuse.
    Provoke,
    Leave,
}

/// What the server sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Down {
    Heard { text: String, chars: u32 },
}

fn check_up(up: &Up) -> Result<(), String> {
    match up {
        Up::Say { text } if text.chars().count() > 8 => Err(format!(
            "Say.text has {} characters; the most is 8",
            text.chars().count()
        )),
        _ => Ok(()),
    }
}

fn check_down(down: &Down) -> Result<(), String> {
    match down {
        Down::Heard { text, chars } if text.chars().count() as u32 != *chars => {
            Err(format!("Heard.chars is {chars} for {text:?}"))
        }
        _ => Ok(()),
    }
}

/// A package that declares the protocol, as a game's package does in its `register`.
struct Talk;

impl Package for Talk {
    fn name(&self) -> &'static str {
        "talk"
    }
    fn register(&self, reg: &mut Registry) {
        jengine_online::protocol::<Up, Down>(reg, "talk", WIRE, check_up, check_down);
    }
}

/// A server of the typed protocol only: `Say` is answered with what was heard, `Provoke` with
/// a message whose count is wrong.
fn talker() -> (tokio::runtime::Runtime, std::net::SocketAddr) {
    support::server(WIRE, |mut conn: Connection<Down, Up>| async move {
        while let Ok(up) = conn.recv().await {
            let down = match up {
                Up::Say { text } => Down::Heard {
                    chars: text.chars().count() as u32,
                    text,
                },
                Up::Provoke => Down::Heard {
                    text: "にせ".into(),
                    chars: 7,
                },
                Up::Leave => return conn.close("bye"),
            };
            let _ = conn.send(&down);
        }
    })
}

#[test]
fn a_table_goes_out_as_the_typed_message_and_the_answer_comes_back_as_a_table() {
    let (_rt, addr) = talker();
    let mut g = Game::speaking(&format!("ws://{addr}/"), "talk", &[&Talk]);
    g.call("Online.connect", vec![]).unwrap();
    g.send(serde_json::json!({"Say": {"text": "ことば"}}))
        .unwrap();
    let seen = g.until(|b| !b.frames.is_empty());
    let last = seen.last().unwrap();
    assert_eq!(
        last.frames,
        vec![serde_json::json!({"Heard": {"text": "ことば", "chars": 3}})]
    );
    assert_eq!((last.sent, last.received), (1, 1));
    // A close the server makes after a typed message says why, as with the generic frames.
    g.send(serde_json::json!("Leave")).unwrap();
    let seen = g.until(|b| b.status == "closed");
    assert_eq!(seen.last().unwrap().closed.as_deref(), Some("bye"));
}

#[test]
fn a_table_that_is_no_message_or_breaks_the_checks_is_refused_at_the_call_and_not_sent() {
    let (_rt, addr) = talker();
    let mut g = Game::speaking(&format!("ws://{addr}/"), "talk", &[&Talk]);
    g.call("Online.connect", vec![]).unwrap();
    let shout = g.send(serde_json::json!({"Shout": "!"})).unwrap_err();
    assert!(
        shout.starts_with("Online.send: unknown variant `Shout`"),
        "{shout}"
    );
    let long = g
        .send(serde_json::json!({"Say": {"text": "ながいながいながいことば"}}))
        .unwrap_err();
    assert_eq!(
        long,
        "Online.send: Say.text has 12 characters; the most is 8"
    );
    let wrong = g.send(serde_json::json!({"Say": {"text": 5}})).unwrap_err();
    assert!(wrong.contains("invalid type"), "{wrong}");
    // Nothing was sent: the next message is the first the server hears.
    g.send(serde_json::json!({"Say": {"text": "あ"}})).unwrap();
    let seen = g.until(|b| !b.frames.is_empty());
    let last = seen.last().unwrap();
    assert_eq!(last.sent, 1);
    assert_eq!(last.frames.len(), 1);
}

#[test]
fn a_bad_message_from_the_server_is_said_in_the_bag_and_never_reaches_scripts() {
    let (_rt, addr) = talker();
    let mut g = Game::speaking(&format!("ws://{addr}/"), "talk", &[&Talk]);
    g.call("Online.connect", vec![]).unwrap();
    g.send(serde_json::json!("Provoke")).unwrap();
    let seen = g.until(|b| b.events.iter().any(|e| e.event == "error"));
    assert!(seen.iter().all(|b| b.frames.is_empty()));
    let why = seen
        .last()
        .unwrap()
        .events
        .iter()
        .find_map(|e| e.why.clone())
        .unwrap();
    assert_eq!(
        why,
        "the server sent a bad message: Heard.chars is 7 for \"にせ\""
    );
    // The connection goes on.
    g.send(serde_json::json!({"Say": {"text": "い"}})).unwrap();
    let seen = g.until(|b| !b.frames.is_empty());
    assert_eq!(seen.last().unwrap().status, "open");
}

#[test]
fn a_protocol_no_package_declared_is_refused_at_connect_naming_those_known() {
    let mut g = Game::speaking("ws://127.0.0.1:9/", "tlak", &[&Talk]);
    let err = g.call("Online.connect", vec![]).unwrap_err();
    assert_eq!(
        err,
        "Online.connect: no linked package speaks protocol \"tlak\" (known: talk)"
    );
    assert_eq!(g.frame().status, "idle");
}

#[test]
fn a_generic_player_and_a_typed_server_disagree_in_words() {
    let (_rt, addr) = talker();
    let mut g = Game::speaking(&format!("ws://{addr}/"), "", &[&Talk]);
    g.call("Online.connect", vec![]).unwrap();
    g.send(serde_json::json!({"Say": {"text": "あ"}})).unwrap();
    let seen = g.until(|b| b.status == "closed");
    assert_eq!(
        seen.last().unwrap().closed.as_deref(),
        Some("protocol mismatch: the server speaks protocol 9, the client 1")
    );
}

/// A scene's `online` component whose protocol is no name (too long, a control character in
/// it) does not load, and says which field; a fair name loads whether or not a package
/// declares it (that is for `Online.connect` to say).
#[test]
fn a_protocol_that_is_no_name_is_refused_when_the_scene_loads() {
    let registry = Registry::with(&[&jengine_online::OnlinePackage, &Talk]);
    let scene = |protocol: &str| {
        serde_json::json!({"version": 2, "entities": [
            {"name": "net", "online": {"url": "ws://127.0.0.1:9/", "protocol": protocol}}
        ]})
        .to_string()
    };
    for bad in ["k".repeat(65), "kotoba\n".to_string(), "\u{7}".to_string()] {
        let err = jengine::host::Scene::parse("t.scene", &scene(&bad), &registry)
            .err()
            .unwrap_or_else(|| panic!("{bad:?} loaded"));
        let said: Vec<String> = err.iter().map(|e| e.to_string()).collect();
        assert!(said.iter().any(|e| e.contains("protocol:")), "{said:?}");
    }
    for fair in ["talk", "tlak", ""] {
        assert!(
            jengine::host::Scene::parse("t.scene", &scene(fair), &registry).is_ok(),
            "{fair:?}"
        );
    }
}
