//! Every rival the game ships has its portrait, painted for that rival: the art's list and
//! the rivals table agree on ids and names, one to one.

use kotodama_art::portraits::PORTRAITS;

#[test]
fn every_rival_in_the_table_has_its_own_portrait_and_every_portrait_a_rival() {
    let path = kotodama_art::committed_dir().join("../../data/kotoba_rivals.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let rows: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let table: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let painted: Vec<(String, String)> = PORTRAITS
        .iter()
        .map(|p| (p.id.to_string(), p.name.to_string()))
        .collect();
    assert_eq!(
        painted,
        table,
        "portraits::PORTRAITS against {}",
        path.display()
    );
    for p in &PORTRAITS {
        assert_eq!(p.file, format!("portrait_{}.png", p.id));
    }
}

#[test]
fn portraits_are_round_medallions_clear_outside_their_rim() {
    for p in &PORTRAITS {
        let img = (p.paint)();
        assert_eq!((img.width, img.height), (128, 128), "{}", p.id);
        let alpha = |x: u32, y: u32| img.pixels[(y * 128 + x) as usize][3];
        for (x, y) in [(0, 0), (127, 0), (0, 127), (127, 127), (64, 1), (2, 64)] {
            assert_eq!(alpha(x, y), 0.0, "{} corner ({x}, {y})", p.id);
        }
        assert_eq!(alpha(64, 64), 1.0, "{} centre", p.id);
        assert_eq!(alpha(64, 8), 1.0, "{} just inside the rim", p.id);
    }
}

#[test]
fn no_two_portraits_are_alike() {
    let images: Vec<Vec<u8>> = PORTRAITS.iter().map(|p| (p.paint)().to_rgba8()).collect();
    for i in 0..images.len() {
        for j in i + 1..images.len() {
            let differ = images[i]
                .chunks_exact(4)
                .zip(images[j].chunks_exact(4))
                .filter(|(a, b)| a != b)
                .count();
            assert!(
                differ > 128 * 128 / 3,
                "{} and {} differ in only {differ} pixels",
                PORTRAITS[i].id,
                PORTRAITS[j].id
            );
        }
    }
}
