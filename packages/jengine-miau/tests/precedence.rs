//! The precedence table, one test per row, plus the rule-reading budget.

use jengine_miau::{Action, Game, Level, Placement, Proof, ProofError};

fn w(text: &str, x: u32, y: u32) -> Placement {
    Placement::word(text, x, y)
}

fn o(noun: &str, x: u32, y: u32) -> Placement {
    Placement::object(noun, x, y)
}

fn game(width: u32, height: u32, objects: Vec<Placement>) -> Game {
    Game::new(Proof::new(&Level::new("t", width, height, objects)).expect("valid proof"))
}

fn noun_of(game: &Game, id: usize) -> &str {
    game.proof().lexicon.text(game.board().entities()[id].token)
}

#[test]
fn push_takes_precedence_over_stop_on_one_entity() {
    let mut g = game(
        6,
        5,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("YOU", 2, 0),
            w("BOX", 0, 1),
            w("IS", 1, 1),
            w("STOP", 2, 1),
            w("BOX", 0, 2),
            w("IS", 1, 2),
            w("PUSH", 2, 2),
            o("CAT", 1, 4),
            o("BOX", 2, 4),
        ],
    );
    g.play(Action::Right);
    assert_eq!(
        g.board().entities()[10].x,
        3,
        "the box was pushed, not a wall"
    );
    assert_eq!(g.board().entities()[9].x, 2);
}

#[test]
fn stop_alone_blocks() {
    let mut g = game(
        6,
        5,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("YOU", 2, 0),
            w("BOX", 0, 1),
            w("IS", 1, 1),
            w("STOP", 2, 1),
            o("CAT", 1, 4),
            o("BOX", 2, 4),
        ],
    );
    g.play(Action::Right);
    assert_eq!(g.board().entities()[6].x, 1);
}

#[test]
fn defeat_resolves_before_win_in_one_cell() {
    let mut g = game(
        6,
        6,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("YOU", 2, 0),
            w("FLAG", 0, 1),
            w("IS", 1, 1),
            w("WIN", 2, 1),
            w("SPIKE", 0, 2),
            w("IS", 1, 2),
            w("DEFEAT", 2, 2),
            o("CAT", 1, 4),
            o("FLAG", 2, 4),
            o("SPIKE", 2, 4),
        ],
    );
    let turn = g.play(Action::Right);
    assert!(!turn.won);
    assert!(!g.board().entities()[9].alive);
    // The turn says what happened: one YOU defeated, nothing sunk or changed.
    assert_eq!((turn.defeated, turn.sunk, turn.transformed), (1, 0, 0));
}

#[test]
fn a_singleton_you_that_is_also_defeat_and_win_is_removed_before_it_wins() {
    let mut g = game(
        7,
        5,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("YOU", 2, 0),
            w("AND", 3, 0),
            w("WIN", 4, 0),
            w("CAT", 0, 2),
            w("IS", 1, 2),
            w("DEFEAT", 2, 2),
            o("CAT", 3, 4),
        ],
    );
    let turn = g.play(Action::Wait);
    assert!(!turn.won);
    assert!(!g.board().entities()[8].alive);
}

#[test]
fn identity_suppresses_another_transform_of_the_same_noun() {
    let g = game(
        5,
        5,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("DOG", 2, 0),
            w("CAT", 0, 2),
            w("IS", 1, 2),
            w("CAT", 2, 2),
            o("CAT", 4, 4),
        ],
    );
    assert_eq!(noun_of(&g, 6), "CAT");
}

#[test]
fn the_first_transform_by_source_position_wins_top_to_bottom() {
    let g = game(
        5,
        5,
        vec![
            w("CAT", 0, 2),
            w("IS", 1, 2),
            w("ROCK", 2, 2),
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("DOG", 2, 0),
            o("CAT", 4, 4),
        ],
    );
    assert_eq!(noun_of(&g, 6), "DOG");
}

#[test]
fn the_first_transform_by_source_position_wins_left_to_right() {
    let g = game(
        9,
        3,
        vec![
            w("CAT", 5, 0),
            w("IS", 6, 0),
            w("ROCK", 7, 0),
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("DOG", 2, 0),
            o("CAT", 4, 2),
        ],
    );
    assert_eq!(noun_of(&g, 6), "DOG");
}

#[test]
fn at_one_source_cell_across_reads_before_down() {
    let g = game(
        5,
        5,
        vec![
            w("CAT", 0, 0),
            w("IS", 0, 1),
            w("ROCK", 0, 2),
            w("IS", 1, 0),
            w("DOG", 2, 0),
            o("CAT", 4, 4),
        ],
    );
    assert_eq!(noun_of(&g, 5), "DOG");
}

#[test]
fn an_object_takes_at_most_one_transform_per_turn() {
    let mut g = game(
        5,
        5,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("DOG", 2, 0),
            w("DOG", 0, 2),
            w("IS", 1, 2),
            w("ROCK", 2, 2),
            o("CAT", 4, 4),
        ],
    );
    assert_eq!(noun_of(&g, 6), "DOG", "one link at the start, not two");
    g.play(Action::Wait);
    assert_eq!(
        noun_of(&g, 6),
        "ROCK",
        "the next link waits for the next turn"
    );
}

#[test]
fn a_stacked_cell_gives_one_word_per_path_and_keeps_every_alternative() {
    let g = game(
        5,
        3,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("YOU", 2, 0),
            w("WIN", 2, 0),
            o("CAT", 4, 2),
        ],
    );
    let rules = g.board().rules();
    assert_eq!(rules.sentences.len(), 2);
    let texts = rules.texts(&g.proof().lexicon);
    assert_eq!(texts, vec!["CAT IS YOU", "CAT IS WIN"]);
}

#[test]
fn one_path_never_takes_two_words_from_one_cell() {
    // IS and AND share a cell: `CAT IS YOU` reads, but never `CAT IS AND YOU`-style doubles.
    let g = game(
        5,
        3,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("AND", 1, 0),
            w("YOU", 2, 0),
            w("WIN", 3, 0),
        ],
    );
    let rules = g.board().rules();
    assert_eq!(rules.texts(&g.proof().lexicon), vec!["CAT IS YOU"]);
    assert!(rules.sentences.iter().all(|s| s.words.len() == 3));
}

#[test]
fn a_sentence_may_begin_from_a_stacked_cell() {
    let g = game(
        5,
        3,
        vec![
            w("CAT", 0, 0),
            w("DOG", 0, 0),
            w("IS", 1, 0),
            w("YOU", 2, 0),
        ],
    );
    assert_eq!(
        g.board().rules().texts(&g.proof().lexicon),
        vec!["CAT IS YOU", "DOG IS YOU"]
    );
}

#[test]
fn rule_records_carry_source_words_and_axis() {
    let g = game(4, 4, vec![w("CAT", 1, 0), w("IS", 1, 1), w("YOU", 1, 2)]);
    let rule = &g.board().rules().rules[0];
    assert_eq!(rule.words, [0, 1, 2]);
    assert_eq!(rule.axis.as_str(), "v");
}

#[test]
fn a_proof_whose_initial_stacks_exceed_the_budget_is_rejected() {
    let mut objects = Vec::new();
    for _ in 0..11 {
        objects.extend([w("CAT", 0, 0), w("IS", 1, 0), w("YOU", 2, 0)]);
    }
    let err = Proof::new(&Level::new("t", 4, 2, objects)).expect_err("over budget");
    assert!(matches!(err, ProofError::OverBudget(_)));
}

#[test]
fn a_move_that_would_create_an_over_budget_stack_is_blocked_and_changes_nothing() {
    let mut objects = vec![
        w("CAT", 0, 4),
        w("IS", 1, 4),
        w("YOU", 2, 4),
        o("CAT", 2, 3),
    ];
    for _ in 0..11 {
        objects.push(w("ROCK", 0, 1));
        objects.push(w("IS", 1, 1));
    }
    for _ in 0..10 {
        objects.push(w("WIN", 2, 2));
    }
    let mut g = game(5, 5, objects);
    let before = g.board().clone();
    let turn = g.play(Action::Up);
    assert!(turn.blocked);
    assert_eq!(g.board(), &before);
    assert_eq!(g.history_len(), 0);
}

#[test]
fn sink_takes_the_sinker_and_what_entered() {
    let mut g = game(
        6,
        5,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("YOU", 2, 0),
            w("POND", 0, 1),
            w("IS", 1, 1),
            w("SINK", 2, 1),
            w("ROCK", 0, 2),
            w("IS", 1, 2),
            w("PUSH", 2, 2),
            o("CAT", 1, 4),
            o("ROCK", 2, 4),
            o("POND", 3, 4),
        ],
    );
    let turn = g.play(Action::Right);
    let e = g.board().entities();
    assert!(e[9].alive && !e[10].alive && !e[11].alive);
    // The rock and the pond went down together.
    assert_eq!((turn.defeated, turn.sunk), (0, 2));
}

#[test]
fn every_word_is_pushable() {
    let mut g = game(
        6,
        3,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("YOU", 2, 0),
            o("CAT", 1, 2),
            w("ZAP", 2, 2),
        ],
    );
    let turn = g.play(Action::Right);
    assert!(turn.player_moved_word);
    assert_eq!(g.board().entities()[4].x, 3);
}

#[test]
fn shared_you_moves_every_you() {
    let mut g = game(
        6,
        4,
        vec![
            w("CAT", 0, 0),
            w("AND", 1, 0),
            w("DOG", 2, 0),
            w("IS", 3, 0),
            w("YOU", 4, 0),
            o("CAT", 0, 2),
            o("DOG", 0, 3),
        ],
    );
    g.play(Action::Right);
    assert_eq!(
        (g.board().entities()[5].x, g.board().entities()[6].x),
        (1, 1)
    );
}

#[test]
fn a_turn_counts_the_objects_it_transforms() {
    // The bat pushes DOG into place: CAT IS DOG forms, and both cats become dogs that turn.
    let mut g = game(
        7,
        6,
        vec![
            w("CAT", 0, 0),
            w("IS", 1, 0),
            w("DOG", 3, 0),
            w("BAT", 0, 2),
            w("IS", 1, 2),
            w("YOU", 2, 2),
            o("BAT", 4, 0),
            o("CAT", 4, 4),
            o("CAT", 5, 5),
        ],
    );
    assert_eq!(noun_of(&g, 7), "CAT");
    let turn = g.play(Action::Left);
    assert_eq!(turn.transformed, 2);
    assert_eq!(noun_of(&g, 7), "DOG");
    assert_eq!(g.play(Action::Wait).transformed, 0);
}
