//! Kotodama opens in the editor: every scene loads and lists its entities, every component
//! (the kotoba ones with their package) reads back, frames are served, and an edit shows in
//! the running game without touching the file.

use std::path::Path;

use jengine::Package;
use jengine_tool::edit::{EditOptions, open_every_scene};
use jengine_tool::viewport::Profile;

fn packages() -> Vec<&'static dyn Package> {
    jengine_kotoba::packages().to_vec()
}

#[test]
fn every_scene_of_kotodama_opens_in_the_editor() {
    let options = EditOptions {
        project: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../projects/kotodama"),
        port: 0,
        token: None,
        scene: None,
        open: false,
        profile: Profile::Dev,
        unsaved: None,
        seed: 1,
        sound: false,
    };
    let probe = ("logo", "text", "text", serde_json::json!("言霊!"));
    match open_every_scene(options, packages, probe) {
        Ok(scenes) => assert_eq!(scenes, 10),
        Err(problems) => panic!("{problems:#?}"),
    }
}
