//! Seven Stairs (`projects/rpg-classics`) on the crawl, the other way round: the game keeps its
//! party and fights in menus (Lua), and the package walks, remembers and announces. Here: the
//! levels load with every fight reachable, the game's plain rules pass their Lua tests, and the
//! whole game is played from the title to the ending by an input file.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

use jengine_crawler::Tables;
use jengine_testkit::{Game, InputScript, Options};
use rpg_classics_tests::{PACKAGES, data as read, open, project};

#[test]
fn the_stairs_load_as_seven_floors_with_no_party_to_hurt() {
    let tables = Tables::from_json(&read("stairs_levels"), "[]", "[]")
        .unwrap_or_else(|e| panic!("the levels: {e}"));
    let game = jengine_crawler::Crawl::new(tables, 1);
    assert_eq!(game.state().levels, 7);
    assert!(game.state().party.is_empty());
}

/// `tests/rules_test.lua` in the game's own sandbox: `import` finds the rules under
/// `assets/scripts/` as the game's scripts do, and `Data.table` reads the project's tables.
#[test]
fn the_games_rules_pass_their_lua_tests() {
    jengine_testkit::lua::assert_pass(
        &project(),
        PACKAGES,
        &project().join("tests/rules_test.lua"),
        21,
    );
}

/// Frames per key press: down, up, and two for the command's answer to reach the scripts.
const EVERY: u64 = 4;

/// The floors as drawn in `data/stairs_levels.json`.
fn floors() -> Vec<Vec<Vec<u8>>> {
    let levels: serde_json::Value = serde_json::from_str(&read("stairs_levels")).unwrap();
    levels
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            l["map"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().as_bytes().to_vec())
                .collect()
        })
        .collect()
}

const FACINGS: [(&str, (i32, i32)); 4] = [
    ("north", (0, -1)),
    ("east", (1, 0)),
    ("south", (0, 1)),
    ("west", (-1, 0)),
];

fn facing_index(name: &str) -> usize {
    FACINGS.iter().position(|(n, _)| *n == name).unwrap()
}

/// What the player means to do next on a floor.
#[derive(Clone, Copy, Debug)]
enum Goal {
    /// Stand here, facing this way (`None`: any), then press Space.
    Use((i32, i32), Option<&'static str>),
    /// Step onto this cell (a fixed fight waits there, a plate, or a pit).
    StepOn((i32, i32)),
    /// Stand here facing this way and search the walls for the secret door ahead.
    Find((i32, i32), &'static str),
}

/// A player at the keyboard: presses keys, reads the screen's state, and keeps every press
/// so the game can be replayed from an input file.
struct Player {
    game: Game,
    keys: Vec<(u64, &'static str)>,
    floors: Vec<Vec<Vec<u8>>>,
    /// Run from the next random fight.
    run_next: bool,
    fights: usize,
    fled: usize,
    shots: Vec<&'static str>,
    /// Secret doors found, by floor and cell.
    found: Vec<(usize, (i32, i32))>,
    /// Teleporters by floor: the `T` and where it sends the party on the same floor.
    jumps: Vec<HashMap<(i32, i32), (i32, i32)>>,
    /// Trips back up to the inn because the party was low.
    trips: usize,
}

impl Player {
    fn new(options: Options) -> Player {
        // A key (or a click) is down a frame, up a frame, and given two more.
        let game = open(options).settling(EVERY as usize - 2);
        Player {
            game,
            keys: Vec::new(),
            floors: floors(),
            run_next: false,
            fights: 0,
            fled: 0,
            shots: Vec::new(),
            found: Vec::new(),
            jumps: teleports(),
            trips: 0,
        }
    }

    fn idle(&mut self, frames: usize) {
        self.game.settle(frames);
    }

    fn press(&mut self, key: &'static str) {
        self.keys.push((self.game.rt.frame(), key));
        self.game.key(key);
    }

    fn presses(&mut self, keys: &[&'static str]) {
        for k in keys {
            self.press(k);
        }
    }

    fn crawl(&self) -> serde_json::Value {
        self.game.bag("crawl", "CrawlState")
    }

    fn live(&self) -> serde_json::Value {
        self.game.saved("stairs_live").unwrap_or_default()
    }

    fn shot(&mut self, name: &'static str) {
        if !self.shots.contains(&name) {
            self.shots.push(name);
            self.game.golden(name);
        }
    }

    fn at(&self) -> (usize, (i32, i32), usize) {
        let s = self.crawl();
        (
            s["level"].as_u64().unwrap() as usize,
            (
                s["x"].as_i64().unwrap() as i32,
                s["y"].as_i64().unwrap() as i32,
            ),
            facing_index(s["facing"].as_str().unwrap()),
        )
    }

    /// Fights whatever waits: everyone does the sensible thing, round after round (or the
    /// party runs, once, when asked to).
    fn fight(&mut self) {
        let random = self.crawl()["encounter"]["fixed"].is_null();
        let run = self.run_next && random;
        for round in 0..200 {
            if self.game.scene() != "crawl" || self.crawl()["encounter"].is_null() {
                if run {
                    self.fled += 1;
                    self.run_next = false;
                } else {
                    self.fights += 1;
                }
                // After a fight, the priests and the potions patch the party up.
                if self.game.scene() == "crawl" {
                    self.press("h");
                }
                return;
            }
            if round == 1 && !random {
                // The first fixed fight: the kobolds near, their slingers behind.
                self.shot("stairs_combat");
            }
            self.press(if run { "r" } else { "f" });
            if self.game.scene() != "crawl" {
                continue;
            }
            let living = self.live()["party"]
                .as_array()
                .map(|p| p.iter().filter(|m| m["status"] != "dead").count())
                .unwrap_or(0);
            assert!(
                living > 0,
                "the party fell: {}\n{}",
                self.log(),
                self.live()["party"]
            );
        }
        let warnings = self.game.warnings();
        panic!(
            "a fight that never ends: {}\n{warnings:#?}\n{}",
            self.log(),
            self.live()["party"]
        );
    }

    fn log(&self) -> String {
        (1..=8)
            .map(|i| self.game.text(&format!("line_{i}")))
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// The first step of a shortest way from `from` to `to` on floor `level`, through doors,
    /// secret doors once found and teleporters, never over a fixed fight's cell or a pit unless
    /// it is the goal.
    fn first_step(&self, level: usize, from: (i32, i32), to: (i32, i32)) -> Option<(i32, i32)> {
        let map = &self.floors[level];
        let won = self.crawl()["save"]["floors"][level]["won"].clone();
        let fights: Vec<(i32, i32)> = fixed_fights(level)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !won.as_array().is_some_and(|w| w.contains(&(*i).into())))
            .map(|(_, at)| at)
            .collect();
        let open = |x: i32, y: i32| {
            let c = map
                .get(y as usize)
                .and_then(|r| r.get(x as usize))
                .copied()
                .unwrap_or(b'#');
            let blocked = match c {
                b'#' | b'C' | b'L' | b'B' => true,
                b'O' => (x, y) != to,
                b'S' => !self.found.contains(&(level, (x, y))),
                _ => false,
            };
            !blocked && ((x, y) == to || !fights.contains(&(x, y)))
        };
        // Nodes are where the party stands; each remembers the first cell stepped onto.
        let mut first: HashMap<(i32, i32), (i32, i32)> = HashMap::new();
        let mut queue = VecDeque::from([from]);
        first.insert(from, from);
        while let Some(at) = queue.pop_front() {
            if at == to {
                return Some(first[&at]);
            }
            for (_, (dx, dy)) in FACINGS {
                let next = (at.0 + dx, at.1 + dy);
                if !open(next.0, next.1) {
                    continue;
                }
                let stand = if next == to {
                    next
                } else {
                    self.jumps[level].get(&next).copied().unwrap_or(next)
                };
                if !first.contains_key(&stand) {
                    let step = if at == from { next } else { first[&at] };
                    first.insert(stand, step);
                    queue.push_back(stand);
                }
            }
        }
        None
    }

    fn turn_to(&mut self, want: usize) {
        loop {
            let (_, _, facing) = self.at();
            if facing == want {
                return;
            }
            let key = if (want + 4 - facing) % 4 == 3 {
                "left"
            } else {
                "right"
            };
            self.press(key);
        }
    }

    /// Walks to `to` on the floor the party is on, fighting what comes.
    fn walk_to(&mut self, to: (i32, i32)) {
        for _ in 0..400 {
            if self.game.scene() != "crawl" {
                return;
            }
            if !self.crawl()["encounter"].is_null() {
                self.fight();
                continue;
            }
            let (level, at, _) = self.at();
            if at == to {
                return;
            }
            let next = self
                .first_step(level, at, to)
                .unwrap_or_else(|| panic!("no way from {at:?} to {to:?} on floor {level}"));
            let dir = FACINGS
                .iter()
                .position(|(_, d)| (at.0 + d.0, at.1 + d.1) == next)
                .unwrap();
            self.turn_to(dir);
            if matches!(
                self.crawl()["use_does"].as_str(),
                Some("open" | "unlock" | "locked")
            ) {
                self.press("space");
            }
            self.press("up");
            if self.at().0 != level {
                // A pit or a teleporter took the party to another floor.
                return;
            }
            if !self.crawl()["encounter"].is_null() {
                self.fight();
            }
        }
        panic!("never reached {to:?}: {}", self.log());
    }

    fn reach(&mut self, goal: Goal) {
        match goal {
            Goal::StepOn(cell) => {
                self.walk_to(cell);
                if !self.crawl()["encounter"].is_null() {
                    self.fight();
                }
            }
            Goal::Use(cell, face) => {
                self.walk_to(cell);
                if let Some(f) = face {
                    self.turn_to(facing_index(f));
                }
                self.press("space");
            }
            Goal::Find(cell, face) => {
                self.walk_to(cell);
                self.turn_to(facing_index(face));
                self.press("x"); // search the walls
                let (level, at, facing) = self.at();
                let (dx, dy) = FACINGS[facing].1;
                let door = (at.0 + dx, at.1 + dy);
                assert!(
                    self.crawl()["use_does"] == "open",
                    "no secret door found at {door:?}: {}",
                    self.log()
                );
                self.found.push((level, door));
                self.idle(2);
                self.shot("stairs_secret_door");
            }
        }
    }

    /// Whether a person would go back to the inn: two down, half the hit points gone, or the
    /// casters' points spent (as the balance run's player judges it).
    fn low(&self) -> bool {
        self.below(0.5, 0.25)
    }

    /// Whether the living have less than `hp` of their hit points or their casters less than
    /// `sp` of their spell points, or two are down.
    fn below(&self, hp: f64, sp: f64) -> bool {
        let live = self.live();
        let party = live["party"].as_array().cloned().unwrap_or_default();
        let alive: Vec<&serde_json::Value> =
            party.iter().filter(|m| m["status"] != "dead").collect();
        let sum = |k: &str| {
            alive
                .iter()
                .map(|m| m[k].as_i64().unwrap_or(0))
                .sum::<i64>()
        };
        alive.len() + 1 < party.len()
            || (sum("hp") as f64) < hp * sum("max_hp") as f64
            || (sum("max_sp") > 0 && (sum("sp") as f64) < sp * sum("max_sp") as f64)
    }

    /// The party's gold as the game keeps it.
    fn gold(&self) -> i64 {
        self.live()["gold"].as_i64().unwrap_or(0)
    }

    /// Up every stair to the town from wherever the party stands.
    fn up_to_town(&mut self) {
        while self.game.scene() == "crawl" {
            let (level, _, _) = self.at();
            let up = find(&self.floors[level], b'<');
            self.reach(Goal::Use(up, None));
            self.idle(2);
            if self.game.scene() == "crawl" {
                assert!(self.at().0 < level, "up from floor {level}: {}", self.log());
            }
        }
        assert_eq!(self.game.scene(), "town", "the top stair leads out");
    }

    /// In town: the temple raises the dead the purse can pay for (and cures), the inn rests
    /// the party (and saves the game).
    fn rest_in_town(&mut self) {
        let party = self.live()["party"].as_array().cloned().unwrap_or_default();
        let costs: Vec<i64> = party
            .iter()
            .filter(|m| m["status"] != "ok")
            .map(|m| {
                if m["status"] == "dead" {
                    60 * m["level"].as_i64().unwrap_or(1)
                } else {
                    20
                }
            })
            .collect();
        if !costs.is_empty() {
            self.presses(&["down", "down", "down", "enter"]); // the temple
            for cost in costs {
                if self.gold() >= cost {
                    self.press("enter");
                } else {
                    self.press("down");
                }
            }
            self.press("escape");
        }
        self.presses(&["down", "enter", "enter"]); // the inn: rest (and save)
        assert!(self.game.saved("stairs_slot").is_some(), "the inn saved");
    }

    /// The shop, as the balance run's player shops: for each member the dearest upgrade the
    /// purse can spare beyond the next night's rest (armour first, then a weapon that reaches
    /// from the member's row), then healing potions up to six. Starts in the town, ends in the shop.
    fn shop(&mut self) {
        let items: serde_json::Value = serde_json::from_str(&read("stairs_items")).unwrap();
        let items = items.as_array().unwrap().clone();
        let index = |id: &str| items.iter().position(|it| it["id"] == id);
        let avg = |it: &serde_json::Value| {
            (it["damage"][0].as_i64().unwrap_or(0) + it["damage"][1].as_i64().unwrap_or(0)) as f64
                / 2.0
        };
        self.presses(&["down", "down", "enter"]); // the shop
        for pass in ["armor", "weapon"] {
            let party = self.live()["party"].as_array().cloned().unwrap_or_default();
            for (slot, m) in party.iter().enumerate() {
                let party = self.live()["party"].as_array().cloned().unwrap_or_default();
                let reserve: i64 = party
                    .iter()
                    .map(|m| 5 * m["level"].as_i64().unwrap_or(1))
                    .sum::<i64>()
                    + 20;
                let spare = self.gold() - reserve;
                let class = m["class"].as_str().unwrap_or("");
                let current = m[pass].as_str().and_then(&index).map(|i| &items[i]);
                let need = if slot >= 3 { 2 } else { 1 };
                let mut best: Option<usize> = None;
                for (i, it) in items.iter().enumerate() {
                    let usable = it["classes"]
                        .as_array()
                        .is_none_or(|c| c.iter().any(|c| c == class));
                    let price = it["price"].as_i64().unwrap_or(i64::MAX);
                    if it["kind"] != pass || !usable || price > spare {
                        continue;
                    }
                    let better = if pass == "armor" {
                        it["ac"].as_i64() > current.and_then(|c| c["ac"].as_i64()).or(Some(0))
                    } else {
                        let reach = current.and_then(|c| c["reach"].as_i64()).unwrap_or(1);
                        it["reach"].as_i64().unwrap_or(1) >= need
                            && (avg(it) > current.map(avg).unwrap_or(0.0) || reach < need)
                    };
                    if better && best.is_none_or(|b| price > items[b]["price"].as_i64().unwrap()) {
                        best = Some(i);
                    }
                }
                if let Some(i) = best {
                    for _ in 0..i {
                        self.press("down");
                    }
                    self.press("enter"); // buy: who takes it?
                    for _ in 0..slot {
                        self.press("down");
                    }
                    self.press("enter");
                }
            }
        }
        let potion = index("healing potion").unwrap();
        let price = items[potion]["price"].as_i64().unwrap();
        for _ in 0..potion {
            self.press("down");
        }
        for _ in 0..6 {
            let have = self.live()["pack"]["healing potion"].as_i64().unwrap_or(0);
            let party = self.live()["party"].as_array().cloned().unwrap_or_default();
            let reserve: i64 = party
                .iter()
                .map(|m| 5 * m["level"].as_i64().unwrap_or(1))
                .sum::<i64>()
                + 20;
            if have >= 6 || self.gold() - reserve < price {
                break;
            }
            self.press("enter");
        }
    }

    /// From the town (or a place in it) down the stairs into the crawl.
    fn go_down_from_town(&mut self) {
        self.press("escape");
        self.presses(&["down", "down", "down", "down", "enter"]); // down the stairs
        self.idle(2);
        assert_eq!(self.game.scene(), "crawl");
    }

    /// Down the remembered floors to floor `to`, by each floor's way down.
    fn down_to(&mut self, to: usize) {
        while self.at().0 < to {
            let level = self.at().0;
            self.descend();
            assert_eq!(
                self.at().0,
                level + 1,
                "down from floor {level}: {}",
                self.log()
            );
        }
    }

    /// Takes the floor's way down: its stairs, or where the route falls through a pit.
    fn descend(&mut self) {
        let level = self.at().0;
        match WAY_DOWN[level] {
            Some(pit) => self.reach(Goal::StepOn(pit)),
            None => {
                let down = find(&self.floors[level], b'>');
                self.reach(Goal::Use(down, None));
            }
        }
    }

    /// Goes to the inn and back when the party is low; true when it went.
    fn rest_if_low(&mut self) -> bool {
        if !self.low() {
            return false;
        }
        self.rest_trip()
    }

    /// Before the lich: back to the inn (and the fights on the way) until the party is nearly
    /// whole and seasoned, four trips at most.
    fn rest_if_worn(&mut self) {
        for _ in 0..4 {
            if !self.below(0.85, 0.7) && self.top_level() >= SEASONED {
                return;
            }
            self.rest_trip();
        }
    }

    /// The highest level in the party.
    fn top_level(&self) -> i64 {
        self.live()["party"]
            .as_array()
            .map(|p| {
                p.iter()
                    .filter_map(|m| m["level"].as_i64())
                    .max()
                    .unwrap_or(0)
            })
            .unwrap_or(0)
    }

    /// Up to the inn, rested, and back down to the floor the party left.
    fn rest_trip(&mut self) -> bool {
        let level = self.at().0;
        self.trips += 1;
        self.up_to_town();
        self.rest_in_town();
        self.press("escape");
        self.shop();
        self.go_down_from_town();
        self.down_to(level);
        true
    }
}

/// The level a person wants someone in the party to have before facing the lich.
const SEASONED: i64 = 8;

/// Where the route falls through a pit instead of taking the stairs down, by floor.
const WAY_DOWN: [Option<(i32, i32)>; 7] = [None, None, Some((6, 5)), None, None, None, None];

/// The first cell holding `c` on a floor.
fn find(floor: &[Vec<u8>], c: u8) -> (i32, i32) {
    for (y, row) in floor.iter().enumerate() {
        if let Some(x) = row.iter().position(|&b| b == c) {
            return (x as i32, y as i32);
        }
    }
    panic!("no {} on the floor", c as char)
}

/// Each floor's teleporters that stay on it: the `T` and its destination.
fn teleports() -> Vec<HashMap<(i32, i32), (i32, i32)>> {
    let levels: serde_json::Value = serde_json::from_str(&read("stairs_levels")).unwrap();
    let cell =
        |v: &serde_json::Value| (v[0].as_i64().unwrap() as i32, v[1].as_i64().unwrap() as i32);
    levels
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, l)| {
            l["teleports"]
                .as_array()
                .map(|list| {
                    list.iter()
                        .filter(|t| t["floor"].as_u64().is_none_or(|f| f as usize == i))
                        .map(|t| (cell(&t["at"]), cell(&t["to"])))
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect()
}

/// The fixed fights of a floor that are still there, from the levels table.
fn fixed_fights(level: usize) -> Vec<(i32, i32)> {
    let levels: serde_json::Value = serde_json::from_str(&read("stairs_levels")).unwrap();
    levels[level]["encounters"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|e| {
                    (
                        e["at"][0].as_i64().unwrap() as i32,
                        e["at"][1].as_i64().unwrap() as i32,
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// From the title: a party of six formed at the tavern, down the stairs.
fn form_party_and_go_down(p: &mut Player) {
    p.idle(5);
    p.press("enter"); // New game
    p.idle(2);
    assert_eq!(p.game.scene(), "town");
    p.shot("stairs_town");
    p.press("enter"); // the tavern
    p.presses(&[
        "enter", "enter", "down", "enter", "down", "enter", "down", "enter", "enter",
    ]);
    assert_eq!(
        p.live()["party"].as_array().unwrap().len(),
        6,
        "{}",
        p.live()
    );
    p.shot("stairs_tavern");
    p.press("escape");
    p.presses(&["down", "down", "down", "down", "enter"]); // down the stairs
    p.idle(2);
    let scene = p.game.scene().to_string();
    assert_eq!(scene, "crawl", "{:#?}", p.game.warnings());
}

/// The whole game as a player plays it, from the title to the ending: every floor's chests,
/// items and fights, its lever, key, secret door, teleporter, pit or plate on the way, and back
/// up to the inn whenever the party is low.
fn play_through(p: &mut Player, until_inn: bool) {
    form_party_and_go_down(p);
    // 1, the cellar stair: coins on the floor, both chests, a look at the map, the kobolds and
    // their slingers at the stair.
    p.reach(Goal::Use((3, 3), Some("east")));
    p.reach(Goal::Use((11, 1), Some("east")));
    p.reach(Goal::Use((6, 5), Some("south")));
    p.press("m");
    p.idle(2);
    p.shot("stairs_automap");
    p.press("m");
    p.walk_to((13, 6));
    p.turn_to(facing_index("south"));
    p.idle(2);
    p.shot("stairs_corridor");
    p.reach(Goal::StepOn((13, 8)));
    p.rest_if_low();
    p.descend();
    assert_eq!(p.at().0, 1, "down to the second floor");
    // 2, the wine cellar: run from the first random fight; the bronze key, a potion on the
    // floor, the gold, the cracked wall that hides a door, the kobold chief, the antidote.
    p.run_next = true;
    p.reach(Goal::Use((9, 4), Some("south")));
    p.reach(Goal::Use((3, 3), Some("north")));
    p.reach(Goal::Use((1, 8), Some("south")));
    p.reach(Goal::Find((11, 6), "south"));
    p.rest_if_low();
    p.reach(Goal::StepOn((12, 9)));
    p.reach(Goal::Use((13, 8), Some("north")));
    if until_inn {
        p.up_to_town();
        p.rest_in_town();
        return;
    }
    p.rest_if_low();
    p.descend();
    assert_eq!(p.at().0, 2, "down to the third floor");
    // 3, the brick vaults: the shamans, their chest, a scroll on the floor, a chest and the lever
    // that opens the vault gate, the skeletons before it; then down through the pit.
    p.reach(Goal::StepOn((11, 5)));
    p.reach(Goal::Use((11, 4), Some("north")));
    p.rest_if_low();
    p.reach(Goal::Use((5, 9), Some("north")));
    p.reach(Goal::Use((1, 8), Some("south")));
    p.reach(Goal::Use((1, 8), Some("north")));
    p.rest_if_low();
    p.reach(Goal::StepOn((9, 9)));
    p.rest_if_low();
    p.descend();
    assert_eq!(
        p.at(),
        (3, (6, 5), p.at().2),
        "the pit drops the party to the cell beneath"
    );
    // 4, the mossy deep: two chests and coins, then the teleporter into the captain's pocket.
    p.reach(Goal::Use((13, 2), Some("north")));
    p.reach(Goal::Use((12, 7), Some("east")));
    p.reach(Goal::Use((1, 8), Some("south")));
    p.rest_if_low();
    p.reach(Goal::StepOn((2, 1)));
    p.rest_if_low();
    p.descend();
    assert_eq!(p.at().0, 4, "down to the fifth floor");
    // 5, the ossuary: two chests, the necromancer at the lever, a potion beyond him, the crypt
    // gate.
    p.reach(Goal::Use((12, 1), Some("east")));
    p.reach(Goal::Use((1, 8), Some("south")));
    p.rest_if_low();
    p.reach(Goal::StepOn((7, 4)));
    p.reach(Goal::Use((7, 4), Some("south")));
    p.reach(Goal::Use((11, 5), Some("north")));
    p.rest_if_low();
    p.descend();
    assert_eq!(p.at().0, 5, "down to the sixth floor");
    // 6, the frozen halls: the silver key, coins past the dark, gold, the giant behind the ice
    // door.
    p.reach(Goal::Use((3, 4), Some("north")));
    p.reach(Goal::Use((9, 5), Some("north")));
    p.reach(Goal::Use((13, 8), Some("south")));
    p.rest_if_low();
    p.reach(Goal::StepOn((2, 9)));
    p.rest_if_low();
    p.descend();
    assert_eq!(p.at().0, 6, "down to the seventh floor");
    // 7, the seventh stair: the plate that opens the tomb gate, a chest, the death knights,
    // the button by the gate; rested, the lich.
    p.reach(Goal::StepOn((5, 5)));
    p.reach(Goal::Use((2, 7), Some("west")));
    p.rest_if_low();
    p.reach(Goal::StepOn((9, 8)));
    p.reach(Goal::Use((12, 7), Some("south")));
    p.rest_if_worn();
    p.walk_to((10, 9));
    p.turn_to(facing_index("east"));
    p.idle(2);
    p.shot("stairs_tomb");
    p.reach(Goal::StepOn((13, 9)));
    p.idle(3);
}

fn input_path() -> PathBuf {
    project().join("tests/inputs/stairs_playthrough.json")
}

/// The player forms a party and goes down the seven floors (every fixed fight and the random
/// ones won, one run from), through the secret door, the lever's gate, the pit, the teleporter,
/// the spinner, the dark, the named keys and the plate, going back up to the inn when low, and
/// wins the goal. What it pressed is the committed input file (`JENGINE_BLESS=1` rewrites it).
#[test]
fn a_player_goes_down_and_up_and_down_and_wins() {
    let mut p = Player::new(Options::default());
    play_through(&mut p, false);
    assert_eq!(p.game.scene(), "ending", "{}", p.log());
    eprintln!(
        "the route: {} fights won, {} run from, {} trips back to the inn, {} key presses",
        p.fights,
        p.fled,
        p.trips,
        p.keys.len()
    );
    assert!(p.fights >= 9, "fights won: {}", p.fights);
    assert_eq!(p.fled, 1, "one fight run from");
    assert_eq!(p.found.len(), 1, "the secret door found");
    let json = jengine_testkit::key_presses_json(&p.keys);
    jengine_testkit::inputs::assert_kept(&input_path(), &json);
}

/// The committed input file plays the game from the title to the ending.
#[test]
fn the_input_file_plays_from_the_title_to_the_ending() {
    let text_in = std::fs::read_to_string(input_path()).unwrap();
    let mut input = InputScript::parse(&text_in).unwrap();
    let mut game = open(Options::default());
    let last = input.last_frame().unwrap_or(0) + 20;
    for _ in 0..last {
        // An event written for frame N goes in with the step after frame N, as it was pressed.
        let events = input.due(game.rt.frame());
        game.step(&events);
    }
    assert_eq!(game.scene(), "ending");
    assert!(game.text("story").contains("The lich falls"));
    game.golden("stairs_ending");
}

/// Saved at the inn, loaded from the title: the floors are as they were (chests emptied, fights
/// won, the map remembered).
#[test]
fn a_game_saved_at_the_inn_loads_with_its_floors() {
    let dir = tempfile::tempdir().unwrap();
    let options = || Options {
        save_dir: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let mut p = Player::new(options());
    play_through(&mut p, true);
    let slot = p.game.saved("stairs_slot").unwrap();
    p.game.rt.finish();
    drop(p);
    let mut q = Player::new(options());
    q.idle(5);
    q.press("enter"); // Continue is focused when there is a save
    q.idle(2);
    assert_eq!(q.game.scene(), "town");
    assert_eq!(q.live()["party"], slot["party"]);
    q.presses(&["down", "down", "down", "down", "enter"]);
    q.idle(3);
    assert_eq!(q.game.scene(), "crawl");
    let s = q.crawl();
    assert_eq!(
        (s["level"].clone(), s["x"].clone(), s["y"].clone()),
        (0.into(), 1.into(), 1.into())
    );
    assert_eq!(
        s["save"]["floors"], slot["crawl"]["floors"],
        "the floors as they were"
    );
    assert_eq!(
        s["save"]["seen"], slot["crawl"]["seen"],
        "the map as it was"
    );
    let map = q.game.bags()["crawl"]["CrawlMap"]["rows"].clone();
    assert!(map[1].as_str().unwrap().contains("<"), "{map}");
}

/// A copy of the game whose items table is broken: the title lists the problems with file and
/// row, and New game stays shut.
#[test]
fn broken_data_is_listed_on_the_title_and_nothing_starts() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("stairs");
    let copy = |from: &Path, to: &Path| {
        std::fs::create_dir_all(to).unwrap();
        for f in std::fs::read_dir(from).unwrap() {
            let f = f.unwrap();
            if f.path().is_file() {
                std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
            }
        }
    };
    for sub in [
        "data",
        "assets/scenes",
        "assets/scripts",
        "assets/scripts/ui",
        "assets/scripts/rules",
        "assets/scripts/game",
        "assets/textures",
    ] {
        copy(&project().join(sub), &root.join(sub));
    }
    let crawler = std::fs::canonicalize(project().join("../../packages/jengine-crawler")).unwrap();
    let manifest = serde_json::json!({
        "name": "stairs-copy", "version": "0.1.0", "start_scene": "title",
        "window": { "width": 1280, "height": 720, "title": "copy" },
        "packages": [{ "name": "jengine-crawler", "source": { "type": "path", "path": crawler } }]
    });
    std::fs::write(root.join("project.jengine"), manifest.to_string()).unwrap();
    let items = read("stairs_items").replace(
        r#""damage": [
   3,
   8
  ]"#,
        r#""damage": [8, 3]"#,
    );
    assert!(items.contains("[8, 3]"), "the table was broken");
    std::fs::write(root.join("data/stairs_items.json"), items).unwrap();
    let mut game = Game::open(&root, PACKAGES, Options::default());
    game.settle(5);
    let problems = game.text("problems");
    assert!(
        problems.contains("data/stairs_items.json row 1 (long sword): damage must be [min, max]"),
        "{problems}"
    );
    game.key("enter");
    assert_eq!(
        game.scene(),
        "title",
        "New game does not start on broken data"
    );
    assert!(game.text("subtitle").contains("problems"));
}

/// A save slot tampered with (a party member whose hit points are text, gold below zero) is
/// said on the title, Continue stays shut, and New game still starts.
#[test]
fn a_tampered_save_is_said_and_nothing_loads_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let slot = serde_json::json!({
        "version": 1, "gold": 10, "pack": {}, "rng": { "s": 5 }, "town": {}, "fights": {},
        "party": [{ "name": "Aldric", "class": "fighter", "level": 1, "xp": 0, "hp": "lots",
                    "max_hp": 12, "sp": 0, "max_sp": 0, "agility": 10, "strength": 12 }]
    });
    std::fs::write(
        dir.path().join("save.json"),
        serde_json::json!({ "stairs_slot": slot }).to_string(),
    )
    .unwrap();
    let options = Options {
        save_dir: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let mut p = Player::new(options);
    p.idle(5);
    let said = p.game.text("subtitle");
    assert!(
        said.contains("cannot be played") && said.contains("party member 1's hp"),
        "{said}"
    );
    p.presses(&["down", "enter"]); // Continue: refused
    assert_eq!(p.game.scene(), "title");
    p.presses(&["up", "enter"]); // New game
    p.idle(2);
    assert_eq!(p.game.scene(), "town");
    assert_eq!(p.live()["party"], serde_json::json!([]));
    let said: Vec<String> = p.game.take_log().into_iter().map(|l| l.message).collect();
    assert!(said.is_empty(), "{said:?}");
}

/// The newest line of the log.
fn last_said(p: &Player) -> String {
    (1..=8)
        .map(|i| p.game.text(&format!("line_{i}")))
        .rfind(|l| !l.is_empty())
        .unwrap_or_default()
}

/// Walking into rock and Use with nothing to use answer in the log at once, and cost no step.
#[test]
fn a_bump_and_a_use_with_nothing_to_use_are_told() {
    let mut p = Player::new(Options::default());
    form_party_and_go_down(&mut p);
    // On the stair up facing east: rock behind and to the left.
    p.press("down");
    assert_eq!(last_said(&p), "You bump into the wall.", "{}", p.log());
    p.press("up");
    p.press("q");
    assert_eq!(last_said(&p), "You bump into the wall.", "{}", p.log());
    p.press("space");
    assert_eq!(
        last_said(&p),
        "There is nothing here to use.",
        "{}",
        p.log()
    );
    assert_eq!(p.crawl()["tick"], 1, "only the step took time");
}

/// The walk is heard: a footfall for a step, a thud for a bump, and the deep's ambience.
#[test]
fn a_step_sounds_a_footfall_and_a_bump_a_thud() {
    let mut p = Player::new(Options::default());
    form_party_and_go_down(&mut p);
    let before = p.game.heard_count();
    p.press("up");
    assert_eq!(p.game.heard_since(before), ["step.wav"], "{}", p.log());
    let before = p.game.heard_count();
    p.press("down");
    p.press("down");
    let after = p.game.heard_since(before);
    assert_eq!(
        after.last().map(String::as_str),
        Some("bump.wav"),
        "{after:?}"
    );
}

/// Esc pauses the walk (the pointer's Pause button too); Resume goes back to walking, and
/// "Back to the title" leaves with the crawl saved as it stood.
#[test]
fn escape_pauses_the_crawl_and_the_pause_leads_back_to_the_title() {
    let mut p = Player::new(Options::default());
    form_party_and_go_down(&mut p);
    p.press("up");
    let stood = p.crawl();
    p.press("escape");
    assert_eq!(p.game.text("menu_1"), "Resume (Esc)");
    assert!(p.game.text("menu_2").starts_with("Back to the title"));
    // Nothing walks while paused.
    p.press("up");
    assert_eq!(p.crawl()["tick"], 1);
    p.press("escape");
    assert_eq!(p.game.text("menu_1"), "Forward (Up)");
    // By the pointer: the Pause button, then Resume, then the pause again and the title.
    p.game.click("pause_row");
    assert_eq!(p.game.text("menu_1"), "Resume (Esc)");
    p.game.click("menu_row_1");
    assert_eq!(p.game.text("menu_1"), "Forward (Up)");
    p.press("escape");
    p.game.click("menu_row_2");
    p.idle(2);
    assert_eq!(p.game.scene(), "title");
    let kept = &p.live()["crawl"];
    for field in ["x", "y", "facing", "tick", "level"] {
        assert_eq!(
            kept[field], stood[field],
            "the crawl is saved as it stood: {field}"
        );
    }
}

/// The title is never still: its picture drifts and its light wavers.
#[test]
fn the_title_picture_drifts_and_flickers() {
    let mut p = Player::new(Options::default());
    let look = |p: &Player| {
        let e = p.game.entity("picture");
        let pos = p.game.centre("picture");
        let tint = p
            .game
            .world
            .entities
            .get::<&jengine::Sprite>(e)
            .unwrap()
            .tint;
        (pos[0], tint.0[0])
    };
    p.idle(30);
    let a = look(&p);
    p.idle(90);
    let b = look(&p);
    assert!((a.0 - b.0).abs() > 0.01, "it drifts: {a:?} {b:?}");
    assert!((a.1 - b.1).abs() > 0.001, "its light wavers: {a:?} {b:?}");
    // Never so far that an edge of the screen shows through.
    assert!(a.0.abs() <= 0.25 && b.0.abs() <= 0.25);
}

/// A save whose crawl the package refuses (here a party of none saved as dead): the crawl says
/// so plainly, never that the floors are as the party left them; the save file is byte for
/// byte as it was planted; and a new descent sets the refused crawl aside before it saves.
#[test]
fn a_refused_crawl_save_is_said_kept_byte_for_byte_and_a_new_descent_offered() {
    let dir = tempfile::tempdir().unwrap();
    let options = || Options {
        save_dir: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    // A party down the first stair, a step taken, saved by the game itself.
    let mut p = Player::new(options());
    form_party_and_go_down(&mut p);
    p.press("up");
    p.idle(2);
    p.game.rt.finish();
    drop(p);
    let file = dir.path().join("save.json");
    let mut save: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let mut live = save["stairs_live"].clone();
    assert!(live["crawl"].is_object(), "{live}");
    live["crawl"]["dead"] = true.into();
    // As if saved at the inn and quit at once: the slot and the game in play alike.
    save["stairs_live"] = live.clone();
    save["stairs_slot"] = live.clone();
    let planted = serde_json::to_vec_pretty(&save).unwrap();
    std::fs::write(&file, &planted).unwrap();

    let mut q = Player::new(options());
    q.idle(5);
    q.press("enter"); // Continue is focused when there is a save
    q.idle(2);
    assert_eq!(q.game.scene(), "town");
    q.presses(&["down", "down", "down", "down", "enter"]);
    q.idle(3);
    assert_eq!(q.game.scene(), "crawl");
    let log = q.log();
    assert!(
        log.contains("could not be loaded, and its save is kept as it was"),
        "{log}"
    );
    assert!(
        log.contains("Why: the save could not come from play: the party is dead"),
        "{log}"
    );
    assert!(!log.contains("as the party left it."), "{log}");
    assert_eq!(q.crawl()["save_in_play"], "new");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        planted,
        "the save file changed"
    );
    // Keys walk nowhere while the refusal stands.
    q.press("q");
    assert_eq!(q.crawl()["tick"], 0);
    assert_eq!(q.game.scene(), "crawl");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        planted,
        "the save file changed"
    );
    // A new descent: the refused crawl is set aside whole, the inn's slot untouched.
    q.press("enter");
    assert_eq!(q.game.scene(), "crawl");
    assert_eq!(
        q.game.rt.saved("stairs_refused"),
        Some(live["crawl"].clone())
    );
    assert!(
        q.log().contains("set aside as stairs_refused"),
        "{}",
        q.log()
    );
    q.press("up");
    q.idle(2);
    assert_eq!(q.crawl()["tick"], 1);
    assert_eq!(q.live()["crawl"]["tick"], 1, "the new descent saves");
    assert_eq!(q.game.rt.saved("stairs_slot"), Some(live.clone()));
    assert_eq!(
        q.game.rt.saved("stairs_refused"),
        Some(live["crawl"].clone())
    );
}

/// `jengine check` finds nothing wrong in Seven Stairs, script calls included.
#[test]
fn seven_stairs_checks_clean() {
    let report =
        jengine_tool::check::check(&rpg_classics_tests::project(), rpg_classics_tests::PACKAGES);
    assert!(report.ok(), "{:#?}", report.problems);
}
