//! `volley tournament`: a round robin between bots on one or more scenarios, and their Elo
//! ratings.

use super::{line, parse_options, stdout, Failure, Outcome};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::{IsTerminal, Write};
use volley_ai::rating::Results;
use volley_ai::{Report, Simulation};

/// Play every pair of bots against each other on each scenario (sides swapped in every
/// other game) and rate them on the Elo scale: a Bradley–Terry fit of all the games, a draw
/// counting half a point to each, with 95% intervals.
///
/// The ratings say how the bots compare on these scenarios only; 100 Elo is about 64% of the
/// points, 200 about 76%, 400 about 91%.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley tournament hc-first-clash sad-river-crossing --games 20
  volley tournament hc-crossroads --bots random,easy,normal --games 40 --threads 2 --json
  volley tournament my-battle.toml --bots normal,mcts:iters=200 --games 100 --anchor normal

Bots: random, heuristic (settings candidates=N, samples=N, follow=N, reply=N,
horizon=0|1|2, halving=N, blunder=X, threads=N (the same decisions, sooner), turn_lines=N
(a budget of lines a player turn); on maps of over 120 units crowd_candidates=N,
crowd_samples=N, crowd_reply=N and crowd_approach=X; and the evaluation's weights such
as approach=X or cover=X), mcts (mcts:ms=N or mcts:iters=N per decision; threads=N,
depth=N, c=X), and the difficulty names easy, normal (= heuristic) and hard.")]
pub struct Args {
    /// Bundled scenarios' names (see `volley scenarios`) or scenario files.
    #[arg(required = true, value_name = "SCENARIO")]
    scenarios: Vec<String>,
    /// The bots, separated by commas.
    #[arg(
        long,
        value_name = "BOT,BOT,…",
        value_delimiter = ',',
        default_value = "random,easy,normal,hard"
    )]
    bots: Vec<String>,
    /// Games for each pair of bots on each scenario.
    #[arg(long, value_name = "N", default_value_t = 20)]
    games: usize,
    /// The seed all games' dice and bots are derived from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// The bot rated 0 (default: random if it plays, else the bots' mean).
    #[arg(long, value_name = "BOT")]
    anchor: Option<String>,
    /// One JSON object instead of the tables.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: super::BotGames,
}

/// One pairing's tally on one scenario.
struct Pairing {
    scenario: String,
    bots: [usize; 2],
    wins: [usize; 2],
    draws: usize,
}

pub fn run(args: Args) -> Outcome {
    if args.games == 0 {
        return Err(Failure::Message("--games must be at least 1".into()));
    }
    let bots: Vec<String> = args
        .bots
        .iter()
        .map(|b| b.trim().to_string())
        .filter(|b| !b.is_empty())
        .collect();
    if bots.len() < 2 {
        return Err(Failure::Message(
            "--bots needs at least two bots, separated by commas".into(),
        ));
    }
    for (k, b) in bots.iter().enumerate() {
        volley_ai::bot_from_spec(b, 0).map_err(|e| format!("--bots: {e}"))?;
        if bots[..k].contains(b) {
            return Err(Failure::Message(format!("--bots: \"{b}\" is named twice")));
        }
    }
    let anchor = match &args.anchor {
        Some(a) => Some(
            bots.iter()
                .position(|b| b == a)
                .ok_or_else(|| format!("--anchor: \"{a}\" is not among --bots"))?,
        ),
        None => bots.iter().position(|b| b == "random"),
    };
    let options = parse_options(&args.game.options)?;
    // Every scenario is loaded before any game is played.
    let mut loaded = Vec::new();
    for s in &args.scenarios {
        let (name, source) = volley_rulesets::scenario_source(s).map_err(|e| e.to_string())?;
        let ruleset = volley_rulesets::ruleset_of(&source).map_err(|e| format!("{s}: {e}"))?;
        let game = ruleset
            .load(&source, &options)
            .map_err(|e| format!("{s}: {e}"))?;
        loaded.push((name, game));
    }
    let pairs: Vec<[usize; 2]> = (0..bots.len())
        .flat_map(|i| (i + 1..bots.len()).map(move |j| [i, j]))
        .collect();
    let total = (loaded.len() * pairs.len() * args.games) as u64;
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {msg}, eta {eta}")
                .expect("a valid template"),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut results = Results::new(bots.clone());
    let mut pairings = Vec::new();
    for (s, (name, game)) in loaded.iter().enumerate() {
        for (p, pair) in pairs.iter().enumerate() {
            bar.set_message(format!("{name}: {} vs {}", bots[pair[0]], bots[pair[1]]));
            let sim = Simulation {
                bots: [bots[pair[0]].clone(), bots[pair[1]].clone()],
                games: args.games,
                seed: volley_ai::game_seed(args.seed, s * pairs.len() + p),
                threads: args.threads.max(1),
                swap: true,
                max_actions: args.game.max_actions,
            };
            let new_game = || game.clone_game();
            let played = volley_ai::simulate(&sim, &new_game, &|_| bar.inc(1))?;
            let r = Report::of(&played);
            let wins = [r.bot_wins[0].count, r.bot_wins[1].count];
            results.add(pair[0], pair[1], wins[0], wins[1], r.draws.count);
            pairings.push(Pairing {
                scenario: name.clone(),
                bots: *pair,
                wins,
                draws: r.draws.count,
            });
        }
    }
    bar.finish_and_clear();
    let ratings = results.ratings(anchor);
    let mut out = stdout();
    if args.json {
        let value = json!({
            "scenarios": loaded.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
            "bots": bots,
            "games_per_pair": args.games,
            "seed": args.seed,
            "anchor": anchor.map(|a| bots[a].clone()),
            "ratings": ratings.iter().map(|r| json!({
                "bot": r.player,
                "elo": r.elo,
                "ci95": r.plus_minus,
                "games": r.games,
                "score": r.score,
            })).collect::<Vec<_>>(),
            "pairings": pairings.iter().map(|p| json!({
                "scenario": p.scenario,
                "bots": [bots[p.bots[0]].clone(), bots[p.bots[1]].clone()],
                "wins": p.wins,
                "draws": p.draws,
            })).collect::<Vec<_>>(),
        });
        line(&mut out, &value.to_string())?;
    } else {
        line(
            &mut out,
            &format!(
                "Round robin of {} bots on {}: {} games a pair a scenario, sides swapped, seed {}",
                bots.len(),
                loaded
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                args.games,
                args.seed
            ),
        )?;
        line(&mut out, "")?;
        line(
            &mut out,
            &format!(
                "  {:<24} {:>6} {:>8} {:>6} {:>6}",
                "bot", "Elo", "95%", "games", "score"
            ),
        )?;
        for r in &ratings {
            let pm = match r.plus_minus {
                Some(x) => format!("±{x:.0}"),
                None if Some(&r.player) == anchor.map(|a| &bots[a]) => "anchor".into(),
                None => "—".into(),
            };
            line(
                &mut out,
                &format!(
                    "  {:<24} {:>6.0} {:>8} {:>6.0} {:>5.1}%",
                    r.player,
                    r.elo,
                    pm,
                    r.games,
                    100.0 * r.score
                ),
            )?;
        }
        line(&mut out, "")?;
        line(
            &mut out,
            "  pairings (first bot's wins – second's – draws):",
        )?;
        for p in &pairings {
            line(
                &mut out,
                &format!(
                    "  {:<22} {:>12} vs {:<12} {:>3} – {:>3} – {:>3}",
                    p.scenario, bots[p.bots[0]], bots[p.bots[1]], p.wins[0], p.wins[1], p.draws
                ),
            )?;
        }
    }
    out.flush()?;
    Ok(())
}
