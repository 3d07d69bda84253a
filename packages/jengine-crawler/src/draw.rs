//! The picture on screen: every quad of the view becomes a textured `Mesh2D` from a pool of
//! entities the crawl owns, reused frame after frame.
//!
//! The trick is that the view already carries everything a renderer needs: four corners, a
//! perspective weight `q` and a shade per corner. So a quad is two triangles sampling one region
//! of the sheet, the renderer divides by `q` per pixel (walls keep straight bricks), and the
//! shade is the only light. Each quad is cut to the window at plane -1 (`crop`), since what lies
//! outside would only be filled to be covered by the game's frame.

use std::collections::BTreeMap;

use jengine::{BulkEntity, Color, Entity, Mesh2D, SpawnedFor, Transform2D, Vertex, World};
use serde::{Deserialize, Serialize};

use crate::view::{Look, Quad};

/// The faces of the sheet, in the order of its grid of 256-pixel regions, four to a row,
/// row by row from the top: [`Look`]s by their snake_case names.
pub const FACES: [&str; 24] = [
    "wall",
    "floor",
    "ceiling",
    "door",
    "locked",
    "lever",
    "lever_pulled",
    "arch",
    "chest",
    "chest_open",
    "pit",
    "stairs_down",
    "stairs_up",
    "trap",
    "monster",
    "encounter",
    "open_door",
    "teleporter",
    "spinner",
    "plate",
    "button",
    "button_pressed",
    "item",
    "decor",
];

/// The standard sheet's size in pixels: the grid of [`FACES`].
pub const SHEET_SIZE: [f32; 2] = [1024.0, 1536.0];

/// Where a named piece of art (a monster's, a fight's) is: a texture and a region of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Art {
    /// A PNG under `assets/textures/`.
    pub texture: String,
    /// `[x, y, w, h]` in texture pixels, from the top-left.
    pub region: [f32; 4],
}

/// The art the package draws with: one texture holding a region per face, named art for
/// monsters and fights, and the size of every texture (regions are in pixels, a mesh's
/// texture coordinates are not, and the package never opens a file to find out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Sheet {
    /// The texture of the faces.
    pub texture: String,
    /// `[x, y, w, h]` per face name (see [`FACES`]); a face left out keeps its place in the
    /// standard grid of 256-pixel regions, four to a row.
    pub faces: BTreeMap<String, [f32; 4]>,
    /// Named art; an unknown name falls back to the quad's own face (`monster` or `encounter`).
    pub art: BTreeMap<String, Art>,
    /// `[w, h]` in pixels of each texture the sheet names.
    pub sizes: BTreeMap<String, [f32; 2]>,
    /// Wall sets by name: for each, the art of any face (by its [`FACES`] name) a floor with
    /// that `walls` draws instead of the sheet's own. Faces a set leaves out are the sheet's.
    pub sets: BTreeMap<String, BTreeMap<String, Art>>,
}

/// Region `i` of the standard grid.
fn grid(i: usize) -> [f32; 4] {
    [(i % 4) as f32 * 256.0, (i / 4) as f32 * 256.0, 256.0, 256.0]
}

impl Default for Sheet {
    fn default() -> Sheet {
        let faces = FACES
            .iter()
            .enumerate()
            .map(|(i, name)| (name.to_string(), grid(i)))
            .collect();
        let art = ["m_rat", "m_beetle", "m_ghoul", "m_chief"]
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let art = Art {
                    texture: "crawler/monsters.png".into(),
                    region: [i as f32 * 256.0, 0.0, 256.0, 256.0],
                };
                (name.to_string(), art)
            })
            .collect();
        let sizes = [
            ("crawler/crawler.png".to_string(), SHEET_SIZE),
            ("crawler/monsters.png".to_string(), [1024.0, 256.0]),
        ]
        .into_iter()
        .collect();
        Sheet {
            texture: "crawler/crawler.png".into(),
            faces,
            art,
            sizes,
            sets: BTreeMap::new(),
        }
    }
}

fn check_region(what: &str, r: &[f32; 4], size: [f32; 2]) -> Result<(), String> {
    if r.iter().any(|v| !v.is_finite()) || r[0] < 0.0 || r[1] < 0.0 || r[2] <= 0.0 || r[3] <= 0.0 {
        return Err(format!(
            "{what}: region {r:?} needs a finite x, y at 0 or more and a width and height above 0"
        ));
    }
    if r[0] + r[2] > size[0] || r[1] + r[3] > size[1] {
        return Err(format!(
            "{what}: region {r:?} reaches outside its {}x{} texture",
            size[0], size[1]
        ));
    }
    Ok(())
}

impl Sheet {
    /// Refuses a sheet the package could not draw from: an unknown face, a texture without a
    /// size, a region that is empty, not finite or outside its texture. The message names the
    /// field.
    pub fn check(&self) -> Result<(), String> {
        for (name, size) in &self.sizes {
            if size.iter().any(|v| !v.is_finite() || *v < 1.0) {
                return Err(format!(
                    "sheet.sizes.{name}: {size:?} is not a size in pixels"
                ));
            }
        }
        let size_of = |texture: &str, what: &str| {
            self.sizes.get(texture).copied().ok_or_else(|| {
                format!("{what}: the texture {texture:?} has no entry in sheet.sizes")
            })
        };
        let main = size_of(&self.texture, "sheet.texture")?;
        for (name, region) in &self.faces {
            if !FACES.contains(&name.as_str()) {
                return Err(format!(
                    "sheet.faces.{name}: not a face (the faces are {})",
                    FACES.join(", ")
                ));
            }
            check_region(&format!("sheet.faces.{name}"), region, main)?;
        }
        for (name, art) in &self.art {
            let what = format!("sheet.art.{name}");
            let size = size_of(&art.texture, &what)?;
            check_region(&what, &art.region, size)?;
        }
        for (set, faces) in &self.sets {
            if set.trim().is_empty() {
                return Err("sheet.sets: a wall set needs a name".into());
            }
            for (name, art) in faces {
                let what = format!("sheet.sets.{set}.{name}");
                if !FACES.contains(&name.as_str()) {
                    return Err(format!(
                        "{what}: not a face (the faces are {})",
                        FACES.join(", ")
                    ));
                }
                let size = size_of(&art.texture, &what)?;
                check_region(&what, &art.region, size)?;
            }
        }
        Ok(())
    }

    /// Refuses floors whose wall set (`walls`, by level) the sheet does not have, naming the
    /// level (counting from 1, with its name) and the set.
    pub fn check_sets<'a>(
        &self,
        levels: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
    ) -> Result<(), String> {
        for (i, (name, walls)) in levels.into_iter().enumerate() {
            if let Some(set) = walls
                && !self.sets.contains_key(set)
            {
                let known: Vec<&str> = self.sets.keys().map(String::as_str).collect();
                return Err(format!(
                    "level {} ({name}) has walls {set:?}, a set sheet.sets lacks (it has: {})",
                    i + 1,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ));
            }
        }
        Ok(())
    }

    /// The sheet turned into texture coordinates, once, so a frame looks nothing up by name
    /// but the art. Call [`Sheet::check`] first; anything it would refuse draws as the
    /// standard grid.
    pub fn resolve(&self) -> Resolved {
        let main = self.sizes.get(&self.texture).copied().unwrap_or(SHEET_SIZE);
        let faces = std::array::from_fn(|i| {
            let region = self.faces.get(FACES[i]).copied().unwrap_or(grid(i));
            uv_rect(region, main)
        });
        let art = self
            .art
            .iter()
            .filter_map(|(name, art)| {
                let size = self.sizes.get(&art.texture)?;
                Some((
                    name.clone(),
                    (art.texture.clone(), uv_rect(art.region, *size)),
                ))
            })
            .collect();
        let sets = self
            .sets
            .iter()
            .map(|(set, arts)| {
                let faces = FACES.map(|face| {
                    let art = arts.get(face)?;
                    let size = self.sizes.get(&art.texture)?;
                    Some((art.texture.clone(), uv_rect(art.region, *size)))
                });
                (set.clone(), faces.to_vec())
            })
            .collect();
        Resolved {
            texture: self.texture.clone(),
            faces,
            art,
            sets,
        }
    }
}

/// `[u0, v0, u1, v1]`, half a texel inside the region on every side: the renderer samples the
/// nearest texel and repeats past 1, so a coordinate on the region's edge could pick up the
/// neighbouring region.
fn uv_rect(r: [f32; 4], size: [f32; 2]) -> [f32; 4] {
    [
        (r[0] + 0.5) / size[0],
        (r[1] + 0.5) / size[1],
        (r[0] + r[2] - 0.5) / size[0],
        (r[1] + r[3] - 0.5) / size[1],
    ]
}

/// A texture and `[u0, v0, u1, v1]` in it.
type Sampled = (String, [f32; 4]);

/// A sheet as texture coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    texture: String,
    faces: [[f32; 4]; FACES.len()],
    art: BTreeMap<String, Sampled>,
    /// Per wall set, per face: its own texture and coordinates, or none (the sheet's).
    sets: BTreeMap<String, Vec<Option<Sampled>>>,
}

fn face_index(look: Look) -> usize {
    match look {
        Look::Wall => 0,
        Look::Floor => 1,
        Look::Ceiling => 2,
        Look::Door => 3,
        Look::Locked => 4,
        Look::Lever => 5,
        Look::LeverPulled => 6,
        Look::Arch => 7,
        Look::Chest => 8,
        Look::ChestOpen => 9,
        Look::Pit => 10,
        Look::StairsDown => 11,
        Look::StairsUp => 12,
        Look::Trap => 13,
        Look::Monster => 14,
        Look::Encounter => 15,
        Look::OpenDoor => 16,
        Look::Teleporter => 17,
        Look::Spinner => 18,
        Look::Plate => 19,
        Look::Button => 20,
        Look::ButtonPressed => 21,
        Look::Item => 22,
        Look::Decor => 23,
    }
}

impl Resolved {
    /// The texture and `[u0, v0, u1, v1]` a quad samples on a floor of wall set `set`: its
    /// named art, else the set's face, else the sheet's.
    pub fn lookup(&self, quad: &Quad, set: Option<&str>) -> (&str, [f32; 4]) {
        if let Some((texture, uv)) = quad.art.as_ref().and_then(|a| self.art.get(a)) {
            return (texture, *uv);
        }
        let face = face_index(quad.look);
        if let Some(Some((texture, uv))) = set
            .and_then(|set| self.sets.get(set))
            .and_then(|faces| faces.get(face))
        {
            return (texture, *uv);
        }
        (&self.texture, self.faces[face])
    }
}

/// The mesh entities a crawl draws with, one per quad, and its sheet ready to sample.
#[derive(Debug)]
pub struct Pool {
    meshes: Vec<Entity>,
    sheet: Resolved,
}

impl Pool {
    /// An empty pool drawing from `sheet`.
    pub fn new(sheet: &Sheet) -> Pool {
        Pool {
            meshes: Vec::new(),
            sheet: sheet.resolve(),
        }
    }

    /// The mesh entities, in quad order (far first).
    pub fn meshes(&self) -> &[Entity] {
        &self.meshes
    }
}

/// A corner on its way into a mesh: position, and the attributes the renderer interpolates
/// linearly across the screen (`u*q`, `v*q`, `shade*q` and `q`), so a cut edge stays exact.
#[derive(Clone, Copy)]
struct Corner {
    pos: [f32; 2],
    uq: f32,
    vq: f32,
    sq: f32,
    q: f32,
}

impl Corner {
    fn lerp(a: Corner, b: Corner, t: f32) -> Corner {
        let l = |x: f32, y: f32| x + (y - x) * t;
        Corner {
            pos: [l(a.pos[0], b.pos[0]), l(a.pos[1], b.pos[1])],
            uq: l(a.uq, b.uq),
            vq: l(a.vq, b.vq),
            sq: l(a.sq, b.sq),
            q: l(a.q, b.q),
        }
    }
}

/// Cuts a convex polygon to where `inside` is at 0 or more, `inside` being linear on screen
/// (Sutherland–Hodgman).
fn cut(poly: &[Corner], inside: impl Fn([f32; 2]) -> f32, out: &mut Vec<Corner>) {
    out.clear();
    for (i, &a) in poly.iter().enumerate() {
        let b = poly[(i + 1) % poly.len()];
        let (da, db) = (inside(a.pos), inside(b.pos));
        match (da >= 0.0, db >= 0.0) {
            (true, true) => out.push(b),
            (true, false) | (false, true) => {
                out.push(Corner::lerp(a, b, da / (da - db)));
                if db >= 0.0 {
                    out.push(b);
                }
            }
            (false, false) => {}
        }
    }
}

/// Writes `quad` into `mesh`, reusing its vectors, cut to the window `crop` either side of
/// the middle: what lies outside would only be painted over by the game's frame, and filling
/// it is most of a busy picture's cost. Vertices are in the view's units with y flipped (the
/// view's y grows down the screen, the world's up).
fn fill(mesh: &mut Mesh2D, quad: &Quad, sheet: &Resolved, set: Option<&str>, crop: [f32; 2]) {
    let (texture, [u0, v0, u1, v1]) = sheet.lookup(quad, set);
    if mesh.texture != texture {
        mesh.texture.clear();
        mesh.texture.push_str(texture);
    }
    mesh.tint = Color::WHITE;
    // Corners come as the art's top-left, top-right, bottom-right, bottom-left.
    let uv = [[u0, v0], [u1, v0], [u1, v1], [u0, v1]];
    let within = |p: [f32; 2]| p[0].abs() <= crop[0] && p[1].abs() <= crop[1];
    if quad.clip.is_none() && quad.corners.iter().all(|&p| within(p)) {
        // Wholly inside (most quads): the corners as they are.
        mesh.vertices.clear();
        mesh.vertices.extend((0..4).map(|i| Vertex {
            pos: [quad.corners[i][0], -quad.corners[i][1]],
            uv: uv[i],
            q: quad.q[i],
            shade: quad.shade[i],
        }));
        if mesh.indices.len() != 6 || mesh.indices[..] != [0, 1, 2, 0, 2, 3] {
            mesh.indices.clear();
            mesh.indices.extend_from_slice(&[0, 1, 2, 0, 2, 3]);
        }
        return;
    }
    let mut poly: Vec<Corner> = (0..4)
        .map(|i| {
            let q = quad.q[i];
            Corner {
                pos: quad.corners[i],
                uq: uv[i][0] * q,
                vq: uv[i][1] * q,
                sq: quad.shade[i] * q,
                q,
            }
        })
        .collect();
    let mut scratch = Vec::with_capacity(12);
    // The window's four sides, then the sides of what the quad is seen through, if anything.
    let window = [
        [1.0, 0.0, crop[0]],
        [-1.0, 0.0, crop[0]],
        [0.0, 1.0, crop[1]],
        [0.0, -1.0, crop[1]],
    ]
    .map(|[a, b, c]| move |p: [f32; 2]| c - a * p[0] - b * p[1]);
    let through = quad.clip.map(|clip| {
        std::array::from_fn::<_, 4, _>(|i| {
            let [ax, ay] = clip[i];
            let [bx, by] = clip[(i + 1) % 4];
            move |p: [f32; 2]| (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
        })
    });
    for side in 0..8 {
        match (side, &through) {
            (0..4, _) => cut(&poly, window[side], &mut scratch),
            (_, Some(edges)) => cut(&poly, edges[side - 4], &mut scratch),
            (_, None) => break,
        }
        std::mem::swap(&mut poly, &mut scratch);
        if poly.is_empty() {
            break;
        }
    }
    mesh.vertices.clear();
    mesh.vertices.extend(poly.iter().map(|c| Vertex {
        pos: [c.pos[0], -c.pos[1]],
        uv: [c.uq / c.q, c.vq / c.q],
        q: c.q,
        shade: c.sq / c.q,
    }));
    mesh.indices.clear();
    for i in 1..poly.len().saturating_sub(1) {
        mesh.indices.extend_from_slice(&[0, i as u32, i as u32 + 1]);
    }
}

/// Where and how a crawl's picture goes: its place in the world, the depth of its farthest
/// quad, the window it is cut to and the wall set of the floor it shows.
#[derive(Debug, Clone, Copy)]
pub struct Placing<'a> {
    /// The middle of the corridor in the world.
    pub origin: [f32; 2],
    /// Quad `i` is drawn at `z_base + i`.
    pub z_base: f32,
    /// Half the window's width and height.
    pub crop: [f32; 2],
    /// The floor's wall set, if it has one.
    pub set: Option<&'a str>,
    /// The scene entity the picture is drawn for (the one with `crawl_game`): each mesh is
    /// marked [`SpawnedFor`] it, so the editor's pick on the picture selects the crawl.
    pub owner: Entity,
}

/// Writes `quads` into the pool: mesh `i` at `origin`, depth `z_base + i`. Meshes already
/// spawned are overwritten in place, more are spawned when the picture grows, and the ones left
/// over are despawned, so the pool always holds exactly one mesh per quad.
pub fn write(world: &mut World, pool: &mut Pool, quads: &[Quad], at: Placing) {
    let Placing {
        origin,
        z_base,
        crop,
        set,
        owner,
    } = at;
    for (i, quad) in quads.iter().enumerate() {
        let transform = Transform2D {
            pos: origin,
            z: z_base + i as f32,
            ..Transform2D::default()
        };
        let reused = pool.meshes.get(i).is_some_and(|&e| {
            match world
                .entities
                .query_one_mut::<(&mut Mesh2D, &mut Transform2D)>(e)
            {
                Ok((mesh, t)) => {
                    fill(mesh, quad, &pool.sheet, set, crop);
                    *t = transform;
                    true
                }
                Err(_) => false,
            }
        });
        if !reused {
            let mut mesh = Mesh2D::default();
            fill(&mut mesh, quad, &pool.sheet, set, crop);
            let e = world.spawn((BulkEntity, SpawnedFor(owner), transform, mesh));
            if i < pool.meshes.len() {
                pool.meshes[i] = e;
            } else {
                pool.meshes.push(e);
            }
        }
    }
    clear_from(world, pool, quads.len());
}

/// Despawns the pool's meshes from `n` on.
pub fn clear_from(world: &mut World, pool: &mut Pool, n: usize) {
    for e in pool.meshes.drain(n.min(pool.meshes.len())..) {
        let _ = world.entities.despawn(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Dungeon;
    use crate::map::Facing;
    use crate::view::{Frame, build};

    fn quads() -> Vec<Quad> {
        let d = Dungeon::from_rows(&["#####", "#...#", "#.#.#", "#...#", "#####"]);
        build(&d, 1, 3, Facing::North, &Frame::default())
    }

    #[test]
    fn the_default_sheet_passes_its_own_check() {
        assert_eq!(Sheet::default().check(), Ok(()));
        assert_eq!(Sheet::default().faces.len(), FACES.len());
    }

    #[test]
    fn a_sheet_with_an_unknown_face_or_a_region_outside_is_refused() {
        let mut s = Sheet::default();
        s.faces.insert("window".into(), [0.0, 0.0, 8.0, 8.0]);
        assert!(
            s.check()
                .unwrap_err()
                .starts_with("sheet.faces.window: not a face")
        );
        let mut s = Sheet::default();
        s.faces.insert("wall".into(), [900.0, 0.0, 256.0, 256.0]);
        assert!(
            s.check()
                .unwrap_err()
                .contains("reaches outside its 1024x1536 texture")
        );
        let mut s = Sheet::default();
        s.faces.insert("wall".into(), [0.0, 0.0, f32::NAN, 1.0]);
        assert!(
            s.check()
                .unwrap_err()
                .starts_with("sheet.faces.wall: region")
        );
        let s = Sheet {
            texture: "other.png".into(),
            ..Sheet::default()
        };
        assert_eq!(
            s.check(),
            Err("sheet.texture: the texture \"other.png\" has no entry in sheet.sizes".into())
        );
    }

    #[test]
    fn texture_coordinates_stay_half_a_texel_inside_the_region() {
        let r = Sheet::default().resolve();
        // Region 5 (lever): x 256..512, y 256..512 of 1024 x 1536.
        assert_eq!(
            r.faces[5],
            [
                256.5 / 1024.0,
                256.5 / 1536.0,
                511.5 / 1024.0,
                511.5 / 1536.0
            ]
        );
    }

    #[test]
    fn named_art_is_sampled_from_its_own_texture_and_unknown_art_from_the_face() {
        let r = Sheet::default().resolve();
        let mut q = quads()[0].clone();
        q.look = Look::Monster;
        q.art = Some("m_ghoul".into());
        let (t, uv) = r.lookup(&q, None);
        assert_eq!(t, "crawler/monsters.png");
        assert_eq!(uv[0], 512.5 / 1024.0);
        q.art = Some("m_nobody".into());
        assert_eq!(r.lookup(&q, None), ("crawler/crawler.png", r.faces[14]));
        q.look = Look::Encounter;
        assert_eq!(r.lookup(&q, None), ("crawler/crawler.png", r.faces[15]));
    }

    #[test]
    fn a_wall_set_replaces_the_faces_it_names_and_keeps_the_rest() {
        let mut sheet = Sheet::default();
        sheet.sizes.insert("walls.png".into(), [512.0, 256.0]);
        let art = |x: f32| Art {
            texture: "walls.png".into(),
            region: [x, 0.0, 256.0, 256.0],
        };
        let roots: BTreeMap<String, Art> = [("wall".to_string(), art(256.0))].into();
        sheet.sets.insert("roots".into(), roots);
        assert_eq!(sheet.check(), Ok(()));
        let r = sheet.resolve();
        let mut q = quads()[0].clone();
        q.art = None;
        q.look = Look::Wall;
        let (t, uv) = r.lookup(&q, Some("roots"));
        assert_eq!((t, uv[0]), ("walls.png", 256.5 / 512.0));
        assert_eq!(r.lookup(&q, None), ("crawler/crawler.png", r.faces[0]));
        q.look = Look::Floor;
        assert_eq!(
            r.lookup(&q, Some("roots")),
            ("crawler/crawler.png", r.faces[1])
        );
        assert_eq!(
            r.lookup(&q, Some("nowhere")),
            ("crawler/crawler.png", r.faces[1])
        );

        assert_eq!(
            sheet.check_sets([("Top", None), ("Roots", Some("roots"))]),
            Ok(())
        );
        assert_eq!(
            sheet.check_sets([("Top", None), ("Deep", Some("ember"))]),
            Err(
                "level 2 (Deep) has walls \"ember\", a set sheet.sets lacks (it has: roots)".into()
            )
        );
        sheet
            .sets
            .get_mut("roots")
            .unwrap()
            .insert("window".into(), art(0.0));
        assert!(
            sheet
                .check()
                .unwrap_err()
                .starts_with("sheet.sets.roots.window: not a face")
        );
    }

    #[test]
    fn a_mesh_carries_the_quad_corners_flipped_with_its_q_and_shade() {
        let r = Sheet::default().resolve();
        let q = quads().into_iter().find(|q| q.look == Look::Wall).unwrap();
        let mut mesh = Mesh2D::default();
        fill(&mut mesh, &q, &r, None, [1e6, 1e6]);
        assert_eq!(mesh.vertices.len(), 4);
        assert_eq!(mesh.indices, vec![0, 1, 2, 0, 2, 3]);
        for i in 0..4 {
            assert_eq!(mesh.vertices[i].pos, [q.corners[i][0], -q.corners[i][1]]);
            assert_eq!(mesh.vertices[i].q, q.q[i]);
            assert_eq!(mesh.vertices[i].shade, q.shade[i]);
        }
        let [u0, v0, u1, v1] = r.faces[0];
        assert_eq!(mesh.vertices[0].uv, [u0, v0]);
        assert_eq!(mesh.vertices[2].uv, [u1, v1]);
    }

    #[test]
    fn a_quad_is_cut_to_the_window_keeping_its_perspective() {
        let r = Sheet::default().resolve();
        let mut q = quads().into_iter().find(|q| q.look == Look::Wall).unwrap();
        // A wall from x = -2 to 2, its right side twice as far (q halves).
        q.corners = [[-2.0, -1.0], [2.0, -1.0], [2.0, 1.0], [-2.0, 1.0]];
        q.q = [1.0, 0.5, 0.5, 1.0];
        q.shade = [1.0, 0.4, 0.4, 1.0];
        let mut mesh = Mesh2D::default();
        fill(&mut mesh, &q, &r, None, [1.0, 5.0]);
        assert!(mesh.vertices.iter().all(|v| v.pos[0].abs() <= 1.0 + 1e-6));
        assert_eq!(
            mesh.indices.len(),
            6,
            "a cut quad is still four corners here"
        );
        // At x = 1, three quarters of the way across the screen: q is 0.625, and u is the
        // perspective-correct mix (u*q and q linear on screen), not the linear one.
        let [u0, _, u1, _] = r.faces[0];
        let t = 0.75f32;
        let q_at = 1.0 + (0.5 - 1.0) * t;
        let u_at = (u0 * 1.0 + (u1 * 0.5 - u0 * 1.0) * t) / q_at;
        let cut = mesh
            .vertices
            .iter()
            .find(|v| (v.pos[0] - 1.0).abs() < 1e-6)
            .unwrap();
        assert!((cut.q - q_at).abs() < 1e-6);
        assert!((cut.uv[0] - u_at).abs() < 1e-6);
        let shade_at = (1.0 + (0.4 * 0.5 - 1.0) * t) / q_at;
        assert!((cut.shade - shade_at).abs() < 1e-6);
        // Wholly outside: nothing to fill.
        q.corners = [[3.0, -1.0], [4.0, -1.0], [4.0, 1.0], [3.0, 1.0]];
        fill(&mut mesh, &q, &r, None, [1.0, 5.0]);
        assert!(mesh.indices.is_empty());
    }

    #[test]
    fn a_quad_seen_through_a_hole_is_cut_to_the_hole() {
        let r = Sheet::default().resolve();
        let mut q = quads().into_iter().find(|q| q.look == Look::Wall).unwrap();
        q.corners = [[-2.0, -2.0], [2.0, -2.0], [2.0, 2.0], [-2.0, 2.0]];
        q.q = [1.0; 4];
        q.clip = Some([[-1.0, 0.0], [0.0, -1.0], [1.0, 0.0], [0.0, 1.0]]);
        let mut mesh = Mesh2D::default();
        fill(&mut mesh, &q, &r, None, [10.0, 10.0]);
        assert_eq!(mesh.vertices.len(), 4, "the diamond it is seen through");
        for v in &mesh.vertices {
            assert!(
                (v.pos[0].abs() + v.pos[1].abs() - 1.0).abs() < 1e-5,
                "{:?}",
                v.pos
            );
        }
        // Inside the hole the picture is the quad's own: the hole's corner at x = 1 samples
        // three quarters of the way across.
        let [u0, _, u1, _] = r.faces[0];
        let right = mesh.vertices.iter().find(|v| v.pos[0] > 0.9).unwrap();
        assert!((right.uv[0] - (u0 + (u1 - u0) * 0.75)).abs() < 1e-6);
    }

    #[test]
    fn the_pool_grows_shrinks_and_reuses_its_meshes() {
        let mut world = World::new();
        let mut pool = Pool::new(&Sheet::default());
        let all = quads();
        let owner = world.spawn((jengine::Name("crawl".into()),));
        let at = Placing {
            origin: [1.0, 2.0],
            z_base: 10.0,
            crop: [1e6, 1e6],
            set: None,
            owner,
        };
        write(&mut world, &mut pool, &all, at);
        assert_eq!(pool.meshes().len(), all.len());
        let first = pool.meshes()[0];
        write(&mut world, &mut pool, &all[..3], at);
        assert_eq!(pool.meshes().len(), 3);
        assert_eq!(pool.meshes()[0], first, "a mesh is reused, not respawned");
        assert_eq!(world.entities.len(), 4, "three meshes and their owner");
        let z: Vec<f32> = pool
            .meshes()
            .iter()
            .map(|&e| world.entities.get::<&Transform2D>(e).unwrap().z)
            .collect();
        assert_eq!(z, vec![10.0, 11.0, 12.0]);
        assert!(world.entities.get::<&BulkEntity>(first).is_ok());
        // Every mesh names the crawl it is drawn for, so a pick on the picture reaches it.
        for &mesh in pool.meshes() {
            assert_eq!(world.entities.get::<&SpawnedFor>(mesh).unwrap().0, owner);
        }
        clear_from(&mut world, &mut pool, 0);
        assert_eq!(world.entities.len(), 1, "only the owner is left");
    }
}
