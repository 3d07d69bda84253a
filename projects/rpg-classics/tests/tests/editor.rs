//! Seven Stairs opens in the editor: every scene loads and lists its entities, every
//! component (the crawler ones with their package) reads back, frames are served, and an edit
//! shows in the running game without touching the file.

use jengine_editor::{EditOptions, open_every_scene};
use rpg_classics_tests::{PACKAGES, project};

#[test]
fn every_scene_of_seven_stairs_opens_in_the_editor() {
    let probe = ("title", "text", "text", serde_json::json!("Seven Stairs!"));
    match open_every_scene(EditOptions::new(project()), || PACKAGES.to_vec(), probe) {
        Ok(scenes) => assert_eq!(scenes, 4),
        Err(problems) => panic!("{problems:#?}"),
    }
}
