//! A game's look: the colours of its materials, how its walls are laid and how heavy its lines
//! are. Every painter in this crate takes one, so the same shapes come out as Umber Warren's
//! torch-lit umber or Seven Stairs' cold granite; each game keeps its own `Look` beside its art.

use jengine_paint::paint::Rgba;

/// Everything a painter needs to know about a game's look.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    /// The materials' colours.
    pub palette: Palette,
    /// How the walls and vaults are laid.
    pub masonry: Masonry,
    /// Every outline's width is multiplied by this: 1 for bold lines, less for thin ones.
    pub line: f64,
    /// The HUD pieces' colours and sizes.
    pub hud: Hud,
}

/// The colours of the materials, at full light (the renderer darkens with distance).
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    /// The joints between stones, and the darkest shadows on stonework.
    pub mortar: Rgba,
    /// Wall blocks, door frames and stair treads.
    pub stone: Rgba,
    /// Floor slabs and the rims of things set in the floor.
    pub flag: Rgba,
    /// The ceiling's vault.
    pub vault: Rgba,
    /// Planks of doors and chests.
    pub wood: Rgba,
    /// Seams between planks, grips.
    pub wood_dark: Rgba,
    /// Bands, plates, spikes and blades.
    pub iron: Rgba,
    /// Ring pulls, lock plates, sword guards, shield rims.
    pub fitting: Rgba,
    /// Coins and the stairs' arrows.
    pub gold: Rgba,
    /// Holes, keyholes and the clear texels' colour.
    pub void: Rgba,
    /// The inside of a pit's shaft.
    pub shaft: Rgba,
    /// A lever's knob, and its rim.
    pub knob: [Rgba; 2],
    /// Blood on a trap's spikes.
    pub blood: Rgba,
    /// The encounter's shield.
    pub shield: Rgba,
    /// The glow behind the encounter.
    pub glow: Rgba,
    /// The outline around every creature's part.
    pub ink: Rgba,
}

/// How stone is laid: block sizes, joints and the texture of the stone itself.
#[derive(Clone, Copy, Debug)]
pub struct Masonry {
    /// A wall block's width and height in texels (both dividing 256, so faces tile).
    pub block: [f64; 2],
    /// A ceiling course's block, the same way.
    pub vault_block: [f64; 2],
    /// How far each block stands in from its cell: half the mortar joint.
    pub joint: f64,
    /// How far each block's corners wander from true, in texels (so courses are not ruled).
    pub jitter: f64,
    /// How ragged the blocks' edges are, in texels.
    pub rough: f64,
    /// The blocks' corner radius.
    pub corner: f64,
    /// How strongly a block's rim catches the light (upper left) or falls into shade.
    pub bevel: f64,
    /// Granite's crystals: how strongly dark and light specks show (0 for none).
    pub speckle: f64,
}

/// The HUD pieces' colours and sizes.
#[derive(Clone, Copy, Debug)]
pub struct Hud {
    /// The panel texture's side in texels (its nine-slice border is always 24).
    pub panel_size: u32,
    /// The panel's face.
    pub panel: Rgba,
    /// The line inlaid around the panel, 10 texels in.
    pub inlay: Rgba,
    /// The inlaid line's width in texels.
    pub inlay_width: f64,
    /// How deep the view frame's border is, in texels (its window starts there).
    pub frame_depth: f64,
    /// The lip around the view frame's window.
    pub lip: Rgba,
    /// The button's face.
    pub button: Rgba,
    /// The automap's paper, and the rule around it.
    pub paper: [Rgba; 2],
    /// The plain white texture's side in texels.
    pub white_size: u32,
}

/// A plain look for this crate's own tests: greys, bold lines, a small panel.
#[cfg(test)]
pub(crate) mod plain {
    use super::*;
    use jengine_paint::paint::rgb;

    const GREY: Rgba = rgb(128, 128, 128);

    pub(crate) const LOOK: Look = Look {
        palette: Palette {
            mortar: rgb(20, 20, 20),
            stone: GREY,
            flag: GREY,
            vault: GREY,
            wood: rgb(120, 80, 40),
            wood_dark: rgb(60, 40, 20),
            iron: rgb(70, 70, 70),
            fitting: rgb(200, 200, 200),
            gold: rgb(250, 210, 80),
            void: rgb(0, 0, 0),
            shaft: rgb(50, 50, 50),
            knob: [rgb(160, 40, 24), rgb(90, 20, 12)],
            blood: rgb(120, 16, 10),
            shield: rgb(150, 30, 22),
            glow: rgb(255, 140, 40),
            ink: rgb(10, 10, 10),
        },
        masonry: Masonry {
            block: [128.0, 64.0],
            vault_block: [64.0, 32.0],
            joint: 2.0,
            jitter: 2.0,
            rough: 2.0,
            corner: 4.0,
            bevel: 0.25,
            speckle: 0.0,
        },
        line: 1.0,
        hud: Hud {
            panel_size: 128,
            panel: rgb(40, 40, 40),
            inlay: rgb(200, 200, 200),
            inlay_width: 2.0,
            frame_depth: 10.0,
            lip: rgb(200, 200, 200),
            button: rgb(90, 90, 90),
            paper: [rgb(220, 220, 210), rgb(80, 80, 80)],
            white_size: 2,
        },
    };
}
