//! Scroll boxes move with the wheel, a drag and the keys, all from the frame's events (no
//! clock), and scripts read each box's layout as `text_layout` and set its scroll.

use std::sync::Arc;

use jengine::host::MemoryAssets;
use jengine::{Text, TextLayout};
use jengine_runtime::input::{Event, InputScript, Phase};
use jengine_runtime::{Options, Runtime, WHEEL_LINES};

const PROJECT: &str = r#"{
  "name": "text-boxes",
  "version": "0.1.0",
  "start_scene": "main",
  "packages": []
}"#;

/// A box of ten rows (5 units at 0.5 a line) from x = 0 to 6 and y = -2.5 to 2.5, holding
/// forty lines; a second, smaller box above it to the right; a plain label.
fn scene() -> String {
    let forty: Vec<String> = (1..=40).map(|i| format!("line {i}")).collect();
    serde_json::json!({
        "version": 2,
        "entities": [
            { "name": "camera", "camera": { "size": [16, 9] } },
            { "name": "log", "transform": { "pos": [0, 0] }, "script": "reader.lua",
              "text": { "text": forty.join("\n"), "size": 0.5, "align": "left", "wrap": 6,
                        "height": 5, "overflow": "scroll" } },
            { "name": "notes", "transform": { "pos": [-5, 3], "z": 1 },
              "text": { "text": "a\nb\nc\nd", "size": 0.5, "height": 1, "wrap": 2,
                        "overflow": "scroll" } },
            { "name": "errors", "transform": { "pos": [-5, -3] },
              "text": { "text": forty.join("\n"), "size": 0.5, "height": 2 } },
            { "name": "label", "text": { "text": "plain" } }
        ]
    })
    .to_string()
}

/// Each frame the log box's script keeps what it read of its layout; `x` asks for a scroll far
/// past the end, `y` for one before the start.
const READER: &str = r#"
function update(e, dt)
  local l = Entity.get(e, "text_layout")
  local t = Entity.get(e, "text")
  if l then
    Save.set("seen", { first = l.first, lines = l.lines, rows = l.rows, shown = l.shown,
                       hidden = l.hidden, max_scroll = l.max_scroll, focused = l.focused,
                       scroll = t.scroll })
  end
end

function key(e, name, down)
  if down and name == "pagedown" then
    local l = Entity.get(e, "text_layout")
    Save.set("at_key", { first = l.first, focused = l.focused, scroll = Entity.get(e, "text").scroll })
  end
  if down and name == "x" then Entity.set(e, "text", { scroll = 1000 }) end
  if down and name == "y" then Entity.set(e, "text", { scroll = -7 }) end
end
"#;

fn runtime() -> Runtime {
    let mut files = MemoryAssets::new();
    files
        .insert("project.jengine", PROJECT.as_bytes().to_vec())
        .unwrap();
    files
        .insert("assets/scenes/main.scene", scene().into_bytes())
        .unwrap();
    files
        .insert("assets/scripts/reader.lua", READER.as_bytes().to_vec())
        .unwrap();
    match Runtime::with_assets(Arc::new(files), &[], Options::default()) {
        Ok(rt) => rt,
        Err(problems) => panic!("{problems:?}"),
    }
}

fn scroll(rt: &Runtime, name: &str) -> f32 {
    let e = rt.find(name).unwrap();
    rt.world.entities.get::<&Text>(e).unwrap().scroll
}

fn layout(rt: &Runtime, name: &str) -> Option<TextLayout> {
    let e = rt.find(name).unwrap();
    rt.world.entities.get::<&TextLayout>(e).ok().map(|l| *l)
}

fn wheel(x: f64, y: f64, dy: f64) -> Event {
    Event::Wheel { x, y, dy }
}

fn key(name: &str) -> [Event; 2] {
    [
        Event::Key {
            key: name.into(),
            down: true,
        },
        Event::Key {
            key: name.into(),
            down: false,
        },
    ]
}

fn pointer(phase: Phase, x: f64, y: f64) -> Event {
    Event::Pointer { phase, x, y }
}

#[test]
fn every_text_box_gets_its_layout_from_the_first_frame() {
    let mut rt = runtime();
    let log = layout(&rt, "log").expect("laid out when the scene loads");
    assert_eq!(
        (log.lines, log.rows, log.first, log.shown, log.hidden),
        (40, 10, 0, 10, 30)
    );
    assert_eq!((log.max_scroll, log.focused), (30, false));
    assert!(log.width > 0.5 && log.width <= 6.0, "{}", log.width);
    // Four rows of "more": three lines and "… and 37 more".
    let errors = layout(&rt, "errors").unwrap();
    assert_eq!((errors.rows, errors.shown, errors.hidden), (4, 3, 37));
    assert_eq!(
        layout(&rt, "label"),
        None,
        "a text without a height is no box"
    );
    rt.step(&[]);
    let seen = rt.saved("seen").unwrap();
    assert_eq!(seen["lines"], 40);
    assert_eq!(seen["max_scroll"], 30);
    assert_eq!(seen["focused"], false);
}

#[test]
fn the_wheel_scrolls_the_box_under_the_pointer_and_focuses_it() {
    let mut rt = runtime();
    rt.step(&[wheel(3.0, 0.0, -1.0)]);
    assert_eq!(scroll(&rt, "log"), WHEEL_LINES);
    assert!(layout(&rt, "log").unwrap().focused);
    // Outside every box: nothing moves.
    rt.step(&[wheel(7.0, 0.0, -1.0), wheel(3.0, 4.0, -1.0)]);
    assert_eq!(scroll(&rt, "log"), WHEEL_LINES);
    // Up past the top stops at the top; a touchpad's fraction is kept.
    rt.step(&[wheel(3.0, 0.0, 5.0)]);
    assert_eq!(scroll(&rt, "log"), 0.0);
    rt.step(&[wheel(3.0, 0.0, -0.25)]);
    assert_eq!(scroll(&rt, "log"), 0.75);
    assert_eq!(layout(&rt, "log").unwrap().first, 0, "whole lines show");
    // Where boxes overlap the one drawn on top scrolls: "notes" (z 1) over nothing else here,
    // and it holds two rows of four lines.
    rt.step(&[wheel(-5.0, 3.0, -10.0)]);
    assert_eq!(scroll(&rt, "notes"), 2.0);
    assert_eq!(scroll(&rt, "log"), 0.75);
    let notes = layout(&rt, "notes").unwrap();
    assert!(notes.focused && !layout(&rt, "log").unwrap().focused);
}

#[test]
fn keys_scroll_the_focused_box_by_lines_and_pages() {
    let mut rt = runtime();
    // Nothing has focus yet: keys scroll nothing.
    rt.step(&key("down"));
    assert_eq!(scroll(&rt, "log"), 0.0);
    // Hovered and paged on one frame: the script's key callback already reads both.
    rt.step(&[
        pointer(Phase::Hover, 1.0, 1.0),
        Event::Key {
            key: "pagedown".into(),
            down: true,
        },
    ]);
    let at_key = rt.saved("at_key").unwrap();
    assert_eq!(at_key["focused"], true);
    assert_eq!(
        (at_key["first"].as_u64(), at_key["scroll"].as_f64()),
        (Some(9), Some(9.0))
    );
    rt.step(&key("home"));
    assert!(layout(&rt, "log").unwrap().focused);
    for (name, after) in [
        ("pagedown", 9.0),
        ("down", 10.0),
        ("up", 9.0),
        ("end", 30.0),
        ("down", 30.0),
        ("pagedown", 30.0),
        ("pageup", 21.0),
        ("home", 0.0),
        ("up", 0.0),
    ] {
        rt.step(&key(name));
        assert_eq!(scroll(&rt, "log"), after, "after {name}");
    }
    // Hovering elsewhere keeps the focus; a press outside every box takes it away.
    rt.step(&[pointer(Phase::Hover, 7.0, 0.0)]);
    rt.step(&key("down"));
    assert_eq!(scroll(&rt, "log"), 1.0);
    rt.step(&[
        pointer(Phase::Press, 7.0, 0.0),
        pointer(Phase::Release, 7.0, 0.0),
    ]);
    rt.step(&key("down"));
    assert_eq!(scroll(&rt, "log"), 1.0);
    assert!(!layout(&rt, "log").unwrap().focused);
}

#[test]
fn a_drag_inside_a_box_moves_its_lines_with_the_pointer() {
    let mut rt = runtime();
    rt.step(&[pointer(Phase::Press, 3.0, -2.0)]);
    // Up two units is four lines of 0.5: later lines come up.
    rt.step(&[pointer(Phase::Drag, 3.0, 0.0)]);
    assert_eq!(scroll(&rt, "log"), 4.0);
    // Past the box, the drag goes on; past the end it stops at the end.
    rt.step(&[pointer(Phase::Drag, 9.0, 40.0)]);
    assert_eq!(scroll(&rt, "log"), 30.0);
    rt.step(&[pointer(Phase::Drag, 3.0, -1.0)]);
    assert_eq!(scroll(&rt, "log"), 2.0);
    rt.step(&[pointer(Phase::Release, 3.0, -1.0)]);
    // Once released, dragging moves nothing.
    rt.step(&[pointer(Phase::Drag, 3.0, 3.0)]);
    assert_eq!(scroll(&rt, "log"), 2.0);
    // A drag that starts outside every box scrolls none.
    rt.step(&[
        pointer(Phase::Press, 7.0, -2.0),
        pointer(Phase::Drag, 7.0, 2.0),
        pointer(Phase::Release, 7.0, 2.0),
    ]);
    assert_eq!(scroll(&rt, "log"), 2.0);
}

#[test]
fn a_scripts_scroll_is_kept_in_range_and_read_back() {
    let mut rt = runtime();
    rt.step(&[pointer(Phase::Hover, 7.0, 0.0)]);
    rt.step(&key("x"));
    assert_eq!(
        scroll(&rt, "log"),
        30.0,
        "1000 is kept at the last full box"
    );
    rt.step(&[]);
    let seen = rt.saved("seen").unwrap();
    assert_eq!(
        (seen["first"].as_u64(), seen["scroll"].as_f64()),
        (Some(30), Some(30.0))
    );
    assert_eq!(
        (seen["shown"].as_u64(), seen["hidden"].as_u64()),
        (Some(10), Some(30))
    );
    rt.step(&key("y"));
    assert_eq!(scroll(&rt, "log"), 0.0);
}

#[test]
fn a_text_that_stops_being_a_box_loses_its_layout() {
    let mut rt = runtime();
    let e = rt.find("log").unwrap();
    rt.world.entities.get::<&mut Text>(e).unwrap().height = None;
    rt.step(&[]);
    assert_eq!(layout(&rt, "log"), None);
    // A box again, from a scroll that is not a number: at the top.
    {
        let mut text = rt.world.entities.get::<&mut Text>(e).unwrap();
        text.height = Some(5.0);
        text.scroll = f32::NAN;
    }
    rt.step(&[]);
    assert_eq!(layout(&rt, "log").unwrap().first, 0);
    assert_eq!(scroll(&rt, "log"), 0.0);
}

#[test]
fn an_input_file_replays_the_same_scrolling() {
    let file = r#"[
      { "frame": 1, "type": "wheel", "x": 3, "y": 0, "dy": -2 },
      { "frame": 2, "type": "key", "key": "pagedown", "down": true },
      { "frame": 3, "type": "key", "key": "pagedown", "down": false },
      { "frame": 4, "type": "pointer", "phase": "press", "x": 3, "y": 0 },
      { "frame": 5, "type": "pointer", "phase": "drag", "x": 3, "y": -1.5 },
      { "frame": 6, "type": "pointer", "phase": "release", "x": 3, "y": -1.5 }
    ]"#;
    let play = || {
        let mut rt = runtime();
        let mut input = InputScript::parse(file).unwrap();
        let mut scrolls = Vec::new();
        rt.run(8, &mut input, |rt| scrolls.push(scroll(rt, "log")));
        scrolls
    };
    let first = play();
    assert_eq!(first, [6.0, 15.0, 15.0, 15.0, 12.0, 12.0, 12.0, 12.0]);
    assert_eq!(play(), first);
    let err = InputScript::parse(r#"[{"frame": 1, "type": "wheel", "x": 0, "y": 0}]"#).unwrap_err();
    assert!(err.contains("dy"), "{err}");
    let err = InputScript::parse(r#"[{"frame": 1, "type": "wheel", "x": 0, "y": 1e999, "dy": 1}]"#);
    assert!(err.is_err());
}
