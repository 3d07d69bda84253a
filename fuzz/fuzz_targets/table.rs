//! A data table: the first line names it (`stairs_levels`), the rest is its JSON. The text
//! replaces that table in the project that has it; then every package's row validator and every
//! scene of that project that names tables read the result.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (name, json) = text.split_once('\n').unwrap_or(("fuzz", text));
    jengine_fuzz::with_setting(|setting| {
        let project = setting.project_with_table(name);
        let mut tables = project.tables.clone();
        if let Err(e) = tables.insert_json(name, json) {
            assert!(!e.rows.is_empty(), "a refused table names its problem");
            let _ = e.to_string();
        }
        let _ = setting.registry.check_tables(&tables);
        for scene in &project.scenes {
            for problem in scene.check_tables(&setting.registry, &tables) {
                let _ = problem.to_string();
            }
        }
    });
});
