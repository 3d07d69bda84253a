//! The online component against a real server on localhost: a script-shaped table goes out,
//! comes back as a frame in the bag, the round trip is measured, and every way a connection
//! can fail is said in the bag without stopping the game.

mod support;

use std::time::{Duration, Instant};

use jengine::Value;
use jengine_net::Connection;
use support::Game;

/// An echo server: every frame comes back; `{"bye": why}` closes with `why`.
fn echo() -> (tokio::runtime::Runtime, std::net::SocketAddr) {
    support::server(
        1,
        |mut conn: Connection<jengine_net::Value, jengine_net::Value>| async move {
            while let Ok(frame) = conn.recv().await {
                if let Some(why) = frame.to_json().get("bye").and_then(|w| w.as_str()) {
                    conn.close(why);
                    return;
                }
                let _ = conn.send(&frame);
            }
        },
    )
}

#[test]
fn a_table_goes_out_and_comes_back_in_the_bag() {
    let (_rt, addr) = echo();
    let mut g = Game::new(&format!("ws://{addr}/"));
    assert_eq!(g.frame().status, "idle");
    g.call("Online.connect", vec![]).unwrap();
    let frame =
        serde_json::json!({"Play": {"number": 3, "cells": [[1, 2], [3, 4]]}, "name": "たま"});
    g.call("Online.send", vec![Value::Table(frame.clone())])
        .unwrap();
    let seen = g.until(|b| !b.frames.is_empty());
    assert!(
        seen.iter()
            .any(|b| b.events.iter().any(|e| e.event == "connected"))
    );
    let last = seen.last().unwrap();
    assert_eq!(last.frames, vec![frame]);
    assert_eq!(last.status, "open");
    assert_eq!((last.sent, last.received), (1, 1));
    // The next frame's bag holds only what arrived then.
    assert!(g.frame().frames.is_empty());
    // Pings measure the round trip.
    let seen = g.until(|b| b.round_trip.is_some());
    assert!(seen.last().unwrap().round_trip.unwrap() < 1000.0);
}

#[test]
fn a_close_says_why_and_sends_after_it_are_news_not_errors() {
    let (_rt, addr) = echo();
    let mut g = Game::new(&format!("ws://{addr}/"));
    g.call("Online.connect", vec![]).unwrap();
    g.call(
        "Online.send",
        vec![Value::Table(
            serde_json::json!({"bye": "the room is closing"}),
        )],
    )
    .unwrap();
    let seen = g.until(|b| b.status == "closed");
    let closed = seen.last().unwrap();
    assert_eq!(
        closed.closed.as_deref(),
        Some("the room is closing"),
        "{closed:?}"
    );
    g.call("Online.send", vec![Value::Str("late".into())])
        .unwrap();
    let bag = g.frame();
    assert!(
        bag.events
            .iter()
            .any(|e| e.event == "error" && e.why.as_deref().unwrap_or("").contains("not sent")),
        "{bag:?}"
    );
}

#[test]
fn bad_addresses_and_unreachable_servers_are_said_in_the_bag() {
    let mut g = Game::new("");
    assert!(
        g.call("Online.connect", vec![])
            .unwrap_err()
            .contains("no address")
    );
    g.call(
        "Online.connect",
        vec![Value::Str("wss://example.invalid/".into())],
    )
    .unwrap();
    let bag = g.frame();
    assert_eq!(bag.status, "closed");
    assert!(bag.closed.unwrap().contains("TLS") || bag.events[0].why.is_some());
    // Nobody listens on this port: the connection closes with a reason, and the game never
    // waited for it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    g.call("Online.connect", vec![Value::Str(format!("ws://{port}/"))])
        .unwrap();
    let start = Instant::now();
    g.frame();
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "a frame waited on the network"
    );
    let seen = g.until(|b| b.status == "closed");
    assert!(seen.last().unwrap().closed.is_some());
}

#[test]
fn hostile_frames_are_refused_at_the_call() {
    let (_rt, addr) = echo();
    let mut g = Game::new(&format!("ws://{addr}/"));
    // Not connected yet.
    assert!(
        g.call("Online.send", vec![Value::Int(1)])
            .unwrap_err()
            .contains("not connected")
    );
    g.call("Online.connect", vec![]).unwrap();
    let mut deep = serde_json::json!(1);
    for _ in 0..100 {
        deep = serde_json::json!([deep]);
    }
    assert!(
        g.call("Online.send", vec![Value::Table(deep)])
            .unwrap_err()
            .contains("deeper")
    );
    // A frame over the size limit is refused in the bag, not sent.
    let big = serde_json::json!("x".repeat(200_000));
    g.call("Online.send", vec![Value::Table(big)]).unwrap();
    let bag = g.frame();
    assert!(bag.events.iter().any(|e| e.event == "error"), "{bag:?}");
    // A flood: the client's own rate limit refuses past its burst, said in the bag.
    for i in 0..500 {
        g.call("Online.send", vec![Value::Int(i)]).unwrap();
    }
    let bag = g.frame();
    assert!(
        bag.events
            .iter()
            .any(|e| e.why.as_deref().unwrap_or("").contains("not sent")),
        "{bag:?}"
    );
}

/// A redirect is followed by connecting again on the same entity: the old connection is let go
/// without a `closed` event (the player sees nothing of it), the bag names the new server,
/// and frames sent after go there.
#[test]
fn connecting_elsewhere_moves_the_connection_without_a_close() {
    let (_rt_a, lobby) = echo();
    let (_rt_b, room) = echo();
    let mut g = Game::new(&format!("ws://{lobby}/"));
    g.call("Online.connect", vec![]).unwrap();
    g.until(|b| b.status == "open");
    let room_url = format!("ws://{room}/");
    g.call("Online.connect", vec![Value::Str(room_url.clone())])
        .unwrap();
    g.call(
        "Online.send",
        vec![Value::Table(
            serde_json::json!({"Claim": {"reservation": "ab12"}}),
        )],
    )
    .unwrap();
    let seen = g.until(|b| !b.frames.is_empty());
    assert!(
        seen.iter()
            .all(|b| b.events.iter().all(|e| e.event != "closed")),
        "{seen:?}"
    );
    let last = seen.last().unwrap();
    assert_eq!(last.url, room_url);
    assert_eq!(
        last.frames,
        vec![serde_json::json!({"Claim": {"reservation": "ab12"}})]
    );
    assert_eq!((last.sent, last.received), (1, 1));
}
