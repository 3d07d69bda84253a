//! The board's events as waves: a word rings from its tile in its player's colour, a hit
//! jolts under the hurt hand, a clear or a win surges. Pure: the same events and context always
//! give the same waves, in event order.

use crate::board::Pos;
use crate::play::{Ending, Event};

use super::{MAX_RING_COUNT, Palette, Wave};

/// Where the board and the players are, for [`waves_for`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaveContext {
    /// World centre of board cell (0, 0), the top-left.
    pub origin: [f32; 2],
    /// World distance between neighbouring cell centres; rows go down the screen.
    pub cell: f32,
    /// World centre of the board.
    pub board_centre: [f32; 2],
    /// World centre of each player's hand, player 1 (index 0) first.
    pub hands: [[f32; 2]; 2],
    /// Which player is you, whose hurt shows red; `None` when two bots play.
    pub you: Option<usize>,
    /// Where each player's last move aimed, for a refusal's ring; the hand when unknown.
    pub tried: [Option<[f32; 2]>; 2],
    /// The colours to send.
    pub palette: Palette,
}

impl Default for WaveContext {
    fn default() -> Self {
        WaveContext {
            origin: [0.0, 0.0],
            cell: 1.0,
            board_centre: [0.0, 0.0],
            hands: [[0.0, 0.0]; 2],
            you: Some(0),
            tried: [None; 2],
            palette: Palette::default(),
        }
    }
}

impl WaveContext {
    /// The world centre of a board cell.
    pub fn cell_centre(&self, pos: Pos) -> [f32; 2] {
        [
            self.origin[0] + pos.x as f32 * self.cell,
            self.origin[1] - pos.y as f32 * self.cell,
        ]
    }

    /// A player's hand (player 2's for any index past the first).
    fn hand(&self, who: usize) -> [f32; 2] {
        self.hands[who.min(1)]
    }
}

/// A word's ring: stronger for more points and a longer combo.
fn word_strength(points: u32, combo: u32) -> f32 {
    (0.6 + points as f32 / 12.0).min(2.5) * (1.0 + 0.25 * combo.min(4) as f32)
}

/// A hit's jolt: harder for more damage.
fn hit_strength(damage: u32) -> f32 {
    (0.5 + damage as f32 / 15.0).min(3.0)
}

/// Turns one frame's board events into waves. Pure: the same events and context always give
/// the same waves, in event order.
pub fn waves_for(events: &[Event], ctx: &WaveContext) -> Vec<Wave> {
    let pal = &ctx.palette;
    let mut out = Vec::new();
    for event in events {
        match event {
            Event::Started => out.push(Wave::Surge {
                strength: 0.5,
                color: pal.light,
            }),
            Event::Countdown(0) => {
                // "Go" lands like a drum: a deep breath and a knock under the board.
                out.push(Wave::Beat { strength: 1.6 });
                out.push(Wave::Jolt {
                    at: ctx.board_centre,
                    strength: 1.2,
                    color: pal.light,
                });
            }
            Event::Countdown(_) => out.push(Wave::Beat { strength: 0.7 }),
            Event::Placed {
                player,
                pos,
                points,
                combo,
                words,
                ..
            } => {
                let color = pal.player(*player);
                let longest = words.iter().map(|w| w.cells.len()).max().unwrap_or(0);
                let extra = longest.saturating_sub(3).min(MAX_RING_COUNT as usize - 1) as u32;
                out.push(Wave::Ring {
                    at: ctx.cell_centre(*pos),
                    strength: word_strength(*points, *combo),
                    color,
                    count: 1 + extra,
                });
                if *combo >= 2 {
                    out.push(Wave::Surge {
                        strength: 0.6 + 0.2 * (*combo - 2).min(4) as f32,
                        color,
                    });
                }
            }
            Event::Refused { player, .. } => {
                let at = ctx.tried[(*player).min(1)].unwrap_or(ctx.hand(*player));
                out.push(Wave::Ring {
                    at,
                    strength: -0.8,
                    color: pal.dark,
                    count: 1,
                });
                out.push(Wave::Shudder { at, strength: 1.0 });
            }
            Event::Turned { player, .. } => out.push(Wave::Ring {
                at: ctx.hand(*player),
                strength: 0.25,
                color: pal.light,
                count: 1,
            }),
            Event::Swapped { player, .. } => out.push(Wave::Shudder {
                at: ctx.hand(*player),
                strength: 0.6,
            }),
            Event::Hit { to, damage, .. } => {
                if *damage > 0 {
                    let color = if ctx.you == Some(*to) {
                        pal.hurt
                    } else {
                        pal.player(1 - (*to).min(1))
                    };
                    out.push(Wave::Jolt {
                        at: ctx.hand(*to),
                        strength: hit_strength(*damage),
                        color,
                    });
                }
            }
            Event::Cleared { .. } => {
                out.push(Wave::Ring {
                    at: ctx.board_centre,
                    strength: 1.6,
                    color: pal.gold,
                    count: 3,
                });
                out.push(Wave::Surge {
                    strength: 1.2,
                    color: pal.gold,
                });
            }
            Event::Failed { .. } => out.push(Wave::Surge {
                strength: -1.0,
                color: pal.dark,
            }),
            Event::Over {
                winner: Some(w),
                why,
            } => {
                let w = (*w).min(1);
                let color = pal.player(w);
                let ko = *why == Ending::Ko;
                out.push(Wave::Ring {
                    at: ctx.hand(w),
                    strength: if ko { 1.5 } else { 1.2 },
                    color,
                    count: if ko { 3 } else { 2 },
                });
                out.push(Wave::Surge {
                    strength: 1.2,
                    color,
                });
                if ko {
                    let loser = 1 - w;
                    out.push(Wave::Jolt {
                        at: ctx.hand(loser),
                        strength: 2.5,
                        color: if ctx.you == Some(loser) {
                            pal.hurt
                        } else {
                            color
                        },
                    });
                }
            }
            Event::Over { winner: None, .. } => out.push(Wave::Surge {
                strength: 0.6,
                color: pal.light,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kana::Kana;
    use crate::play::{Failure, MadeWord, Refusal};
    use crate::sea::Rgba;

    fn ctx() -> WaveContext {
        WaveContext {
            origin: [-3.0, 3.0],
            cell: 0.5,
            board_centre: [0.0, 0.2],
            hands: [[0.0, -3.5], [0.0, 3.7]],
            you: Some(0),
            tried: [None, None],
            palette: Palette::default(),
        }
    }

    fn word(len: usize) -> MadeWord {
        MadeWord {
            reading: "か".repeat(len),
            written: String::new(),
            meaning: String::new(),
            points: 3,
            cells: (0..len).map(|x| Pos::new(x, 0)).collect(),
        }
    }

    fn placed(player: usize, points: u32, combo: u32, lens: &[usize]) -> Event {
        Event::Placed {
            player,
            pos: Pos::new(2, 4),
            kana: Kana::from_char('か').unwrap(),
            points,
            damage: points,
            combo,
            words: lens.iter().map(|&n| word(n)).collect(),
        }
    }

    fn ring_of(wave: &Wave) -> (f32, Rgba, u32, [f32; 2]) {
        match *wave {
            Wave::Ring {
                at,
                strength,
                color,
                count,
            } => (strength, color, count, at),
            ref other => panic!("not a ring: {other:?}"),
        }
    }

    #[test]
    fn a_word_rings_from_its_tile_gold_for_player_one_coral_for_player_two() {
        let c = ctx();
        let one = waves_for(&[placed(0, 6, 0, &[3])], &c);
        assert_eq!(one.len(), 1);
        let (_, colour, count, at) = ring_of(&one[0]);
        assert_eq!(colour, c.palette.gold);
        assert_eq!(count, 1);
        assert_eq!(at, [-3.0 + 2.0 * 0.5, 3.0 - 4.0 * 0.5]);
        let two = waves_for(&[placed(1, 6, 0, &[3])], &c);
        assert_eq!(ring_of(&two[0]).1, c.palette.coral);
    }

    #[test]
    fn more_points_and_a_longer_combo_ring_harder() {
        let c = ctx();
        let strength =
            |points, combo| ring_of(&waves_for(&[placed(0, points, combo, &[2])], &c)[0]).0;
        assert!(strength(12, 0) > strength(4, 0));
        assert!(strength(4, 1) > strength(4, 0));
        assert!(strength(4, 3) > strength(4, 1));
    }

    #[test]
    fn each_kana_past_three_adds_a_ring() {
        let c = ctx();
        let count = |lens: &[usize]| ring_of(&waves_for(&[placed(0, 5, 0, lens)], &c)[0]).2;
        assert_eq!(count(&[2]), 1);
        assert_eq!(count(&[3]), 1);
        assert_eq!(count(&[4]), 2);
        assert_eq!(
            count(&[3, 6]),
            4,
            "the longest word of the placement counts"
        );
    }

    #[test]
    fn a_combo_of_three_surges_in_the_players_colour() {
        let c = ctx();
        assert_eq!(waves_for(&[placed(1, 5, 1, &[2])], &c).len(), 1);
        let third = waves_for(&[placed(1, 5, 2, &[2])], &c);
        assert_eq!(
            third[1],
            Wave::Surge {
                strength: 0.6,
                color: c.palette.coral
            }
        );
    }

    #[test]
    fn a_hit_jolts_under_the_hurt_hand_red_for_your_own_hurt() {
        let c = ctx();
        let hit = |to, damage| waves_for(&[Event::Hit { to, damage, hp: 50 }], &c);
        match hit(0, 10)[..] {
            [Wave::Jolt { at, color, .. }] => {
                assert_eq!(at, c.hands[0]);
                assert_eq!(color, c.palette.hurt);
            }
            ref other => panic!("{other:?}"),
        }
        match hit(1, 10)[..] {
            [Wave::Jolt { at, color, .. }] => {
                assert_eq!(at, c.hands[1]);
                assert_eq!(color, c.palette.gold, "your word, your colour");
            }
            ref other => panic!("{other:?}"),
        }
        let strength = |damage| match hit(1, damage)[0] {
            Wave::Jolt { strength, .. } => strength,
            _ => unreachable!(),
        };
        assert!(strength(30) > strength(5));
        assert!(hit(1, 0).is_empty(), "no damage, no jolt");
        // Two bots: nobody's hurt is red.
        let demo = WaveContext { you: None, ..c };
        assert!(matches!(
            waves_for(&[Event::Hit { to: 0, damage: 5, hp: 1 }], &demo)[0],
            Wave::Jolt { color, .. } if color == c.palette.coral
        ));
    }

    #[test]
    fn a_refused_tile_sends_a_dark_ring_and_a_shudder() {
        let mut c = ctx();
        let refused = Event::Refused {
            player: 0,
            why: Refusal::NoWord,
        };
        let out = waves_for(std::slice::from_ref(&refused), &c);
        let (strength, colour, _, at) = ring_of(&out[0]);
        assert!(strength < 0.0);
        assert_eq!(colour, c.palette.dark);
        assert_eq!(at, c.hands[0], "no aim known: from the hand");
        assert_eq!(out[1], Wave::Shudder { at, strength: 1.0 });
        c.tried[0] = Some([1.0, 1.5]);
        let out = waves_for(&[refused], &c);
        assert_eq!(ring_of(&out[0]).3, [1.0, 1.5]);
    }

    #[test]
    fn the_countdown_beats_once_a_second_and_go_lands_like_a_drum() {
        let c = ctx();
        let beats = waves_for(
            &[
                Event::Countdown(3),
                Event::Countdown(2),
                Event::Countdown(1),
            ],
            &c,
        );
        assert_eq!(beats, vec![Wave::Beat { strength: 0.7 }; 3]);
        let go = waves_for(&[Event::Countdown(0)], &c);
        assert!(matches!(go[0], Wave::Beat { strength } if strength > 0.7));
        assert!(matches!(go[1], Wave::Jolt { at, .. } if at == c.board_centre));
    }

    #[test]
    fn a_clear_sends_three_golden_rings_and_a_surge() {
        let c = ctx();
        let out = waves_for(
            &[Event::Cleared {
                score: 100,
                bonus: 20,
                time_left: 10.0,
            }],
            &c,
        );
        let (_, colour, count, at) = ring_of(&out[0]);
        assert_eq!((colour, count, at), (c.palette.gold, 3, c.board_centre));
        assert!(
            matches!(out[1], Wave::Surge { color, strength } if color == c.palette.gold && strength > 0.0)
        );
    }

    #[test]
    fn a_loss_sends_a_dark_surge() {
        let c = ctx();
        for why in [Failure::Time, Failure::Stuck] {
            let out = waves_for(&[Event::Failed { why }], &c);
            assert_eq!(
                out,
                [Wave::Surge {
                    strength: -1.0,
                    color: c.palette.dark
                }]
            );
        }
    }

    #[test]
    fn a_knockout_rings_and_surges_in_the_winners_colour_and_strikes_the_loser() {
        let c = ctx();
        let out = waves_for(
            &[Event::Over {
                winner: Some(1),
                why: Ending::Ko,
            }],
            &c,
        );
        let (_, colour, count, at) = ring_of(&out[0]);
        assert_eq!((colour, count, at), (c.palette.coral, 3, c.hands[1]));
        assert!(matches!(out[1], Wave::Surge { color, .. } if color == c.palette.coral));
        match out[2] {
            Wave::Jolt {
                at,
                color,
                strength,
            } => {
                assert_eq!(at, c.hands[0]);
                assert_eq!(color, c.palette.hurt, "you lost: your hurt");
                assert!(strength >= 2.0);
            }
            ref other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_win_on_time_has_no_blow_and_a_draw_a_quiet_surge() {
        let c = ctx();
        let out = waves_for(
            &[Event::Over {
                winner: Some(0),
                why: Ending::Time,
            }],
            &c,
        );
        assert_eq!(out.len(), 2);
        assert_eq!(ring_of(&out[0]).1, c.palette.gold);
        let draw = waves_for(
            &[Event::Over {
                winner: None,
                why: Ending::Full,
            }],
            &c,
        );
        assert!(matches!(draw[..], [Wave::Surge { color, .. }] if color == c.palette.light));
    }

    #[test]
    fn a_start_a_turn_and_a_swap_stir_the_sea_a_little() {
        let c = ctx();
        let k = Kana::from_char('か').unwrap();
        let out = waves_for(
            &[
                Event::Started,
                Event::Turned {
                    player: 1,
                    slot: 0,
                    kana: k,
                },
                Event::Swapped {
                    player: 0,
                    slot: 2,
                    kana: k,
                },
            ],
            &c,
        );
        assert!(matches!(out[0], Wave::Surge { .. }));
        let (strength, _, _, at) = ring_of(&out[1]);
        assert!(strength < 0.5);
        assert_eq!(at, c.hands[1]);
        assert!(matches!(out[2], Wave::Shudder { at, .. } if at == c.hands[0]));
        assert!(waves_for(&[], &c).is_empty());
    }
}
