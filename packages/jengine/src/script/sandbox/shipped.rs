//! The Lua modules the engine ships: `import("jengine/menu.lua")` from any project's script.
//!
//! The `jengine/` prefix is the engine's own: its names are looked up here and never in the
//! project's files, so a project's `assets/scripts/jengine/` folder cannot stand in for them.
//! Each import runs the module afresh in the importing script's own globals, as a project
//! module is run, so one script changing its copy changes nothing another script sees.

/// The folder of `import` names that are the engine's.
pub(crate) const PREFIX: &str = "jengine/";

/// Every shipped module: its name after [`PREFIX`] and its source.
const MODULES: &[(&str, &str)] = &[("menu.lua", include_str!("menu.lua"))];

/// The source of shipped module `name` (`jengine/menu.lua`), or why there is none.
pub(crate) fn source(name: &str) -> Result<&'static str, String> {
    let Some(rest) = name.strip_prefix(PREFIX) else {
        return Err(format!("{name:?} is not under {PREFIX}"));
    };
    MODULES
        .iter()
        .find(|(n, _)| *n == rest)
        .map(|(_, text)| *text)
        .ok_or_else(|| {
            let names: Vec<String> = MODULES
                .iter()
                .map(|(n, _)| format!("{PREFIX}{n}"))
                .collect();
            format!(
                "the engine ships no module {name:?} (it ships {}); names under {PREFIX} are the \
                 engine's, so a project's own assets/scripts/{PREFIX} folder is never read",
                names.join(", ")
            )
        })
}

#[cfg(test)]
#[path = "menu_tests.rs"]
mod menu_tests;
