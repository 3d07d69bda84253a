//! The `kotoba` bag: what scripts read of a table, made fresh from its session each frame.
//!
//! Everything here is a plain copy in the scripts' terms: players, slots and cells count from
//! 1, and the fields of the mode not playing are `nil`.

use serde::Serialize;

use crate::battle::{Battle, Move, Phase};
use crate::content::Rival;
use crate::dict::Dict;
use crate::net::Gone;
use crate::play::{Ending, Event, Failure, MadeWord};
use crate::puzzle::{Stage, State};
use crate::session::{Mode, Session, YOU};

impl Session {
    /// What scripts read.
    pub fn bag(&self, dict: &Dict, stages: &[Stage], rivals: &[Rival]) -> KotobaBag {
        let mut bag = KotobaBag {
            active: !matches!(self.mode, Mode::None),
            mode: match self.mode {
                Mode::None => "none",
                Mode::Puzzle(_) => "puzzle",
                Mode::Battle(_) | Mode::Online(_) => "battle",
            },
            demo: self.demo,
            paused: self.paused,
            phase: "none",
            selected: self.selected.map_or(-1, |s| s as i64 + 1),
            hand: self
                .hand()
                .iter()
                .map(|k| k.to_char().to_string())
                .collect(),
            cursor: self.cursor.map(|p| [p.x as i64 + 1, p.y as i64 + 1]),
            hint: self.hint.map(|p| [p.x as i64 + 1, p.y as i64 + 1]),
            made: self
                .made
                .iter()
                .map(|(w, player)| BagWord::of(w, *player))
                .collect(),
            both_ways: self.both_ways.get(self.you()).copied().unwrap_or(0),
            words: dict.len(),
            stages: stages.iter().map(BagStage::of).collect(),
            rivals: rivals.iter().map(BagRival::of).collect(),
            events: self.events.iter().map(BagEvent::of).collect(),
            ..KotobaBag::default()
        };
        match &self.mode {
            Mode::None => {}
            Mode::Puzzle(g) => {
                let p = &g.puzzle;
                bag.phase = match p.state() {
                    State::Playing => "playing",
                    State::Cleared => "cleared",
                    State::Failed(_) => "failed",
                };
                bag.stage = Some(g.stage.0.clone());
                bag.stage_name = Some(g.stage.1.clone());
                bag.stage_title = Some(g.stage.2.clone());
                bag.time = Some(p.time());
                bag.time_left = Some(p.time_left());
                bag.score = Some(p.score());
                bag.bonus = Some(p.bonus());
                bag.tiles_left = Some(p.tiles_left());
                bag.stock = Some(p.stock());
                bag.swaps = Some(p.swaps());
                bag.stars = Some(p.stars());
                bag.star_scores = Some(p.star_scores());
            }
            Mode::Battle(g) => {
                battle_bag(&mut bag, &g.battle, YOU);
                bag.rival = Some(g.rival.clone());
            }
            Mode::Online(g) => {
                let seat = g.mirror.seat();
                battle_bag(&mut bag, g.mirror.battle(), seat);
                bag.online = true;
                bag.seat = Some(seat as i64 + 1);
                bag.board = Some(g.mirror.board_name().to_string());
                // Placements only: a swap in flight is no tile on the board.
                bag.pending = Some(
                    g.mirror
                        .pending()
                        .iter()
                        .filter(|p| p.shown && matches!(p.mv, Move::Place { .. }))
                        .count(),
                );
                bag.again = Some(g.again);
                bag.away = g.away.map(f64::from);
                bag.left = g.left.map(|why| {
                    match why {
                        Gone::Quit => "quit",
                        Gone::Lost => "lost",
                        Gone::Removed => "removed",
                    }
                    .to_string()
                });
            }
        }
        bag
    }
}

/// The battle's part of the bag, `you` the player's fighter.
fn battle_bag(bag: &mut KotobaBag, b: &Battle, you: usize) {
    bag.phase = match b.phase() {
        Phase::Countdown => "countdown",
        Phase::Fight => "fight",
        Phase::Over { .. } => "over",
    };
    bag.countdown = Some(b.countdown().ceil() as u32);
    bag.time_left = Some(b.time_left());
    bag.winner = b.winner().map(|w| w.map_or(-1, |i| i as i64 + 1));
    bag.you = Some(you as i64 + 1);
    bag.fighters = Some(
        b.fighters()
            .iter()
            .enumerate()
            .map(|(player, f)| BagFighter {
                name: f.name.clone(),
                hp: f.hp,
                max_hp: f.max_hp,
                score: f.score,
                combo: f.combo,
                multiplier: f.multiplier(),
                combo_left: f.combo_left,
                stun: f.stun,
                words: f.words,
                best: f.best.as_ref().map(|w| BagWord::of(w, player)),
                hand: f.hand().iter().map(|k| k.to_char().to_string()).collect(),
            })
            .collect(),
    );
}

/// The `kotoba` bag: what scripts read of a table. Players and slots count from 1; fields that
/// belong to the other mode are `nil`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KotobaBag {
    /// Whether a game is at the table.
    pub active: bool,
    /// `puzzle`, `battle` or `none`.
    pub mode: &'static str,
    /// Whether two bots are playing for show.
    pub demo: bool,
    /// Whether the clock is stopped.
    pub paused: bool,
    /// `playing`, `cleared`, `failed` (puzzle); `countdown`, `fight`, `over` (battle); `none`.
    pub phase: &'static str,
    /// The chosen hand slot, from 1; -1 for none.
    pub selected: i64,
    /// The player's hand, one kana each.
    pub hand: Vec<String>,
    /// The keyboard cursor's cell `[x, y]` from 1, once shown.
    pub cursor: Option<[i64; 2]>,
    /// The hint's cell `[x, y]` from 1, while lit.
    pub hint: Option<[i64; 2]>,
    /// Every word made this game.
    pub made: Vec<BagWord>,
    /// The player's points this game from tiles that read both across and down, on top of
    /// those words' own points: the player's words' points and this add up to their score.
    pub both_ways: u32,
    /// How many words the dictionary holds.
    pub words: usize,
    /// The stages, for menus.
    pub stages: Vec<BagStage>,
    /// The rivals, for menus.
    pub rivals: Vec<BagRival>,
    /// This frame's events.
    pub events: Vec<BagEvent>,
    /// Puzzle: the stage's id.
    pub stage: Option<String>,
    /// Puzzle: the stage's name.
    pub stage_name: Option<String>,
    /// Puzzle: the stage's line.
    pub stage_title: Option<String>,
    /// Puzzle: seconds on the clock at the start.
    pub time: Option<f32>,
    /// Seconds left (puzzle and battle).
    pub time_left: Option<f32>,
    /// Puzzle: points from words.
    pub score: Option<u32>,
    /// Puzzle: the time bonus.
    pub bonus: Option<u32>,
    /// Puzzle: tiles still to place.
    pub tiles_left: Option<usize>,
    /// Puzzle: tiles left in the stock.
    pub stock: Option<usize>,
    /// Puzzle: swaps made.
    pub swaps: Option<u32>,
    /// Puzzle: stars earned.
    pub stars: Option<u32>,
    /// Puzzle: the three star scores.
    pub star_scores: Option<[u32; 3]>,
    /// Battle: the countdown's number (0 once fighting).
    pub countdown: Option<u32>,
    /// Battle: the winner from 1, -1 for a draw; `nil` while it goes on.
    pub winner: Option<i64>,
    /// Battle: which fighter is the player, from 1.
    pub you: Option<i64>,
    /// Battle: the rival's id.
    pub rival: Option<String>,
    /// Battle: both fighters, the player first.
    pub fighters: Option<Vec<BagFighter>>,
    /// Whether the table plays through a room (`Kotoba.online`).
    pub online: bool,
    /// Online: the player's seat, from 1.
    pub seat: Option<i64>,
    /// Online: the name of the board the room plays on.
    pub board: Option<String>,
    /// Online: the player's placements down on the board that the room has not answered.
    pub pending: Option<usize>,
    /// Online: who has asked for a rematch, by seat.
    pub again: Option<[bool; 2]>,
    /// Online: seconds the room still holds the other player's seat after their connection
    /// was lost (absent while they are here).
    pub away: Option<f64>,
    /// Online: how the other player left (`quit`, `lost`, `removed`).
    pub left: Option<String>,
}

/// A word as scripts read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BagWord {
    /// In kana.
    pub reading: String,
    /// How it is written.
    pub written: String,
    /// What it means.
    pub meaning: String,
    /// Its points.
    pub points: u32,
    /// Who made it, from 1.
    pub player: usize,
    /// Its cells, `[x, y]` from 1.
    pub cells: Vec<[usize; 2]>,
}

impl BagWord {
    fn of(w: &MadeWord, player: usize) -> BagWord {
        BagWord {
            reading: w.reading.clone(),
            written: w.written.clone(),
            meaning: w.meaning.clone(),
            points: w.points,
            player: player + 1,
            cells: w.cells.iter().map(|p| [p.x + 1, p.y + 1]).collect(),
        }
    }
}

/// A stage row for menus.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BagStage {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its line.
    pub title: String,
    /// Seconds on the clock.
    pub time: f32,
    /// The star scores.
    pub stars: [u32; 3],
}

impl BagStage {
    fn of(s: &Stage) -> BagStage {
        BagStage {
            id: s.id.clone(),
            name: s.name.clone(),
            title: s.title.clone(),
            time: s.time,
            stars: s.stars,
        }
    }
}

/// A rival row for menus.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BagRival {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its line.
    pub title: String,
    /// Its life.
    pub life: u32,
    /// How many tiles it holds.
    pub hand: usize,
}

impl BagRival {
    fn of(r: &Rival) -> BagRival {
        BagRival {
            id: r.id.clone(),
            name: r.name.clone(),
            title: r.title.clone(),
            life: r.life,
            hand: r.hand,
        }
    }
}

/// A fighter as scripts read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BagFighter {
    /// Name.
    pub name: String,
    /// Life left.
    pub hp: u32,
    /// Life at the start.
    pub max_hp: u32,
    /// Points from words.
    pub score: u32,
    /// Chain steps.
    pub combo: u32,
    /// The damage multiplier now.
    pub multiplier: f32,
    /// Seconds left for the next word to chain.
    pub combo_left: f32,
    /// Seconds left stunned.
    pub stun: f32,
    /// Words made.
    pub words: u32,
    /// The best word so far.
    pub best: Option<BagWord>,
    /// The tiles held.
    pub hand: Vec<String>,
}

/// One of this frame's events as scripts read it: `kind` says which, and the fields that
/// kind has are set.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BagEvent {
    /// `started`, `countdown`, `placed`, `refused`, `turned`, `swapped`, `hit`, `cleared`,
    /// `failed` or `over`.
    pub kind: &'static str,
    /// Countdown: the number shown (0 is "go").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
    /// Who, from 1 (placed, refused, turned, swapped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<usize>,
    /// Placed: the cell, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<usize>,
    /// Placed: the cell, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<usize>,
    /// The kana (placed, turned, swapped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kana: Option<String>,
    /// Turned, swapped: the hand slot, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot: Option<usize>,
    /// Placed: the points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    /// Placed, hit: the damage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<u32>,
    /// Placed: the combo step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combo: Option<u32>,
    /// Placed: the words, each with its cells.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<Vec<BagWord>>,
    /// Refused, failed, over: why, in a few words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<&'static str>,
    /// Hit: who was hit, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<usize>,
    /// Hit: life left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<u32>,
    /// Cleared: the score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u32>,
    /// Cleared: the bonus.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus: Option<u32>,
    /// Cleared: seconds left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_left: Option<f32>,
    /// Over: the winner from 1, -1 for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<i64>,
}

impl BagEvent {
    fn of(e: &Event) -> BagEvent {
        let none = BagEvent::default();
        match e {
            Event::Started => BagEvent {
                kind: "started",
                ..none
            },
            Event::Countdown(n) => BagEvent {
                kind: "countdown",
                n: Some(*n),
                ..none
            },
            Event::Placed {
                player,
                pos,
                kana,
                points,
                damage,
                combo,
                words,
            } => BagEvent {
                kind: "placed",
                player: Some(player + 1),
                x: Some(pos.x + 1),
                y: Some(pos.y + 1),
                kana: Some(kana.to_char().to_string()),
                points: Some(*points),
                damage: Some(*damage),
                combo: Some(*combo),
                words: Some(words.iter().map(|w| BagWord::of(w, *player)).collect()),
                ..none
            },
            Event::Refused { player, why } => BagEvent {
                kind: "refused",
                player: Some(player + 1),
                why: Some(why.why()),
                ..none
            },
            Event::Turned { player, slot, kana } => BagEvent {
                kind: "turned",
                player: Some(player + 1),
                slot: Some(slot + 1),
                kana: Some(kana.to_char().to_string()),
                ..none
            },
            Event::Swapped { player, slot, kana } => BagEvent {
                kind: "swapped",
                player: Some(player + 1),
                slot: Some(slot + 1),
                kana: Some(kana.to_char().to_string()),
                ..none
            },
            Event::Hit { to, damage, hp } => BagEvent {
                kind: "hit",
                to: Some(to + 1),
                damage: Some(*damage),
                hp: Some(*hp),
                ..none
            },
            Event::Cleared {
                score,
                bonus,
                time_left,
            } => BagEvent {
                kind: "cleared",
                score: Some(*score),
                bonus: Some(*bonus),
                time_left: Some(*time_left),
                ..none
            },
            Event::Failed { why } => BagEvent {
                kind: "failed",
                why: Some(match why {
                    Failure::Time => "time",
                    Failure::Stuck => "stuck",
                }),
                ..none
            },
            Event::Over { winner, why } => BagEvent {
                kind: "over",
                winner: Some(winner.map_or(-1, |w| w as i64 + 1)),
                why: Some(match why {
                    Ending::Ko => "ko",
                    Ending::Time => "time",
                    Ending::Full => "full",
                }),
                ..none
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::tests::setup;

    #[test]
    fn the_bag_counts_players_and_slots_from_one() {
        let (dict, stats, stages, rivals) = setup();
        let mut s = Session::default();
        s.battle("r01", &rivals, &stats, 3).unwrap();
        let bag = s.bag(dict, &stages, &rivals);
        assert_eq!(
            (bag.mode, bag.phase, bag.you),
            ("battle", "countdown", Some(1))
        );
        assert_eq!(bag.selected, -1);
        assert_eq!(bag.fighters.as_ref().unwrap().len(), 2);
        assert_eq!(bag.events[0].kind, "started");
        assert_eq!(bag.events[1].n, Some(3));
        assert!(bag.stage.is_none());
    }

    #[test]
    fn a_fighters_best_word_names_that_fighter() {
        let (dict, stats, stages, rivals) = setup();
        let mut s = Session::default();
        s.demo(&rivals, &stats, 5).unwrap();
        let mut frames = 0;
        loop {
            let bag = s.bag(dict, &stages, &rivals);
            let fighters = bag.fighters.unwrap();
            if let (Some(a), Some(b)) = (&fighters[0].best, &fighters[1].best) {
                assert_eq!((a.player, b.player), (1, 2));
                break;
            }
            frames += 1;
            assert!(frames < 60 * 120, "two minutes and no word from each bot");
            s.begin_frame();
            s.update(dict, &stats, &rivals, 1.0 / 60.0);
        }
    }
}
