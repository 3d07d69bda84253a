//! A battle through a room: the session's side of it.
//!
//! The player's moves are played at once on a [`Mirror`] of the room's battle and queued for
//! the room; the room's messages correct the mirror. The package carries the frames both ways.

use crate::battle::Move;
use crate::dict::Dict;
use crate::net::{Gone, Mirror, ToClient, ToServer};
use crate::play::Refusal;

use super::{Mode, Session};

/// A battle through a room: the player's mirror of it and what to send the room.
#[derive(Clone, Debug)]
pub struct OnlineGame {
    /// The room's battle, with the player's moves in flight on top.
    pub mirror: Mirror,
    /// Messages for the room, taken by the package each frame.
    pub outbox: Vec<ToServer>,
    /// Who has asked for a rematch, by seat.
    pub again: [bool; 2],
    /// How the other player left, if they did.
    pub left: Option<Gone>,
    /// Seconds the room still holds the other player's seat after their connection was lost
    /// (`None` while they are here).
    pub away: Option<f32>,
}

impl PartialEq for OnlineGame {
    fn eq(&self, other: &OnlineGame) -> bool {
        self.mirror.seat() == other.mirror.seat()
            && self.mirror.battle() == other.mirror.battle()
            && self.mirror.pending() == other.mirror.pending()
            && self.outbox == other.outbox
            && self.again == other.again
            && self.left == other.left
            && self.away == other.away
    }
}

impl Session {
    /// Takes a message from the room: a start builds the mirror (a new battle), a state is the
    /// room's word on it, events are what happened there. A message that does not fit the
    /// battle changes nothing and says why.
    pub fn receive(&mut self, dict: &Dict, msg: ToClient) -> Result<(), String> {
        match msg {
            ToClient::Start(start) => {
                let mirror = Mirror::new(dict, &start).map_err(|e| e.to_string())?;
                self.reset(
                    Mode::Online(Box::new(OnlineGame {
                        mirror,
                        outbox: Vec::new(),
                        again: [false; 2],
                        left: None,
                        away: None,
                    })),
                    false,
                );
                Ok(())
            }
            ToClient::State(state) => match &mut self.mode {
                Mode::Online(g) => g
                    .mirror
                    .apply_state(dict, &state)
                    .map_err(|e| e.to_string()),
                _ => Err("a state with no battle from the room".into()),
            },
            ToClient::Delta(delta) => match &mut self.mode {
                Mode::Online(g) => g
                    .mirror
                    .apply_delta(dict, &delta)
                    .map_err(|e| e.to_string()),
                _ => Err("a change of state with no battle from the room".into()),
            },
            ToClient::Ev { events } => {
                if !matches!(self.mode, Mode::Online(_)) {
                    return Err("events with no battle from the room".into());
                }
                self.record(&events);
                self.events.extend(events);
                Ok(())
            }
            ToClient::Again { asked } => {
                if let Mode::Online(g) = &mut self.mode {
                    g.again = asked;
                }
                Ok(())
            }
            ToClient::Left { why } => {
                if let Mode::Online(g) = &mut self.mode {
                    g.left = Some(why);
                    g.away = None;
                }
                Ok(())
            }
            ToClient::Away { seat, seconds } => {
                if let Mode::Online(g) = &mut self.mode
                    && seat != g.mirror.seat()
                {
                    g.away = Some(seconds);
                }
                Ok(())
            }
            ToClient::Back { seat } => {
                if let Mode::Online(g) = &mut self.mode
                    && seat != g.mirror.seat()
                {
                    g.away = None;
                }
                Ok(())
            }
            // The lobby's answers are the scene's business (it reads the same frames), a
            // redirect too: the scene connects to the room's server and the battle goes on
            // from the `Start` it sends there.
            ToClient::Waiting { .. } | ToClient::Refused { .. } | ToClient::Redirect(_) => Ok(()),
        }
    }

    /// The messages for the room since the last call.
    pub fn take_outbox(&mut self) -> Vec<ToServer> {
        match &mut self.mode {
            Mode::Online(g) => std::mem::take(&mut g.outbox),
            _ => Vec::new(),
        }
    }
}

impl OnlineGame {
    /// Plays a placement or a swap on the mirror at once and queues it for the room.
    pub(super) fn send(&mut self, dict: &Dict, mv: Move) -> Result<(), Refusal> {
        // A guessed tile is not the player's to play until the room deals it.
        let slot = match mv {
            Move::Place { slot, .. } | Move::Swap { slot } | Move::Turn { slot } => slot,
        };
        if self.mirror.guessed(slot) {
            return Err(Refusal::NoTile);
        }
        if let Some(msg) = self.mirror.play(dict, mv)? {
            self.outbox.push(msg);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Battle;
    use crate::battle::{FighterSpec, Setup};
    use crate::content;
    use crate::kana::TileStats;
    use crate::net::{start_for, state_for};
    use crate::session::SessionError;

    fn setup() -> Setup {
        Setup {
            board: content::battle_board(),
            fighters: ["aoi", "ben"].map(|n| FighterSpec {
                bot: None,
                ..content::player(n)
            }),
            time: 60.0,
            seed: 9,
            countdown: false,
        }
    }

    #[test]
    fn a_room_battle_is_played_on_the_mirror_and_sent() {
        let dict = Dict::japanese();
        let stats = TileStats::from_dict(dict);
        let mut room = Battle::new(&setup(), &stats).unwrap();
        let mut s = Session::default();
        s.receive(
            dict,
            ToClient::Start(start_for(&setup(), crate::content::BATTLE_BOARD_NAME, 1)),
        )
        .unwrap();
        assert_eq!(s.you(), 1);
        let bag = s.bag(dict, &[], &[]);
        assert!(bag.online && bag.active);
        assert_eq!((bag.mode, bag.seat), ("battle", Some(2)));
        assert_eq!(bag.board.as_deref(), Some("ひろば"));
        // A swap goes down at once, is sent, and its fresh tile is a guess until answered.
        s.select(0).unwrap();
        s.swap(dict).unwrap();
        let sent = s.take_outbox();
        assert!(
            matches!(sent.as_slice(), [ToServer::Play { number: 1, .. }]),
            "{sent:?}"
        );
        assert!(s.guessed(0));
        assert_eq!(
            s.bag(dict, &[], &[]).pending,
            Some(0),
            "a swap is no tile down"
        );
        s.select(0).unwrap();
        assert_eq!(s.swap(dict), Err(SessionError::Refused(Refusal::NoTile)));
        assert!(s.take_outbox().is_empty(), "a guessed tile is not sent");
        // The room applies it and answers: the guess is the room's tile now.
        let ToServer::Play { mv, .. } = sent[0] else {
            unreachable!()
        };
        room.apply(dict, 1, mv).unwrap();
        s.receive(dict, ToClient::State(state_for(&room, 1)))
            .unwrap();
        assert!(!s.guessed(0));
        assert_eq!(s.hand(), room.fighters()[1].hand());
        // The other player's connection lost: how long their seat is held counts down, and
        // goes when they are back; word of one's own seat is not about the other.
        s.receive(
            dict,
            ToClient::Away {
                seat: 0,
                seconds: 5.0,
            },
        )
        .unwrap();
        assert_eq!(s.bag(dict, &[], &[]).away, Some(5.0));
        s.update(dict, &stats, &[], 1.0);
        assert_eq!(s.bag(dict, &[], &[]).away, Some(4.0));
        s.receive(dict, ToClient::Back { seat: 0 }).unwrap();
        assert_eq!(s.bag(dict, &[], &[]).away, None);
        s.receive(
            dict,
            ToClient::Away {
                seat: 1,
                seconds: 5.0,
            },
        )
        .unwrap();
        assert_eq!(s.bag(dict, &[], &[]).away, None);
        // Events from the room are this frame's events; a state with no battle is refused.
        s.receive(
            dict,
            ToClient::Left {
                why: crate::net::Gone::Quit,
            },
        )
        .unwrap();
        assert_eq!(s.bag(dict, &[], &[]).left.as_deref(), Some("quit"));
        let mut idle = Session::default();
        assert!(
            idle.receive(dict, ToClient::State(state_for(&room, 0)))
                .is_err()
        );
    }
}
