//! Bots playing whole games: one game ([`play_game`]) and many ([`simulate`]), with the
//! tallies and Wilson confidence intervals the simulator reports.

use crate::{bot_from_spec, Bot};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use volley_core::{Game, Seed, SeededDice, Side};

/// How one game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub winner: Option<Side>,
    pub reason: String,
    pub turns: u32,
    /// Share of each side's army lost at the end (red, blue), from the referee's view.
    pub losses_percent: [f64; 2],
    pub actions: u64,
    /// How long each side's bot took to decide (red, blue): timed on the clock, so it differs
    /// from run to run while everything else in the record does not.
    pub thinking: [Thinking; 2],
}

impl GameRecord {
    /// The record without its clock readings: what a seed and the bots decide, so two plays
    /// of one seed compare equal.
    pub fn untimed(mut self) -> Self {
        self.thinking = [Thinking::default(); 2];
        self
    }
}

/// The time one side's bot spent deciding in a game, player turn by player turn: a player
/// turn is everything decided in one game turn while one side is phasing (the whole game turn
/// where nobody is), the decisions the other side makes in it included.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thinking {
    /// All of the bot's decisions.
    pub seconds: f64,
    /// The player turns in which the bot decided anything.
    pub turns: u32,
    /// The player turn the bot spent longest on.
    pub longest: TurnTime,
}

/// A player turn and the time a bot spent deciding in it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TurnTime {
    pub seconds: f64,
    pub turn: u32,
    /// The side phasing (`None` where the ruleset has no phasing side).
    pub phasing: Option<Side>,
}

impl Thinking {
    /// Counts a decision of `seconds` made in game turn `turn` with `phasing` phasing.
    fn add(&mut self, seconds: f64, turn: u32, phasing: Option<Side>, current: &mut TurnTime) {
        if self.turns == 0 || (current.turn, current.phasing) != (turn, phasing) {
            self.turns += 1;
            *current = TurnTime {
                seconds: 0.0,
                turn,
                phasing,
            };
        }
        current.seconds += seconds;
        self.seconds += seconds;
        if current.seconds > self.longest.seconds {
            self.longest = *current;
        }
    }
}

/// Plays a freshly loaded game to the end: the game's opening rolls, then each side's bot in
/// turn, every action applied with the game's dice.
///
/// # Errors
///
/// When a bot picks an action the rules refuse, a ruleset offers no action while the game
/// is not over, or the game runs past `max_actions`.
pub fn play_game(
    mut game: Box<dyn Game>,
    bots: &mut [Box<dyn Bot>; 2],
    seed: Seed,
    max_actions: u64,
) -> Result<GameRecord, String> {
    let mut dice = SeededDice::new(seed);
    game.start(&mut dice);
    let mut actions = 0u64;
    let mut thinking = [Thinking::default(); 2];
    // The player turn each side is deciding in, and its time so far.
    let mut current = [TurnTime::default(); 2];
    while let Some(side) = game.to_decide() {
        if actions >= max_actions {
            return Err(format!(
                "the game did not end within {max_actions} actions (turn {})",
                game.turn()
            ));
        }
        let bot = &mut bots[side.index()];
        let clock = std::time::Instant::now();
        let action = bot.choose(&*game, side);
        thinking[side.index()].add(
            clock.elapsed().as_secs_f64(),
            game.turn(),
            game.phasing(),
            &mut current[side.index()],
        );
        // Checked (a bot may be wrong), but nobody reads the events of a simulated game.
        game.apply_quiet(action, &mut dice).map_err(|e| {
            format!(
                "the {} bot for {side} chose \"{}\", which the rules refused: {e}",
                bot.spec(),
                game.notation(action)
            )
        })?;
        actions += 1;
    }
    let outcome = game.outcome().ok_or_else(|| {
        format!(
            "{} says nobody is to decide but gives no result",
            game.ruleset()
        )
    })?;
    let view = game.view(None);
    let mut losses_percent = [0.0; 2];
    for s in &view.sides {
        losses_percent[s.side.index()] = s.losses_percent;
    }
    Ok(GameRecord {
        winner: outcome.winner,
        reason: outcome.reason,
        turns: game.turn(),
        losses_percent,
        actions,
        thinking,
    })
}

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// Bot specs: the first plays red and the second blue (in every game without `swap`, and
    /// in even-numbered games with it).
    pub bots: [String; 2],
    pub games: usize,
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Swap the bots' sides in every other game.
    pub swap: bool,
    pub max_actions: u64,
}

/// One game of a simulation: which bot played red, and how it went.
#[derive(Clone, Debug)]
pub struct Played {
    /// Index (into `Simulation::bots`) of the bot that played red.
    pub red_bot: usize,
    pub record: GameRecord,
}

/// A count with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Share {
    pub count: usize,
    pub of: usize,
    pub low: f64,
    pub high: f64,
}

impl Share {
    pub fn new(count: usize, of: usize) -> Share {
        let (low, high) = wilson(count, of);
        Share {
            count,
            of,
            low,
            high,
        }
    }

    pub fn rate(&self) -> f64 {
        if self.of == 0 {
            0.0
        } else {
            self.count as f64 / self.of as f64
        }
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = k as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The tallies of a simulation.
#[derive(Clone, Debug)]
pub struct Report {
    pub games: usize,
    pub red_wins: Share,
    pub blue_wins: Share,
    pub draws: Share,
    /// Wins of each bot over all games, whichever side it played.
    pub bot_wins: [Share; 2],
    /// Each bot's wins among decided games only.
    pub bot_decided_wins: [Share; 2],
    /// Each bot's wins by the side it played (`[bot][red, blue]`), of the games it played
    /// that side: with `--swap`, whether a bot is stronger as one side than the other.
    pub bot_wins_as: [[Share; 2]; 2],
    pub mean_turns: f64,
    /// Mean share of each side's army lost (red, blue).
    pub mean_losses_percent: [f64; 2],
    pub mean_actions: f64,
    /// How long each bot took to decide, whichever side it played.
    pub bot_thinking: [BotThinking; 2],
}

/// A bot's time to decide over a simulation's games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BotThinking {
    /// All of its decisions.
    pub seconds: f64,
    /// The player turns in which it decided anything.
    pub turns: u32,
    /// The player turn it spent longest on, and in which game (its index in the simulation's
    /// games, counted from 0).
    pub longest: TurnTime,
    pub longest_game: usize,
}

impl BotThinking {
    fn of(played: &[Played], bot: usize) -> BotThinking {
        let mut out = BotThinking::default();
        for (i, p) in played.iter().enumerate() {
            let side = if p.red_bot == bot { 0 } else { 1 };
            let t = &p.record.thinking[side];
            out.seconds += t.seconds;
            out.turns += t.turns;
            if t.longest.seconds > out.longest.seconds {
                out.longest = t.longest;
                out.longest_game = i;
            }
        }
        out
    }

    /// The mean time of a player turn in which it decided anything.
    pub fn mean_turn_seconds(&self) -> f64 {
        if self.turns == 0 {
            0.0
        } else {
            self.seconds / f64::from(self.turns)
        }
    }

    /// Both tallies as one (the same bot on both sides).
    #[must_use]
    pub fn and(self, other: BotThinking) -> BotThinking {
        let longer = if other.longest.seconds > self.longest.seconds {
            other
        } else {
            self
        };
        BotThinking {
            seconds: self.seconds + other.seconds,
            turns: self.turns + other.turns,
            ..longer
        }
    }
}

impl Report {
    pub fn of(played: &[Played]) -> Report {
        let n = played.len();
        let count = |f: &dyn Fn(&Played) -> bool| played.iter().filter(|p| f(p)).count();
        let red = count(&|p| p.record.winner == Some(Side::Red));
        let blue = count(&|p| p.record.winner == Some(Side::Blue));
        let draws = n - red - blue;
        let bot_won = |b: usize| {
            count(&|p| {
                let side = if p.red_bot == b {
                    Side::Red
                } else {
                    Side::Blue
                };
                p.record.winner == Some(side)
            })
        };
        let wins = [bot_won(0), bot_won(1)];
        let as_side = |b: usize, side: Side| {
            // Whether bot `b` played `side` in this game.
            let plays = |p: &Played| (p.red_bot == b) == (side == Side::Red);
            Share::new(
                count(&|p| plays(p) && p.record.winner == Some(side)),
                count(&|p| plays(p)),
            )
        };
        let bot_wins_as = [0, 1].map(|b| [as_side(b, Side::Red), as_side(b, Side::Blue)]);
        let decided = n - draws;
        let mean = |f: &dyn Fn(&Played) -> f64| {
            if n == 0 {
                0.0
            } else {
                played.iter().map(f).sum::<f64>() / n as f64
            }
        };
        Report {
            games: n,
            red_wins: Share::new(red, n),
            blue_wins: Share::new(blue, n),
            draws: Share::new(draws, n),
            bot_wins: [Share::new(wins[0], n), Share::new(wins[1], n)],
            bot_decided_wins: [Share::new(wins[0], decided), Share::new(wins[1], decided)],
            bot_wins_as,
            mean_turns: mean(&|p| p.record.turns as f64),
            mean_losses_percent: [
                mean(&|p| p.record.losses_percent[0]),
                mean(&|p| p.record.losses_percent[1]),
            ],
            mean_actions: mean(&|p| p.record.actions as f64),
            bot_thinking: [BotThinking::of(played, 0), BotThinking::of(played, 1)],
        }
    }
}

/// Red's share of decided games between equal bots must lie in this range (issue 15).
pub const BALANCED_RED_SHARE: (f64, f64) = (0.35, 0.65);
/// … and at least this share of the games must end decided.
pub const BALANCED_DECIDED: f64 = 0.80;

/// Whether a scenario is fair between equal bots: red's share of the decided games and the
/// share of games decided, against [`BALANCED_RED_SHARE`] and [`BALANCED_DECIDED`]. The
/// verdict is taken on the measured shares; [`Balance::sure`] says whether the 95% intervals
/// agree with it.
#[derive(Clone, Copy, Debug)]
pub struct Balance {
    /// Red's wins among the decided games.
    pub red_of_decided: Share,
    /// The decided games among all games.
    pub decided: Share,
}

impl Balance {
    pub fn of(report: &Report) -> Balance {
        let decided = report.games - report.draws.count;
        Balance {
            red_of_decided: Share::new(report.red_wins.count, decided),
            decided: Share::new(decided, report.games),
        }
    }

    fn red_share_in_range(&self) -> bool {
        let (lo, hi) = BALANCED_RED_SHARE;
        let r = self.red_of_decided.rate();
        self.red_of_decided.of > 0 && (lo..=hi).contains(&r)
    }

    fn decided_enough(&self) -> bool {
        self.decided.rate() >= BALANCED_DECIDED
    }

    /// Both targets met by the measured shares.
    pub fn balanced(&self) -> bool {
        self.red_share_in_range() && self.decided_enough()
    }

    /// Whether the 95% intervals lie wholly on the verdict's side of each target, so more
    /// games would not be expected to change it.
    pub fn sure(&self) -> bool {
        let (lo, hi) = BALANCED_RED_SHARE;
        let r = &self.red_of_decided;
        // With no game decided there is no red share to be sure of (and no verdict on it).
        let red_sure = if r.of == 0 {
            true
        } else if self.red_share_in_range() {
            r.low >= lo && r.high <= hi
        } else {
            r.high < lo || r.low > hi
        };
        let d = &self.decided;
        let decided_sure = if self.decided_enough() {
            d.low >= BALANCED_DECIDED
        } else {
            d.high < BALANCED_DECIDED
        };
        red_sure && decided_sure
    }

    /// What is wrong, one sentence a target missed (empty when balanced).
    pub fn problems(&self) -> Vec<String> {
        let (lo, hi) = BALANCED_RED_SHARE;
        let pct = |x: f64| format!("{:.0}", 100.0 * x);
        let targets = format!("targets {}–{}%", pct(lo), pct(hi));
        let r = &self.red_of_decided;
        let red = format!(
            "{}% ({}–{}%) of decided games",
            pct(r.rate()),
            pct(r.low),
            pct(r.high)
        );
        let mut out = Vec::new();
        if r.of > 0 && r.rate() > hi {
            out.push(format!("red wins too often: {red}; {targets}"));
        } else if r.of > 0 && r.rate() < lo {
            out.push(format!(
                "blue wins too often: red wins only {red}; {targets}"
            ));
        }
        if !self.decided_enough() {
            let d = &self.decided;
            let what = if d.count == 0 {
                format!("no game of {} was decided", d.of)
            } else {
                format!(
                    "only {}% ({}–{}%) of games decided",
                    pct(d.rate()),
                    pct(d.low),
                    pct(d.high)
                )
            };
            out.push(format!(
                "too many draws: {what}; target at least {}%",
                pct(BALANCED_DECIDED)
            ));
        }
        out
    }
}

/// Plays `sim.games` games from `new_game` (a freshly loaded game each call), `sim.threads`
/// at a time, and returns them in game order: the result does not depend on the number of
/// threads (unless a bot searches by the clock). `done` is called after each game.
///
/// # Errors
///
/// The first game that fails (see [`play_game`]), or a bad bot spec.
pub fn simulate(
    sim: &Simulation,
    new_game: &(dyn Fn() -> Box<dyn Game> + Sync),
    done: &(dyn Fn(&Played) + Sync),
) -> Result<Vec<Played>, String> {
    for spec in &sim.bots {
        bot_from_spec(spec, 0)?;
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Played, String>>>> =
        Mutex::new((0..sim.games).map(|_| None).collect());
    let threads = sim.threads.clamp(1, sim.games.max(1));
    // Games side by side take the cores already: the bots' own helper threads would only
    // crowd them (a bot decides the same on any number of threads).
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let worker = || loop {
        if threads > 1 {
            crate::heuristic::cap_threads_here(cores / threads);
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= sim.games {
            break;
        }
        let outcome = play_one(sim, i, new_game());
        if let Ok(p) = &outcome {
            done(p);
        }
        let failed = outcome.is_err();
        results.lock().expect("no worker panicked")[i] = Some(outcome);
        if failed {
            // Let the other workers finish their games but start no more.
            next.store(sim.games, Ordering::Relaxed);
        }
    };
    if threads == 1 {
        worker();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(worker);
            }
        });
    }
    results
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .flatten()
        .collect()
}

fn play_one(sim: &Simulation, i: usize, game: Box<dyn Game>) -> Result<Played, String> {
    let seed = crate::game_seed(sim.seed, i);
    let red_bot = if sim.swap && i % 2 == 1 { 1 } else { 0 };
    let blue_bot = 1 - red_bot;
    let mut bots = [
        bot_from_spec(&sim.bots[red_bot], seed ^ 0x5eed_0001)?,
        bot_from_spec(&sim.bots[blue_bot], seed ^ 0x5eed_0002)?,
    ];
    let record = play_game(game, &mut bots, Seed::from_u64(seed), sim.max_actions)
        .map_err(|e| format!("game {} (seed {seed}): {e}", i + 1))?;
    Ok(Played { red_bot, record })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_the_textbook_values() {
        // 8 of 10: 0.490 to 0.943 (Wilson 1927; Newcombe 1998, table I).
        let (lo, hi) = wilson(8, 10);
        assert!(
            (lo - 0.490).abs() < 0.001 && (hi - 0.943).abs() < 0.001,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.278).abs() < 0.001, "{hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn a_bots_time_is_summed_by_player_turn_and_its_longest_turn_kept() {
        let mut t = Thinking::default();
        let mut current = TurnTime::default();
        // Turn 1: two decisions while red phases, one while blue does; turn 2 with red
        // phasing again is a new player turn.
        for (seconds, turn, phasing) in [
            (0.5, 1, Some(Side::Red)),
            (0.25, 1, Some(Side::Red)),
            (1.0, 1, Some(Side::Blue)),
            (0.5, 2, Some(Side::Red)),
            (0.5, 2, Some(Side::Red)),
            (0.5, 2, Some(Side::Red)),
        ] {
            t.add(seconds, turn, phasing, &mut current);
        }
        assert_eq!(t.turns, 3);
        assert_eq!(t.seconds, 3.25);
        assert_eq!(
            t.longest,
            TurnTime {
                seconds: 1.5,
                turn: 2,
                phasing: Some(Side::Red)
            }
        );
        // Over a simulation: the bot's longest turn and the game it came in, by the side it
        // played in each game.
        let mut first = game(0, None);
        first.record.thinking[0] = t;
        let mut second = game(1, None);
        second.record.thinking[1] = Thinking {
            seconds: 2.0,
            turns: 1,
            longest: TurnTime {
                seconds: 2.0,
                turn: 4,
                phasing: None,
            },
        };
        let played = [first, second];
        let bot = BotThinking::of(&played, 0);
        assert_eq!((bot.longest_game, bot.longest.turn), (1, 4));
        assert_eq!(bot.mean_turn_seconds(), 5.25 / 4.0);
        // The other bot played blue in the first game and red in the second: nothing.
        assert_eq!(BotThinking::of(&played, 1).turns, 0);
        let both = bot.and(BotThinking::of(&played, 1));
        assert_eq!((both.turns, both.longest.seconds), (4, 2.0));
    }

    /// A one-turn game with bot `red_bot` playing red.
    fn game(red_bot: usize, winner: Option<Side>) -> Played {
        Played {
            red_bot,
            record: GameRecord {
                winner,
                reason: String::new(),
                turns: 1,
                losses_percent: [0.0; 2],
                actions: 1,
                thinking: [Thinking::default(); 2],
            },
        }
    }

    fn report(red: usize, blue: usize, draws: usize) -> Report {
        let game = |winner| game(0, winner);
        let played: Vec<Played> = std::iter::repeat_n(Some(Side::Red), red)
            .chain(std::iter::repeat_n(Some(Side::Blue), blue))
            .chain(std::iter::repeat_n(None, draws))
            .map(game)
            .collect();
        Report::of(&played)
    }

    #[test]
    fn each_bots_wins_are_told_by_the_side_it_played() {
        // Bot 0 plays red in three games (wins two) and blue in two (wins none, one drawn).
        let played = [
            game(0, Some(Side::Red)),
            game(0, Some(Side::Red)),
            game(0, Some(Side::Blue)),
            game(1, Some(Side::Red)),
            game(1, None),
        ];
        let r = Report::of(&played);
        let counts = |b: usize| r.bot_wins_as[b].map(|s| (s.count, s.of));
        assert_eq!(counts(0), [(2, 3), (0, 2)]);
        assert_eq!(counts(1), [(1, 2), (1, 3)]);
        assert_eq!(r.bot_wins[0].count, 2);
        assert_eq!(r.bot_wins[1].count, 2);
    }

    #[test]
    fn balance_names_the_side_that_wins_too_often_and_too_many_draws() {
        let even = Balance::of(&report(50, 50, 0));
        assert!(even.balanced() && even.sure() && even.problems().is_empty());
        // Inside the targets, but 20 games cannot tell.
        let few = Balance::of(&report(10, 10, 0));
        assert!(few.balanced() && !few.sure());

        let red = Balance::of(&report(88, 12, 0));
        assert!(!red.balanced() && red.sure());
        assert_eq!(
            red.problems(),
            ["red wins too often: 88% (80–93%) of decided games; targets 35–65%"]
        );
        let blue = Balance::of(&report(3, 37, 0));
        assert_eq!(
            blue.problems(),
            ["blue wins too often: red wins only 8% (3–20%) of decided games; targets 35–65%"]
        );
        let drawn = Balance::of(&report(20, 20, 20));
        assert!(!drawn.balanced());
        assert_eq!(drawn.red_of_decided.of, 40);
        assert_eq!(
            drawn.problems(),
            ["too many draws: only 67% (54–77%) of games decided; target at least 80%"]
        );
        let none = Balance::of(&report(0, 0, 5));
        assert_eq!(
            none.problems(),
            ["too many draws: no game of 5 was decided; target at least 80%"]
        );
        assert!(none.sure());
    }
}
