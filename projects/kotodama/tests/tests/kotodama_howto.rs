//! Kotodama's how-to-play lesson, played headless from start to end: once by pointer and once by
//! keyboard. Each playthrough is worked out from the table's layout on a live run, kept as an
//! input file under `projects/kotodama/tests/inputs/`, and then replayed from that file on a
//! fresh run, watching the lesson's panel move through its five steps to the end.

use jengine_kotoba::bot::{LegalMove, legal_moves};
use jengine_kotoba::content::{STAGES_TABLE, stages_from_str};
use jengine_kotoba::{Board, Cell, Dict, Dir, Kana, Pos, Puzzle, TileStats};
use jengine_testkit::{Event, Game, InputScript, Options, Phase, TimedEvent, inputs};
use kotodama_tests::{input_file, kotoba, look, open, project};

fn start() -> Game {
    let options = Options {
        seed: 1,
        scene: Some("howto".into()),
        ..Options::default()
    };
    open(options)
}

fn kana(c: char) -> Kana {
    Kana::from_char(c).unwrap()
}

/// Where the lesson stands, read off its panel: `1`..`5`, or `done` once "Well done!" shows.
fn lesson_step(game: &Game) -> String {
    if game.text("step_title") == "Well done!" {
        return "done".into();
    }
    let heading = game.text("heading");
    heading
        .split_whitespace()
        .rev()
        .nth(2)
        .unwrap_or_else(|| panic!("heading {heading:?} has no step"))
        .to_string()
}

/// The cells the lesson's text points at (from 0): し under う, and the gap in さか_つ.
const UNDER_U: Pos = Pos { x: 2, y: 4 };
const GAP: Pos = Pos { x: 3, y: 1 };

/// A live run that writes down every event it is fed, on the frame it was fed.
struct Recorder {
    game: Game,
    events: Vec<TimedEvent>,
}

impl Recorder {
    fn send(&mut self, events: Vec<Event>) {
        let frame = self.game.rt.frame() + 1;
        self.events.extend(events.iter().map(|e| TimedEvent {
            frame,
            event: e.clone(),
        }));
        self.game.step(&events);
    }

    fn wait(&mut self, frames: u32) {
        for _ in 0..frames {
            self.send(Vec::new());
        }
    }

    /// A pointer event at `at`, to a thousandth of a unit (well inside any tile or cell).
    fn pointer(phase: Phase, at: [f32; 2]) -> Event {
        let round = |v: f32| (v as f64 * 1000.0).round() / 1000.0;
        Event::Pointer {
            phase,
            x: round(at[0]),
            y: round(at[1]),
        }
    }

    /// The pointer comes to rest on `at`, goes down and comes up.
    fn tap(&mut self, at: [f32; 2]) {
        self.send(vec![Self::pointer(Phase::Hover, at)]);
        self.wait(4);
        self.send(vec![Self::pointer(Phase::Press, at)]);
        self.wait(3);
        self.send(vec![Self::pointer(Phase::Release, at)]);
        self.wait(12);
    }

    fn key(&mut self, name: &str) {
        self.send(vec![Event::Key {
            key: name.into(),
            down: true,
        }]);
        self.wait(3);
        self.send(vec![Event::Key {
            key: name.into(),
            down: false,
        }]);
        self.wait(8);
    }

    /// Chooses the hand tile showing `k` by its number key.
    fn choose_by_key(&mut self, k: char) {
        let (session, _) = look(&self.game);
        let slot = session.hand().iter().position(|&h| h == kana(k)).unwrap();
        self.key(&(slot + 1).to_string());
    }

    /// Moves the keyboard cursor onto `to` with the arrows (the first arrow only shows it).
    fn cursor_to(&mut self, to: Pos) {
        if look(&self.game).0.cursor.is_none() {
            self.key("down");
        }
        let at = look(&self.game).0.cursor.unwrap();
        let (dx, dy) = (to.x as i64 - at.x as i64, to.y as i64 - at.y as i64);
        let across = if dx < 0 { "left" } else { "right" };
        let down = if dy < 0 { "up" } else { "down" };
        for _ in 0..dx.abs() {
            self.key(across);
        }
        for _ in 0..dy.abs() {
            self.key(down);
        }
        assert_eq!(look(&self.game).0.cursor, Some(to));
    }

    fn tap_tile(&mut self, k: char) {
        let (session, layout) = look(&self.game);
        let slot = session.hand().iter().position(|&h| h == kana(k)).unwrap();
        self.tap(layout.hand[slot]);
    }

    fn tap_cell(&mut self, pos: Pos) {
        let (_, layout) = look(&self.game);
        self.tap(layout.cell_centre(pos));
    }

    fn expect(&self, step: &str) {
        assert_eq!(lesson_step(&self.game), step, "{:#}", kotoba(&self.game));
    }
}

/// The whole lesson by pointer: tap tiles and cells, tap a chosen tile again, the panel's buttons.
fn by_pointer() -> Vec<TimedEvent> {
    let mut r = Recorder {
        game: start(),
        events: Vec::new(),
    };
    r.wait(30);
    r.expect("1");
    r.tap_tile('し');
    r.tap_cell(UNDER_U);
    r.expect("2");
    r.tap_tile('か');
    r.tap_tile('か');
    r.expect("3");
    r.tap_tile('な');
    r.tap_cell(GAP);
    r.expect("4");
    let (_, layout) = look(&r.game);
    r.tap(layout.hand[0]);
    let swap = r.game.centre("swap");
    r.tap(swap);
    r.expect("5");
    let hint = r.game.centre("hint");
    r.tap(hint);
    r.expect("done");
    let done = r.game.centre("done");
    r.tap(done);
    r.events
}

/// The whole lesson by keyboard: number keys, arrows, Enter, T, S and H.
fn by_keys() -> Vec<TimedEvent> {
    let mut r = Recorder {
        game: start(),
        events: Vec::new(),
    };
    r.wait(30);
    r.expect("1");
    r.choose_by_key('し');
    r.cursor_to(UNDER_U);
    r.key("enter");
    r.expect("2");
    r.choose_by_key('か');
    r.key("t");
    r.expect("3");
    r.choose_by_key('な');
    r.cursor_to(GAP);
    r.key("enter");
    r.expect("4");
    r.key("1");
    r.key("s");
    r.expect("5");
    r.key("h");
    r.expect("done");
    r.key("enter");
    r.events
}

/// Checks the input file `name` still holds `events` (`JENGINE_BLESS=1` writes it again after
/// the lesson's layout changed) and returns its text.
fn keep(name: &str, events: &[TimedEvent]) -> String {
    // One event a line, as the other input files are written.
    let lines: Vec<String> = events
        .iter()
        .map(|e| format!("  {}", serde_json::to_string(e).unwrap()))
        .collect();
    let text = format!("[\n{}\n]\n", lines.join(",\n"));
    inputs::assert_kept(&input_file(name), &text);
    text
}

/// Replays an input file on a fresh run and checks the lesson went through every step in
/// order, each on the event it asks for, and ended on the title.
fn replay(file: &str) {
    let mut input = InputScript::parse(file).unwrap();
    let mut game = start();
    let mut steps: Vec<String> = Vec::new();
    let mut kinds: Vec<String> = Vec::new();
    let mut hinted = false;
    let mut why = Vec::new();
    let mut scene = "howto".to_string();
    for _ in 0..3000 {
        if game.quit_requested() {
            break;
        }
        game.run(1, &mut input, |_| {});
        if game.scene() != "howto" {
            scene = game.scene().to_string();
            continue;
        }
        let b = kotoba(&game);
        for e in b["events"].as_array().unwrap() {
            kinds.push(e["kind"].as_str().unwrap().to_string());
        }
        hinted |= !b["hint"].is_null();
        let now = lesson_step(&game);
        if steps.is_empty() {
            kinds.clear();
            steps.push(now);
        } else if steps.last() != Some(&now) {
            why.push((now.clone(), std::mem::take(&mut kinds), hinted));
            steps.push(now);
        }
    }
    assert_eq!(steps, ["1", "2", "3", "4", "5", "done"], "{why:#?}");
    // Each step moved on when its own thing happened.
    let wanted = ["placed", "turned", "placed", "swapped"];
    for ((step, seen, _), kind) in why.iter().zip(wanted) {
        assert!(
            seen.iter().any(|k| k == kind),
            "step {step} came without a {kind} event: {seen:?}"
        );
    }
    let (_, before_end, hinted_at_end) = &why[4];
    assert!(
        !before_end.iter().any(|k| k == "placed" || k == "swapped"),
        "{before_end:?}"
    );
    assert!(*hinted_at_end, "the end came before a hint was lit");
    assert_eq!(scene, "title", "the lesson's last button goes to the title");
    game.no_warnings();
}

#[test]
fn the_lesson_is_played_to_the_end_by_pointer_from_its_input_file() {
    let file = keep("howto_pointer.json", &by_pointer());
    replay(&file);
}

#[test]
fn the_lesson_is_played_to_the_end_by_keys_from_its_input_file() {
    let file = keep("howto_keys.json", &by_keys());
    replay(&file);
}

/// The lesson's stage deals the hand its text names, and the moves the text suggests read as
/// the text says they do.
#[test]
fn the_lesson_stage_deals_what_its_text_names() {
    let text = std::fs::read_to_string(project().join("data/kotoba_stages.json")).unwrap();
    let stages = stages_from_str(STAGES_TABLE, &text).unwrap_or_else(|e| panic!("{e}"));
    let lesson = stages.iter().find(|s| s.id == "lesson").unwrap();
    assert!(lesson.title.starts_with("lesson"), "{}", lesson.title);
    assert!(lesson.time >= 999.0, "the lesson must not run out of time");
    let dict = Dict::japanese();
    let stats = TileStats::from_dict(dict);
    let puzzle = Puzzle::new(lesson, &stats);
    let hand: String = puzzle.hand().iter().map(|k| k.to_char()).collect();
    assert_eq!(hand, "しかはない");
    // More tiles than the lesson's two placements, so the stock lasts through swap and hint.
    assert!(puzzle.tiles_left() >= 10, "{}", puzzle.tiles_left());

    let readings = |board: &Board, pos: Pos, k: char| -> Vec<String> {
        board
            .words_with(dict, pos, kana(k))
            .iter()
            .map(|w| dict.entry(w.entry).unwrap().reading_text())
            .collect()
    };
    let board = &lesson.board;
    assert_eq!(board.kana(Pos::new(2, 3)), Some(kana('う')));
    assert_eq!(readings(board, UNDER_U, 'し'), ["うし"]);
    assert_eq!(board.kana(Pos::new(1, 1)), Some(kana('さ')));
    assert_eq!(readings(board, GAP, 'な'), ["さかな", "なつ"]);
    // Every tile in the hand but な turns.
    for k in puzzle.hand() {
        assert_eq!(k.forms().len() > 1, k.to_char() != 'な', "{}", k.to_char());
    }
}

#[test]
fn escape_goes_back_to_the_title() {
    let mut game = start();
    game.step(&[]);
    game.step(&[Event::Key {
        key: "escape".into(),
        down: true,
    }]);
    assert_eq!(game.scene(), "title");
}

/// What the player gets wrong is explained on the panel, and the lesson stays on its step:
/// a turn with nothing chosen, a tile with one form, a refused move, a swap and a hint asked for
/// before their steps.
#[test]
fn a_wrong_move_is_explained_and_the_step_waits() {
    let mut r = Recorder {
        game: start(),
        events: Vec::new(),
    };
    r.wait(2);
    r.key("t");
    assert_eq!(
        r.game.text("note"),
        "Choose a tile first (1-5, or tap it), then turn it."
    );
    r.tap_tile('な');
    r.key("t");
    assert_eq!(
        r.game.text("note"),
        "な has only one form. Choose another tile."
    );
    // な on an empty corner: nothing beside it.
    r.tap_cell(Pos::new(6, 4));
    assert_eq!(
        r.game.text("note"),
        "A tile goes beside a kana already on the board."
    );
    r.key("s");
    assert_eq!(
        r.game.text("note"),
        "Swapping comes at step 4. First: the step above."
    );
    r.key("h");
    assert_eq!(
        r.game.text("note"),
        "The hint comes at step 5. First: the step above."
    );
    r.expect("1");
    let b = kotoba(&r.game);
    assert_eq!(b["swaps"], 0);
    assert!(b["hint"].is_null());
    assert_eq!(b["hand"], serde_json::json!(["し", "か", "は", "な", "い"]));
    // The move the rules refused is an event, not a warning; the lesson itself called
    // nothing that could not apply.
    r.game.no_warnings();
}

/// Whether every word `m` makes spans the whole run of kana it lies in.
fn fills_its_runs(board: &Board, m: &LegalMove) -> bool {
    let dict = Dict::japanese();
    let mut after = board.clone();
    after.set(m.pos, Cell::Kana(m.face));
    let filled =
        |x: i64, y: i64| x >= 0 && y >= 0 && after.kana(Pos::new(x as usize, y as usize)).is_some();
    after.words_at(dict, m.pos).iter().all(|w| {
        let (dx, dy) = match w.dir {
            Dir::Across => (1, 0),
            Dir::Down => (0, 1),
        };
        let (mut x, mut y) = (m.pos.x as i64, m.pos.y as i64);
        while filled(x - dx, y - dy) {
            (x, y) = (x - dx, y - dy);
        }
        let mut run = 0;
        while filled(x, y) {
            run += 1;
            (x, y) = (x + dx, y + dy);
        }
        w.len == run
    })
}

/// A good move for the hand that `fits`, played by pointer.
fn play_one(r: &mut Recorder, fits: impl Fn(&Board, &LegalMove) -> bool) {
    let (session, layout) = look(&r.game);
    let board = session.board().unwrap();
    let stats = TileStats::from_dict(Dict::japanese());
    let moves = legal_moves(board, Dict::japanese(), &stats, session.hand());
    let m = moves.iter().find(|m| fits(board, m)).unwrap();
    r.tap(layout.hand[m.slot]);
    r.tap(layout.cell_centre(m.pos));
}

/// Steps 1 and 2 the way the text suggests.
fn first_two_steps(r: &mut Recorder) {
    r.wait(2);
    r.tap_tile('し');
    r.tap_cell(UNDER_U);
    r.tap_tile('か');
    r.tap_tile('か');
    r.expect("3");
}

/// At step 3, a word that fills its whole run is told apart and the step waits; a second
/// placement is taken anyway, so no one is held there.
#[test]
fn a_word_that_fills_its_run_is_told_apart_at_step_three() {
    let mut r = Recorder {
        game: start(),
        events: Vec::new(),
    };
    first_two_steps(&mut r);
    // ま under み: しま across, the whole run.
    r.tap_tile('ま');
    r.tap_cell(Pos::new(3, 4));
    let made = kotoba(&r.game)["made"].clone();
    assert_eq!(made.as_array().unwrap().last().unwrap()["reading"], "しま");
    assert!(
        r.game
            .text("note")
            .ends_with("That word fills its whole run.\nNow try a gap, like さか_つ."),
        "{}",
        r.game.text("note")
    );
    r.expect("3");
    // Another word along its whole run: taken all the same.
    play_one(&mut r, |b, m| m.pos != GAP && fills_its_runs(b, m));
    r.expect("4");
}

/// A tile that read inside a longer run before step 3 is remembered: step 3 says so and takes
/// the next placement.
#[test]
fn a_word_read_inside_a_run_early_counts_for_step_three() {
    let mut r = Recorder {
        game: start(),
        events: Vec::new(),
    };
    r.wait(2);
    r.tap_tile('な');
    r.tap_cell(GAP);
    r.expect("2");
    r.tap_tile('か');
    r.tap_tile('か');
    r.expect("3");
    let body = r.game.text("body");
    assert!(
        body.contains(
            "Your な did just that: さかな and なつ\nread in さかなつ, which is no word."
        ),
        "{body}"
    );
    play_one(&mut r, fills_its_runs);
    r.expect("4");
}

/// Clearing the lesson's board before the lesson ends deals it again, and the lesson goes on
/// from the same step.
#[test]
fn a_board_cleared_before_the_end_is_dealt_again() {
    let mut r = Recorder {
        game: start(),
        events: Vec::new(),
    };
    first_two_steps(&mut r);
    r.tap_tile('な');
    r.tap_cell(GAP);
    r.expect("4");
    let mut cleared = false;
    for _ in 0..40 {
        if kotoba(&r.game)["tiles_left"] == 1 {
            // The last tile: watch the frame it goes down on.
            let (session, layout) = look(&r.game);
            let stats = TileStats::from_dict(Dict::japanese());
            let board = session.board().unwrap();
            let Some(m) = legal_moves(board, Dict::japanese(), &stats, session.hand())
                .first()
                .copied()
            else {
                break;
            };
            r.tap(layout.hand[m.slot]);
            let at = layout.cell_centre(m.pos);
            r.send(vec![Recorder::pointer(Phase::Press, at)]);
            assert_eq!(kotoba(&r.game)["phase"], "cleared");
            r.wait(2);
            cleared = true;
            break;
        }
        let (session, _) = look(&r.game);
        let stats = TileStats::from_dict(Dict::japanese());
        if legal_moves(
            session.board().unwrap(),
            Dict::japanese(),
            &stats,
            session.hand(),
        )
        .is_empty()
        {
            // Nothing fits: a swap (which is step 4's lesson anyway).
            let (_, layout) = look(&r.game);
            r.tap(layout.hand[0]);
            let swap = r.game.centre("swap");
            r.tap(swap);
        } else {
            play_one(&mut r, |_, _| true);
        }
    }
    assert!(cleared, "{:#}", kotoba(&r.game));
    let b = kotoba(&r.game);
    assert_eq!(b["phase"], "playing");
    assert_eq!(b["tiles_left"], 12);
    assert_eq!(b["hand"], serde_json::json!(["し", "か", "は", "な", "い"]));
    assert_eq!(r.game.text("note"), "A fresh board to go on with.");
    assert!(["4", "5"].contains(&lesson_step(&r.game).as_str()));
}

#[test]
fn the_lesson_looks_as_it_should() {
    // The first step, the sea settled.
    // The pointer playthrough, as worked out (the other test holds it to the kept file).
    let mut input = InputScript::from_events(by_pointer());
    let mut game = start();
    game.run(30, &mut input, |_| {});
    assert_eq!(lesson_step(&game), "1");
    game.golden("howto_first_step");

    // The end: the hint lit, "well done", the button back to the title (not yet pressed).
    while lesson_step(&game) != "done" {
        assert!(game.rt.frame() < 3000, "the lesson never ended");
        game.run(1, &mut input, |_| {});
    }
    for _ in 0..40 {
        game.step(&[]);
    }
    assert!(!kotoba(&game)["hint"].is_null());
    game.golden("howto_well_done");
}
