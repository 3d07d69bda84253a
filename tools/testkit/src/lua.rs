//! A game's Lua rule tests, run in the real sandbox.
//!
//! A test file (say `projects/<game>/tests/rules_test.lua`) returns a table of functions; each
//! is a test, and an error fails it. It runs in the project's own sandbox, as its scripts do:
//! `import` finds the modules under `assets/scripts/` with the game's semantics, `Data.table`
//! reads the project's tables, and the guard stops a runaway test.

use std::path::Path;

use jengine::Package;
use jengine::host::LuaTest;
use jengine_runtime::{Options, Runtime};

/// Runs the test file at `file` in the project at `project` (linked with `packages`) and
/// returns each test's outcome, in name order.
pub fn run(project: &Path, packages: &[&dyn Package], file: &Path) -> Result<Vec<LuaTest>, String> {
    let code = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut rt = Runtime::new(project, packages, Options::default())
        .map_err(|problems| problems.join("\n"))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string());
    rt.run_lua_tests(&name, &code)
}

/// Runs the file as [`run`] and panics, listing every failure, unless all of at least
/// `at_least` tests pass; returns the tests' names.
pub fn assert_pass(
    project: &Path,
    packages: &[&dyn Package],
    file: &Path,
    at_least: usize,
) -> Vec<String> {
    let outcomes = run(project, packages, file).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<String> = outcomes.iter().map(|t| t.name.clone()).collect();
    assert!(
        names.len() >= at_least,
        "{} has {} tests, fewer than {at_least}: {names:?}",
        file.display(),
        names.len()
    );
    let failed: Vec<String> = outcomes
        .iter()
        .filter_map(|t| Some(format!("{}: {}", t.name, t.failure.as_ref()?)))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_file_sees_the_projects_tables_and_modules_through_the_sandbox() {
        let dir = tempfile::tempdir().unwrap();
        let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/counter-project");
        let file = dir.path().join("goals_test.lua");
        std::fs::write(
            &file,
            r#"
local T = {}
function T.the_first_goal_has_an_id() assert(Data.table("counter_goals")[1].id ~= nil) end
function T.a_missing_module_fails() import("nowhere.lua") end
function T.the_sandbox_has_no_io() assert(io == nil and os.execute == nil) end
return T
"#,
        )
        .unwrap();
        let outcomes = run(&project, &[&jengine_counter::CounterPackage], &file).unwrap();
        let failed: Vec<&str> = outcomes
            .iter()
            .filter(|t| t.failure.is_some())
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(failed, ["a_missing_module_fails"], "{outcomes:#?}");
        assert!(
            outcomes[0]
                .failure
                .as_deref()
                .unwrap()
                .contains("nowhere.lua")
        );
    }
}
