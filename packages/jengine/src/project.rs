//! `project.jengine`: a project's name, start scene, window and the packages it lists.
//!
//! The file is JSON. Packages are listed by name with a path source, relative to the
//! project's folder; the listing, not the crate graph, decides what gets registered.
//! Every key is known, so a key the format does not have is reported as the typo it is; the
//! required keys must be there, nothing may follow the document, and every string is capped.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::assets::{AssetError, Assets, DiskAssets};
use crate::scene::{MAX_NAME, check_line};
use crate::table::quoted;

/// The window a project asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Window {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Title bar text.
    pub title: String,
}

impl Default for Window {
    fn default() -> Self {
        Window {
            width: 1280,
            height: 720,
            title: String::new(),
        }
    }
}

/// Where a listed package's crate is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Source {
    /// A crate folder, relative to the project.
    Path {
        /// The folder holding the package's `Cargo.toml`.
        path: String,
    },
}

/// One entry of the top-level `packages` array.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackageRef {
    /// The package's crate name.
    pub name: String,
    /// Where it is.
    pub source: Source,
}

/// The contents of `project.jengine`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectFile {
    /// The project's name.
    pub name: String,
    /// Its version.
    #[serde(default)]
    pub version: String,
    /// The scene to load first, by name (`title` for `assets/scenes/title.scene`).
    pub start_scene: String,
    /// The window.
    #[serde(default)]
    pub window: Window,
    /// The packages to register, dependencies included.
    #[serde(default)]
    pub packages: Vec<PackageRef>,
    /// Folders of the project besides `assets/` and `data/` that the game reads while it runs
    /// (Miau's shipped packs in `mods/`), each one plain name. A web build packs them too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub folders: Vec<String>,
}

/// A file that could not be read or is wrong: a project file, a package's `Cargo.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The file (or the folder that should hold it).
    pub file: PathBuf,
    /// What is wrong (with line and column for JSON errors, and the field path).
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

impl std::error::Error for FileError {}

/// The most characters the window title may have.
pub const MAX_TITLE: usize = 200;

/// The most characters a path in the project file (`start_scene`, a package's `path`) may
/// have. The project's name and version and each package's name are held to
/// [`MAX_NAME`](crate::host::MAX_NAME).
pub const MAX_PATH: usize = 1024;

/// The keys the file must hold, with what each is for.
const REQUIRED_KEYS: &[(&str, &str)] = &[
    ("name", "the project's name"),
    ("start_scene", "the scene to load first"),
];

/// The keys each object of `project.jengine` may hold; anything else is a typo to report.
const PROJECT_KEYS: &[&str] = &[
    "name",
    "version",
    "start_scene",
    "window",
    "packages",
    "folders",
];
const WINDOW_KEYS: &[&str] = &["width", "height", "title"];
const PACKAGE_KEYS: &[&str] = &["name", "source"];
const SOURCE_KEYS: &[&str] = &["type", "path"];

/// A loaded project: its folder, its file and the files it is read from.
#[derive(Debug, Clone)]
pub struct Project {
    /// The project's folder (its assets' [`root`](Assets::root)): where tools look on disk,
    /// and how messages name its files.
    pub dir: PathBuf,
    /// What `project.jengine` says.
    pub file: ProjectFile,
    /// The project's files, named from its folder (`assets/scenes/title.scene`).
    pub assets: Arc<dyn Assets>,
}

/// Two projects are the same when their folder and file are; where the bytes came from does
/// not count.
impl PartialEq for Project {
    fn eq(&self, other: &Project) -> bool {
        self.dir == other.dir && self.file == other.file
    }
}

impl Eq for Project {}

impl Project {
    /// Reads `<dir>/project.jengine` from the folder on disk.
    pub fn load(dir: &Path) -> Result<Project, FileError> {
        Project::open(Arc::new(DiskAssets::new(dir)))
    }

    /// Reads `project.jengine` from `assets`, which stay the project's files.
    pub fn open(assets: Arc<dyn Assets>) -> Result<Project, FileError> {
        let dir = assets.root().to_path_buf();
        let path = dir.join("project.jengine");
        let text = assets.read_text("project.jengine").map_err(|e| FileError {
            file: path.clone(),
            message: format!("cannot read: {}", e.problem),
        })?;
        let file = ProjectFile::parse(&text).map_err(|message| FileError {
            file: path.clone(),
            message,
        })?;
        Ok(Project { dir, file, assets })
    }

    /// A listed package's folder, resolved against the project folder.
    pub fn package_dir(&self, package: &PackageRef) -> PathBuf {
        match &package.source {
            Source::Path { path } => self.dir.join(path),
        }
    }

    /// `<dir>/assets/scenes/<name>.scene`.
    pub fn scene_path(&self, name: &str) -> PathBuf {
        self.dir.join("assets/scenes").join(format!("{name}.scene"))
    }

    /// `<dir>/assets/scripts/<file>`.
    pub fn script_path(&self, file: &str) -> PathBuf {
        self.dir.join("assets/scripts").join(file)
    }

    /// The text of the scene `name`, `assets/scenes/<name>.scene`, from the project's assets.
    pub fn read_scene(&self, name: &str) -> Result<String, AssetError> {
        self.assets
            .read_text(&format!("assets/scenes/{name}.scene"))
    }

    /// The names of every scene under `assets/scenes`, sorted: `title` for
    /// `assets/scenes/title.scene`, `levels/one` for `assets/scenes/levels/one.scene`. Folders
    /// are followed eight deep (links to folders are not followed, so a loop ends), and a file
    /// whose name is not a good asset name is left out.
    pub fn scene_names(&self) -> Vec<String> {
        const DEPTH: usize = 8;
        const MOST: usize = 10_000;
        let mut names = Vec::new();
        let mut stack = vec![("assets/scenes".to_string(), String::new(), 0usize)];
        while let Some((dir, prefix, depth)) = stack.pop() {
            let Ok(entries) = self.assets.list(&dir) else {
                continue;
            };
            for entry in entries {
                let file = entry.name;
                if entry.folder {
                    if depth < DEPTH {
                        stack.push((
                            format!("{dir}/{file}"),
                            format!("{prefix}{file}/"),
                            depth + 1,
                        ));
                    }
                    continue;
                }
                let Some(stem) = file.strip_suffix(".scene") else {
                    continue;
                };
                let name = format!("{prefix}{stem}");
                if !stem.is_empty() && crate::asset::check_asset_name(&name).is_ok() {
                    names.push(name);
                }
                if names.len() >= MOST {
                    break;
                }
            }
        }
        names.sort();
        names
    }
}

impl ProjectFile {
    /// Parses and checks the file's text.
    pub fn parse(text: &str) -> Result<ProjectFile, String> {
        if let Some(message) = crate::table::trailing_bytes(text) {
            return Err(message);
        }
        // Unknown and missing keys first, all of them: a typo'd key is otherwise silently
        // ignored or reported without the key it was probably meant to be.
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
            if !value.is_object() {
                return Err(format!(
                    "project.jengine is a JSON object with the keys {}; got {}",
                    PROJECT_KEYS.join(", "),
                    crate::table::json_kind(&value)
                ));
            }
            let mut problems = unknown_keys(&value);
            for (key, what) in REQUIRED_KEYS {
                if value.get(key).is_none() {
                    problems.push(format!("missing key {key:?} ({what})"));
                }
            }
            if !problems.is_empty() {
                return Err(problems.join("; "));
            }
        }
        let de = &mut serde_json::Deserializer::from_str(text);
        let file: ProjectFile = serde_path_to_error::deserialize(de)
            .map_err(|e| crate::table::describe_path_error(&e))?;
        let line = |at: &str, text: &str, max: usize| {
            check_line(text, max).map_err(|e| format!("{at}: {e}"))
        };
        if file.name.trim().is_empty() {
            return Err("name: must not be empty".into());
        }
        line("name", &file.name, MAX_NAME)?;
        line("version", &file.version, MAX_NAME)?;
        if file.start_scene.trim().is_empty() {
            return Err("start_scene: must name a scene".into());
        }
        line("start_scene", &file.start_scene, MAX_PATH)?;
        crate::asset::check_asset_name(&file.start_scene)
            .map_err(|e| format!("start_scene: {e}"))?;
        line("window.title", &file.window.title, MAX_TITLE)?;
        if file.window.width == 0 || file.window.height == 0 {
            return Err(format!(
                "window: size must be above zero, got {}x{}",
                file.window.width, file.window.height
            ));
        }
        for (i, folder) in file.folders.iter().enumerate() {
            let plain = !folder.is_empty()
                && folder.len() <= MAX_NAME
                && !folder.starts_with('.')
                && folder
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
            if !plain {
                return Err(format!(
                    "folders[{i}]: {folder:?} must be one plain folder name (letters, digits, \
                     '-', '_', '.'; not hidden)"
                ));
            }
            if file.folders[..i].contains(folder) {
                return Err(format!("folders[{i}]: {folder} is listed twice"));
            }
        }
        for (i, p) in file.packages.iter().enumerate() {
            line(&format!("packages[{i}].name"), &p.name, MAX_NAME)?;
            let Source::Path { path } = &p.source;
            line(&format!("packages[{i}].source.path"), path, MAX_PATH)?;
            if file.packages[..i].iter().any(|q| q.name == p.name) {
                return Err(format!("packages[{i}]: {} is listed twice", p.name));
            }
        }
        Ok(file)
    }
}

/// Every key of `value` (a parsed `project.jengine`) that the format does not have, with
/// where it is and the key it is closest to.
fn unknown_keys(value: &serde_json::Value) -> Vec<String> {
    fn check(
        object: Option<&serde_json::Map<String, serde_json::Value>>,
        known: &[&str],
        at: &str,
        out: &mut Vec<String>,
    ) {
        // Sorted, so the message does not depend on how the JSON map keeps its keys.
        let mut keys: Vec<&String> = object.into_iter().flat_map(|o| o.keys()).collect();
        keys.sort();
        for key in keys {
            if !known.contains(&key.as_str()) {
                let hint = crate::table::did_you_mean(key, known.iter().copied());
                let expected = known.join(", ");
                out.push(format!(
                    "{at}unknown key {}{hint} (expected one of: {expected})",
                    quoted(key)
                ));
            }
        }
    }
    let mut out = Vec::new();
    check(value.as_object(), PROJECT_KEYS, "", &mut out);
    check(
        value.get("window").and_then(|w| w.as_object()),
        WINDOW_KEYS,
        "window: ",
        &mut out,
    );
    let packages = value.get("packages").and_then(|p| p.as_array());
    for (i, package) in packages.into_iter().flatten().enumerate() {
        check(
            package.as_object(),
            PACKAGE_KEYS,
            &format!("packages[{i}]: "),
            &mut out,
        );
        check(
            package.get("source").and_then(|s| s.as_object()),
            SOURCE_KEYS,
            &format!("packages[{i}].source: "),
            &mut out,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn scene_names_reach_into_folders() {
        let dir = tempfile::tempdir().unwrap();
        let scenes = dir.path().join("assets/scenes");
        for file in [
            "title.scene",
            "levels/one.scene",
            "levels/deep/two.scene",
            "levels/notes.txt",
            "levels/.scene",
            "a:b.scene",
            "back\\slash.scene",
        ] {
            let path = scenes.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "{}").unwrap();
        }
        // A link back up is not followed.
        #[cfg(unix)]
        std::os::unix::fs::symlink(&scenes, scenes.join("levels/loop")).unwrap();
        // Nine folders deep is deeper than is looked.
        let deep = scenes.join("1/2/3/4/5/6/7/8/9");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("far.scene"), "{}").unwrap();
        std::fs::write(deep.parent().unwrap().join("near.scene"), "{}").unwrap();
        std::fs::write(
            dir.path().join("project.jengine"),
            r#"{"name": "d", "version": "0.1.0", "start_scene": "title",
                "window": {"width": 64, "height": 36, "title": "D"}, "packages": []}"#,
        )
        .unwrap();
        let project = Project::load(dir.path()).unwrap();
        assert_eq!(
            project.scene_names(),
            [
                "1/2/3/4/5/6/7/8/near",
                "levels/deep/two",
                "levels/one",
                "title"
            ]
        );
        assert_eq!(
            project.scene_path("levels/one"),
            scenes.join("levels/one.scene")
        );
    }

    #[test]
    fn a_project_in_memory_opens_and_lists_its_scenes_as_on_disk() {
        let mut memory = crate::assets::MemoryAssets::named("web/demo");
        let text = r#"{"name": "demo", "start_scene": "title"}"#;
        for (name, bytes) in [
            ("project.jengine", text),
            ("assets/scenes/title.scene", "{}"),
            ("assets/scenes/levels/one.scene", "{}"),
            ("assets/scenes/levels/notes.txt", ""),
        ] {
            memory.insert(name, bytes).unwrap();
        }
        let project = Project::open(Arc::new(memory)).unwrap();
        assert_eq!(project.dir, Path::new("web/demo"));
        assert_eq!(project.file.name, "demo");
        assert_eq!(project.scene_names(), ["levels/one", "title"]);
        assert_eq!(project.read_scene("levels/one").unwrap(), "{}");
        assert_eq!(
            project.read_scene("gone").unwrap_err().to_string(),
            "web/demo/assets/scenes/gone.scene: no such file"
        );
        let err = Project::open(Arc::new(crate::assets::MemoryAssets::new())).unwrap_err();
        assert_eq!(
            err.to_string(),
            "project.jengine: cannot read: no such file"
        );
    }

    #[test]
    fn a_project_file_reads_its_packages() {
        let text = r#"{
            "name": "demo", "version": "0.1.0", "start_scene": "main",
            "window": {"width": 640, "height": 360, "title": "Demo"},
            "packages": [{"name": "jengine-counter", "source": {"type": "path", "path": "../counter"}}]
        }"#;
        let file = ProjectFile::parse(text).unwrap();
        assert_eq!(file.packages[0].name, "jengine-counter");
        assert_eq!(file.window.width, 640);
    }

    #[test]
    fn errors_name_the_field_and_place() {
        let text = r#"{"name": "demo", "start_scene": "main",
            "packages": [{"name": "x", "source": {"type": "git", "path": "y"}}]}"#;
        let err = ProjectFile::parse(text).unwrap_err();
        assert!(err.starts_with("packages[0].source"), "{err}");
        assert!(err.contains("unknown variant `git`"), "{err}");
        let err = ProjectFile::parse("{\"name\": \"demo\",").unwrap_err();
        assert!(err.contains("line 1"), "{err}");
        let err = ProjectFile::parse(r#"{"name": "demo", "start_scene": ""}"#).unwrap_err();
        assert!(err.contains("start_scene"), "{err}");
    }

    #[test]
    fn unknown_keys_at_every_level_are_named_with_the_closest_known_key() {
        let text = r#"{
            "name": "demo", "start_scene": "main", "strat_scene": "x", "colour": 1,
            "window": {"width": 640, "titel": "Demo"},
            "packages": [{"name": "a", "sourse": {}}, {"name": "b", "source": {"type": "path", "path": "p", "paht": "q"}}]
        }"#;
        let err = ProjectFile::parse(text).unwrap_err();
        let expected = [
            "unknown key \"colour\" (expected one of: name, version, start_scene, window, packages, folders)",
            "unknown key \"strat_scene\"; did you mean \"start_scene\"? (expected one of: name, version, start_scene, window, packages, folders)",
            "window: unknown key \"titel\"; did you mean \"title\"? (expected one of: width, height, title)",
            "packages[0]: unknown key \"sourse\"; did you mean \"source\"? (expected one of: name, source)",
            "packages[1].source: unknown key \"paht\"; did you mean \"path\"? (expected one of: type, path)",
        ];
        assert_eq!(err, expected.join("; "));
    }

    #[test]
    fn extra_folders_are_plain_names_listed_once() {
        let with = |folders: &str| {
            ProjectFile::parse(&format!(
                r#"{{"name": "n", "start_scene": "s", "folders": {folders}}}"#
            ))
        };
        assert_eq!(
            with(r#"["mods", "levels_2"]"#).unwrap().folders,
            ["mods", "levels_2"]
        );
        for bad in [
            r#"["../up"]"#,
            r#"["a/b"]"#,
            r#"[".git"]"#,
            r#"[""]"#,
            r#"["mods", "mods"]"#,
        ] {
            let err = with(bad).unwrap_err();
            assert!(err.starts_with("folders["), "{bad}: {err}");
        }
    }

    #[test]
    fn every_key_the_format_has_is_known() {
        let file = ProjectFile {
            name: "n".into(),
            version: "1".into(),
            start_scene: "s".into(),
            window: Window::default(),
            packages: vec![PackageRef {
                name: "p".into(),
                source: Source::Path { path: "x".into() },
            }],
            folders: vec!["mods".into()],
        };
        let v = serde_json::to_value(&file).unwrap();
        let keys = |v: &serde_json::Value| -> Vec<String> {
            v.as_object().unwrap().keys().cloned().collect()
        };
        let sorted = |k: &[&str]| {
            let mut k: Vec<String> = k.iter().map(|s| s.to_string()).collect();
            k.sort();
            k
        };
        assert_eq!(keys(&v), sorted(PROJECT_KEYS));
        assert_eq!(keys(&v["window"]), sorted(WINDOW_KEYS));
        assert_eq!(keys(&v["packages"][0]), sorted(PACKAGE_KEYS));
        assert_eq!(keys(&v["packages"][0]["source"]), sorted(SOURCE_KEYS));
        assert_eq!(ProjectFile::parse(&v.to_string()), Ok(file));
    }

    #[test]
    fn a_start_scene_outside_the_scenes_folder_is_refused() {
        let hostile = [
            "../../etc/passwd",
            "/etc/passwd",
            "a/../../b",
            "C:\\x",
            "a\\..\\b",
        ];
        for name in hostile {
            let text = serde_json::json!({"name": "p", "start_scene": name}).to_string();
            let err = ProjectFile::parse(&text).unwrap_err();
            let rule = crate::check_asset_name(name).unwrap_err();
            assert_eq!(err, format!("start_scene: {rule}"));
            assert!(
                err.ends_with("leaves its folder: asset names are relative paths inside it"),
                "{err}"
            );
        }
    }

    #[test]
    fn a_project_file_error_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("project.jengine"),
            r#"{"name": "p", "start_scene": "s", "pakages": []}"#,
        )
        .unwrap();
        let err = Project::load(dir.path()).unwrap_err();
        assert_eq!(err.file, dir.path().join("project.jengine"));
        assert_eq!(
            err.to_string(),
            format!(
                "{}: unknown key \"pakages\"; did you mean \"packages\"? (expected one of: name, version, start_scene, window, packages, folders)",
                dir.path().join("project.jengine").display()
            )
        );
    }

    const SAMPLE: &str = r#"{
        "name": "demo", "version": "0.1.0", "start_scene": "levels/one",
        "window": {"width": 640, "height": 360, "title": "Demo"},
        "packages": [{"name": "jengine-counter", "source": {"type": "path", "path": "../counter"}}]
    }"#;

    #[test]
    fn trailing_bytes_after_the_project_file_are_an_error_with_their_offset() {
        let text = format!("{SAMPLE}\0");
        assert_eq!(
            ProjectFile::parse(&text).unwrap_err(),
            format!(
                "trailing bytes after the JSON: byte {} is 0x00; only whitespace may follow the document",
                SAMPLE.len()
            )
        );
        let text = format!("{SAMPLE}\n{{\"name\": \"again\"}}");
        assert!(
            ProjectFile::parse(&text)
                .unwrap_err()
                .contains(&format!("byte {} is 0x7b", SAMPLE.len() + 1))
        );
        assert!(ProjectFile::parse(&format!("{SAMPLE}\n\n")).is_ok());
    }

    #[test]
    fn a_ten_megabyte_title_or_name_is_refused_with_the_cap() {
        let long = "t".repeat(10 << 20);
        let with = |key: &str| {
            let mut v: serde_json::Value = serde_json::from_str(SAMPLE).unwrap();
            match key {
                "title" => v["window"]["title"] = long.clone().into(),
                "package" => v["packages"][0]["name"] = long.clone().into(),
                "path" => v["packages"][0]["source"]["path"] = long.clone().into(),
                _ => v[key] = long.clone().into(),
            }
            ProjectFile::parse(&v.to_string()).unwrap_err()
        };
        let too_long = |max: usize| format!("10485760 characters is too long: the most is {max}");
        assert_eq!(
            with("title"),
            format!("window.title: {}", too_long(MAX_TITLE))
        );
        assert_eq!(
            with("name"),
            format!("name: {}", too_long(crate::scene::MAX_NAME))
        );
        assert_eq!(
            with("version"),
            format!("version: {}", too_long(crate::scene::MAX_NAME))
        );
        assert_eq!(
            with("start_scene"),
            format!("start_scene: {}", too_long(MAX_PATH))
        );
        assert_eq!(
            with("package"),
            format!("packages[0].name: {}", too_long(crate::scene::MAX_NAME))
        );
        assert_eq!(
            with("path"),
            format!("packages[0].source.path: {}", too_long(MAX_PATH))
        );
        let mut v: serde_json::Value = serde_json::from_str(SAMPLE).unwrap();
        v["window"]["title"] = "題".repeat(MAX_TITLE).into();
        assert!(ProjectFile::parse(&v.to_string()).is_ok());
    }

    #[test]
    fn a_title_or_name_with_control_or_bidi_characters_is_refused() {
        for (key, value, expected) in [
            (
                "title",
                "Demo\u{1b}]0;pwned\u{7}",
                "window.title: character 4 is the control character U+001B: only printable text on one line is allowed",
            ),
            (
                "name",
                "de\nmo",
                "name: character 2 is the control character U+000A: only printable text on one line is allowed",
            ),
            (
                "title",
                "\u{202e}omed",
                "window.title: character 0 is the bidirectional control U+202E, which reorders how the text around it reads",
            ),
        ] {
            let mut v: serde_json::Value = serde_json::from_str(SAMPLE).unwrap();
            match key {
                "title" => v["window"]["title"] = value.into(),
                _ => v[key] = value.into(),
            }
            assert_eq!(ProjectFile::parse(&v.to_string()).unwrap_err(), expected);
        }
    }

    #[test]
    fn missing_top_level_keys_are_named_beside_unknown_ones() {
        let err = ProjectFile::parse(r#"{"version": "1", "nmae": "demo"}"#).unwrap_err();
        assert_eq!(
            err,
            [
                "unknown key \"nmae\"; did you mean \"name\"? (expected one of: name, version, start_scene, window, packages, folders)",
                "missing key \"name\" (the project's name)",
                "missing key \"start_scene\" (the scene to load first)",
            ]
            .join("; ")
        );
        assert_eq!(
            ProjectFile::parse("[1]").unwrap_err(),
            "project.jengine is a JSON object with the keys name, version, start_scene, window, packages, folders; got an array"
        );
    }

    #[test]
    fn the_mutation_sample_is_a_good_project_file() {
        assert!(ProjectFile::parse(SAMPLE).is_ok());
    }

    proptest! {
        #[test]
        fn mutated_project_files_never_panic_the_parser(
            edits in proptest::collection::vec((any::<proptest::sample::Index>(), any::<usize>(), any::<u8>()), 1..6)
        ) {
            let _ = ProjectFile::parse(&crate::scene::tests::mutate(SAMPLE, &edits));
        }

        #[test]
        fn random_bytes_never_panic_the_project_parser(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = ProjectFile::parse(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn random_json_never_panics_the_project_parser(v in crate::testing::json_value()) {
            let _ = ProjectFile::parse(&v.to_string());
            let wrapped = serde_json::json!({"name": "p", "start_scene": "s", "packages": v, "window": v});
            let _ = ProjectFile::parse(&wrapped.to_string());
        }
    }
}
