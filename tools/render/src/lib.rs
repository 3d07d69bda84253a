//! The software renderer: turns a world's `Sprite`, `Text` and `Mesh2D` components into pixels.
//! Everything goes into one premultiplied canvas in a fixed order (z, spawn order, entity id)
//! with integer blending and no clocks or threads, so the same world gives byte-identical
//! frames. Bad content never stops a frame: it is skipped or drawn as something visible, and
//! described once through [`Renderer::take_warnings`]. Textures and fonts are read through the
//! project's [`Assets`], never by path.

mod camera;
mod color_glyph;
mod frame;
#[cfg(test)]
mod glyph_table;
mod mesh;
mod raster;
mod sprite;
mod text;
mod texture;

pub use camera::screen_to_world;
pub use frame::Frame;
pub use text::boxed::{Plan, clamp_scroll, plan, rows};

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use jengine::host::{Assets, DefaultAssets, DiskAssets, with_defaults, within};
use jengine::{Entity, Mesh2D, Name, Sprite, SpriteLibrary, Text, TextLayout, Transform2D, World};

use camera::{View, pick_camera};
use raster::Canvas;
use texture::Textures;

/// The largest frame side drawn; anything bigger is refused rather than allocated.
const MAX_SIDE: u32 = 16384;

/// Problems found while drawing, each said once for the renderer's lifetime.
#[derive(Default)]
pub(crate) struct Warnings {
    said: HashSet<String>,
    pending: Vec<String>,
}

impl Warnings {
    pub fn say(&mut self, message: String) {
        if self.said.insert(message.clone()) {
            self.pending.push(message);
        }
    }
}

/// Draws worlds into frames, keeping textures, fonts and glyphs between frames.
pub struct Renderer {
    textures: Textures,
    fonts: text::Fonts,
    warnings: Warnings,
    /// The project's `assets` folder, as handed in.
    assets: Arc<dyn Assets>,
    /// The packages' default files last found in a world, now under the project's.
    defaults: Option<Arc<dyn Assets>>,
}

/// Lays text boxes out as the renderer draws them, without drawing: what the runtime keeps a
/// box's scroll in range with and tells scripts (`text_layout`). It reads the same fonts, so
/// its line counts are the renderer's.
pub struct TextMeasure {
    fonts: text::Fonts,
    warnings: Warnings,
    /// Line count and widest line by the text, font, size and wrap they were found for.
    counted: HashMap<u64, Option<(usize, f32)>>,
}

/// How many texts [`TextMeasure`] remembers before it forgets them all.
const MAX_MEASURED: usize = 1024;

impl TextMeasure {
    /// Reads fonts from `assets`, the files of a project's `assets` folder, as
    /// [`Renderer::with_assets`] does.
    pub fn with_assets(assets: Arc<dyn Assets>) -> TextMeasure {
        TextMeasure {
            fonts: text::Fonts::with_assets(within(&assets, "fonts")),
            warnings: Warnings::default(),
            counted: HashMap::new(),
        }
    }

    /// What a box shows of `text` now; `None` when it is not a box (no `height`, or one that is
    /// not a number of zero or more, which the renderer draws without a box). `focused` is left
    /// false. The renderer's problems with the text (a missing font) are the renderer's to say.
    pub fn text_box(&mut self, text: &Text) -> Option<TextLayout> {
        let height = text.height.filter(|h| h.is_finite() && *h >= 0.0)?;
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::hash::DefaultHasher::new();
            (&text.text, &text.font, text.size.to_bits()).hash(&mut h);
            text.wrap.map(f32::to_bits).hash(&mut h);
            h.finish()
        };
        if self.counted.len() >= MAX_MEASURED && !self.counted.contains_key(&key) {
            self.counted.clear();
        }
        let (fonts, warnings) = (&mut self.fonts, &mut self.warnings);
        let counted = *self
            .counted
            .entry(key)
            .or_insert_with(|| text::measure(fonts, text, warnings));
        self.warnings.pending.clear();
        let (lines, width) = counted.unwrap_or((0, 0.0));
        let rows = rows(height, text.size);
        let plan = plan(lines, rows, text.overflow, text.scroll);
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Some(TextLayout {
            lines: count(lines),
            rows: count(rows),
            first: count(plan.first),
            shown: count(plan.shown),
            hidden: count(lines.saturating_sub(plan.shown)),
            max_scroll: count(plan.max_scroll),
            width,
            focused: false,
        })
    }
}

/// What an entity draws; an entity with several draws them in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Mesh,
    Sprite,
    Text,
}

impl Renderer {
    /// `assets` is the project's assets folder on disk: textures under assets/textures/, fonts
    /// under assets/fonts/.
    pub fn new(assets: &Path) -> Renderer {
        Renderer::with_assets(Arc::new(DiskAssets::new(assets)))
    }

    /// Draws with textures and fonts from `assets`, the files of a project's `assets` folder
    /// (`within(&project.assets, "assets")`): `textures/...` and `fonts/...`.
    ///
    /// A texture or font the project has no file of is read from the default files of the
    /// world's packages ([`jengine::host::DefaultAssets`], put in by the runtime), so a package
    /// that ships its art draws with it in any project that lists it.
    pub fn with_assets(assets: Arc<dyn Assets>) -> Renderer {
        Renderer {
            textures: Textures::with_assets(within(&assets, "textures")),
            fonts: text::Fonts::with_assets(within(&assets, "fonts")),
            warnings: Warnings::default(),
            assets,
            defaults: None,
        }
    }

    /// Puts the world's package defaults under the project's files, once per set of defaults:
    /// textures and fonts are read again from the layered set.
    fn adopt_defaults(&mut self, world: &World) {
        let Some(found) = world.resources.get::<DefaultAssets>() else {
            return;
        };
        if self
            .defaults
            .as_ref()
            .is_some_and(|d| Arc::ptr_eq(d, &found.0))
        {
            return;
        }
        let both = with_defaults(self.assets.clone(), within(&found.0, "assets"));
        self.textures = Textures::with_assets(within(&both, "textures"));
        self.fonts = text::Fonts::with_assets(within(&both, "fonts"));
        self.defaults = Some(found.0.clone());
    }

    /// Loads every texture named by `SpriteLibrary` components (call after a scene loads).
    pub fn preload(&mut self, world: &World) {
        self.adopt_defaults(world);
        for library in world.entities.query::<&SpriteLibrary>().iter() {
            for name in &library.textures {
                if let Some(warning) = self.textures.load(name) {
                    self.warnings.say(warning);
                }
            }
        }
    }

    /// Warnings since the last call, each distinct problem said once.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings.pending)
    }

    /// Draws the world into a `width` x `height` frame. Never panics on any world content.
    pub fn render(&mut self, world: &World, width: u32, height: u32) -> Frame {
        self.render_filtered(world, width, height, None)
    }

    /// Where entity `e` shows in a `width` x `height` frame: the smallest box
    /// `[left, top, right, bottom]` (pixels, right and bottom exclusive) holding every pixel
    /// it draws. `None` when it draws nothing there.
    pub fn bounds(
        &mut self,
        world: &World,
        e: Entity,
        width: u32,
        height: u32,
    ) -> Option<[u32; 4]> {
        self.bounds_of(world, &|x| x == e, width, height)
    }

    /// Where the entities `only` accepts show together in a `width` x `height` frame, as
    /// [`Renderer::bounds`] gives it for one.
    pub fn bounds_of(
        &mut self,
        world: &World,
        only: &dyn Fn(Entity) -> bool,
        width: u32,
        height: u32,
    ) -> Option<[u32; 4]> {
        let frame = self.render_filtered(world, width, height, Some(only));
        let (w, h) = (frame.width, frame.height);
        let mut bounds: Option<[u32; 4]> = None;
        for y in 0..h {
            for x in 0..w {
                if frame.pixel(x, y).is_some_and(|p| p[3] > 0) {
                    let b = bounds.get_or_insert([x, y, x + 1, y + 1]);
                    b[0] = b[0].min(x);
                    b[1] = b[1].min(y);
                    b[2] = b[2].max(x + 1);
                    b[3] = b[3].max(y + 1);
                }
            }
        }
        bounds
    }

    /// Which of `candidates` draws the pixel (x, y) of a `width` x `height` frame on top: the
    /// one drawn last there (highest z, then latest spawned). `None` when none draws it.
    ///
    /// The candidates are taken top first and the pixel is looked at with the first k of them
    /// drawn: more of them only ever cover more, so the top one there is found by halving, in
    /// about log2(n) drawings rather than one a candidate (a board of 300 tiles: 10).
    pub fn pick(
        &mut self,
        world: &World,
        candidates: &[Entity],
        width: u32,
        height: u32,
        x: u32,
        y: u32,
    ) -> Option<Entity> {
        let mut order: Vec<(f32, u64, Entity)> = candidates
            .iter()
            .filter(|e| world.entities.contains(**e))
            .map(|e| {
                let z = world
                    .entities
                    .get::<&Transform2D>(*e)
                    .map(|t| t.z)
                    .unwrap_or(0.0);
                (z, world.spawn_order(*e), *e)
            })
            .collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
        order.dedup_by_key(|c| c.2);
        let top: Vec<Entity> = order.into_iter().map(|(_, _, e)| e).collect();
        let mut covers = |k: usize| {
            let first: std::collections::HashSet<Entity> = top[..k].iter().copied().collect();
            self.render_filtered(world, width, height, Some(&|e| first.contains(&e)))
                .pixel(x, y)
                .is_some_and(|p| p[3] > 0)
        };
        if top.is_empty() || !covers(top.len()) {
            return None;
        }
        // The least k whose first k cover the pixel: the k-th is on top there.
        let (mut lo, mut hi) = (1, top.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if covers(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(top[lo - 1])
    }

    fn render_filtered(
        &mut self,
        world: &World,
        width: u32,
        height: u32,
        only: Option<&dyn Fn(Entity) -> bool>,
    ) -> Frame {
        self.adopt_defaults(world);
        let (camera, warning) = pick_camera(world);
        if let Some(w) = warning {
            self.warnings.say(w);
        }
        let pixmap = (width <= MAX_SIDE && height <= MAX_SIDE)
            .then(|| tiny_skia::Pixmap::new(width, height))
            .flatten();
        let Some(mut pixmap) = pixmap else {
            self.warnings.say(format!(
                "a {width}x{height} frame cannot be drawn (each side must be 1 to {MAX_SIDE}); \
                 nothing rendered"
            ));
            return Frame::empty();
        };
        let clear = match only {
            Some(_) => [0; 4],
            None => raster::premultiplied(camera.clear.0).map(|c| c as u8),
        };
        for p in pixmap.data_mut().chunks_exact_mut(4) {
            p.copy_from_slice(&clear);
        }
        let view = View::new(camera, width, height);

        let mut items = Vec::new();
        let mut query = world.entities.query::<(
            Entity,
            Option<&Transform2D>,
            Option<&Sprite>,
            Option<&Mesh2D>,
            Option<&Text>,
        )>();
        for (e, transform, sprite, mesh, text) in query.iter() {
            if sprite.is_none() && mesh.is_none() && text.is_none() || only.is_some_and(|o| !o(e)) {
                continue;
            }
            let t = transform.copied().unwrap_or_default();
            let finite = t.pos.iter().chain(&t.scale).all(|v| v.is_finite())
                && t.rot.is_finite()
                && t.z.is_finite();
            if !finite {
                self.warnings.say(format!(
                    "{}: transform has a non-finite value (pos {:?}, rot {}, scale {:?}, z {}); \
                     not drawn",
                    label(world, e),
                    t.pos,
                    t.rot,
                    t.scale,
                    t.z
                ));
                continue;
            }
            let order = world.spawn_order(e);
            let kinds = [
                mesh.map(|_| Kind::Mesh),
                sprite.map(|_| Kind::Sprite),
                text.map(|_| Kind::Text),
            ];
            for kind in kinds.into_iter().flatten() {
                items.push((t.z, order, e.id(), kind, e, t));
            }
        }
        drop(query);
        items.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.1.cmp(&b.1))
                .then(a.2.cmp(&b.2))
                .then(a.3.cmp(&b.3))
        });

        let mut canvas = Canvas {
            px: pixmap.data_mut(),
            width: width as usize,
            height: height as usize,
        };
        for (_, _, _, kind, e, t) in items {
            let label = label(world, e);
            match kind {
                Kind::Sprite => {
                    if let Ok(s) = world.entities.get::<&Sprite>(e) {
                        sprite::draw_sprite(
                            &mut canvas,
                            &view,
                            &t,
                            &s,
                            &mut self.textures,
                            &mut self.warnings,
                            &label,
                        );
                    }
                }
                Kind::Mesh => {
                    if let Ok(m) = world.entities.get::<&Mesh2D>(e) {
                        mesh::draw_mesh(
                            &mut canvas,
                            &view,
                            &t,
                            &m,
                            &mut self.textures,
                            &mut self.warnings,
                            &label,
                        );
                    }
                }
                Kind::Text => {
                    if let Ok(x) = world.entities.get::<&Text>(e) {
                        text::draw_text(
                            &mut canvas,
                            &view,
                            &t,
                            &x,
                            &mut self.fonts,
                            &mut self.warnings,
                            &label,
                        );
                    }
                }
            }
        }
        Frame::from_premultiplied(width, height, pixmap.take())
    }
}

/// Loads the texture `name` from the assets folder on disk as drawing would, for
/// `jengine check`: `Err` says why it cannot be drawn (a bad name, a missing file, a PNG that
/// does not decode).
pub fn check_texture(assets: &Path, name: &str) -> Result<(), String> {
    check_texture_in(Arc::new(DiskAssets::new(assets)), name)
}

/// [`check_texture`] for `assets`, the files of a project's `assets` folder.
pub fn check_texture_in(assets: Arc<dyn Assets>, name: &str) -> Result<(), String> {
    texture::read_texture(&*within(&assets, "textures"), name).map(|_| ())
}

/// Loads the font `name` from the assets folder on disk as drawing would, for `jengine check`.
pub fn check_font(assets: &Path, name: &str) -> Result<(), String> {
    check_font_in(Arc::new(DiskAssets::new(assets)), name)
}

/// [`check_font`] for `assets`, the files of a project's `assets` folder.
pub fn check_font_in(assets: Arc<dyn Assets>, name: &str) -> Result<(), String> {
    text::read_font(&*within(&assets, "fonts"), name).map(|_| ())
}

/// How warnings name an entity: its `Name`, or its id.
fn label(world: &World, e: Entity) -> String {
    match world.entities.get::<&Name>(e) {
        Ok(name) => format!("entity {:?}", name.0),
        Err(_) => format!("entity #{}", e.id()),
    }
}
