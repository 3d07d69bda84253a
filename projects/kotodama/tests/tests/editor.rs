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

#[test]
fn a_pick_on_the_board_selects_the_table_that_draws_it() {
    let editor = Background::start(options(), packages).unwrap_or_else(|p| panic!("{p:#?}"));
    let (status, answer) = editor.post(
        "/api/control",
        serde_json::json!({ "action": "load", "scene": "battle", "force": true }),
    );
    assert_eq!(status, 200, "{answer}");
    // In edit mode the scene's first frame runs, and the table's package draws its board
    // then: entities of its own, not in the file. The load asks for that frame before it
    // answers; wait until it has run, not for a time.
    while editor.get("/api/state").1["steps_pending"] != 0 {
        std::thread::yield_now();
    }
    let (_, tree) = editor.get("/api/scene");
    assert!(
        tree["spawned_total"].as_u64().unwrap_or(0) > 0,
        "the first frame drew no board: {tree}"
    );
    let table = tree["entities"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["name"] == "table")
        .unwrap();
    // The middle of the board (board_centre [0, 0.2], 80 pixels a unit on 1280x720): a
    // tile the package spawned, which selects the table.
    let (status, picked) = editor.post("/api/pick", serde_json::json!({ "x": 640, "y": 344 }));
    assert_eq!(status, 200, "{picked}");
    assert_eq!(picked["selection"], serde_json::json!({ "index": table }));
    // Its outline holds what the package drew for it.
    let outline = picked["selection_box"].as_array().unwrap();
    let b: Vec<u64> = outline.iter().map(|v| v.as_u64().unwrap()).collect();
    assert!(
        b[0] < 640 && 640 < b[2] && b[1] < 344 && 344 < b[3],
        "{b:?}"
    );
}
