//! `volley simulate`: many games between two bots, with the tallies and their confidence.

use super::{line, parse_options, stdout, Failure, Outcome};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::time::Instant;
use volley_ai::{
    Balance, BotThinking, Report, Share, Simulation, BALANCED_DECIDED, BALANCED_RED_SHARE,
};

/// Play many games between two bots and report wins, losses and draws for each side (with
/// 95% Wilson confidence intervals), mean turns, mean losses and games per second.
///
/// It also says how long each bot took to decide: its mean time a player turn (all of its
/// decisions while one side is phasing in one game turn) and its longest player turn, with
/// the game (counted from 1), turn and phasing side. Games played side by side (--threads)
/// share the cores, so time a bot with --threads 1.
///
/// With --balance, one bot (--bot, the heuristic unless told) plays both sides, and the
/// report says whether the scenario is fair between equal players: red should win 35–65% of
/// the decided games, and at least 80% of the games should be decided. A scenario author can
/// check a scenario file this way before sharing it.
///
/// Game i is played with a seed derived from --seed and i, so the same command gives the
/// same figures whatever --threads is (for bots with an iteration budget; `mcts:ms=N`
/// searches by the clock).
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley simulate hc-crossroads --red heuristic --blue random --games 200 --swap
  volley simulate hc-crossroads --red mcts:ms=100 --blue heuristic --games 200 --swap --threads 2
  volley simulate hc-first-clash --red random --blue random --games 1000 --json
  volley simulate my-battle.toml --balance --games 100
  volley simulate hc-crossroads --balance --bot hard --games 200 --threads 2

Reading a balance report: \"red wins too often: 88% (81–93%) of decided games\" means red
won 88% of the games that had a winner, and with 95% confidence between 81% and 93%: the
scenario favours red (give blue more troops, better ground, more turns or victory points).
\"too many draws\" means the battle rarely ends in a win (give the attacker more time, or
make the objectives count). When the intervals reach past a target, the report says so:
play more games before changing the scenario.

Bots: random, heuristic (settings candidates=N, samples=N, follow=N, reply=N,
horizon=0|1|2, halving=N, blunder=X, threads=N (the same decisions, sooner), turn_lines=N
(a budget of lines a player turn); on maps of over 120 units crowd_candidates=N,
crowd_samples=N, crowd_reply=N and crowd_approach=X; and the evaluation's weights such
as approach=X or cover=X, to screen them against normal), mcts (mcts:ms=N or
mcts:iters=N per decision; threads=N, depth=N, c=X), and the difficulty names easy,
normal (= heuristic) and hard (= heuristic:candidates=16,samples=12,reply=10,horizon=2,
crowd_candidates=8,crowd_samples=4,crowd_approach=0.09,race=0.15,worth=12,threads=2).")]
pub struct Args {
    /// A bundled scenario's name (see `volley scenarios`) or a scenario file.
    scenario: String,
    /// The bot playing red (blue in every other game with --swap).
    #[arg(long, value_name = "BOT", required_unless_present = "balance")]
    red: Option<String>,
    /// The bot playing blue (red in every other game with --swap).
    #[arg(long, value_name = "BOT", required_unless_present = "balance")]
    blue: Option<String>,
    /// Judge the scenario's balance: --bot plays both sides (swapped in every other game),
    /// and the report ends with a verdict against the targets (red wins 35–65% of decided
    /// games, at least 80% of games decided).
    #[arg(long, conflicts_with_all = ["red", "blue"])]
    balance: bool,
    /// With --balance, the bot playing both sides.
    #[arg(
        long,
        value_name = "BOT",
        requires = "balance",
        default_value = "heuristic"
    )]
    bot: String,
    /// Games to play.
    #[arg(long, value_name = "N", default_value_t = 100)]
    games: usize,
    /// The seed all games' dice and bots are derived from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Swap which bot plays which side in every other game (the report then also gives
    /// each bot's wins in all and by the side it played).
    #[arg(long)]
    swap: bool,
    /// One JSON object instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: super::BotGames,
}

pub fn run(args: Args) -> Outcome {
    if args.games == 0 {
        return Err(Failure::Message("--games must be at least 1".into()));
    }
    let options = parse_options(&args.game.options)?;
    let (name, source) =
        volley_rulesets::scenario_source(&args.scenario).map_err(|e| e.to_string())?;
    let ruleset = volley_rulesets::ruleset_of(&source).map_err(|e| e.to_string())?;
    // Load once up front (a bad scenario or option is reported before any game starts), and
    // start every game from a copy.
    let loaded = ruleset.load(&source, &options).map_err(|e| e.to_string())?;
    let new_game = || loaded.clone_game();
    let (red, blue) = if args.balance {
        (args.bot.clone(), args.bot.clone())
    } else {
        match (args.red.clone(), args.blue.clone()) {
            (Some(red), Some(blue)) => (red, blue),
            _ => {
                return Err(Failure::Message(
                    "give --red and --blue, or --balance".into(),
                ))
            }
        }
    };
    let flags: [&str; 2] = if args.balance {
        ["--bot", "--bot"]
    } else {
        ["--red", "--blue"]
    };
    for (flag, spec) in flags.into_iter().zip([&red, &blue]) {
        volley_ai::bot_from_spec(spec, 0).map_err(|e| format!("{flag}: {e}"))?;
    }
    let sim = Simulation {
        bots: [red, blue],
        games: args.games,
        seed: args.seed,
        threads: args.threads.max(1),
        swap: args.swap || args.balance,
        max_actions: args.game.max_actions,
    };
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(args.games as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
                .expect("a valid template"),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let played = volley_ai::simulate(&sim, &new_game, &|_| bar.inc(1))?;
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let report = Report::of(&played);
    let balance = args.balance.then(|| Balance::of(&report));
    let per_second = report.games as f64 / seconds.max(1e-9);
    let mut out = stdout();
    if args.json {
        let bots: Vec<_> = (0..2)
            .map(|b| {
                json!({
                    "bot": sim.bots[b],
                    "wins": share(&report.bot_wins[b]),
                    "wins_of_decided": share(&report.bot_decided_wins[b]),
                    "wins_as_red": share(&report.bot_wins_as[b][0]),
                    "wins_as_blue": share(&report.bot_wins_as[b][1]),
                    "thinking": thinking(&report.bot_thinking[b]),
                })
            })
            .collect();
        let mut value = json!({
            "scenario": name,
            "red": sim.bots[0],
            "blue": sim.bots[1],
            "swap": sim.swap,
            "seed": args.seed,
            "threads": sim.threads,
            "games": report.games,
            "red_wins": report.red_wins.count,
            "blue_wins": report.blue_wins.count,
            "draws": report.draws.count,
            "red_win_rate": share(&report.red_wins),
            "blue_win_rate": share(&report.blue_wins),
            "draw_rate": share(&report.draws),
            "bots": bots,
            "mean_turns": report.mean_turns,
            "mean_losses_percent": {"red": report.mean_losses_percent[0], "blue": report.mean_losses_percent[1]},
            "mean_actions": report.mean_actions,
            "seconds": seconds,
            "games_per_second": per_second,
        });
        if let Some(b) = &balance {
            let problems = b.problems();
            value["balance"] = json!({
                "bot": args.bot,
                "red_of_decided": share(&b.red_of_decided),
                "decided": share(&b.decided),
                "targets": {
                    "red_of_decided": [BALANCED_RED_SHARE.0, BALANCED_RED_SHARE.1],
                    "decided_at_least": BALANCED_DECIDED,
                },
                "balanced": b.balanced(),
                "sure": b.sure(),
                "verdict": verdict(b, &problems).0,
                "summary": verdict(b, &problems).1,
                "problems": problems,
            });
        }
        line(&mut out, &value.to_string())?;
    } else {
        let mut lines = table(&name, &sim, &report, seconds, per_second);
        if let Some(b) = &balance {
            // The two shares judged under the wins and draws, the verdict last.
            let (shares, verdict) = balance_lines(b);
            lines.splice(4..4, shares);
            lines.extend(verdict);
        }
        for l in lines {
            line(&mut out, &l)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// A bot's time to decide, in seconds, for `--json`.
fn thinking(t: &BotThinking) -> serde_json::Value {
    json!({
        "mean_turn_seconds": t.mean_turn_seconds(),
        "longest_turn_seconds": t.longest.seconds,
        "longest_turn": {
            "game": t.longest_game + 1,
            "turn": t.longest.turn,
            "phasing": t.longest.phasing.map(|s| s.to_string()),
        },
    })
}

/// A bot's time to decide, as a line of the table.
fn thinking_line(bot: &str, t: &BotThinking) -> String {
    let phasing = t
        .longest
        .phasing
        .map(|s| format!(", {s} phasing"))
        .unwrap_or_default();
    // Seconds, or milliseconds under one.
    let time = |s: f64| {
        if s < 1.0 {
            format!("{:.1} ms", 1000.0 * s)
        } else {
            format!("{s:.2} s")
        }
    };
    format!(
        "  {bot} took {} a player turn on average, {} at the longest (game {}, turn {}{phasing})",
        time(t.mean_turn_seconds()),
        time(t.longest.seconds),
        t.longest_game + 1,
        t.longest.turn
    )
}

fn share(s: &Share) -> serde_json::Value {
    json!({"count": s.count, "of": s.of, "rate": s.rate(), "ci95": [s.low, s.high]})
}

/// The verdict's first word (`balanced` or `unbalanced`) and the sentence that explains it.
fn verdict(b: &Balance, problems: &[String]) -> (&'static str, String) {
    if !problems.is_empty() {
        return ("unbalanced", problems.join("; and "));
    }
    let r = &b.red_of_decided;
    let d = &b.decided;
    let mut text = format!(
        "balanced: red wins {:.0}% ({:.0}–{:.0}%) of decided games, {:.0}% of games decided",
        100.0 * r.rate(),
        100.0 * r.low,
        100.0 * r.high,
        100.0 * d.rate()
    );
    if !b.sure() {
        text.push_str(
            " — but the 95% intervals reach past the targets: play more games to be sure",
        );
    }
    ("balanced", text)
}

/// The balance report's lines: the two shares against their targets, and the verdict.
fn balance_lines(b: &Balance) -> (Vec<String>, Vec<String>) {
    let (lo, hi) = BALANCED_RED_SHARE;
    let problems = b.problems();
    let shares = vec![
        format!(
            "  red, of decided games {:5.1}% (95% CI {:5.1}–{:5.1}%), target {:.0}–{:.0}%",
            100.0 * b.red_of_decided.rate(),
            100.0 * b.red_of_decided.low,
            100.0 * b.red_of_decided.high,
            100.0 * lo,
            100.0 * hi
        ),
        format!(
            "  decided games         {:5.1}% (95% CI {:5.1}–{:5.1}%), target at least {:.0}%",
            100.0 * b.decided.rate(),
            100.0 * b.decided.low,
            100.0 * b.decided.high,
            100.0 * BALANCED_DECIDED
        ),
    ];
    let mut out = Vec::new();
    if problems.is_empty() {
        out.push(format!("verdict: {}", verdict(b, &problems).1));
    } else {
        // One target missed a line.
        for (i, p) in problems.iter().enumerate() {
            let head = if i == 0 {
                "verdict: unbalanced —"
            } else {
                "         and"
            };
            out.push(format!("{head} {p}"));
        }
        if !b.sure() {
            out.push(
                "         (an interval reaches the targets: play more games to be sure)".into(),
            );
        }
    }
    (shares, out)
}

fn percent(s: &Share) -> String {
    format!(
        "{:>5} ({:5.1}%, 95% CI {:5.1}–{:5.1}%)",
        s.count,
        100.0 * s.rate(),
        100.0 * s.low,
        100.0 * s.high
    )
}

fn table(name: &str, sim: &Simulation, r: &Report, seconds: f64, per_second: f64) -> Vec<String> {
    let mut out = vec![
        format!(
            "{name}: {} games, red {} vs blue {}{}, seed {}",
            r.games,
            sim.bots[0],
            sim.bots[1],
            if sim.swap {
                " (sides swapped in every other game)"
            } else {
                ""
            },
            sim.seed
        ),
        format!("  red wins   {}", percent(&r.red_wins)),
        format!("  blue wins  {}", percent(&r.blue_wins)),
        format!("  draws      {}", percent(&r.draws)),
    ];
    // Equal bots (a balance run) have no per-bot tally worth telling apart.
    if sim.swap && sim.bots[0] != sim.bots[1] {
        for b in 0..2 {
            out.push(format!(
                "  {} wins {} — of decided games {:.1}% (95% CI {:.1}–{:.1}%)",
                sim.bots[b],
                percent(&r.bot_wins[b]),
                100.0 * r.bot_decided_wins[b].rate(),
                100.0 * r.bot_decided_wins[b].low,
                100.0 * r.bot_decided_wins[b].high
            ));
            let [red, blue] = &r.bot_wins_as[b];
            out.push(format!(
                "    as red {} of {} ({:.1}%), as blue {} of {} ({:.1}%)",
                red.count,
                red.of,
                100.0 * red.rate(),
                blue.count,
                blue.of,
                100.0 * blue.rate()
            ));
        }
    }
    out.push(format!(
        "  mean turns {:.2}, mean actions {:.0}, mean losses red {:.1}% blue {:.1}%",
        r.mean_turns, r.mean_actions, r.mean_losses_percent[0], r.mean_losses_percent[1]
    ));
    if sim.bots[0] == sim.bots[1] {
        // One bot on both sides: its time over both.
        let both = r.bot_thinking[0].and(r.bot_thinking[1]);
        out.push(thinking_line(&sim.bots[0], &both));
    } else {
        for b in 0..2 {
            out.push(thinking_line(&sim.bots[b], &r.bot_thinking[b]));
        }
    }
    out.push(format!(
        "  {:.1} s, {:.2} games/s ({} thread{})",
        seconds,
        per_second,
        sim.threads,
        if sim.threads == 1 { "" } else { "s" }
    ));
    out
}
