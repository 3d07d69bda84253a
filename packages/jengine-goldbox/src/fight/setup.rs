//! What a fight is made of before it starts: the encounter (which monsters, how many, where
//! they and the party stand, and perhaps their own battlefield), read from a table or from
//! one JSON object and checked against the rules like every other table.

use serde::{Deserialize, Serialize};

use super::field::{Field, Pos};
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
