//! The window: the rendered frame in a real, resizable window, with pointer and keys
//! mapped into world coordinates and handed to scripts, and typed characters as text.
//!
//! Game time advances in fixed 1/60 s steps however fast the window redraws: each redraw runs
//! the steps real time has earned (at most a few, so a stall does not snowball), then draws.
//! Every event is recorded with the frame it reached the scripts on, a paste as the text it
//! pasted, so a session played in the window can be replayed headless from its seed and that
//! recording.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, ModifiersState, NamedKey};
use winit::window::{Window, WindowId};

use crate::input::{Event, InputScript, Phase, TimedEvent};
use crate::render::{Renderer, screen_to_world};
use crate::runtime::{Runtime, STEP, print_log};

/// What a window session is asked to do besides playing.
#[derive(Debug, Default, Clone)]
pub struct WindowOptions {
    /// Close after this many frames (for tests and demos).
    pub frames: Option<u64>,
    /// Scripted events played as if they came from the window.
    pub input: InputScript,
    /// Write every event that reached scripts here on exit (replayable with `--input`).
    pub record: Option<PathBuf>,
    /// Where F12 screenshots go.
    pub shots: PathBuf,
    /// Write every frame's bags here, as `jengine run --trace` does headless.
    pub trace: Option<PathBuf>,
}

/// Whether a display can be opened here.
pub fn display_available() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

struct Session {
    runtime: Runtime,
    renderer: Renderer,
    options: WindowOptions,
    window: Option<Rc<Window>>,
    surface: Option<softbuffer::Surface<Rc<Window>, Rc<Window>>>,
    pending: Vec<Event>,
    recorded: Vec<TimedEvent>,
    cursor: Option<(f32, f32)>,
    pressed: bool,
    modifiers: ModifiersState,
    clock: Instant,
    stepped: u64,
    scene_seen: u64,
    trace: Option<crate::trace::TraceWriter>,
    error: Option<String>,
}

/// Opens the window and plays until it is closed (or the frame limit is reached).
pub fn play(runtime: Runtime, options: WindowOptions) -> Result<u64, String> {
    let event_loop = EventLoop::new().map_err(|e| format!("cannot open a window: {e}"))?;
    let renderer = Renderer::new(&runtime.project.dir.join("assets"));
    let trace = match &options.trace {
        Some(path) => Some(
            crate::trace::TraceWriter::create(path)
                .map_err(|e| format!("{}: cannot write trace: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut session = Session {
        runtime,
        renderer,
        options,
        window: None,
        surface: None,
        pending: Vec::new(),
        recorded: Vec::new(),
        cursor: None,
        pressed: false,
        modifiers: ModifiersState::empty(),
        clock: Instant::now(),
        stepped: 0,
        scene_seen: u64::MAX,
        trace,
        error: None,
    };
    event_loop
        .run_app(&mut session)
        .map_err(|e| format!("the window closed with an error: {e}"))?;
    session.runtime.finish();
    print_log(&session.runtime.take_log());
    if let Some(trace) = session.trace.take() {
        trace
            .finish()
            .map_err(|e| format!("writing the trace failed: {e}"))?;
    }
    if let Some(path) = &session.options.record {
        let text = serde_json::to_string_pretty(&session.recorded).map_err(|e| e.to_string())?;
        jengine::host::write_atomically(path, text.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    match session.error {
        Some(e) => Err(e),
        None => Ok(session.runtime.frame()),
    }
}

/// Screen pixels a touchpad moves for one notch of a wheel.
const PIXELS_PER_NOTCH: f64 = 40.0;

/// A wheel turn in notches, above zero away from the player (up); `None` for no turn.
pub fn wheel_notches(delta: MouseScrollDelta) -> Option<f64> {
    let dy = match delta {
        MouseScrollDelta::LineDelta(_, y) => y as f64,
        MouseScrollDelta::PixelDelta(p) => p.y / PIXELS_PER_NOTCH,
    };
    (dy.is_finite() && dy != 0.0).then_some(dy)
}

/// The name scripts get for a key, or `None` for keys the host does not pass on.
pub fn key_name(key: &Key) -> Option<String> {
    match key {
        Key::Character(c) => Some(c.to_lowercase()),
        Key::Named(named) => Some(
            match named {
                NamedKey::ArrowLeft => "left",
                NamedKey::ArrowRight => "right",
                NamedKey::ArrowUp => "up",
                NamedKey::ArrowDown => "down",
                NamedKey::Space => "space",
                NamedKey::Enter => "enter",
                NamedKey::Tab => "tab",
                NamedKey::Backspace => "backspace",
                NamedKey::Delete => "delete",
                NamedKey::Insert => "insert",
                NamedKey::Shift => "shift",
                NamedKey::Control => "ctrl",
                NamedKey::Alt => "alt",
                NamedKey::Home => "home",
                NamedKey::End => "end",
                NamedKey::PageUp => "pageup",
                NamedKey::PageDown => "pagedown",
                NamedKey::Escape => "escape",
                NamedKey::F1 => "f1",
                NamedKey::F2 => "f2",
                NamedKey::F3 => "f3",
                NamedKey::F4 => "f4",
                _ => return None,
            }
            .to_string(),
        ),
        _ => None,
    }
}

/// The text a key press typed, if any: control characters (Enter, Backspace, Tab, Ctrl+C's
/// `\u{3}`) are left to key events, and nothing is typed while Ctrl is held (a shortcut, such
/// as the paste), except with Alt, which is AltGr on some keyboards.
pub fn typed(text: &str, modifiers: ModifiersState) -> Option<String> {
    if modifiers.control_key() && !modifiers.alt_key() {
        return None;
    }
    let text: String = text.chars().filter(|c| !c.is_control()).collect();
    (!text.is_empty()).then_some(text)
}

impl Session {
    fn size(&self) -> (u32, u32) {
        self.window
            .as_ref()
            .map(|w| {
                let s = w.inner_size();
                (s.width.max(1), s.height.max(1))
            })
            .unwrap_or((1, 1))
    }

    fn world_point(&self, x: f32, y: f32) -> (f64, f64) {
        let (w, h) = self.size();
        let p = screen_to_world(&self.runtime.world, w, h, x, y);
        (p[0] as f64, p[1] as f64)
    }

    fn push(&mut self, event: Event) {
        // Moves between two frames collapse into the latest one.
        if let (Event::Pointer { phase: new, .. }, Some(Event::Pointer { phase: old, .. })) =
            (&event, self.pending.last())
            && new == old
            && matches!(new, Phase::Hover | Phase::Drag)
        {
            self.pending.pop();
        }
        self.pending.push(event);
    }

    fn step_due(&mut self, event_loop: &ActiveEventLoop) {
        let due = (self.clock.elapsed().as_secs_f64() / STEP) as u64;
        let mut budget = 4;
        while self.stepped < due && budget > 0 {
            let frame = self.runtime.frame() + 1;
            let mut events = std::mem::take(&mut self.pending);
            events.extend(self.options.input.due(frame));
            self.runtime.step(&events);
            // What reached the scripts, a paste as its text: a replay must not paste again.
            self.recorded.extend(
                self.runtime
                    .delivered()
                    .iter()
                    .cloned()
                    .map(|event| TimedEvent { frame, event }),
            );
            print_log(&self.runtime.take_log());
            if let Some(trace) = self.trace.as_mut()
                && let Err(e) = trace.record(&self.runtime)
            {
                self.error = Some(format!("writing the trace failed: {e}"));
            }
            self.stepped += 1;
            budget -= 1;
            if self.runtime.quit_requested()
                || self
                    .options
                    .frames
                    .is_some_and(|n| self.runtime.frame() >= n)
            {
                event_loop.exit();
                return;
            }
        }
        // Fell behind by more than the budget: drop the backlog rather than race to catch up.
        self.stepped = self.stepped.max(due);
    }

    fn draw(&mut self) {
        let (w, h) = self.size();
        if self.scene_seen != self.runtime.scene_generation() {
            self.renderer.preload(&self.runtime.world);
            self.scene_seen = self.runtime.scene_generation();
        }
        let frame = self.renderer.render(&self.runtime.world, w, h);
        for warning in self.renderer.take_warnings() {
            eprintln!("warning: {warning}");
        }
        let Some(surface) = self.surface.as_mut() else {
            return;
        };
        let (Some(nw), Some(nh)) = (NonZeroU32::new(w), NonZeroU32::new(h)) else {
            return;
        };
        if let Err(e) = surface.resize(nw, nh) {
            self.error = Some(format!("cannot size the window's buffer: {e}"));
            return;
        }
        match surface.buffer_mut() {
            Ok(mut buffer) => {
                let pixels = frame.to_0rgb();
                let n = buffer.len().min(pixels.len());
                buffer[..n].copy_from_slice(&pixels[..n]);
                if let Err(e) = buffer.present() {
                    self.error = Some(format!("cannot show the frame: {e}"));
                }
            }
            Err(e) => self.error = Some(format!("cannot reach the window's buffer: {e}")),
        }
    }

    fn screenshot(&mut self) {
        let (w, h) = self.size();
        let frame = self.renderer.render(&self.runtime.world, w, h);
        let name = format!(
            "{}-{:06}.png",
            self.runtime.project.file.name.replace(' ', "-"),
            self.runtime.frame()
        );
        let path = self.options.shots.join(name);
        let _ = std::fs::create_dir_all(&self.options.shots);
        match frame.save_png(&path) {
            Ok(()) => eprintln!("screenshot: {}", path.display()),
            Err(e) => eprintln!("warning: cannot write {}: {e}", path.display()),
        }
    }
}

impl ApplicationHandler for Session {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        let spec = &self.runtime.project.file.window;
        let title = if spec.title.is_empty() {
            self.runtime.project.file.name.clone()
        } else {
            spec.title.clone()
        };
        let attributes = Window::default_attributes()
            .with_title(title)
            .with_inner_size(winit::dpi::LogicalSize::new(spec.width, spec.height))
            .with_resizable(true);
        let window = match event_loop.create_window(attributes) {
            Ok(w) => Rc::new(w),
            Err(e) => {
                self.error = Some(format!("cannot open a window: {e}"));
                event_loop.exit();
                return;
            }
        };
        let surface = softbuffer::Context::new(window.clone())
            .and_then(|context| softbuffer::Surface::new(&context, window.clone()));
        match surface {
            Ok(s) => self.surface = Some(s),
            Err(e) => {
                self.error = Some(format!("cannot draw into the window: {e}"));
                event_loop.exit();
                return;
            }
        }
        self.window = Some(window);
        self.clock = Instant::now();
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(_) => {
                if let Some(w) = &self.window {
                    w.request_redraw();
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                let (x, y) = (position.x as f32, position.y as f32);
                self.cursor = Some((x, y));
                let (wx, wy) = self.world_point(x, y);
                let phase = if self.pressed {
                    Phase::Drag
                } else {
                    Phase::Hover
                };
                self.push(Event::Pointer {
                    phase,
                    x: wx,
                    y: wy,
                });
            }
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => {
                let Some((x, y)) = self.cursor else { return };
                let (wx, wy) = self.world_point(x, y);
                self.pressed = state == ElementState::Pressed;
                let phase = if self.pressed {
                    Phase::Press
                } else {
                    Phase::Release
                };
                self.push(Event::Pointer {
                    phase,
                    x: wx,
                    y: wy,
                });
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let Some((x, y)) = self.cursor else { return };
                let (wx, wy) = self.world_point(x, y);
                if let Some(dy) = wheel_notches(delta) {
                    self.push(Event::Wheel { x: wx, y: wy, dy });
                }
            }
            WindowEvent::ModifiersChanged(modifiers) => self.modifiers = modifiers.state(),
            WindowEvent::KeyboardInput {
                event,
                is_synthetic,
                ..
            } => {
                let down = event.state == ElementState::Pressed;
                match &event.logical_key {
                    Key::Named(NamedKey::F12) if down => self.screenshot(),
                    key if !event.repeat => {
                        if let Some(name) = key_name(key) {
                            self.push(Event::Key { key: name, down });
                        }
                    }
                    _ => {}
                }
                // Held keys repeat as text, as they do in any text field. A press winit makes
                // up for a key already held when the window gains focus typed nothing.
                if down
                    && !is_synthetic
                    && let Some(text) = event.text.as_deref()
                    && let Some(text) = typed(text, self.modifiers)
                {
                    self.push(Event::Text { text });
                }
            }
            WindowEvent::RedrawRequested => {
                self.step_due(event_loop);
                self.draw();
                if self.error.is_some() {
                    event_loop.exit();
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(w) = &self.window {
            w.request_redraw();
        }
        let next = self.clock + Duration::from_secs_f64((self.stepped + 1) as f64 * STEP);
        event_loop.set_control_flow(ControlFlow::WaitUntil(next));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_text_leaves_control_characters_and_shortcuts_to_keys() {
        let none = ModifiersState::empty();
        assert_eq!(typed("a", none).as_deref(), Some("a"));
        assert_eq!(typed("猫", ModifiersState::SHIFT).as_deref(), Some("猫"));
        for control in ["\r", "\u{8}", "\t", "\u{1b}", "\u{7f}", "\0"] {
            assert_eq!(typed(control, none), None, "{control:?}");
        }
        assert_eq!(typed("a\0b", none).as_deref(), Some("ab"));
        assert_eq!(typed("v", ModifiersState::CONTROL), None);
        let alt_gr = ModifiersState::CONTROL | ModifiersState::ALT;
        assert_eq!(typed("@", alt_gr).as_deref(), Some("@"));
        assert_eq!(
            key_name(&Key::Named(NamedKey::Insert)).as_deref(),
            Some("insert")
        );
    }

    #[test]
    fn a_wheel_turns_in_notches_up_above_zero() {
        use winit::dpi::PhysicalPosition;
        assert_eq!(
            wheel_notches(MouseScrollDelta::LineDelta(0.0, 1.0)),
            Some(1.0)
        );
        assert_eq!(
            wheel_notches(MouseScrollDelta::LineDelta(3.0, -2.0)),
            Some(-2.0)
        );
        let touchpad = MouseScrollDelta::PixelDelta(PhysicalPosition::new(0.0, -20.0));
        assert_eq!(wheel_notches(touchpad), Some(-0.5));
        assert_eq!(wheel_notches(MouseScrollDelta::LineDelta(1.0, 0.0)), None);
        let broken = MouseScrollDelta::PixelDelta(PhysicalPosition::new(0.0, f64::NAN));
        assert_eq!(wheel_notches(broken), None);
    }
}
