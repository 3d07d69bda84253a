//! `jengine check` on the fixture and on broken copies of it: every problem at once.

mod common;

use jengine_counter::CounterPackage;
use jengine_tool::check::check;

#[test]
fn the_fixture_checks_clean() {
    let report = check(&common::fixture(), &[&CounterPackage]);
    assert!(report.ok(), "{:#?}", report.problems);
    assert_eq!(report.counts, (2, 2, 1));
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
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
