//! The fixture through a generated viewport build: the binary registers exactly the listed
//! packages and runs the same frames as the in-process runtime.

mod common;

use jengine_tool::viewport::{Profile, build};

#[test]
fn a_generated_viewport_runs_the_fixture_like_the_runtime_does() {
    let fixture = common::fixture();
    let viewport = build(&fixture, Profile::Dev, true).unwrap_or_else(|p| panic!("{p:#?}"));
    let main = std::fs::read_to_string(viewport.crate_dir.join("main.rs")).unwrap();
    assert!(
        main.contains("viewport_main(&[&jengine_counter::CounterPackage])"),
        "{main}"
    );

    let out = tempfile::tempdir().unwrap();
    let trace = out.path().join("trace.jsonl");
    let input = out.path().join("input.json");
    std::fs::write(
        &input,
        r#"[{"frame": 2, "type": "pointer", "phase": "press", "x": 7, "y": 0}]"#,
    )
    .unwrap();
    let status = std::process::Command::new(&viewport.binary)
        .args([
            "run",
            fixture.to_str().unwrap(),
            "--headless",
            "--frames",
            "5",
        ])
        .arg("--input")
        .arg(&input)
        .arg("--trace")
        .arg(&trace)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(
        stdout.contains("ran 5 frames of counter-fixture"),
        "{stdout}"
    );

    let mut rt = jengine_tool::Runtime::new(
        &fixture,
        &[&jengine_counter::CounterPackage],
        Default::default(),
    )
    .unwrap();
    let mut script =
        jengine_tool::input::InputScript::parse(&std::fs::read_to_string(&input).unwrap()).unwrap();
    let mut lines = Vec::new();
    rt.run(5, &mut script, |rt| {
        lines.push(jengine_tool::trace::line(rt))
    });
    let traced: Vec<String> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(traced, lines);

    let check = std::process::Command::new(&viewport.binary)
        .args(["check", fixture.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );

    // A second build with nothing changed is skipped.
    let again = build(&fixture, Profile::Dev, true).unwrap();
    assert!(!again.rebuilt());
}

#[test]
fn a_project_missing_a_dependency_gets_no_viewport() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (name, deps) in [("outer", "[\"inner\"]"), ("inner", "[]")] {
        common::write(
            root,
            &format!("packages/{name}/Cargo.toml"),
            &format!(
                "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n[package.metadata.jengine]\nentry = \"P\"\ndepends = {deps}\n"
            ),
        );
    }
    common::write(
        root,
        "projects/p/project.jengine",
        r#"{"name": "p", "start_scene": "main", "packages": [{"name": "outer", "source": {"type": "path", "path": "../../packages/outer"}}]}"#,
    );
    let err = build(&root.join("projects/p"), Profile::Dev, true).unwrap_err();
    assert!(
        err[0].contains("lists outer, which depends on inner (not listed): add"),
        "{err:?}"
    );
}
