//! `jengine check`: load every scene, script, table, texture and font of a project without
//! running it, and report every problem at once. Files are found through each scene's
//! outline rather than its parsed entities, so a scene that fails still has everything it
//! names checked; textures and fonts are decoded by the renderer's own loaders.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use jengine::host::code_only;
use jengine::host::{
    AssetKind, Limits, Outline, Project, Scene, SceneError, ScriptHost, check_asset_name,
};
use jengine::{Package, Registry, Tables};

/// What a check found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Problems: each makes the check fail.
    pub problems: Vec<String>,
    /// Things worth saying that are not wrong (a v1 scene's own custom keys).
    pub notes: Vec<String>,
    /// Things that load but will not work as written (a package's component in a v1 scene,
    /// kept inert): said, and a failure under `--strict`.
    pub warnings: Vec<String>,
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
    if let Err(problems) = jengine::host::listed_packages(&project) {
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
    report
        .problems
        .extend(registry.problems().iter().map(|p| p.to_string()));

    let (tables, errors) = Tables::load_dir(&project.dir);
    let rows = errors.iter().flat_map(|e| e.rows.iter());
    report.problems.extend(rows.map(|r| r.to_string()));
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
    let assets = crate::check_assets::project_assets(&project, &registry);
    let mut decoded: BTreeMap<(AssetKind, String), Result<(), String>> = BTreeMap::new();
    // A broken table several scenes use is one problem, not one a scene.
    let mut table_problems: Vec<SceneError> = Vec::new();
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
            Ok(scene) => {
                report.notes.extend(scene.notices.iter().cloned());
                report.warnings.extend(scene.warnings.iter().cloned());
                // Said after every scene is read, each distinct problem once.
                table_problems.extend(scene.check_tables(&registry, &tables));
            }
            Err(errors) => report.problems.extend(errors.iter().map(|e| e.to_string())),
        }
        // Names that would leave their folder are never looked up: the scene's own check
        // reports them, with entity and key.
        let outline = Outline::read(&text).unwrap_or_default();
        for script in &outline.scripts {
            if check_asset_name(script).is_ok()
                && named_scripts.insert(script.clone())
                && !project.script_path(script).is_file()
            {
                report.problems.push(format!(
                    "{file}: script assets/scripts/{script} does not exist"
                ));
            }
        }
        // One problem per file per scene, at its first use.
        let mut said = BTreeSet::new();
        for (i, used) in outline.assets.iter().enumerate() {
            if check_asset_name(&used.name).is_err() || said.contains(&(used.kind, &used.name)) {
                continue;
            }
            let result = decoded
                .entry((used.kind, used.name.clone()))
                .or_insert_with(|| crate::check_assets::decode(&assets, used.kind, &used.name));
            if let Err(problem) = result {
                said.insert((used.kind, &used.name));
                let more = outline.assets[i + 1..]
                    .iter()
                    .filter(|u| u.kind == used.kind && u.name == used.name)
                    .count();
                let message = match more {
                    0 => problem.clone(),
                    1 => format!("{problem} (and 1 more use in this scene)"),
                    n => format!("{problem} (and {n} more uses in this scene)"),
                };
                let error = SceneError {
                    file: file.clone(),
                    entity: Some((used.entity, used.entity_name.clone())),
                    key: Some(used.key.to_string()),
                    message,
                };
                report.problems.push(error.to_string());
            }
        }
    }
    report
        .problems
        .extend(jengine::host::each_problem_once(&table_problems));
    report
        .problems
        .extend(crate::check_assets::component_asset_problems(
            &project, &registry, &scenes,
        ));
    let mut lua_files: Vec<String> = walk_lua(&project.dir.join("assets/scripts"));
    lua_files.sort();
    match &mut scripts {
        Ok(host) => {
            let api = host.api();
            for file in &lua_files {
                report.counts.1 += 1;
                if let Err(e) = host.check_syntax(file) {
                    report.problems.push(e.to_string());
                }
                if let Ok(text) = std::fs::read_to_string(project.script_path(file)) {
                    report
                        .problems
                        .extend(literal_names(&project, &registry, &scenes, file, &text));
                    report.problems.extend(unknown_calls(&api, file, &text));
                    report
                        .problems
                        .extend(literal_types(&registry, file, &text));
                    report
                        .problems
                        .extend(literal_rows(&registry, &tables, file, &text));
                }
            }
        }
        Err(e) => report.problems.push(format!(
            "cannot start Lua: {}",
            jengine::host::describe_lua_error(e)
        )),
    }
    report
}

/// Calls in a script of a name the API does not have: `Beacon.flsh(e)` where the `Beacon`
/// namespace has no `flsh` (with the closest name it has), or `Beacn.flash(e)` where there is
/// no `Beacn` but a namespace one typo away. Code in comments and strings is skipped; a
/// capitalised name the script assigns itself (`local M = {}`) is its own and never checked.
pub fn unknown_calls(
    api: &BTreeMap<String, BTreeSet<String>>,
    file: &str,
    text: &str,
) -> Vec<String> {
    let code = code_only(text);
    let mut problems = Vec::new();
    let mut said = BTreeSet::new();
    for (i, line) in code.lines().enumerate() {
        let bytes = line.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let starts = bytes[at].is_ascii_uppercase()
                && (at == 0
                    || !(bytes[at - 1].is_ascii_alphanumeric()
                        || matches!(bytes[at - 1], b'_' | b'.' | b':')));
            if !starts {
                at += 1;
                continue;
            }
            let word = |from: usize| {
                let mut end = from;
                while end < bytes.len()
                    && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_')
                {
                    end += 1;
                }
                end
            };
            let ns_end = word(at);
            let namespace = &line[at..ns_end];
            if ns_end + 1 >= bytes.len() || bytes[ns_end] != b'.' {
                at = ns_end;
                continue;
            }
            let name_end = word(ns_end + 1);
            let name = &line[ns_end + 1..name_end];
            let called = line[name_end..].trim_start().starts_with('(');
            at = name_end;
            if name.is_empty() || !called || own_name(&code, namespace) {
                continue;
            }
            let place = format!("assets/scripts/{file}:{}", i + 1);
            let problem = match api.get(namespace) {
                Some(members) if !members.contains(name) => {
                    let hint = jengine::host::closest(name, members.iter().map(|m| m.as_str()))
                        .map(|c| format!("; did you mean {namespace}.{c}?"))
                        .unwrap_or_else(|| {
                            format!(
                                "; it has {}",
                                members.iter().cloned().collect::<Vec<_>>().join(", ")
                            )
                        });
                    format!("{place}: {namespace}.{name} is not a command or function{hint}")
                }
                Some(_) => continue,
                None => match jengine::host::closest(namespace, api.keys().map(|k| k.as_str())) {
                    Some(c) => format!(
                        "{place}: {namespace}.{name}: there is no {namespace}; did you mean {c}.{name}?"
                    ),
                    None => continue,
                },
            };
            if said.insert(problem.clone()) {
                problems.push(problem);
            }
        }
    }
    problems
}

/// Literal arguments of the wrong kind in calls of registered commands, where a script's text
/// shows them: `Kotoba.select(e, "two")` for a whole number, `Beacon.flash(e, 2.5)` for a whole
/// number, `Kotoba.puzzle(e, 3)` for a string. Only literals are judged (a number, a string, a
/// boolean, `nil` for a parameter that is not optional); anything computed is left to the call.
pub fn literal_types(registry: &Registry, file: &str, text: &str) -> Vec<String> {
    use jengine::value::Kind;
    let code = code_only(text);
    let mut problems = Vec::new();
    for command in registry.commands() {
        let call = format!("{}(", command.qualified());
        for (i, line) in code.lines().enumerate() {
            let mut from = 0;
            while let Some(at) = line[from..].find(&call) {
                let start = from + at;
                from = start + call.len();
                let before = line[..start].chars().next_back();
                if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
                    continue;
                }
                let Some(args) = call_arguments(&line[from..]) else {
                    continue;
                };
                for (n, (arg, param)) in args.iter().zip(command.params()).enumerate() {
                    let literal = Literal::of(arg);
                    let wrong = match (literal, param.kind) {
                        (None, _) | (_, Kind::Any) => false,
                        (Some(Literal::Nil), _) => !param.optional,
                        (Some(l), Kind::Integer) => !matches!(l, Literal::Integer),
                        (Some(l), Kind::Number) => !matches!(l, Literal::Integer | Literal::Number),
                        (Some(l), Kind::String | Kind::AssetName) => !matches!(l, Literal::String),
                        (Some(l), Kind::Boolean) => !matches!(l, Literal::Boolean),
                        (Some(_), Kind::Entity | Kind::Table) => true,
                    };
                    if wrong {
                        // A string's text is blanked in `code`; its kind says enough.
                        let got = match literal {
                            Some(Literal::String) => "a string",
                            _ => arg.trim(),
                        };
                        problems.push(format!(
                            "assets/scripts/{file}:{}: {}: argument {} ({}) must be {}, got {}",
                            i + 1,
                            command.typed_signature(),
                            n + 1,
                            param.name,
                            param.kind.type_name(),
                            got
                        ));
                    }
                }
            }
        }
    }
    problems
}

/// Literal ids in calls of commands whose parameter names a table's rows
/// ([`jengine::value::RowOf`]): `Kotoba.puzzle(e, "s99")` when data/kotoba_stages has no row
/// `s99`, with the closest id there is. A computed argument is left to the call.
pub fn literal_rows(registry: &Registry, tables: &Tables, file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for command in registry.commands() {
        let named: Vec<(usize, &jengine::value::Param, jengine::value::RowOf)> = command
            .params()
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.row_of.map(|r| (i, p, r)))
            .collect();
        if named.is_empty() {
            continue;
        }
        let call = format!("{}(", command.qualified());
        for (line, args) in literal_string_args(text, &call) {
            for &(i, param, rows) in &named {
                let Some(Some(id)) = args.get(i) else {
                    continue;
                };
                if rows.also.contains(&id.as_str()) {
                    continue;
                }
                let ids: Vec<&str> = tables
                    .raw(rows.table)
                    .map(|t| {
                        t.rows
                            .iter()
                            .filter_map(|r| r.get("id").and_then(|v| v.as_str()))
                            .collect()
                    })
                    .unwrap_or_default();
                if ids.contains(&id.as_str()) {
                    continue;
                }
                let besides = match rows.also {
                    [] => String::new(),
                    also => format!(
                        " (it also takes {})",
                        also.iter()
                            .map(|a| format!("{a:?}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                let why = match tables.raw(rows.table) {
                    None => format!("there is no table data/{}.json{besides}", rows.table),
                    Some(_) => {
                        let near = jengine::host::closest(
                            id,
                            ids.iter().copied().chain(rows.also.iter().copied()),
                        )
                        .map(|c| format!("; did you mean {c:?}?"))
                        .unwrap_or_default();
                        format!(
                            "data/{}.json has no row with that id{besides}{near}",
                            rows.table
                        )
                    }
                };
                problems.push(format!(
                    "assets/scripts/{file}:{line}: {}: argument {} ({}) names {id:?}, but {why}",
                    command.typed_signature(),
                    i + 1,
                    param.name,
                ));
            }
        }
    }
    problems
}

/// Calls of `call` (`"Kotoba.puzzle("`) on one line, with each argument's text when it is a
/// plain string literal (`None` when it is anything else), and their line numbers.
fn literal_string_args(text: &str, call: &str) -> Vec<(usize, Vec<Option<String>>)> {
    let code = code_only(text);
    let mut out = Vec::new();
    for ((i, line), original) in code.lines().enumerate().zip(text.lines()) {
        let mut from = 0;
        let mut nth = 0;
        while let Some(at) = line[from..].find(call) {
            let start = from + at;
            from = start + call.len();
            nth += 1;
            let before = line[..start].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            // The stripped line shows where the call is and that it is code; its strings are
            // blanked, so their text is read from the same call in the original line (a
            // comment only ever follows the code on its line).
            let Some((orig_at, _)) = original.match_indices(call).nth(nth - 1) else {
                continue;
            };
            let Some(args) = call_arguments_quoted(&original[orig_at + call.len()..]) else {
                continue;
            };
            out.push((i + 1, args));
        }
    }
    out
}

/// [`call_arguments`] for text whose strings are kept: each argument's string when it is one
/// plain literal (`"s01"` or `'s01'` with no escapes), else `None`.
fn call_arguments_quoted(rest: &str) -> Option<Vec<Option<String>>> {
    let mut depth = 0usize;
    let mut args = Vec::new();
    let mut start = 0;
    let mut quote: Option<char> = None;
    let literal = |arg: &str| {
        let arg = arg.trim();
        let q = arg.chars().next().filter(|c| matches!(c, '"' | '\''))?;
        let inner = arg.strip_prefix(q)?.strip_suffix(q)?;
        (!inner.contains(q) && !inner.contains('\\')).then(|| inner.to_string())
    };
    for (i, c) in rest.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '{' | '[') => depth += 1,
            (None, ')' | '}' | ']') if depth > 0 => depth -= 1,
            (None, ')') => {
                let last = &rest[start..i];
                if !(args.is_empty() && last.trim().is_empty()) {
                    args.push(literal(last));
                }
                return Some(args);
            }
            (None, ',') if depth == 0 => {
                args.push(literal(&rest[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// What a literal argument is, as far as its text says.
#[derive(Clone, Copy)]
enum Literal {
    Nil,
    Boolean,
    Integer,
    Number,
    String,
}

impl Literal {
    /// The literal `arg` is (strings blanked as `code_only` leaves them), or `None` when it is
    /// not one.
    fn of(arg: &str) -> Option<Literal> {
        let arg = arg.trim();
        match arg {
            "nil" => return Some(Literal::Nil),
            "true" | "false" => return Some(Literal::Boolean),
            _ => {}
        }
        if arg.len() >= 2
            && arg.starts_with('"')
            && arg.ends_with('"')
            && arg[1..arg.len() - 1].trim().is_empty()
        {
            return Some(Literal::String);
        }
        let digits = arg.strip_prefix('-').unwrap_or(arg);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return Some(Literal::Integer);
        }
        let number = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && digits.bytes().filter(|&b| b == b'.').count() == 1
            && digits.bytes().any(|b| b.is_ascii_digit());
        number.then_some(Literal::Number)
    }
}

/// The top-level arguments of a call whose text starts just after its `(`, split at commas
/// outside brackets, or `None` when the call does not close on this line.
fn call_arguments(rest: &str) -> Option<Vec<&str>> {
    let mut depth = 0usize;
    let mut args = Vec::new();
    let mut start = 0;
    let mut in_string = false;
    for (i, c) in rest.char_indices() {
        match c {
            '"' => in_string = !in_string,
            _ if in_string => {}
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' if depth > 0 => depth -= 1,
            ')' => {
                let last = &rest[start..i];
                if !(args.is_empty() && last.trim().is_empty()) {
                    args.push(last);
                }
                return Some(args);
            }
            ',' if depth == 0 => {
                args.push(&rest[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// Whether the script gives `name` a value itself (`local M`, `M =`, a parameter `M`).
fn own_name(code: &str, name: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + name.len()..].chars().next();
        if before.is_some_and(is_word) || after.is_some_and(is_word) {
            return false;
        }
        let head = code[..at].trim_end();
        let tail = code[at + name.len()..].trim_start();
        head.ends_with("local")
            || head.ends_with("function")
            || head.ends_with('(') && tail.starts_with([',', ')'])
            || head.ends_with(',') && tail.starts_with([',', ')'])
            || (tail.starts_with('=') && !tail.starts_with("=="))
    })
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

/// Problems with the literal names a script passes to `Scene.load`, `Data.table`,
/// `Audio.music` and `Audio.play`: a name that leaves its folder, a scene or table with no
/// file (a table a package declares is already reported missing, with how to add it), a sound
/// that does not decode.
fn literal_names(
    project: &Project,
    registry: &Registry,
    scenes: &[String],
    file: &str,
    text: &str,
) -> Vec<String> {
    let mut problems = Vec::new();
    let calls = [
        ("Scene.load", literal_calls(text, "Scene.load(")),
        ("Data.table", literal_calls(text, "Data.table(")),
        ("Audio.music", literal_calls(text, "Audio.music(")),
        ("Audio.play", literal_calls(text, "Audio.play(")),
    ];
    for (call, found) in calls {
        for (line, name) in found {
            let at = format!("assets/scripts/{file}:{line}: {call}({name:?})");
            if let Err(e) = check_asset_name(&name) {
                problems.push(format!("{at}: {e}"));
            } else if call == "Scene.load" && !scenes.contains(&name) {
                problems.push(format!("{at} names a scene that does not exist"));
            } else if call.starts_with("Audio.") {
                // Decoded whole, as the game would: a missing, truncated or odd file is named.
                if let Err(e) = crate::audio::check_file(&project.dir.join("assets"), &name) {
                    problems.push(format!("{at}: {e}"));
                }
            } else if call == "Data.table" {
                let table = jengine::host::table_name(&name);
                let declared = registry.tables().iter().any(|t| t.name() == table);
                let path = project.dir.join("data").join(format!("{table}.json"));
                if !declared && !path.is_file() {
                    problems.push(format!(
                        "{at} names a table that does not exist (no file data/{table}.json)"
                    ));
                }
            }
        }
    }
    problems
}

/// Calls of `call` (`"Scene.load("`) with a literal string argument, with their line numbers.
fn literal_calls(text: &str, call: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("--").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find(call) {
            rest = &rest[at + call.len()..];
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
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_script_text_is_scanned_without_panicking(
            text in proptest::string::string_regex("(Scene\\.load\\(|Data\\.table\\(|[\"' ]|--|\n|é|[a-z.]){0,40}").unwrap()
        ) {
            for (line, name) in literal_calls(&text, "Scene.load(") {
                prop_assert!(line >= 1 && line <= text.lines().count());
                prop_assert!(!name.contains('\n'));
            }
            let _ = literal_calls(&text, "Data.table(");
        }

        /// A hostile script (unclosed strings and long brackets, escapes before multi-byte
        /// characters, stray parentheses) is scanned for calls without a panic, and the code
        /// the scan sees keeps the script's lines.
        #[test]
        fn hostile_script_text_is_scanned_for_calls_without_panicking(
            text in proptest::string::string_regex(
                "(Counter\\.add\\(|Countr\\.|M\\.|local M|[\"'\\\\(),{}\\[\\]= ]|--|\\[=*\\[|\\]=*\\]|\n|é|日|[a-z0-9.]){0,60}"
            ).unwrap()
        ) {
            let breaks = |t: &str| t.matches('\n').count();
            prop_assert_eq!(breaks(&code_only(&text)), breaks(&text));
            let mut api = BTreeMap::new();
            api.insert("Counter".to_string(), BTreeSet::from(["add".to_string()]));
            for problem in unknown_calls(&api, "x.lua", &text) {
                prop_assert!(problem.starts_with("assets/scripts/x.lua:"));
            }
            let reg = Registry::with(&[]);
            prop_assert!(literal_types(&reg, "x.lua", &text).is_empty());
            for (line, args) in literal_string_args(&text, "Counter.add(") {
                prop_assert!(line >= 1 && line <= text.lines().count());
                for arg in args.into_iter().flatten() {
                    prop_assert!(!arg.contains('\n') && !arg.contains('"'));
                }
            }
        }
    }

    #[test]
    fn literal_scene_loads_and_table_names_are_found_with_their_lines() {
        let text =
            "local x = 1\nScene.load(\"title\") -- go\n-- Scene.load(\"gone\")\nScene.load( 'end')";
        assert_eq!(
            literal_calls(text, "Scene.load("),
            vec![(2, "title".to_string()), (4, "end".to_string())]
        );
        assert_eq!(
            literal_calls("Data.table(\"a\") Data.table('b')", "Data.table("),
            vec![(1, "a".to_string()), (1, "b".to_string())]
        );
    }
}
