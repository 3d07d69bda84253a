//! Umber Warren's own HUD pieces: a compass dial and chunky icons (the panel, frame, button,
//! parchment and white come from [`crawler_art::hud`] in Umber Warren's look). The icons are
//! drawn as 16x16 pixel art from character grids and blown up 4x with hard edges, which is
//! the look the HUD wants and keeps every icon exactly the same on every machine.

use crate::{BRASS, GOLD, MORTAR};
use jengine_paint::noise::fbm;
use jengine_paint::paint::{
    Image, Rgba, coverage, light, mix_rgba, outline, polygon, radius, rgb, shade,
};

/// A compass dial, 128x128: a brass ring with the cardinal ticks, the north pointer red.
/// The game rotates nothing: it writes the facing's letter over the middle.
pub fn compass() -> Image {
    let mut img = Image::new(128, 128);
    let centre = [64.0, 64.0];
    img.layer(|x, y| {
        let r = radius(x, y, centre);
        let mut c = crawler_art::sheet::clear(&crate::LOOK);
        c = mix_rgba(
            c,
            shade(rgb(40, 28, 18), 1.0 + fbm(x, y, 8.0, 231) * 0.3),
            coverage(r - 60.0),
        );
        let ring = r - 56.0;
        let lit = 1.0 - ((x - 64.0) * 0.6 + (y - 64.0) * 0.8) / 80.0;
        c = mix_rgba(
            c,
            light(shade(BRASS, 0.8), (lit - 1.0) * 0.4),
            outline(ring, 8.0),
        );
        c = mix_rgba(c, shade(MORTAR, 0.5), outline(r - 60.5, 1.5));
        let ticks = [
            [[64.0, 6.0], [56.0, 22.0], [72.0, 22.0]],
            [[122.0, 64.0], [106.0, 56.0], [106.0, 72.0]],
            [[64.0, 122.0], [56.0, 106.0], [72.0, 106.0]],
            [[6.0, 64.0], [22.0, 56.0], [22.0, 72.0]],
        ];
        for (k, t) in ticks.iter().enumerate() {
            let colour = if k == 0 { rgb(200, 40, 28) } else { GOLD };
            c = mix_rgba(c, colour, coverage(polygon(x, y, t)));
        }
        c
    });
    img
}

/// A 16x16 grid of characters as an image 4 texels to the character. `.` is clear, the
/// other characters are looked up in `palette`.
fn pixels(grid: &[&str; 16], palette: &[(char, Rgba)]) -> Image {
    let mut img = Image::new(64, 64);
    for (row, line) in grid.iter().enumerate() {
        for (col, ch) in line.chars().enumerate().take(16) {
            let colour = palette
                .iter()
                .find(|(k, _)| *k == ch)
                .map(|(_, c)| *c)
                .unwrap_or([0.0; 4]);
            for dy in 0..4 {
                for dx in 0..4 {
                    let i = (row * 4 + dy) * 64 + col * 4 + dx;
                    img.pixels[i] = colour;
                }
            }
        }
    }
    img
}

const K: (char, Rgba) = ('k', rgb(24, 12, 8));
const W: (char, Rgba) = ('w', rgb(255, 250, 230));

/// The HUD's icons as `(file name, image)`.
pub fn icons() -> Vec<(&'static str, Image)> {
    let heart = [
        "................",
        "..kkkk....kkkk..",
        ".krrrrk..krrrrk.",
        "krrwwrrkkrrrrrrk",
        "krwwrrrrrrrrrrrk",
        "krwrrrrrrrrrrrdk",
        "krrrrrrrrrrrrrdk",
        ".krrrrrrrrrrrdk.",
        "..krrrrrrrrrddk.",
        "...krrrrrrrrdk..",
        "....krrrrrrdk...",
        ".....krrrrdk....",
        "......krrdk.....",
        ".......kdk......",
        "........k.......",
        "................",
    ];
    let coins = [
        "................",
        ".....kkkkkk.....",
        "...kkyyyyyykk...",
        "..kyywwyyyyyyk..",
        ".kyywyyooooyyyk.",
        ".kywyyoyyyyoyyk.",
        "kyyyyoyyyyyyoyyk",
        "kyyyyoyyyyyyoyyk",
        "kyyyyoyyyyyyoyyk",
        "kyyyyoyyyyyyoyok",
        ".kyyyyoyyyyoyyk.",
        ".kyyyyyooooyyok.",
        "..kyyyyyyyyyook.",
        "...kkyyyyyookk..",
        ".....kkkkkk.....",
        "................",
    ];
    let key = [
        "................",
        "....kkkk........",
        "...kyyyyk.......",
        "..kywwkkyk......",
        "..kywk..kyk.....",
        "..kyyk..kyk.....",
        "...kyykkyyk.....",
        "....kyyyyok.....",
        ".....kyyokk.....",
        "......kyyok.....",
        ".......kyyok....",
        "......kyyokyk...",
        ".......kyyoyyk..",
        "........kyyok...",
        ".........kyk....",
        "..........k.....",
    ];
    let sword = [
        "..............kk",
        ".............kwk",
        "............kwgk",
        "...........kwgk.",
        "..........kwgk..",
        ".........kwgk...",
        "........kwgk....",
        "...kk..kwgk.....",
        "...kyk kwgk.....",
        "....kykwgk......",
        ".....kyyk.......",
        "....kbkyyk......",
        "...kbk..kyk.....",
        "..kbk....kk.....",
        ".kyk............",
        ".kk.............",
    ];
    let hand = [
        "................",
        "......kk........",
        ".....kssk.kk....",
        ".....kssk kssk..",
        ".kk..ksskkkssk..",
        "kssk.ksskssksk..",
        "kssk.ksskssksskk",
        ".kssksssssssskssk",
        ".kssssssssssssssk",
        "..ksssssssssssssk",
        "..kssssssssssssk.",
        "...ksssssssssssk.",
        "...kssssssssssk..",
        "....ksssssssssk..",
        ".....kddddddk....",
        ".....kkkkkkkk....",
    ];
    let moon = [
        "................",
        "......kkkk......",
        "....kkyyyk......",
        "...kyyyyk.......",
        "..kyyyyk.....w..",
        "..kyyyk.........",
        ".kyyyyk.........",
        ".kyyyyk....w....",
        ".kyyyyk.........",
        ".kyyyyyk........",
        "..kyyyyyk.....w.",
        "..kyyyyyykkk....",
        "...kyyyyyyyyk...",
        "....kkyyyyykk...",
        "......kkkkk.....",
        "................",
    ];
    let map = [
        "................",
        ".kkkkkkkkkkkkkk.",
        "kppppppppppppppk",
        "kpkkkkpppkkkkppk",
        "kpkppkpppkppkppk",
        "kpkppkkkkkppkppk",
        "kpkpppppppppkppk",
        "kpkkkkpppkkkkppk",
        "kppppkpppkppppxk",
        "kppppkkkkkpppxpk",
        "kppppppppppppppk",
        "kpprpppppppppppk",
        "kprrrppppppppppk",
        "kppppppppppppppk",
        ".kkkkkkkkkkkkkk.",
        "................",
    ];
    let arrow_up = [
        "................",
        ".......kk.......",
        "......kwwk......",
        ".....kwwwwk.....",
        "....kwwwwwwk....",
        "...kwwwwwwwwk...",
        "..kwwwwwwwwwwk..",
        ".kkkkkwwwwkkkkk.",
        ".....kwwwwk.....",
        ".....kwwwwk.....",
        ".....kwwwwk.....",
        ".....kwwwwk.....",
        ".....kwwwwk.....",
        ".....kwwwwk.....",
        ".....kkkkkk.....",
        "................",
    ];
    let turn_left = [
        "................",
        "................",
        "....kk..........",
        "...kwk..........",
        "..kwwkkkkkkk....",
        ".kwwwwwwwwwwkk..",
        "kwwwwwwwwwwwwwk.",
        ".kwwwwwwwwwwwwwk",
        "..kwwkkkkkkkwwwk",
        "...kwk.....kwwwk",
        "....kk.....kwwwk",
        "...........kwwwk",
        "...........kwwwk",
        "...........kkkkk",
        "................",
        "................",
    ];
    let palette = [
        K,
        W,
        ('r', rgb(210, 40, 36)),
        ('d', rgb(130, 20, 20)),
        ('y', rgb(246, 196, 70)),
        ('o', rgb(170, 110, 30)),
        ('g', rgb(170, 176, 186)),
        ('b', rgb(110, 64, 32)),
        ('s', rgb(230, 180, 140)),
        ('p', rgb(226, 200, 150)),
        ('x', rgb(180, 30, 30)),
    ];
    let mut out = vec![
        ("icon_health.png", pixels(&heart, &palette)),
        ("icon_gold.png", pixels(&coins, &palette)),
        ("icon_key.png", pixels(&key, &palette)),
        ("icon_attack.png", pixels(&sword, &palette)),
        ("icon_use.png", pixels(&hand, &palette)),
        ("icon_rest.png", pixels(&moon, &palette)),
        ("icon_map.png", pixels(&map, &palette)),
    ];
    let up = pixels(&arrow_up, &palette);
    let left_turn = pixels(&turn_left, &palette);
    out.push(("icon_forward.png", up.clone()));
    out.push(("icon_back.png", turned(&up, 2)));
    out.push(("icon_left.png", turned(&up, 3)));
    out.push(("icon_right.png", turned(&up, 1)));
    out.push(("icon_turn_left.png", left_turn.clone()));
    out.push(("icon_turn_right.png", mirrored(&left_turn)));
    out
}

/// The square image turned a quarter clockwise `quarters` times.
fn turned(img: &Image, quarters: u32) -> Image {
    let mut out = img.clone();
    for _ in 0..quarters {
        let src = out.clone();
        let n = src.width as usize;
        for y in 0..n {
            for x in 0..n {
                out.pixels[y * n + x] = src.pixels[(n - 1 - x) * n + y];
            }
        }
    }
    out
}

/// The image mirrored left to right.
fn mirrored(img: &Image) -> Image {
    let mut out = img.clone();
    let w = img.width as usize;
    for y in 0..img.height as usize {
        for x in 0..w {
            out.pixels[y * w + x] = img.pixels[y * w + (w - 1 - x)];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_an_arrow_four_times_gives_it_back() {
        let icons = icons();
        let up = &icons
            .iter()
            .find(|(n, _)| *n == "icon_forward.png")
            .unwrap()
            .1;
        assert_eq!(turned(up, 4).pixels, up.pixels);
        let back = &icons.iter().find(|(n, _)| *n == "icon_back.png").unwrap().1;
        // The tip is at the top going forward and at the bottom going back.
        assert_eq!(up.get(30, 6)[3], 1.0);
        assert_eq!(back.get(33, 57)[3], 1.0);
    }
}
