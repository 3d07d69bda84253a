//! A reachable game: the rules a state reached by play always keeps, checked on every save after
//! its parts have each been matched to the dungeon.
//!
//! A save whose every cell fits its level can still be one no play reaches (a party of
//! corpses that walks on, a monster in the party's cell, a fight that runs to the stairs);
//! loading it would play on from nonsense, so it is refused like any other bad save. Play keeps
//! the same rules: a monster standing where the party lands is moved off first.

use std::collections::VecDeque;

use super::game::{Crawl, State};
use super::save::SaveError;

/// Which game is in play: one begun afresh, or one a save brought back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InPlay {
    /// Begun by `new_game` (or when the crawl started).
    New,
    /// Brought back by a good load.
    Loaded,
}

impl InPlay {
    /// `"new"` or `"loaded"`, as scripts read it.
    pub fn as_str(self) -> &'static str {
        match self {
            InPlay::New => "new",
            InPlay::Loaded => "loaded",
        }
    }
}

impl Crawl {
    /// Which game is in play: `new` after `new_game`, `loaded` after a good load.
    pub fn in_play(&self) -> InPlay {
        self.in_play
    }

    /// Moves a monster off the party's cell, to the nearest free cell it may stand on, so the
    /// party never shares a cell with one (it can land on stairs a monster wandered onto).
    pub(super) fn clear_landing(&mut self) {
        let s = &mut self.state;
        let floor = &mut s.floors[s.level];
        let party = (s.x, s.y);
        let Some(i) = floor.monster_at(party.0, party.1) else {
            return;
        };
        let mut seen = vec![false; floor.cells.len()];
        let index = |(x, y): (i32, i32)| (y * floor.width + x) as usize;
        let mut queue = VecDeque::from([party]);
        seen[index(party)] = true;
        while let Some((x, y)) = queue.pop_front() {
            for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
                let (nx, ny) = (x + dx, y + dy);
                if !floor.cell(nx, ny).is_walkable() || seen[index((nx, ny))] {
                    continue;
                }
                seen[index((nx, ny))] = true;
                if floor.monster_at(nx, ny).is_none() {
                    floor.monsters[i].x = nx;
                    floor.monsters[i].y = ny;
                    return;
                }
                queue.push_back((nx, ny));
            }
        }
    }
}

/// Refuses a rebuilt state that play could not have reached.
pub(super) fn check(state: &State) -> Result<(), SaveError> {
    let impossible = |m: String| Err(SaveError::Impossible(m));
    let all_down = !state.party.is_empty() && state.party.iter().all(|m| m.hp == 0);
    if all_down && !state.dead {
        return impossible("every member has 0 hp, but the party is not dead".into());
    }
    if state.dead {
        if let Some(m) = state.party.iter().find(|m| m.hp > 0) {
            return impossible(format!("the party is dead, but {} has {} hp", m.name, m.hp));
        }
        if state.party.is_empty() {
            return impossible("the party is dead, but there is no party to die".into());
        }
    }
    if state.dead && state.escaped {
        return impossible("the party is both dead and escaped".into());
    }
    for (level, floor) in state.floors.iter().enumerate() {
        for (i, m) in floor.monsters.iter().enumerate() {
            if floor.monsters[..i].iter().any(|o| (o.x, o.y) == (m.x, m.y)) {
                return Err(SaveError::Floor {
                    level,
                    x: m.x,
                    y: m.y,
                    problem: "two monsters stand on one cell".into(),
                });
            }
            if level == state.level && (m.x, m.y) == (state.x, state.y) {
                return Err(SaveError::Floor {
                    level,
                    x: m.x,
                    y: m.y,
                    problem: "a monster stands on the party's cell".into(),
                });
            }
        }
    }
    if let Some(fight) = &state.fight {
        let [fx, fy] = fight.from;
        // Its own cell when the party did not step into it (a sighting fought, a rest cut).
        if (fx - state.x).abs() + (fy - state.y).abs() > 1 {
            return Err(SaveError::Floor {
                level: state.level,
                x: fx,
                y: fy,
                problem: "the fight's way back is neither the party's cell nor one next to it"
                    .into(),
            });
        }
    }
    // The stream's increment is odd by construction (`stream * 2 + 1`); an even one is a
    // hand-made stream.
    let rng = serde_json::to_value(&state.rng).unwrap_or_default();
    if rng["increment"].as_u64().is_some_and(|inc| inc % 2 == 0) {
        return impossible("the random stream's increment is even, which no seed gives".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::Save;
    use crate::map::Tables;
    use serde_json::json;

    /// A hall with two rats, a fixed fight two steps east and stairs down, and a cellar below.
    fn game() -> Crawl {
        let levels = json!([
            { "name": "Hall", "map": ["#########",
                                      "#<..M..M#",
                                      "#.......#",
                                      "#......>#",
                                      "#########"],
              "monsters": ["rat"], "start": [1, 1], "facing": "east",
              "encounters": [{ "at": [3, 1], "group": "kobolds", "text": "Kobolds!" }] },
            { "name": "Cellar", "map": ["#####", "#<.>#", "#####"] }
        ]);
        let monsters = json!([{ "name": "rat", "hp": 5, "attack": 1, "sight": 1 }]);
        let crawlers = json!([{ "name": "Vess", "hp": 12 }, { "name": "Orm", "hp": 9 }]);
        let tables = Tables::from_json(
            &levels.to_string(),
            &monsters.to_string(),
            &crawlers.to_string(),
        )
        .unwrap();
        Crawl::new(tables, 5)
    }

    fn refused(c: &mut Crawl, save: &Save) -> String {
        let before = c.save();
        let e = c.restore(save).unwrap_err().to_string();
        assert_eq!(c.save(), before, "{e}: the game is untouched");
        e
    }

    #[test]
    fn a_party_of_corpses_that_is_not_dead_is_refused() {
        let mut c = game();
        let mut save = c.save();
        save.hp = vec![0, 0];
        assert_eq!(
            refused(&mut c, &save),
            "the save could not come from play: every member has 0 hp, but the party is not dead"
        );
        save.dead = true;
        assert!(c.restore(&save).is_ok(), "dead and down is a lost game");
        let mut c = game();
        let mut save = c.save();
        save.dead = true;
        assert_eq!(
            refused(&mut c, &save),
            "the save could not come from play: the party is dead, but Vess has 12 hp"
        );
    }

    #[test]
    fn dead_and_escaped_together_is_refused() {
        let mut c = game();
        let mut save = c.save();
        save.hp = vec![0, 0];
        save.dead = true;
        save.escaped = true;
        assert_eq!(
            refused(&mut c, &save),
            "the save could not come from play: the party is both dead and escaped"
        );
    }

    #[test]
    fn a_monster_on_the_party_or_on_another_monster_is_refused() {
        let mut c = game();
        let mut save = c.save();
        save.floors[0].monsters[0].x = 1;
        save.floors[0].monsters[0].y = 1;
        assert_eq!(
            refused(&mut c, &save),
            "the save's level 0, cell 1, row 1: a monster stands on the party's cell"
        );
        let mut save = c.save();
        let (x, y) = (save.floors[0].monsters[0].x, save.floors[0].monsters[0].y);
        save.floors[0].monsters[1].x = x;
        save.floors[0].monsters[1].y = y;
        assert_eq!(
            refused(&mut c, &save),
            format!("the save's level 0, cell {x}, row {y}: two monsters stand on one cell")
        );
    }

    #[test]
    fn a_fight_whose_way_back_is_not_beside_the_party_is_refused() {
        let mut c = game();
        c.walk(0, 1);
        c.walk(0, 1);
        let fight = c.state().encounter.expect("the kobolds are on (3, 1)");
        assert_eq!(fight.from, [2, 1]);
        let good = c.save();
        let mut other = game();
        assert!(other.restore(&good).is_ok(), "a fight in progress loads");
        // The way back forged to the stairs down: running would carry the party there.
        let mut forged = good.clone();
        forged.encounter.as_mut().unwrap().from = [7, 3];
        assert_eq!(
            refused(&mut other, &forged),
            "the save's level 0, cell 7, row 3: the fight's way back is neither the party's cell nor one next to it"
        );
        // The party's own cell is a way back: a group fought where it was spotted.
        forged.encounter.as_mut().unwrap().from = [3, 1];
        assert!(other.restore(&forged).is_ok());
    }

    #[test]
    fn an_even_increment_in_the_random_stream_is_refused() {
        let mut c = game();
        let save = c.save();
        let mut value = serde_json::to_value(&save).unwrap();
        let inc = value["rng"]["increment"].as_u64().unwrap();
        assert_eq!(inc % 2, 1, "a seeded stream's increment is odd");
        value["rng"]["increment"] = json!(inc - 1);
        let forged: Save = serde_json::from_value(value).unwrap();
        assert_eq!(
            refused(&mut c, &forged),
            "the save could not come from play: the random stream's increment is even, which no \
             seed gives"
        );
    }

    #[test]
    fn the_game_in_play_is_new_until_a_good_load_and_new_again_after_new_game() {
        let mut c = game();
        assert_eq!(c.in_play(), InPlay::New);
        let save = c.save();
        let mut bad = save.clone();
        bad.hp = vec![0, 0];
        assert!(c.restore(&bad).is_err());
        assert_eq!(
            c.in_play().as_str(),
            "new",
            "a refused load changes nothing"
        );
        c.restore(&save).unwrap();
        assert_eq!(c.in_play().as_str(), "loaded");
        c.new_game(None);
        assert_eq!(c.in_play().as_str(), "new");
    }

    #[test]
    fn a_monster_on_the_stairs_the_party_lands_on_steps_off_them() {
        let mut c = game();
        // The party in the cellar, a rat wandered onto the hall's stairs down.
        c.state.level = 1;
        c.state.x = 1;
        c.state.y = 1;
        c.state.floors[0].monsters[1].x = 7;
        c.state.floors[0].monsters[1].y = 3;
        c.use_ahead();
        assert_eq!((c.state().level, c.state().x, c.state().y), (0, 7, 3));
        let rat = &c.state.floors[0].monsters[1];
        assert_ne!((rat.x, rat.y), (7, 3));
        assert_eq!(
            (rat.x - 7).abs() + (rat.y - 3).abs(),
            1,
            "the nearest free cell"
        );
        let mut other = game();
        assert!(
            other.restore(&c.save()).is_ok(),
            "and the game saves soundly"
        );
    }
}
