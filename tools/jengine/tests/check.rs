//! `jengine check` on the fixture and on broken copies of it: every problem at once.

mod common;

use jengine_counter::CounterPackage;
use jengine_tool::check::check;

#[test]
fn the_fixture_checks_clean() {
    let report = check(&common::fixture(), &[&CounterPackage]);
    assert!(report.ok(), "{:#?}", report.problems);
    assert_eq!(report.counts, (2, 2, 1));
    // The legacy scene's package key is kept inert: it loads, and it is said as a warning.
    assert!(report.notes.is_empty(), "{:?}", report.notes);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(
        report.warnings[0].starts_with("assets/scenes/legacy.scene: key \"counter\" (a component of jengine-counter) is kept as inert custom data"),
        "{}",
        report.warnings[0]
    );
}

#[test]
fn every_problem_is_reported_in_one_pass() {
    let dir = common::copy_fixture();
    let d = dir.path();
    common::write(
        d,
        "assets/scripts/broken.lua",
        "function update(e)\n  if then\nend\n",
    );
    common::write(
        d,
        "assets/scripts/goes.lua",
        "function start(e)\n  Scene.load(\"nowhere\")\nend\n",
    );
    common::write(
        d,
        "assets/scenes/bad.scene",
        r#"{"version": 2, "entities": [{"name": "x", "transform": {"pos": [0, "up"]}, "script": "missing.lua"}, {"wobble": 1}]}"#,
    );
    common::write(
        d,
        "assets/scenes/future.scene",
        r#"{"version": 7, "entities": []}"#,
    );
    common::write(
        d,
        "assets/scenes/torn.scene",
        "{\"version\": 2,\n  \"entities\": [\n",
    );
    common::write(
        d,
        "data/counter_goals.json",
        r#"[{"id": "a", "target": 0}, {"id": "b", "target": "x"}]"#,
    );
    common::write(d, "data/extra.json", "{\"not\": \"rows\"}");
    let report = check(d, &[&CounterPackage]);
    let all = report.problems.join("\n");
    let expect = [
        "assets/scripts/broken.lua:2:",
        "assets/scripts/goes.lua:2: Scene.load(\"nowhere\") names a scene that does not exist",
        "assets/scenes/bad.scene: entity 0 (\"x\"), key \"transform\": pos[1]: invalid type",
        "assets/scenes/bad.scene: entity 1, key \"wobble\": no listed package registers this key (listed packages: jengine-counter)",
        "assets/scenes/bad.scene: script assets/scripts/missing.lua does not exist",
        "assets/scenes/future.scene: unknown scene version 7",
        "assets/scenes/torn.scene: not a valid scene: EOF while parsing a list at line 3",
        "data/counter_goals.json: row 1 (\"a\"): target: must be above 0, got 0 (table of jengine-counter)",
        "data/counter_goals.json: row 2 (\"b\"): target: invalid type",
        "data/extra.json: a table is a JSON array of row objects",
    ];
    for e in expect {
        assert!(all.contains(e), "missing {e:?} in:\n{all}");
    }
    assert_eq!(report.problems.len(), expect.len(), "{all}");
}

#[test]
fn a_listed_package_this_build_does_not_link_is_named() {
    let report = check(&common::fixture(), &[]);
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.contains("lists jengine-counter, which this build does not link")),
        "{:#?}",
        report.problems
    );
}

#[test]
fn a_missing_or_malformed_project_file_is_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let report = check(dir.path(), &[]);
    assert_eq!(report.problems.len(), 1);
    assert!(
        report.problems[0].contains("project.jengine: cannot read"),
        "{:?}",
        report.problems
    );
    common::write(
        dir.path(),
        "project.jengine",
        "{\"name\": \"x\",\n \"start_scene\": 5}",
    );
    let report = check(dir.path(), &[]);
    assert!(
        report.problems[0].contains("start_scene: invalid type"),
        "{:?}",
        report.problems
    );
}

#[test]
fn a_package_path_that_does_not_exist_fails_the_runtime_and_the_check() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "project.jengine",
        r#"{"name": "x", "start_scene": "main", "packages": [{"name": "jengine-counter", "source": {"type": "path", "path": "../nowhere/counter"}}]}"#,
    );
    let report = check(dir.path(), &[&CounterPackage]);
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.contains("package folder does not exist")),
        "{:?}",
        report.problems
    );
    let err = jengine_tool::Runtime::new(dir.path(), &[&CounterPackage], Default::default())
        .err()
        .unwrap();
    assert!(err[0].contains("package \"jengine-counter\""), "{err:?}");
}

#[test]
fn a_missing_script_or_a_syntax_error_at_run_time_is_a_warning_and_the_rest_runs() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "assets/scripts/broken.lua",
        "function update(e)\n  if then\nend\n",
    );
    common::write(
        dir.path(),
        "assets/scenes/main.scene",
        r#"{"version": 2, "entities": [
            {"name": "a", "script": "gone.lua"},
            {"name": "b", "script": "broken.lua"},
            {"name": "box", "counter": {}, "script": "counter.lua"},
            {"name": "label", "text": {}}
        ]}"#,
    );
    let mut rt =
        jengine_tool::Runtime::new(dir.path(), &[&CounterPackage], Default::default()).unwrap();
    let log: Vec<String> = rt.take_log().into_iter().map(|l| l.message).collect();
    assert!(
        log.iter()
            .any(|m| m.starts_with("assets/scripts/gone.lua: cannot read script")),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|m| m.starts_with("assets/scripts/broken.lua:2:")),
        "{log:?}"
    );
    rt.run(2, &mut Default::default(), |_| {});
    assert_eq!(rt.bags()["box"]["counter"]["count"], 3);
}

/// The problems of a check, each with the temp folder's path cut out so tests can compare
/// whole messages.
fn problems(dir: &std::path::Path) -> Vec<String> {
    let report = check(dir, &[&CounterPackage]);
    let prefix = format!("{}/", dir.display());
    report
        .problems
        .iter()
        .map(|p| p.replace(&prefix, ""))
        .collect()
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer
        .write_image_data(&vec![200; (width * height * 4) as usize])
        .unwrap();
    writer.finish().unwrap();
    out
}

fn write_bytes(dir: &std::path::Path, rel: &str, bytes: &[u8]) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_malformed_entity_or_row_hides_no_other_problem_and_no_table_goes_missing() {
    let dir = common::copy_fixture();
    let d = dir.path();
    common::write(
        d,
        "assets/scenes/bad.scene",
        r#"{"version": 2, "entities": [
            [1, 2],
            {"name": "x", "counter": {"step": "fast"}, "name": "y"},
            {"name": "z", "transform": {"rot": "left"}}
        ]}"#,
    );
    common::write(
        d,
        "data/counter_goals.json",
        r#"[{"id": "a", "target": 1}, 5, {"id": "b", "target": 2, "id": "c"}, {"id": "d", "target": "x"}]"#,
    );
    assert_eq!(
        problems(d),
        [
            "data/counter_goals.json: row 2: a row must be an object, got a number",
            "data/counter_goals.json: row 3 (\"b\"): key \"id\" appears twice in one row",
            "data/counter_goals.json: row 4 (\"d\"): target: invalid type: string \"x\", expected i64 (table of jengine-counter)",
            "assets/scenes/bad.scene: entity 0: an entity is an object of components, got an array",
            "assets/scenes/bad.scene: entity 1 (\"x\"), key \"name\": appears twice in this entity; a key may appear once per entity",
            "assets/scenes/bad.scene: entity 1 (\"x\"), key \"counter\": step: invalid type: string \"fast\", expected i64",
            "assets/scenes/bad.scene: entity 2 (\"z\"), key \"transform\": rot: invalid type: string \"left\", expected f32",
        ]
    );
}

#[test]
fn every_texture_and_font_a_scene_names_is_decoded_and_each_bad_one_named() {
    let dir = common::copy_fixture();
    let d = dir.path();
    let good = png(2, 2);
    write_bytes(d, "assets/textures/good.png", &good);
    write_bytes(d, "assets/textures/ui/also.png", &good);
    write_bytes(
        d,
        "assets/textures/corrupt.png",
        b"\x89PNG\r\n\x1a\nnot really",
    );
    write_bytes(d, "assets/textures/cut.png", &good[..good.len() - 20]);
    let font =
        std::fs::read(common::workspace().join("tools/render/fonts/Mplus1-Regular.subset.otf"))
            .unwrap();
    write_bytes(d, "assets/fonts/good.otf", &font);
    write_bytes(d, "assets/fonts/bad.ttf", b"no font here");
    common::write(
        d,
        "assets/scenes/art.scene",
        r#"{"version": 2, "entities": [
            {"name": "ok", "sprite": {"texture": "good.png"}, "text": {"font": "good.otf"}, "sprite_library": {"textures": ["ui/also.png"]}},
            {"name": "a", "sprite": {"texture": "corrupt.png"}},
            {"name": "b", "mesh": {"texture": "cut.png"}},
            {"name": "c", "sprite_library": {"textures": ["good.png", "gone.png"]}},
            {"name": "d", "text": {"text": "hi", "font": "bad.ttf"}},
            {"name": "e", "text": {"font": "gone.otf"}},
            {"name": "f", "sprite": {"texture": "corrupt.png"}}
        ]}"#,
    );
    // A scene that fails to load still has what it names checked.
    common::write(
        d,
        "assets/scenes/future.scene",
        r#"{"version": 7, "entities": [{"sprite": {"texture": "gone.png"}}]}"#,
    );
    let all = problems(d);
    let expect = [
        "assets/scenes/art.scene: entity 1 (\"a\"), key \"sprite\": texture \"corrupt.png\" is not a usable PNG (assets/textures/corrupt.png: ",
        "assets/scenes/art.scene: entity 2 (\"b\"), key \"mesh\": texture \"cut.png\" is not a usable PNG (assets/textures/cut.png: ",
        "assets/scenes/art.scene: entity 3 (\"c\"), key \"sprite_library\": texture \"gone.png\" cannot be read (assets/textures/gone.png: ",
        "assets/scenes/art.scene: entity 4 (\"d\"), key \"text\": font \"bad.ttf\" is not a usable TTF/OTF font (assets/fonts/bad.ttf: ",
        "assets/scenes/art.scene: entity 5 (\"e\"), key \"text\": font \"gone.otf\" cannot be read (assets/fonts/gone.otf: ",
        "assets/scenes/future.scene: unknown scene version 7",
        "assets/scenes/future.scene: entity 0, key \"sprite\": texture \"gone.png\" cannot be read (assets/textures/gone.png: ",
    ];
    assert_eq!(all.len(), expect.len(), "{all:#?}");
    for (got, want) in all.iter().zip(expect) {
        assert!(got.starts_with(want), "{got}\nshould start with\n{want}");
    }
    assert!(
        all[0].ends_with("(and 1 more use in this scene)"),
        "{}",
        all[0]
    );
}

#[test]
fn hostile_asset_names_are_refused_by_check_and_at_run_time() {
    let dir = common::copy_fixture();
    let d = dir.path();
    // Real files just outside each folder, so a name that escaped would find something.
    write_bytes(d, "assets/secret.png", &png(1, 1));
    common::write(d, "assets/evil.lua", "function start(e) end\n");
    common::write(
        d,
        "assets/scenes/main.scene",
        r#"{"version": 2, "entities": [
            {"name": "s", "script": "../evil.lua"},
            {"name": "t", "sprite": {"texture": "../secret.png"}},
            {"name": "u", "text": {"font": "/etc/passwd"}},
            {"name": "v", "mesh": {"texture": "a/../../b.png"}},
            {"name": "w", "sprite_library": {"textures": ["C:\\x.png", "a\\..\\b.png", "x\u0000.png", ""]}}
        ]}"#,
    );
    common::write(
        d,
        "assets/scripts/go.lua",
        "function start(e)\n  Scene.load(\"../../etc/passwd\")\n  Data.table(\"../../etc/passwd\")\n  Data.table(\"nothing\")\nend\n",
    );
    let rule = |name: &str| jengine::check_asset_name(name).unwrap_err().to_string();
    let scene = "assets/scenes/main.scene";
    let expect = vec![
        format!("{scene}: entity 0 (\"s\"), key \"script\": {}", rule("../evil.lua")),
        format!("{scene}: entity 1 (\"t\"), key \"sprite\": texture: {}", rule("../secret.png")),
        format!("{scene}: entity 2 (\"u\"), key \"text\": font: {}", rule("/etc/passwd")),
        format!("{scene}: entity 3 (\"v\"), key \"mesh\": texture: {}", rule("a/../../b.png")),
        format!(
            "{scene}: entity 4 (\"w\"), key \"sprite_library\": textures[0]: {}; textures[1]: {}; textures[2]: {}; textures[3]: {}",
            rule("C:\\x.png"),
            rule("a\\..\\b.png"),
            rule("x\0.png"),
            rule("")
        ),
        format!("assets/scripts/go.lua:2: Scene.load(\"../../etc/passwd\"): {}", rule("../../etc/passwd")),
        format!("assets/scripts/go.lua:3: Data.table(\"../../etc/passwd\"): {}", rule("../../etc/passwd")),
        "assets/scripts/go.lua:4: Data.table(\"nothing\") names a table that does not exist (no file data/nothing.json)".to_string(),
    ];
    assert_eq!(problems(d), expect);
    // The runtime reads the same scene through the same parser and refuses it.
    let err = jengine_tool::Runtime::new(d, &[&CounterPackage], Default::default())
        .err()
        .unwrap();
    assert_eq!(err, [expect[..5].join("\n")]);
}

#[test]
fn unknown_keys_are_errors_naming_the_closest_known_key() {
    let dir = common::copy_fixture();
    let d = dir.path();
    let project = std::fs::read_to_string(d.join("project.jengine"))
        .unwrap()
        .replace("\"title\"", "\"titel\"");
    common::write(d, "project.jengine", &project);
    let report = check(d, &[&CounterPackage]);
    assert_eq!(
        report.problems,
        [format!(
            "{}: window: unknown key \"titel\"; did you mean \"title\"? (expected one of: width, height, title)",
            d.join("project.jengine").display()
        )]
    );
    let dir = common::copy_fixture();
    let d = dir.path();
    common::write(
        d,
        "assets/scenes/typo.scene",
        r#"{"version": 2, "entities": [{"name": "x", "countr": {}, "sprit": {}}]}"#,
    );
    assert_eq!(
        problems(d),
        [
            "assets/scenes/typo.scene: entity 0 (\"x\"), key \"countr\": no listed package registers this key (listed packages: jengine-counter); did you mean \"counter\"?",
            "assets/scenes/typo.scene: entity 0 (\"x\"), key \"sprit\": no listed package registers this key (listed packages: jengine-counter); did you mean \"sprite\"?",
        ]
    );
}

#[test]
fn a_declared_table_without_its_file_says_how_to_add_an_empty_one() {
    let dir = common::copy_fixture();
    let d = dir.path();
    std::fs::remove_file(d.join("data/counter_goals.json")).unwrap();
    let expect = "data/counter_goals.json: table not found in the project's data folder; for a table with no rows, add the file data/counter_goals.json containing [] (table of jengine-counter)";
    assert_eq!(problems(d), [expect]);
    std::fs::remove_dir(d.join("data")).unwrap();
    assert_eq!(problems(d), [expect]);
    let err = jengine_tool::Runtime::new(d, &[&CounterPackage], Default::default())
        .err()
        .unwrap();
    assert_eq!(err, [expect]);
    // Following the advice: the check passes (the script that reads a goal is not run).
    common::write(d, "data/counter_goals.json", "[]");
    assert_eq!(problems(d), Vec::<String>::new());
}

#[test]
fn every_sound_a_script_names_is_decoded() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "assets/scripts/noise.lua",
        "function start(e)\n  Audio.music('gone.ogg')\n  Audio.play(\"bad.wav\")\n  Audio.play('../x.wav')\nend\n",
    );
    common::write(
        dir.path(),
        "assets/audio/bad.wav",
        "RIFF\u{0}\u{0}not a wav",
    );
    let report = check(dir.path(), &[&CounterPackage]);
    let all = report.problems.join("\n");
    assert!(
        all.contains(
            "assets/scripts/noise.lua:2: Audio.music(\"gone.ogg\"): assets/audio/gone.ogg"
        ),
        "{all}"
    );
    assert!(
        all.contains("assets/scripts/noise.lua:3: Audio.play(\"bad.wav\"): assets/audio/bad.wav"),
        "{all}"
    );
    assert!(
        all.contains(
            "assets/scripts/noise.lua:4: Audio.play(\"../x.wav\"): \"../x.wav\" leaves its folder"
        ),
        "{all}"
    );
}

#[test]
fn nonsense_at_the_top_of_a_scene_fails_the_check() {
    let dir = common::copy_fixture();
    let d = dir.path();
    common::write(
        d,
        "assets/scenes/typo.scene",
        r#"{"version": 2, "entites": [{"name": "x"}], "colour": 1}"#,
    );
    common::write(
        d,
        "assets/scenes/names.scene",
        "{\"version\": 2, \"entities\": [{\"name\": \"a\\u0000b\\n\\u001b[31mred\\u202e\"}]}",
    );
    common::write(
        d,
        "assets/scenes/flat.scene",
        r#"{"version": 2, "entities": [{"name": "cam", "camera": {"size": [0, 0]}}]}"#,
    );
    let long = "n".repeat(10 << 20);
    common::write(
        d,
        "assets/scenes/long.scene",
        &format!(r#"{{"version": 2, "entities": [{{"name": "{long}"}}]}}"#),
    );
    assert_eq!(
        problems(d),
        [
            "assets/scenes/flat.scene: entity 0 (\"cam\"), key \"camera\": size must be above zero in both directions, got [0.0, 0.0]",
            "assets/scenes/long.scene: entity 0, key \"name\": 10485760 characters is too long: the most is 200",
            "assets/scenes/names.scene: entity 0, key \"name\": character 1 is the control character U+0000: only printable text on one line is allowed",
            "assets/scenes/typo.scene: unknown top-level key \"entites\"; did you mean \"entities\"? (a scene has the keys: version, entities)",
            "assets/scenes/typo.scene: unknown top-level key \"colour\" (a scene has the keys: version, entities)",
            "assets/scenes/typo.scene: missing top-level key \"entities\" (a scene with nothing in it says \"entities\": [])",
        ]
    );
}

#[test]
fn trailing_bytes_or_a_huge_title_in_the_project_file_fail_the_check() {
    let dir = common::copy_fixture();
    let d = dir.path();
    let path = d.join("project.jengine");
    let project = std::fs::read_to_string(&path).unwrap();
    write_bytes(d, "project.jengine", format!("{project}\0").as_bytes());
    let report = check(d, &[&CounterPackage]);
    assert_eq!(
        report.problems,
        [format!(
            "{}: trailing bytes after the JSON: byte {} is 0x00; only whitespace may follow the document",
            path.display(),
            project.len()
        )]
    );
    let titled = project.replace("Counter fixture", &"t".repeat(10 << 20));
    common::write(d, "project.jengine", &titled);
    let report = check(d, &[&CounterPackage]);
    assert_eq!(
        report.problems,
        [format!(
            "{}: window.title: 10485760 characters is too long: the most is 200",
            path.display()
        )]
    );
}

/// A call of a name the API does not have is a problem with the closest name there is; a
/// namespace one typo from a real one is named; the script's own tables and calls in comments
/// and strings are left alone.
#[test]
fn calls_of_names_no_package_registers_are_problems_with_a_suggestion() {
    let dir = common::copy_fixture();
    let d = dir.path();
    common::write(
        d,
        "assets/scripts/typos.lua",
        concat!(
            "local M = {}\n",
            "function M.fine(e) return e end\n",
            "function start(e)\n",
            "  Counter.ad(e, 1)\n",
            "  Countr.add(e, 1)\n",
            "  Text.sett(e, \"x\")\n",
            "  -- Counter.nothing(e) in a comment\n",
            "  Log.info(\"Counter.nothing(e) in a string\")\n",
            "  M.fine(e)\n",
            "  Counter.add(e, 1)\n",
            "end\n",
        ),
    );
    let report = check(d, &[&CounterPackage]);
    let found: Vec<&String> = report
        .problems
        .iter()
        .filter(|p| p.starts_with("assets/scripts/typos.lua"))
        .collect();
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(
        found[0].starts_with("assets/scripts/typos.lua:4: Counter.ad is not a command")
            && found[0].ends_with("did you mean Counter.add?"),
        "{}",
        found[0]
    );
    assert!(
        found[1].contains(":5: Countr.add: there is no Countr; did you mean Counter.add?"),
        "{}",
        found[1]
    );
    assert!(
        found[2].contains(":6: Text.sett") && found[2].contains("Text.set?"),
        "{}",
        found[2]
    );
}

/// The counter package under its own name, with one more component whose fields name
/// textures: `board.tile` (a default the package ships) and `board.back` (one it does not),
/// and a texture its code draws.
struct BoardedCounter;

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Board {
    tile: String,
    back: String,
}

impl Default for Board {
    fn default() -> Board {
        Board {
            tile: "board/tile.png".into(),
            back: String::new(),
        }
    }
}

impl jengine::Package for BoardedCounter {
    fn name(&self) -> &'static str {
        "jengine-counter"
    }
    fn register(&self, reg: &mut jengine::Registry) {
        use jengine::AssetField;
        CounterPackage.register(reg);
        reg.component::<Board>("board");
        reg.component_assets::<Board>(
            "board",
            &[
                AssetField::texture("tile"),
                AssetField::texture("back"),
                AssetField::from_code(jengine::host::AssetKind::Texture, "board/glow.png"),
            ],
        );
        let tile: &'static [u8] = Box::leak(png(4, 4).into_boxed_slice());
        reg.asset("textures/board/tile.png", tile);
    }
}

#[test]
fn a_texture_a_package_field_names_that_nobody_provides_is_named_with_its_scene_entity_and_field() {
    let dir = common::copy_fixture();
    let d = dir.path();
    common::write(
        d,
        "assets/scenes/boards.scene",
        r#"{"version": 2, "entities": [
            {"name": "plain", "board": {}},
            {"name": "backed", "board": {"back": "felt.png"}},
            {"board": {"back": "felt.png", "tile": "mine.png"}},
            {"name": "sprite", "sprite": {"texture": "board/tile.png"}}
        ]}"#,
    );
    let report = check(d, &[&BoardedCounter]);
    let prefix = format!("{}/", d.display());
    let found: Vec<String> = report
        .problems
        .iter()
        .map(|p| p.replace(&prefix, ""))
        .collect();
    let nobody = |path: &str| {
        format!(
            "the project has no file {path} and no listed package ships one (listed: \
             jengine-counter); add it there"
        )
    };
    // The tile is the package's default and is fine; the glow its code draws, the felt and
    // the project's own tile are nobody's. A core sprite finds the package's default too.
    assert_eq!(
        found,
        [
            format!(
                "assets/scenes/boards.scene: entity 0 (\"plain\"), key \"board\": the package \
                 draws the texture \"board/glow.png\" itself: {} (and 2 more uses in this scene)",
                nobody("assets/textures/board/glow.png")
            ),
            format!(
                "assets/scenes/boards.scene: entity 1 (\"backed\"), key \"board\": field \"back\" \
                 names the texture \"felt.png\": {} (and 1 more use in this scene)",
                nobody("assets/textures/felt.png")
            ),
            format!(
                "assets/scenes/boards.scene: entity 2, key \"board\": field \"tile\" names the \
                 texture \"mine.png\": {}",
                nobody("assets/textures/mine.png")
            ),
        ]
    );

    // The project's files by those names, and a broken one in place of the package's tile.
    write_bytes(d, "assets/textures/board/glow.png", &png(2, 2));
    write_bytes(d, "assets/textures/felt.png", &png(2, 2));
    write_bytes(d, "assets/textures/mine.png", &png(2, 2));
    write_bytes(d, "assets/textures/board/tile.png", b"not a png");
    let report = check(d, &[&BoardedCounter]);
    let found: Vec<String> = report
        .problems
        .iter()
        .map(|p| p.replace(&prefix, ""))
        .collect();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].starts_with("assets/scenes/boards.scene: entity 3 (\"sprite\"), key \"sprite\": texture \"board/tile.png\" is not a usable PNG"),
        "{found:#?}"
    );
    assert!(
        found[1].starts_with("assets/scenes/boards.scene: entity 0 (\"plain\"), key \"board\": field \"tile\" names the texture \"board/tile.png\": texture \"board/tile.png\" is not a usable PNG"),
        "{found:#?}"
    );
    std::fs::remove_file(d.join("assets/textures/board/tile.png")).unwrap();
    let report = check(d, &[&BoardedCounter]);
    assert!(report.ok(), "{:#?}", report.problems);

    // A version 1 scene keeps package keys inert: they draw nothing and want nothing.
    common::write(
        d,
        "assets/scenes/old.scene",
        r#"{"version": 1, "entities": [{"name": "old", "board": {"back": "gone.png"}}]}"#,
    );
    let report = check(d, &[&BoardedCounter]);
    assert!(report.ok(), "{:#?}", report.problems);
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.starts_with("assets/scenes/old.scene: key \"board\"")),
        "{:?}",
        report.warnings
    );
}

/// The counter package with a command whose argument names a row of `counter_goals` (or
/// `"none"`).
struct GoalCounter;

impl jengine::Package for GoalCounter {
    fn name(&self) -> &'static str {
        "jengine-counter"
    }
    fn register(&self, reg: &mut jengine::Registry) {
        use jengine::value::{entity, string};
        CounterPackage.register(reg);
        reg.command(
            "Counter",
            "aim",
            (
                entity("e"),
                string("goal").row_of("counter_goals", &["none"]),
            ),
            |_, _| Ok(()),
        );
    }
}

/// A literal id that is not a row of the table a parameter names is a problem, with the call,
/// the argument, the table and the closest id; ids that are rows, the names the package takes
/// besides, and computed ids pass.
#[test]
fn literal_ids_are_held_to_the_table_they_name() {
    let dir = common::copy_fixture();
    let d = dir.path();
    common::write(
        d,
        "assets/scripts/aims.lua",
        concat!(
            "function start(e)\n",
            "  Counter.aim(e, \"frist\")\n",
            "  Counter.aim(e, \"first\")\n",
            "  Counter.aim(e, 'none')\n",
            "  Counter.aim(e, e.goal)\n",
            "  Counter.aim(e, \"second\") Counter.aim(e, \"third\") -- Counter.aim(e, \"x\")\n",
            "  local s = \"Counter.aim(e, 'gone')\"\n",
            "end\n",
        ),
    );
    let report = check(d, &[&GoalCounter]);
    let found: Vec<&String> = report
        .problems
        .iter()
        .filter(|p| p.starts_with("assets/scripts/aims.lua"))
        .collect();
    assert_eq!(
        found,
        [
            "assets/scripts/aims.lua:2: Counter.aim(e: entity, goal: string): argument 2 (goal) names \"frist\", but data/counter_goals.json has no row with that id (it also takes \"none\"); did you mean \"first\"?",
            "assets/scripts/aims.lua:6: Counter.aim(e: entity, goal: string): argument 2 (goal) names \"third\", but data/counter_goals.json has no row with that id (it also takes \"none\")",
        ],
        "{:#?}",
        report.problems
    );
    // With no table at all, every id but the package's own names is a problem.
    std::fs::remove_file(d.join("data/counter_goals.json")).unwrap();
    let report = check(d, &[&GoalCounter]);
    assert!(
        report.problems.iter().any(|p| p.ends_with(
            "names \"first\", but there is no table data/counter_goals.json (it also takes \"none\")"
        )),
        "{:#?}",
        report.problems
    );
}

/// A literal argument of the wrong kind in a command call is a problem with file, line, the
/// typed call and the argument; computed arguments and right literals are left alone.
#[test]
fn literal_arguments_of_the_wrong_kind_are_problems() {
    let dir = common::copy_fixture();
    let d = dir.path();
    common::write(
        d,
        "assets/scripts/kinds.lua",
        concat!(
            "function start(e)\n",
            "  Counter.add(e, \"two, three\")\n",
            "  Counter.add(e, 2.5)\n",
            "  Counter.add(7, 1)\n",
            "  Counter.add(e, nil)\n",
            "  Counter.add(e, 3)\n",
            "  Counter.add(e, e.count or 1)\n",
            "  Counter.add(Entity.find(\"box\"), -4)\n",
            "  -- Counter.add(e, \"in a comment\")\n",
            "end\n",
        ),
    );
    let report = check(d, &[&CounterPackage]);
    let found: Vec<&String> = report
        .problems
        .iter()
        .filter(|p| p.starts_with("assets/scripts/kinds.lua"))
        .collect();
    assert_eq!(found.len(), 4, "{found:#?}");
    assert_eq!(
        found[0].as_str(),
        "assets/scripts/kinds.lua:2: Counter.add(e: entity, n: integer): argument 2 (n) must be integer, got a string",
        "{found:#?}"
    );
    assert!(
        found[1].contains(":3: ") && found[1].ends_with("must be integer, got 2.5"),
        "{}",
        found[1]
    );
    assert!(
        found[2].contains(":4: ") && found[2].contains("argument 1 (e) must be entity, got 7"),
        "{}",
        found[2]
    );
    assert!(
        found[3].contains(":5: ") && found[3].ends_with("must be integer, got nil"),
        "{}",
        found[3]
    );
}
