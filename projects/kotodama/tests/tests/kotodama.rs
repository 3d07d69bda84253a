//! Kotodama's puzzle and battle scenes played headless through their Lua scripts: the player's
//! moves go in as pointer events, exactly as a mouse or a finger would make them.

use std::path::{Path, PathBuf};

use jengine_kotoba::bot::{best, legal_moves};
use jengine_kotoba::{Content, Dict};
use jengine_testkit::{Event, Game, Options, Phase, Runtime};
use kotodama_tests::{kotoba, look, open_at, packages, play_best, project, tap};

fn start(dir: &Path, scene: &str, seed: u64) -> Game {
    let options = Options {
        seed,
        scene: Some(scene.into()),
        ..Options::default()
    };
    open_at(dir, options)
}

#[test]
fn stage_one_is_cleared_by_pointer() {
    let mut game = start(&project(), "puzzle", 1);
    game.step(&[]);
    assert_eq!(kotoba(&game)["stage"], "s01");
    for _ in 0..200 {
        if kotoba(&game)["phase"] != "playing" {
            break;
        }
        if !play_best(&mut game) {
            // Nothing fits: the swap button on the side panel.
            tap(&mut game, [6.1, -0.6]);
        }
    }
    let b = kotoba(&game);
    assert_eq!(b["phase"], "cleared", "{b:#}");
    assert!(b["stars"].as_u64().unwrap() >= 1, "{b:#}");
    assert!(!b["made"].as_array().unwrap().is_empty());
    assert!(game.warnings().is_empty());
    // The script saved the clear.
    game.step(&[]);
}

#[test]
fn a_weak_rival_is_beaten_and_a_strong_one_wins() {
    let dir = tempfile::tempdir().unwrap();
    copy_project(dir.path());
    let mut game = start(dir.path(), "battle", 5);
    // The countdown: three seconds.
    game.settle(200);
    assert_eq!(kotoba(&game)["phase"], "fight");
    for _ in 0..2000 {
        if kotoba(&game)["phase"] == "over" {
            break;
        }
        if !play_best(&mut game) {
            game.step(&[]);
        }
    }
    let b = kotoba(&game);
    assert_eq!(b["winner"], 1, "{b:#}");
    assert_eq!(b["you"], 1);

    // Against the strongest rival, a player who does nothing loses.
    std::fs::write(
        dir.path().join("assets/scripts/pick.lua"),
        "Save.set('rival', 'r09')\n",
    )
    .unwrap();
    let mut game = start_with_rival(dir.path(), "r09");
    for _ in 0..(60 * 100) {
        game.step(&[]);
        if kotoba(&game)["phase"] == "over" {
            break;
        }
    }
    let b = kotoba(&game);
    assert_eq!(b["phase"], "over", "{b:#}");
    assert_eq!(b["winner"], 2, "{b:#}");
}

fn start_with_rival(dir: &Path, rival: &str) -> Game {
    let save = dir.join("save");
    std::fs::create_dir_all(&save).unwrap();
    std::fs::write(
        save.join("save.json"),
        format!("{{\"rival\": {}}}", serde_json::json!(rival)),
    )
    .unwrap();
    let options = Options {
        seed: 9,
        scene: Some("battle".into()),
        save_dir: Some(save),
        ..Options::default()
    };
    open_at(dir, options)
}

fn copy_project(to: &Path) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            let p = entry.path();
            let target = to.join(entry.file_name());
            if p.is_dir() {
                if entry.file_name() != "tools" {
                    copy(&p, &target);
                }
            } else {
                std::fs::copy(&p, &target).unwrap();
            }
        }
    }
    copy(&project(), to);
    let packages = project().join("../../packages").canonicalize().unwrap();
    let file = to.join("project.jengine");
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("../../packages", packages.to_str().unwrap());
    std::fs::write(file, text).unwrap();
}

/// Every command, called badly from a script: each is refused at the call with the script's
/// file and line, and nothing at the table changes.
#[test]
fn every_command_refuses_bad_arguments_where_the_script_made_them() {
    let dir = tempfile::tempdir().unwrap();
    copy_project(dir.path());
    let calls = [
        "Kotoba.puzzle(e, 3)",
        "Kotoba.battle(e)",
        "Kotoba.demo('e')",
        "Kotoba.stop(nil)",
        "Kotoba.pause(e, 'yes')",
        "Kotoba.press(e, 'x', 0)",
        "Kotoba.drag(e, 0)",
        "Kotoba.release(e, 0, {})",
        "Kotoba.select(e, 1.5)",
        "Kotoba.turn(e, 1)",
        "Kotoba.cursor(e, 2^60, 0)",
        "Kotoba.place(e, true)",
        "Kotoba.swap(e, 0)",
        "Kotoba.hint(e, 0)",
        "Kotoba.ripple(e, 0, 0)",
        "Kotoba.surge(e, 'big')",
        "Kotoba.swell(e)",
        // In kind but out of the declared range, or breaking the rule over the arguments.
        "Kotoba.select(e, 0)",
        "Kotoba.select(e, math.mininteger)",
        "Kotoba.ripple(e, 0, 0, 1, 0.5)",
        "Kotoba.ripple(e, 0, 0, 1, 2, 0, 0)",
        "Kotoba.surge(e, 1, nil, 0, 0)",
    ];
    let mut script = String::from(
        "function start(e)\n  Kotoba.puzzle(e, 's01')\nend\nfunction update(e)\n  if done then return end\n  done = true\n",
    );
    for call in calls {
        script.push_str(&format!(
            "  Log.info(select(2, pcall(function() {call} end)))\n"
        ));
    }
    script.push_str("end\n");
    std::fs::write(dir.path().join("assets/scripts/puzzle.lua"), script).unwrap();
    let mut game = start(dir.path(), "puzzle", 1);
    game.step(&[]);
    let before = kotoba(&game);
    game.step(&[]);
    let lines: Vec<String> = game.take_log().into_iter().map(|l| l.message).collect();
    assert_eq!(lines.len(), calls.len(), "{lines:#?}");
    for (line, call) in lines.iter().zip(calls) {
        let name = call.split('(').next().unwrap();
        assert!(
            line.contains("assets/scripts/puzzle.lua:")
                && (line.contains(&format!("{name}: argument"))
                    || line.contains(&format!("{name}: the arguments must be such that"))),
            "{call}: {line}"
        );
    }
    let after = kotoba(&game);
    for key in [
        "stage", "hand", "selected", "swaps", "paused", "mode", "made",
    ] {
        assert_eq!(before[key], after[key], "{key} changed");
    }
    assert_eq!(after["cursor"], serde_json::Value::Null);
}

/// Every command, called well: each does what it says, seen in the bag.
#[test]
fn every_command_does_what_it_says() {
    let dir = tempfile::tempdir().unwrap();
    copy_project(dir.path());
    let script = r#"
local step = 0
local log = {}
local function say(s) Log.info(s) end
function update(e)
  step = step + 1
  local b = Entity.get(e, "kotoba")
  if step == 1 then Kotoba.puzzle(e, "s02")
  elseif step == 2 then say("puzzle " .. b.stage .. " " .. b.mode); Kotoba.select(e, 2)
  elseif step == 3 then say("select " .. b.selected); Kotoba.turn(e)
  elseif step == 4 then say("turn " .. #b.events); Kotoba.swap(e)
  elseif step == 5 then say("swap " .. b.swaps); Kotoba.cursor(e, 0, 0)
  elseif step == 6 then say("cursor " .. tostring(b.cursor ~= nil)); Kotoba.cursor(e, 1, 0)
  elseif step == 7 then say("moved " .. b.cursor[1]); Kotoba.hint(e)
  elseif step == 8 then say("hint " .. tostring(b.hint ~= nil) .. " " .. b.selected); Kotoba.place(e)
  elseif step == 9 then Kotoba.pause(e, true)
  elseif step == 10 then say("pause " .. tostring(b.paused)); Kotoba.pause(e, false); Kotoba.battle(e, "r02")
  elseif step == 11 then say("battle " .. b.rival .. " " .. b.phase .. " " .. #b.fighters); Kotoba.demo(e)
  elseif step == 12 then say("demo " .. tostring(b.demo)); Kotoba.stop(e)
  elseif step == 13 then say("stop " .. b.mode)
    local sea = Entity.find("sea")
    Kotoba.ripple(sea, 0, 0, 1)
    Kotoba.ripple(sea, 1, 1, -0.5, 0.2, 0.4, 1)
    Kotoba.surge(sea, 0.8)
    Kotoba.swell(sea, 9)
  elseif step == 14 then say(string.format("sea %g", Entity.get(Entity.find("sea"), "kotoba_waves").swell))
  end
end
"#;
    std::fs::write(dir.path().join("assets/scripts/puzzle.lua"), script).unwrap();
    let mut game = start(dir.path(), "puzzle", 1);
    game.settle(16);
    let lines: Vec<String> = game
        .take_log()
        .into_iter()
        .map(|l| {
            l.message
                .split_once(": ")
                .map_or(l.message.clone(), |(_, m)| m.to_string())
        })
        .collect();
    let want = [
        "puzzle s02 puzzle",
        "select 2",
        "swap 1",
        "cursor true",
        "demo true",
        "stop none",
        "sea 4",
    ];
    for w in want {
        assert!(lines.iter().any(|l| l == w), "{w:?} not in {lines:#?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("turn ")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("moved ")), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.starts_with("hint true")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l == "pause true"), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l == "battle r02 countdown 2"),
        "{lines:#?}"
    );
}

#[test]
fn the_scenes_look_as_they_should() {
    // A puzzle a few words in, the chosen tile glowing.
    let mut game = start(&project(), "puzzle", 1);
    game.step(&[]);
    for _ in 0..3 {
        play_best(&mut game);
    }
    let (_, layout) = look(&game);
    tap(&mut game, layout.hand[1]);
    game.settle(20);
    game.golden("puzzle_mid_stage");

    // Paused: every kana hidden.
    game.step(&[Event::Key {
        key: "p".into(),
        down: true,
    }]);
    game.step(&[]);
    game.golden("puzzle_paused");

    // A battle with both hands, a few words in.
    let mut game = start(&project(), "battle", 3);
    game.settle(200);
    for _ in 0..4 {
        play_best(&mut game);
        game.settle(30);
    }
    game.golden("battle_both_hands");
}

#[test]
fn kotodama_checks_clean() {
    let report = jengine_tool::check::check(&project(), &packages());
    assert!(report.ok(), "{:#?}", report.problems);
    let count = |dir: &str, ext: &str| {
        walk(&project().join(dir))
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .count()
    };
    assert_eq!(
        report.counts,
        (
            count("assets/scenes", "scene"),
            count("assets/scripts", "lua"),
            count("data", "json")
        )
    );
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_tile_dragged_from_the_hand_goes_down_where_it_is_let_go() {
    let mut game = start(&project(), "puzzle", 1);
    game.step(&[]);
    let (session, layout) = look(&game);
    let stats = &game.world.resources.get::<Content>().unwrap().stats;
    let m = best(&legal_moves(
        session.board().unwrap(),
        Dict::japanese(),
        stats,
        session.hand(),
    ))
    .unwrap();
    let from = layout.hand[m.slot];
    let to = layout.cell_centre(m.pos);
    let pointer = |phase, at: [f32; 2]| Event::Pointer {
        phase,
        x: at[0] as f64,
        y: at[1] as f64,
    };
    game.step(&[pointer(Phase::Press, from)]);
    let middle = [(from[0] + to[0]) / 2.0, (from[1] + to[1]) / 2.0];
    game.step(&[pointer(Phase::Drag, middle)]);
    let (carried, _) = look(&game);
    assert!(carried.carry.is_some_and(|c| c.moved && c.at == middle));
    game.step(&[pointer(Phase::Drag, to)]);
    game.step(&[pointer(Phase::Release, to)]);
    let (after, _) = look(&game);
    assert!(
        after.board().unwrap().kana(m.pos).is_some(),
        "nothing went down"
    );
    assert!(after.carry.is_none());
    assert!(!kotoba(&game)["made"].as_array().unwrap().is_empty());
}

#[test]
fn a_bad_stage_row_stops_the_project_with_its_file_row_and_field() {
    let dir = tempfile::tempdir().unwrap();
    copy_project(dir.path());
    let path = dir.path().join("data/kotoba_stages.json");
    let mut rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    rows[2]["time"] = serde_json::json!("soon");
    std::fs::write(&path, rows.to_string()).unwrap();
    let options = Options {
        scene: Some("puzzle".into()),
        ..Options::default()
    };
    let problems = match Runtime::new(dir.path(), &packages(), options) {
        Ok(_) => panic!("a bad stage row loaded"),
        Err(problems) => problems,
    };
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].starts_with("data/kotoba_stages.json: row 3 (\"s03\"): time:"),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].ends_with("(table of jengine-kotoba)"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_corrupt_save_is_reported_kept_aside_and_the_game_goes_on() {
    let save = tempfile::tempdir().unwrap();
    std::fs::write(save.path().join("save.json"), "{\"stages\": {oops").unwrap();
    let options = Options {
        scene: Some("puzzle".into()),
        save_dir: Some(save.path().to_path_buf()),
        ..Options::default()
    };
    let mut game = kotodama_tests::open(options);
    let said = game.warnings();
    assert!(
        said.iter()
            .any(|w| w.contains("not valid JSON") && w.contains("save.json.bad")),
        "{said:#?}"
    );
    assert_eq!(
        std::fs::read_to_string(save.path().join("save.json.bad")).unwrap(),
        "{\"stages\": {oops"
    );
    game.step(&[]);
    assert_eq!(kotoba(&game)["active"], true);
}

/// Each scene has its music, its tempo from the game's table (which must agree with what the
/// sound tool wrote), and the sea hears it: the music clock plays with that tempo.
#[test]
fn the_music_plays_with_its_tempo() {
    let table: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project().join("data/kotodama_music.json")).unwrap(),
    )
    .unwrap();
    let tracks: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project().join("assets/audio/tracks.json")).unwrap(),
    )
    .unwrap();
    let pairs = |v: &serde_json::Value| -> Vec<(String, f64)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["name"].as_str().unwrap().to_string(),
                    r["bpm"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(pairs(&table), pairs(&tracks));
    let mut game = start(&project(), "battle", 1);
    game.settle(30);
    let clock = *game.world.resources.get::<jengine::MusicClock>().unwrap();
    assert!(clock.playing);
    assert_eq!(clock.bpm, Some(126.0));
    assert!(clock.position > 0.3, "{clock:?}");
    assert!(game.warnings().is_empty());
}

/// A word made is heard kana by kana: one pluck each, a few frames apart, each higher than the
/// one before, starting higher for a longer word.
#[test]
fn a_word_made_is_plucked_kana_by_kana() {
    let mut game = start(&project(), "puzzle", 1);
    game.step(&[]);
    let mut words = Vec::new();
    for _ in 0..40 {
        let before = kotoba(&game)["made"].as_array().unwrap().len();
        if !play_best(&mut game) {
            break;
        }
        let made = kotoba(&game)["made"].as_array().unwrap().clone();
        if made.len() > before {
            words = made[before..].to_vec();
            break;
        }
    }
    assert!(!words.is_empty(), "no word made");
    game.settle(60);
    let plucks: Vec<_> = game.heard().filter(|h| h.name == "pluck.wav").collect();
    let kana: usize = words
        .iter()
        .map(|w| w["reading"].as_str().unwrap().chars().count().min(8))
        .sum();
    assert_eq!(plucks.len(), kana, "{words:?}");
    let first = &words[0];
    let len = first["reading"].as_str().unwrap().chars().count().min(8);
    let steps = [
        0.0f32, 2.0, 5.0, 7.0, 9.0, 12.0, 14.0, 17.0, 19.0, 21.0, 24.0,
    ];
    for (i, p) in plucks.iter().take(len).enumerate() {
        let step = steps[(len.saturating_sub(2) + i).min(steps.len() - 1)];
        assert!((p.pitch - 2f32.powf(step / 12.0)).abs() < 1e-4, "{p:?}");
        if i > 0 {
            assert_eq!(p.frame - plucks[i - 1].frame, 4);
        }
    }
}
