//! The lobby: players looking for a match. A quick match pairs the next two in line; a named
//! room is opened under a short code and joined by it.
//!
//! A player waiting is already in a room of their own, seat 0, so a quick match and a named
//! room are the same thing until the second player sits down. The lobby's lock is always
//! taken before a room's, never after.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use jengine_kotoba::net::{MAX_CODE, Rejection, ToClient};
use rand::Rng;
use rand_pcg::Pcg64;

use crate::room::{self, Hall, Room, RoomRef, Seat};
use crate::wire;

/// Letters and digits a code is made of: no 0/O or 1/I to misread.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/// A code's length while few rooms are named; longer ones once short ones start to collide.
const SHORT_CODE: usize = 4;

/// Rooms waiting for a second player, in line and by code.
pub(crate) struct Lobby {
    /// Quick-match rooms, oldest first. A room whose player left is skipped when reached.
    quick: VecDeque<RoomRef>,
    /// Named rooms by code, until they close.
    named: HashMap<String, RoomRef>,
    /// The stream codes are drawn from.
    codes: Pcg64,
    next_room: u64,
}

impl Lobby {
    pub fn new(codes: Pcg64) -> Lobby {
        Lobby {
            quick: VecDeque::new(),
            named: HashMap::new(),
            codes,
            next_room: 1,
        }
    }

    /// A code no open room here has.
    pub fn fresh_code(&mut self) -> String {
        let mut len = SHORT_CODE;
        for attempt in 0.. {
            if attempt == 16 {
                len = MAX_CODE;
            }
            let code: String = (0..len)
                .map(|_| CODE_ALPHABET[self.codes.random_range(0..CODE_ALPHABET.len())] as char)
                .collect();
            if !self.named.contains_key(&code) {
                return code;
            }
        }
        unreachable!("the loop above returns")
    }

    pub fn open(&mut self, hall: &Hall, code: Option<String>, first: Seat) -> Option<RoomRef> {
        if !hall.room_opened() {
            return None;
        }
        let id = self.next_room;
        self.next_room += 1;
        Some(Arc::new(std::sync::Mutex::new(Room::new(id, code, first))))
    }
}

/// Locks the lobby; a task that panicked holding it leaves it as it was.
fn lock(lobby: &Mutex<Lobby>) -> MutexGuard<'_, Lobby> {
    lobby.lock().unwrap_or_else(|e| e.into_inner())
}

/// Where a player sits after the lobby has placed them.
pub(crate) type Placed = (RoomRef, usize);

/// A quick match: the player takes the seat of the next one waiting, or waits first.
pub(crate) fn queue(hall: &Arc<Hall>, lobby: &Mutex<Lobby>, me: Seat) -> Result<Placed, Rejection> {
    let mut lobby = lock(lobby);
    while let Some(room) = lobby.quick.pop_front() {
        let mut r = room::lock(&room);
        if r.waiting() {
            r.sit_and_start(hall, &room, me);
            drop(r);
            return Ok((room, 1));
        }
    }
    let out = me.out.clone();
    let room = lobby.open(hall, None, me).ok_or(Rejection::Busy)?;
    lobby.quick.push_back(Arc::clone(&room));
    wire::send(&out, &ToClient::Waiting { code: None });
    Ok((room, 0))
}

/// A named room: the player waits in it under a fresh code, told to them to pass on.
pub(crate) fn create(
    hall: &Arc<Hall>,
    lobby: &Mutex<Lobby>,
    me: Seat,
    code: Option<String>,
) -> Result<Placed, Rejection> {
    let mut lobby = lock(lobby);
    let code = code.unwrap_or_else(|| lobby.fresh_code());
    let out = me.out.clone();
    let room = lobby
        .open(hall, Some(code.clone()), me)
        .ok_or(Rejection::Busy)?;
    lobby.named.insert(code.clone(), Arc::clone(&room));
    wire::send(&out, &ToClient::Waiting { code: Some(code) });
    Ok((room, 0))
}

/// Joins the named room with this code (letters in either case) and starts its match.
pub(crate) fn join(
    hall: &Arc<Hall>,
    lobby: &Mutex<Lobby>,
    me: Seat,
    code: &str,
) -> Result<Placed, Rejection> {
    let lobby = lock(lobby);
    let room = lobby
        .named
        .get(&code.to_ascii_uppercase())
        .cloned()
        .ok_or(Rejection::NoSuchRoom)?;
    let mut r = room::lock(&room);
    if r.closed() {
        return Err(Rejection::NoSuchRoom);
    }
    if !r.waiting() {
        return Err(Rejection::Full);
    }
    r.sit_and_start(hall, &room, me);
    drop(r);
    Ok((room, 1))
}

/// Forgets a room that has closed, so its code can be used again.
pub(crate) fn forget(lobby: &Mutex<Lobby>, code: &str) {
    lock(lobby).named.remove(code);
}

/// A fresh code for a named room, to open in the fleet's lobby before the room is made.
pub(crate) fn fresh_code(lobby: &Mutex<Lobby>) -> String {
    lock(lobby).fresh_code()
}

/// The codes of the named rooms here still waiting for their second player.
pub(crate) fn waiting_codes(lobby: &Mutex<Lobby>) -> Vec<String> {
    lock(lobby)
        .named
        .iter()
        .filter(|(_, room)| room::lock(room).waiting())
        .map(|(code, _)| code.clone())
        .collect()
}

/// A quick-match room the fleet placed here, for the first of its two players to wait in.
pub(crate) fn open_placed(hall: &Hall, lobby: &Mutex<Lobby>, first: Seat) -> Option<RoomRef> {
    let out = first.out.clone();
    let room = lock(lobby).open(hall, None, first)?;
    wire::send(&out, &ToClient::Waiting { code: None });
    Some(room)
}
