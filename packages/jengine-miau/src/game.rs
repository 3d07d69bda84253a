//! A game of one proof: the board plus its history, for undo and restart.
//!
//! Every accepted turn pushes the board it replaced, so undo is a pop that restores the
//! earlier board exactly (rules and sentences included). Restart is itself undoable.

use crate::board::{Action, Board, Proof, Turn};

/// One proof being played.
#[derive(Clone, Debug)]
pub struct Game {
    proof: Proof,
    board: Board,
    history: Vec<Board>,
}

impl Game {
    /// Starts `proof` from its initial board.
    pub fn new(proof: Proof) -> Game {
        let board = proof.initial().clone();
        Game {
            proof,
            board,
            history: Vec::new(),
        }
    }

    /// The proof being played.
    pub fn proof(&self) -> &Proof {
        &self.proof
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Plays one turn; a blocked turn changes nothing and is not recorded.
    pub fn play(&mut self, action: Action) -> Turn {
        let before = self.board.clone();
        let turn = self.board.play(&self.proof, action);
        if !turn.blocked {
            self.history.push(before);
        }
        turn
    }

    /// Plays a sequence, stopping early at a win. Returns the last turn.
    pub fn play_all(&mut self, actions: &[Action]) -> Turn {
        let mut last = Turn::default();
        for &a in actions {
            last = self.play(a);
            if last.won {
                break;
            }
        }
        last
    }

    /// Steps back one turn. Returns false when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(b) => {
                self.board = b;
                true
            }
            None => false,
        }
    }

    /// Returns to the initial board; undo brings back the board restart replaced.
    pub fn restart(&mut self) {
        let initial = self.proof.initial().clone();
        let before = std::mem::replace(&mut self.board, initial);
        self.history.push(before);
    }

    /// Turns that undo can still take back.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::{Level, Placement};

    fn walk_level() -> Proof {
        Proof::new(&Level::new(
            "walk",
            6,
            4,
            vec![
                Placement::word("CAT", 0, 0),
                Placement::word("IS", 1, 0),
                Placement::word("YOU", 2, 0),
                Placement::object("CAT", 1, 2),
            ],
        ))
        .expect("valid proof")
    }

    #[test]
    fn undo_restores_the_previous_board_exactly() {
        let mut game = Game::new(walk_level());
        let start = game.board().clone();
        game.play(Action::Right);
        game.play(Action::Up);
        game.play(Action::Up); // into the YOU tile on the top row: blocked, nothing moves
        assert_ne!(game.board(), &start);
        while game.undo() {}
        assert_eq!(game.board(), &start);
    }

    #[test]
    fn restart_returns_to_the_start_and_can_be_undone() {
        let mut game = Game::new(walk_level());
        game.play(Action::Right);
        let moved = game.board().clone();
        game.restart();
        assert_eq!(game.board(), game.proof().initial());
        assert!(game.undo());
        assert_eq!(game.board(), &moved);
    }
}
