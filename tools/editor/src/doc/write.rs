//! Writing a scene document back: the file as read while nothing changed, else the file's own
//! layout around it with untouched entities keeping their text and edited ones written in the
//! file's style.
//!
//! What the file did not show (a new entity, a made scene) is written one line an entity when it
//! fits, one component a line when it does not.

use super::json::quote;
use super::{EntityDoc, Json, SceneDoc};

/// An entity line longer than this is written with one component per line.
const LINE: usize = 120;

impl SceneDoc {
    /// The file's text: as read while nothing changed; else written in the file's own layout,
    /// untouched entities keeping their text.
    pub fn text(&self) -> String {
        if let Some(original) = &self.original {
            return original.clone();
        }
        let (ti, ei) = (&self.top_indent, &self.entity_indent);
        if let Some(frame) = &self.frame {
            let mut out = frame.head.clone();
            let last = self.entities.len().saturating_sub(1);
            for (i, e) in self.entities.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                match &e.gap {
                    Some(gap) => out.push_str(gap),
                    None => {
                        out.push('\n');
                        out.push_str(ei);
                    }
                }
                out.push_str(&self.entity_text(e));
                if i < last {
                    out.push_str(e.trail.as_deref().unwrap_or(""));
                }
            }
            let closing = if self.entities.is_empty() {
                ""
            } else if frame.closing.is_empty() {
                // The file's list was empty: close it on a line of its own.
                &format!("\n{ti}")
            } else {
                &frame.closing
            };
            out.push_str(closing);
            out.push_str(&frame.foot);
            return out;
        }
        let mut out = String::from("{\n");
        for (n, (key, value)) in self.top.iter().enumerate() {
            out.push_str(ti);
            out.push_str(&quote(key));
            out.push_str(": ");
            if key == "entities" {
                if self.entities.is_empty() {
                    out.push_str("[]");
                } else {
                    out.push_str("[\n");
                    for (i, e) in self.entities.iter().enumerate() {
                        out.push_str(ei);
                        out.push_str(&self.entity_text(e));
                        if i + 1 < self.entities.len() {
                            out.push(',');
                        }
                        out.push('\n');
                    }
                    out.push_str(ti);
                    out.push(']');
                }
            } else {
                out.push_str(&value.compact_spaced(self.spaced));
            }
            if n + 1 < self.top.len() {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str("}\n");
        out
    }

    /// An entity's text: as the file had it, or written in the file's style once edited.
    fn entity_text(&self, e: &EntityDoc) -> String {
        let ei = &self.entity_indent;
        match (&e.raw, &self.pretty) {
            (Some(raw), _) => raw.clone(),
            (None, Some(unit)) if e.multiline != Some(false) => pretty_text(&e.value, unit, ei),
            (None, _) => entity_text(&e.value, ei, e.multiline, self.spaced),
        }
    }
}

/// One entity: laid out as the file had it (on one line, or one component per line); a new
/// one on one line when it fits.
pub(super) fn entity_text(
    value: &Json,
    indent: &str,
    multiline: Option<bool>,
    spaced: bool,
) -> String {
    let line = value.compact_spaced(spaced);
    let Json::Object(fields) = value else {
        return line;
    };
    let fits = line.chars().count() + indent.len() <= LINE;
    if !multiline.unwrap_or(!fits) || fields.is_empty() {
        return line;
    }
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    for (i, (k, v)) in fields.iter().enumerate() {
        out.push_str(&inner);
        out.push_str(&quote(k));
        out.push_str(": ");
        out.push_str(&v.compact_spaced(spaced));
        if i + 1 < fields.len() {
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str(indent);
    out.push('}');
    out
}

/// A value written out in full, `unit` a level, its lines after the first led by `indent`.
pub(super) fn pretty_text(value: &Json, unit: &str, indent: &str) -> String {
    use serde::Serialize;
    let mut bytes = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    if value.serialize(&mut ser).is_err() {
        return value.compact();
    }
    let text = String::from_utf8(bytes).unwrap_or_default();
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            if i == 0 {
                line.to_string()
            } else {
                format!("{indent}{line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::{FILE, Step};
    use proptest::prelude::*;

    #[test]
    fn an_edit_rewrites_only_its_entity_and_keeps_key_order() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        doc.set(
            1,
            "sprite",
            &[Step::Key("tint".into())],
            Json::String("#ff0000".into()),
        )
        .unwrap();
        let text = doc.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[4],
            r##"    { "name": "box", "transform": { "pos": [0, 1] }, "sprite": { "size": [2, 2], "tint": "#ff0000" } },"##
        );
        // The others are as they were, the multi-line one too.
        assert_eq!(lines[3], FILE.lines().nth(3).unwrap());
        assert_eq!(&lines[5..9], &FILE.lines().collect::<Vec<_>>()[5..9]);
        let again = SceneDoc::parse(&text).unwrap();
        assert_eq!(again.entity(1), doc.entity(1));
    }

    #[test]
    fn a_long_entity_is_written_one_component_per_line() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        let long = "x".repeat(150);
        doc.set(
            2,
            "text",
            &[Step::Key("text".into())],
            Json::String(long.clone()),
        )
        .unwrap();
        let text = doc.text();
        assert!(
            text.contains("    {\n      \"name\": \"table\",\n      \"z_last\": 1,\n"),
            "{text}"
        );
        assert!(text.contains(&format!(
            "      \"text\": {{ \"text\": \"{long}\" }}\n    }}\n"
        )));
        assert_eq!(SceneDoc::parse(&text).unwrap().entity(2), doc.entity(2));
    }

    #[test]
    fn a_file_of_another_layout_keeps_its_indent() {
        let text = "{\n \"version\": 2,\n \"entities\": [\n  {\"name\": \"a\"},\n  {\"name\": \"b\"}\n ]\n}\n";
        let mut doc = SceneDoc::parse(text).unwrap();
        doc.set(1, "bulk", &[], Json::Bool(true)).unwrap();
        assert_eq!(
            doc.text(),
            "{\n \"version\": 2,\n \"entities\": [\n  {\"name\": \"a\"},\n  {\"name\": \"b\", \"bulk\": true}\n ]\n}\n"
        );
        let mut empty = SceneDoc::empty();
        assert_eq!(
            empty.text(),
            "{\n  \"version\": 2,\n  \"entities\": []\n}\n"
        );
        empty.insert(0, Json::parse(r#"{"name": "x"}"#).unwrap());
        assert_eq!(
            empty.text(),
            "{\n  \"version\": 2,\n  \"entities\": [\n    { \"name\": \"x\" }\n  ]\n}\n"
        );
    }

    #[test]
    fn a_file_written_out_in_full_keeps_that_layout() {
        let text = "{\n \"version\": 2,\n \"entities\": [\n  {\n   \"name\": \"a\",\n   \"transform\": {\n    \"pos\": [\n     0,\n     1.0\n    ]\n   }\n  }\n ]\n}\n";
        let mut doc = SceneDoc::parse(text).unwrap();
        assert_eq!(doc.pretty.as_deref(), Some(" "));
        doc.set(
            0,
            "transform",
            &[Step::Key("pos".into()), Step::Index(0)],
            Json::Number(3.into()),
        )
        .unwrap();
        assert_eq!(doc.text(), text.replace("     0,", "     3,"));
        doc.insert(1, Json::parse(r#"{"name": "b", "bulk": true}"#).unwrap());
        assert!(
            doc.text()
                .contains("  },\n  {\n   \"name\": \"b\",\n   \"bulk\": true\n  }\n ]"),
            "{}",
            doc.text()
        );
    }

    /// Every entity of every game scene, written again as if edited: the same text, in the
    /// file's own style (one line, or written out in full), numbers to the last digit. Entities
    /// laid out by hand over several lines are only checked to read back the same.
    #[test]
    fn the_games_scenes_are_written_back_in_their_own_style() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../projects");
        let (mut checked, mut by_hand) = (0, 0);
        let mut differ = Vec::new();
        for project in std::fs::read_dir(&root).unwrap().flatten() {
            let Ok(scenes) = std::fs::read_dir(project.path().join("assets/scenes")) else {
                continue;
            };
            for scene in scenes.flatten() {
                let text = std::fs::read_to_string(scene.path()).unwrap();
                let doc = SceneDoc::parse(&text).unwrap();
                for i in 0..doc.len() {
                    let mut one = doc.clone();
                    let raw = one.entities[i].raw.clone().unwrap();
                    let _ = one.edited(i);
                    let written = one.text();
                    assert_eq!(SceneDoc::parse(&written).unwrap(), {
                        let mut back = SceneDoc::parse(&written).unwrap();
                        back.original = None;
                        back.original = Some(written.clone());
                        back
                    });
                    let hand = raw.contains('\n') && doc.pretty.is_none();
                    if written == text {
                        checked += 1;
                    } else if hand {
                        by_hand += 1;
                        let back = SceneDoc::parse(&written).unwrap();
                        assert_eq!(back.entity(i), doc.entity(i));
                    } else {
                        if differ.is_empty() {
                            for (a, b) in text
                                .lines()
                                .zip(written.lines())
                                .filter(|(a, b)| a != b)
                                .take(2)
                            {
                                eprintln!("- {a}\n+ {b}");
                            }
                        }
                        differ.push(format!("{} entity {i}", scene.path().display()));
                    }
                }
            }
        }
        assert!(checked >= 500, "{checked} entities checked");
        assert!(by_hand < checked / 20, "{by_hand} laid out by hand");
        assert!(differ.is_empty(), "{differ:#?}");
    }

    proptest! {
        #[test]
        fn edited_text_reads_back_to_the_same_entities(
            names in proptest::collection::vec("[a-z\"\\\\ é]{0,12}", 1..6),
            // Written as authors write them: a few decimals.
            value in (-1_000_000i64..1_000_000).prop_map(|v| v as f64 / 1000.0),
        ) {
            let mut doc = SceneDoc::empty();
            for (i, name) in names.iter().enumerate() {
                let mut e = Json::Object(Vec::new());
                e.set("name", Json::String(name.clone()));
                doc.insert(i, e);
                doc.set(i, "transform", &[Step::Key("pos".into())], Json::Array(vec![
                    Json::Number(serde_json::Number::from_f64(value).unwrap()),
                    Json::Number(1.into()),
                ])).unwrap();
            }
            let back = SceneDoc::parse(&doc.text()).unwrap();
            prop_assert_eq!(back.entities().cloned().collect::<Vec<_>>(), doc.entities().cloned().collect::<Vec<_>>());
        }
    }
}
