//! `volley`: the command line over the Volley engine. Each command is a module in
//! `commands/`; the text map and tables are in `render`.

mod commands;
mod files;
mod render;

use clap::{Parser, Subcommand};
use commands::Failure;

/// The bots' lookahead copies, views and drops the game many thousand times a decision; with
/// mimalloc instead of the system's allocator a computer turn of hc-crossroads takes less
/// time (docs/PERFORMANCE.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A digital table for hex-and-musket wargames.
///
/// Start a game from a bundled scenario, pass the saved-game file between players (play by
/// e-mail), or let bots play a whole battle.
#[derive(Parser)]
#[command(
    name = "volley",
    version,
    after_help = "\
Examples:
  volley scenarios
  volley new hc-crossroads --out game.json
  volley show game.json
  volley legal game.json
  volley apply game.json \"<an action from legal>\"
  volley undo game.json
  volley play hc-crossroads --red random --blue random --seed 7"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Scenarios(commands::scenarios::Args),
    Validate(commands::validate::Args),
    Options(commands::options::Args),
    Glossary(commands::glossary::Args),
    Army(commands::army::Args),
    Battle(commands::battle::Args),
    New(commands::new::Args),
    Show(commands::show::Args),
    Legal(commands::legal::Args),
    Apply(commands::apply::Args),
    Undo(commands::undo::Args),
    Odds(commands::odds::Args),
    Log(commands::log::Args),
    Play(commands::play::Args),
    Simulate(commands::simulate::Args),
    Tournament(commands::tournament::Args),
    Serve(commands::serve::Args),
    Verify(commands::verify::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Scenarios(a) => commands::scenarios::run(a),
        Command::Validate(a) => commands::validate::run(a),
        Command::Options(a) => commands::options::run(a),
        Command::Glossary(a) => commands::glossary::run(a),
        Command::Army(a) => commands::army::run(a),
        Command::Battle(a) => commands::battle::run(a),
        Command::New(a) => commands::new::run(a),
        Command::Show(a) => commands::show::run(a),
        Command::Legal(a) => commands::legal::run(a),
        Command::Apply(a) => commands::apply::run(a),
        Command::Undo(a) => commands::undo::run(a),
        Command::Odds(a) => commands::odds::run(a),
        Command::Log(a) => commands::log::run(a),
        Command::Play(a) => commands::play::run(a),
        Command::Simulate(a) => commands::simulate::run(a),
        Command::Tournament(a) => commands::tournament::run(a),
        Command::Serve(a) => commands::serve::run(a),
        Command::Verify(a) => commands::verify::run(a),
    };
    match result {
        Ok(()) => {}
        // A reader that closed the pipe early (`volley play … | head`) is not an error.
        Err(Failure::BrokenPipe) => {}
        Err(Failure::Message(m)) => {
            eprintln!("volley: {m}");
            std::process::exit(1);
        }
    }
}
