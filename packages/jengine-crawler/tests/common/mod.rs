//! What the crawler's engine tests share: a small project written into a temporary folder,
//! with one crawl entity driven by a plan of calls, one per frame.

use std::path::Path;

/// Writes a project into `dir` whose start scene holds `camera` and a `crawl_game` entity
/// with `game`, the levels table `levels`, a rat and a one-member party, and `plan`: a Lua
/// chunk returning a list of functions, the i-th called with the entity on frame i.
pub fn write_project(
    dir: &Path,
    levels: &serde_json::Value,
    camera: serde_json::Value,
    game: serde_json::Value,
    plan: &str,
) {
    let project = serde_json::json!({
        "name": "crawl-test", "version": "0.1.0", "start_scene": "crawl",
        "packages": [{ "name": "jengine-crawler",
                       "source": { "type": "path", "path": env!("CARGO_MANIFEST_DIR") } }]
    });
    let scene = serde_json::json!({
        "version": 2,
        "entities": [
            { "name": "camera", "camera": camera },
            { "name": "crawl", "crawl_game": game, "script": "driver.lua" }
        ]
    });
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("project.jengine", &project.to_string());
    write("assets/scenes/crawl.scene", &scene.to_string());
    write("data/crawl_levels.json", &levels.to_string());
    write(
        "data/crawl_monsters.json",
        r#"[{ "name": "rat", "hp": 3, "art": "m_rat" }]"#,
    );
    write(
        "data/crawl_crawlers.json",
        r#"[{ "name": "Vess", "hp": 12, "attack": 3 }]"#,
    );
    // One planned call per frame, from frame 1.
    write(
        "assets/scripts/driver.lua",
        "local plan = import('plan.lua')\nlocal i = 0\n\
         function update(e, dt)\n  i = i + 1\n  local f = plan[i]\n  if f then f(e) end\nend\n",
    );
    write("assets/scripts/plan.lua", plan);
}
