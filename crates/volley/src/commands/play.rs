//! `volley play`: bots play a whole game.

use super::{capitalised, event_json, event_line, line, parse_options, stdout, Failure, Outcome};
use serde::Serialize;
use std::io::Write;
use volley_core::{Seed, Side};

/// Play a whole game with bots and print it as it happens, then who won and why.
///
/// The same scenario, options, bots and --seed give the same game, byte for byte: the
/// dice come from the seed and each bot's own choices from a stream derived from it.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley play hc-crossroads --red random --blue random
  volley play hc-crossroads --red heuristic --blue mcts:ms=200 --seed 7 --json | tail -n 1

Bots: random, heuristic (with settings such as heuristic:follow=3), mcts (with settings such
as mcts:ms=200), and easy, normal and hard; an unknown name is answered with the full list and
what each bot does.")]
pub struct Args {
    /// A bundled scenario's name (see `volley scenarios`) or a scenario file.
    scenario: String,
    /// The bot playing red.
    #[arg(long, value_name = "BOT")]
    red: String,
    /// The bot playing blue.
    #[arg(long, value_name = "BOT")]
    blue: String,
    /// Dice and bot seed; without it one is drawn from the operating system and shown.
    #[arg(long)]
    seed: Option<u64>,
    /// JSON Lines: one event a line (seq, turn, side, kind, rule, text, seen), then a
    /// summary line (winner, reason, turns, score, actions, seed).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: super::BotGames,
}

#[derive(Serialize)]
struct Summary {
    winner: Option<Side>,
    reason: String,
    turns: u32,
    score: Score,
    actions: u64,
    seed: u64,
    scenario: String,
}

#[derive(Serialize)]
struct Score {
    red: i32,
    blue: i32,
}

pub fn run(args: Args) -> Outcome {
    let options = parse_options(&args.game.options)?;
    let seed = match args.seed {
        Some(n) => n,
        None => {
            let mut bytes = [0u8; 8];
            getrandom::fill(&mut bytes)
                .map_err(|e| format!("cannot get a random seed from the operating system: {e}"))?;
            u64::from_le_bytes(bytes)
        }
    };
    let mut bots = [
        volley_ai::bot_from_spec(&args.red, bot_seed(seed, Side::Red))
            .map_err(|e| format!("--red: {e}"))?,
        volley_ai::bot_from_spec(&args.blue, bot_seed(seed, Side::Blue))
            .map_err(|e| format!("--blue: {e}"))?,
    ];
    let (name, source) =
        volley_rulesets::scenario_source(&args.scenario).map_err(|e| e.to_string())?;
    let mut session = volley_rulesets::new_session(&name, &source, &options, Seed::from_u64(seed))?;

    let mut out = stdout();
    let mut shown_turn = 0;
    let mut print = |out: &mut dyn Write, events: &[volley_core::LoggedEvent]| -> Outcome {
        for e in events {
            if args.json {
                line(out, &event_json(e))?;
            } else {
                if e.turn != shown_turn {
                    shown_turn = e.turn;
                    line(out, &format!("— Turn {} —", e.turn))?;
                }
                line(out, &event_line(e))?;
            }
        }
        Ok(())
    };
    print(&mut out, &session.log)?;
    let mut actions = 0u64;
    while let Some(side) = session.game.to_decide() {
        if actions >= args.game.max_actions {
            out.flush()?;
            return Err(Failure::Message(format!(
                "the game did not end within {} actions (turn {}); the ruleset may be stuck in a loop, or raise --max-actions",
                args.game.max_actions,
                session.game.turn()
            )));
        }
        if session.game.legal_actions().is_empty() {
            out.flush()?;
            return Err(Failure::Message(format!(
                "{} is to decide but {} offers no legal action (turn {}): a ruleset bug",
                side,
                session.game.ruleset(),
                session.game.turn()
            )));
        }
        let action = bots[side.index()].choose(&*session.game, side);
        let events = session.apply(action, &[]).map_err(|e| {
            format!(
                "the {} bot for {side} chose \"{}\", which the rules refused: {e}",
                bots[side.index()].spec(),
                session.game.notation(action)
            )
        })?;
        print(&mut out, &events)?;
        actions += 1;
    }
    let outcome = session.game.outcome().ok_or_else(|| {
        format!(
            "{} says nobody is to decide but gives no result: a ruleset bug",
            session.game.ruleset()
        )
    })?;
    let summary = Summary {
        winner: outcome.winner,
        reason: outcome.reason,
        turns: session.game.turn(),
        score: Score {
            red: outcome.score[0],
            blue: outcome.score[1],
        },
        actions,
        seed,
        scenario: name,
    };
    if args.json {
        line(
            &mut out,
            &serde_json::to_string(&summary).expect("summaries serialise"),
        )?;
    } else {
        let who = summary
            .winner
            .map_or("Draw".to_string(), |w| format!("{} wins", capitalised(w)));
        line(
            &mut out,
            &format!(
                "\n{who} after {} turns: {}\nScore: red {}, blue {}. {} actions. Seed {} (--seed {} plays this game again).",
                summary.turns,
                summary.reason,
                summary.score.red,
                summary.score.blue,
                summary.actions,
                summary.seed,
                summary.seed
            ),
        )?;
    }
    out.flush()?;
    Ok(())
}

/// Each bot's own seed, derived from the game's so one number replays everything
/// (SplitMix64 of the seed and the side).
fn bot_seed(seed: u64, side: Side) -> u64 {
    let mut z = seed ^ (0x9e37_79b9_7f4a_7c15u64.wrapping_mul(side.index() as u64 + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
