//! Scene text: parsed against every shipped package's components, outlined the way the editor
//! and `check` read it, checked against each project's tables and spawned into a world.
#![no_main]

use jengine::World;
use jengine::host::{Outline, Scene};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = Outline::read(text);
    jengine_fuzz::with_setting(|setting| {
        match Scene::parse("assets/scenes/fuzz.scene", text, &setting.registry) {
            Ok(scene) => {
                for project in &setting.projects {
                    for problem in scene.check_tables(&setting.registry, &project.tables) {
                        let _ = problem.to_string();
                    }
                }
                let mut world = World::new();
                let spawned = scene.spawn(&mut world);
                assert_eq!(spawned.len(), world.entities.len() as usize);
            }
            Err(errors) => {
                assert!(!errors.is_empty(), "a refused scene names its problem");
                for e in errors {
                    let _ = e.to_string();
                }
            }
        }
    });
});
