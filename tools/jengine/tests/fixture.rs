//! The fixture project run headless through the real runtime, in-process.

mod common;

use jengine::{LogLevel, Text};
use jengine_counter::CounterPackage;
use jengine_tool::input::{Event, InputScript, Phase, TimedEvent};
use jengine_tool::{Options, Runtime};

fn start(dir: &std::path::Path, options: Options) -> Runtime {
    match Runtime::new(dir, &[&CounterPackage], options) {
        Ok(r) => r,
        Err(problems) => panic!("{problems:#?}"),
    }
}

fn label(rt: &Runtime) -> String {
    let e = rt.find("label").unwrap();
    rt.world.entities.get::<&Text>(e).unwrap().text.clone()
}

fn count(rt: &Runtime) -> i64 {
    rt.bags()["box"]["counter"]["count"].as_i64().unwrap()
}

fn warnings(rt: &mut Runtime) -> Vec<String> {
    rt.take_log()
        .into_iter()
        .filter(|l| l.level == LogLevel::Warn)
        .map(|l| l.message)
        .collect()
}

#[test]
fn both_call_styles_reach_the_package_and_the_bag_reads_back() {
    let mut rt = start(&common::fixture(), Options::default());
    let mut input = InputScript::default();
    rt.run(1, &mut input, |_| {});
    // start() called Counter.add(e, 1) and counter_add(e, 2); both applied after scripts.
    assert_eq!(count(&rt), 3);
    assert_eq!(rt.bags()["box"]["counter"]["last"], "add 2");
    rt.run(1, &mut input, |_| {});
    assert_eq!(label(&rt), "count 3 after 2");
    let info: Vec<String> = rt.take_log().into_iter().map(|l| l.message).collect();
    assert!(
        info.iter()
            .any(|m| m == "assets/scripts/counter.lua:12: first goal first at 10"),
        "{info:?}"
    );
}

#[test]
fn input_events_reach_scripts_on_their_frames() {
    let mut rt = start(&common::fixture(), Options::default());
    let mut input = InputScript::from_events(vec![
        TimedEvent {
            frame: 4,
            event: Event::Pointer {
                phase: Phase::Press,
                x: 5.7,
                y: 0.0,
            },
        },
        TimedEvent {
            frame: 6,
            event: Event::Key {
                key: "r".into(),
                down: true,
            },
        },
    ]);
    rt.run(4, &mut input, |_| {});
    assert_eq!(count(&rt), 8);
    rt.run(2, &mut input, |_| {});
    assert_eq!(count(&rt), 0);
    assert_eq!(rt.bags()["box"]["counter"]["last"], "reset");
}

#[test]
fn input_on_the_first_frame_reaches_scripts_after_start() {
    let mut rt = start(&common::fixture(), Options::default());
    let events = r#"[{"frame": 1, "type": "pointer", "phase": "press", "x": 7, "y": 1}]"#;
    let mut input = InputScript::parse(events).unwrap();
    rt.run(1, &mut input, |_| {});
    // start() added 1 + 2, then the first frame's press added 7, all applied in call order.
    assert_eq!(count(&rt), 10);
}

#[test]
fn stop_runs_when_the_scene_changes_and_when_the_run_ends() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "assets/scripts/leaver.lua",
        "function update(e) if Time == nil then Scene.load('main') end end\nfunction stop(e)\n  Save.set('stopped', (Save.get('stopped') or 0) + 1)\n  Log.info('stop')\nend\n",
    );
    common::write(
        dir.path(),
        "assets/scenes/main.scene",
        r#"{"version": 2, "entities": [{"name": "leaver", "script": "leaver.lua"}]}"#,
    );
    let save = tempfile::tempdir().unwrap();
    let options = Options {
        save_dir: Some(save.path().to_path_buf()),
        ..Options::default()
    };
    let mut rt = start(dir.path(), options);
    rt.run(2, &mut InputScript::default(), |_| {});
    rt.finish();
    let stops = rt
        .take_log()
        .into_iter()
        .filter(|l| l.message.ends_with(": stop"))
        .count();
    // The scene reloaded itself on frames 1 and 2: two stops. The copy loaded on frame 2
    // had not started when the run ended, so it has nothing to stop.
    assert_eq!(stops, 2);
    let saved = std::fs::read_to_string(save.path().join("save.json")).unwrap();
    assert!(saved.contains("\"stopped\": 2"), "{saved}");

    common::write(
        dir.path(),
        "assets/scripts/leaver.lua",
        "function stop(e) Log.info('stop') end\n",
    );
    let mut rt = start(dir.path(), Options::default());
    rt.run(1, &mut InputScript::default(), |_| {});
    rt.finish();
    let log: Vec<String> = rt.take_log().into_iter().map(|l| l.message).collect();
    assert_eq!(log, ["assets/scripts/leaver.lua:1: stop"]);
}

#[test]
fn a_run_and_its_replay_trace_the_same_frames() {
    let events = r#"[
        {"frame": 2, "type": "pointer", "phase": "press", "x": 40, "y": 1},
        {"frame": 3, "type": "pointer", "phase": "press", "x": 60, "y": 1},
        {"frame": 9, "type": "key", "key": "r", "down": true}
    ]"#;
    let trace = || {
        let mut rt = start(&common::fixture(), Options::default());
        let mut input = InputScript::parse(events).unwrap();
        let mut lines = Vec::new();
        rt.run(12, &mut input, |rt| {
            lines.push(jengine_tool::trace::line(rt))
        });
        lines
    };
    let first = trace();
    assert_eq!(first, trace());
    // The count passed 100 on frame 3, so the script loaded the legacy scene.
    assert!(first[3].contains("\"scene\":\"legacy\""), "{}", first[3]);
}

#[test]
fn saves_persist_between_runs() {
    let save = tempfile::tempdir().unwrap();
    let options = Options {
        save_dir: Some(save.path().to_path_buf()),
        ..Options::default()
    };
    let mut rt = start(&common::fixture(), options);
    rt.run(4, &mut InputScript::default(), |_| {});
    let text = std::fs::read_to_string(save.path().join("save.json")).unwrap();
    let saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["count_at_3"], 3);
}

#[test]
fn a_v1_scene_keeps_the_package_key_inert() {
    let options = Options {
        scene: Some("legacy".into()),
        ..Options::default()
    };
    let mut rt = start(&common::fixture(), options);
    let notices = warnings(&mut rt);
    assert!(
        notices.iter().any(|m| m.contains(
            "key \"counter\" (a component of jengine-counter) is kept as inert custom data"
        )),
        "{notices:?}"
    );
    rt.run(2, &mut InputScript::default(), |_| {});
    assert_eq!(label(&rt), "inert");
    assert!(rt.bags().as_object().unwrap().is_empty());
}

#[test]
fn a_script_sees_no_namespace_for_a_package_the_project_does_not_list() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "project.jengine",
        r#"{"name": "bare", "start_scene": "main", "packages": []}"#,
    );
    common::write(
        dir.path(),
        "assets/scenes/main.scene",
        r#"{"version": 2, "entities": [{"name": "box", "script": "counter.lua"}, {"name": "label", "text": {}}]}"#,
    );
    let mut rt = start(dir.path(), Options::default());
    rt.run(3, &mut InputScript::default(), |_| {});
    let w = warnings(&mut rt);
    assert_eq!(
        w,
        vec!["assets/scripts/counter.lua:6: the counter package is not linked".to_string()]
    );
}

#[test]
fn an_endless_loop_is_stopped_with_file_and_line_and_the_game_goes_on() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "assets/scripts/spin.lua",
        "local n = 0\nfunction update(e, dt)\n  n = n + 1\n  while true do\n    local x = 1\n  end\nend\n",
    );
    common::write(
        dir.path(),
        "assets/scripts/sneaky.lua",
        "function update(e, dt)\n  pcall(function() while true do end end)\n  Counter.add(Entity.find('box'), 1000)\nend\n",
    );
    common::write(
        dir.path(),
        "assets/scenes/main.scene",
        r#"{"version": 2, "entities": [
            {"name": "spin", "script": "spin.lua"},
            {"name": "sneaky", "script": "sneaky.lua"},
            {"name": "box", "counter": {"step": 1}, "script": "counter.lua"},
            {"name": "label", "text": {}}
        ]}"#,
    );
    let mut rt = start(dir.path(), Options::default());
    rt.run(3, &mut InputScript::default(), |_| {});
    let w = warnings(&mut rt);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].starts_with("assets/scripts/spin.lua:"), "{}", w[0]);
    assert!(w[0].contains("stopped"), "{}", w[0]);
    assert!(w[0].contains("the game goes on"), "{}", w[0]);
    // pcall cannot swallow the stop: the add after it never ran.
    assert!(w[1].starts_with("assets/scripts/sneaky.lua:2:"), "{}", w[1]);
    // The counter's own script and system kept running: 1 + 2 from start, plus 3 ticks.
    assert_eq!(count(&rt), 6);
    assert_eq!(label(&rt), "count 5 after 3");
}

#[test]
fn a_wrong_argument_names_command_position_name_and_value_and_changes_nothing() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "assets/scripts/bad.lua",
        "function update(e, dt)\n  local box = Entity.find('box')\n  Counter.add(box, 'lots')\nend\n",
    );
    common::write(
        dir.path(),
        "assets/scenes/main.scene",
        r#"{"version": 2, "entities": [{"name": "box", "counter": {}, "script": "bad.lua"}]}"#,
    );
    let mut rt = start(dir.path(), Options::default());
    rt.run(2, &mut InputScript::default(), |_| {});
    let w = warnings(&mut rt);
    assert_eq!(
        w,
        vec!["assets/scripts/bad.lua:3: Counter.add: argument 2 (n) must be a whole number, got string \"lots\" (in update)".to_string()]
    );
    assert_eq!(count(&rt), 0);
}

#[test]
fn a_failing_command_is_logged_and_leaves_the_world_as_it_was() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "assets/scripts/overflow.lua",
        "function start(e)\n  Counter.add(e, math.maxinteger)\n  Counter.add(e, 1)\n  Counter.add(e, -5)\nend\n",
    );
    common::write(
        dir.path(),
        "assets/scenes/main.scene",
        r#"{"version": 2, "entities": [{"name": "box", "counter": {"count": 0}, "script": "overflow.lua"}]}"#,
    );
    let mut rt = start(dir.path(), Options::default());
    rt.run(1, &mut InputScript::default(), |_| {});
    let w = warnings(&mut rt);
    assert_eq!(w, vec!["Counter.add: the count would overflow".to_string()]);
    // The refused call changed nothing; the calls around it applied in order.
    assert_eq!(count(&rt), i64::MAX - 5);
}

#[test]
fn the_sandbox_has_no_files_processes_or_bytecode() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "assets/scripts/probe.lua",
        r#"function start(e)
  local seen = {}
  for _, name in ipairs({"io", "package", "debug", "dofile", "loadfile", "require"}) do
    if _G[name] ~= nil then seen[#seen + 1] = name end
  end
  if os.execute ~= nil or os.remove ~= nil or os.getenv ~= nil then seen[#seen + 1] = "os" end
  if string.dump ~= nil then seen[#seen + 1] = "string.dump" end
  local ok = load("\27Lua")
  if ok ~= nil then seen[#seen + 1] = "bytecode" end
  if type(os.clock()) ~= "number" then seen[#seen + 1] = "no clock" end
  Log.info("open: " .. table.concat(seen, ","))
end
"#,
    );
    common::write(
        dir.path(),
        "assets/scenes/main.scene",
        r#"{"version": 2, "entities": [{"name": "box", "script": "probe.lua"}]}"#,
    );
    let mut rt = start(dir.path(), Options::default());
    rt.run(1, &mut InputScript::default(), |_| {});
    let log: Vec<String> = rt.take_log().into_iter().map(|l| l.message).collect();
    assert!(log.iter().any(|m| m.ends_with("open: ")), "{log:?}");
}

#[test]
fn a_script_that_allocates_without_end_hits_the_memory_limit() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "assets/scripts/hog.lua",
        "local t = {}\nfunction update(e, dt)\n  for i = 1, 1e7 do t[#t + 1] = string.rep('x', 1000) .. i end\nend\n",
    );
    common::write(
        dir.path(),
        "assets/scenes/main.scene",
        r#"{"version": 2, "entities": [{"name": "box", "script": "hog.lua"}]}"#,
    );
    let options = Options {
        limits: jengine::host::Limits {
            memory: 16 << 20,
            instructions: u64::MAX / 2,
            ..jengine::host::Limits::default()
        },
        ..Options::default()
    };
    let mut rt = start(dir.path(), options);
    rt.run(1, &mut InputScript::default(), |_| {});
    let w = warnings(&mut rt);
    assert!(w.iter().any(|m| m.contains("memory")), "{w:?}");
}

#[test]
fn scene_quit_ends_the_run_after_its_frame() {
    let dir = common::copy_fixture();
    common::write(
        dir.path(),
        "assets/scripts/counter.lua",
        "local n = 0\nfunction update(e) n = n + 1 if n == 3 then Scene.quit() end end\n",
    );
    let mut rt = start(dir.path(), Options::default());
    rt.run(10, &mut InputScript::default(), |_| {});
    assert!(rt.quit_requested());
    assert_eq!(rt.frame(), 3);
}

#[test]
fn music_plays_on_the_fixed_clock_and_a_missing_sound_is_said_once() {
    let dir = common::copy_fixture();
    let audio = dir.path().join("assets/audio");
    std::fs::create_dir_all(&audio).unwrap();
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 48_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(audio.join("tone.wav"), spec).unwrap();
    for i in 0..48_000 * 4 {
        let t = i as f32 / 48_000.0;
        w.write_sample(((t * 440.0 * std::f32::consts::TAU).sin() * 8000.0) as i16)
            .unwrap();
    }
    w.finalize().unwrap();
    common::write(
        dir.path(),
        "assets/scripts/counter.lua",
        "local n = 0\n\
         function start(e) Audio.music('tone.wav', {bpm = 120}) end\n\
         function update(e)\n\
           n = n + 1\n\
           if n == 30 then Audio.play('gone.wav') Audio.play('gone.wav') end\n\
           if n == 60 then local c = Audio.clock() Log.info(string.format('%s %.4f %s', tostring(c.playing), c.position, tostring(c.bpm))) end\n\
           if n == 61 then Audio.pause_music() end\n\
           if n == 90 then local c = Audio.clock() Log.info(string.format('%s %.4f', tostring(c.playing), c.position)) end\n\
         end\n",
    );
    let mut rt = start(dir.path(), Options::default());
    rt.run(90, &mut InputScript::default(), |_| {});
    let lines: Vec<String> = rt.take_log().into_iter().map(|l| l.message).collect();
    let said = |what: &str| lines.iter().filter(|l| l.contains(what)).count();
    // Scripts run before the frame's mixing: by frame 60's update the null device has played
    // 59 steps of 800 samples, 59/60 of a second.
    assert_eq!(said("true 0.9833 120.0"), 1, "{lines:#?}");
    // Paused from frame 61 (after a 5 ms ramp): the clock stands where the music stopped.
    assert_eq!(said("false 1.0050"), 1, "{lines:#?}");
    assert_eq!(said("assets/audio/gone.wav"), 1, "{lines:#?}");
}
