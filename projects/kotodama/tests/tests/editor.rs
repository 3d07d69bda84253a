//! Kotodama opens in the editor: every scene loads and lists its entities, every component
//! (the kotoba ones with their package) reads back, frames are served, and an edit shows in
//! the running game without touching the file.

use jengine::Package;
use jengine_editor::{Background, EditOptions, open_every_scene};
use kotodama_tests::project;

fn packages() -> Vec<&'static dyn Package> {
    kotodama_tests::packages().to_vec()
}

fn options() -> EditOptions {
    EditOptions::new(project())
}

#[test]
fn every_scene_of_kotodama_opens_in_the_editor() {
    let probe = ("logo", "text", "text", serde_json::json!("言霊!"));
    match open_every_scene(options(), packages, probe) {
        Ok(scenes) => assert_eq!(scenes, 10),
        Err(problems) => panic!("{problems:#?}"),
    }
}

#[test]
fn the_packages_panel_links_each_package_to_its_docs_page() {
    let editor = Background::start(options(), packages).unwrap_or_else(|p| panic!("{p:#?}"));
    let (status, registry) = editor.get("/api/registry");
    assert_eq!(status, 200);
    let names: Vec<&str> = registry["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["core", "jengine-kotoba", "jengine-online", "jengine-net"]
    );
    for package in ["jengine-kotoba", "jengine-online", "jengine-net"] {
        let entry = registry["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == package)
            .unwrap();
        let link = entry["docs"].as_str().unwrap();
        let (status, page) = editor.request("GET", link, "").unwrap();
        assert_eq!(status, 200, "{link}");
        let page = String::from_utf8(page).unwrap();
        assert!(page.contains(&format!("<h1>{package}")), "{page:.300}");
    }
}
