//! The level as it is now, cell by cell, for a game's own rules: what each cell is (a door and
//! whether it is open, shut or locked, stairs, a pit, a trap and whether it went off), what lies
//! on it and who stands there, for one cell or a square around a point.
//!
//! Unlike the automap this hides nothing: an unseen cell, an unsprung trap and an unfound
//! secret door are told as they are, because the game (a tactical battlefield cut from the
//! corridor, a thief's search) decides what the player may learn of them.

use super::game::{Crawl, Sighting};
use crate::map::{Cell, Target};
use serde::Serialize;

/// One cell as it is now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellInfo {
    /// Its cell.
    pub x: i32,
    /// Its row.
    pub y: i32,
    /// Whether it is on the map (off it, every cell reads as rock).
    pub on_map: bool,
    /// What it is: `floor`, `wall`, `door`, `secret_door`, `arch`, `lever`, `button`, `chest`,
    /// `pit`, `stairs_down`, `stairs_up`, `trap`, `teleporter`, `spinner`, `dark` or `plate`.
    pub kind: &'static str,
    /// The legend symbol it was drawn with.
    pub symbol: char,
    /// It stops sight and steps.
    pub solid: bool,
    /// For a door: `open`, `shut` or `locked` (a secret door not yet found is `hidden`).
    pub door: Option<&'static str>,
    /// A door's name in the level row, if it has one.
    pub door_name: Option<String>,
    /// For a trap: its name.
    pub trap: Option<String>,
    /// For a trap: whether it has gone off.
    pub sprung: bool,
    /// For a chest: its loot (`kind:value`), and whether it was emptied (`opened`).
    pub chest: Option<String>,
    /// A chest emptied, a lever pulled, a plate or button pressed.
    pub used: bool,
    /// What lies here (`kind:value` each), first taken first.
    pub things: Vec<String>,
    /// The monster standing here (its kind), if any.
    pub monster: Option<String>,
    /// Its health.
    pub monster_hp: Option<u32>,
    /// The fight waiting here: a fixed fight not yet won, or the wandering group.
    pub encounter: Option<String>,
    /// The events here still to come (by id), whether the flags let them now or not.
    pub events: Vec<String>,
    /// Where a link from here leads.
    pub link: Option<Target>,
    /// The party stands here.
    pub party: bool,
    /// The automap shows it.
    pub seen: bool,
}

/// A rectangle of the party's level, clipped to the map: `width x height` cells from
/// `origin`, row by row.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Area {
    /// The level, counting from 0.
    pub level: usize,
    /// Its name.
    pub map: String,
    /// The top-left cell, `[x, y]`.
    pub origin: [i32; 2],
    /// Cells across.
    pub width: i32,
    /// Rows down.
    pub height: i32,
    /// The cells, row by row.
    pub cells: Vec<CellInfo>,
}

impl Area {
    /// The cell at (x, y) of the level, if the area holds it.
    pub fn get(&self, x: i32, y: i32) -> Option<&CellInfo> {
        let (cx, cy) = (x - self.origin[0], y - self.origin[1]);
        if cx < 0 || cy < 0 || cx >= self.width || cy >= self.height {
            return None;
        }
        self.cells.get((cy * self.width + cx) as usize)
    }
}

impl Crawl {
    /// What (x, y) of the party's level is now (off the map: rock, `on_map` false).
    pub fn cell_at(&self, x: i32, y: i32) -> CellInfo {
        let s = &self.state;
        let level = &self.tables.levels[s.level];
        let floor = self.floor();
        let cell = floor.cell(x, y);
        let (kind, door) = match cell {
            Cell::Floor => ("floor", None),
            Cell::Wall => ("wall", None),
            Cell::Door => ("door", Some("shut")),
            Cell::Locked => ("door", Some("locked")),
            Cell::Open => ("door", Some("open")),
            Cell::Secret => ("secret_door", Some("hidden")),
            Cell::Arch => ("arch", None),
            Cell::Lever { .. } => ("lever", None),
            Cell::Button { .. } => ("button", None),
            Cell::Chest { .. } => ("chest", None),
            Cell::Pit => ("pit", None),
            Cell::Down => ("stairs_down", None),
            Cell::Up => ("stairs_up", None),
            Cell::Trap { .. } => ("trap", None),
            Cell::Teleporter => ("teleporter", None),
            Cell::Spinner => ("spinner", None),
            Cell::Dark => ("dark", None),
            Cell::Plate { .. } => ("plate", None),
        };
        let used = matches!(
            cell,
            Cell::Chest { opened: true, .. }
                | Cell::Lever { pulled: true }
                | Cell::Plate { pressed: true }
                | Cell::Button { pressed: true }
        );
        let monster = floor.monster_at(x, y).map(|i| &floor.monsters[i]);
        let fixed = floor
            .encounter_at(x, y)
            .map(|i| floor.encounters[i].spot.group.clone());
        let wanderer = s
            .wanderer
            .as_ref()
            .filter(|w| w.at == [x, y])
            .map(|w| w.group.clone());
        let events = level
            .events
            .iter()
            .zip(&floor.events_done)
            .filter(|(e, done)| e.at == [x, y] && !**done)
            .map(|(e, _)| e.id.clone())
            .collect();
        CellInfo {
            x,
            y,
            on_map: floor.contains(x, y),
            kind,
            symbol: cell.symbol(),
            solid: cell.is_solid(),
            door,
            door_name: door.and(level.door_at(x, y).map(|d| d.name.clone())),
            trap: match cell {
                Cell::Trap { name, .. } => Some(name.clone()),
                _ => None,
            },
            sprung: matches!(cell, Cell::Trap { sprung: true, .. }),
            chest: match cell {
                Cell::Chest { loot, .. } => Some(loot.text()),
                _ => None,
            },
            used,
            things: floor
                .items
                .iter()
                .filter(|i| i.at == [x, y])
                .map(|i| i.loot.text())
                .collect(),
            monster: monster.map(|m| self.tables.monsters[m.kind].name.clone()),
            monster_hp: monster.map(|m| m.hp),
            encounter: fixed.or(wanderer),
            events,
            link: level.link_at(x, y).map(|l| l.target()),
            party: (s.x, s.y) == (x, y),
            seen: floor.is_seen(x, y),
        }
    }

    /// The square of cells within `radius` of (x, y) on either axis, clipped to the party's
    /// level (radius 0: the one cell). A square wholly off the map is empty, with its origin
    /// where it would have started.
    pub fn around(&self, x: i32, y: i32, radius: u32) -> Area {
        let r = radius.min(i32::MAX as u32 / 4) as i32;
        let side = r * 2 + 1;
        self.rect(x.saturating_sub(r), y.saturating_sub(r), side, side)
    }

    /// The `width x height` cells from (x, y) (the top-left), clipped to the party's level: a
    /// battlefield cut out of the map. An empty or wholly off-map rectangle has no cells.
    pub fn rect(&self, x: i32, y: i32, width: i32, height: i32) -> Area {
        let floor = self.floor();
        let (x0, y0) = (x.max(0), y.max(0));
        let x1 = x.saturating_add(width.max(0)).min(floor.width);
        let y1 = y.saturating_add(height.max(0)).min(floor.height);
        let (width, height) = if x1 > x0 && y1 > y0 {
            (x1 - x0, y1 - y0)
        } else {
            (0, 0)
        };
        let (x0, y0) = if width == 0 { (x, y) } else { (x0, y0) };
        let mut cells = Vec::with_capacity((width * height) as usize);
        for cy in y0..y0 + height {
            for cx in x0..x0 + width {
                cells.push(self.cell_at(cx, cy));
            }
        }
        Area {
            level: self.state.level,
            map: self.tables.levels[self.state.level].name.clone(),
            origin: [x0, y0],
            width,
            height,
            cells,
        }
    }

    /// The wandering group standing on the party's floor, if one is.
    pub fn wanderer(&self) -> Option<&super::game::Wanderer> {
        self.state.wanderer.as_ref()
    }

    /// Whether the group `who` was announced on this approach (it is not announced again
    /// until it has been out of sight).
    pub fn announced(&self, who: Sighting) -> bool {
        self.state.approach.contains(&who)
    }
}

#[cfg(test)]
mod tests {
    use crate::crawl::{Crawl, DoorState, Event};
    use crate::map::Tables;
    use serde_json::json;

    fn game() -> Crawl {
        let levels = json!([{
            "name": "Hall",
            "map": ["#########",
                    "#<.+.=.C#",
                    "#.#####^#",
                    "#..M...##",
                    "#.#######",
                    "#>...O.S#",
                    "#########"],
            "facing": "east",
            "chests": ["gold:3"], "traps": ["needle"], "monsters": ["rat"],
            "doors": [{ "at": [5, 1], "name": "vault" }],
            "items": [{ "at": [5, 3], "loot": "key:1" }, { "at": [5, 3], "loot": "gold:2" }],
            "encounters": [{ "at": [4, 5], "group": "ghouls" }],
            "events": [{ "at": [2, 5], "id": "mural", "text": "A mural." }]
        }, {
            "name": "Under",
            "map": ["#########", "#<.....>#", "#.......#", "#.......#", "#.......#", "#.......#", "#########"]
        }]);
        // A rat that never wakes, so it stays where it is drawn.
        let monsters = r#"[{ "name": "rat", "hp": 4, "sight": 0 }]"#;
        let tables = Tables::from_json(&levels.to_string(), monsters, "[]").unwrap();
        Crawl::new(tables, 5)
    }

    #[test]
    fn a_cell_is_told_as_it_is_now_unseen_or_not() {
        let mut c = game();
        let door = c.cell_at(3, 1);
        assert_eq!(
            (door.kind, door.door, door.solid),
            ("door", Some("shut"), true)
        );
        let vault = c.cell_at(5, 1);
        assert_eq!(
            (vault.door, vault.door_name.as_deref()),
            (Some("locked"), Some("vault"))
        );
        let trap = c.cell_at(7, 2);
        assert_eq!(
            (trap.kind, trap.trap.as_deref(), trap.sprung),
            ("trap", Some("needle"), false)
        );
        assert!(!trap.seen, "the query tells what the automap does not");
        let rat = c.cell_at(3, 3);
        assert_eq!(
            (rat.monster.as_deref(), rat.monster_hp),
            (Some("rat"), Some(4))
        );
        assert_eq!(c.cell_at(5, 3).things, ["key:1", "gold:2"]);
        assert_eq!(c.cell_at(4, 5).encounter.as_deref(), Some("ghouls"));
        assert_eq!(c.cell_at(2, 5).events, ["mural"]);
        assert_eq!(c.cell_at(7, 5).kind, "secret_door");
        assert_eq!(c.cell_at(5, 5).kind, "pit");
        assert_eq!(c.cell_at(1, 5).kind, "stairs_down");
        assert!(c.cell_at(1, 1).party);
        let off = c.cell_at(-3, 40);
        assert!(!off.on_map && off.solid && off.kind == "wall");
        c.set_door(3, 1, DoorState::Open).unwrap();
        assert_eq!(c.cell_at(3, 1).door, Some("open"));
    }

    #[test]
    fn around_cuts_a_square_clipped_to_the_map() {
        let c = game();
        let a = c.around(1, 1, 2);
        assert_eq!(
            (a.origin, a.width, a.height, a.map.as_str()),
            ([0, 0], 4, 4, "Hall")
        );
        assert_eq!(a.cells.len(), 16);
        assert_eq!(a.get(3, 1).unwrap().door, Some("shut"));
        assert!(a.get(4, 1).is_none());
        let whole = c.around(4, 3, 10);
        assert_eq!((whole.width, whole.height), (9, 7));
        let one = c.around(3, 3, 0);
        assert_eq!(
            (one.width, one.cells[0].monster.as_deref()),
            (1, Some("rat"))
        );
        let none = c.around(100, 100, 2);
        assert_eq!((none.width, none.height, none.cells.len()), (0, 0, 0));
        let field = c.rect(2, 1, 4, 3);
        assert_eq!((field.origin, field.width, field.height), ([2, 1], 4, 3));
        assert_eq!(field.get(3, 1).unwrap().door, Some("shut"));
        assert_eq!(field.get(5, 1).unwrap().door, Some("locked"));
        let clipped = c.rect(-2, 5, 5, 9);
        assert_eq!(
            (clipped.origin, clipped.width, clipped.height),
            ([0, 5], 3, 2)
        );
        assert!(c.rect(1, 1, 0, 4).cells.is_empty());
    }

    #[test]
    fn doors_by_the_games_rules_and_refusals_in_words() {
        let mut c = game();
        assert_eq!(
            c.set_door(5, 1, DoorState::Open).unwrap(),
            &[Event::DoorChanged {
                x: 5,
                y: 1,
                state: "open".into()
            }]
        );
        assert_eq!(c.state().keys, 0, "no key was spent");
        c.set_door(3, 1, DoorState::Locked).unwrap();
        c.walk(0, 1);
        assert_eq!(
            c.walk(0, 1).to_vec(),
            [Event::Locked],
            "a locked door stays shut"
        );
        assert_eq!(
            c.set_door(2, 1, DoorState::Open).unwrap_err(),
            "row 1, cell 2 is '.', not a door"
        );
        assert_eq!(
            c.set_door(7, 5, DoorState::Open).unwrap_err(),
            "row 5, cell 7 is a secret door not yet found"
        );
        assert_eq!(
            c.set_door(40, 1, DoorState::Open).unwrap_err(),
            "row 1, cell 40 is off the map"
        );
        c.set_door(3, 1, DoorState::Open).unwrap();
        c.walk(0, 1);
        assert_eq!(c.state().x, 3);
        assert_eq!(
            c.set_door(3, 1, DoorState::Shut).unwrap_err(),
            "row 1, cell 3: someone stands in the doorway, so it cannot be shut"
        );
        // Kept in the save: a plain `+` locked, the vault opened.
        c.walk(0, -1);
        c.set_door(3, 1, DoorState::Locked).unwrap();
        let mut d = game();
        d.load(&c.save_json()).unwrap();
        assert!(d.same_as(&c));
        assert_eq!(d.cell_at(3, 1).door, Some("locked"));
        c.set_door(5, 1, DoorState::Shut).unwrap();
        d.load(&c.save_json()).unwrap();
        assert_eq!(d.cell_at(5, 1).door, Some("shut"), "a drawn lock unlocked");
        // A lock taken off where none is drawn is refused in words, and changes nothing.
        let mut forged: serde_json::Value = serde_json::from_str(&c.save_json()).unwrap();
        forged["floors"][0]["unlocked"] = json!([[2, 1]]);
        let before = d.save_json();
        assert_eq!(
            d.load(&forged.to_string()).unwrap_err().to_string(),
            "the save's level 0, cell 2, row 1: saved as unlocked, but no lock is drawn there"
        );
        assert_eq!(d.save_json(), before);
    }
}
