//! What a developer waits for in the editor, on Kotodama's title (50 scene entities, about a
//! thousand live ones with the demo battle): an edit sent from the page until it is checked by
//! the scene loader and shown in the running game, and a frame from the running game until it
//! arrives as a PNG. Both through the session's real server on the loopback address.

use criterion::{Criterion, criterion_main};
use jengine::Package;
use jengine_editor::{Background, EditOptions};

fn packages() -> Vec<&'static dyn Package> {
    kotodama_tests::packages().to_vec()
}

fn editor(c: &mut Criterion) {
    let options = EditOptions::new(kotodama_tests::project());
    let editor = Background::start(options, packages).expect("the editor starts");
    let (_, tree) = editor.get("/api/scene");
    let logo = tree["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "logo")
        .unwrap()["index"]
        .as_u64()
        .unwrap();
    let mut n = 0u64;
    c.bench_function("editor: an edit checked and shown (Kotodama title)", |b| {
        b.iter(|| {
            n += 1;
            let (status, _) = editor.post(
                "/api/edit",
                serde_json::json!({
                    "op": "set", "entity": logo, "key": "transform", "path": ["z"],
                    "value": 20 + (n % 2),
                }),
            );
            assert_eq!(status, 200);
        })
    });
    let mut version = 0u64;
    c.bench_function("editor: the next frame as a PNG (1280x720)", |b| {
        b.iter(|| {
            let (status, png) = editor
                .request("GET", &format!("/api/frame?after={version}"), "")
                .unwrap();
            assert_eq!(status, 200);
            version += 1;
            png.len()
        })
    });
}

/// Runs every benchmark of this file, 30 samples each (a frame is served, not computed).
fn benches() {
    let mut c = Criterion::default().sample_size(30).configure_from_args();
    editor(&mut c);
}
criterion_main!(benches);
