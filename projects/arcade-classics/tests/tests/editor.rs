//! Umber Warren opens in the editor: every scene loads and lists its entities, every
//! component (the crawler ones with their package) reads back, frames are served, and an edit
//! shows in the running game without touching the file.

use arcade_classics_tests::{PACKAGES, project};
use jengine_editor::{EditOptions, open_every_scene};

#[test]
fn every_scene_of_umber_warren_opens_in_the_editor() {
    let probe = ("logo", "text", "text", serde_json::json!("Umber Warren!"));
    match open_every_scene(EditOptions::new(project()), || PACKAGES.to_vec(), probe) {
        Ok(scenes) => assert_eq!(scenes, 2),
        Err(problems) => panic!("{problems:#?}"),
    }
}
