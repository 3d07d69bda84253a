//! Saltmarch's first tactical fight as the player sees it: the committed input file played up
//! to the fight, then the whole 1280x720 frame rendered by the software renderer (the
//! battlefield, every unit with its bar, the initiative panel and the key line), and the
//! frame's systems and scripts stepped. `cargo bench -p saltmarch-tests --bench fight_frame`.

use criterion::{Criterion, criterion_main};
use jengine_testkit::{InputScript, Options};

fn fight_frame(c: &mut Criterion) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs/saltmarch_playthrough.json");
    let text = std::fs::read_to_string(&path).expect("the committed input file");
    let mut input = InputScript::parse(&text).expect("it parses");
    let mut game = saltmarch_tests::open(Options::default());
    // Up to the first frame a fight is drawn in.
    let fighting = |game: &jengine_testkit::Game| game.bag("fight", "GoldBox")["fighting"] == true;
    let last = input.last_frame().unwrap_or(0);
    while !fighting(&game) {
        assert!(game.rt.frame() < last, "the input file reaches a fight");
        let events = input.due(game.rt.frame());
        game.step(&events);
    }
    game.settle(30);
    assert!(fighting(&game), "the fight is still on after it settles");
    // One renderer for the run, its textures loaded once, as a window keeps it.
    let mut renderer = jengine_testkit::Renderer::new(&saltmarch_tests::project().join("assets"));
    renderer.preload(&game.rt.world);
    c.bench_function("saltmarch/fight_frame_render_1280x720", |b| {
        b.iter(|| renderer.render(&game.rt.world, 1280, 720))
    });
    c.bench_function("saltmarch/fight_frame_step", |b| b.iter(|| game.step(&[])));
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    fight_frame(&mut c);
}

criterion_main!(benches);
