//! The protocol played end to end: a small room and two mirrors through postcard, every
//! message and its caps, and damaged bytes.

use serde::Serialize;

use super::check::check_word;
use super::*;
use crate::battle::FighterSpec;
use crate::battle::{Battle, Move, RestoreError, Setup, Snapshot};
use crate::board::{Board, BoardError, Pos};
use crate::bot::legal_moves;
use crate::content::BATTLE_BOARD_NAME;
use crate::dict::Dict;
use crate::kana::{Kana, TileStats};
use crate::play::{Ending, Failure};
use crate::play::{Event, MAX_HAND, MadeWord, Refusal};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use serde::de::DeserializeOwned;

/// A tenth of a second: how often the room sends its state.
const DT: f32 = 0.1;

fn dict() -> Dict {
    Dict::parse(
        "さかな\t魚\tfish\nかな\t仮名\tkana\nなつ\t夏\tsummer\nさか\t坂\tslope\n\
         いか\t烏賊\tsquid\nいぬ\t犬\tdog\nさけ\t鮭\tsalmon\nかさ\t傘\tumbrella\n\
         なか\t中\tinside\nかい\t貝\tshellfish\nいし\t石\tstone\nしか\t鹿\tdeer\n",
    )
    .unwrap()
}

fn k(c: char) -> Kana {
    Kana::from_char(c).unwrap()
}

fn fighter(name: &str, life: u32) -> FighterSpec {
    FighterSpec {
        name: name.into(),
        life,
        hand: 5,
        bot: None,
    }
}

/// さか in the middle of a 6x5 board, fighting at once.
fn small_setup() -> Setup {
    Setup {
        board: Board::from_rows(&["......", "......", "..さか..", "......", "......"]).unwrap(),
        fighters: [fighter("あ", 60), fighter("い", 60)],
        time: 60.0,
        seed: 1,
        countdown: false,
    }
}

/// Two words on a 10x8 board, with a countdown; life enough that no one is knocked out.
fn big_setup(seed: u64) -> Setup {
    Setup {
        board: Board::from_rows(&[
            "..........",
            "..........",
            "...さかな....",
            "..........",
            "....いぬ....",
            "..........",
            "..........",
            "..........",
        ])
        .unwrap(),
        fighters: [fighter("あお", 5000), fighter("あか", 5000)],
        time: 120.0,
        seed,
        countdown: true,
    }
}

/// Through the wire and back, as the transport would carry it.
fn wire<T: Serialize + DeserializeOwned>(msg: &T) -> T {
    postcard::from_bytes(&postcard::to_allocvec(msg).unwrap()).unwrap()
}

/// The room's side, as small as it can be: one battle, moves applied as they are heard.
struct Room {
    battle: Battle,
    acked: [u32; 2],
}

impl Room {
    fn new(dict: &Dict, setup: &Setup) -> Room {
        let mut battle = Battle::new(setup, &TileStats::from_dict(dict)).unwrap();
        battle.take_events();
        Room {
            battle,
            acked: [0; 2],
        }
    }

    fn hear(&mut self, dict: &Dict, seat: usize, msg: ToServer) -> Option<Result<(), Refusal>> {
        let msg = wire(&msg);
        msg.validate().unwrap();
        let ToServer::Play { number, mv } = msg else {
            return None;
        };
        assert!(
            number > self.acked[seat],
            "{number} after {}",
            self.acked[seat]
        );
        self.acked[seat] = number;
        Some(self.battle.apply(dict, seat, mv))
    }

    fn state(&self, seat: usize) -> State {
        let state = wire(&state_for(&self.battle, self.acked[seat]));
        ToClient::State(state.clone()).validate().unwrap();
        state
    }

    /// Sets the hands, as if the room had dealt them.
    fn deal(&mut self, hands: [&str; 2]) {
        let mut s = self.battle.snapshot();
        for (f, hand) in s.fighters.iter_mut().zip(hands) {
            f.hand = crate::kana::parse_kana(hand).unwrap();
        }
        self.battle.restore(&s).unwrap();
    }
}

fn mirrors(dict: &Dict, setup: &Setup) -> [Mirror; 2] {
    [0, 1].map(|seat| Mirror::new(dict, &wire(&start_for(setup, BATTLE_BOARD_NAME, seat))).unwrap())
}

fn place(slot: usize, x: usize, y: usize, face: char) -> Move {
    Move::Place {
        slot,
        pos: Pos::new(x, y),
        face: k(face),
    }
}

/// The battle with every tile in hand showing its first face: turns are the player's own.
fn unturned(mut s: Snapshot) -> Snapshot {
    for f in &mut s.fighters {
        for t in &mut f.hand {
            *t = t.base();
        }
    }
    s
}

#[test]
fn a_mirror_starts_as_the_battle_the_room_set_up() {
    let d = dict();
    let mut setup = big_setup(7);
    // A bot seat plays in the room; the mirror only sees its moves.
    setup.fighters[1].bot = Some(crate::bot::Skill {
        sight: 1.0,
        think: 1.0,
    });
    let room = Room::new(&d, &setup);
    for (seat, m) in mirrors(&d, &setup).iter().enumerate() {
        assert_eq!(m.seat(), seat);
        assert_eq!(m.battle().snapshot(), room.battle.snapshot());
        assert!(!m.battle().fighters()[1].is_bot());
        assert!(m.pending().is_empty());
        assert_eq!(m.next_number(), 1);
    }
}

/// Two players on their own latencies: each plays legal moves on its mirror as soon as it
/// sees them, the room applies what it hears in arrival order and sends its state every
/// tenth of a second. A tile the room takes never blinks on its player's mirror, from the
/// moment it was played; and once everything is answered both mirrors are the room's
/// battle. (A tile the room refuses may go, and so may one played against it, since the
/// word it made may be gone with it.)
/// The room's state to `seat` as the server sends it: whole the first time, then as a change
/// to the last one sent, and nothing on a beat whose only news is the clocks, but for every
/// tenth beat.
fn as_sent(sent: &mut Option<State>, now: State, tick: u32) -> Option<ToClient> {
    let msg = match sent
        .as_ref()
        .and_then(|before| Some((before, Delta::between(before, &now)?)))
    {
        Some((before, delta)) if delta.clocks_only(before.acked) && !tick.is_multiple_of(10) => {
            return None;
        }
        Some((_, delta)) => ToClient::Delta(delta),
        None => ToClient::State(now.clone()),
    };
    *sent = Some(now);
    Some(msg)
}

fn exchange(seed: u64, latency: [u32; 2], deltas: bool) {
    let d = Dict::japanese();
    let stats = TileStats::from_dict(d);
    let setup = big_setup(seed);
    let mut room = Room::new(d, &setup);
    let mut players = mirrors(d, &setup);
    let mut rng = Pcg32::seed_from_u64(seed);
    // (arrives at tick, seat, message), in the order sent.
    let mut up: Vec<(u32, usize, ToServer)> = Vec::new();
    let mut down: Vec<(u32, usize, ToClient)> = Vec::new();
    // (seat, number, cell, whether its cell has been seen empty since).
    let mut predicted: Vec<(usize, u32, Pos, bool)> = Vec::new();
    let mut taken: Vec<(usize, u32)> = Vec::new();
    let mut sent: [Option<State>; 2] = [None, None];
    for tick in 0..400 {
        // The room hears what has arrived, first come first served.
        up.sort_by_key(|m| m.0);
        let (heard, later): (Vec<_>, _) = up.into_iter().partition(|m| m.0 <= tick);
        up = later;
        for (_, seat, msg) in heard {
            let number = match msg {
                ToServer::Play { number, .. } => number,
                _ => 0,
            };
            if room.hear(d, seat, msg) == Some(Ok(())) {
                taken.push((seat, number));
            }
        }
        room.battle.update(d, DT);
        for msg in events_for(room.battle.take_events()) {
            msg.validate().unwrap();
        }
        for (seat, lag) in latency.iter().enumerate() {
            let msg = if deltas {
                as_sent(&mut sent[seat], room.state(seat), tick)
            } else {
                Some(ToClient::State(room.state(seat)))
            };
            if let Some(msg) = msg {
                msg.validate().unwrap();
                down.push((tick + lag, seat, msg));
            }
        }
        // The players hear the room, and play.
        let (heard, later): (Vec<_>, _) = down.into_iter().partition(|m| m.0 <= tick);
        down = later;
        for (_, seat, msg) in heard {
            match wire(&msg) {
                ToClient::State(state) => players[seat].apply_state(d, &state).unwrap(),
                ToClient::Delta(delta) => players[seat].apply_delta(d, &delta).unwrap(),
                _ => {}
            }
        }
        for (seat, m) in players.iter_mut().enumerate() {
            m.update(d, DT);
            for (_, _, pos, blinked) in predicted.iter_mut().filter(|p| p.0 == seat) {
                *blinked |= m.board().kana(*pos).is_none();
            }
            if m.battle().phase() != Phase::Fight || m.fighters()[seat].stun > 0.0 {
                continue;
            }
            let roll = rng.random_range(0..10);
            if roll < 3 {
                let moves: Vec<_> = legal_moves(m.board(), d, &stats, m.hand())
                    .into_iter()
                    .filter(|lm| !m.guessed(lm.slot))
                    .collect();
                if moves.is_empty() {
                    continue;
                }
                let lm = moves[rng.random_range(0..moves.len())];
                let mv = Move::Place {
                    slot: lm.slot,
                    pos: lm.pos,
                    face: lm.face,
                };
                let msg = m.play(d, mv).unwrap().unwrap();
                assert_eq!(m.board().kana(lm.pos), Some(lm.face), "down at once");
                predicted.push((seat, m.next_number() - 1, lm.pos, false));
                up.push((tick + latency[seat], seat, msg));
            } else if roll == 3 {
                // A turn stays on the mirror; a swap goes to the room.
                let slot = rng.random_range(0..m.hand().len());
                assert_eq!(m.play(d, Move::Turn { slot }).unwrap(), None);
                if !m.guessed(slot) && rng.random_bool(0.2) {
                    let msg = m.play(d, Move::Swap { slot }).unwrap().unwrap();
                    up.push((tick + latency[seat], seat, msg));
                }
            }
        }
    }
    // Everything arrives; the room answers once more and says nothing after.
    for (_, seat, msg) in up.drain(..) {
        room.hear(d, seat, msg);
    }
    for (seat, m) in players.iter_mut().enumerate() {
        m.apply_state(d, &room.state(seat)).unwrap();
        assert!(m.pending().is_empty());
        assert_eq!(room.acked[seat] + 1, m.next_number());
        assert_eq!(
            unturned(m.battle().snapshot()),
            room.battle.snapshot(),
            "seat {seat}"
        );
    }
    assert!(taken.len() > 20, "only {} placements", taken.len());
    for (seat, number, pos, blinked) in predicted {
        if taken.contains(&(seat, number)) {
            assert!(!blinked, "seat {seat}'s move {number} at {pos:?} blinked");
        }
    }
}

#[test]
fn a_served_battle_and_its_mirrors_stay_equal() {
    exchange(1, [1, 1], false);
    exchange(2, [2, 5], false);
    exchange(3, [6, 3], false);
}

/// The same with states sent as the server sends them: changes to the last one, and no beat
/// that only runs the clocks but one in ten.
#[test]
fn a_battle_served_as_changes_and_its_mirrors_stay_equal() {
    exchange(1, [1, 1], true);
    exchange(2, [2, 5], true);
    exchange(3, [6, 3], true);
}

#[test]
fn a_change_with_no_state_before_it_changes_nothing() {
    let d = dict();
    let setup = small_setup();
    let room = Room::new(&d, &setup);
    let [mut m, _] = mirrors(&d, &setup);
    let before = m.battle().clone();
    let delta = Delta::between(&room.state(0), &room.state(0)).unwrap();
    assert_eq!(
        m.apply_delta(&d, &delta).unwrap_err().to_string(),
        "Delta is a change; it must be to a state the room sent before it"
    );
    assert_eq!(m.battle(), &before);
}

#[test]
fn two_players_racing_for_one_cell_the_first_heard_wins() {
    let d = dict();
    let setup = small_setup();
    let mut room = Room::new(&d, &setup);
    let [mut a, mut b] = mirrors(&d, &setup);
    // Both can finish the row at (4, 2): な for さかな, さ for かさ.
    room.deal(["なけけけけ", "さけけけけ"]);
    a.apply_state(&d, &room.state(0)).unwrap();
    b.apply_state(&d, &room.state(1)).unwrap();
    let from_a = a.play(&d, place(0, 4, 2, 'な')).unwrap().unwrap();
    let from_b = b.play(&d, place(0, 4, 2, 'さ')).unwrap().unwrap();
    assert_eq!(a.board().kana(Pos::new(4, 2)), Some(k('な')));
    assert_eq!(b.board().kana(Pos::new(4, 2)), Some(k('さ')));
    // The room hears a first.
    assert_eq!(room.hear(&d, 0, from_a), Some(Ok(())));
    // A state that has not heard b yet: b's tile gives way to a's at once.
    b.apply_state(&d, &room.state(1)).unwrap();
    assert_eq!(b.board().kana(Pos::new(4, 2)), Some(k('な')));
    assert!(!b.pending()[0].shown);
    assert_eq!(b.hand()[0], k('さ'));
    assert_eq!(room.hear(&d, 1, from_b), Some(Err(Refusal::Taken)));
    for (seat, m) in [&mut a, &mut b].into_iter().enumerate() {
        m.apply_state(&d, &room.state(seat)).unwrap();
        assert!(m.pending().is_empty());
        assert_eq!(m.board().kana(Pos::new(4, 2)), Some(k('な')));
        assert_eq!(m.battle().snapshot(), room.battle.snapshot());
    }
    // b still holds its さ, and a scored.
    assert_eq!(b.hand()[0], k('さ'));
    assert!(a.fighters()[0].score > 0 && b.fighters()[1].score == 0);
}

#[test]
fn a_state_acking_a_refused_move_drops_the_prediction() {
    let d = dict();
    let setup = small_setup();
    let mut room = Room::new(&d, &setup);
    let [mut a, _] = mirrors(&d, &setup);
    room.deal(["なけけけけ", "けけけけけ"]);
    a.apply_state(&d, &room.state(0)).unwrap();
    let before = a.battle().snapshot();
    let sent = a.play(&d, place(0, 4, 2, 'な')).unwrap().unwrap();
    assert_eq!(a.board().kana(Pos::new(4, 2)), Some(k('な')));
    assert!(a.guessed(0));
    // The room had swapped that tile away before the move came: it refuses it.
    room.deal(["いけけけけ", "けけけけけ"]);
    assert_eq!(room.hear(&d, 0, sent), Some(Err(Refusal::NoTile)));
    a.apply_state(&d, &room.state(0)).unwrap();
    assert!(a.pending().is_empty());
    assert!(!a.guessed(0));
    assert_eq!(a.board(), &before.board);
    assert_eq!(a.hand()[0], k('い'));
    assert_eq!(a.battle().snapshot(), room.battle.snapshot());
}

#[test]
fn pending_placements_are_played_again_in_number_order() {
    let d = dict();
    let setup = small_setup();
    let mut room = Room::new(&d, &setup);
    let [mut a, mut b] = mirrors(&d, &setup);
    room.deal(["なつけけけ", "いけけけけ"]);
    a.apply_state(&d, &room.state(0)).unwrap();
    b.apply_state(&d, &room.state(1)).unwrap();
    // つ at (5, 2) reads なつ only once な is down at (4, 2).
    let first = a.play(&d, place(0, 4, 2, 'な')).unwrap().unwrap();
    let second = a.play(&d, place(1, 5, 2, 'つ')).unwrap().unwrap();
    assert_eq!(
        a.pending().iter().map(|p| p.number).collect::<Vec<_>>(),
        [1, 2]
    );
    // Meanwhile b's いか goes down, and the room tells a before hearing a's moves.
    let from_b = b.play(&d, place(0, 3, 1, 'い')).unwrap().unwrap();
    room.hear(&d, 1, from_b);
    a.apply_state(&d, &room.state(0)).unwrap();
    assert_eq!(a.board().rows()[1..3], ["...い..", "..さかなつ"]);
    assert!(a.pending().iter().all(|p| p.shown));
    // The room hears the first: the second is still played on top.
    room.hear(&d, 0, first);
    a.apply_state(&d, &room.state(0)).unwrap();
    assert_eq!(a.pending().len(), 1);
    assert_eq!(a.board().rows()[2], "..さかなつ");
    room.hear(&d, 0, second);
    a.apply_state(&d, &room.state(0)).unwrap();
    assert!(a.pending().is_empty());
    assert_eq!(a.battle().snapshot(), room.battle.snapshot());
}

#[test]
fn a_turn_stays_on_the_mirror_and_a_placement_carries_its_face() {
    let d = dict();
    let setup = small_setup();
    let mut room = Room::new(&d, &setup);
    let [mut a, _] = mirrors(&d, &setup);
    room.deal(["はかけけけ", "けけけけけ"]);
    a.apply_state(&d, &room.state(0)).unwrap();
    assert_eq!(a.play(&d, Move::Turn { slot: 0 }), Ok(None));
    assert_eq!(a.turn(&d, 0), Ok(k('ぱ')));
    // The room's word does not undo it, and the room never heard of it.
    a.apply_state(&d, &room.state(0)).unwrap();
    assert_eq!(a.hand()[0], k('ぱ'));
    assert_eq!(room.battle.fighters()[0].hand()[0], k('は'));
    // Once the slot holds another tile, the face goes with the old one.
    room.deal(["かかけけけ", "けけけけけ"]);
    a.apply_state(&d, &room.state(0)).unwrap();
    assert_eq!(a.hand()[0], k('か'));
    a.turn(&d, 1).unwrap();
    let Some(ToServer::Play { mv, .. }) = a.play(&d, place(1, 1, 2, 'が')).unwrap() else {
        panic!("a placement is sent");
    };
    // No word has が there: auto-form puts it down as か, but the move says what was shown.
    assert_eq!(mv, place(1, 1, 2, 'が'));
    let turn = ToServer::Play {
        number: 9,
        mv: Move::Turn { slot: 0 },
    };
    assert!(turn.validate().is_err());
}

#[test]
fn predicted_numbers_rise_and_only_placements_are_predicted() {
    let d = dict();
    let setup = small_setup();
    let mut room = Room::new(&d, &setup);
    let [mut a, _] = mirrors(&d, &setup);
    room.deal(["ななけけけ", "けけけけけ"]);
    a.apply_state(&d, &room.state(0)).unwrap();
    a.predict_place(&d, 5, place(0, 4, 2, 'な')).unwrap();
    assert_eq!(a.next_number(), 6);
    assert_eq!(
        a.predict_place(&d, 5, place(1, 1, 2, 'な')),
        Err(Unpredicted::Number { number: 5, last: 5 })
    );
    assert_eq!(
        a.predict_place(&d, 6, Move::Swap { slot: 1 }),
        Err(Unpredicted::NotAPlacement)
    );
    // Refused on the mirror: nothing pending, nothing changed, the number not used.
    let before = a.battle().snapshot();
    assert_eq!(
        a.predict_place(&d, 6, place(1, 4, 2, 'な')),
        Err(Unpredicted::Refused(Refusal::Taken))
    );
    assert_eq!(
        a.play(&d, place(1, 0, 0, 'な')),
        Err(Refusal::NotNextToKana)
    );
    assert_eq!(a.battle().snapshot(), before);
    assert_eq!(a.pending().len(), 1);
    assert_eq!(a.next_number(), 6);
    // A room that has answered up to 9 gets 10 next.
    room.acked[0] = 9;
    a.apply_state(&d, &room.state(0)).unwrap();
    assert!(a.pending().is_empty());
    assert_eq!(a.next_number(), 10);
}

#[test]
fn a_state_that_is_not_this_battle_changes_nothing() {
    let d = dict();
    let setup = small_setup();
    let room = Room::new(&d, &setup);
    let [mut a, _] = mirrors(&d, &setup);
    a.play(&d, Move::Swap { slot: 2 }).unwrap();
    let before = (a.battle().snapshot(), a.pending().to_vec());
    let mut other = room.state(0);
    other.board = vec!["さか".into()];
    assert!(matches!(
        a.apply_state(&d, &other),
        Err(Invalid::Restore(RestoreError::BoardSize { .. }))
    ));
    let mut other = room.state(0);
    other.fighters[1].hp = 61;
    other.acked = 1;
    assert!(a.apply_state(&d, &other).is_err());
    let mut other = room.state(0);
    other.board[0] = "..x...".into();
    assert!(matches!(
        a.apply_state(&d, &other),
        Err(Invalid::Board { .. })
    ));
    assert_eq!((a.battle().snapshot(), a.pending().to_vec()), before);
}

#[test]
fn events_go_out_in_order_a_message_at_a_time() {
    let events: Vec<Event> = (0..150).map(|n| Event::Countdown(n % 4)).collect();
    let msgs = events_for(events.clone());
    assert_eq!(msgs.len(), 3);
    let mut back = Vec::new();
    for msg in msgs {
        msg.validate().unwrap();
        let ToClient::Ev { events } = msg else {
            panic!("not an Ev")
        };
        back.extend(events);
    }
    assert_eq!(back, events);
}

#[test]
fn every_word_of_the_dictionary_fits_an_event() {
    let d = Dict::japanese();
    for (i, e) in d.entries().iter().enumerate() {
        let word = MadeWord {
            reading: e.reading_text(),
            written: e.written.clone(),
            meaning: e.meaning.clone(),
            points: 1,
            cells: vec![Pos::new(0, 0); e.reading.len().min(MAX_SIDE)],
        };
        check_word("word", &word).unwrap_or_else(|err| panic!("entry {i}: {err}"));
    }
}

/// One of every message, taken from a battle that has been played a little.
fn every_message() -> Vec<(ToClient, ToServer)> {
    let d = dict();
    let setup = small_setup();
    let mut room = Room::new(&d, &setup);
    room.deal(["なけけけけ", "いけけけけ"]);
    room.battle.apply(&d, 0, place(0, 4, 2, 'な')).unwrap();
    room.battle.apply(&d, 1, Move::Swap { slot: 3 }).unwrap();
    room.battle.apply(&d, 1, place(0, 4, 2, 'い')).unwrap_err();
    room.battle.update(&d, 0.3);
    let events = room.battle.take_events();
    assert!(room.battle.fighters()[0].best.is_some());
    let over = Event::Over {
        winner: None,
        why: Ending::Time,
    };
    vec![
        (
            ToClient::Waiting {
                code: Some("K7Q2".into()),
            },
            ToServer::Hello {
                version: VERSION,
                name: "ことだま".into(),
            },
        ),
        (ToClient::Waiting { code: None }, ToServer::Queue),
        (
            ToClient::Refused {
                why: Rejection::Version { server: VERSION },
            },
            ToServer::Create,
        ),
        (
            ToClient::Refused {
                why: Rejection::Full,
            },
            ToServer::Join {
                code: "K7Q2".into(),
            },
        ),
        (
            ToClient::Start(start_for(&setup, BATTLE_BOARD_NAME, 1)),
            ToServer::Play {
                number: 1,
                mv: place(3, 4, 2, 'が'),
            },
        ),
        (
            ToClient::State(state_for(&room.battle, 7)),
            ToServer::Play {
                number: u32::MAX,
                mv: Move::Swap { slot: 11 },
            },
        ),
        (ToClient::Ev { events }, ToServer::Again),
        (ToClient::Ev { events: vec![over] }, ToServer::Leave),
        (
            ToClient::Again {
                asked: [true, false],
            },
            ToServer::Again,
        ),
        (ToClient::Left { why: Gone::Lost }, ToServer::Leave),
        (
            ToClient::Redirect(redirect()),
            ToServer::Claim {
                reservation: "9f86d081884c7d659a2feaa0c55ad015".into(),
            },
        ),
        (
            ToClient::Refused {
                why: Rejection::NoSuchSeat,
            },
            ToServer::Rejoin {
                ticket: "ab".repeat(24),
            },
        ),
        (
            ToClient::Refused {
                why: Rejection::LobbyDown,
            },
            ToServer::Queue,
        ),
        (
            ToClient::Delta(
                Delta::between(&state_for(&Room::new(&d, &setup).battle, 0), &room.state(0))
                    .expect("one battle's two moments"),
            ),
            ToServer::Leave,
        ),
    ]
}

fn redirect() -> Redirect {
    Redirect {
        address: "ws://10.0.4.17:7777/".into(),
        reservation: "9f86d081884c7d659a2feaa0c55ad015".into(),
        seconds: 10.0,
    }
}

#[test]
fn a_redirect_refuses_what_no_server_would_send() {
    let bad = |r: Redirect| ToClient::Redirect(r).validate().unwrap_err().to_string();
    let long = format!("ws://{}/", "a".repeat(MAX_ADDRESS));
    assert_eq!(
        bad(Redirect {
            address: long,
            ..redirect()
        }),
        "Redirect.address has 262 bytes; the most is 256"
    );
    for address in [
        "",
        "ws://",
        "ws:///path",
        "http://10.0.4.17:7777/",
        "wss://x",
        "ws://a b/",
        "ws://a\nb/",
        "ws://a\u{7}/",
    ] {
        let why = bad(Redirect {
            address: address.into(),
            ..redirect()
        });
        assert!(
            why.starts_with("Redirect.address is "),
            "{address:?}: {why}"
        );
    }
    for reservation in [
        String::new(),
        "not-hex".to_string(),
        "g".repeat(32),
        "a".repeat(MAX_TICKET + 1),
    ] {
        let why = bad(Redirect {
            reservation: reservation.clone(),
            ..redirect()
        });
        assert!(
            why.starts_with("Redirect.reservation "),
            "{reservation:?}: {why}"
        );
    }
    for seconds in [f32::NAN, f32::INFINITY, -1.0, MAX_TIME + 1.0] {
        let why = bad(Redirect {
            seconds,
            ..redirect()
        });
        assert!(why.starts_with("Redirect.seconds is "), "{seconds}: {why}");
    }
    for reservation in ["", "zz", "1234567890abcdef-"] {
        let claim = ToServer::Claim {
            reservation: reservation.into(),
        };
        assert!(
            claim
                .validate()
                .unwrap_err()
                .to_string()
                .starts_with("Claim.reservation is "),
            "{reservation:?}"
        );
    }
    assert_eq!(
        ToServer::Claim {
            reservation: "f".repeat(65)
        }
        .validate()
        .unwrap_err()
        .to_string(),
        "Claim.reservation has 65 characters; the most is 64"
    );
}

#[test]
fn every_message_goes_through_postcard_and_back() {
    let all = every_message();
    for (to_client, to_server) in &all {
        to_client.validate().unwrap();
        to_server.validate().unwrap();
        assert_eq!(&wire(to_client), to_client);
        assert_eq!(&wire(to_server), to_server);
    }
    // A state of a 6x5 board is small enough to send ten times a second.
    let state = postcard::to_allocvec(&all[5].0).unwrap();
    assert!(state.len() < 256, "{} bytes", state.len());
}

/// Scripts speak the `kotoba` protocol as tables: every message made a table reads back as
/// itself, which is the path a script's `Online.send` and a frame handed to scripts take.
#[test]
fn every_message_goes_through_a_scripts_table_and_back() {
    assert_eq!(u32::from(WIRE), VERSION);
    for (to_client, to_server) in every_message() {
        let table = serde_json::to_value(&to_client).unwrap();
        assert_eq!(
            serde_json::from_value::<ToClient>(table).unwrap(),
            to_client
        );
        let table = serde_json::to_value(&to_server).unwrap();
        assert_eq!(
            serde_json::from_value::<ToServer>(table).unwrap(),
            to_server
        );
    }
}

#[test]
fn validation_names_the_field() {
    let d = dict();
    let setup = small_setup();
    let room = Room::new(&d, &setup);
    let mut state = room.state(0);
    state.fighters[1].stun = f32::NAN;
    assert_eq!(
        ToClient::State(state).validate().unwrap_err().to_string(),
        "State.fighters[1].stun is NaN; it must be a number of seconds from 0 to 2"
    );
    let mut start = start_for(&setup, BATTLE_BOARD_NAME, 0);
    start.seat = 2;
    assert_eq!(
        start.validate().unwrap_err().to_string(),
        "Start.seat is 2; it must be 0 or 1"
    );
    let hello = ToServer::Hello {
        version: VERSION,
        name: "あ".repeat(MAX_NAME + 1),
    };
    assert_eq!(
        hello.validate().unwrap_err().to_string(),
        "Hello.name has 17 characters; the most is 16"
    );
    for bad in ["", "  ", "a\u{7}b"] {
        let hello = ToServer::Hello {
            version: VERSION,
            name: bad.into(),
        };
        assert!(hello.validate().is_err(), "{bad:?}");
    }
    for bad in ["", "AB-1", "ABCDEFGHI"] {
        assert!(
            ToServer::Join { code: bad.into() }.validate().is_err(),
            "{bad:?}"
        );
    }
    let puzzle = ToClient::Ev {
        events: vec![Event::Failed {
            why: Failure::Stuck,
        }],
    };
    assert_eq!(
        puzzle.validate().unwrap_err().to_string(),
        "Ev.events[0] is a puzzle's event; it must be a battle's event"
    );
    let mut start = start_for(&setup, BATTLE_BOARD_NAME, 0);
    start.board = vec!["...".into(), "..".into()];
    assert_eq!(
        start.validate().unwrap_err().to_string(),
        "Start.board: row 2 has 2 cells, but the first row has 3"
    );
    assert_eq!(
        Board::from_rows(&start_for(&setup, BATTLE_BOARD_NAME, 0).board),
        Ok(setup.board)
    );
}

fn any_kana() -> impl Strategy<Value = Kana> {
    prop::sample::select(Kana::all().collect::<Vec<_>>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn decoding_any_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        if let Ok(msg) = postcard::from_bytes::<ToClient>(&bytes) {
            let _ = msg.validate();
        }
        if let Ok(msg) = postcard::from_bytes::<ToServer>(&bytes) {
            let _ = msg.validate();
        }
    }

    #[test]
    fn decoding_a_damaged_message_never_panics(
        which in 0usize..13,
        changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        let d = dict();
        let (to_client, to_server) = &every_message()[which];
        for mut bytes in [
            postcard::to_allocvec(to_client).unwrap(),
            postcard::to_allocvec(to_server).unwrap(),
        ] {
            for (at, byte) in &changes {
                let i = at.index(bytes.len());
                bytes[i] = *byte;
            }
            bytes.truncate(cut.index(bytes.len() + 1));
            if let Ok(msg) = postcard::from_bytes::<ToClient>(&bytes)
                && msg.validate().is_ok()
            {
                // A valid message is safe to hand to a mirror, too.
                match msg {
                    ToClient::Start(start) => {
                        Mirror::new(&d, &start).unwrap();
                    }
                    ToClient::State(state) => {
                        let mut m = Mirror::new(&d, &start_for(&small_setup(), BATTLE_BOARD_NAME, 0)).unwrap();
                        let _ = m.apply_state(&d, &state);
                    }
                    _ => {}
                }
            }
            if let Ok(msg) = postcard::from_bytes::<ToServer>(&bytes) {
                let _ = msg.validate();
            }
        }
    }

    #[test]
    fn validate_refuses_every_field_over_its_cap(
        extra in 1usize..40,
        face in any_kana(),
    ) {
        let setup = small_setup();
        let mut room_state = state_for(&Battle::new(&setup, &TileStats::from_dict(&dict())).unwrap(), 0);
        let name = "な".repeat(MAX_NAME + extra);
        let too_long = |r: Result<(), Invalid>| matches!(r, Err(Invalid::TooLong { .. }));
        let hello = ToServer::Hello { version: VERSION, name: name.clone() };
        prop_assert!(too_long(hello.validate()));
        let join = ToServer::Join { code: "A".repeat(MAX_CODE + extra) };
        prop_assert!(too_long(join.validate()));
        let waiting = ToClient::Waiting { code: Some("7".repeat(MAX_CODE + extra)) };
        prop_assert!(too_long(waiting.validate()));
        let mut start = start_for(&setup, BATTLE_BOARD_NAME, 0);
        start.fighters[1].name = name;
        prop_assert!(too_long(start.validate()));
        let mut start = start_for(&setup, BATTLE_BOARD_NAME, 0);
        start.board_name = "ば".repeat(MAX_NAME + extra);
        prop_assert!(too_long(start.validate()));
        for bad in ["", "  ", "ひろ\u{7}ば"] {
            start.board_name = bad.into();
            prop_assert!(start.validate().is_err());
        }
        let mut start = start_for(&setup, BATTLE_BOARD_NAME, 0);
        start.fighters[0].hand = MAX_HAND + extra;
        prop_assert!(start.validate().is_err());
        let mut start = start_for(&setup, BATTLE_BOARD_NAME, 1);
        start.board = vec![".".repeat(MAX_SIDE + extra); 3];
        let wide = start.validate();
        let too_big = matches!(wide, Err(Invalid::Board { error: BoardError::TooBig { .. }, .. }));
        prop_assert!(too_big);
        start.board = vec!["..".into(); MAX_SIDE + extra];
        prop_assert!(too_long(start.validate()));
        let mut state = room_state.clone();
        state.fighters[0].hand = vec![face; MAX_HAND + extra];
        prop_assert!(too_long(ToClient::State(state).validate()));
        let word = MadeWord {
            reading: "さかな".into(),
            written: "魚".into(),
            meaning: "f".repeat(MAX_TEXT + extra),
            points: 3,
            cells: vec![Pos::new(2, 2)],
        };
        room_state.fighters[1].best = Some(word.clone());
        prop_assert!(too_long(ToClient::State(room_state).validate()));
        let placed = |words: Vec<MadeWord>| ToClient::Ev { events: vec![Event::Placed {
            player: 0, pos: Pos::new(2, 2), kana: face, points: 1, damage: 1, combo: 0, words,
        }] };
        prop_assert!(too_long(placed(vec![word]).validate()));
        let fine = MadeWord { meaning: "fish".into(), ..placed_word() };
        prop_assert!(placed(vec![fine.clone()]).validate().is_ok());
        prop_assert!(too_long(placed(vec![fine.clone(); MAX_WORDS + extra]).validate()));
        let long = MadeWord { cells: vec![Pos::new(0, 0); MAX_SIDE + extra], ..fine };
        prop_assert!(too_long(placed(vec![long]).validate()));
        let events = vec![Event::Started; MAX_EVENTS + extra];
        let many = ToClient::Ev { events };
        prop_assert!(too_long(many.validate()));
        let far = ToServer::Play { number: 1, mv: Move::Place {
            slot: 0, pos: Pos::new(MAX_SIDE + extra, 0), face,
        } };
        prop_assert!(far.validate().is_err());
        let slot = ToServer::Play { number: 1, mv: Move::Swap { slot: MAX_HAND + extra } };
        prop_assert!(slot.validate().is_err());
    }
}

fn placed_word() -> MadeWord {
    MadeWord {
        reading: "さかな".into(),
        written: "魚".into(),
        meaning: "fish".into(),
        points: 3,
        cells: vec![Pos::new(2, 2), Pos::new(3, 2), Pos::new(4, 2)],
    }
}
