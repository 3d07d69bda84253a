//! Scroll boxes moved by input, and every text box's layout written back for scripts.
//!
//! A scroll box is a `Text` with a `height` and `overflow = "scroll"`. The wheel scrolls the
//! box under the pointer; a press inside one and a drag move its lines with the pointer; the
//! arrow keys, Page Up and Page Down, Home and End scroll the focused one, the scroll box the
//! pointer last hovered or pressed (a press outside every scroll box leaves none focused). All
//! of it comes from the frame's events, so a replay scrolls the same.

use std::collections::HashSet;

use jengine::{Align, Entity, Overflow, Text, TextLayout, Transform2D, World};
use jengine_render::{TextMeasure, clamp_scroll};

use crate::input::{Event, Phase};

/// Lines one notch of the mouse wheel scrolls.
pub const WHEEL_LINES: f32 = 3.0;

/// Which scroll box has the keys, and the drag under way.
#[derive(Debug, Default)]
pub(crate) struct Scrolling {
    focus: Option<Entity>,
    drag: Option<Drag>,
}

/// A drag that started inside a scroll box: where, in the box's own units, and its scroll then.
#[derive(Debug, Clone, Copy)]
struct Drag {
    entity: Entity,
    from: f32,
    scroll: f32,
}

impl Scrolling {
    /// Applies the frame's events to the world's scroll boxes, before scripts see them.
    pub fn input(&mut self, world: &mut World, events: &[Event]) {
        for event in events {
            match event {
                Event::Pointer { phase, x, y } => {
                    let at = [*x as f32, *y as f32];
                    match phase {
                        Phase::Press => {
                            self.focus = box_at(world, at);
                            self.drag = self.focus.and_then(|e| {
                                let from = local(world, e, at)?[1];
                                let scroll = world.entities.get::<&Text>(e).ok()?.scroll;
                                Some(Drag {
                                    entity: e,
                                    from,
                                    scroll,
                                })
                            });
                        }
                        Phase::Hover => {
                            if let Some(e) = box_at(world, at) {
                                self.focus = Some(e);
                            }
                        }
                        Phase::Drag => {
                            if let Some(drag) = self.drag
                                && let Some([_, y]) = local(world, drag.entity, at)
                                && let Some(size) = text_size(world, drag.entity)
                            {
                                // Lines follow the pointer: dragging up brings later lines up.
                                scroll_to(world, drag.entity, drag.scroll + (y - drag.from) / size);
                            }
                        }
                        Phase::Release => self.drag = None,
                    }
                }
                Event::Wheel { x, y, dy } => {
                    if let Some(e) = box_at(world, [*x as f32, *y as f32]) {
                        self.focus = Some(e);
                        let now = world.entities.get::<&Text>(e).map(|t| t.scroll);
                        if let Ok(now) = now {
                            scroll_to(world, e, now - *dy as f32 * WHEEL_LINES);
                        }
                    }
                }
                Event::Key { key, down: true } => {
                    let Some(e) = self.focus.filter(|e| is_scroll_box(world, *e)) else {
                        continue;
                    };
                    let Ok(layout) = world.entities.get::<&TextLayout>(e).map(|l| *l) else {
                        continue;
                    };
                    let Ok(now) = world.entities.get::<&Text>(e).map(|t| t.scroll.floor()) else {
                        continue;
                    };
                    let page = layout.rows.saturating_sub(1).max(1) as f32;
                    let to = match key.as_str() {
                        "up" => now - 1.0,
                        "down" => now + 1.0,
                        "pageup" => now - page,
                        "pagedown" => now + page,
                        "home" => 0.0,
                        "end" => layout.max_scroll as f32,
                        _ => continue,
                    };
                    scroll_to(world, e, to);
                }
                Event::Key { .. } | Event::Text { .. } => {}
            }
        }
        // Scripts hear of this input next: what they read of the boxes is already up to date.
        let focus = self.focus;
        for (e, layout) in world.entities.query_mut::<(Entity, &mut TextLayout)>() {
            layout.focused = focus == Some(e);
        }
    }

    /// A new scene: no box has the keys and no drag goes on.
    pub fn forget(&mut self) {
        *self = Scrolling::default();
    }

    /// Lays out every text box as the renderer will draw it, keeps each scroll box's scroll in
    /// range, and writes each box's [`TextLayout`]; a text that is no longer a box loses its.
    pub fn lay_out(&self, world: &mut World, measure: &mut TextMeasure) {
        let mut laid: Vec<(Entity, TextLayout)> = Vec::new();
        for (e, text) in world.entities.query_mut::<(Entity, &mut Text)>() {
            let Some(mut layout) = measure.text_box(text) else {
                continue;
            };
            if text.overflow == Overflow::Scroll {
                let kept = clamp_scroll(text.scroll, layout.max_scroll as usize);
                if kept.to_bits() != text.scroll.to_bits() {
                    text.scroll = kept;
                }
                layout.focused = self.focus == Some(e);
            }
            laid.push((e, layout));
        }
        let boxes: HashSet<Entity> = laid.iter().map(|(e, _)| *e).collect();
        let stale: Vec<Entity> = world
            .entities
            .query::<(Entity, &TextLayout)>()
            .iter()
            .map(|(e, _)| e)
            .filter(|e| !boxes.contains(e))
            .collect();
        for e in stale {
            let _ = world.entities.remove_one::<TextLayout>(e);
        }
        for (e, layout) in laid {
            let _ = world.entities.insert_one(e, layout);
        }
    }
}

fn is_scroll_box(world: &World, e: Entity) -> bool {
    world
        .entities
        .get::<&Text>(e)
        .is_ok_and(|t| t.overflow == Overflow::Scroll && t.height.is_some())
        && world.entities.get::<&TextLayout>(e).is_ok()
}

fn text_size(world: &World, e: Entity) -> Option<f32> {
    let size = world.entities.get::<&Text>(e).ok()?.size;
    (size.is_finite() && size > 0.0).then_some(size)
}

/// Sets a scroll box's scroll, kept in the range its last layout allows, and the first line
/// its layout says is shown.
fn scroll_to(world: &mut World, e: Entity, scroll: f32) {
    let Ok(mut layout) = world.entities.get::<&mut TextLayout>(e) else {
        return;
    };
    let Ok(mut text) = world.entities.get::<&mut Text>(e) else {
        return;
    };
    text.scroll = clamp_scroll(scroll, layout.max_scroll as usize);
    if layout.lines > layout.rows {
        layout.first = text.scroll.floor() as u32;
    }
}

/// The world point `at` in entity `e`'s own units (before its rotation and scale); `None`
/// when its transform cannot be undone (a zero or non-finite scale).
fn local(world: &World, e: Entity, at: [f32; 2]) -> Option<[f32; 2]> {
    let t = world
        .entities
        .get::<&Transform2D>(e)
        .map(|t| *t)
        .unwrap_or_default();
    local_in(&t, at)
}

/// The world point `at` in the units of something placed by `t`.
fn local_in(t: &Transform2D, at: [f32; 2]) -> Option<[f32; 2]> {
    let [dx, dy] = [at[0] - t.pos[0], at[1] - t.pos[1]];
    let (sin, cos) = t.rot.sin_cos();
    let turned = [dx * cos + dy * sin, dy * cos - dx * sin];
    let p = [turned[0] / t.scale[0], turned[1] / t.scale[1]];
    (p[0].is_finite() && p[1].is_finite()).then_some(p)
}

/// The topmost scroll box holding the world point `at` (highest z, then latest spawned, as
/// drawn).
fn box_at(world: &World, at: [f32; 2]) -> Option<Entity> {
    let mut best: Option<(f32, u64, Entity)> = None;
    let mut query = world
        .entities
        .query::<(Entity, &Text, &TextLayout, Option<&Transform2D>)>();
    for (e, text, layout, transform) in query.iter() {
        if text.overflow != Overflow::Scroll {
            continue;
        }
        let Some(height) = text.height else { continue };
        let Some([x, y]) = local_in(&transform.copied().unwrap_or_default(), at) else {
            continue;
        };
        let width = text
            .wrap
            .filter(|w| w.is_finite() && *w > 0.0)
            .unwrap_or(layout.width);
        let left = match text.align {
            Align::Left => 0.0,
            Align::Center => -width / 2.0,
            Align::Right => -width,
        };
        if !(x >= left && x <= left + width && y.abs() <= height / 2.0) {
            continue;
        }
        let z = transform.map_or(0.0, |t| t.z);
        let order = world.spawn_order(e);
        let above = best.is_none_or(|(bz, bo, _)| z > bz || (z == bz && order > bo));
        if above {
            best = Some((z, order, e));
        }
    }
    best.map(|(_, _, e)| e)
}
