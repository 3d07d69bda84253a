//! The hot paths: building the picture, and a long scripted crawl.

use criterion::{Criterion, black_box, criterion_main};
use jengine_crawler::map::{Cell, Dungeon, Facing, Tables};
use jengine_crawler::view::{self, Frame};
use jengine_crawler::{Crawl, Event};
use serde_json::json;

fn open_room() -> Dungeon {
    let mut rows = vec!["#".repeat(23)];
    rows.extend((0..21).map(|_| format!("#{}#", ".".repeat(21))));
    rows.push("#".repeat(23));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    Dungeon::from_rows(&refs)
}

fn corridor() -> Dungeon {
    let mut rows = vec!["###".to_string()];
    rows.extend((0..12).map(|_| "#.#".to_string()));
    rows.push("###".to_string());
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    Dungeon::from_rows(&refs)
}

fn bench_view(c: &mut Criterion) {
    let frame = Frame {
        depth: 4,
        ..Frame::default()
    };
    let room = open_room();
    c.bench_function("view::build depth 4, open room", |b| {
        b.iter(|| view::build(black_box(&room), 11, 19, Facing::North, &frame))
    });
    let hall = corridor();
    c.bench_function("view::build depth 4, corridor", |b| {
        b.iter(|| view::build(black_box(&hall), 1, 12, Facing::North, &frame))
    });
}

/// Three floors of rooms and corridors, with monsters, traps, chests, doors and random fights.
fn three_floors() -> Tables {
    let levels = json!([
        { "name": "One",
          "map": ["###########",
                  "#<..+...C.#",
                  "#.#####.#.#",
                  "#.#...#.#^#",
                  "#...M.+.#.#",
                  "#.#...#...#",
                  "#.#####.#.#",
                  "#.......#>#",
                  "###########"],
          "chests": ["gold:5"], "traps": ["dart"], "monsters": ["rat"],
          "encounter_rate": 0.05, "groups": ["rats"], "encounter_grace": 3 },
        { "name": "Two",
          "map": ["###########",
                  "#<........#",
                  "#.###.###.#",
                  "#.#.M...#.#",
                  "#.#.###.#.#",
                  "#...#C#...#",
                  "###.#.#.###",
                  "#>..A...M.#",
                  "###########"],
          "chests": ["heal:5"], "monsters": ["rat", "bat"],
          "encounter_rate": 0.05, "groups": ["bats"], "encounter_grace": 3 },
        { "name": "Three",
          "map": ["#########",
                  "#<......#",
                  "#.##.##.#",
                  "#...M...#",
                  "#.##.##>#",
                  "#########"],
          "monsters": ["rat"] }
    ]);
    let monsters = r#"[{ "name": "rat", "hp": 3, "attack": 1, "sight": 4 },
                       { "name": "bat", "hp": 2, "attack": 1, "sight": 3 }]"#;
    let crawlers = r#"[{ "name": "A", "hp": 9999, "attack": 3 }, { "name": "B", "hp": 9999, "attack": 3 },
                       { "name": "C", "hp": 9999, "reach": 3 }, { "name": "D", "hp": 9999 }]"#;
    Tables::from_json(&levels.to_string(), monsters, crawlers).expect("the bench dungeon loads")
}

/// The first step from `from` toward the nearest cell drawn `goal`, through anything but rock.
fn first_step(floor: &Dungeon, from: (i32, i32), goal: char) -> Option<(i32, i32)> {
    let w = floor.width;
    let mut came = vec![None; floor.cells.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    came[(from.1 * w + from.0) as usize] = Some(from);
    while let Some((x, y)) = queue.pop_front() {
        if floor.cell(x, y).symbol() == goal && (x, y) != from {
            // Walk back to the step right after `from`.
            let mut at = (x, y);
            while let Some(prev) = came[(at.1 * w + at.0) as usize].filter(|p| *p != from) {
                at = prev;
            }
            return Some(at);
        }
        for f in Facing::ALL {
            let (dx, dy) = f.ahead();
            let (nx, ny) = (x + dx, y + dy);
            let cell = floor.cell(nx, ny);
            let passable = cell.is_walkable() || cell.symbol() == '+';
            if floor.contains(nx, ny) && passable && came[(ny * w + nx) as usize].is_none() {
                came[(ny * w + nx) as usize] = Some((x, y));
                queue.push_back((nx, ny));
            }
        }
    }
    None
}

/// Walks to the stairs down and takes them, floor by floor, then back up to the top, and
/// again: fighting what stands in the way, opening doors, settling every fight as won.
fn scripted_crawl(tables: &Tables, ticks: u64) -> u64 {
    let mut crawl = Crawl::new(tables.clone(), 3);
    let mut going_down = true;
    let mut actions = 0u64;
    while crawl.state().tick < ticks && actions < ticks * 4 {
        actions += 1;
        let s = crawl.state();
        if s.encounter.is_some() {
            crawl.resolve(true);
            continue;
        }
        if s.level + 1 == s.levels && s.on_stairs {
            // The bottom: walk to its stairs down, but turn back rather than leave.
            going_down = false;
        }
        if (going_down && s.on_stairs) || (!going_down && s.on_stairs_up) {
            crawl.use_ahead();
            if crawl.events().contains(&Event::Exit) {
                going_down = true;
            }
            continue;
        }
        let goal = if going_down { '>' } else { '<' };
        let Some((nx, ny)) = first_step(crawl.floor(), (s.x, s.y), goal) else {
            crawl.wait();
            continue;
        };
        let want = Facing::ALL
            .into_iter()
            .find(|f| f.ahead() == (nx - s.x, ny - s.y))
            .unwrap_or(s.facing);
        if want != s.facing {
            crawl.turn(if want == s.facing.turned(-1) { -1 } else { 1 });
            continue;
        }
        let shut = matches!(
            crawl.floor().cell(nx, ny),
            Cell::Door | Cell::Chest { opened: false, .. }
        );
        match s.ahead {
            'M' => crawl.attack(),
            _ if shut => crawl.use_ahead(),
            _ => crawl.walk(0, 1),
        };
    }
    crawl.state().tick
}

fn bench_crawl(c: &mut Criterion) {
    let tables = three_floors();
    let mut group = c.benchmark_group("crawl");
    group.sample_size(20);
    group.bench_function("10,000 ticks through three floors", |b| {
        b.iter(|| scripted_crawl(black_box(&tables), 10_000))
    });
    group.finish();
}

/// A 41 x 41 room with a bit of everything in the middle, for the live query.
fn big_room() -> Crawl {
    let mut rows = vec!["#".repeat(41)];
    for y in 1..40 {
        let mut row: Vec<char> = format!("#{}#", ".".repeat(39)).chars().collect();
        if y % 4 == 0 {
            for x in (2..39).step_by(5) {
                row[x] = '#';
            }
        }
        rows.push(row.into_iter().collect());
    }
    rows.push("#".repeat(41));
    rows[1].replace_range(1..2, "<");
    rows[39].replace_range(39..40, ">");
    rows[20].replace_range(18..21, "+C^");
    let levels = json!([{
        "name": "Hall", "map": rows, "chests": ["gold:1"], "traps": ["dart"],
        "items": [{ "at": [21, 20], "loot": "gold:2" }],
        "encounters": [{ "at": [22, 21], "group": "orcs" }],
        "events": [{ "at": [23, 19], "id": "statue" }]
    }]);
    let tables = Tables::from_json(&levels.to_string(), "[]", "[]").expect("the big room loads");
    Crawl::new(tables, 1)
}

fn bench_query(c: &mut Criterion) {
    let crawl = big_room();
    c.bench_function("Crawl::around radius 10 (441 cells)", |b| {
        b.iter(|| crawl.around(black_box(20), black_box(20), 10))
    });
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench_view(&mut c);
    bench_crawl(&mut c);
    bench_query(&mut c);
}

criterion_main!(benches);
