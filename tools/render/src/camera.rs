//! The camera: which world rectangle the screen shows, and the affine maps between the two.
//!
//! One number carries it: pixels per world unit, the largest scale at which the camera's whole
//! `size` fits the frame. Whatever the frame's aspect, the scale is kept and the spare pixels
//! show more world along the longer side. World y points up, screen y down.

use jengine::{Camera2D, Transform2D, World};

/// The chosen camera and where the frame sits in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct View {
    pub camera: Camera2D,
    /// Pixels per world unit.
    pub ppu: f32,
    half_width: f32,
    half_height: f32,
}

impl View {
    /// The view of `camera` on a `width` x `height` frame. The camera must be valid.
    pub fn new(camera: Camera2D, width: u32, height: u32) -> View {
        let ppu = (width as f32 / camera.size[0]).min(height as f32 / camera.size[1]);
        View {
            camera,
            ppu,
            half_width: width as f32 / 2.0,
            half_height: height as f32 / 2.0,
        }
    }

    /// The screen point of a world point.
    pub fn to_screen(self, p: [f32; 2]) -> [f32; 2] {
        let c = self.camera.center;
        [
            (p[0] - c[0]) * self.ppu + self.half_width,
            self.half_height - (p[1] - c[1]) * self.ppu,
        ]
    }

    /// The world point of a screen point.
    pub fn to_world(self, s: [f32; 2]) -> [f32; 2] {
        let c = self.camera.center;
        [
            (s[0] - self.half_width) / self.ppu + c[0],
            (self.half_height - s[1]) / self.ppu + c[1],
        ]
    }

    /// Local space of an entity (its transform applied, then this view) to screen pixels.
    pub fn local_to_screen(&self, t: &Transform2D) -> Affine {
        let (sin, cos) = t.rot.sin_cos();
        let [sx, sy] = t.scale;
        let origin = self.to_screen(t.pos);
        Affine {
            xx: cos * sx * self.ppu,
            xy: -sin * sy * self.ppu,
            yx: -sin * sx * self.ppu,
            yy: -cos * sy * self.ppu,
            tx: origin[0],
            ty: origin[1],
        }
    }
}

/// `screen = [xx*x + xy*y + tx, yx*x + yy*y + ty]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Affine {
    pub xx: f32,
    pub xy: f32,
    pub yx: f32,
    pub yy: f32,
    pub tx: f32,
    pub ty: f32,
}

impl Affine {
    pub fn apply(&self, p: [f32; 2]) -> [f32; 2] {
        [
            self.xx * p[0] + self.xy * p[1] + self.tx,
            self.yx * p[0] + self.yy * p[1] + self.ty,
        ]
    }
}

/// The camera the frame uses: the first-spawned entity with a [`Camera2D`], or the default.
/// A camera with a non-finite or non-positive size is replaced by the default, with a warning.
pub(crate) fn pick_camera(world: &World) -> (Camera2D, Option<String>) {
    let mut best: Option<(u64, u32, Camera2D)> = None;
    for (e, camera) in world
        .entities
        .query::<(jengine::Entity, &Camera2D)>()
        .iter()
    {
        let key = (world.spawn_order(e), e.id());
        if best.is_none_or(|b| key < (b.0, b.1)) {
            best = Some((key.0, key.1, *camera));
        }
    }
    let Some((_, _, camera)) = best else {
        return (Camera2D::default(), None);
    };
    let finite = camera
        .center
        .iter()
        .chain(&camera.size)
        .all(|v| v.is_finite());
    if !finite || camera.size[0] <= 0.0 || camera.size[1] <= 0.0 {
        let warning = format!(
            "camera center {:?} size {:?} is not usable (size must be positive and finite); \
             drawing with the default camera",
            camera.center, camera.size
        );
        return (
            Camera2D {
                clear: camera.clear,
                ..Camera2D::default()
            },
            Some(warning),
        );
    }
    (camera, None)
}

/// World point under screen point (`px`, `py`) for this world's camera on a `width` x `height`
/// frame. (0, 0) is the top-left corner of the top-left pixel; a pixel's centre is at +0.5.
pub fn screen_to_world(world: &World, width: u32, height: u32, px: f32, py: f32) -> [f32; 2] {
    let (camera, _) = pick_camera(world);
    View::new(camera, width.max(1), height.max(1)).to_world([px, py])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camera(center: [f32; 2], size: [f32; 2]) -> Camera2D {
        Camera2D {
            center,
            size,
            ..Camera2D::default()
        }
    }

    #[test]
    fn the_camera_size_always_fits_and_wider_screens_see_more() {
        let view = View::new(camera([0.0, 0.0], [16.0, 9.0]), 1280, 720);
        assert_eq!(view.ppu, 80.0);
        // A square screen keeps the whole width and shows more height.
        let square = View::new(camera([0.0, 0.0], [16.0, 9.0]), 800, 800);
        assert_eq!(square.ppu, 50.0);
        assert_eq!(square.to_world([400.0, 0.0]), [0.0, 8.0]);
    }

    #[test]
    fn world_y_points_up_and_round_trips() {
        let view = View::new(camera([2.0, 1.0], [16.0, 9.0]), 1280, 720);
        assert_eq!(view.to_screen([2.0, 1.0]), [640.0, 360.0]);
        assert_eq!(view.to_screen([3.0, 2.0]), [720.0, 280.0]);
        assert_eq!(view.to_world([720.0, 280.0]), [3.0, 2.0]);
    }

    #[test]
    fn the_first_spawned_camera_wins_and_a_bad_one_warns() {
        let mut world = World::new();
        assert_eq!(pick_camera(&world).0, Camera2D::default());
        world.spawn((camera([5.0, 0.0], [4.0, 4.0]),));
        world.spawn((camera([9.0, 0.0], [4.0, 4.0]),));
        assert_eq!(pick_camera(&world).0.center, [5.0, 0.0]);
        assert_eq!(screen_to_world(&world, 100, 100, 50.0, 50.0), [5.0, 0.0]);

        let mut bad = World::new();
        bad.spawn((camera([0.0, 0.0], [0.0, f32::NAN]),));
        let (cam, warning) = pick_camera(&bad);
        assert_eq!(cam.size, Camera2D::default().size);
        assert!(warning.unwrap().contains("not usable"));
    }

    #[test]
    fn local_space_follows_rotation_and_scale() {
        let view = View::new(camera([0.0, 0.0], [16.0, 9.0]), 1280, 720);
        let t = Transform2D {
            pos: [1.0, 0.0],
            rot: std::f32::consts::FRAC_PI_2,
            scale: [2.0, 1.0],
            z: 0.0,
        };
        // Local +x, scaled by 2 and turned a quarter counter-clockwise, points world +y.
        let p = view.local_to_screen(&t).apply([1.0, 0.0]);
        assert!(
            (p[0] - 720.0).abs() < 1e-3 && (p[1] - 200.0).abs() < 1e-3,
            "{p:?}"
        );
    }
}
