//! `jengine check`: load every scene, script and table of a project without running it,
//! and report every problem at once.

use std::collections::BTreeSet;
use std::path::Path;

use jengine::{Limits, Outline, Package, Project, Registry, Scene, ScriptHost, Tables};

/// What a check found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Problems: each makes the check fail.
    pub problems: Vec<String>,
    /// Things worth saying that are not wrong (v1 scenes keeping package keys inert).
    pub notes: Vec<String>,
    /// How many scenes, scripts and tables were looked at.
    pub counts: (usize, usize, usize),
}

impl Report {
    /// Whether nothing is wrong.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks the project at `dir` against the packages `linked` into this build.
pub fn check(dir: &Path, linked: &[&dyn Package]) -> Report {
    let mut report = Report::default();
    let project = match Project::load(dir) {
        Ok(p) => p,
        Err(e) => {
            report.problems.push(e.to_string());
            return report;
        }
    };
    if let Err(problems) = jengine::listed_packages(&project) {
        report.problems.extend(problems);
    }
    let packages = match crate::runtime::select(&project, linked) {
        Ok(p) => p,
        Err(problems) => {
            report.problems.extend(problems);
            linked
                .iter()
                .copied()
                .filter(|p| project.file.packages.iter().any(|l| l.name == p.name()))
                .collect()
        }
    };
    let registry = Registry::with(&packages);
    report.problems.extend(registry.problems.iter().cloned());

    let (tables, errors) = Tables::load_dir(&project.dir);
    report.problems.extend(errors.iter().map(|e| e.to_string()));
    report.problems.extend(registry.check_tables(&tables));
    report.counts.2 = tables.names().count();

    let scenes = project.scene_names();
    if !scenes.contains(&project.file.start_scene) {
        report.problems.push(format!(
            "{}: start_scene {:?} has no file assets/scenes/{}.scene",
            project.dir.join("project.jengine").display(),
            project.file.start_scene,
            project.file.start_scene
        ));
    }
    let mut scripts = ScriptHost::new(
        &registry,
        &project.dir.join("assets/scripts"),
        Limits::default(),
        0,
    );
    let mut named_scripts = BTreeSet::new();
    for name in &scenes {
        report.counts.0 += 1;
        let file = format!("assets/scenes/{name}.scene");
        let text = match std::fs::read_to_string(project.scene_path(name)) {
            Ok(t) => t,
            Err(e) => {
                report
                    .problems
                    .push(format!("{file}: cannot read scene: {e}"));
                continue;
            }
        };
        match Scene::parse(&file, &text, &registry) {
            Ok(scene) => report.notes.extend(scene.notices.iter().cloned()),
            Err(errors) => report.problems.extend(errors.iter().map(|e| e.to_string())),
        }
        // Scripts are checked from the outline, so a scene that failed still has them checked.
        for script in Outline::read(&text).map(|o| o.scripts).unwrap_or_default() {
            if named_scripts.insert(script.clone()) && !project.script_path(&script).is_file() {
                report.problems.push(format!(
                    "{file}: script assets/scripts/{script} does not exist"
                ));
            }
        }
    }
    let mut lua_files: Vec<String> = walk_lua(&project.dir.join("assets/scripts"));
    lua_files.sort();
    match &mut scripts {
        Ok(host) => {
            for file in &lua_files {
                report.counts.1 += 1;
                if let Err(e) = host.check_syntax(file) {
                    report.problems.push(e.to_string());
                }
                if let Ok(text) = std::fs::read_to_string(project.script_path(file)) {
                    for (line, scene) in scene_loads(&text) {
                        if !scenes.contains(&scene) {
                            report.problems.push(format!(
                                "assets/scripts/{file}:{line}: Scene.load({scene:?}) names a scene that does not exist"
                            ));
                        }
                    }
                }
            }
        }
        Err(e) => report.problems.push(format!(
            "cannot start Lua: {}",
            jengine::describe_lua_error(e)
        )),
    }
    report
}

/// Every `.lua` file under `dir`, relative to it.
fn walk_lua(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "lua")
                && let Ok(rel) = p.strip_prefix(dir)
            {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

/// `Scene.load("name")` calls with a literal name, with their line numbers.
fn scene_loads(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("--").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("Scene.load(") {
            rest = &rest[at + "Scene.load(".len()..];
            let trimmed = rest.trim_start();
            let quote = trimmed.chars().next();
            if let Some(q @ ('"' | '\'')) = quote
                && let Some(end) = trimmed[1..].find(q)
            {
                out.push((i + 1, trimmed[1..1 + end].to_string()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_scene_loads_are_found_with_their_lines() {
        let text =
            "local x = 1\nScene.load(\"title\") -- go\n-- Scene.load(\"gone\")\nScene.load( 'end')";
        assert_eq!(
            scene_loads(text),
            vec![(2, "title".to_string()), (4, "end".to_string())]
        );
    }
}
