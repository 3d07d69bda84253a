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
        .filter(|l| l.level >= LogLevel::Warn)
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

/// A save the run cannot read (not UTF-8, then too large to read) is kept beside the older
/// `.bad` files, a killed run's temporary file goes, and the game saves again.
#[test]
fn a_save_that_does_not_read_is_kept_and_the_game_saves_again() {
    let save = tempfile::tempdir().unwrap();
    let dir = save.path();
    let options = || Options {
        save_dir: Some(dir.to_path_buf()),
        ..Options::default()
    };
    let run = || {
        let mut rt = start(&common::fixture(), options());
        let said = warnings(&mut rt);
        rt.run(4, &mut InputScript::default(), |_| {});
        let text = std::fs::read_to_string(dir.join("save.json")).unwrap();
        let saved: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(saved["count_at_3"], 3);
        said
    };
    std::fs::write(dir.join("save.json.bad"), "older").unwrap();
    std::fs::write(dir.join("save.json.tmp77"), "half").unwrap();
    let bytes = b"\xff\xfe{\"gen\": 5}";
    std::fs::write(dir.join("save.json"), bytes).unwrap();
    let said = run();
    assert!(
        said.iter()
            .any(|w| w.contains("not UTF-8") && w.contains("save.json.bad.1")),
        "{said:#?}"
    );
    assert_eq!(std::fs::read(dir.join("save.json.bad.1")).unwrap(), bytes);
    assert!(!dir.join("save.json.tmp77").exists());

    let size = 9u64 << 20;
    std::fs::File::create(dir.join("save.json"))
        .and_then(|f| f.set_len(size))
        .unwrap();
    let said = run();
    assert!(
        said.iter()
            .any(|w| w.contains(&format!("it is {size} bytes")) && w.contains("save.json.bad.2")),
        "{said:#?}"
    );
    assert_eq!(
        std::fs::metadata(dir.join("save.json.bad.2"))
            .unwrap()
            .len(),
        size
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("save.json.bad")).unwrap(),
        "older"
    );
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
        vec![
            "assets/scripts/counter.lua:6: the counter package is not linked".to_string(),
            // Without the package its bag's key names nothing, and the log says so once.
            "assets/scripts/counter.lua:21: Entity.get: no component or bag is called \"counter\", so it gives nil".to_string(),
        ]
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
    assert_eq!(
        w,
        vec![
            "assets/scripts/overflow.lua (in start; the call is on line 2, 3 or 4): Counter.add: the count would overflow"
                .to_string()
        ]
    );
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

/// A copy of the fixture whose only entity runs `script` (as `probe.lua`), with a label.
fn probe(script: &str) -> tempfile::TempDir {
    let dir = common::copy_fixture();
    common::write(dir.path(), "assets/scripts/probe.lua", script);
    common::write(
        dir.path(),
        "assets/scenes/main.scene",
        r#"{"version": 2, "entities": [{"name": "probe", "script": "probe.lua"}]}"#,
    );
    dir
}

fn infos(rt: &mut Runtime) -> Vec<String> {
    rt.take_log()
        .into_iter()
        .map(|l| match l.level {
            LogLevel::Info => l.message,
            LogLevel::Warn => format!("warning: {}", l.message),
            LogLevel::Error => format!("error: {}", l.message),
        })
        .collect()
}

fn key(frame: u64, key: &str, down: bool) -> TimedEvent {
    TimedEvent {
        frame,
        event: Event::Key {
            key: key.into(),
            down,
        },
    }
}

fn text(frame: u64, text: &str) -> TimedEvent {
    TimedEvent {
        frame,
        event: Event::Text { text: text.into() },
    }
}

#[test]
fn a_script_gets_text_events_and_the_games_arguments() {
    let dir = probe(
        "function start(e) Log.info('args ' .. #Game.args() .. ' ' .. table.concat(Game.args(), ' ')) end\n\
         function text(e, t) Log.info('text ' .. t) end\n\
         function key(e, name, down) Log.info('key ' .. name) end\n",
    );
    let options = Options {
        args: vec!["--gift".into(), "abc".into()],
        ..Options::default()
    };
    let mut rt = start(dir.path(), options);
    let launch = rt.world.resources.get::<jengine::Launch>().unwrap();
    assert_eq!(launch.args, ["--gift", "abc"]);
    assert_eq!(launch.data_dir, None);
    let mut input = InputScript::from_events(vec![
        text(1, "h"),
        key(1, "i", true),
        text(1, "i"),
        text(2, "miau://pack?d=xyz"),
    ]);
    rt.run(1, &mut input, |_| {});
    assert_eq!(
        rt.world
            .resources
            .get::<jengine::TextInput>()
            .unwrap()
            .events,
        ["h", "i"]
    );
    rt.run(1, &mut input, |_| {});
    assert_eq!(
        rt.world
            .resources
            .get::<jengine::TextInput>()
            .unwrap()
            .events,
        ["miau://pack?d=xyz"]
    );
    assert_eq!(
        infos(&mut rt),
        [
            "assets/scripts/probe.lua:1: args 2 --gift abc",
            "assets/scripts/probe.lua:2: text h",
            "assets/scripts/probe.lua:3: key i",
            "assets/scripts/probe.lua:2: text i",
            "assets/scripts/probe.lua:2: text miau://pack?d=xyz",
        ]
    );
    rt.run(1, &mut input, |_| {});
    assert!(
        rt.world
            .resources
            .get::<jengine::TextInput>()
            .unwrap()
            .events
            .is_empty()
    );
}

#[test]
fn a_copy_then_ctrl_v_pastes_it_back_headless_and_the_replay_does_not_paste_again() {
    let dir = probe(
        "function start(e) Clipboard.copy('miau://gift?d=abc') end\n\
         function text(e, t) Log.info('text ' .. t) end\n\
         function key(e, name, down) Log.info('key ' .. name .. ' ' .. tostring(down)) end\n",
    );
    let events = vec![
        key(2, "ctrl", true),
        key(2, "v", true),
        key(2, "v", false),
        key(2, "ctrl", false),
        key(3, "shift", true),
        key(3, "insert", true),
        key(3, "shift", false),
        key(3, "insert", false),
        key(4, "v", true),
    ];
    let mut rt = start(dir.path(), Options::default());
    assert_eq!(rt.clipboard(), None);
    let mut input = InputScript::from_events(events);
    let mut delivered = Vec::new();
    rt.run(4, &mut input, |rt| {
        delivered.extend(rt.delivered().iter().cloned().map(|event| TimedEvent {
            frame: rt.frame(),
            event,
        }))
    });
    assert_eq!(rt.clipboard(), Some("miau://gift?d=abc"));
    let seen = infos(&mut rt);
    let at = |line: &str| format!("assets/scripts/probe.lua:{line}");
    assert_eq!(
        seen,
        [
            at("3: key ctrl true"),
            at("2: text miau://gift?d=abc"),
            at("3: key ctrl false"),
            at("3: key shift true"),
            at("2: text miau://gift?d=abc"),
            at("3: key shift false"),
            at("3: key v true"),
        ]
    );

    // What reached the scripts, replayed with nothing on the clipboard, is the same session.
    let recorded = serde_json::to_string(&delivered).unwrap();
    assert!(recorded.contains(r#""type":"text","text":"miau://gift?d=abc""#));
    assert!(!recorded.contains(r#""key":"insert""#), "{recorded}");
    let dir = probe(
        "function start(e) end\n\
         function text(e, t) Log.info('text ' .. t) end\n\
         function key(e, name, down) Log.info('key ' .. name .. ' ' .. tostring(down)) end\n",
    );
    let mut replay = start(dir.path(), Options::default());
    replay.run(4, &mut InputScript::parse(&recorded).unwrap(), |_| {});
    assert_eq!(infos(&mut replay), seen);
    assert_eq!(replay.clipboard(), None);
}

#[test]
fn a_paste_with_nothing_copied_types_nothing() {
    let dir = probe("function text(e, t) Log.info('text ' .. t) end\n");
    let mut rt = start(dir.path(), Options::default());
    let mut input = InputScript::from_events(vec![key(1, "ctrl", true), key(1, "v", true)]);
    rt.run(1, &mut input, |_| {});
    assert!(
        rt.delivered()
            == [Event::Key {
                key: "ctrl".into(),
                down: true
            }]
    );
    assert!(infos(&mut rt).is_empty());
}

#[test]
fn hostile_text_is_refused_when_oversized_and_otherwise_arrives_byte_for_byte() {
    let dir = probe(
        "function text(e, t)\n\
           Log.info(#t .. ' ' .. tostring(t:find('\\0', 1, true)) .. ' ' .. t:byte(-1))\n\
         end\n",
    );
    let mut rt = start(dir.path(), Options::default());
    let most = "x".repeat(jengine::MAX_TEXT_INPUT);
    rt.step(&[
        Event::Text {
            text: most.clone() + "y",
        },
        Event::Text {
            text: "nul\0bell\u{7}esc\u{1b}del\u{7f}\r\n".into(),
        },
        Event::Text { text: most },
    ]);
    assert_eq!(rt.delivered().len(), 2);
    assert_eq!(
        infos(&mut rt),
        [
            "warning: a text event of 1048577 bytes is refused; one may be at most 1048576 bytes",
            "assets/scripts/probe.lua:2: 19 4 10",
            "assets/scripts/probe.lua:2: 1048576 nil 120",
        ]
    );
    // A paste of more than the cap is refused the same way.
    let dir = probe(
        "function start(e) Clipboard.copy(string.rep('z', 1024 * 1024)) end\n\
         function text(e, t) Log.info('pasted ' .. #t) end\n",
    );
    let mut rt = start(dir.path(), Options::default());
    let mut input = InputScript::from_events(vec![key(2, "ctrl", true), key(2, "v", true)]);
    rt.run(2, &mut input, |_| {});
    assert_eq!(
        infos(&mut rt),
        ["assets/scripts/probe.lua:2: pasted 1048576"]
    );
}

#[test]
fn ten_thousand_copies_a_frame_hit_the_command_cap_and_change_nothing() {
    let dir = probe(
        "local n = 0\n\
         function update(e)\n\
           n = n + 1\n\
           if n == 1 then Clipboard.copy('kept') end\n\
           if n == 2 then for i = 1, 10001 do Clipboard.copy('flood ' .. i) end end\n\
           if n == 3 then for i = 1, 10000 do Clipboard.copy('last ' .. i) end end\n\
         end\n",
    );
    let mut rt = start(dir.path(), Options::default());
    rt.run(2, &mut InputScript::default(), |_| {});
    assert_eq!(rt.clipboard(), Some("kept"));
    let w = warnings(&mut rt);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("stopped: the callback queued more than 10000 commands"),
        "{}",
        w[0]
    );
    // The stopped update() is switched off for the scene: the third frame copies nothing.
    rt.run(1, &mut InputScript::default(), |_| {});
    assert_eq!(rt.clipboard(), Some("kept"));
}

#[test]
fn the_system_clipboard_falls_back_to_memory_without_a_display() {
    // Only where there is no display (CI, a server): elsewhere this would change the desktop's
    // clipboard, and the window test covers the real one under Xvfb.
    if jengine_tool::window::display_available() {
        return;
    }
    let dir = probe(
        "local n = 0\nfunction update(e) n = n + 1 if n <= 2 then Clipboard.copy('copy ' .. n) end end\n",
    );
    let options = Options {
        system_clipboard: true,
        platform: jengine_tool::desktop::platform(),
        ..Options::default()
    };
    let mut rt = start(dir.path(), options);
    rt.run(3, &mut InputScript::default(), |_| {});
    assert_eq!(rt.clipboard(), Some("copy 2"));
    // Said once, though two copies were made; the run went on.
    assert_eq!(
        warnings(&mut rt),
        ["no system clipboard here (no display): Clipboard.copy keeps its text in memory"]
    );
    assert_eq!(rt.frame(), 3);
}

#[test]
fn c_calls_that_never_returned_are_stopped_and_the_counter_runs_on() {
    let dir = common::copy_fixture();
    let attacks = [
        ("rep", "string.rep('', 1 << 62)"),
        ("move", "table.move({}, 1, 1 << 40, 1, {})"),
        (
            "insert",
            "table.insert(setmetatable({}, {__len = function() return 1 << 40 end}), 1, 'x')",
        ),
        ("find", "string.find(string.rep('a', 30000), '.-.-.-b')"),
        (
            "leak",
            "local _, S = pairs(string) S.format = function() return 'spoiled' end",
        ),
    ];
    let mut entities = String::new();
    for (name, code) in attacks {
        common::write(
            dir.path(),
            &format!("assets/scripts/{name}.lua"),
            &format!("function update(e, dt)\n  {code}\nend\n"),
        );
        entities.push_str(&format!(
            r#"{{"name": "{name}", "script": "{name}.lua"}}, "#
        ));
    }
    // The witness reads the shared functions every frame: one changed would break it.
    common::write(
        dir.path(),
        "assets/scripts/witness.lua",
        "function update(e, dt)\n  assert(string.format('%d', 7) == '7' and Counter.add and Entity.get)\nend\n",
    );
    common::write(
        dir.path(),
        "assets/scenes/main.scene",
        &format!(
            r#"{{"version": 2, "entities": [{entities}
            {{"name": "witness", "script": "witness.lua"}},
            {{"name": "box", "counter": {{"step": 1}}, "script": "counter.lua"}},
            {{"name": "label", "text": {{}}}}
        ]}}"#
        ),
    );
    let mut rt = start(dir.path(), Options::default());
    rt.run(90, &mut InputScript::default(), |_| {});
    let w = warnings(&mut rt);
    for (name, _) in &attacks[..4] {
        let said: Vec<&String> = w
            .iter()
            .filter(|l| l.starts_with(&format!("assets/scripts/{name}.lua:2: stopped")))
            .collect();
        assert_eq!(said.len(), 1, "{name}: {w:#?}");
    }
    // The leak is an error at its line every frame (said once), and changes nothing.
    assert!(
        w.iter()
            .any(|l| l.starts_with("assets/scripts/leak.lua:2:")
                && l.contains("string is read-only")),
        "{w:#?}"
    );
    assert!(w.iter().all(|l| !l.contains("witness")), "{w:#?}");
    // The counter's script and system ran every frame: 1 + 2 from start, plus 90 ticks.
    assert_eq!(count(&rt), 93);
}
