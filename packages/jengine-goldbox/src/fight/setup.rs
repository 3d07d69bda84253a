//! What a fight is made of before it starts: the encounter (which monsters, how many, where
//! they and the party stand, and perhaps their own battlefield), read from a table or from
//! one JSON object and checked against the rules like every other table.
//!
//! Placing: the party stands by formation round its anchor, and each monster takes the open
//! square nearest its place in ranks of six *among those that keep it off the party* (on the
//! monsters' side, not next to any member), so a group cut from a narrow corridor does not
//! start at the party's elbow. Only when the field has no such square left does a monster
//! stand where the formation alone would put it.

use serde::{Deserialize, Serialize};

use super::field::{Field, Pos};
use super::log::{Refused, refuse};
use super::unit::{Side, Unit};
use crate::rules::tables::{Report, check_names, read_rows};
use crate::rules::{Rules, Source, TableError};

/// So many of one monster kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// The monster kind.
    pub kind: String,
    /// How many (1 to 24).
    pub count: u8,
}

/// An encounter: the monsters and, optionally, where the fight happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Encounter {
    /// The encounter's name.
    #[serde(default)]
    pub name: String,
    /// The monsters, group by group.
    pub monsters: Vec<Group>,
    /// Its own battlefield as rows of terrain symbols; the caller's field when left out.
    #[serde(default)]
    pub field: Option<Vec<String>>,
    /// Where the party's front rank stands (its middle); near the bottom when left out.
    #[serde(default)]
    pub party_at: Option<[i32; 2]>,
    /// Where the monsters' first rank stands; near the top when left out.
    #[serde(default)]
    pub monsters_at: Option<[i32; 2]>,
}

impl Encounter {
    /// Most monsters one encounter may hold.
    pub const MAX_MONSTERS: usize = 24;

    /// Reads and checks an encounters table.
    pub fn table(rules: &Rules, src: Source<'_>) -> Result<Vec<Encounter>, TableError> {
        let mut problems = Vec::new();
        let rows: Vec<(usize, Encounter)> = read_rows(src, &mut problems);
        let mut r = Report {
            file: src.file.to_string(),
            problems: &mut problems,
        };
        check_names(&mut r, rows.iter().map(|(i, e)| (*i, e.name.as_str())));
        for (row, e) in &rows {
            e.check(rules, &mut r, *row);
        }
        if problems.is_empty() {
            Ok(rows.into_iter().map(|(_, e)| e).collect())
        } else {
            Err(TableError { problems })
        }
    }

    /// Reads and checks one encounter given as a JSON object (`what` names it in messages).
    pub fn from_json(rules: &Rules, what: &str, text: &str) -> Result<Encounter, TableError> {
        let mut problems = Vec::new();
        let wrapped = format!("[{text}]");
        let rows: Vec<(usize, Encounter)> = read_rows(
            Source {
                file: what,
                text: &wrapped,
            },
            &mut problems,
        );
        let mut r = Report {
            file: what.to_string(),
            problems: &mut problems,
        };
        if rows.len() > 1 {
            r.add(0, "", "", "one encounter object, not several");
        }
        for (row, e) in &rows {
            e.check(rules, &mut r, *row);
        }
        match (problems.is_empty(), rows.into_iter().next()) {
            (true, Some((_, e))) => Ok(e),
            (true, None) => Err(TableError {
                problems: vec![crate::rules::Problem {
                    file: what.to_string(),
                    row: 0,
                    label: None,
                    field: String::new(),
                    message: "no encounter given".into(),
                }],
            }),
            _ => Err(TableError { problems }),
        }
    }

    fn check(&self, rules: &Rules, r: &mut Report<'_>, row: usize) {
        let n = self.name.as_str();
        if self.monsters.is_empty() {
            r.add(
                row,
                n,
                "monsters",
                "an encounter needs at least one monster",
            );
        }
        let mut total = 0usize;
        for (i, g) in self.monsters.iter().enumerate() {
            if rules.monster(&g.kind).is_none() {
                r.add(
                    row,
                    n,
                    &format!("monsters[{i}].kind"),
                    format!("{:?} is not in the monsters table", g.kind),
                );
            }
            if g.count == 0 {
                r.add(row, n, &format!("monsters[{i}].count"), "at least 1");
            }
            total += g.count as usize;
        }
        if total > Encounter::MAX_MONSTERS {
            r.add(
                row,
                n,
                "monsters",
                format!("{total} monsters; at most {}", Encounter::MAX_MONSTERS),
            );
        }
        if let Some(rows) = &self.field
            && let Err(e) = Field::from_rows(rows)
        {
            r.add(row, n, "field", e.to_string());
        }
        for (name, at) in [
            ("party_at", self.party_at),
            ("monsters_at", self.monsters_at),
        ] {
            if let Some([x, y]) = at
                && (!(0..Field::MAX as i32).contains(&x) || !(0..Field::MAX as i32).contains(&y))
            {
                r.add(row, n, name, format!("({x}, {y}) is off any field"));
            }
        }
    }

    /// The encounter's own field, if it has one (checked when it was read).
    pub fn own_field(&self) -> Option<Field> {
        self.field
            .as_ref()
            .and_then(|rows| Field::from_rows(rows).ok())
    }

    /// The anchor of the party's front rank on `field`.
    pub fn party_anchor(&self, field: &Field) -> Pos {
        match self.party_at {
            Some([x, y]) => Pos::new(x, y),
            None => Pos::new(field.width() / 2, (field.height() - 3).max(0)),
        }
    }

    /// The anchor of the monsters' first rank on `field`.
    pub fn monster_anchor(&self, field: &Field) -> Pos {
        match self.monsters_at {
            Some([x, y]) => Pos::new(x, y),
            None => Pos::new(field.width() / 2, 2.min(field.height() - 1)),
        }
    }
}

/// How far (in squares, a diagonal counting one) a monster starts from the nearest member
/// when the field has room: two, so a clear square lies between and no blow of an ordinary
/// reach lands before somebody moves. (Three was tried: bands then start so far up a hall
/// that a careful party's fights stall into the hundred-round limit.)
pub const START_GAP: i32 = 2;

/// Where both sides stand as a fight starts on `field`: `members` squares for the party by
/// formation round `party_at` (ranks of three, each further rank a row further down), then
/// `monsters` squares for the monsters in ranks of up to six round `monsters_at` (each
/// further rank a row further up). Each monster takes, nearest its place first, a free open
/// square on the monsters' side (no nearer the party's anchor than the monsters') at least
/// [`START_GAP`] from every member; only when none is left, the nearest free square at all.
/// `Err(n)` names the unit (0-based, the party first) left without an open square.
pub fn places(
    field: &Field,
    members: usize,
    monsters: usize,
    party_at: Pos,
    monsters_at: Pos,
) -> Result<(Vec<Pos>, Vec<Pos>), usize> {
    let back = 1;
    let mut taken: Vec<Pos> = Vec::new();
    for n in 0..members {
        let want = formation(n, members, 3, party_at, back);
        let at = nearest_free(field, want, &taken).ok_or(n)?;
        taken.push(at);
    }
    let party = taken.clone();
    let gap = |p: Pos| {
        party
            .iter()
            .map(|m| m.distance(p))
            .min()
            .unwrap_or(i32::MAX)
    };
    let theirs = |p: Pos| p.distance(monsters_at) <= p.distance(party_at);
    let mut open: Vec<Pos> = (0..field.height())
        .flat_map(|y| (0..field.width()).map(move |x| Pos::new(x, y)))
        .filter(|&p| field.passable(p) && !taken.contains(&p))
        .collect();
    let mut placed = Vec::new();
    for n in 0..monsters {
        let want = formation(n, monsters, 6, monsters_at, -back);
        // Nearest first, then row by row: the order the ring search walks.
        open.sort_by_key(|p| (p.distance(want), p.y, p.x));
        let pick = open
            .iter()
            .position(|&p| theirs(p) && gap(p) >= START_GAP)
            .or(if open.is_empty() { None } else { Some(0) })
            .ok_or(members + n)?;
        placed.push(open.remove(pick));
    }
    Ok((party, placed))
}

/// Where the `n`th of `count` stands in ranks of `per_rank` round `anchor`, each further rank
/// `back` rows on.
fn formation(n: usize, count: usize, per_rank: usize, anchor: Pos, back: i32) -> Pos {
    let rank = n / per_rank;
    let file = (n % per_rank) as i32;
    let in_rank = (count - rank * per_rank).min(per_rank) as i32;
    Pos::new(anchor.x - in_rank / 2 + file, anchor.y + rank as i32 * back)
}

/// The open square nearest `want` (ring by ring, row by row within a ring) not in `taken`.
fn nearest_free(field: &Field, want: Pos, taken: &[Pos]) -> Option<Pos> {
    let reach = field.width().max(field.height()) * 2;
    for r in 0..=reach {
        for y in want.y - r..=want.y + r {
            for x in want.x - r..=want.x + r {
                let p = Pos::new(x, y);
                if p.distance(want) == r && field.passable(p) && !taken.contains(&p) {
                    return Some(p);
                }
            }
        }
    }
    None
}

/// Puts `units` (the party's first, then the monsters) where [`places`] says, or refuses in
/// words when the field has no room.
pub(super) fn place_all(
    field: &Field,
    units: &mut [Unit],
    party_at: Pos,
    monsters_at: Pos,
) -> Result<(), Refused> {
    let members: Vec<usize> = (0..units.len())
        .filter(|&i| units[i].side == Side::Party)
        .collect();
    let monsters: Vec<usize> = (0..units.len())
        .filter(|&i| units[i].side == Side::Monsters)
        .collect();
    match places(field, members.len(), monsters.len(), party_at, monsters_at) {
        Ok((party, band)) => {
            for (&i, at) in members
                .iter()
                .chain(&monsters)
                .zip(party.into_iter().chain(band))
            {
                units[i].pos = at;
            }
            Ok(())
        }
        Err(n) => {
            let who = members
                .iter()
                .chain(&monsters)
                .nth(n)
                .map_or("", |&i| units[i].name.as_str());
            refuse(format!("the battlefield has no open square left for {who}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gap(party: &[Pos], p: Pos) -> i32 {
        party.iter().map(|m| m.distance(p)).min().unwrap()
    }

    /// A corridor one square wide with the monsters' anchor one step ahead of the party: the
    /// band is put up the corridor, every monster at least `START_GAP` from every member.
    #[test]
    fn monsters_in_a_narrow_corridor_start_away_from_the_party() {
        let mut rows = vec!["#####"; 1];
        rows.extend(std::iter::repeat_n("##.##", 14));
        rows.push("#...#");
        rows.push("#...#");
        rows.push("#####");
        let field = Field::from_rows(&rows).unwrap();
        // The party comes out of the room at the bottom; the monsters' anchor is next to it.
        let party_at = Pos::new(2, 15);
        let (party, band) = places(&field, 6, 4, party_at, Pos::new(2, 14)).unwrap();
        for m in &band {
            assert!(field.passable(*m));
            assert!(
                gap(&party, *m) >= START_GAP,
                "{m} is {} from the party",
                gap(&party, *m)
            );
            assert!(m.y < party_at.y, "{m} stands behind the party");
        }
        // The band stands as close as the gap allows, not further up than it must.
        assert!(
            band.contains(&Pos::new(2, party_at.y - START_GAP)),
            "{band:?}"
        );
        assert!(
            band.iter().all(|m| m.y >= party_at.y - START_GAP - 3),
            "{band:?}"
        );
    }

    /// With no room to keep the gap, monsters still stand on the field, no nearer than the
    /// field forces, and a field with no square left at all is refused.
    #[test]
    fn without_room_monsters_come_no_closer_than_they_must() {
        let room = ["###########", "#.........#", "#.........#", "###########"];
        let field = Field::from_rows(&room).unwrap();
        let (party, band) = places(&field, 3, 10, Pos::new(5, 2), Pos::new(5, 1)).unwrap();
        assert_eq!(party, vec![Pos::new(4, 2), Pos::new(5, 2), Pos::new(6, 2)]);
        // Fifteen squares are free and eight of them are off the party: the first eight
        // monsters take those, and the last two must stand next to a member.
        let far: Vec<i32> = band.iter().map(|m| gap(&party, *m)).collect();
        assert!(far[..8].iter().all(|&g| g >= START_GAP), "{band:?}");
        assert_eq!(&far[8..], &[1, 1], "{band:?}");
        assert!(
            band.iter()
                .all(|m| field.passable(*m) && !party.contains(m))
        );
        let tiny = Field::from_rows(&["####", "#..#", "####"]).unwrap();
        assert_eq!(places(&tiny, 1, 2, Pos::new(1, 1), Pos::new(2, 1)), Err(2));
    }

    /// On an open field with the anchors far apart nothing changes: the band stands in ranks
    /// round its anchor, as the formation says.
    #[test]
    fn on_open_ground_the_band_stands_in_its_ranks() {
        let rows = vec!["..............."; 12];
        let field = Field::from_rows(&rows).unwrap();
        let (_, band) = places(&field, 6, 7, Pos::new(7, 9), Pos::new(7, 2)).unwrap();
        let want: Vec<Pos> = (0..7)
            .map(|n| formation(n, 7, 6, Pos::new(7, 2), -1))
            .collect();
        assert_eq!(band, want);
    }
}
