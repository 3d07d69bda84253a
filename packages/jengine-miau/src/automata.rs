//! Automata: objects that act on their own each turn, after the player's move.
//!
//! A proof declares its own property words (`automata: { PATROL: 'walk' }`); any object the
//! rules give such a property performs that behaviour once per turn, in entity order, with the
//! same pushing as a player move, so automata shove words and can rewrite the rules.

use crate::board::{Board, Proof};
use crate::pack::{Behaviour, Facing};

/// Performs `behaviour` for entity `i`.
pub(crate) fn act(
    board: &mut Board,
    proof: &Proof,
    i: usize,
    behaviour: Behaviour,
    moved_word: &mut bool,
) {
    match behaviour {
        Behaviour::Walk => {
            let dx = match board.entities()[i].facing {
                Facing::Left => -1,
                Facing::Right => 1,
            };
            if !board.step_entity(proof, i, dx, 0, moved_word) {
                let e = board.entity_mut(i);
                e.facing = e.facing.turned();
            }
        }
        Behaviour::Fall => {
            board.step_entity(proof, i, 0, 1, moved_word);
        }
    }
}

#[cfg(all(test, feature = "automata"))]
mod tests {
    use crate::board::{Action, Proof};
    use crate::pack::{Behaviour, Facing, Level, Placement};

    fn patrol_level(objects: Vec<Placement>) -> Proof {
        let mut level = Level::new("patrol", 6, 3, objects);
        level.automata.insert("PATROL".into(), Behaviour::Walk);
        Proof::new(&level).expect("valid proof")
    }

    #[test]
    fn walker_steps_along_facing_and_turns_back_at_the_edge() {
        let proof = patrol_level(vec![
            Placement::word("ANT", 0, 0),
            Placement::word("IS", 1, 0),
            Placement::word("PATROL", 2, 0),
            Placement::object("ANT", 4, 2),
        ]);
        let mut board = proof.initial().clone();
        board.play(&proof, Action::Wait);
        assert_eq!(board.entities()[3].x, 5);
        board.play(&proof, Action::Wait);
        assert_eq!(
            (board.entities()[3].x, board.entities()[3].facing),
            (5, Facing::Left)
        );
        board.play(&proof, Action::Wait);
        assert_eq!(board.entities()[3].x, 4);
    }

    #[test]
    fn walker_pushes_words() {
        let proof = patrol_level(vec![
            Placement::word("ANT", 0, 0),
            Placement::word("IS", 1, 0),
            Placement::word("PATROL", 2, 0),
            Placement::object("ANT", 1, 2),
            Placement::word("ROCK", 2, 2),
        ]);
        let mut board = proof.initial().clone();
        let turn = board.play(&proof, Action::Wait);
        assert!(turn.words_moved);
        assert_eq!(board.entities()[4].x, 3);
    }

    #[test]
    fn a_faller_drops_until_something_stops_it() {
        let mut level = Level::new(
            "drop",
            4,
            5,
            vec![
                Placement::word("ROCK", 0, 0),
                Placement::word("IS", 1, 0),
                Placement::word("HEAVY", 2, 0),
                Placement::word("WALL", 0, 4),
                Placement::word("IS", 1, 4),
                Placement::word("STOP", 2, 4),
                Placement::object("ROCK", 3, 0),
                Placement::object("WALL", 3, 3),
            ],
        );
        level.automata.insert("HEAVY".into(), Behaviour::Fall);
        let proof = Proof::new(&level).expect("valid proof");
        let mut board = proof.initial().clone();
        for _ in 0..4 {
            board.play(&proof, Action::Wait);
        }
        assert_eq!(
            (board.entities()[6].x, board.entities()[6].y),
            (3, 2),
            "rests on the wall"
        );
    }

    #[test]
    fn a_token_declared_elsewhere_is_just_a_noun() {
        let level = Level::new(
            "plain",
            6,
            3,
            vec![
                Placement::word("ANT", 0, 0),
                Placement::word("IS", 1, 0),
                Placement::word("PATROL", 2, 0),
                Placement::object("ANT", 1, 2),
            ],
        );
        let proof = Proof::new(&level).expect("valid proof");
        let board = proof.initial();
        // ANT IS PATROL reads as a transformation here: the ant has already become a PATROL.
        assert_eq!(proof.lexicon.text(board.entities()[3].token), "PATROL");
    }
}
