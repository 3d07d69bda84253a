//! Miau opens in the editor: every scene loads and lists its entities, every component (the
//! miau ones with their package) reads back, frames are served, and an edit shows in the
//! running game without touching the file.

use std::path::Path;

use jengine::Package;
use jengine_tool::edit::{EditOptions, open_every_scene};

fn packages() -> Vec<&'static dyn Package> {
    vec![&jengine_miau::MiauPackage]
}

#[test]
fn every_scene_of_miau_opens_in_the_editor() {
    let options =
        EditOptions::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../projects/miau"));
    let probe = ("title", "text", "text", serde_json::json!("Miau!"));
    match open_every_scene(options, packages, probe) {
        Ok(scenes) => assert_eq!(scenes, 5),
        Err(problems) => panic!("{problems:#?}"),
    }
}
