//! The link to `jengine-crawler`: a fight cut out of the crawl's live level round the party,
//! and the crawl's encounter settled when the fight is over.
//!
//! The battlefield is turned so that the way the party faces is up the field: the party's own
//! cell is the middle of its front rank, the rest of the formation stands behind it (the
//! fight's placing puts ranks downward), and the monsters stand up the corridor ahead, as far
//! as it runs up to [`MONSTER_DISTANCE`] squares. Walls, levers, buttons and unfound secret
//! doors are rock; shut and locked doors stay shut; open doors and archways are doorways;
//! everything else a party may stand on is floor.

use jengine_crawler::{Area, CellInfo, Crawl, Facing};

use crate::fight::{Encounter, Ending, Field, Terrain};

/// Squares across the battlefield cut from a crawl.
pub const CUT_WIDTH: usize = 15;
/// Squares up and down it.
pub const CUT_HEIGHT: usize = 12;
/// The row of the party's front rank, counted from the top: two rows of room behind it.
pub const PARTY_ROW: i32 = 9;
/// The furthest ahead of the party the monsters' first rank is put, corridor allowing.
pub const MONSTER_DISTANCE: i32 = 5;

/// A battlefield cut from the crawl, with the encounter to fight on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// The ground.
    pub field: Field,
    /// The encounter: the crawl's group, with both sides' places on this field.
    pub encounter: Encounter,
    /// The crawl's level cell under each field square, row by row (for a game that wants to
    /// show where on its map the fight is).
    pub cells: Vec<[i32; 2]>,
}

/// The terrain a crawl cell is to a fight.
pub fn terrain(cell: &CellInfo) -> Terrain {
    if !cell.on_map {
        return Terrain::Wall;
    }
    match (cell.kind, cell.door) {
        ("door", Some("open")) | ("arch", _) => Terrain::DoorOpen,
        ("door", _) => Terrain::DoorShut,
        _ if cell.solid => Terrain::Wall,
        _ => Terrain::Floor,
    }
}

/// The crawl cell under field square (fx, fy), for a party at (px, py) facing `facing`.
fn to_crawl(px: i32, py: i32, facing: Facing, fx: i32, fy: i32) -> [i32; 2] {
    let (ax, ay) = facing.ahead();
    // The party's right hand: a quarter turn clockwise from ahead.
    let (rx, ry) = (-ay, ax);
    let (dx, dy) = (fx - (CUT_WIDTH as i32 / 2), fy - PARTY_ROW);
    [px + rx * dx - ax * dy, py + ry * dx - ay * dy]
}

/// The fight waiting on the crawl, cut from its level round the party. `encounters` are the
/// fight's table; the crawl's group is found there by name. Refused in words when the crawl
/// has no fight waiting (a parley is not one) or the group is not in the table.
pub fn cut(crawl: &Crawl, encounters: &[Encounter]) -> Result<Cut, String> {
    let state = crawl.state();
    let Some(waiting) = &state.encounter else {
        return Err(match &state.spotted {
            Some(s) => format!(
                "the crawl has no fight waiting: {:?} is only spotted; answer it with \
                 Crawler.answer(e, \"fight\") first",
                s.group
            ),
            None => "the crawl has no fight waiting".to_string(),
        });
    };
    if waiting.parley {
        return Err(format!(
            "the crawl is parleying with {:?}, not fighting: settle it with Crawler.resolve",
            waiting.group
        ));
    }
    let group = waiting.group.trim();
    let found = encounters
        .iter()
        .find(|x| x.name.eq_ignore_ascii_case(group))
        .ok_or_else(|| {
            let names: Vec<&str> = encounters.iter().map(|x| x.name.as_str()).collect();
            format!(
                "the crawl's group {group:?} is not in the encounters table (there are: {})",
                names.join(", ")
            )
        })?;
    let (px, py, facing) = (state.x, state.y, state.facing);
    let reach = CUT_WIDTH.max(CUT_HEIGHT) as u32;
    let area: Area = crawl.around(px, py, reach);
    let cells: Vec<[i32; 2]> = (0..CUT_HEIGHT as i32)
        .flat_map(|fy| (0..CUT_WIDTH as i32).map(move |fx| (fx, fy)))
        .map(|(fx, fy)| to_crawl(px, py, facing, fx, fy))
        .collect();
    let rock = |at: &[i32; 2]| area.get(at[0], at[1]).map_or(Terrain::Wall, terrain);
    let grid: Vec<Terrain> = cells.iter().map(rock).collect();
    let field = Field::new(CUT_WIDTH, CUT_HEIGHT, grid).map_err(|e| e.to_string())?;
    let front = [CUT_WIDTH as i32 / 2, PARTY_ROW];
    // Up the corridor ahead as far as it is open, to the distance; at least one square.
    let mut ahead = front[1];
    for step in 1..=MONSTER_DISTANCE {
        let y = front[1] - step;
        if y < 0 || !field.passable(crate::fight::Pos::new(front[0], y)) {
            break;
        }
        ahead = y;
    }
    let monsters_at = [
        front[0],
        if ahead == front[1] {
            front[1] - 1
        } else {
            ahead
        },
    ];
    let encounter = Encounter {
        name: found.name.clone(),
        monsters: found.monsters.clone(),
        field: None,
        party_at: Some(front),
        monsters_at: Some([monsters_at[0], monsters_at[1].max(0)]),
    };
    Ok(Cut {
        field,
        encounter,
        cells,
    })
}

/// Whether an ending counts as the crawl's fight won (the group is gone) or not (the party
/// is put back where it stepped from).
pub fn won(ending: Ending) -> bool {
    ending == Ending::Won
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use jengine_crawler::Tables;

    fn crawl(map: &[&str], facing: &str) -> Crawl {
        let levels = serde_json::json!([{
            "name": "Hall", "map": map, "facing": facing,
            "encounters": [{ "at": [3, 3], "group": "kobold pack", "text": "Kobolds!" }]
        }]);
        let tables = Tables::from_json(&levels.to_string(), "[]", "[]").unwrap();
        Crawl::new(tables, 1)
    }

    fn encounters() -> Vec<Encounter> {
        let rules = Rules::builtin();
        let text = crate::rules::builtin_text("goldbox_encounters").unwrap();
        Encounter::table(
            &rules,
            crate::rules::Source {
                file: "goldbox_encounters",
                text,
            },
        )
        .unwrap()
    }

    #[test]
    fn the_field_is_turned_so_the_party_faces_up_it() {
        // The party starts on `<` at (3, 5) facing north, then steps onto the fight at (3, 3).
        let mut game = crawl(
            &[
                "#######", "#>.+..#", "#.....#", "#.....#", "#.....#", "#..<..#", "#######",
            ],
            "north",
        );
        game.walk(0, 1);
        assert!(game.state().encounter.is_none());
        game.walk(0, 1);
        let waiting = game.state();
        assert!(waiting.encounter.is_some(), "{:?}", game.events());
        let cut = cut(&game, &encounters()).unwrap();
        let at = |x: usize, y: usize| {
            cut.field
                .terrain(crate::fight::Pos::new(x as i32, y as i32))
        };
        // The party's cell is the front rank's middle; the door two ahead is shut.
        assert_eq!(cut.encounter.party_at, Some([7, PARTY_ROW]));
        assert_eq!(cut.cells[PARTY_ROW as usize * CUT_WIDTH + 7], [3, 3]);
        assert_eq!(at(7, PARTY_ROW as usize - 2), Terrain::DoorShut);
        assert_eq!(at(7, PARTY_ROW as usize - 3), Terrain::Wall);
        assert_eq!(at(7, PARTY_ROW as usize), Terrain::Floor);
        // Off the map is rock.
        assert_eq!(at(0, 0), Terrain::Wall);
        // The monsters stand up the corridor, as far as it is open.
        assert_eq!(cut.encounter.monsters_at, Some([7, PARTY_ROW - 1]));
        assert_eq!(cut.encounter.monsters[0].kind, "kobold");
    }

    #[test]
    fn facing_east_turns_the_level_a_quarter() {
        let mut game = crawl(
            &[
                "#######", "#>....#", "#.....#", "#<....#", "#.....#", "#.....#", "#######",
            ],
            "east",
        );
        game.walk(0, 1);
        game.walk(0, 1);
        assert!(game.state().encounter.is_some(), "{:?}", game.events());
        let cut = cut(&game, &encounters()).unwrap();
        // Up the field is east on the map; the party's right hand (field +x) is south.
        let mid = CUT_WIDTH / 2;
        assert_eq!(cut.cells[PARTY_ROW as usize * CUT_WIDTH + mid], [3, 3]);
        assert_eq!(
            cut.cells[(PARTY_ROW as usize - 1) * CUT_WIDTH + mid],
            [4, 3]
        );
        assert_eq!(cut.cells[PARTY_ROW as usize * CUT_WIDTH + mid + 1], [3, 4]);
        // Three squares east is the room's wall: (5, 3) is open, (6, 3) rock.
        let field_at = |dy: i32| {
            cut.field
                .terrain(crate::fight::Pos::new(mid as i32, PARTY_ROW - dy))
        };
        assert_eq!(field_at(2), Terrain::Floor);
        assert_eq!(field_at(3), Terrain::Wall);
        assert_eq!(cut.encounter.monsters_at, Some([mid as i32, PARTY_ROW - 2]));
    }

    #[test]
    fn no_fight_waiting_and_unknown_groups_are_refused_in_words() {
        let game = crawl(
            &["#####", "#>..#", "#...#", "#...#", "#.<.#", "#####"],
            "north",
        );
        assert_eq!(
            cut(&game, &encounters()).unwrap_err(),
            "the crawl has no fight waiting"
        );
        let levels = serde_json::json!([{
            "name": "Hall", "map": ["#####", "#>..#", "#...#", "#.<.#", "#####"], "facing": "north",
            "encounters": [{ "at": [2, 2], "group": "dragons", "text": "!" }]
        }]);
        let mut game = Crawl::new(
            Tables::from_json(&levels.to_string(), "[]", "[]").unwrap(),
            1,
        );
        game.walk(0, 1);
        let problem = cut(&game, &encounters()).unwrap_err();
        assert!(
            problem.starts_with("the crawl's group \"dragons\" is not in the encounters table"),
            "{problem}"
        );
    }
}
