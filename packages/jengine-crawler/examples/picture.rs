//! Prints the picture of a diagnostic dungeon as JSON: the frame, then every quad far to near.
//!
//! The dungeon puts one of everything the geometry has to get right in view of the party:
//! a room whose side walls lean in, a wall across it holding an archway, a shut door, an
//! opened door (stairs down beyond it), stairs up beyond the arch and a locked one, a pillar hiding what is behind it, a
//! chest, a pit and a monster.
//!
//! ```text
//! cargo run -p jengine-crawler --example picture > quads.json
//! cargo run -p jengine-crawler --example picture -- 2 1 south > from-the-back.json
//! cargo run -p jengine-crawler --example quads_png -- quads.json picture.png
//! ```

use jengine_crawler::map::{Cell, Dungeon, Facing, Monster};
use jengine_crawler::view::{self, Frame};

/// The diagnostic dungeon; the party stands on the bottom row, in the middle, facing north.
const ROWS: [&str; 10] = [
    "#########",
    "##<#...##",
    "##.#.>.##",
    "##A+#+=##",
    "##.....##",
    "##C..#.##",
    "##....M##",
    "##...O.##",
    "##.....##",
    "#########",
];

fn main() {
    let mut dungeon = Dungeon::from_rows(&ROWS);
    // The door on the right has been opened: it keeps its arch.
    if let Some(cell) = dungeon.cell_mut(5, 3) {
        *cell = Cell::Open;
    }
    dungeon.monsters.push(Monster {
        kind: 0,
        x: 6,
        y: 6,
        hp: 1,
        awake: false,
        art: "rat".into(),
    });
    let frame = Frame {
        depth: 6,
        ..Frame::default()
    };
    // Another place to stand can be given as `X Y FACING`, to look around the same dungeon.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (x, y, facing) = match args.as_slice() {
        [x, y, f] => {
            let facing = match f.as_str() {
                "east" => Facing::East,
                "south" => Facing::South,
                "west" => Facing::West,
                _ => Facing::North,
            };
            (x.parse().unwrap_or(4), y.parse().unwrap_or(8), facing)
        }
        _ => (4, 8, Facing::North),
    };
    let quads = view::build(&dungeon, x, y, facing, &frame);
    let out = serde_json::json!({ "frame": frame, "quads": quads });
    match serde_json::to_string_pretty(&out) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("could not write the quads: {e}"),
    }
}
