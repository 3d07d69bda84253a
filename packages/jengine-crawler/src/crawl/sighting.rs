//! Groups seen before they are reached: a fixed fight, or a wandering group drawn where the
//! corridor ahead is long enough, standing within `sight` cells of the party and in its line of
//! sight is announced (`spotted`) once per approach, and the crawl waits for the game's answer.
//! Rests of several ticks live here too, because a wandering group is what cuts them short.
//!
//! In sight means ahead: at least one cell forward and no further to the side than forward (a
//! quarter of the compass either side of the facing), within `sight` either way, and
//! [`Dungeon::line_of_sight`](crate::map::Dungeon::line_of_sight) clear. A group is announced
//! again only after it has been out of sight. The only chance is the stream's, drawn as before.

use super::event::Event;
use super::game::{Crawl, Fight, Sighting, Spotted, Wanderer};
use super::monsters::path_step;
use crate::map::{Cell, Facing};
use rand::Rng;

/// What the game may answer a spotted group.
pub const ANSWERS: [&str; 5] = ["fight", "wait", "flee", "advance", "parley"];

impl Crawl {
    /// How far the party sees `at` from where it stands, if it sees it within `sight`.
    fn sees(&self, at: [i32; 2], sight: u32) -> Option<u32> {
        let s = &self.state;
        let floor = self.floor();
        let (dx, dy) = (at[0] - s.x, at[1] - s.y);
        let (ax, ay) = s.facing.ahead();
        let (rx, ry) = s.facing.right();
        let forward = dx * ax + dy * ay;
        let side = dx * rx + dy * ry;
        let distance = dx.abs().max(dy.abs()) as u32;
        let ahead = forward >= 1 && side.abs() <= forward && distance <= sight;
        let lit = *floor.cell(s.x, s.y) != Cell::Dark && *floor.cell(at[0], at[1]) != Cell::Dark;
        (ahead && lit && floor.line_of_sight((s.x, s.y), (at[0], at[1]))).then_some(distance)
    }

    /// Every group in sight now: the fixed fights not yet won and the wanderer.
    fn in_sight(&self) -> Vec<Spotted> {
        let level = &self.tables.levels[self.state.level];
        let floor = self.floor();
        let mut found = Vec::new();
        for (i, e) in floor.encounters.iter().enumerate() {
            let sight = e.spot.sight.unwrap_or(level.sight);
            if e.won || sight == 0 {
                continue;
            }
            if let Some(distance) = self.sees(e.spot.at, sight) {
                found.push(Spotted {
                    group: e.spot.group.clone(),
                    text: e.spot.text.clone(),
                    art: e.spot.art.clone(),
                    distance,
                    at: e.spot.at,
                    who: Sighting::Fixed(i),
                });
            }
        }
        if let Some(w) = &self.state.wanderer
            && let Some(distance) = self.sees(w.at, level.sight.max(1))
        {
            found.push(Spotted {
                group: w.group.clone(),
                text: String::new(),
                art: None,
                distance,
                at: w.at,
                who: Sighting::Wanderer,
            });
        }
        found
    }

    /// Looks for a group that has come into sight: the nearest not yet announced on this
    /// approach is announced and waits for an answer; a group out of sight may be announced
    /// again when it comes back into it.
    pub(super) fn spot(&mut self) {
        if self.halted() {
            return;
        }
        let seen = self.in_sight();
        let approach = &mut self.state.approach;
        approach.retain(|who| seen.iter().any(|s| s.who == *who));
        let Some(new) = seen
            .into_iter()
            .filter(|s| !approach.contains(&s.who))
            .min_by_key(|s| s.distance)
        else {
            return;
        };
        approach.push(new.who);
        self.announce(new);
    }

    fn announce(&mut self, spotted: Spotted) {
        self.events.push(Event::Spotted {
            group: spotted.group.clone(),
            text: spotted.text.clone(),
            art: spotted.art.clone(),
            distance: spotted.distance,
            x: spotted.at[0],
            y: spotted.at[1],
        });
        self.state.spotted = Some(spotted);
    }

    /// A wandering group drawn as the party steps from `from`. On a level that can be seen
    /// down (`sight`), it stands at the far end of the open corridor ahead, up to `sight`
    /// cells, when that is two cells or more; otherwise, or on a level without sight, the fight
    /// starts at once.
    pub(super) fn wandering_group(&mut self, group: String, from: [i32; 2]) {
        let sight = self.tables.levels[self.state.level].sight;
        if let Some(at) = self.far_end(sight) {
            self.state.wanderer = Some(Wanderer { group, at });
            return;
        }
        self.start_fight(Fight {
            group,
            text: String::new(),
            art: None,
            fixed: None,
            from,
            wanderer: false,
            parley: false,
        });
    }

    /// The furthest cell straight ahead, within `sight`, the way there all open floor with
    /// nothing standing on it; `None` nearer than two cells.
    fn far_end(&self, sight: u32) -> Option<[i32; 2]> {
        let s = &self.state;
        let floor = self.floor();
        let (ax, ay) = s.facing.ahead();
        let mut end = None;
        for d in 1..=sight as i32 {
            let (x, y) = (s.x + ax * d, s.y + ay * d);
            let free = matches!(floor.cell(x, y), Cell::Floor | Cell::Open | Cell::Arch)
                && floor.monster_at(x, y).is_none()
                && floor.encounters.iter().all(|e| e.spot.at != [x, y]);
            if !free {
                break;
            }
            if d >= 2 {
                end = Some([x, y]);
            }
        }
        end
    }

    /// The game answers the group spotted: `fight` starts the fight now (the party where it
    /// stands); `wait` lets it come a cell closer for a tick (next to the party, the fight
    /// starts; otherwise it is spotted again, nearer); `flee` steps the party back, away from
    /// it, for a tick; `advance` lets the party walk on (it is not announced again on this
    /// approach); `parley` announces `parley` and waits for `resolve`. Refused in words when no
    /// group is spotted, for another word, or a flight with nowhere to go.
    pub fn answer(&mut self, answer: &str) -> Result<&[Event], String> {
        let Some(spotted) = self.state.spotted.clone() else {
            return Err("no group has been spotted".into());
        };
        if !ANSWERS.contains(&answer) {
            return Err(format!(
                "\"{answer}\" is not an answer (fight, wait, flee, advance or parley)"
            ));
        }
        let flight = if answer == "flee" {
            Some(self.way_back(spotted.at).ok_or_else(|| {
                "nowhere to flee: the cells away from the group and behind the party are shut"
                    .to_string()
            })?)
        } else {
            None
        };
        self.events.clear();
        self.events.push(Event::Answered {
            answer: answer.to_string(),
        });
        self.state.spotted = None;
        let here = [self.state.x, self.state.y];
        let fight = Fight {
            group: spotted.group.clone(),
            text: spotted.text.clone(),
            art: spotted.art.clone(),
            fixed: match spotted.who {
                Sighting::Fixed(i) => Some(i),
                Sighting::Wanderer => None,
            },
            from: here,
            wanderer: spotted.who == Sighting::Wanderer,
            parley: false,
        };
        match answer {
            "fight" => self.start_fight(fight),
            "parley" => {
                self.events.push(Event::Parley {
                    group: spotted.group,
                    text: spotted.text,
                    art: spotted.art,
                    x: spotted.at[0],
                    y: spotted.at[1],
                });
                self.state.fight = Some(Fight {
                    parley: true,
                    ..fight
                });
            }
            "wait" => {
                let at = self.come_closer(&spotted);
                if (at[0] - here[0]).abs() + (at[1] - here[1]).abs() <= 1 {
                    self.start_fight(fight);
                } else {
                    self.spend_tick();
                    if !self.halted()
                        && let Some(nearer) =
                            self.in_sight().into_iter().find(|s| s.who == spotted.who)
                    {
                        self.announce(nearer);
                    }
                }
            }
            "flee" => {
                if let Some((x, y)) = flight {
                    self.state.x = x;
                    self.state.y = y;
                    self.state.tick += 1;
                    self.look_around();
                    self.enter(here);
                    if !self.halted() {
                        self.dungeon_turn();
                        self.spot();
                    }
                }
            }
            _ => {}
        }
        Ok(&self.events)
    }

    /// Moves the spotted group one cell toward the party (by the monsters' way), and says
    /// where it stands now.
    fn come_closer(&mut self, spotted: &Spotted) -> [i32; 2] {
        let party = (self.state.x, self.state.y);
        let from = (spotted.at[0], spotted.at[1]);
        let step = path_step(self.floor(), from, party);
        let Some((x, y)) = step else {
            return spotted.at;
        };
        let taken = self
            .floor()
            .encounters
            .iter()
            .any(|e| e.spot.at == [x, y] && !e.won);
        if taken {
            return spotted.at;
        }
        let s = &mut self.state;
        match spotted.who {
            Sighting::Fixed(i) => s.floors[s.level].encounters[i].spot.at = [x, y],
            Sighting::Wanderer => {
                if let Some(w) = s.wanderer.as_mut() {
                    w.at = [x, y];
                }
            }
        }
        [x, y]
    }

    /// Where fleeing from a group at `from` takes the party: a step directly away from it, else
    /// a step back from the way it faces; `None` when both are shut.
    fn way_back(&self, from: [i32; 2]) -> Option<(i32, i32)> {
        let s = &self.state;
        let floor = self.floor();
        let (dx, dy) = (s.x - from[0], s.y - from[1]);
        let away = if dx.abs() >= dy.abs() {
            (dx.signum(), 0)
        } else {
            (0, dy.signum())
        };
        let (ax, ay) = s.facing.ahead();
        [away, (-ax, -ay)]
            .into_iter()
            .filter(|&d| d != (0, 0))
            .map(|(mx, my)| (s.x + mx, s.y + my))
            .find(|&(x, y)| {
                let cell = floor.cell(x, y);
                cell.is_walkable() && floor.monster_at(x, y).is_none() && *cell != Cell::Pit
            })
    }

    /// Rests for up to `ticks` ticks, each healing the living by 1 and giving the dungeon its
    /// turn, and each (after that turn) drawing a wandering group with the level's
    /// `encounter_rate` from its `groups`. A group drawn, a group spotted or a bite ends the
    /// rest: `rest_interrupted` says who and after how many ticks, and the fight (or the
    /// sighting) follows. `rest()` is the old four ticks, which nothing interrupts.
    pub fn rest_for(&mut self, ticks: u32) -> &[Event] {
        self.events.clear();
        if self.halted() || ticks == 0 {
            return &self.events;
        }
        self.events.push(Event::Rested);
        for t in 1..=ticks {
            let before = self.events.len();
            self.rest_tick();
            if self.state.dead {
                break;
            }
            let bite = self.events[before..].iter().find_map(|e| match e {
                Event::Bitten { monster, .. } => Some(monster.clone()),
                _ => None,
            });
            let seen = self.events[before..]
                .iter()
                .position(|e| matches!(e, Event::Spotted { .. }));
            let interrupted = |group: String| Event::RestInterrupted { group, ticks: t };
            if let Some(at) = seen {
                let group = self
                    .state
                    .spotted
                    .as_ref()
                    .map(|s| s.group.clone())
                    .unwrap_or_default();
                self.events.insert(before + at, interrupted(group));
                break;
            }
            if let Some(monster) = bite {
                self.events.push(interrupted(monster));
                break;
            }
            let level = &self.tables.levels[self.state.level];
            if level.encounter_rate > 0.0
                && !level.groups.is_empty()
                && self.state.rng.random_bool(level.encounter_rate)
            {
                let n = self.state.rng.random_range(0..level.groups.len());
                let group = level.groups[n].clone();
                self.events.push(interrupted(group.clone()));
                let here = [self.state.x, self.state.y];
                self.wandering_group(group, here);
                self.spot();
                break;
            }
        }
        &self.events
    }
}

/// Turns a facing's name into the facing (`north`, `east`, `south`, `west`).
pub fn facing_named(name: &str) -> Option<Facing> {
    Facing::ALL
        .into_iter()
        .find(|f| format!("{f:?}").eq_ignore_ascii_case(name))
}
