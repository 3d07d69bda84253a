//! The first frame of a project: load it, run one step, render 1280x720.
//! (`jengine shot` on a built viewport adds only process start-up to this.)

use criterion::{Criterion, criterion_main};
use jengine_tool::render::Renderer;
use jengine_tool::{Options, Runtime};

fn first_frame(c: &mut Criterion) {
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/counter-project");
    c.bench_function("first_frame/load_step_render_1280x720", |b| {
        b.iter(|| {
            let mut rt = Runtime::new(
                &fixture,
                &[&jengine_counter::CounterPackage],
                Options::default(),
            )
            .unwrap();
            rt.step(&[]);
            let mut renderer = Renderer::new(&rt.project.dir.join("assets"));
            renderer.preload(&rt.world);
            let frame = renderer.render(&rt.world, 1280, 720);
            assert_eq!(frame.rgba.len(), 1280 * 720 * 4);
        })
    });
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    first_frame(&mut c);
}

criterion_main!(benches);
