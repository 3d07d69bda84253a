//! Word tiles: kana go on a board one at a time, and a tile only stays where it reads in a
//! word, left to right or top to bottom.
//!
//! This crate is the `jengine-kotoba` package: [`KotobaPackage`] registers a table and a sea
//! into a jengine project, and under it sit the rules, the dictionary, the two modes and the bot,
//! on plain data and with no engine in sight (only this file and [`draw`] touch the seam: the
//! `register` below names a handler function a line). Both sit behind the default `engine`
//! feature; without it the crate is the rules alone, which is what the room server links. Its
//! priorities, in order:
//! the rule is exact (a word is found wherever it lies in a run, and counted once); everything
//! replays (all randomness comes from seeded streams kept in the state, and time only moves when
//! told); bad input is refused with where it went wrong, never a panic; and the bot is fast
//! enough to run every frame.
//!
//! - [`kana`]: the tiles, their forms, and their bag weights and values ([`TileStats`]).
//! - [`dict`]: the compiled-in Japanese dictionary ([`Dict::japanese`]).
//! - [`board`]: the grid and the rule, [`Board::words_at`].
//! - [`play`]: hands, stocks, placing with auto-form, and the [`Event`]s both modes report.
//! - [`puzzle`]: one player against the clock on a [`Stage`]; [`autoplay`] lets the bot play it.
//! - [`battle`]: two [`Fighter`]s on one board in real time; [`Battle::apply`] takes a [`Move`].
//! - [`bot`]: every legal move for a hand, and one picked by [`Skill`].
//! - [`net`]: a battle over the network: the messages a room and its players share, and a
//!   player's [`net::Mirror`] of the room's battle, predicted and corrected.
//! - [`content`]: stage and [`Rival`] tables, checked row by row, and the shipped ones.
//! - [`session`]: a game at one table: the choice, the cursor, pause and demo, and a battle
//!   through a room; [`bag`]: what scripts read of it.
//! - [`sea`]: the sea behind the board, a simulation on plain numbers.
//! - [`draw`]: the board and hands on screen, and pointer hits; [`draw::sea`]: the sea's sprites.
//!
//! ```
//! use jengine_kotoba::{Board, Dict, Kana, Pos, TileStats, play};
//!
//! let dict = Dict::japanese();
//! let stats = TileStats::from_dict(dict);
//! let mut board = Board::from_rows(&["さか.つ"]).unwrap();
//! let na = Kana::from_char('な').unwrap();
//! let placed = play::place(&mut board, dict, &stats, Pos::new(2, 0), na).unwrap();
//! // The な reads さかな across; なつ reads too, though さかなつ is no word.
//! let words: Vec<String> = placed.words.iter().map(|w| dict.entry(w.entry).unwrap().reading_text()).collect();
//! assert_eq!(words, ["さかな", "なつ"]);
//! assert!(placed.points > 0);
//! ```

#![warn(missing_docs)]

pub mod bag;
pub mod balance;
pub mod battle;
pub mod board;
pub mod bot;
pub mod content;
pub mod dict;
#[cfg(feature = "engine")]
pub mod draw;
pub mod kana;
pub mod net;
pub mod play;
pub mod puzzle;
pub mod sea;
pub mod session;

pub use bag::KotobaBag;
pub use battle::{Battle, COMBO_WINDOW, Fighter, FighterSpec, Move, Phase, Setup};
pub use board::{Board, Cell, Dir, Pos, Word};
pub use bot::{Bot, LegalMove, Skill, legal_moves};
pub use content::{Rival, TableError};
pub use dict::{Dict, Entry};
pub use kana::{Kana, TileStats};
pub use play::{Event, Hand, Placed, Refusal, Stock};
pub use puzzle::{Puzzle, Stage, autoplay};
pub use session::{Session, SessionError};

#[cfg(feature = "engine")]
pub use draw::sea::Waves;
#[cfg(feature = "engine")]
pub use package::{Content, DEFAULT_TEXTURES, KotobaPackage, OnlineTable, Table, packages};

/// The package on the engine (the `engine` feature, on by default): the two components,
/// `register`, and the handler functions it names, in its order.
#[cfg(feature = "engine")]
mod package {
    use super::*;
    use crate::sea::Rgba;

    use jengine::value::{Arg, Params, Together, boolean, entity, integer, number, string};
    use jengine::{
        AssetField, Color, Entity, Package, RawTable, Registry, RowError, Tables, Time, World,
    };
    use serde::{Deserialize, Serialize};

    /// The `kotoba_table` scene component: where a table's board and hands are drawn, and with
    /// what. Sizes and points are in world units; texture borders in texture pixels.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct Table {
        /// The board's centre.
        pub board_centre: [f32; 2],
        /// The box the board must fit in.
        pub board_max: [f32; 2],
        /// The largest a cell may be.
        pub cell: f32,
        /// The centre of the player's hand.
        pub hand_centre: [f32; 2],
        /// The size of a tile in the player's hand.
        pub hand_tile: f32,
        /// The centre of a battle rival's hand.
        pub rival_hand_centre: [f32; 2],
        /// The size of a tile in the rival's hand.
        pub rival_tile: f32,
        /// Whether a battle shows the rival's hand.
        pub show_rival_hand: bool,
        /// A TTF/OTF under `assets/fonts/` with the kana; the host's bundled font when empty.
        pub font: String,
        /// Where a kana's centre sits on its tile, as a share of the tile's size from its centre.
        pub glyph_centre: [f32; 2],
        /// The kana's height as a share of its tile.
        pub kana_size: f32,
        /// The tile texture.
        pub tile: String,
        /// Its nine-slice borders.
        pub tile_border: [f32; 4],
        /// The texture of an empty cell.
        pub cell_tex: String,
        /// Its nine-slice borders.
        pub cell_border: [f32; 4],
        /// The board's frame.
        pub frame: String,
        /// Its nine-slice borders.
        pub frame_border: [f32; 4],
        /// The texture behind each hand.
        pub panel: String,
        /// Its nine-slice borders.
        pub panel_border: [f32; 4],
        /// A plain white texture, tinted for lights.
        pub white: String,
        /// A wall cell.
        pub wall_tex: String,
        /// A soft round light, for the chosen tile's glow and the hint (white when empty).
        pub glow: String,
        /// The colour of kana on tiles.
        pub ink: Color,
        /// The chosen tile's glow, and the hint's light on its cell.
        pub chosen: Color,
        /// The keyboard cursor's square.
        pub light: Color,
        /// The players' colours, yours first: a battle's tile edges and the points a word
        /// makes.
        pub players: [Color; 2],
        /// The damage numbers' colours by combo step, a first word first; steps past the
        /// last take the last.
        pub combo_colors: Vec<Color>,
        /// Where a battle's damage number flies to for each player, yours first (their life
        /// bars, say); the two hands when unset.
        pub hurt_at: Option<[[f32; 2]; 2]>,
        /// A refusal's reason.
        pub refused: Color,
        /// Draw depth of the board; hands and lights sit just above it.
        pub z: f32,
    }

    impl Default for Table {
        fn default() -> Self {
            Table {
                board_centre: [0.0, 0.6],
                board_max: [9.0, 6.4],
                cell: 0.8,
                hand_centre: [0.0, -3.5],
                hand_tile: 0.85,
                rival_hand_centre: [0.0, 4.1],
                rival_tile: 0.5,
                show_rival_hand: true,
                font: String::new(),
                glyph_centre: [0.0, 0.03],
                kana_size: 0.62,
                tile: "kotoba/tile.png".into(),
                tile_border: [16.0, 16.0, 16.0, 16.0],
                cell_tex: "kotoba/cell.png".into(),
                cell_border: [16.0, 16.0, 16.0, 16.0],
                frame: "kotoba/frame.png".into(),
                frame_border: [24.0, 24.0, 24.0, 24.0],
                panel: "kotoba/panel.png".into(),
                panel_border: [16.0, 16.0, 16.0, 16.0],
                white: "kotoba/white.png".into(),
                wall_tex: "kotoba/wall.png".into(),
                glow: "kotoba/glow.png".into(),
                ink: Color([0.13, 0.12, 0.18, 1.0]),
                chosen: Color([1.0, 0.78, 0.3, 0.9]),
                light: Color([0.55, 0.9, 1.0, 0.8]),
                players: [Color([0.94, 0.79, 0.42, 1.0]), Color([1.0, 0.6, 0.48, 1.0])],
                combo_colors: vec![
                    Color([1.0, 0.96, 0.86, 1.0]),
                    Color([1.0, 0.85, 0.4, 1.0]),
                    Color([1.0, 0.6, 0.3, 1.0]),
                    Color([1.0, 0.42, 0.55, 1.0]),
                    Color([0.8, 0.5, 1.0, 1.0]),
                ],
                hurt_at: None,
                refused: Color([1.0, 0.62, 0.52, 1.0]),
                z: 10.0,
            }
        }
    }

    /// The stages, rivals and tile stats a project plays with: its tables when it has them, the
    /// built-in ones otherwise. Read once, when a table first needs them.
    #[derive(Debug, Clone)]
    pub struct Content {
        /// The puzzle stages.
        pub stages: Vec<Stage>,
        /// The battle rivals.
        pub rivals: Vec<Rival>,
        /// What each kana is worth and how often it is dealt.
        pub stats: TileStats,
    }

    impl Content {
        fn load(tables: Option<&Tables>) -> Content {
            // A bad table never gets this far: the host checks declared tables at load.
            let raw = |name: &str| tables.and_then(|t| t.raw(name));
            let stages = raw("kotoba_stages")
                .and_then(|t| content::stages_from_value(content::STAGES_TABLE, &rows(t)).ok())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| vec![content::builtin_stage()]);
            let rivals = raw("kotoba_rivals")
                .and_then(|t| content::rivals_from_value(content::RIVALS_TABLE, &rows(t)).ok())
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| vec![content::builtin_rival()]);
            Content {
                stages,
                rivals,
                stats: TileStats::from_dict(Dict::japanese()),
            }
        }
    }

    fn rows(raw: &RawTable) -> serde_json::Value {
        serde_json::Value::Array(raw.rows.clone())
    }

    /// Checks a project's stage or rival table with the one validator `content` has.
    fn check_with(
        raw: &RawTable,
        table: &str,
        read: fn(&str, &serde_json::Value) -> Result<(), content::TableError>,
    ) -> Vec<RowError> {
        match read(table, &rows(raw)) {
            Ok(()) => Vec::new(),
            Err(e) => e
                .problems
                .into_iter()
                .map(|p| RowError {
                    file: raw.file.clone(),
                    row: p.row,
                    label: p
                        .row
                        .checked_sub(1)
                        .and_then(|i| raw.rows.get(i))
                        .and_then(|r| r.get("id"))
                        .and_then(|v| v.as_str())
                        .map(str::to_string),
                    message: if p.field.is_empty() {
                        p.message
                    } else {
                        format!("{}: {}", p.field, p.message)
                    },
                })
                .collect(),
        }
    }

    /// The fields of `kotoba_table` that name files.
    const TABLE_ASSETS: &[AssetField] = &[
        AssetField::font("font"),
        AssetField::texture("tile"),
        AssetField::texture("cell_tex"),
        AssetField::texture("frame"),
        AssetField::texture("panel"),
        AssetField::texture("white"),
        AssetField::texture("wall_tex"),
        AssetField::texture("glow"),
    ];

    /// The textures the package ships, by name under `assets/textures/`: what `Table` and
    /// `Waves` name by default, so a project that lists the package draws a board with no art
    /// of its own. Kotodama's art tool (`projects/kotodama/tools/art`) draws them.
    pub const DEFAULT_TEXTURES: &[(&str, &[u8])] = &[
        (
            "kotoba/tile.png",
            include_bytes!("../assets/textures/kotoba/tile.png"),
        ),
        (
            "kotoba/cell.png",
            include_bytes!("../assets/textures/kotoba/cell.png"),
        ),
        (
            "kotoba/frame.png",
            include_bytes!("../assets/textures/kotoba/frame.png"),
        ),
        (
            "kotoba/panel.png",
            include_bytes!("../assets/textures/kotoba/panel.png"),
        ),
        (
            "kotoba/white.png",
            include_bytes!("../assets/textures/kotoba/white.png"),
        ),
        (
            "kotoba/wall.png",
            include_bytes!("../assets/textures/kotoba/wall.png"),
        ),
        (
            "kotoba/glow.png",
            include_bytes!("../assets/textures/kotoba/glow.png"),
        ),
        (
            "kotoba/scale.png",
            include_bytes!("../assets/textures/kotoba/scale.png"),
        ),
    ];

    /// The package entry point.
    pub struct KotobaPackage;

    impl Package for KotobaPackage {
        fn name(&self) -> &'static str {
            "jengine-kotoba"
        }

        // One line a component, command, system, bag or table, as the package's surface reads.
        #[rustfmt::skip]
        fn register(&self, reg: &mut Registry) {
            // What the ids commands take name, for docs.
            const TABLE_E: &str = "an entity with a kotoba_table";
            const STAGE_ID: &str =
                "a stage id: \"builtin\" (the one built in) or an id of data/kotoba_stages";
            const RIVAL_ID: &str =
                "a rival id: \"builtin\" (the one built in) or an id of data/kotoba_rivals";
            reg.component::<Table>("kotoba_table");
            reg.component_checked::<Waves>("kotoba_waves", check_waves);

            reg.command("Kotoba", "puzzle", (entity("e").about(TABLE_E), string("stage").about(STAGE_ID).row_of("kotoba_stages", &["builtin"])), start_puzzle);
            reg.command("Kotoba", "battle", (entity("e").about(TABLE_E), string("rival").about(RIVAL_ID).row_of("kotoba_rivals", &["builtin"])), start_battle);
            reg.command("Kotoba", "demo", (entity("e"),), start_demo);
            reg.command("Kotoba", "stop", (entity("e"),), stop);
            reg.command("Kotoba", "pause", (entity("e"), boolean("paused")), pause);
            reg.command("Kotoba", "press", (entity("e"), number("x"), number("y")), press);
            reg.command("Kotoba", "drag", (entity("e"), number("x"), number("y")), drag);
            reg.command("Kotoba", "release", (entity("e"), number("x"), number("y")), release);
            reg.command("Kotoba", "select", (entity("e"), integer("slot").at_least(1)), select);
            reg.command("Kotoba", "turn", (entity("e"),), turn);
            reg.command("Kotoba", "swap", (entity("e"),), swap);
            reg.command("Kotoba", "cursor", (entity("e"), integer("dx"), integer("dy")), cursor);
            reg.command("Kotoba", "place", (entity("e"),), place);
            reg.command("Kotoba", "hint", (entity("e"),), hint);
            reg.command("Kotoba", "ripple", ripple_params(), ripple);
            reg.command("Kotoba", "surge", surge_params(), surge);
            reg.command("Kotoba", "swell", (entity("e"), number("amount")), swell);
            reg.command("Kotoba", "online", (entity("e"), integer("conn")), online);

            jengine_online::protocol::<net::ToServer, net::ToClient>(
                reg,
                net::PROTOCOL,
                net::WIRE,
                |m| m.validate().map_err(|e| e.to_string()),
                |m| m.validate().map_err(|e| e.to_string()),
            );
            reg.system("play", play);
            reg.system("draw", draw::system);
            reg.system("sea", draw::sea::system);
            reg.bag::<KotobaBag>("kotoba");
            reg.optional_table("kotoba_stages", check_stages);
            reg.optional_table("kotoba_rivals", check_rivals);

            reg.component_assets::<Table>("kotoba_table", TABLE_ASSETS);
            reg.component_assets::<Waves>("kotoba_waves", &[AssetField::texture("texture")]);
            for (name, bytes) in DEFAULT_TEXTURES {
                reg.asset(&format!("textures/{name}"), bytes);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // What `register` names: the checks, then the commands, in its order.

    fn check_waves(waves: &Waves) -> Result<(), String> {
        waves.check().map_err(|e| e.to_string())
    }

    fn check_stages(raw: &RawTable) -> Vec<RowError> {
        check_with(raw, content::STAGES_TABLE, |t, v| {
            content::stages_from_value(t, v).map(|_| ())
        })
    }

    fn check_rivals(raw: &RawTable) -> Vec<RowError> {
        check_with(raw, content::RIVALS_TABLE, |t, v| {
            content::rivals_from_value(t, v).map(|_| ())
        })
    }

    /// `Kotoba.puzzle(e, stage)`: a puzzle of the stage with this id.
    fn start_puzzle(w: &mut World, (e, id): (Entity, String)) -> Result<(), String> {
        at_table(w, e, |s, c, _| s.puzzle(&id, &c.stages, &c.stats))
    }

    /// `Kotoba.battle(e, rival)`: a battle against the rival with this id.
    fn start_battle(w: &mut World, (e, id): (Entity, String)) -> Result<(), String> {
        let seed = game_seed(w, e);
        at_table(w, e, |s, c, _| s.battle(&id, &c.rivals, &c.stats, seed))
    }

    /// `Kotoba.demo(e)`: two bots playing for show, again and again.
    fn start_demo(w: &mut World, (e,): (Entity,)) -> Result<(), String> {
        let seed = game_seed(w, e);
        at_table(w, e, |s, c, _| s.demo(&c.rivals, &c.stats, seed))
    }

    /// `Kotoba.stop(e)`: the table clears.
    fn stop(w: &mut World, (e,): (Entity,)) -> Result<(), String> {
        at_table(w, e, |s, _, _| {
            s.stop();
            Ok(())
        })
    }

    /// `Kotoba.pause(e, paused)`.
    fn pause(w: &mut World, (e, paused): (Entity, bool)) -> Result<(), String> {
        at_table(w, e, |s, _, _| {
            s.pause(paused);
            Ok(())
        })
    }

    /// `Kotoba.press(e, x, y)`: a pointer went down at a world point.
    fn press(w: &mut World, (e, x, y): (Entity, f64, f64)) -> Result<(), String> {
        pointer(w, e, draw::Touch::Press, [x as f32, y as f32])
    }

    /// `Kotoba.drag(e, x, y)`: it moved while down.
    fn drag(w: &mut World, (e, x, y): (Entity, f64, f64)) -> Result<(), String> {
        pointer(w, e, draw::Touch::Drag, [x as f32, y as f32])
    }

    /// `Kotoba.release(e, x, y)`: it came up.
    fn release(w: &mut World, (e, x, y): (Entity, f64, f64)) -> Result<(), String> {
        pointer(w, e, draw::Touch::Release, [x as f32, y as f32])
    }

    /// `Kotoba.select(e, slot)`: choose a hand tile, counting from 1 (declared 1 or more; a
    /// slot past the hand is the session's to refuse, since the hand's length is the game's).
    fn select(w: &mut World, (e, slot): (Entity, i64)) -> Result<(), String> {
        at_table(w, e, |s, _, _| s.select((slot - 1) as usize))
    }

    /// `Kotoba.turn(e)`: the chosen tile shows its next form.
    fn turn(w: &mut World, (e,): (Entity,)) -> Result<(), String> {
        at_table(w, e, |s, _, d| s.turn(d))
    }

    /// `Kotoba.swap(e)`: the chosen tile goes back for another.
    fn swap(w: &mut World, (e,): (Entity,)) -> Result<(), String> {
        at_table(w, e, |s, _, d| s.swap(d))
    }

    /// `Kotoba.cursor(e, dx, dy)`: the keyboard cursor moves (shown first if it was not).
    fn cursor(w: &mut World, (e, dx, dy): (Entity, i64, i64)) -> Result<(), String> {
        at_table(w, e, |s, _, _| {
            s.move_cursor(dx.clamp(-64, 64), dy.clamp(-64, 64))
        })
    }

    /// `Kotoba.place(e)`: the chosen tile goes down at the cursor.
    fn place(w: &mut World, (e,): (Entity,)) -> Result<(), String> {
        at_table(w, e, |s, _, d| s.place_at_cursor(d))
    }

    /// `Kotoba.hint(e)`: a puzzle lights a cell where the hand reads.
    fn hint(w: &mut World, (e,): (Entity,)) -> Result<(), String> {
        at_table(w, e, |s, _, d| s.hint(d))
    }

    type RippleParams = (
        Arg<Entity>,
        Arg<f64>,
        Arg<f64>,
        Arg<f64>,
        Arg<Option<f64>>,
        Arg<Option<f64>>,
        Arg<Option<f64>>,
    );

    fn ripple_params() -> Together<RippleParams> {
        (
            entity("e"),
            number("x"),
            number("y"),
            number("strength"),
            number("r").range(0.0, 1.0).optional(),
            number("g").range(0.0, 1.0).optional(),
            number("b").range(0.0, 1.0).optional(),
        )
            .such_that(COLOUR_RULE, |(_, _, _, _, r, g, b)| whole_colour(r, g, b))
    }

    /// The rule a wave's optional colour keeps, at the call.
    const COLOUR_RULE: &str = "r, g and b are given all three or none (gold)";

    fn whole_colour(r: &Option<f64>, g: &Option<f64>, b: &Option<f64>) -> bool {
        r.is_some() == g.is_some() && g.is_some() == b.is_some()
    }

    /// `Kotoba.ripple(e, x, y, strength, r, g, b)`: a ring from a world point on the sea at `e`.
    fn ripple(
        w: &mut World,
        (e, x, y, strength, r, g, b): (
            Entity,
            f64,
            f64,
            f64,
            Option<f64>,
            Option<f64>,
            Option<f64>,
        ),
    ) -> Result<(), String> {
        let colour = rgb(r, g, b)?;
        at_sea(w, e, |sea| {
            sea::ripple(sea, [x as f32, y as f32], strength as f32, colour)
        })
    }

    type SurgeParams = (
        Arg<Entity>,
        Arg<f64>,
        Arg<Option<f64>>,
        Arg<Option<f64>>,
        Arg<Option<f64>>,
    );

    fn surge_params() -> Together<SurgeParams> {
        (
            entity("e"),
            number("strength"),
            number("r").range(0.0, 1.0).optional(),
            number("g").range(0.0, 1.0).optional(),
            number("b").range(0.0, 1.0).optional(),
        )
            .such_that(COLOUR_RULE, |(_, _, r, g, b)| whole_colour(r, g, b))
    }

    /// `Kotoba.surge(e, strength, r, g, b)`: a wave across the whole sea at `e`.
    fn surge(
        w: &mut World,
        (e, strength, r, g, b): (Entity, f64, Option<f64>, Option<f64>, Option<f64>),
    ) -> Result<(), String> {
        let colour = rgb(r, g, b)?;
        at_sea(w, e, |sea| sea::surge(sea, strength as f32, colour))
    }

    /// `Kotoba.swell(e, amount)`: how rough the resting sea at `e` is.
    fn swell(w: &mut World, (e, amount): (Entity, f64)) -> Result<(), String> {
        let mut waves = w
            .entities
            .get::<&mut Waves>(e)
            .map_err(|_| format!("entity {} has no kotoba_waves", e.to_bits()))?;
        waves.set_swell(amount as f32).map_err(|e| e.to_string())
    }

    /// A colour from a script's optional 0..1 sRGB channels: all three or none (both declared
    /// with the parameters, so a call that breaks them never gets here).
    fn rgb(r: Option<f64>, g: Option<f64>, b: Option<f64>) -> Result<Option<Rgba>, String> {
        match (r, g, b) {
            (None, None, None) => Ok(None),
            (Some(r), Some(g), Some(b)) => Ok(Some(Rgba([
                r.clamp(0.0, 1.0) as f32,
                g.clamp(0.0, 1.0) as f32,
                b.clamp(0.0, 1.0) as f32,
                1.0,
            ]))),
            _ => Err("a colour needs all of r, g and b (or none, for gold)".into()),
        }
    }

    /// A seed for a new game at `e`: the run's seed and the frame, so a replay deals the same.
    fn game_seed(world: &World, e: Entity) -> u64 {
        let time = world.resources.get::<Time>().copied().unwrap_or_default();
        time.seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(time.frame)
            .wrapping_add(e.id() as u64)
    }

    fn content(world: &mut World) -> &Content {
        if !world.resources.contains::<Content>() {
            let loaded = Content::load(world.resources.get::<Tables>());
            world.resources.insert(loaded);
        }
        world
            .resources
            .get::<Content>()
            .expect("the content was just stored")
    }

    /// Runs `f` on the session of the table at `e` (starting one on a table that has none).
    fn at_table(
        world: &mut World,
        e: Entity,
        f: impl FnOnce(&mut Session, &Content, &Dict) -> Result<(), SessionError>,
    ) -> Result<(), String> {
        if world.entities.get::<&Table>(e).is_err() {
            return Err(format!("entity {} has no kotoba_table", world.describe(e)));
        }
        if world.entities.get::<&Session>(e).is_err() {
            world
                .entities
                .insert(
                    e,
                    (
                        Session::default(),
                        KotobaBag::default(),
                        draw::Drawn::default(),
                    ),
                )
                .map_err(|_| "the table is gone".to_string())?;
        }
        content(world);
        let World {
            entities,
            resources,
        } = world;
        let content = resources.get::<Content>().expect("loaded above");
        let mut session = entities
            .get::<&mut Session>(e)
            .map_err(|_| "the table is gone".to_string())?;
        let since = session.events.len();
        match f(&mut session, content, Dict::japanese()) {
            // A move the rules refuse is play, not a script's mistake: it is an event (the
            // board shakes and says why), never an error.
            Err(SessionError::Refused(why)) => {
                session.announce_refusal(why, since);
                Ok(())
            }
            r => r.map_err(|e| e.to_string()),
        }
    }

    fn at_sea(
        world: &mut World,
        e: Entity,
        f: impl FnOnce(&mut sea::Sea) -> Result<(), sea::WaveError>,
    ) -> Result<(), String> {
        let mut sea = draw::sea::sea_mut(world, e).map_err(|e| e.to_string())?;
        f(&mut sea).map_err(|e| e.to_string())
    }

    fn pointer(
        world: &mut World,
        e: Entity,
        touch: draw::Touch,
        at: [f32; 2],
    ) -> Result<(), String> {
        let table = world
            .entities
            .get::<&Table>(e)
            .map(|t| (*t).clone())
            .map_err(|_| format!("entity {} has no kotoba_table", world.describe(e)))?;
        at_table(world, e, |s, _, dict| {
            draw::touch(s, &table, touch, at, dict)
        })
    }

    /// This package with the two it stands on (`jengine-online`, `jengine-net`): what a build
    /// that plays Kotodama links, in the order a project lists them.
    pub fn packages() -> [&'static dyn Package; 3] {
        [
            &KotobaPackage,
            &jengine_online::OnlinePackage,
            &jengine_online::NetPackage,
        ]
    }

    /// The connection entity (an `online` component) a table plays its room's battles through.
    pub struct OnlineTable {
        conn: Entity,
    }

    /// `Kotoba.online(e, conn)`: play the battles of the room behind connection entity `conn`
    /// (`-1` stops: the table clears).
    fn online(world: &mut World, (e, conn): (Entity, i64)) -> Result<(), String> {
        if world.entities.get::<&Table>(e).is_err() {
            return Err(format!("entity {} has no kotoba_table", world.describe(e)));
        }
        if conn == -1 {
            let _ = world.entities.remove_one::<OnlineTable>(e);
            return at_table(world, e, |s, _, _| {
                s.stop();
                Ok(())
            });
        }
        // Scripts hold an entity as its bits in a Lua integer.
        let conn = Entity::from_bits(conn as u64)
            .filter(|c| world.entities.contains(*c))
            .ok_or_else(|| format!("Kotoba.online: {conn} is not an entity (or -1 to stop)"))?;
        if world.entities.get::<&jengine_online::Online>(conn).is_err() {
            return Err(format!(
                "Kotoba.online: {} has no online component",
                world.describe(conn)
            ));
        }
        world
            .entities
            .insert_one(e, OnlineTable { conn })
            .map_err(|_| "the table is gone".to_string())?;
        at_table(world, e, |s, _, _| {
            s.stop();
            Ok(())
        })
    }

    /// Every online table's messages from its room in, and its moves out.
    fn talk(world: &mut World) {
        let dict = Dict::japanese();
        let tables: Vec<(Entity, Entity)> = world
            .entities
            .query::<(Entity, &OnlineTable)>()
            .iter()
            .map(|(e, o)| (e, o.conn))
            .collect();
        for (e, conn) in tables {
            let frames = jengine_online::frames(world, conn);
            let mut problems = Vec::new();
            let outbox = {
                let Ok(mut session) = world.entities.get::<&mut Session>(e) else {
                    continue;
                };
                for frame in frames {
                    // Frames the room sends that are not battle messages are the lobby's.
                    let Ok(msg) = serde_json::from_value::<net::ToClient>(frame) else {
                        continue;
                    };
                    if let Err(why) = msg.validate() {
                        problems.push(format!("the room sent a bad message: {why}"));
                        continue;
                    }
                    if let Err(why) = session.receive(dict, msg) {
                        problems.push(format!("the room's message did not fit: {why}"));
                    }
                }
                session.take_outbox()
            };
            for msg in outbox {
                if let Ok(frame) = serde_json::to_value(&msg) {
                    let _ = jengine_online::send_frame(world, conn, frame);
                }
            }
            for p in problems {
                world.log().warn_once(p);
            }
        }
    }

    /// The frame's play: every table's clock and bots, its events turned into waves on every sea,
    /// and its bag.
    fn play(world: &mut World, dt: f64) {
        talk(world);
        let dict = Dict::japanese();
        let tables: Vec<Entity> = world
            .entities
            .query::<(Entity, &Table)>()
            .iter()
            .map(|(e, _)| e)
            .collect();
        let mut sent = Vec::new();
        let mut land = Vec::new();
        for e in tables {
            if world.entities.get::<&Session>(e).is_err() {
                let _ = world.entities.insert(
                    e,
                    (
                        Session::default(),
                        KotobaBag::default(),
                        draw::Drawn::default(),
                    ),
                );
            }
            content(world);
            let World {
                entities,
                resources,
            } = &mut *world;
            let content = resources.get::<Content>().expect("loaded above");
            let Ok((table, session, bag, drawn)) =
                entities
                    .query_one_mut::<(&Table, &mut Session, &mut KotobaBag, &mut draw::Drawn)>(e)
            else {
                continue;
            };
            session.update(dict, &content.stats, &content.rivals, dt as f32);
            if !session.paused {
                drawn.feedback.age(dt as f32);
            }
            let size = session.board().map_or((0, 0), |b| (b.width(), b.height()));
            drawn.feedback.observe(
                &session.events,
                draw::feedback::Seen {
                    you: session.you(),
                    tried: session.tried,
                    chosen: session.selected,
                    face: session
                        .selected
                        .and_then(|s| session.hand().get(s).copied()),
                    size,
                },
            );
            let layout = draw::Layout::of(table, session);
            if session.board().is_some() {
                land.extend(layout.land());
            }
            if !session.events.is_empty() {
                sent.push((session.events.clone(), layout.wave_context(session)));
            }
            *bag = session.bag(dict, &content.stages, &content.rivals);
            // This frame's events have been read into the bag; the next frame's start empty,
            // with whatever commands add before it.
            session.begin_frame();
        }
        for (waves, sea) in world.entities.query_mut::<(&Waves, &mut sea::Sea)>() {
            sea.set_land(&land);
            for (events, context) in &sent {
                let context = sea::WaveContext {
                    palette: waves.palette(),
                    ..*context
                };
                for wave in sea::waves_for(events, &context) {
                    // Waves made from the board's own events are finite by construction.
                    let _ = sea::apply(sea, wave);
                }
            }
        }
    }
}
