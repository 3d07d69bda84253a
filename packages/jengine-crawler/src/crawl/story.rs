//! A campaign on the crawl: events on cells that wait for the game's choice, the flags those
//! choices set, and moves to any cell of any level by its name (links, choices, the game's own
//! `travel`).
//!
//! An event halts the crawl as a fight does, so nothing moves between the announcement and the
//! answer. A move by name lands the party as a teleporter does: what is on the cell happens
//! (an event, a trap), but a link there is not taken again, so two links can face each other.

use super::event::Event;
use super::game::{Crawl, EventNow};
use crate::map::{Facing, Target, arrival_problem, level_named};

impl Crawl {
    /// The event of the party's level with index `i`, as a game shows it.
    pub(super) fn event_now(&self, i: usize) -> Option<EventNow> {
        let e = self.tables.levels[self.state.level].events.get(i)?;
        Some(EventNow {
            id: e.id.clone(),
            text: e.text.clone(),
            picture: e.picture.clone(),
            choices: e.choices.clone(),
            at: e.at,
        })
    }

    /// Starts the first event on the party's cell that its flags allow and that is not done
    /// for good; false when there is none.
    pub(super) fn start_event_here(&mut self) -> bool {
        let s = &self.state;
        let level = &self.tables.levels[s.level];
        let floor = &s.floors[s.level];
        let found = level.events.iter().enumerate().find(|(i, e)| {
            e.at == [s.x, s.y]
                && !floor.events_done.get(*i).copied().unwrap_or(false)
                && e.allowed(&s.flags)
        });
        let Some((i, e)) = found else {
            return false;
        };
        self.events.push(Event::CellEvent {
            id: e.id.clone(),
            text: e.text.clone(),
            picture: e.picture.clone(),
            choices: e.choices.iter().map(|c| c.label.clone()).collect(),
            x: e.at[0],
            y: e.at[1],
        });
        self.state.event = Some(i);
        true
    }

    /// Answers the event in progress: choice `n` (from 1) sets and clears its flags, marks a
    /// `once` event done and announces its outcome (then takes the party where it leads, if
    /// anywhere); 0 dismisses it, and it comes again on the next step onto its cell (unless it
    /// has no choices: then dismissing is its answer). No time passes.
    pub fn choose(&mut self, n: usize) -> Result<&[Event], String> {
        // A refused call announces nothing: what the last action said is gone either way.
        self.events.clear();
        let Some(i) = self.state.event else {
            return Err("no event is waiting for a choice".into());
        };
        let level = &self.tables.levels[self.state.level];
        let e = &level.events[i];
        if n > e.choices.len() {
            return Err(format!(
                "the event \"{}\" has {} choice(s); {n} is not one (0 dismisses it)",
                e.id,
                e.choices.len()
            ));
        }
        let (id, once) = (e.id.clone(), e.once);
        self.state.event = None;
        let answered = n > 0 || e.choices.is_empty();
        if once && answered {
            self.state.floors[self.state.level].events_done[i] = true;
        }
        if n == 0 {
            self.events.push(Event::Dismissed { id });
            return Ok(&self.events);
        }
        let choice = e.choices[n - 1].clone();
        for flag in &choice.set {
            self.flip_flag(flag, true);
        }
        for flag in &choice.clear {
            self.flip_flag(flag, false);
        }
        self.events.push(Event::Outcome {
            id,
            choice: n,
            label: choice.label,
            outcome: choice.outcome,
            set: choice.set,
            clear: choice.clear,
        });
        if let Some(go) = &choice.go {
            self.follow(go, "choice");
        }
        Ok(&self.events)
    }

    /// Sets or clears a flag (events' `needs` and `unless` read them). It takes no time and
    /// announces nothing.
    pub fn set_flag(&mut self, name: &str, on: bool) {
        self.events.clear();
        self.flip_flag(name, on);
    }

    fn flip_flag(&mut self, name: &str, on: bool) {
        let flags = &mut self.state.flags;
        match (flags.binary_search_by(|f| f.as_str().cmp(name)), on) {
            (Err(at), true) => flags.insert(at, name.to_string()),
            (Ok(at), false) => {
                flags.remove(at);
            }
            _ => {}
        }
    }

    /// Whether a flag is set.
    pub fn flag(&self, name: &str) -> bool {
        self.state
            .flags
            .binary_search_by(|f| f.as_str().cmp(name))
            .is_ok()
    }

    /// The game moves the party to (x, y) of the level called `map`, facing `facing` (left
    /// out: as it faces now): a teleport, a journey overland. Refused in words, changing
    /// nothing, for a level no one is called (or two are), a cell outside the map, in a wall,
    /// on a teleporter, a pit or a fight, and while a fight, an event or a spotted group
    /// waits, or the game is over. It takes no time.
    pub fn travel(
        &mut self,
        map: &str,
        x: i32,
        y: i32,
        facing: Option<Facing>,
    ) -> Result<&[Event], String> {
        // A refused call announces nothing: what the last action said is gone either way.
        self.events.clear();
        if self.halted() {
            return Err(
                "a fight, an event or a spotted group waits to be settled, or the game is over"
                    .into(),
            );
        }
        let level = level_named(&self.tables.levels, map)?;
        if let Some(what) = arrival_problem(&self.tables.levels[level], [x, y]) {
            return Err(format!("row {y}, cell {x} of \"{map}\" is {what}"));
        }
        let target = Target {
            to: map.to_string(),
            cell: [x, y],
            facing,
        };
        self.follow(&target, "travel");
        Ok(&self.events)
    }

    /// Takes the party to `target` (checked when the tables loaded, or by `travel`): `travel`,
    /// then `level` if the map changed, then whatever the cell holds.
    pub(super) fn follow(&mut self, target: &Target, by: &str) {
        let Ok(level) = level_named(&self.tables.levels, &target.to) else {
            return;
        };
        let [x, y] = target.cell;
        let facing = target.facing.unwrap_or(self.state.facing);
        self.events.push(Event::Travel {
            map: target.to.clone(),
            level,
            x,
            y,
            by: by.to_string(),
        });
        self.arrive_at(level, x, y, facing);
        self.clear_landing();
        self.underfoot(1);
        self.spot();
    }

    /// What is left behind on leaving a floor: a wandering group, and what was in sight.
    pub(super) fn left_floor(&mut self) {
        self.state.wanderer = None;
        self.state.approach.clear();
        self.state.spotted = None;
    }
}

#[cfg(test)]
mod tests {
    use crate::crawl::{Crawl, Event};
    use crate::map::{Facing, Tables};
    use serde_json::{Value, json};

    /// A town with a well (an event) and a gate linked to the crypt; the crypt's stairs up lead
    /// back to the town by a link, its stairs down are the stack's.
    fn campaign() -> Value {
        json!([
            {
                "name": "Town",
                "map": ["#######",
                        "#.....#",
                        "#.###.#",
                        "#.....#",
                        "#######"],
                "start": [1, 1], "facing": "east",
                "links": [{ "at": [5, 3], "to": "Crypt", "cell": [2, 1], "facing": "east" }],
                "events": [
                    { "at": [3, 1], "id": "well", "text": "A well.", "picture": "p_well",
                      "once": true, "unless": ["cursed"],
                      "choices": [{ "label": "Drink", "outcome": "drink", "set": ["drank"] },
                                  { "label": "Dive", "outcome": "dive",
                                    "go": { "to": "Deep", "cell": [2, 1], "facing": "west" } }] },
                    { "at": [1, 3], "id": "sign", "text": "Keep out.", "needs": ["drank"] }
                ]
            },
            {
                "name": "Crypt",
                "map": ["######",
                        "#<..>#",
                        "######"],
                "links": [{ "at": [1, 1], "to": "Town", "cell": [4, 3], "facing": "west" }]
            },
            {
                "name": "Deep",
                "map": ["#####",
                        "#<..#",
                        "#####"],
                "encounters": [{ "at": [3, 1], "group": "wight", "goal": true }]
            }
        ])
    }

    fn game() -> Crawl {
        let tables = Tables::from_json(&campaign().to_string(), "[]", "[]").unwrap();
        Crawl::new(tables, 3)
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
    fn stepping_on_an_event_halts_until_a_choice_and_a_once_event_is_done() {
        let mut c = game();
        c.walk(0, 1);
        let events = c.walk(0, 1).to_vec();
        assert!(
            matches!(&events[0], Event::CellEvent { id, choices, picture, .. }
            if id == "well" && choices == &["Drink", "Dive"] && picture.as_deref() == Some("p_well"))
        );
        assert_eq!(c.state().event.unwrap().id, "well");
        let tick = c.state().tick;
        assert!(
            c.walk(0, 1).is_empty(),
            "nothing moves while the event waits"
        );
        assert_eq!((c.state().x, c.state().tick), (3, tick));
        assert!(
            c.choose(3)
                .unwrap_err()
                .contains("has 2 choice(s); 3 is not one")
        );
        let out = c.choose(1).unwrap().to_vec();
        assert_eq!(
            out,
            [Event::Outcome {
                id: "well".into(),
                choice: 1,
                label: "Drink".into(),
                outcome: "drink".into(),
                set: vec!["drank".into()],
                clear: vec![],
            }]
        );
        assert!(c.flag("drank") && c.state().event.is_none());
        assert_eq!(c.choose(1).unwrap_err(), "no event is waiting for a choice");
        // Off and back on: a once event answered never comes again.
        c.walk(0, 1);
        c.walk(0, -1);
        assert!(c.state().event.is_none());
    }

    #[test]
    fn a_dismissed_event_comes_again_and_flags_decide_which_come() {
        let mut c = game();
        c.walk(0, 1);
        c.walk(0, 1);
        assert_eq!(
            c.choose(0).unwrap(),
            &[Event::Dismissed { id: "well".into() }]
        );
        c.walk(0, 1);
        c.walk(0, -1);
        assert_eq!(
            c.state().event.unwrap().id,
            "well",
            "dismissed, it comes again"
        );
        c.choose(0).unwrap();
        c.set_flag("cursed", true);
        c.walk(0, 1);
        c.walk(0, -1);
        assert!(c.state().event.is_none(), "unless cursed");
        // The sign needs `drank`.
        let mut d = game();
        d.turn(1);
        d.walk(0, 1);
        d.walk(0, 1);
        assert_eq!((d.state().x, d.state().y), (1, 3));
        assert!(d.state().event.is_none());
    }

    #[test]
    fn links_lead_between_named_maps_and_a_map_is_as_it_was_left() {
        let mut c = game();
        c.walk(0, 1);
        c.walk(0, 1);
        c.choose(0).unwrap();
        c.walk(0, 1);
        c.walk(0, 1);
        c.turn(1);
        c.walk(0, 1);
        let events = c.walk(0, 1).to_vec();
        assert_eq!(
            names(&events),
            ["travel", "level"],
            "stepping onto the gate takes its link"
        );
        let s = c.state();
        assert_eq!(
            (s.map.as_str(), s.x, s.y, s.facing),
            ("Crypt", 2, 1, Facing::East)
        );
        let town_seen = c.floor_at(0).unwrap().seen_string();
        // The crypt's stairs up are linked back to the town's gate.
        c.walk(0, -1);
        let events = c.use_ahead().to_vec();
        assert!(
            matches!(&events[0], Event::Travel { map, by, .. } if map == "Town" && by == "link")
        );
        let s = c.state();
        assert_eq!((s.level, s.x, s.y, s.facing), (0, 4, 3, Facing::West));
        assert!(c.floor_at(0).unwrap().seen_string().len() == town_seen.len());
        assert!(
            c.floor().is_seen(3, 1),
            "the town's automap is as it was left"
        );
        // The crypt's stairs down keep the stack's way.
        c.travel("Crypt", 3, 1, Some(Facing::East)).unwrap();
        c.walk(0, 1);
        let events = c.use_ahead().to_vec();
        assert_eq!(names(&events), ["level"]);
        assert_eq!(c.state().map, "Deep");
    }

    #[test]
    fn a_choice_can_lead_away_and_travel_is_refused_in_words() {
        let mut c = game();
        c.walk(0, 1);
        c.walk(0, 1);
        let events = c.choose(2).unwrap().to_vec();
        assert_eq!(names(&events), ["outcome", "travel", "level"]);
        assert_eq!(
            (c.state().map.as_str(), c.state().facing),
            ("Deep", Facing::West)
        );
        let mut d = game();
        assert_eq!(
            d.travel("Moon", 1, 1, None).unwrap_err(),
            "no level is called \"Moon\""
        );
        assert_eq!(
            d.travel("Crypt", 0, 0, None).unwrap_err(),
            "row 0, cell 0 of \"Crypt\" is inside a wall"
        );
        assert_eq!(
            d.travel("Deep", 3, 1, None).unwrap_err(),
            "row 1, cell 3 of \"Deep\" is a fight's cell"
        );
        assert_eq!(d.state().map, "Town", "a refused travel changes nothing");
        let events = d
            .travel("Town", 3, 1, Some(Facing::South))
            .unwrap()
            .to_vec();
        assert_eq!(
            names(&events),
            ["travel", "event"],
            "landing on an event starts it"
        );
    }

    #[test]
    fn a_teleporter_onto_an_event_starts_it() {
        let levels = json!([{
            "name": "Maze",
            "map": ["#######", "#<T..>#", "#.....#", "#######"],
            "facing": "east",
            "teleports": [{ "at": [2, 1], "to": [4, 2] }],
            "events": [{ "at": [4, 2], "id": "voice", "text": "A voice." }]
        }]);
        let tables = Tables::from_json(&levels.to_string(), "[]", "[]").unwrap();
        let mut c = Crawl::new(tables, 1);
        assert_eq!(names(c.walk(0, 1)), ["teleport", "event"]);
        assert_eq!(c.state().event.unwrap().id, "voice");
    }

    #[test]
    fn flags_done_events_and_the_event_in_progress_survive_a_save() {
        let mut c = game();
        c.walk(0, 1);
        c.walk(0, 1);
        c.choose(1).unwrap();
        c.walk(0, 1);
        c.walk(0, -1);
        c.set_flag("zeal", true);
        let mut d = game();
        d.load(&c.save_json()).unwrap();
        assert!(d.same_as(&c));
        assert!(d.flag("drank") && d.flag("zeal"));
        // Mid-event.
        let mut e = game();
        e.walk(0, 1);
        e.walk(0, 1);
        let mut f = game();
        f.load(&e.save_json()).unwrap();
        assert_eq!(f.state().event.unwrap().id, "well");
    }

    #[test]
    fn a_tampered_story_save_is_refused_in_words() {
        let mut c = game();
        c.walk(0, 1);
        c.walk(0, 1);
        let good: Value = serde_json::from_str(&c.save_json()).unwrap();
        let cases: [(&str, Value, &str); 4] = [
            ("event", json!("nowhere"), "no event \"nowhere\" on level 0"),
            ("flags", json!(["a", ""]), "an empty flag"),
            (
                "floors",
                {
                    let mut f = good["floors"].clone();
                    f[0]["done"] = json!(["sign"]);
                    f
                },
                "the event \"sign\" saved as done is not a once event of this level",
            ),
            ("level", json!(1), "the event in progress"),
        ];
        for (field, value, want) in cases {
            let mut bad = good.clone();
            bad[field] = value;
            let mut d = game();
            let before = d.save_json();
            let err = d.load(&bad.to_string()).unwrap_err().to_string();
            assert!(err.contains(want), "{field}: {err}");
            assert_eq!(d.save_json(), before);
        }
    }
}
