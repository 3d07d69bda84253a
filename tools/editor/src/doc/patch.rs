//! What turns one state of a scene document into another: the entities that differ (the ones
//! both states begin and end with left out) and, when it differs, the rest of the document.
//! Applying a patch gives back the one that undoes it, so undo and redo are the same move.

use super::{EntityDoc, Frame, Json, SceneDoc};

/// The parts of a scene document other than its entities, as one undo step keeps them when a
/// step changed them.
#[derive(Debug, Clone, PartialEq)]
struct Shell {
    top: Vec<(String, Json)>,
    original: Option<String>,
    top_indent: String,
    entity_indent: String,
    pretty: Option<String>,
    spaced: bool,
    frame: Option<Frame>,
}

/// What turns one state of a scene document into another: the entities from `start` on, `taken`
/// of them, replaced by `put`, and the rest of the document when it differs. Undo keeps these
/// instead of whole copies: an edit to one entity costs that entity, not the scene.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Patch {
    start: usize,
    taken: usize,
    put: Vec<EntityDoc>,
    shell: Option<Box<Shell>>,
}

impl Patch {
    /// About how many bytes it holds.
    pub(crate) fn weight(&self) -> usize {
        let shell = self.shell.as_ref().map_or(0, |s| {
            size_of::<Shell>()
                + s.top
                    .iter()
                    .map(|(k, v)| k.len() + v.weight())
                    .sum::<usize>()
                + s.original.as_ref().map_or(0, String::len)
                + s.top_indent.len()
                + s.entity_indent.len()
                + s.pretty.as_ref().map_or(0, String::len)
                + s.frame
                    .as_ref()
                    .map_or(0, |f| f.head.len() + f.foot.len() + f.closing.len())
        });
        size_of::<Patch>() + self.put.iter().map(EntityDoc::weight).sum::<usize>() + shell
    }
}

impl EntityDoc {
    fn weight(&self) -> usize {
        let text = |t: &Option<String>| t.as_ref().map_or(0, String::len);
        size_of::<EntityDoc>()
            + self.value.weight()
            + text(&self.raw)
            + text(&self.gap)
            + text(&self.trail)
    }
}

impl Json {
    /// About how many bytes it holds.
    pub fn weight(&self) -> usize {
        size_of::<Json>()
            + match self {
                Json::Null | Json::Bool(_) | Json::Number(_) => 0,
                Json::String(s) => s.len(),
                Json::Array(items) => items.iter().map(Json::weight).sum(),
                Json::Object(fields) => fields.iter().map(|(k, v)| k.len() + v.weight()).sum(),
            }
    }
}

impl SceneDoc {
    fn shell(&self) -> Shell {
        Shell {
            top: self.top.clone(),
            original: self.original.clone(),
            top_indent: self.top_indent.clone(),
            entity_indent: self.entity_indent.clone(),
            pretty: self.pretty.clone(),
            spaced: self.spaced,
            frame: self.frame.clone(),
        }
    }

    fn same_shell(&self, other: &SceneDoc) -> bool {
        self.top == other.top
            && self.original == other.original
            && self.top_indent == other.top_indent
            && self.entity_indent == other.entity_indent
            && self.pretty == other.pretty
            && self.spaced == other.spaced
            && self.frame == other.frame
    }

    fn put_shell(&mut self, shell: Shell) -> Shell {
        Shell {
            top: std::mem::replace(&mut self.top, shell.top),
            original: std::mem::replace(&mut self.original, shell.original),
            top_indent: std::mem::replace(&mut self.top_indent, shell.top_indent),
            entity_indent: std::mem::replace(&mut self.entity_indent, shell.entity_indent),
            pretty: std::mem::replace(&mut self.pretty, shell.pretty),
            spaced: std::mem::replace(&mut self.spaced, shell.spaced),
            frame: std::mem::replace(&mut self.frame, shell.frame),
        }
    }

    /// The patch that turns this document into `other`: the entities both begin and end with
    /// are left out of it.
    pub(crate) fn patch_to(&self, other: &SceneDoc) -> Patch {
        let (a, b) = (&self.entities, &other.entities);
        let shortest = a.len().min(b.len());
        let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let tail = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take(shortest - head)
            .take_while(|(x, y)| x == y)
            .count();
        Patch {
            start: head,
            taken: a.len() - head - tail,
            put: b[head..b.len() - tail].to_vec(),
            shell: (!self.same_shell(other)).then(|| Box::new(other.shell())),
        }
    }

    /// Applies `patch`, made by [`SceneDoc::patch_to`] from a document equal to this one, and
    /// gives back the patch that undoes it. `None`, and nothing changed, when the patch does not
    /// fit this document (it was made from another).
    pub(crate) fn apply(&mut self, patch: Patch) -> Option<Patch> {
        let end = patch.start.checked_add(patch.taken)?;
        if end > self.entities.len() {
            return None;
        }
        let put = patch.put.len();
        let taken: Vec<EntityDoc> = self.entities.splice(patch.start..end, patch.put).collect();
        let shell = patch.shell.map(|s| Box::new(self.put_shell(*s)));
        Some(Patch {
            start: patch.start,
            taken: put,
            put: taken,
            shell,
        })
    }

    /// About how many bytes the document holds (what a whole copy of it costs).
    #[cfg(test)]
    pub(crate) fn weight(&self) -> usize {
        SceneDoc::empty().patch_to(self).weight()
    }
}
