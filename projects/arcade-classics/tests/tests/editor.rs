//! Umber Warren and Seven Stairs open in the editor: every scene loads and lists its
//! entities, every component (the crawler ones with their package) reads back, frames are
//! served, and an edit shows in the running game without touching the file.

use std::path::Path;

use jengine::Package;
use jengine_tool::edit::{EditOptions, open_every_scene};

fn packages() -> Vec<&'static dyn Package> {
    vec![&jengine_crawler::CrawlerPackage]
}

fn options(project: &str) -> EditOptions {
    EditOptions::new(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../projects")
            .join(project),
    )
}

#[test]
fn every_scene_of_umber_warren_opens_in_the_editor() {
    let probe = ("logo", "text", "text", serde_json::json!("Umber Warren!"));
    match open_every_scene(options("arcade-classics"), packages, probe) {
        Ok(scenes) => assert_eq!(scenes, 2),
        Err(problems) => panic!("{problems:#?}"),
    }
}

#[test]
fn every_scene_of_seven_stairs_opens_in_the_editor() {
    let probe = ("title", "text", "text", serde_json::json!("Seven Stairs!"));
    match open_every_scene(options("rpg-classics"), packages, probe) {
        Ok(scenes) => assert_eq!(scenes, 4),
        Err(problems) => panic!("{problems:#?}"),
    }
}
