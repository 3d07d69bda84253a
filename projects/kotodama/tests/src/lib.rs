//! What every Kotodama test reads off a running game: the project, the table's bag and layout,
//! an entity's text and place, the warnings logged.
// Each test file uses a different part of this.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use jengine_kotoba::draw::Layout;
use jengine_kotoba::{Session, Table};
use jengine_tool::Runtime;

/// Kotodama's project folder.
pub fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../projects/kotodama")
}

/// The `kotoba` bag of the entity named `table`.
pub fn bag(rt: &Runtime) -> serde_json::Value {
    rt.bags()["table"]["kotoba"].clone()
}

/// The entity named `name`, which the scene must have.
pub fn entity(rt: &Runtime, name: &str) -> jengine::Entity {
    rt.find(name)
        .unwrap_or_else(|| panic!("no entity {name:?} in {}", rt.scene()))
}

/// What an entity's text says now.
pub fn text(rt: &Runtime, name: &str) -> String {
    entity(rt, name);
    rt.text(name)
        .unwrap_or_else(|| panic!("{name:?} has no text in {}", rt.scene()))
}

/// Where an entity is.
pub fn centre(rt: &Runtime, name: &str) -> [f32; 2] {
    let e = entity(rt, name);
    rt.world
        .entities
        .get::<&jengine::Transform2D>(e)
        .unwrap()
        .pos
}

/// Warnings the run logged since the last call (a script error, a failed scene load, ...).
pub fn warnings(rt: &mut Runtime) -> Vec<String> {
    rt.take_log()
        .into_iter()
        .filter(|l| l.level >= jengine::LogLevel::Warn)
        .map(|l| l.message)
        .collect()
}

/// The table's session and layout, as the player sees the screen.
pub fn look(rt: &Runtime) -> (Session, Layout) {
    let e = rt.find("table").unwrap();
    let session = (*rt.world.entities.get::<&Session>(e).unwrap()).clone();
    let table = (*rt.world.entities.get::<&Table>(e).unwrap()).clone();
    let layout = Layout::of(&table, &session);
    (session, layout)
}
