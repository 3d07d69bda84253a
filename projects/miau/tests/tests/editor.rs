//! Miau opens in the editor: every scene loads and lists its entities, every component (the
//! miau ones with their package) reads back, frames are served, and an edit shows in the
//! running game without touching the file.

use jengine::Package;
use jengine_editor::{EditOptions, open_every_scene};

fn packages() -> Vec<&'static dyn Package> {
    miau_tests::PACKAGES.to_vec()
}

#[test]
fn every_scene_of_miau_opens_in_the_editor() {
    let options = EditOptions::new(miau_tests::project());
    let probe = ("title", "text", "text", serde_json::json!("Miau!"));
    match open_every_scene(options, packages, probe) {
        Ok(scenes) => assert_eq!(scenes, 5),
        Err(problems) => panic!("{problems:#?}"),
    }
}
