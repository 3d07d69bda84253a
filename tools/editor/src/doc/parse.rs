//! Reading a scene file: its value, every entity's own text and the spaces around it, and the
//! file's style (indents, one line or written out in full, spaces inside braces).
//!
//! serde_json's raw values give each entity's text as a slice of the file, so the bytes between
//! them can be kept as they were.

use serde_json::value::RawValue;

use super::write::{entity_text, pretty_text};
use super::{EntityDoc, Frame, Json, SceneDoc};

/// How the list of entities sits in a scene file, for reading the raw texts.
#[derive(serde::Deserialize)]
struct RawEntities<'a> {
    #[serde(borrow)]
    entities: Option<&'a RawValue>,
}

/// Where `part` (a slice of `whole`) starts in it.
fn offset(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

impl SceneDoc {
    /// Reads a scene file's text. Only its shape is checked here (an object whose `entities`
    /// is a list); what the entities hold is the loader's business.
    pub fn parse(text: &str) -> Result<SceneDoc, String> {
        let json = Json::parse(text).map_err(|e| format!("not a valid scene: {e}"))?;
        let Json::Object(fields) = json else {
            return Err(format!("not a valid scene: the file is {}", json.kind()));
        };
        let mut top = Vec::new();
        let mut entities = Vec::new();
        let mut frame = None;
        for (key, value) in fields {
            if key == "entities" && entities.is_empty() {
                let Json::Array(items) = value else {
                    return Err(format!(
                        "not a valid scene: \"entities\" is {}, not a list",
                        value.kind()
                    ));
                };
                let raw: RawEntities =
                    serde_json::from_str(text).map_err(|e| format!("not a valid scene: {e}"))?;
                let list = raw.entities.map(RawValue::get).unwrap_or("[]");
                let raws: Vec<&RawValue> =
                    serde_json::from_str(list).map_err(|e| format!("not a valid scene: {e}"))?;
                // The list's own text, entity by entity: the space after each comma (or
                // the `[`), and before the next comma.
                let start = offset(text, list);
                let mut cursor = 1;
                let mut gaps = Vec::with_capacity(raws.len());
                let mut trails = Vec::with_capacity(raws.len());
                for r in &raws {
                    let at = offset(list, r.get());
                    let between = list.get(cursor..at).unwrap_or("");
                    match between.split_once(',') {
                        Some((trail, gap)) => {
                            trails.push(trail.to_string());
                            gaps.push(gap.to_string());
                        }
                        None => gaps.push(between.to_string()),
                    }
                    cursor = at + r.get().len();
                }
                frame = Some(Frame {
                    head: text[..start + 1].to_string(),
                    foot: text[start + list.len() - 1..].to_string(),
                    closing: list.get(cursor..list.len() - 1).unwrap_or("").to_string(),
                });
                entities = items
                    .into_iter()
                    .enumerate()
                    .map(|(i, value)| {
                        let raw = raws.get(i).map(|r| r.get().to_string());
                        EntityDoc {
                            value,
                            multiline: raw.as_ref().map(|r| r.contains('\n')),
                            raw,
                            gap: gaps.get(i).cloned(),
                            trail: trails.get(i).cloned(),
                        }
                    })
                    .collect();
                top.push((key, Json::Null));
            } else {
                top.push((key, value));
            }
        }
        if !top.iter().any(|(k, _)| k == "entities") {
            top.push(("entities".into(), Json::Null));
        }
        let (top_indent, entity_indent) = indents(text);
        let pretty = entities
            .iter()
            // Only where one component a line would not give the entity's text back.
            .find(|e| {
                e.multiline == Some(true)
                    && e.raw.as_deref()
                        != Some(entity_text(&e.value, &entity_indent, Some(true), true).as_str())
            })
            .and_then(|e| {
                ["  ", " ", "    ", "\t"]
                    .into_iter()
                    .find(|unit| {
                        e.raw.as_deref()
                            == Some(pretty_text(&e.value, unit, &entity_indent).as_str())
                    })
                    .map(String::from)
            });
        let spaced = entities
            .iter()
            .find_map(|e| e.raw.as_deref().filter(|r| !r.contains('\n')))
            .is_none_or(|r| r.starts_with("{ ") || r == "{}");
        Ok(SceneDoc {
            top,
            entities,
            original: Some(text.to_string()),
            top_indent,
            entity_indent,
            pretty,
            spaced,
            frame,
        })
    }
}

/// The indentation of the file's top-level members and of its entities (two and four spaces
/// when the file does not show them).
fn indents(text: &str) -> (String, String) {
    let lead = |line: &str| -> String {
        line.chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect()
    };
    let mut lines = text.lines();
    let top = lines
        .by_ref()
        .find(|l| l.trim_start().starts_with('"'))
        .map(lead)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "  ".into());
    let mut entity = None;
    let mut in_list = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("\"entities\"") {
            in_list = true;
            continue;
        }
        if in_list && t.starts_with('{') {
            entity = Some(lead(line));
            break;
        }
    }
    let entity = entity
        .filter(|s| s.len() > top.len())
        .unwrap_or_else(|| format!("{top}{top}"));
    (top, entity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::FILE;
    use proptest::prelude::*;

    #[test]
    fn an_untouched_file_comes_back_as_it_was() {
        let doc = SceneDoc::parse(FILE).unwrap();
        assert_eq!(doc.len(), 3);
        assert_eq!(doc.text(), FILE);
    }

    #[test]
    fn shapes_that_are_not_scenes_are_refused_in_words() {
        assert!(SceneDoc::parse("[]").unwrap_err().contains("an array"));
        assert!(
            SceneDoc::parse(r#"{"entities": 3}"#)
                .unwrap_err()
                .contains("not a list")
        );
        assert!(
            SceneDoc::parse("{")
                .unwrap_err()
                .starts_with("not a valid scene")
        );
    }

    proptest! {
        #[test]
        fn parsing_any_text_never_panics(text in ".{0,200}") {
            let _ = SceneDoc::parse(&text);
        }
    }
}
