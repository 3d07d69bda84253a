//! The balance harness: the shipped stages and rivals played by bots that play like people.
//!
//! A player profile is a bot [`Skill`]: the share of the legal moves it notices and its seconds
//! a move (each pause drawn ±30% around it), both from the bot's own seeded stream. The harness
//! plays every stage with three puzzle profiles (learner, casual, good), every rival against four
//! battle profiles (novice, learner, casual, expert) and every rival against every other, both
//! seats, and counts how the games end. Every game's seed is mixed from one seed and the game's
//! place in the table, so the figures are the same run after run and a test can ask for any row
//! alone. `cargo run --release -p jengine-kotoba --example balance` prints the whole report.

use crate::battle::{Battle, FighterSpec, Phase, Setup};
use crate::bot::{Bot, Skill, legal_moves};
use crate::content::{PLAYER_HAND, PLAYER_LIFE, Rival, battle_board};
use crate::dict::Dict;
use crate::kana::TileStats;
use crate::play::Ending;
use crate::puzzle::{Puzzle, Stage, State, autoplay};

/// Seconds each step of a harness game moves the clock: the game's own frame is finer, but a
/// tenth of a second is well inside a person's reaction time.
pub const STEP: f32 = 0.1;

/// A kind of player: a name and how it plays.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Profile {
    /// What the report calls it.
    pub name: &'static str,
    /// The share of moves it notices and its seconds a move.
    pub skill: Skill,
}

/// Someone on their first games: sees few words, slowly.
pub const NOVICE: Profile = Profile {
    name: "novice",
    skill: Skill {
        sight: 0.15,
        think: 6.0,
    },
};
/// Knows the rules and some words.
pub const LEARNER: Profile = Profile {
    name: "learner",
    skill: Skill {
        sight: 0.2,
        think: 5.4,
    },
};
/// Plays now and then: a fair eye, a steady pace.
pub const CASUAL: Profile = Profile {
    name: "casual",
    skill: Skill {
        sight: 0.26,
        think: 4.6,
    },
};
/// Plays often: sees more, a little faster.
pub const GOOD: Profile = Profile {
    name: "good",
    skill: Skill {
        sight: 0.32,
        think: 4.0,
    },
};
/// Sees many words and places one every few seconds.
pub const EXPERT: Profile = Profile {
    name: "expert",
    skill: Skill {
        sight: 0.4,
        think: 3.6,
    },
};

/// The profiles the stages are measured with.
pub const STAGE_PROFILES: [Profile; 3] = [LEARNER, CASUAL, GOOD];
/// The profiles the rivals are measured against.
pub const BATTLE_PROFILES: [Profile; 4] = [NOVICE, LEARNER, CASUAL, EXPERT];

/// A seed for one game: `seed` mixed with the game's place in the table (splitmix64).
pub fn game_seed(seed: u64, parts: &[u64]) -> u64 {
    let mut z = seed;
    for &p in parts {
        z = z.wrapping_add(p).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
    }
    z
}

/// How one stage went for one player.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct StageRun {
    /// Every tile placed.
    pub cleared: bool,
    /// Stars earned (0 unless cleared).
    pub stars: u32,
    /// Points from words.
    pub score: u32,
    /// The time bonus (0 unless cleared).
    pub bonus: u32,
}

/// Plays `stage` as a player of `skill` would: each move takes the bot's thinking time off the
/// clock; it places the best of the moves it noticed, thinks again when it noticed none, and
/// swaps (slot by slot) when its hand fits nowhere.
pub fn play_stage(
    stage: &Stage,
    dict: &Dict,
    stats: &TileStats,
    skill: Skill,
    seed: u64,
) -> StageRun {
    let mut puzzle = Puzzle::new(stage, stats);
    let mut bot = Bot::new(skill, seed);
    let mut next_swap = 0usize;
    // Bounded by the clock: every pass spends at least one step, and a swap five seconds.
    let most = (stage.time.max(0.0) / STEP) as usize + 2;
    for _ in 0..most {
        if puzzle.state() != State::Playing {
            break;
        }
        if bot.ready(STEP) {
            let moves = legal_moves(puzzle.board(), dict, stats, puzzle.hand());
            if moves.is_empty() {
                let slot = next_swap % puzzle.hand().len().max(1);
                next_swap += 1;
                let _ = puzzle.swap(slot);
            } else if let Some(m) = bot.pick(&moves) {
                // The hand may show another form than the move's face: turn it first.
                for _ in 0..4 {
                    if puzzle.hand().get(m.slot) == Some(&m.face) {
                        break;
                    }
                    puzzle.turn(m.slot);
                }
                let _ = puzzle.place(dict, m.slot, m.pos);
            }
            bot.rest();
            puzzle.take_events();
        }
        puzzle.update(STEP);
    }
    let cleared = puzzle.state() == State::Cleared;
    StageRun {
        cleared,
        stars: puzzle.stars(),
        score: puzzle.score(),
        bonus: puzzle.bonus(),
    }
}

/// A stage's figures for one profile.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct StageFigures {
    /// Runs played.
    pub runs: u32,
    /// Runs cleared.
    pub clears: u32,
    /// Stars over all runs.
    pub stars: u32,
}

impl StageFigures {
    /// Cleared runs as a share of all, from 0 to 1.
    pub fn clear_rate(&self) -> f64 {
        self.clears as f64 / self.runs.max(1) as f64
    }

    /// Stars a run, on average.
    pub fn mean_stars(&self) -> f64 {
        self.stars as f64 / self.runs.max(1) as f64
    }
}

/// Plays stage number `index` of a table `runs` times as `profile`.
pub fn stage_figures(
    stage: &Stage,
    index: usize,
    dict: &Dict,
    stats: &TileStats,
    profile: Profile,
    runs: u32,
    seed: u64,
) -> StageFigures {
    let mut f = StageFigures {
        runs,
        clears: 0,
        stars: 0,
    };
    let who = profile_code(profile);
    for run in 0..runs {
        let s = game_seed(seed, &[1, index as u64, who, run as u64]);
        let out = play_stage(stage, dict, stats, profile.skill, s);
        f.clears += out.cleared as u32;
        f.stars += out.stars;
    }
    f
}

fn profile_code(p: Profile) -> u64 {
    p.name
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(131).wrapping_add(b as u64))
}

/// How one battle ended.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BattleRun {
    /// The winner, `None` for a draw.
    pub winner: Option<usize>,
    /// How.
    pub why: Ending,
    /// Seconds of fighting.
    pub seconds: f32,
}

/// Fights `setup` to its end in steps of [`STEP`] (both fighters should be bots).
pub fn fight(setup: &Setup, dict: &Dict, stats: &TileStats) -> BattleRun {
    let mut battle = match Battle::new(setup, stats) {
        Ok(b) => b,
        Err(_) => {
            return BattleRun {
                winner: None,
                why: Ending::Time,
                seconds: 0.0,
            };
        }
    };
    let most = ((setup.time.max(0.0) + crate::battle::COUNTDOWN as f32 + 1.0) / STEP) as usize;
    for _ in 0..most {
        if let Phase::Over { winner, why } = battle.phase() {
            return BattleRun {
                winner,
                why,
                seconds: setup.time - battle.time_left(),
            };
        }
        battle.update(dict, STEP);
        battle.take_events();
    }
    let winner = match battle.phase() {
        Phase::Over { winner, .. } => winner,
        _ => None,
    };
    BattleRun {
        winner,
        why: Ending::Time,
        seconds: setup.time - battle.time_left(),
    }
}

/// The player as a bot of `skill`: the game's player life and hand.
pub fn player_bot(name: &str, skill: Skill) -> FighterSpec {
    FighterSpec {
        name: name.to_string(),
        life: PLAYER_LIFE,
        hand: PLAYER_HAND,
        bot: Some(skill),
    }
}

/// Games counted from one side.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games played.
    pub games: u32,
    /// Games this side won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games ended by a knockout.
    pub ko: u32,
    /// Games the clock ended.
    pub time: u32,
    /// Games a full board ended.
    pub full: u32,
    /// Seconds of fighting over all games.
    pub seconds: f32,
}

impl Tally {
    fn add(&mut self, run: BattleRun, side: usize) {
        self.games += 1;
        match run.winner {
            Some(w) if w == side => self.wins += 1,
            None => self.draws += 1,
            _ => {}
        }
        match run.why {
            Ending::Ko => self.ko += 1,
            Ending::Time => self.time += 1,
            Ending::Full => self.full += 1,
        }
        self.seconds += run.seconds;
    }

    /// Wins as a share of games, from 0 to 1.
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.games.max(1) as f64
    }

    /// Seconds a game, on average.
    pub fn mean_seconds(&self) -> f64 {
        self.seconds as f64 / self.games.max(1) as f64
    }
}

/// `games` battles of `profile` (player 0, as in the game) against rival number `index`;
/// counted from the player's side.
pub fn versus_player(
    rival: &Rival,
    index: usize,
    dict: &Dict,
    stats: &TileStats,
    profile: Profile,
    games: u32,
    seed: u64,
) -> Tally {
    let mut t = Tally::default();
    let who = profile_code(profile);
    for g in 0..games {
        let s = game_seed(seed, &[2, index as u64, who, g as u64]);
        let setup = rival.setup(player_bot(profile.name, profile.skill), s);
        t.add(fight(&setup, dict, stats), 0);
    }
    t
}

/// `games` battles of rival `a` against rival `b` on the board and clock of `b`, seats taken
/// in turn (`a` is player 0 in the even games); counted from `a`'s side.
pub fn versus_rival(
    a: (&Rival, usize),
    b: (&Rival, usize),
    dict: &Dict,
    stats: &TileStats,
    games: u32,
    seed: u64,
) -> Tally {
    let mut t = Tally::default();
    let (lo, hi) = (a.1.min(b.1) as u64, a.1.max(b.1) as u64);
    for g in 0..games {
        let s = game_seed(seed, &[3, lo, hi, g as u64]);
        let a_seat = (g % 2) as usize;
        let mut fighters = [b.0.fighter(), b.0.fighter()];
        fighters[a_seat] = a.0.fighter();
        let setup = Setup {
            board: b.0.board.clone().unwrap_or_else(battle_board),
            fighters,
            time: b.0.time,
            seed: s,
            countdown: true,
        };
        t.add(fight(&setup, dict, stats), a_seat);
    }
    t
}

/// What a run that sees every move (the puzzle's autoplay) scores on a stage: its words and its
/// time bonus.
pub fn perfect_run(stage: &Stage, dict: &Dict, stats: &TileStats) -> (u32, u32) {
    let out = autoplay(stage, dict, stats);
    (out.score, out.bonus)
}

/// How many games each part of the report plays.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sizes {
    /// Runs of each stage for each profile.
    pub runs: u32,
    /// Battles of each rival against each profile.
    pub games: u32,
    /// Battles of each pair of rivals (seats in turn).
    pub pairs: u32,
}

impl Default for Sizes {
    fn default() -> Sizes {
        Sizes {
            runs: 50,
            games: 200,
            pairs: 200,
        }
    }
}

/// Every figure of the report, in table order.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The seed it was played from.
    pub seed: u64,
    /// Its sample sizes.
    pub sizes: Sizes,
    /// Stage ids.
    pub stages: Vec<String>,
    /// `[stage][profile]` for [`STAGE_PROFILES`].
    pub stage_figures: Vec<[StageFigures; 3]>,
    /// A perfect run's word score and time bonus, a stage.
    pub perfect: Vec<(u32, u32)>,
    /// Each stage's star scores.
    pub star_scores: Vec<[u32; 3]>,
    /// Rival ids.
    pub rivals: Vec<String>,
    /// `[rival][profile]` for [`BATTLE_PROFILES`], from the player's side.
    pub versus_players: Vec<[Tally; 4]>,
    /// `[a][b]`: rival `a` against rival `b` (on the board of the later of the two in the
    /// table), from `a`'s side; the diagonal is empty.
    pub round_robin: Vec<Vec<Tally>>,
}

/// Plays the whole report on `threads` threads (the figures do not depend on how many).
pub fn report(
    stages: &[Stage],
    rivals: &[Rival],
    dict: &Dict,
    stats: &TileStats,
    sizes: Sizes,
    seed: u64,
    threads: usize,
) -> Report {
    // One job a row; rows are shared out and put back in order.
    enum Job {
        Stage(usize),
        Rival(usize),
        Pair(usize, usize),
    }
    enum Done {
        Stage(usize, [StageFigures; 3], (u32, u32)),
        Rival(usize, [Tally; 4]),
        Pair(usize, usize, Tally),
    }
    let mut jobs: Vec<Job> = Vec::new();
    for i in 0..rivals.len() {
        for j in i + 1..rivals.len() {
            jobs.push(Job::Pair(i, j));
        }
    }
    jobs.extend((0..rivals.len()).map(Job::Rival));
    jobs.extend((0..stages.len()).map(Job::Stage));
    let run = |job: &Job| match *job {
        Job::Stage(i) => Done::Stage(
            i,
            STAGE_PROFILES.map(|p| stage_figures(&stages[i], i, dict, stats, p, sizes.runs, seed)),
            perfect_run(&stages[i], dict, stats),
        ),
        Job::Rival(i) => Done::Rival(
            i,
            BATTLE_PROFILES
                .map(|p| versus_player(&rivals[i], i, dict, stats, p, sizes.games, seed)),
        ),
        Job::Pair(i, j) => Done::Pair(
            i,
            j,
            versus_rival(
                (&rivals[i], i),
                (&rivals[j], j),
                dict,
                stats,
                sizes.pairs,
                seed,
            ),
        ),
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: Vec<Done> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(job) = jobs.get(k) else { break };
                        mine.push(run(job));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let empty = StageFigures {
        runs: 0,
        clears: 0,
        stars: 0,
    };
    let mut r = Report {
        seed,
        sizes,
        stages: stages.iter().map(|s| s.id.clone()).collect(),
        stage_figures: vec![[empty; 3]; stages.len()],
        perfect: vec![(0, 0); stages.len()],
        star_scores: stages.iter().map(|s| s.stars).collect(),
        rivals: rivals.iter().map(|r| r.id.clone()).collect(),
        versus_players: vec![[Tally::default(); 4]; rivals.len()],
        round_robin: vec![vec![Tally::default(); rivals.len()]; rivals.len()],
    };
    for d in done {
        match d {
            Done::Stage(i, f, p) => {
                r.stage_figures[i] = f;
                r.perfect[i] = p;
            }
            Done::Rival(i, t) => r.versus_players[i] = t,
            Done::Pair(i, j, t) => {
                // From j's side: the same games, the other winner.
                let mut other = t;
                other.wins = t.games - t.wins - t.draws;
                r.round_robin[i][j] = t;
                r.round_robin[j][i] = other;
            }
        }
    }
    r
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |x: f64| format!("{:>4.0}%", x * 100.0);
        writeln!(
            f,
            "seed {}; {} runs a stage and profile, {} battles a rival and profile, {} a pair of rivals",
            self.seed, self.sizes.runs, self.sizes.games, self.sizes.pairs
        )?;
        writeln!(f)?;
        write!(f, "stage")?;
        for p in STAGE_PROFILES {
            write!(f, " | {:>7} clear stars", p.name)?;
        }
        writeln!(f, " | perfect words bonus | stars at")?;
        for (i, id) in self.stages.iter().enumerate() {
            write!(f, "{id:<5}")?;
            for s in &self.stage_figures[i] {
                write!(
                    f,
                    " |        {} {:>5.2}",
                    pct(s.clear_rate()),
                    s.mean_stars()
                )?;
            }
            let (w, b) = self.perfect[i];
            let [a, b2, c] = self.star_scores[i];
            writeln!(f, " |         {w:>5} {b:>5} | {a}/{b2}/{c}")?;
        }
        let words_win = self.perfect.iter().filter(|(w, b)| w > b).count();
        writeln!(
            f,
            "a perfect run's words beat its time bonus on {words_win} of {} stages",
            self.perfect.len()
        )?;
        writeln!(f)?;
        write!(f, "rival")?;
        for p in BATTLE_PROFILES {
            write!(f, " | {:>7} wins", p.name)?;
        }
        writeln!(f, " | ends ko/time/full, mean s (all profiles)")?;
        for (i, id) in self.rivals.iter().enumerate() {
            write!(f, "{id:<5}")?;
            let mut all = Tally::default();
            for t in &self.versus_players[i] {
                write!(f, " |        {}", pct(t.win_rate()))?;
                all.games += t.games;
                all.ko += t.ko;
                all.time += t.time;
                all.full += t.full;
                all.seconds += t.seconds;
            }
            writeln!(
                f,
                " | {}/{}/{} {:.0}",
                all.ko,
                all.time,
                all.full,
                all.mean_seconds()
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "round-robin: the row rival's wins against the column rival (on the higher one's board)"
        )?;
        write!(f, "     ")?;
        for id in &self.rivals {
            write!(f, " {id:>5}")?;
        }
        writeln!(f)?;
        for (i, id) in self.rivals.iter().enumerate() {
            write!(f, "{id:<5}")?;
            for (j, t) in self.round_robin[i].iter().enumerate() {
                if i == j {
                    write!(f, "     -")?;
                } else {
                    write!(f, " {}", pct(t.win_rate()))?;
                }
            }
            writeln!(f)?;
        }
        writeln!(f, "adjacent pairs, ends ko/time/full, mean s:")?;
        for i in 1..self.rivals.len() {
            let t = self.round_robin[i][i - 1];
            writeln!(
                f,
                "  {} over {}: {} of {} ({}), ends {}/{}/{}, {:.0} s",
                self.rivals[i],
                self.rivals[i - 1],
                t.wins,
                t.games,
                pct(t.win_rate()).trim(),
                t.ko,
                t.time,
                t.full,
                t.mean_seconds()
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{player, shipped_rivals, shipped_stages};

    /// A player who never places a tile, against every shipped rival on its own board and
    /// clock: the rival wins every time, by knockout, by the clock or on a full board.
    #[test]
    fn a_player_who_makes_no_word_loses_to_every_rival() {
        let dict = Dict::japanese();
        let stats = TileStats::from_dict(dict);
        for (i, rival) in shipped_rivals().unwrap().iter().enumerate() {
            for g in 0..3 {
                let setup = rival.setup(player("idle"), game_seed(7, &[i as u64, g]));
                let mut battle = Battle::new(&setup, &stats).unwrap();
                let steps = ((setup.time + 5.0) / STEP) as usize;
                for _ in 0..steps {
                    if battle.winner().is_some() {
                        break;
                    }
                    battle.update(dict, STEP);
                }
                match battle.phase() {
                    Phase::Over {
                        winner: Some(1), ..
                    } => {}
                    other => panic!(
                        "{} game {g}: the idle player did not lose: {other:?}",
                        rival.id
                    ),
                }
            }
        }
    }

    #[test]
    fn the_report_is_the_same_from_the_same_seed_on_any_number_of_threads() {
        let dict = Dict::japanese();
        let stats = TileStats::from_dict(dict);
        let stages = &shipped_stages().unwrap()[..2];
        let rivals = &shipped_rivals().unwrap()[..3];
        let sizes = Sizes {
            runs: 2,
            games: 2,
            pairs: 2,
        };
        let one = report(stages, rivals, dict, &stats, sizes, 5, 1);
        let two = report(stages, rivals, dict, &stats, sizes, 5, 2);
        assert_eq!(one, two);
        assert_eq!(one.stage_figures[0][0].runs, 2);
        assert_eq!(one.round_robin[0][1].games, 2);
        assert_eq!(
            one.round_robin[0][1].wins + one.round_robin[1][0].wins + one.round_robin[0][1].draws,
            2
        );
        assert!(one.to_string().contains("round-robin"));
    }

    /// The shipped ladder, at a sample that keeps the test short: each rival beats the one below
    /// it in at least 65% of their games (the report plays 200 a pair).
    #[test]
    fn each_shipped_rival_beats_the_one_below_it() {
        let dict = Dict::japanese();
        let stats = TileStats::from_dict(dict);
        let rivals = shipped_rivals().unwrap();
        for i in 1..rivals.len() {
            let t = versus_rival(
                (&rivals[i], i),
                (&rivals[i - 1], i - 1),
                dict,
                &stats,
                BAR_GAMES,
                1,
            );
            assert!(
                t.win_rate() >= 0.65,
                "{} beat {} in {} of {}",
                rivals[i].id,
                rivals[i - 1].id,
                t.wins,
                t.games
            );
        }
    }

    /// For every battle profile the win rate falls from the first rival to the last with no
    /// step of more than 30 points, and the expert beats the last rival in 15% of games or
    /// more.
    #[test]
    fn every_profile_wins_less_the_higher_the_rival_and_the_expert_can_win_the_top() {
        let dict = Dict::japanese();
        let stats = TileStats::from_dict(dict);
        let rivals = shipped_rivals().unwrap();
        for p in BATTLE_PROFILES {
            let rates: Vec<f64> = rivals
                .iter()
                .enumerate()
                .map(|(i, r)| versus_player(r, i, dict, &stats, p, BAR_GAMES, 1).win_rate())
                .collect();
            for i in 1..rates.len() {
                assert!(
                    rates[i] <= rates[i - 1] + BAR_SLACK,
                    "{}: {} {:.2} after {} {:.2}",
                    p.name,
                    rivals[i].id,
                    rates[i],
                    rivals[i - 1].id,
                    rates[i - 1]
                );
                assert!(
                    rates[i - 1] - rates[i] <= 0.30 + BAR_SLACK,
                    "{}: from {} to {} the win rate falls {:.2} to {:.2}",
                    p.name,
                    rivals[i - 1].id,
                    rivals[i].id,
                    rates[i - 1],
                    rates[i]
                );
            }
            if p == EXPERT {
                assert!(rates[rates.len() - 1] >= 0.15, "expert: {rates:?}");
            }
        }
    }

    /// Games a pair (or a rival and a profile) plays in the tests of the bars.
    const BAR_GAMES: u32 = 40;
    /// What a small sample may stray from the report's 200 games.
    const BAR_SLACK: f64 = 0.05;

    /// The shipped stages, at a sample that keeps the test short: the learner's and the
    /// casual's clear rates never climb more than 15 points from one stage to the next, and
    /// the good profile clears the last stage at least half the time.
    #[test]
    fn the_shipped_stages_get_harder_for_every_profile() {
        let dict = Dict::japanese();
        let stats = TileStats::from_dict(dict);
        let stages = shipped_stages().unwrap();
        for p in [LEARNER, CASUAL] {
            let rates: Vec<f64> = stages
                .iter()
                .enumerate()
                .map(|(i, s)| stage_figures(s, i, dict, &stats, p, STAGE_RUNS, 1).clear_rate())
                .collect();
            for i in 1..rates.len() {
                assert!(
                    rates[i] <= rates[i - 1] + 0.15 + BAR_SLACK,
                    "{}: {} cleared {:.2} after {} {:.2}",
                    p.name,
                    stages[i].id,
                    rates[i],
                    stages[i - 1].id,
                    rates[i - 1]
                );
            }
        }
        let last = stages.len() - 1;
        let good = stage_figures(&stages[last], last, dict, &stats, GOOD, STAGE_RUNS, 1);
        assert!(good.clear_rate() >= 0.5, "good on the last stage: {good:?}");
    }

    /// Stars reward words: on 20 of the 30 shipped stages or more a run that sees every word
    /// scores more for its words than for its time, and every star score rises from one stage
    /// to the next.
    #[test]
    fn the_shipped_stars_reward_words_and_rise() {
        let dict = Dict::japanese();
        let stats = TileStats::from_dict(dict);
        let stages = shipped_stages().unwrap();
        let words_win = stages
            .iter()
            .filter(|s| {
                let (words, bonus) = perfect_run(s, dict, &stats);
                words > bonus
            })
            .count();
        assert!(
            words_win >= 20,
            "words beat the bonus on {words_win} stages"
        );
        for pair in stages.windows(2) {
            for k in 0..3 {
                assert!(
                    pair[1].stars[k] > pair[0].stars[k],
                    "{}'s star {} is not above {}'s",
                    pair[1].id,
                    k + 1,
                    pair[0].id
                );
            }
        }
    }

    /// Runs of a stage a profile plays in the tests of the bars: the report's own 50 (at 20 a
    /// stage's clear rate strays by 20 points), which is about 15 s in a debug build.
    const STAGE_RUNS: u32 = 50;
}
