//! What turns a stack of floors into a campaign: events on cells (a text, a picture and
//! choices whose flags the crawl keeps), and links that lead from a cell or a stair to any cell
//! of any level by its name.
//!
//! A level without links keeps the stack's stairs (`>` down, `<` up), so a dungeon written
//! before links plays as it did; a link on a stair replaces that stair's way, a link on any
//! other cell is taken by stepping onto it. Every target is checked when the tables load.

use super::cells::{Cell, Facing};
use super::tables::{Level, MapError, Place, Problem};
use serde::{Deserialize, Serialize};

/// Where a link or a choice sends the party: a cell of a level named `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// The level's name.
    pub to: String,
    /// The cell there, `[x, y]`.
    pub cell: [i32; 2],
    /// The way the party faces on arrival (left out: as it was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<Facing>,
}

/// A link from a cell of this level (`links`): on a stair, `use` takes it in place of the
/// stack's way; on any other cell, stepping onto it does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// The cell it leaves from, `[x, y]`.
    pub at: [i32; 2],
    /// The level's name.
    pub to: String,
    /// The cell there.
    pub cell: [i32; 2],
    /// The way the party faces on arrival (left out: as it was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<Facing>,
}

impl Link {
    /// Where it leads.
    pub fn target(&self) -> Target {
        Target {
            to: self.to.clone(),
            cell: self.cell,
            facing: self.facing,
        }
    }
}

/// One choice of an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// What the game shows for it.
    pub label: String,
    /// The game's own word for what it does, announced when it is taken.
    pub outcome: String,
    /// Flags it sets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<String>,
    /// Flags it clears.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clear: Vec<String>,
    /// Where it sends the party, if anywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub go: Option<Target>,
}

/// An event on a cell (`events`): stepping onto the cell announces it while its flags allow,
/// and the crawl waits for the game's choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventSpot {
    /// Its cell, `[x, y]`.
    pub at: [i32; 2],
    /// Its id, unique on its level.
    pub id: String,
    /// What to show.
    #[serde(default)]
    pub text: String,
    /// A picture to show with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
    /// Its choices (none: a message, answered by dismissing it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Choice>,
    /// Once answered with a choice (or dismissed, when it has none), it never comes again.
    #[serde(default)]
    pub once: bool,
    /// Flags that must all be set for it to come.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
    /// Flags none of which may be set for it to come.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unless: Vec<String>,
}

impl EventSpot {
    /// Whether the flags let it come (`flags` sorted, as the crawl keeps them).
    pub fn allowed(&self, flags: &[String]) -> bool {
        let set = |f: &String| flags.binary_search(f).is_ok();
        self.needs.iter().all(set) && !self.unless.iter().any(set)
    }
}

/// The most choices an event may offer.
pub const MAX_CHOICES: usize = 9;
/// The furthest a group can be seen from, in cells.
pub const MAX_SIGHT: u32 = 32;

/// A problem at a cell and row of the level being checked.
type Fault = (Option<i32>, Option<i32>, Problem);

/// The level's events and links against its own drawing: each on the map, on a cell it may
/// stand on, ids and labels and flags named, one link per cell, a sight within reach.
pub(crate) fn check_story(level: &Level) -> Result<(), Fault> {
    let fault = |[x, y]: [i32; 2], p: Problem| (Some(x), Some(y), p);
    for (n, e) in level.events.iter().enumerate() {
        let id = e.id.clone();
        if e.id.trim().is_empty() || level.events[..n].iter().any(|o| o.id == e.id) {
            return Err(fault(e.at, Problem::EventIdTaken(id)));
        }
        if let Some(what) = event_cell_problem(level, e.at) {
            return Err(fault(e.at, Problem::BadEventCell { id, what }));
        }
        if e.choices.len() > MAX_CHOICES {
            let what = format!("{} choices, more than {MAX_CHOICES}", e.choices.len());
            return Err(fault(e.at, Problem::BadChoice { id, what }));
        }
        for (k, c) in e.choices.iter().enumerate() {
            let what = if c.label.trim().is_empty() {
                Some(format!("choice {} has no label", k + 1))
            } else if e.choices[..k].iter().any(|o| o.label == c.label) {
                Some(format!("two choices are labelled \"{}\"", c.label))
            } else if c.outcome.trim().is_empty() {
                Some(format!("choice {} (\"{}\") has no outcome", k + 1, c.label))
            } else {
                None
            };
            if let Some(what) = what {
                return Err(fault(e.at, Problem::BadChoice { id, what }));
            }
        }
        let flags = e
            .needs
            .iter()
            .chain(&e.unless)
            .chain(e.choices.iter().flat_map(|c| c.set.iter().chain(&c.clear)));
        if flags.into_iter().any(|f| f.trim().is_empty()) {
            return Err(fault(e.at, Problem::EmptyFlag(id)));
        }
        if e.picture.as_deref().is_some_and(|p| p.trim().is_empty()) {
            return Err(fault(e.at, Problem::EmptyName("picture")));
        }
    }
    for (n, l) in level.links.iter().enumerate() {
        let [x, y] = l.at;
        let cell = level.cell(x, y);
        if !level.contains(x, y) || !cell.is_walkable() {
            return Err(fault(l.at, Problem::LinkFrom("off the map or solid")));
        }
        if matches!(
            cell,
            Cell::Teleporter | Cell::Pit | Cell::Spinner | Cell::Plate { .. } | Cell::Trap { .. }
        ) {
            return Err(fault(
                l.at,
                Problem::LinkFrom("a teleporter, pit, spinner, plate or trap"),
            ));
        }
        if level.encounters.iter().any(|f| f.at == l.at) {
            return Err(fault(l.at, Problem::LinkFrom("a fight's cell")));
        }
        if level.links[..n].iter().any(|o| o.at == l.at) {
            return Err(fault(l.at, Problem::TwoEntries("links")));
        }
    }
    if level.sight > MAX_SIGHT {
        return Err((None, None, Problem::BadSight(level.sight)));
    }
    for f in &level.encounters {
        if let Some(s) = f.sight.filter(|&s| s > MAX_SIGHT) {
            return Err(fault(f.at, Problem::BadSight(s)));
        }
    }
    Ok(())
}

/// Why an event cannot stand at `at`, if it cannot: it needs a cell the party stops on.
fn event_cell_problem(level: &Level, [x, y]: [i32; 2]) -> Option<&'static str> {
    let cell = level.cell(x, y);
    Some(if !level.contains(x, y) {
        "off the map"
    } else if !cell.is_walkable() {
        "inside a wall"
    } else if matches!(
        cell,
        Cell::Teleporter | Cell::Pit | Cell::Spinner | Cell::Plate { .. } | Cell::Trap { .. }
    ) {
        "on a teleporter, pit, spinner, plate or trap, which moves the party or goes off first"
    } else if level.encounters.iter().any(|f| f.at == [x, y]) {
        "on a fight's cell"
    } else if level.links.iter().any(|l| l.at == [x, y]) {
        "on a link's cell (a choice's \"go\" can lead on instead)"
    } else {
        return None;
    })
}

/// The level named `name`: its number, or why there is none (no level, or two, by that name).
pub fn level_named(levels: &[Level], name: &str) -> Result<usize, String> {
    let mut found = levels.iter().enumerate().filter(|(_, l)| l.name == name);
    match (found.next(), found.next()) {
        (Some((i, _)), None) => Ok(i),
        (None, _) => Err(format!("no level is called \"{name}\"")),
        (Some(_), Some(_)) => Err(format!("two levels are called \"{name}\"")),
    }
}

/// Why the party cannot be put down at `cell` of `level`, if it cannot.
pub fn arrival_problem(level: &Level, [x, y]: [i32; 2]) -> Option<&'static str> {
    let cell = level.cell(x, y);
    Some(if !level.contains(x, y) {
        "outside the map"
    } else if !cell.is_walkable() {
        "inside a wall"
    } else if matches!(cell, Cell::Teleporter | Cell::Pit) {
        "a teleporter or a pit"
    } else if level.encounters.iter().any(|e| e.at == [x, y]) {
        "a fight's cell"
    } else {
        return None;
    })
}

/// Every link's and every choice's target, across the levels: a level that exists by that
/// name (one only), and a cell there the party can stand on.
pub(crate) fn check_targets(levels: &[Level]) -> Result<(), MapError> {
    let fail = |i: usize, [x, y]: [i32; 2], problem: Problem| MapError::Level {
        at: Place {
            level: i + 1,
            name: levels[i].name.clone(),
            row: Some(y),
            cell: Some(x),
        },
        problem,
    };
    for (i, level) in levels.iter().enumerate() {
        let links = level.links.iter().map(|l| (l.at, l.target()));
        let choices = level.events.iter().flat_map(|e| {
            e.choices
                .iter()
                .filter_map(move |c| c.go.clone().map(|t| (e.at, t)))
        });
        for (from, t) in links.chain(choices) {
            let there = level_named(levels, &t.to)
                .map_err(|why| fail(i, from, Problem::BadTarget(format!("\"{}\": {why}", t.to))))?;
            if let Some(what) = arrival_problem(&levels[there], t.cell) {
                let [x, y] = t.cell;
                let place = format!("row {y}, cell {x} of \"{}\", which is {what}", t.to);
                return Err(fail(i, from, Problem::BadTarget(place)));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Tables;
    use serde_json::{Value, json};

    fn load(levels: Value) -> Result<Tables, String> {
        Tables::from_json(&levels.to_string(), "[]", "[]").map_err(|e| e.to_string())
    }

    fn town(extra: Value) -> Value {
        let mut row = json!({
            "name": "Town",
            "map": ["#######",
                    "#<....#",
                    "#.###.#",
                    "#.....#",
                    "#######"],
            "links": [{ "at": [5, 3], "to": "Crypt", "cell": [1, 1], "facing": "east" }]
        });
        for (k, v) in extra.as_object().unwrap() {
            row[k] = v.clone();
        }
        json!([row, { "name": "Crypt", "map": ["#####", "#..>#", "#####"], "start": [1, 1] }])
    }

    #[test]
    fn a_level_with_a_link_needs_no_stairs_down() {
        let tables = load(town(json!({}))).unwrap();
        assert_eq!(tables.levels()[0].links.len(), 1);
        assert_eq!(level_named(tables.levels(), "Crypt"), Ok(1));
    }

    #[test]
    fn a_link_to_an_unknown_map_is_refused_with_where() {
        let e = load(town(
            json!({ "links": [{ "at": [5, 3], "to": "Nowhere", "cell": [1, 1] }] }),
        ));
        assert_eq!(
            e.unwrap_err(),
            "level 1 (Town), row 3, cell 5: the link or choice leads to \"Nowhere\": no level is called \"Nowhere\""
        );
    }

    #[test]
    fn a_link_into_a_wall_or_off_the_map_is_refused() {
        let wall = load(town(
            json!({ "links": [{ "at": [5, 3], "to": "Crypt", "cell": [0, 0] }] }),
        ));
        assert_eq!(
            wall.unwrap_err(),
            "level 1 (Town), row 3, cell 5: the link or choice leads to row 0, cell 0 of \"Crypt\", which is inside a wall"
        );
        let off = load(town(
            json!({ "links": [{ "at": [5, 3], "to": "Crypt", "cell": [9, 1] }] }),
        ));
        assert!(
            off.unwrap_err()
                .ends_with("row 1, cell 9 of \"Crypt\", which is outside the map")
        );
    }

    #[test]
    fn a_link_must_leave_from_a_cell_the_party_walks_onto() {
        let e = load(town(
            json!({ "links": [{ "at": [2, 2], "to": "Crypt", "cell": [1, 1] }] }),
        ));
        assert_eq!(
            e.unwrap_err(),
            "level 1 (Town), row 2, cell 2: a link leaves from a cell that is off the map or solid"
        );
        let two = json!({ "links": [{ "at": [5, 3], "to": "Crypt", "cell": [1, 1] },
                                    { "at": [5, 3], "to": "Crypt", "cell": [2, 1] }] });
        assert!(
            load(town(two))
                .unwrap_err()
                .ends_with("two \"links\" entries stand on this cell")
        );
    }

    #[test]
    fn a_link_to_a_name_two_levels_share_is_refused() {
        let mut levels = town(json!({}));
        levels[0]["name"] = json!("Crypt");
        let e = load(levels).unwrap_err();
        assert!(e.ends_with("two levels are called \"Crypt\""), "{e}");
    }

    fn well(event: Value) -> Value {
        town(json!({ "events": [event] }))
    }

    #[test]
    fn events_load_with_their_choices_and_unknown_flags() {
        let ok = well(json!({
            "at": [3, 1], "id": "well", "text": "A well.", "picture": "p_well", "once": true,
            "needs": ["map"], "unless": ["drank"],
            "choices": [{ "label": "Drink", "outcome": "drink", "set": ["drank"] },
                        { "label": "Leave", "outcome": "leave",
                          "go": { "to": "Crypt", "cell": [2, 1] } }]
        }));
        let tables = load(ok).unwrap();
        let e = &tables.levels()[0].events[0];
        assert_eq!((e.id.as_str(), e.choices.len(), e.once), ("well", 2, true));
        assert!(!e.allowed(&[]), "needs map");
        assert!(e.allowed(&["map".to_string()]));
        assert!(!e.allowed(&["drank".to_string(), "map".to_string()]));
    }

    #[test]
    fn a_bad_event_is_refused_with_its_cell_and_why() {
        let cases = [
            (
                json!({ "at": [3, 1], "id": " " }),
                "row 1, cell 3: the event id \" \" is empty or used twice on this level",
            ),
            (
                json!({ "at": [3, 2], "id": "w" }),
                "row 2, cell 3: the event \"w\" stands inside a wall",
            ),
            (
                json!({ "at": [30, 2], "id": "w" }),
                "row 2, cell 30: the event \"w\" stands off the map",
            ),
            (
                json!({ "at": [3, 1], "id": "w", "choices": [{ "label": "", "outcome": "x" }] }),
                "row 1, cell 3: the event \"w\" has a bad choice list: choice 1 has no label",
            ),
            (
                json!({ "at": [3, 1], "id": "w", "choices": [{ "label": "A", "outcome": "x" }, { "label": "A", "outcome": "y" }] }),
                "row 1, cell 3: the event \"w\" has a bad choice list: two choices are labelled \"A\"",
            ),
            (
                json!({ "at": [3, 1], "id": "w", "choices": [{ "label": "A", "outcome": "" }] }),
                "row 1, cell 3: the event \"w\" has a bad choice list: choice 1 (\"A\") has no outcome",
            ),
            (
                json!({ "at": [3, 1], "id": "w", "needs": [""] }),
                "row 1, cell 3: the event \"w\" names an empty flag",
            ),
            (
                json!({ "at": [3, 1], "id": "w", "choices": [{ "label": "A", "outcome": "a", "go": { "to": "Crypt", "cell": [0, 1] } }] }),
                "row 1, cell 3: the link or choice leads to row 1, cell 0 of \"Crypt\", which is inside a wall",
            ),
            (
                json!({ "at": [3, 1], "id": "w", "colour": "red" }),
                "unknown field `colour`",
            ),
            (
                json!({ "at": [5, 3], "id": "w" }),
                "row 3, cell 5: the event \"w\" stands on a link's cell",
            ),
        ];
        for (event, want) in cases {
            let e = load(well(event)).unwrap_err();
            assert!(e.contains(want), "{e}\n  wants {want}");
        }
        let twice =
            town(json!({ "events": [{ "at": [3, 1], "id": "w" }, { "at": [2, 1], "id": "w" }] }));
        assert!(
            load(twice)
                .unwrap_err()
                .contains("row 1, cell 2: the event id \"w\" is empty or used twice")
        );
    }

    #[test]
    fn a_sight_beyond_reach_is_refused() {
        let e = load(town(json!({ "sight": 99 }))).unwrap_err();
        assert_eq!(
            e,
            "level 1 (Town): a group seen from 99 cells: sight is 0 to 32"
        );
    }
}
