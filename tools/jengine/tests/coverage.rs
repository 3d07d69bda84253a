//! Every project in the workspace lists the packages its packages depend on.

mod common;

use jengine::host::Project;
use jengine::host::listed_packages;

#[test]
fn packages_a_project_lists_cover_their_dependencies() {
    let root = common::workspace();
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("projects"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("project.jengine").is_file())
        .collect();
    dirs.push(common::fixture());
    let mut problems = Vec::new();
    for dir in &dirs {
        match Project::load(dir) {
            Ok(project) => {
                if let Err(p) = listed_packages(&project) {
                    problems.extend(p);
                }
            }
            Err(e) => problems.push(e.to_string()),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
