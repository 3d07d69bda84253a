//! `jengine docs`: one page per package under `docs/packages/`, made from the package's
//! metadata, what it registers, the projects that list it, and its README.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use jengine::host::{Outline, PackageMeta, Project};
use jengine::{Package, Registry};

/// A project under `<root>/projects` and its folder name.
fn projects(root: &Path) -> Vec<(String, Project)> {
    let mut out: Vec<(String, Project)> = std::fs::read_dir(root.join("projects"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            Project::load(&e.path()).ok().map(|p| (name, p))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The scenes of `project` that use the package: a component key of it, or a script that
/// calls its namespace or flat names.
fn scenes_using(project: &Project, registry: &Registry, package: &str) -> Vec<String> {
    let keys: Vec<&str> = registry
        .components()
        .filter(|c| c.package() == package)
        .map(|c| c.key())
        .collect();
    let calls: Vec<String> = registry
        .commands()
        .iter()
        .filter(|c| c.package() == package)
        .flat_map(|c| {
            let mut calls = vec![format!("{}.", c.namespace()), format!("{}(", c.flat())];
            calls.extend(c.aliases().iter().map(|a| format!("{a}(")));
            calls
        })
        .collect();
    let mut used = Vec::new();
    for name in project.scene_names() {
        let Ok(text) = std::fs::read_to_string(project.scene_path(&name)) else {
            continue;
        };
        // The outline, not a load: this docs build need not link everything the project lists.
        let Some(scene) = Outline::read(&text) else {
            continue;
        };
        let by_key = scene.keys.iter().any(|k| keys.contains(&k.as_str()));
        let by_script = scene.scripts.iter().any(|s| {
            std::fs::read_to_string(project.script_path(s))
                .map(|src| calls.iter().any(|c| src.contains(c.as_str())))
                .unwrap_or(false)
        });
        if by_key || by_script {
            used.push(name);
        }
    }
    used
}

/// Whom a page is written for.
#[derive(Clone, Copy)]
pub enum Site<'a> {
    /// The workspace at this folder: its pages name every project under `projects/` that
    /// lists the package, and paths from the workspace.
    Workspace(&'a Path),
    /// One project (perhaps outside any workspace): its page names that project, its own
    /// listing entries and paths from its folder.
    Project(&'a Project),
}

impl Site<'_> {
    /// The folder paths are given from.
    fn base(&self) -> &Path {
        match self {
            Site::Workspace(root) => root,
            Site::Project(project) => &project.dir,
        }
    }

    /// The projects that list `name`, each with the folder it is named by.
    fn listing(&self, name: &str) -> Vec<(String, Project)> {
        let all = match self {
            Site::Workspace(root) => projects(root)
                .into_iter()
                .map(|(n, p)| (format!("projects/{n}"), p))
                .collect(),
            Site::Project(project) => vec![(".".to_string(), (*project).clone())],
        };
        all.into_iter()
            .filter(|(_, p)| p.file.packages.iter().any(|l| l.name == name))
            .collect()
    }
}

/// The page for one package, written for the workspace at `root`.
pub fn page(root: &Path, meta: &PackageMeta, package: &dyn Package) -> String {
    page_for(Site::Workspace(root), meta, package)
}

/// The page for one package, written for `site`.
pub fn page_for(site: Site<'_>, meta: &PackageMeta, package: &dyn Package) -> String {
    let registry = Registry::with(&[package]);
    let base = site.base();
    let rel = |p: &Path| {
        let p = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let r = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
        p.strip_prefix(&r)
            .map(|x| x.display().to_string())
            .unwrap_or_else(|_| p.display().to_string())
    };
    let listing = site.listing(&meta.name);
    let mut s = String::new();
    let _ = writeln!(s, "# {}\n", meta.name);
    if !meta.description.is_empty() {
        let _ = writeln!(s, "{}\n", meta.description);
    }
    let _ = writeln!(s, "| | |\n|---|---|");
    let _ = writeln!(
        s,
        "| Kind | Project package: linked into the builds of the projects that list it |"
    );
    let _ = writeln!(s, "| Source | `{}` |", rel(&meta.dir));
    let _ = writeln!(s, "| Version | {} |", meta.version);
    let _ = writeln!(s, "| Entry point | `{}` |", meta.entry_path());
    let _ = writeln!(
        s,
        "| Script namespace | {} |",
        meta.namespace
            .as_deref()
            .map(|n| format!("`{n}`"))
            .unwrap_or_else(|| "none".into())
    );
    let deps = if meta.depends.is_empty() {
        "nothing".to_string()
    } else {
        meta.depends.join(", ")
    };
    let _ = writeln!(s, "| Depends on | {deps} |");
    let listed = if listing.is_empty() {
        "no project yet".to_string()
    } else {
        listing
            .iter()
            .map(|(n, p)| match site {
                Site::Workspace(_) => format!("`{n}`"),
                Site::Project(_) => format!("this project ({})", p.file.name),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(s, "| Listed by | {listed} |\n");

    let _ = writeln!(s, "## Using it\n");
    let folder = match site {
        Site::Workspace(_) => "projects/<name>".to_string(),
        Site::Project(p) => p.dir.display().to_string(),
    };
    let _ = writeln!(
        s,
        "List it in the top-level `packages` array of `project.jengine`, with every package it depends on (listing is what registers a package; a crate dependency only compiles it in), then run `jengine viewport-build {folder}`:\n"
    );
    let mut names = vec![meta.name.clone()];
    names.extend(meta.depends.iter().cloned());
    let entries: Vec<String> = names
        .iter()
        .map(|n| {
            // A project's page shows the entry as that project lists it.
            let listed = match site {
                Site::Project(p) => p.file.packages.iter().find(|l| &l.name == n),
                Site::Workspace(_) => None,
            };
            match listed.and_then(|l| serde_json::to_value(&l.source).ok()) {
                Some(serde_json::Value::Object(source)) => {
                    let fields: Vec<String> =
                        source.iter().map(|(k, v)| format!("{k:?}: {v}")).collect();
                    format!(
                        "    {{ \"name\": \"{n}\", \"source\": {{ {} }} }}",
                        fields.join(", ")
                    )
                }
                _ => format!("    {{ \"name\": \"{n}\", \"source\": {{ \"type\": \"path\", \"path\": \"../../packages/{n}\" }} }}"),
            }
        })
        .collect();
    let _ = writeln!(
        s,
        "```json\n{{\n  \"packages\": [\n{}\n  ]\n}}\n```\n",
        entries.join(",\n")
    );
    if let Some(ns) = &meta.namespace {
        let _ = writeln!(
            s,
            "A script can check that it is linked with `if {ns} == nil then return end`.\n"
        );
    }

    let _ = writeln!(s, "## Components\n");
    let components: Vec<_> = registry
        .components()
        .filter(|c| c.package() == meta.name)
        .collect();
    if components.is_empty() {
        let _ = writeln!(s, "None.\n");
    } else {
        let _ = writeln!(s, "| Scene key | Rust type | |\n|---|---|---|");
        for c in components {
            let _ = writeln!(
                s,
                "| `{}` | `{}` | package only: needs a v2 scene |",
                c.key(),
                short_type(c.type_name())
            );
        }
        s.push('\n');
    }
    let _ = writeln!(s, "## Script commands\n");
    let cmds: Vec<_> = registry
        .commands()
        .iter()
        .filter(|c| c.package() == meta.name)
        .collect();
    if cmds.is_empty() {
        let _ = writeln!(s, "None.\n");
    } else {
        let _ = writeln!(
            s,
            "Commands return nothing: each call is queued and applied after scripts run. The flat name works too.\n"
        );
        let _ = writeln!(s, "| Call | Flat name |\n|---|---|");
        for c in &cmds {
            let mut flat = format!("`{}`", c.flat());
            for alias in c.aliases() {
                flat.push_str(&format!(", `{alias}`"));
            }
            let _ = writeln!(s, "| `{}` | {flat} |", c.typed_signature());
        }
        s.push('\n');
        let ranged: Vec<String> = cmds.iter().filter_map(|c| takes(c)).collect();
        if !ranged.is_empty() {
            let _ = writeln!(
                s,
                "What the arguments mean; one outside its range is refused at the call, like a wrong kind:\n"
            );
            for line in ranged {
                let _ = writeln!(s, "{line}");
            }
            s.push('\n');
        }
    }
    let bags: Vec<_> = registry
        .bags()
        .iter()
        .filter(|b| b.package() == meta.name)
        .collect();
    if !bags.is_empty() {
        let _ = writeln!(
            s,
            "## Bags\n\nRead with `Entity.get(e, key)` after the package's systems run.\n\n| Key | Rust type |\n|---|---|"
        );
        for b in bags {
            let _ = writeln!(s, "| `{}` | `{}` |", b.key(), short_type(b.type_name()));
        }
        s.push('\n');
    }
    if !registry.tables().is_empty() {
        let _ = writeln!(s, "## Data tables\n\n| Table | Row type |\n|---|---|");
        for t in registry.tables() {
            let _ = writeln!(
                s,
                "| `data/{}` | `{}` |",
                t.name(),
                short_type(t.type_name())
            );
        }
        s.push('\n');
    }
    let _ = writeln!(s, "## Scenes that use it\n");
    let mut any = false;
    for (name, project) in &listing {
        for scene in scenes_using(project, &registry, &meta.name) {
            any = true;
            let at = match site {
                Site::Workspace(_) => format!("{name}/"),
                Site::Project(_) => String::new(),
            };
            let _ = writeln!(s, "- `{at}assets/scenes/{scene}.scene`");
        }
    }
    if !any {
        let _ = writeln!(s, "None yet.");
    }
    s.push('\n');
    if let Ok(readme) = std::fs::read_to_string(meta.dir.join("README.md")) {
        let _ = writeln!(s, "## Notes\n\nFrom `{}/README.md`.\n", rel(&meta.dir));
        // Demote the README's headings so they sit under this page's.
        for line in readme.lines() {
            if line.starts_with('#') {
                let _ = writeln!(s, "##{line}");
            } else {
                let _ = writeln!(s, "{line}");
            }
        }
    }
    s
}

/// `jengine_kotoba::table::Table` → `Table`.
fn short_type(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// Writes a page for each linked package that has metadata under `<root>/packages`.
pub fn write_all(root: &Path, linked: &[&dyn Package], out: &Path) -> Result<Vec<PathBuf>, String> {
    let metas = crate::viewport::workspace_packages(root);
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut written = Vec::new();
    for meta in &metas {
        let Some(package) = linked.iter().find(|p| p.name() == meta.name) else {
            continue;
        };
        let path = out.join(format!("{}.md", meta.name));
        jengine::host::write_atomically(&path, page(root, meta, *package).as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// What a parameter naming a table's rows takes, for a package that said nothing else:
/// `a row id of data/kotoba_stages.json, or "builtin"`.
fn row_words(rows: jengine::value::RowOf) -> String {
    let mut words = format!("a row id of `data/{}.json`", rows.table);
    for (i, also) in rows.also.iter().enumerate() {
        words.push_str(if i == 0 { ", or " } else { ", " });
        words.push_str(&format!("{also:?}"));
    }
    words
}

/// Writes a page for each package `project` lists that this build links, outside packages
/// too, into `out`. A listed package this build does not link, or one whose metadata cannot
/// be read, is a problem: the pages are for what the project's viewport runs.
pub fn write_project(
    project: &Path,
    linked: &[&dyn Package],
    out: &Path,
) -> Result<Vec<PathBuf>, Vec<String>> {
    let project = Project::load(project).map_err(|e| vec![e.to_string()])?;
    let metas = jengine::host::listed_packages(&project)?;
    let mut problems = Vec::new();
    let mut pages = Vec::new();
    for meta in &metas {
        match linked.iter().find(|p| p.name() == meta.name) {
            Some(package) => pages.push((
                out.join(format!("{}.md", meta.name)),
                page_for(Site::Project(&project), meta, *package),
            )),
            None => problems.push(format!(
                "{}: package {:?} is listed but not linked into this build; rebuild the viewport (`jengine viewport-build {}`)",
                project.dir.join("project.jengine").display(),
                meta.name,
                project.dir.display()
            )),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    std::fs::create_dir_all(out)
        .map_err(|e| vec![format!("cannot create {}: {e}", out.display())])?;
    let mut written = Vec::new();
    for (path, text) in pages {
        jengine::host::write_atomically(&path, text.as_bytes())
            .map_err(|e| vec![format!("cannot write {}: {e}", path.display())])?;
        written.push(path);
    }
    Ok(written)
}

/// A command's declared ranges, the meaning of its parameters and its rule as one list item,
/// or `None` when it declares none of them.
fn takes(c: &jengine::host::Command) -> Option<String> {
    let mut parts: Vec<String> = c
        .params()
        .iter()
        .filter_map(|p| {
            match (
                p.about
                    .map(str::to_string)
                    .or_else(|| p.row_of.map(row_words)),
                p.range(),
            ) {
                (None, None) => None,
                (Some(about), None) => Some(format!("`{}` is {about}", p.name)),
                (None, Some(range)) => Some(format!("`{}` {range}", p.name)),
                (Some(about), Some(range)) => Some(format!("`{}` is {about}, {range}", p.name)),
            }
        })
        .collect();
    if let Some(rule) = c.rule() {
        parts.push(rule.to_string());
    }
    if parts.is_empty() {
        return None;
    }
    Some(format!("- `{}`: {}", c.qualified(), parts.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jengine::value::{Params, entity, integer, string};

    #[test]
    fn a_commands_declared_ranges_and_rule_are_one_list_item() {
        let mut reg = Registry::new();
        reg.command(
            "Walker",
            "step",
            (
                entity("e").about("an entity with a walker"),
                integer("dx").range(-1, 1),
                string("how").one_of(&["walk", "run"]),
            )
                .such_that("dx is not 0", |(_, dx, _)| *dx != 0),
            |_, _| Ok(()),
        );
        reg.command("Walker", "stop", (entity("e"),), |_, _| Ok(()));
        let step = reg.find_command("walker_step").unwrap();
        assert_eq!(
            takes(step).as_deref(),
            Some(
                "- `Walker.step`: `e` is an entity with a walker; `dx` -1 to 1; `how` \"walk\" or \"run\"; dx is not 0"
            )
        );
        assert_eq!(takes(reg.find_command("walker_stop").unwrap()), None);
        reg.command(
            "Walker",
            "aim",
            (
                entity("e"),
                string("goal").row_of("walker_goals", &["home"]),
            ),
            |_, _| Ok(()),
        );
        assert_eq!(
            takes(reg.find_command("walker_aim").unwrap()).as_deref(),
            Some("- `Walker.aim`: `goal` is a row id of `data/walker_goals.json`, or \"home\"")
        );
    }
}
