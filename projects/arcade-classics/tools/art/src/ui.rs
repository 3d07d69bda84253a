//! The HUD's pieces: a carved stone panel and the view window's frame (both nine-sliced), a
//! button, a parchment sheet for the automap, a compass dial, and chunky icons. The icons are
//! drawn as 16x16 pixel art from character grids and blown up 4x with hard edges, which is
//! the look the HUD wants and keeps every icon exactly the same on every machine.

use crate::noise::{fbm, hash};
use crate::paint::{
    Image, Rgba, RoundedBox, coverage, light, mix_rgba, outline, polygon, radius, rgb, shade,
    smoothstep, with_alpha,
};
use crate::sheet::{BRASS, GOLD, MORTAR, STONE, VOID};

/// A carved stone panel with a brass inlay, 256x256, nine-slice `[24, 24, 24, 24]`: big
/// enough that the HUD's tall panel is drawn near 1:1 rather than from blown-up texels.
pub fn panel() -> Image {
    let mut img = Image::new(256, 256);
    let outer = RoundedBox::new([1.0, 1.0, 255.0, 255.0], 8.0);
    img.layer(|x, y| {
        let d = outer.distance(x, y);
        let n = outer.normal(x, y);
        // The middle (24..232) is one flat colour so slicing it never shows seams.
        let flat = (24.0..232.0).contains(&x) && (24.0..232.0).contains(&y);
        let grain = if flat {
            0.0
        } else {
            fbm(x, y, 8.0, 201) * 0.25
        };
        let mut c = shade(rgb(70, 48, 30), 1.0 + grain);
        c = light(
            c,
            smoothstep(-8.0, 0.0, d) * -(n[0] * 0.6 + n[1] * 0.8) * 0.35,
        );
        let inlay = RoundedBox::new([10.0, 10.0, 246.0, 246.0], 4.0).distance(x, y);
        c = mix_rgba(c, BRASS, outline(inlay, 3.0));
        c = mix_rgba(c, shade(MORTAR, 0.6), outline(d, 2.5));
        with_alpha(c, coverage(d))
    });
    img
}

/// The frame around the crawl view: a dressed-stone border 12 texels deep with a brass lip,
/// clear in the middle, 256x256, nine-slice `[16, 16, 16, 16]`. Laid over a view about 7
/// units tall the border comes out about a third of a unit.
pub fn frame() -> Image {
    let mut img = Image::new(256, 256);
    let outer = RoundedBox::new([0.0, 0.0, 256.0, 256.0], 4.0);
    let inner = RoundedBox::new([12.0, 12.0, 244.0, 244.0], 2.0);
    img.layer(|x, y| {
        let di = inner.distance(x, y);
        if di < -1.0 {
            return [VOID[0], VOID[1], VOID[2], 0.0];
        }
        let d = outer.distance(x, y);
        // Blocks along the border: seams every 32 texels across the band.
        let along = if (12.0..244.0).contains(&x) { x } else { y };
        let seam = ((along / 16.0 - (along / 16.0).floor()) - 0.5).abs() * 16.0 - 7.0;
        let tone = 0.95 + hash((along / 16.0) as i64, (x < y) as i64, 211) * 0.2;
        let mut c = shade(STONE, tone + fbm(x, y, 6.0, 213) * 0.3);
        let n = outer.normal(x, y);
        c = light(
            c,
            smoothstep(-4.0, 0.0, d) * -(n[0] * 0.6 + n[1] * 0.8) * 0.3,
        );
        c = mix_rgba(c, MORTAR, coverage(-seam) * smoothstep(2.0, 6.0, -d) * 0.9);
        // A brass lip around the window and a shadow it throws inward.
        c = mix_rgba(c, BRASS, outline(di - 2.0, 2.0));
        c = mix_rgba(c, shade(MORTAR, 0.5), outline(di, 2.0));
        c = mix_rgba(c, shade(MORTAR, 0.5), outline(d, 2.0));
        with_alpha(c, coverage(d) * coverage(-di))
    });
    img
}

/// A button face, 64x64, nine-slice `[16, 16, 16, 16]`: lit stone with a brass edge.
/// The game tints it lighter on hover and darker while pressed.
pub fn button() -> Image {
    let mut img = Image::new(64, 64);
    let outer = RoundedBox::new([1.0, 1.0, 63.0, 63.0], 8.0);
    img.layer(|x, y| {
        let d = outer.distance(x, y);
        let n = outer.normal(x, y);
        let mut c = shade(rgb(120, 84, 50), 1.0 + smoothstep(60.0, 4.0, y) * 0.2);
        c = light(
            c,
            smoothstep(-6.0, 0.0, d) * -(n[0] * 0.6 + n[1] * 0.8) * 0.4,
        );
        c = mix_rgba(c, BRASS, outline(d + 3.0, 2.0));
        c = mix_rgba(c, shade(MORTAR, 0.5), outline(d, 2.0));
        with_alpha(c, coverage(d))
    });
    img
}

/// Parchment for the automap, 256x256, nine-slice `[24, 24, 24, 24]`: warm paper, foxed at
/// the edges, a darker ruled border.
pub fn parchment() -> Image {
    let mut img = Image::new(256, 256);
    let outer = RoundedBox::new([2.0, 2.0, 254.0, 254.0], 10.0);
    img.layer(|x, y| {
        let d = outer.distance(x, y) + fbm(x, y, 10.0, 221) * 4.0;
        let edge = smoothstep(-24.0, 0.0, d);
        let mut c = shade(rgb(226, 200, 150), 1.0 - edge * 0.35);
        if !(24.0..232.0).contains(&x) || !(24.0..232.0).contains(&y) {
            c = shade(c, 1.0 + fbm(x, y, 14.0, 223) * 0.15);
        }
        let rule = RoundedBox::new([14.0, 14.0, 242.0, 242.0], 4.0).distance(x, y);
        c = mix_rgba(c, rgb(120, 80, 40), outline(rule, 1.5) * 0.8);
        with_alpha(c, coverage(d))
    });
    img
}

/// A compass dial, 128x128: a brass ring with the cardinal ticks, the north pointer red.
/// The game rotates nothing: it writes the facing's letter over the middle.
pub fn compass() -> Image {
    let mut img = Image::new(128, 128);
    let centre = [64.0, 64.0];
    img.layer(|x, y| {
        let r = radius(x, y, centre);
        let mut c = [VOID[0], VOID[1], VOID[2], 0.0];
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

/// White, 8x8: a tint gives any colour (bars, shades, the automap's cells).
pub fn white() -> Image {
    let mut img = Image::new(8, 8);
    img.layer(|_, _| [1.0, 1.0, 1.0, 1.0]);
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
    fn the_frame_is_clear_in_the_middle_and_solid_at_its_edge() {
        let f = frame();
        assert_eq!(f.get(128, 128)[3], 0.0);
        assert_eq!(f.get(10, 128)[3], 1.0);
    }

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
