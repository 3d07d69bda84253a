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
            self.state.quiet = 0;
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
        // A refused call announces nothing: what the last action said is gone either way.
        self.events.clear();
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
        if self.group_at([x, y]) {
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
                cell.is_walkable()
                    && floor.monster_at(x, y).is_none()
                    && *cell != Cell::Pit
                    && !self.group_at([x, y])
            })
    }

    /// Whether a group waits at `at`: a fixed fight not yet won, or the wanderer.
    fn group_at(&self, at: [i32; 2]) -> bool {
        self.floor()
            .encounters
            .iter()
            .any(|e| !e.won && e.spot.at == at)
            || self.state.wanderer.as_ref().is_some_and(|w| w.at == at)
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
                && self.state.wanderer.is_none()
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

#[cfg(test)]
mod tests {
    use crate::crawl::{Crawl, Event, Sighting};
    use crate::map::{Facing, Tables};
    use serde_json::{Value, json};

    /// A long corridor east, a fixed group six cells down it seen from four, stairs beyond.
    fn corridor(extra: Value) -> Crawl {
        let mut row = json!({
            "name": "Hall",
            "map": ["###########",
                    "#<........#",
                    "#.#######>#",
                    "#.........#",
                    "###########"],
            "facing": "east",
            "encounters": [{ "at": [7, 1], "group": "orcs", "text": "Orcs!", "art": "m_orc", "sight": 4 }]
        });
        for (k, v) in extra.as_object().unwrap() {
            row[k] = v.clone();
        }
        let tables = Tables::from_json(
            &json!([row]).to_string(),
            "[]",
            r#"[{ "name": "Ana", "hp": 9 }]"#,
        )
        .unwrap();
        Crawl::new(tables, 9)
    }

    fn names(events: &[Event]) -> Vec<String> {
        events
            .iter()
            .map(|e| {
                serde_json::to_value(e).unwrap()["event"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn a_group_in_sight_is_spotted_once_per_approach() {
        let mut c = corridor(json!({}));
        assert!(c.walk(0, 1).is_empty(), "five cells off: not yet");
        let events = c.walk(0, 1).to_vec();
        assert_eq!(
            events,
            [Event::Spotted {
                group: "orcs".into(),
                text: "Orcs!".into(),
                art: Some("m_orc".into()),
                distance: 4,
                x: 7,
                y: 1,
            }]
        );
        assert_eq!(c.state().spotted.unwrap().who, Sighting::Fixed(0));
        let tick = c.state().tick;
        assert!(
            c.walk(0, 1).is_empty() && c.state().tick == tick,
            "nothing moves until answered"
        );
        assert_eq!(
            c.answer("dance").unwrap_err(),
            "\"dance\" is not an answer (fight, wait, flee, advance or parley)"
        );
        assert_eq!(names(c.answer("advance").unwrap()), ["answered"]);
        assert!(
            c.walk(0, 1).is_empty(),
            "not announced again on this approach"
        );
        assert!(c.announced(Sighting::Fixed(0)));
        // Turned away, it is out of sight; turned back, it is a new approach.
        c.turn(2);
        assert!(!c.announced(Sighting::Fixed(0)));
        assert_eq!(names(c.turn(2)), ["spotted"]);
        assert_eq!(
            c.answer("wait")
                .map(|e| e.to_vec())
                .map(|e| names(&e))
                .unwrap(),
            ["answered", "spotted"]
        );
        assert_eq!(
            c.state().spotted.unwrap().distance,
            2,
            "it came a cell closer"
        );
        assert_eq!(c.cell_at(6, 1).encounter.as_deref(), Some("orcs"));
        // Where it stands now is kept in the save; a forged place is refused in words.
        let mut d = corridor(json!({}));
        d.load(&c.save_json()).unwrap();
        assert!(d.same_as(&c));
        let mut forged: Value = serde_json::from_str(&c.save_json()).unwrap();
        forged["floors"][0]["moved"] = json!([{ "fight": 0, "at": [5, 2] }]);
        assert_eq!(
            d.load(&forged.to_string()).unwrap_err().to_string(),
            "the save's level 0, cell 5, row 2: fight 0 cannot stand here"
        );
        assert_eq!(
            names(c.answer("wait").unwrap()),
            ["answered", "encounter"],
            "next to the party it fights"
        );
        let fight = c.state().encounter.unwrap();
        assert_eq!(fight.from, [4, 1]);
        c.resolve(true);
        assert!(c.cell_at(5, 1).encounter.is_none(), "won, it is gone");
        assert!(
            c.answer("fight")
                .unwrap_err()
                .contains("no group has been spotted")
        );
    }

    #[test]
    fn fight_flee_and_parley_answer_a_group_spotted() {
        let mut c = corridor(json!({}));
        c.walk(0, 1);
        c.walk(0, 1);
        assert_eq!(names(c.answer("fight").unwrap()), ["answered", "encounter"]);
        assert_eq!(c.state().encounter.unwrap().fixed, Some(0));
        c.resolve(false);
        assert_eq!(
            (c.state().x, c.state().y),
            (3, 1),
            "fled from where it stood: still there"
        );

        let mut d = corridor(json!({}));
        d.walk(0, 1);
        d.walk(0, 1);
        let tick = d.state().tick;
        assert_eq!(names(d.answer("flee").unwrap()), ["answered"]);
        assert_eq!(
            (d.state().x, d.state().tick, d.state().facing),
            (2, tick + 1, Facing::East)
        );

        let mut p = corridor(json!({}));
        p.walk(0, 1);
        p.walk(0, 1);
        let events = p.answer("parley").unwrap().to_vec();
        assert!(matches!(&events[1], Event::Parley { group, x: 7, .. } if group == "orcs"));
        assert!(p.state().encounter.unwrap().parley);
        assert!(p.walk(0, 1).is_empty(), "a parley waits for resolve");
        p.resolve(true);
        assert!(p.floor().encounters[0].won, "settled, the group is gone");
    }

    #[test]
    fn flight_with_nowhere_to_go_is_refused_and_the_group_still_waits() {
        // Put down by travel with the group four cells ahead, the party spots it at once.
        let mut c = corridor(json!({}));
        let events = c.travel("Hall", 3, 1, Some(Facing::East)).unwrap().to_vec();
        assert_eq!(names(&events), ["travel", "spotted"]);
        // At the corridor's west end, behind is rock, and directly away from the group too.
        let mut d =
            corridor(json!({ "encounters": [{ "at": [5, 1], "group": "orcs", "sight": 4 }] }));
        assert_eq!(names(d.turn(0)), Vec::<String>::new());
        d.wait();
        assert!(d.state().spotted.is_some());
        assert_eq!(
            d.answer("flee").unwrap_err(),
            "nowhere to flee: the cells away from the group and behind the party are shut"
        );
        assert!(d.state().spotted.is_some());
    }

    #[test]
    fn a_wandering_group_stands_down_the_corridor_where_the_level_can_be_seen() {
        let mut c = corridor(json!({
            "encounters": [], "sight": 5, "encounter_rate": 1.0, "groups": ["wolves"]
        }));
        let events = c.walk(0, 1).to_vec();
        assert!(
            matches!(&events[..], [Event::Spotted { group, distance: 5, x: 7, y: 1, .. }] if group == "wolves"),
            "{events:?}"
        );
        assert_eq!(c.wanderer().unwrap().at, [7, 1]);
        assert_eq!(c.cell_at(7, 1).encounter.as_deref(), Some("wolves"));
        c.answer("advance").unwrap();
        for _ in 0..4 {
            c.walk(0, 1);
        }
        assert_eq!(names(c.walk(0, 1)), ["encounter"], "walked into, it fights");
        assert!(c.state().encounter.unwrap().wanderer);
        c.resolve(true);
        assert!(c.wanderer().is_none());
    }

    #[test]
    fn a_long_rest_is_cut_short_by_a_wandering_group() {
        let mut c =
            corridor(json!({ "encounters": [], "encounter_rate": 0.3, "groups": ["rats"] }));
        c.state.party[0].hp = 1;
        let events = c.rest_for(50).to_vec();
        let cut = events.iter().find_map(|e| match e {
            Event::RestInterrupted { group, ticks } => Some((group.clone(), *ticks)),
            _ => None,
        });
        let (group, ticks) = cut.expect("a 0.3 chance a tick comes within 50");
        assert_eq!(group, "rats");
        assert_eq!(
            names(&events[events.len() - 2..]),
            ["rest_interrupted", "encounter"]
        );
        assert_eq!(c.state().tick, u64::from(ticks));
        assert_eq!(c.state().party[0].hp, (1 + ticks).min(9));
        assert_eq!(
            c.state().encounter.unwrap().from,
            [1, 1],
            "fought where it rested"
        );
        // The same seed rests the same.
        let mut d =
            corridor(json!({ "encounters": [], "encounter_rate": 0.3, "groups": ["rats"] }));
        d.state.party[0].hp = 1;
        assert_eq!(d.rest_for(50), &events[..]);
    }

    #[test]
    fn a_rest_without_wanderers_runs_its_ticks_and_the_old_rest_draws_nothing() {
        let mut c = corridor(json!({ "encounters": [] }));
        assert_eq!(names(c.rest_for(7)), ["rested"]);
        assert_eq!(c.state().tick, 7);
        let mut d =
            corridor(json!({ "encounters": [], "encounter_rate": 1.0, "groups": ["rats"] }));
        let rng = d.state.rng.clone();
        assert_eq!(names(d.rest()), ["rested"]);
        assert_eq!(
            (d.state().tick, &d.state.rng),
            (4, &rng),
            "four ticks, no draw"
        );
    }

    #[test]
    fn a_sighting_survives_a_save_and_a_forged_one_is_refused() {
        let mut c = corridor(
            json!({ "sight": 5, "encounter_rate": 1.0, "groups": ["wolves"], "encounters": [] }),
        );
        c.walk(0, 1);
        let good: Value = serde_json::from_str(&c.save_json()).unwrap();
        let mut d = corridor(
            json!({ "sight": 5, "encounter_rate": 1.0, "groups": ["wolves"], "encounters": [] }),
        );
        d.load(&good.to_string()).unwrap();
        assert!(d.same_as(&c));
        let forged = |f: &dyn Fn(&mut Value)| {
            let mut bad = good.clone();
            f(&mut bad);
            let mut e = corridor(
                json!({ "sight": 5, "encounter_rate": 1.0, "groups": ["wolves"], "encounters": [] }),
            );
            e.load(&bad.to_string()).unwrap_err().to_string()
        };
        assert!(
            forged(&|s| s["wanderer"]["group"] = json!("dragons"))
                .contains("\"dragons\" is not one of level 0's groups")
        );
        assert!(
            forged(&|s| s["wanderer"]["at"] = json!([0, 0]))
                .contains("cell 0, row 0: the wandering group cannot stand here")
        );
        assert!(
            forged(&|s| s["spotted"]["at"] = json!([6, 1])).contains("is not one standing there")
        );
        assert!(
            forged(&|s| s["spotted"]["who"] = json!({ "fixed": 3 }))
                .contains("is not one standing there")
        );
        assert!(forged(&|s| s["approach"] = json!([{ "fixed": 2 }])).contains("fight 2 was seen"));
    }
}
