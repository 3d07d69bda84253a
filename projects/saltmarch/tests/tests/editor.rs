//! Saltmarch opens in the editor: its scene loads and lists its entities, every component (the
//! crawler's and Gold Box's with their packages) reads back, frames are served, and an edit
//! shows in the running game without touching the file.

use jengine::Package;
use jengine_editor::{EditOptions, open_every_scene};

fn packages() -> Vec<&'static dyn Package> {
    saltmarch_tests::PACKAGES.to_vec()
}

#[test]
fn every_scene_of_saltmarch_opens_in_the_editor() {
    let options = EditOptions::new(saltmarch_tests::project());
    let probe = ("m_head", "text", "text", serde_json::json!("Saltmarch!"));
    match open_every_scene(options, packages, probe) {
        Ok(scenes) => assert_eq!(scenes, 1),
        Err(problems) => panic!("{problems:#?}"),
    }
}
