//! The battlefield: a grid of terrain (wall, floor, open door, shut door), what can be seen
//! from where, how far a unit can walk, and the ground a spell covers. A shut door is as
//! solid as a wall for the length of a fight; walls stop sight, missiles and spells alike.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::Shape;

/// A square of the battlefield.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Rock: nothing passes or sees through.
    Wall,
    /// Open ground.
    Floor,
    /// A doorway standing open: walked and seen through like floor.
    DoorOpen,
    /// A shut door: solid for the fight.
    DoorShut,
}

impl Terrain {
    /// Whether a unit may stand on it.
    pub fn passable(self) -> bool {
        matches!(self, Terrain::Floor | Terrain::DoorOpen)
    }

    /// The symbol rows are written with: `#` wall, `.` floor, `/` open door, `+` shut door.
    pub fn symbol(self) -> char {
        match self {
            Terrain::Wall => '#',
            Terrain::Floor => '.',
            Terrain::DoorOpen => '/',
            Terrain::DoorShut => '+',
        }
    }

    /// The terrain a symbol stands for (a space is rock too).
    pub fn from_symbol(c: char) -> Option<Terrain> {
        match c {
            '#' | ' ' => Some(Terrain::Wall),
            '.' => Some(Terrain::Floor),
            '/' => Some(Terrain::DoorOpen),
            '+' => Some(Terrain::DoorShut),
            _ => None,
        }
    }
}

/// A square's place: `x` across from the left, `y` down from the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl Pos {
    /// The square at `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// Squares apart, a diagonal counting as one (how reach and range are measured).
    pub fn distance(self, o: Pos) -> i32 {
        (self.x - o.x).abs().max((self.y - o.y).abs())
    }

    /// Whether `o` is one of the eight squares around this one.
    pub fn adjacent(self, o: Pos) -> bool {
        self != o && self.distance(o) == 1
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// What is wrong with a terrain grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldError {
    /// No rows, or rows of no squares.
    Empty,
    /// Larger than [`Field::MAX`] either way.
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A row not as long as the first.
    Ragged {
        /// The row, from 0.
        row: usize,
        /// Its length.
        len: usize,
        /// The first row's.
        width: usize,
    },
    /// A symbol that is no terrain.
    Symbol {
        /// The row, from 0.
        row: usize,
        /// The column, from 0.
        col: usize,
        /// What was there.
        found: char,
    },
    /// A cell list of the wrong size.
    Size {
        /// Cells given.
        cells: usize,
        /// Width times height.
        expected: usize,
    },
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldError::Empty => write!(f, "the battlefield has no squares"),
            FieldError::TooLarge { width, height } => write!(
                f,
                "the battlefield is {width}x{height}; at most {0}x{0} squares",
                Field::MAX
            ),
            FieldError::Ragged { row, len, width } => write!(
                f,
                "field row {row} has {len} squares, the first row {width}"
            ),
            FieldError::Symbol { row, col, found } => write!(
                f,
                "field row {row}, square {col}: {found:?} is not terrain (# wall, . floor, / open door, + shut door)"
            ),
            FieldError::Size { cells, expected } => {
                write!(f, "{cells} squares given for a field of {expected}")
            }
        }
    }
}

impl std::error::Error for FieldError {}

/// The battlefield's terrain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    width: i32,
    height: i32,
    cells: Vec<Terrain>,
}

/// Movement cost of a straight step and of a diagonal one, in half-squares.
pub const STEP: u16 = 2;
/// See [`STEP`].
pub const DIAGONAL: u16 = 3;

const AROUND: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

impl Field {
    /// The largest side a field may have.
    pub const MAX: usize = 64;

    /// A field from its cells, row by row from the top: what a caller cuts from a level.
    pub fn new(width: usize, height: usize, cells: Vec<Terrain>) -> Result<Field, FieldError> {
        if width == 0 || height == 0 {
            return Err(FieldError::Empty);
        }
        if width > Field::MAX || height > Field::MAX {
            return Err(FieldError::TooLarge { width, height });
        }
        if cells.len() != width * height {
            return Err(FieldError::Size {
                cells: cells.len(),
                expected: width * height,
            });
        }
        Ok(Field {
            width: width as i32,
            height: height as i32,
            cells,
        })
    }

    /// A field drawn as rows of symbols (see [`Terrain::symbol`]).
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Field, FieldError> {
        let width = rows.first().map_or(0, |r| r.as_ref().chars().count());
        if width == 0 {
            return Err(FieldError::Empty);
        }
        if width > Field::MAX || rows.len() > Field::MAX {
            return Err(FieldError::TooLarge {
                width,
                height: rows.len(),
            });
        }
        let mut cells = Vec::with_capacity(width * rows.len());
        for (row, text) in rows.iter().enumerate() {
            let len = text.as_ref().chars().count();
            if len != width {
                return Err(FieldError::Ragged { row, len, width });
            }
            for (col, c) in text.as_ref().chars().enumerate() {
                cells.push(Terrain::from_symbol(c).ok_or(FieldError::Symbol {
                    row,
                    col,
                    found: c,
                })?);
            }
        }
        Field::new(width, rows.len(), cells)
    }

    /// An open field of floor, `width` by `height`.
    pub fn open(width: usize, height: usize) -> Result<Field, FieldError> {
        Field::new(width, height, vec![Terrain::Floor; width * height])
    }

    /// A field built square by square from `terrain(x, y)`: how a caller turns its own grid
    /// (a crawler level's cells, say) into a battlefield without drawing it as rows.
    pub fn from_fn(
        width: usize,
        height: usize,
        terrain: impl Fn(i32, i32) -> Terrain,
    ) -> Result<Field, FieldError> {
        let cells = (0..height as i32)
            .flat_map(|y| (0..width as i32).map(move |x| (x, y)))
            .map(|(x, y)| terrain(x, y))
            .collect();
        Field::new(width, height, cells)
    }

    /// The `width` by `height` window of this field whose top-left square is `(x, y)`; what
    /// lies outside the field is wall. A fight on a large level is fought on a window round
    /// the party.
    pub fn window(&self, x: i32, y: i32, width: usize, height: usize) -> Result<Field, FieldError> {
        Field::from_fn(width, height, |dx, dy| {
            self.terrain(Pos::new(x + dx, y + dy))
        })
    }

    /// Columns.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Whether a square is on the field.
    pub fn inside(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    fn index(&self, p: Pos) -> usize {
        (p.y * self.width + p.x) as usize
    }

    /// The terrain at a square; off the field is wall.
    pub fn terrain(&self, p: Pos) -> Terrain {
        if self.inside(p) {
            self.cells[self.index(p)]
        } else {
            Terrain::Wall
        }
    }

    /// Whether a unit may stand at a square.
    pub fn passable(&self, p: Pos) -> bool {
        self.terrain(p).passable()
    }

    /// Whether a square is on the field's outer edge: where a unit may leave the fight.
    pub fn on_edge(&self, p: Pos) -> bool {
        self.inside(p) && (p.x == 0 || p.y == 0 || p.x == self.width - 1 || p.y == self.height - 1)
    }

    /// The rows of symbols.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| self.terrain(Pos::new(x, y)).symbol())
                    .collect()
            })
            .collect()
    }

    /// Whether nothing solid lies between the middles of two squares. A line passes between
    /// two diagonal neighbours only if one of them is open; it is tried from both ends, so
    /// sight is the same both ways.
    pub fn line_of_sight(&self, a: Pos, b: Pos) -> bool {
        self.clear_line(a, b) || self.clear_line(b, a)
    }

    fn clear_line(&self, a: Pos, b: Pos) -> bool {
        let mut clear = true;
        walk_line(a, b, |prev, p| {
            if p == b {
                return false;
            }
            let diagonal = prev.x != p.x && prev.y != p.y;
            if !self.passable(p)
                || (diagonal
                    && !self.passable(Pos::new(p.x, prev.y))
                    && !self.passable(Pos::new(prev.x, p.y)))
            {
                clear = false;
                return false;
            }
            true
        });
        // The last step into `b` may squeeze between two walls too.
        if clear && a != b {
            let mut last = a;
            walk_line(a, b, |prev, p| {
                if p == b {
                    last = prev;
                    return false;
                }
                true
            });
            if last.x != b.x
                && last.y != b.y
                && !self.passable(Pos::new(b.x, last.y))
                && !self.passable(Pos::new(last.x, b.y))
            {
                clear = false;
            }
        }
        clear
    }

    /// Walking costs from `from` to every square within `points` half-squares, going round
    /// squares `blocked` says are taken: the cost (or `u16::MAX`) and the square each was
    /// reached from, indexed by `y * width + x`.
    pub fn walk_costs(&self, from: Pos, points: u16, blocked: impl Fn(Pos) -> bool) -> Walk {
        self.walk_costs_over(from, points, blocked, |_| false)
    }

    /// [`Field::walk_costs`], where squares `over` says may be walked through but not stopped
    /// on (a friend's, standing or fallen): they are on paths, never a walk's end.
    pub fn walk_costs_over(
        &self,
        from: Pos,
        points: u16,
        blocked: impl Fn(Pos) -> bool,
        over: impl Fn(Pos) -> bool,
    ) -> Walk {
        let n = (self.width * self.height) as usize;
        let mut cost = vec![u16::MAX; n];
        let mut came = vec![u32::MAX; n];
        let mut heap = BinaryHeap::new();
        if self.inside(from) {
            cost[self.index(from)] = 0;
            heap.push(Reverse((0u16, self.index(from) as u32)));
        }
        while let Some(Reverse((c, i))) = heap.pop() {
            if c > cost[i as usize] {
                continue;
            }
            let p = Pos::new(i as i32 % self.width, i as i32 / self.width);
            for (k, (dx, dy)) in AROUND.iter().enumerate() {
                let q = Pos::new(p.x + dx, p.y + dy);
                if !self.passable(q) || blocked(q) {
                    continue;
                }
                let diagonal = k >= 4;
                if diagonal
                    && !self.passable(Pos::new(q.x, p.y))
                    && !self.passable(Pos::new(p.x, q.y))
                {
                    continue;
                }
                let nc = c + if diagonal { DIAGONAL } else { STEP };
                if nc > points {
                    continue;
                }
                let qi = self.index(q);
                if nc < cost[qi] {
                    cost[qi] = nc;
                    came[qi] = i;
                    heap.push(Reverse((nc, qi as u32)));
                }
            }
        }
        let through = (0..n)
            .map(|i| {
                let p = Pos::new(i as i32 % self.width, i as i32 / self.width);
                cost[i] != u16::MAX && p != from && over(p)
            })
            .collect();
        Walk {
            width: self.width,
            cost,
            came,
            through,
        }
    }

    /// Steps (straight or diagonal, each one) from every square to the nearest square in
    /// `goals`, walking over terrain only; `u16::MAX` where none can be reached.
    pub fn distances_to(&self, goals: impl IntoIterator<Item = Pos>) -> Vec<u16> {
        let n = (self.width * self.height) as usize;
        let mut dist = vec![u16::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        for g in goals {
            if self.inside(g) && dist[self.index(g)] == u16::MAX {
                dist[self.index(g)] = 0;
                queue.push_back(g);
            }
        }
        while let Some(p) = queue.pop_front() {
            let d = dist[self.index(p)];
            for (dx, dy) in AROUND {
                let q = Pos::new(p.x + dx, p.y + dy);
                if self.passable(q) && dist[self.index(q)] == u16::MAX {
                    dist[self.index(q)] = d + 1;
                    queue.push_back(q);
                }
            }
        }
        dist
    }

    /// The squares a spell of `shape` and `size` covers when cast from `from` at `at`.
    /// A radius is round and sheltered by walls from its middle; a line runs from the
    /// caster through `at` until it has gone `size` squares or meets stone; a cone widens
    /// from the caster toward `at`, 45 degrees either side, as far as `size`, and only over
    /// squares the caster sees.
    pub fn area(&self, shape: Shape, size: u8, from: Pos, at: Pos) -> Vec<Pos> {
        let size = size as i32;
        match shape {
            Shape::Single => vec![at],
            Shape::Radius => {
                let mut out = Vec::new();
                if !self.passable(at) {
                    return out;
                }
                for y in at.y - size..=at.y + size {
                    for x in at.x - size..=at.x + size {
                        let p = Pos::new(x, y);
                        let (dx, dy) = (x - at.x, y - at.y);
                        if dx * dx + dy * dy <= size * size + size
                            && self.passable(p)
                            && self.line_of_sight(at, p)
                        {
                            out.push(p);
                        }
                    }
                }
                out
            }
            Shape::Line => {
                let (dx, dy) = (at.x - from.x, at.y - from.y);
                let len = dx.abs().max(dy.abs());
                let mut out = Vec::new();
                if len == 0 {
                    return out;
                }
                let mut prev = from;
                for i in 1..=size {
                    let p = Pos::new(
                        from.x + div_round(dx * i, len),
                        from.y + div_round(dy * i, len),
                    );
                    let diagonal = prev.x != p.x && prev.y != p.y;
                    if !self.passable(p)
                        || (diagonal
                            && !self.passable(Pos::new(p.x, prev.y))
                            && !self.passable(Pos::new(prev.x, p.y)))
                    {
                        break;
                    }
                    out.push(p);
                    prev = p;
                }
                out
            }
            Shape::Cone => {
                let (ax, ay) = (at.x - from.x, at.y - from.y);
                let aim = (ax * ax + ay * ay) as i64;
                let mut out = Vec::new();
                if aim == 0 {
                    return out;
                }
                for y in from.y - size..=from.y + size {
                    for x in from.x - size..=from.x + size {
                        let p = Pos::new(x, y);
                        let (vx, vy) = (x - from.x, y - from.y);
                        let dot = (vx * ax + vy * ay) as i64;
                        let len = (vx * vx + vy * vy) as i64;
                        if p != from
                            && dot > 0
                            && 2 * dot * dot >= len * aim
                            && self.passable(p)
                            && self.line_of_sight(from, p)
                        {
                            out.push(p);
                        }
                    }
                }
                out
            }
        }
    }
}

/// `n / d` rounded to the nearest whole number, halves away from zero (`d` > 0).
fn div_round(n: i32, d: i32) -> i32 {
    if n >= 0 {
        (2 * n + d) / (2 * d)
    } else {
        -((-2 * n + d) / (2 * d))
    }
}

/// Calls `step(previous, square)` for each square of the straight line from `a` to `b`
/// (Bresenham's), `a` left out, until it returns false or `b` is passed.
fn walk_line(a: Pos, b: Pos, mut step: impl FnMut(Pos, Pos) -> bool) {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let mut err = dx + dy;
    let mut p = a;
    while p != b {
        let prev = p;
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            p.x += sx;
        }
        if e2 <= dx {
            err += dx;
            p.y += sy;
        }
        if !step(prev, p) {
            return;
        }
    }
}

/// What [`Field::walk_costs`] found.
#[derive(Debug, Clone)]
pub struct Walk {
    width: i32,
    cost: Vec<u16>,
    came: Vec<u32>,
    /// Squares on paths that a walk may not end on.
    through: Vec<bool>,
}

impl Walk {
    /// The cost of walking to `p`, if it can be reached.
    pub fn cost(&self, p: Pos) -> Option<u16> {
        if p.x < 0 || p.y < 0 || p.x >= self.width {
            return None;
        }
        let i = (p.y * self.width + p.x) as usize;
        self.cost
            .get(i)
            .copied()
            .filter(|c| *c != u16::MAX && !self.through[i])
    }

    /// Every square that can be reached, with its cost, row by row.
    pub fn reached(&self) -> impl Iterator<Item = (Pos, u16)> + '_ {
        self.cost
            .iter()
            .enumerate()
            .filter(|(i, c)| **c != u16::MAX && !self.through[*i])
            .map(|(i, c)| (Pos::new(i as i32 % self.width, i as i32 / self.width), *c))
    }

    /// The squares stepped on from the start to `p` (the start left out), if reachable.
    pub fn path(&self, p: Pos) -> Option<Vec<Pos>> {
        self.cost(p)?;
        let mut out = vec![p];
        let mut i = (p.y * self.width + p.x) as usize;
        while self.came[i] != u32::MAX {
            i = self.came[i] as usize;
            out.push(Pos::new(i as i32 % self.width, i as i32 / self.width));
        }
        out.pop();
        out.reverse();
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(rows: &[&str]) -> Field {
        Field::from_rows(rows).unwrap()
    }

    #[test]
    fn rows_read_back_and_bad_rows_are_refused_in_words() {
        let rows = ["#####", "#./+#", "#####"];
        assert_eq!(field(&rows).rows(), rows);
        assert_eq!(
            Field::from_rows(&["###", "#x#"]).unwrap_err().to_string(),
            "field row 1, square 1: 'x' is not terrain (# wall, . floor, / open door, + shut door)"
        );
        assert_eq!(
            Field::from_rows(&["###", "##"]).unwrap_err().to_string(),
            "field row 1 has 2 squares, the first row 3"
        );
        assert_eq!(
            Field::from_rows::<&str>(&[]).unwrap_err(),
            FieldError::Empty
        );
        assert!(Field::open(65, 2).is_err());
    }

    #[test]
    fn a_field_can_be_cut_from_a_larger_grid() {
        let level = field(&["########", "#......#", "#..+...#", "#....../", "########"]);
        let cut = level.window(2, 1, 5, 4).unwrap();
        assert_eq!(cut.rows(), [".....", ".+...", ".....", "#####"]);
        // Past the level's edge is rock.
        let edge = level.window(6, 2, 4, 2).unwrap();
        assert_eq!(edge.rows(), [".###", "./##"]);
        let built = Field::from_fn(3, 2, |x, y| {
            if (x + y) % 2 == 0 {
                Terrain::Floor
            } else {
                Terrain::DoorShut
            }
        })
        .unwrap();
        assert_eq!(built.rows(), [".+.", "+.+"]);
        assert_eq!(level.window(0, 0, 0, 3).unwrap_err(), FieldError::Empty);
    }

    #[test]
    fn walls_and_shut_doors_block_sight_open_doors_do_not() {
        let f = field(&[
            "#########",
            "#...#...#",
            "#...+...#",
            "#...#...#",
            "#.../...#",
            "#########",
        ]);
        assert!(f.line_of_sight(Pos::new(1, 1), Pos::new(3, 3)));
        assert!(
            !f.line_of_sight(Pos::new(2, 2), Pos::new(6, 2)),
            "shut door"
        );
        assert!(f.line_of_sight(Pos::new(2, 4), Pos::new(6, 4)), "open door");
        assert!(!f.line_of_sight(Pos::new(1, 1), Pos::new(7, 1)));
        // Sight is the same both ways.
        for (a, b) in [((1, 1), (7, 4)), ((3, 4), (5, 1)), ((1, 4), (7, 3))] {
            let (a, b) = (Pos::new(a.0, a.1), Pos::new(b.0, b.1));
            assert_eq!(f.line_of_sight(a, b), f.line_of_sight(b, a));
        }
    }

    #[test]
    fn sight_does_not_slip_between_diagonal_walls() {
        let f = field(&["....", ".#..", "..#.", "...."]);
        assert!(!f.line_of_sight(Pos::new(0, 0), Pos::new(3, 3)));
        assert!(f.line_of_sight(Pos::new(0, 0), Pos::new(3, 0)));
    }

    #[test]
    fn walking_costs_two_straight_and_three_diagonal() {
        let f = field(&["......", "......", "......"]);
        let walk = f.walk_costs(Pos::new(0, 0), 6, |_| false);
        assert_eq!(walk.cost(Pos::new(3, 0)), Some(6));
        assert_eq!(walk.cost(Pos::new(1, 1)), Some(3));
        assert_eq!(walk.cost(Pos::new(2, 2)), Some(6));
        assert_eq!(walk.cost(Pos::new(4, 0)), None, "beyond the points");
        let path = walk.path(Pos::new(2, 2)).unwrap();
        assert_eq!(path, [Pos::new(1, 1), Pos::new(2, 2)]);
        // A taken square is walked round.
        let walk = f.walk_costs(Pos::new(0, 1), 20, |p| p == Pos::new(1, 1));
        assert_eq!(walk.cost(Pos::new(2, 1)), Some(6));
    }

    #[test]
    fn a_radius_is_round_and_sheltered_by_walls() {
        let f = Field::open(9, 9).unwrap();
        let area = f.area(Shape::Radius, 2, Pos::new(0, 0), Pos::new(4, 4));
        assert_eq!(area.len(), 21, "a 5x5 square less its corners");
        assert!(!area.contains(&Pos::new(2, 2)));
        assert!(area.contains(&Pos::new(3, 2)));
        let walled = field(&[".......", ".......", "...#...", ".......", "......."]);
        let area = walled.area(Shape::Radius, 2, Pos::new(0, 0), Pos::new(3, 3));
        assert!(!area.contains(&Pos::new(3, 2)), "the wall itself");
        assert!(!area.contains(&Pos::new(3, 1)), "behind the wall");
        assert!(area.contains(&Pos::new(1, 3)));
    }

    #[test]
    fn a_line_runs_its_length_or_to_the_first_wall() {
        let f = Field::open(12, 3).unwrap();
        let line = f.area(Shape::Line, 8, Pos::new(0, 1), Pos::new(2, 1));
        assert_eq!(line.len(), 8);
        assert_eq!(line[7], Pos::new(8, 1));
        let walled = field(&["......#....."]);
        let line = walled.area(Shape::Line, 8, Pos::new(0, 0), Pos::new(1, 0));
        assert_eq!(line.len(), 5);
        let diagonal =
            Field::open(9, 9)
                .unwrap()
                .area(Shape::Line, 4, Pos::new(0, 0), Pos::new(1, 1));
        assert_eq!(
            diagonal,
            [
                Pos::new(1, 1),
                Pos::new(2, 2),
                Pos::new(3, 3),
                Pos::new(4, 4)
            ]
        );
    }

    #[test]
    fn a_cone_widens_away_from_the_caster() {
        let f = Field::open(9, 9).unwrap();
        let cone = f.area(Shape::Cone, 3, Pos::new(1, 4), Pos::new(2, 4));
        // One wide, then three, then five, then seven.
        let mut by_column = [0; 9];
        for p in &cone {
            by_column[p.x as usize] += 1;
        }
        assert_eq!(by_column[..5], [0, 0, 3, 5, 7]);
        assert!(!cone.contains(&Pos::new(1, 4)), "not the caster");
        assert!(cone.iter().all(|p| p.x > 1));
        assert_eq!(cone.len(), 15);
    }
}
