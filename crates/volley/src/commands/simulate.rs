//! `volley simulate`: many games between two bots, with the tallies and their confidence.

use super::{line, parse_options, stdout, Failure, Outcome};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::time::Instant;
use volley_ai::{Report, Share, Simulation};

/// Play many games between two bots and report wins, losses and draws for each side (with
/// 95% Wilson confidence intervals), mean turns, mean losses and games per second.
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

Bots: random, heuristic, mcts (mcts:ms=N or mcts:iters=N per decision; threads=N, depth=N, c=X),
and the difficulty names easy, normal (= heuristic) and hard (= mcts:ms=300).")]
pub struct Args {
    /// A bundled scenario's name (see `volley scenarios`) or a scenario file.
    scenario: String,
    /// The bot playing red (blue in every other game with --swap).
    #[arg(long, value_name = "BOT")]
    red: String,
    /// The bot playing blue (red in every other game with --swap).
    #[arg(long, value_name = "BOT")]
    blue: String,
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
    /// each bot's wins, whichever side it played).
    #[arg(long)]
    swap: bool,
    /// A game option, overriding the scenario's [options]; repeat for several.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// One JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Give up (with an error) on a game that has not ended after this many actions.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    max_actions: u64,
}

pub fn run(args: Args) -> Outcome {
    if args.games == 0 {
        return Err(Failure::Message("--games must be at least 1".into()));
    }
    let options = parse_options(&args.options)?;
    let (name, source) =
        volley_rulesets::scenario_source(&args.scenario).map_err(|e| e.to_string())?;
    let ruleset = volley_rulesets::ruleset_of(&source).map_err(|e| e.to_string())?;
    // Load once up front (a bad scenario or option is reported before any game starts), and
    // start every game from a copy.
    let loaded = ruleset.load(&source, &options).map_err(|e| e.to_string())?;
    let new_game = || loaded.clone_game();
    for (flag, spec) in [("--red", &args.red), ("--blue", &args.blue)] {
        volley_ai::bot_from_spec(spec, 0).map_err(|e| format!("{flag}: {e}"))?;
    }
    let sim = Simulation {
        bots: [args.red.clone(), args.blue.clone()],
        games: args.games,
        seed: args.seed,
        threads: args.threads.max(1),
        swap: args.swap,
        max_actions: args.max_actions,
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
    let per_second = report.games as f64 / seconds.max(1e-9);
    let mut out = stdout();
    if args.json {
        let share = |s: &Share| json!({"count": s.count, "of": s.of, "rate": s.rate(), "ci95": [s.low, s.high]});
        let bots: Vec<_> = (0..2)
            .map(|b| {
                json!({
                    "bot": sim.bots[b],
                    "wins": share(&report.bot_wins[b]),
                    "wins_of_decided": share(&report.bot_decided_wins[b]),
                })
            })
            .collect();
        let value = json!({
            "scenario": name,
            "red": args.red,
            "blue": args.blue,
            "swap": args.swap,
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
        line(&mut out, &value.to_string())?;
    } else {
        for l in table(&name, &sim, &report, seconds, per_second) {
            line(&mut out, &l)?;
        }
    }
    out.flush()?;
    Ok(())
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
    if sim.swap {
        for b in 0..2 {
            out.push(format!(
                "  {} wins {} — of decided games {:.1}% (95% CI {:.1}–{:.1}%)",
                sim.bots[b],
                percent(&r.bot_wins[b]),
                100.0 * r.bot_decided_wins[b].rate(),
                100.0 * r.bot_decided_wins[b].low,
                100.0 * r.bot_decided_wins[b].high
            ));
        }
    }
    out.push(format!(
        "  mean turns {:.2}, mean actions {:.0}, mean losses red {:.1}% blue {:.1}%",
        r.mean_turns, r.mean_actions, r.mean_losses_percent[0], r.mean_losses_percent[1]
    ));
    out.push(format!(
        "  {:.1} s, {:.2} games/s ({} thread{})",
        seconds,
        per_second,
        sim.threads,
        if sim.threads == 1 { "" } else { "s" }
    ));
    out
}
