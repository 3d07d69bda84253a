//! TEMPORARY compile stand-in; replaced by the sea.
use serde::{Deserialize, Serialize};
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Waves {
    pub swell: f32,
}
impl Waves {
    pub fn set_swell(&mut self, a: f32) {
        self.swell = a.clamp(0.0, 4.0);
    }
}
#[derive(Debug, Default)]
pub struct Sea;
#[derive(Debug, Clone)]
pub struct WaveContext {
    pub origin: [f32; 2],
    pub cell: f32,
    pub hands: [[f32; 2]; 2],
    pub you: Option<usize>,
}
#[derive(Debug, Clone)]
pub enum Wave {
    Ring,
}
pub fn waves_for(_e: &[crate::play::Event], _c: &WaveContext) -> Vec<Wave> {
    Vec::new()
}
pub fn apply(_s: &mut Sea, _w: Wave) {}
pub fn ripple(_s: &mut Sea, _a: [f32; 2], _st: f32, _c: Option<jengine::Color>) {}
pub fn surge(_s: &mut Sea, _st: f32, _c: Option<jengine::Color>) {}
pub fn system(_w: &mut jengine::World, _dt: f64) {}
