//! The undo and redo history: each step is the patch that takes the scene back (or forward)
//! one edit, not a copy of the scene, so an edit to one entity costs that entity. The history
//! keeps at most [`UNDO_KEPT`] steps and [`UNDO_BUDGET`] bytes; past either, the oldest steps go.

use std::collections::VecDeque;

use super::doc::{Patch, SceneDoc};

/// Steps of undo kept.
pub(super) const UNDO_KEPT: usize = 200;
/// Bytes the undo and redo steps may hold together, about.
pub(super) const UNDO_BUDGET: usize = 16 << 20;

/// The steps behind and ahead of the scene being edited.
#[derive(Debug)]
pub(super) struct History {
    /// Oldest first; each turns the document as it is after the steps above it back.
    undo: VecDeque<Patch>,
    /// The next redo last.
    redo: Vec<Patch>,
    bytes: usize,
    budget: usize,
    /// Whether steps were dropped to keep to the budget since this was last asked.
    trimmed: bool,
}

impl Default for History {
    fn default() -> History {
        History::with_budget(UNDO_BUDGET)
    }
}

impl History {
    /// An empty history holding at most `budget` bytes.
    pub(super) fn with_budget(budget: usize) -> History {
        History {
            undo: VecDeque::new(),
            redo: Vec::new(),
            bytes: 0,
            budget,
            trimmed: false,
        }
    }

    /// A new step: the document went from `before` to `now`. What could be redone is gone.
    pub(super) fn record(&mut self, now: &SceneDoc, before: &SceneDoc) {
        self.redo.clear();
        self.push_undo(now.patch_to(before));
    }

    fn push_undo(&mut self, patch: Patch) {
        self.bytes += patch.weight();
        self.undo.push_back(patch);
        if self.undo.len() > UNDO_KEPT {
            self.drop_oldest();
        }
        self.trim();
    }

    fn drop_oldest(&mut self) -> bool {
        if let Some(old) = self.undo.pop_front() {
            self.bytes -= old.weight();
            true
        } else if !self.redo.is_empty() {
            let old = self.redo.remove(0);
            self.bytes -= old.weight();
            true
        } else {
            false
        }
    }

    fn trim(&mut self) {
        // Recounted rather than kept in step by each change, so no drift can build up.
        self.bytes = self.undo.iter().chain(&self.redo).map(Patch::weight).sum();
        while self.bytes > self.budget && self.drop_oldest() {
            self.trimmed = true;
        }
    }

    /// Takes `doc` one step back; false when there is nothing to undo.
    pub(super) fn undo(&mut self, doc: &mut SceneDoc) -> bool {
        self.step(doc, true)
    }

    /// Takes `doc` one step forward again; false when there is nothing to redo.
    pub(super) fn redo(&mut self, doc: &mut SceneDoc) -> bool {
        self.step(doc, false)
    }

    fn step(&mut self, doc: &mut SceneDoc, back: bool) -> bool {
        let patch = if back {
            self.undo.pop_back()
        } else {
            self.redo.pop()
        };
        let Some(patch) = patch else {
            return false;
        };
        match doc.apply(patch) {
            Some(inverse) => {
                if back {
                    self.redo.push(inverse);
                } else {
                    self.undo.push_back(inverse);
                }
                self.trim();
                true
            }
            None => {
                // A step made from another document: none of the rest can apply either.
                self.clear();
                false
            }
        }
    }

    /// Forgets every step.
    pub(super) fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.bytes = 0;
    }

    pub(super) fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub(super) fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// About how many bytes the steps hold.
    #[cfg(test)]
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Whether steps were dropped to keep to the budget since the last time this was asked.
    pub(super) fn take_trimmed(&mut self) -> bool {
        std::mem::take(&mut self.trimmed)
    }

    /// Every step's whole text, for handing the history to another session: the states undo
    /// goes back to (oldest first), and the states redo goes forward to (the next one last).
    pub(super) fn texts(&self, doc: &SceneDoc) -> (Vec<String>, Vec<String>) {
        let walk = |steps: &mut dyn Iterator<Item = &Patch>| {
            let mut state = doc.clone();
            let mut texts = Vec::new();
            for patch in steps {
                match state.apply(patch.clone()) {
                    Some(_) => texts.push(state.text()),
                    None => break,
                }
            }
            texts.reverse();
            texts
        };
        (
            walk(&mut self.undo.iter().rev()),
            walk(&mut self.redo.iter().rev()),
        )
    }

    /// The history whose undo goes back through `undo` (oldest first) and whose redo goes
    /// forward through `redo` (the next one last), from `doc`.
    pub(super) fn from_states(doc: &SceneDoc, undo: Vec<SceneDoc>, redo: Vec<SceneDoc>) -> History {
        let chain = |states: Vec<SceneDoc>| {
            let mut patches = Vec::with_capacity(states.len());
            let mut later = doc.clone();
            for state in states.into_iter().rev() {
                patches.push(later.patch_to(&state));
                later = state;
            }
            patches.reverse();
            patches
        };
        let mut history = History {
            undo: chain(undo).into(),
            redo: chain(redo),
            ..History::default()
        };
        while history.undo.len() > UNDO_KEPT {
            history.undo.pop_front();
        }
        history.trim();
        history
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Json, Step};

    const FILE: &str = r##"{
  "version": 2,
  "entities": [
    { "name": "camera", "camera": { "center": [0, 0], "size": [16, 9] } },
    { "name": "box", "transform": { "pos": [0, 1] }, "sprite": { "size": [2, 2], "tint": "#e0a030" } },
    { "name": "label", "text": { "text": "hello" } }
  ]
}
"##;

    fn tint(doc: &mut SceneDoc, colour: &str) {
        doc.set(
            1,
            "sprite",
            &[Step::Key("tint".into())],
            Json::String(colour.into()),
        )
        .unwrap();
    }

    /// Applies `change` to `doc` and records it as a step, as the editor does.
    fn step(history: &mut History, doc: &mut SceneDoc, change: impl FnOnce(&mut SceneDoc)) {
        let before = doc.clone();
        change(doc);
        history.record(doc, &before);
    }

    #[test]
    fn undo_and_redo_walk_through_every_kind_of_step_exactly() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        let mut history = History::default();
        let mut states = vec![doc.clone()];
        let changes: [fn(&mut SceneDoc); 7] = [
            |d| tint(d, "#ff0000"),
            |d| {
                d.insert(1, Json::parse(r#"{"name": "new"}"#).unwrap());
            },
            |d| {
                d.duplicate(2).unwrap();
            },
            |d| {
                d.delete(0).unwrap();
            },
            |d| d.remove(1, "sprite", &[]).unwrap(),
            // The whole file taken from disk again (a revert).
            |d| *d = SceneDoc::parse(FILE).unwrap(),
            |d| tint(d, "#00ff00"),
        ];
        for change in changes {
            step(&mut history, &mut doc, change);
            states.push(doc.clone());
        }
        for want in states.iter().rev().skip(1) {
            assert!(history.undo(&mut doc));
            assert_eq!(&doc, want);
        }
        assert!(!history.undo(&mut doc));
        assert_eq!(doc.text(), FILE, "the untouched file's own text again");
        for want in states.iter().skip(1) {
            assert!(history.redo(&mut doc));
            assert_eq!(&doc, want);
        }
        assert!(!history.redo(&mut doc));
        // A new step after undoing forgets what could be redone.
        history.undo(&mut doc);
        step(&mut history, &mut doc, |d| tint(d, "#0000ff"));
        assert!(!history.can_redo());
    }

    #[test]
    fn a_history_handed_over_as_texts_comes_back_the_same() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        let mut history = History::default();
        for colour in ["#ff0000", "#00ff00", "#0000ff"] {
            step(&mut history, &mut doc, |d| tint(d, colour));
        }
        history.undo(&mut doc);
        let (undo, redo) = history.texts(&doc);
        assert_eq!((undo.len(), redo.len()), (2, 1));
        let parse = |t: &Vec<String>| t.iter().map(|t| SceneDoc::parse(t).unwrap()).collect();
        let mut again = History::from_states(&doc, parse(&undo), parse(&redo));
        let mut copy = doc.clone();
        assert!(again.redo(&mut copy) && history.redo(&mut doc));
        assert_eq!(copy.text(), doc.text());
        for _ in 0..3 {
            assert!(again.undo(&mut copy) && history.undo(&mut doc));
            assert_eq!(copy.text(), doc.text());
        }
        assert!(!again.can_undo());
    }

    #[test]
    fn a_patch_for_another_document_is_refused_and_the_history_cleared() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        let mut history = History::default();
        step(&mut history, &mut doc, |d| {
            d.insert(3, Json::parse(r#"{"name": "x"}"#).unwrap());
        });
        let mut other = SceneDoc::empty();
        assert!(!history.undo(&mut other));
        assert_eq!(other, SceneDoc::empty());
        assert!(!history.can_undo() && !history.can_redo());
    }

    #[test]
    fn the_oldest_steps_go_past_the_budget_and_the_rest_still_undo() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        let mut history = History::with_budget(64 * 1024);
        let long = "x".repeat(10_000);
        for i in 0..20 {
            step(&mut history, &mut doc, |d| {
                d.set(
                    2,
                    "text",
                    &[Step::Key("text".into())],
                    Json::String(format!("{long}{i}")),
                )
                .unwrap();
            });
            assert!(history.bytes() <= 64 * 1024, "{}", history.bytes());
        }
        assert!(history.take_trimmed());
        let mut undone = 0;
        while history.undo(&mut doc) {
            undone += 1;
        }
        assert!((3..20).contains(&undone), "{undone}");
        let text = doc
            .entity(2)
            .unwrap()
            .get("text")
            .unwrap()
            .get("text")
            .unwrap();
        assert_eq!(text, &Json::String(format!("{long}{}", 19 - undone)));
    }

    /// The measure of the bloat attack: 300 edits of a scene holding an entity with a 100 KB
    /// name. Whole copies of the scene cost 300 times the scene; patches cost the edited entity.
    #[test]
    fn three_hundred_edits_of_a_scene_with_a_huge_name_cost_the_edits_only() {
        let huge = "n".repeat(100 * 1024);
        let text = FILE.replace("\"label\"", &format!("{huge:?}"));
        let mut doc = SceneDoc::parse(&text).unwrap();
        let mut history = History::default();
        let mut copies = 0;
        for i in 0..300 {
            copies += doc.weight();
            step(&mut history, &mut doc, |d| tint(d, &format!("#{i:06x}")));
        }
        eprintln!(
            "300 edits: whole copies {} bytes, patches {} bytes",
            copies,
            history.bytes()
        );
        assert!(copies > 60_000_000, "{copies}");
        assert!(history.bytes() < 300_000, "{}", history.bytes());
        assert!(history.bytes() <= UNDO_BUDGET);
    }
}
