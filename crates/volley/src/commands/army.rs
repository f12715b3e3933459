//! `volley army`: the army lists of Black Powder Tactical Commander, as data.

use super::{line, stdout, Failure, Outcome};
use rules_bpt_commander::lists::{self, ArmyList};
use std::io::Write;

/// Read the army lists of Black Powder Tactical Commander: every troop and command chart of
/// the book (and the British and Prussian Napoleonic charts Volley authored where the book
/// has none), with each row's stat line, points and limits.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley army lists
  volley army show napoleonic-french
  volley army show acw-union --json | jq '.troops[] | {name, points}'
  volley army check my-division.toml
  volley army check scenarios/armies/acw-union-brigade.toml --points 3000 --json

An army file names its list, its points total, its command units and its units:

  list = \"napoleonic-french\"
  name = \"Division Morand\"
  points = 3000
  [[command]]
  level = \"division\"        # brigade, division, corps, army (colonial: hq)
  quality = \"average\"       # uninspiring, average, exceptional (colonial: six grades)
  [[unit]]
  troop = \"Line Infantry (08-12)\"   # a row of `volley army show LIST`
  stands = 5                          # optional (infantry 5, cavalry 4, guns 2)
  count = 4                           # optional: this many such units
  # grade = \"elite\" | \"poor\"      (ACW Regular Infantry), horse = true (ACW guns),
  # dismounted = true (cavalry that start on foot), regimental_guns = 1 or 2
  # (18th-century and Napoleonic line infantry, a howitzer stand's points each)
  # A Field Artillery Officer (one per 6 artillery units, 55 points):
  #   [[command]]
  #   fao = true
  # Field defences, for an army in defence: defence = \"hasty\" (10% of the points)
  # or \"fixed\" (25%) at the top, then [[work]] kind = \"trench\" count = 2

Turn armies into a battle with `volley battle`.")]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// List the army lists: id, period, troop rows, and whether the chart is the book's or
    /// Volley's.
    Lists {
        /// Print a JSON array of {id, name, period, source, troops} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Check an army file against its list: points, limits per full 1500 points, compulsory
    /// troops, command units. Every problem is printed as FILE:LINE:COLUMN: message.
    Check {
        /// The army file (TOML).
        army: std::path::PathBuf,
        /// Check it at this points total instead of the file's own.
        #[arg(long)]
        points: Option<u32>,
        /// Print {ok, cost, points, units, commands} or {ok: false, errors: [...]} as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show one army list: its troop chart, its command chart and its special rules.
    Show {
        /// The list's id (see `volley army lists`).
        list: String,
        /// Print the list, its command chart and its rules as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: Args) -> Outcome {
    let mut out = stdout();
    match args.what {
        What::Lists { json } => {
            if json {
                let rows: Vec<serde_json::Value> = lists::lists()
                    .iter()
                    .map(|l| {
                        serde_json::json!({
                            "id": l.id, "name": l.name, "period": l.period.id(),
                            "source": l.source, "troops": l.troops.len(),
                        })
                    })
                    .collect();
                line(
                    &mut out,
                    &serde_json::to_string_pretty(&rows).expect("serialises"),
                )?;
            } else {
                line(
                    &mut out,
                    &format!(
                        "{:<20} {:<13} {:>6}  {:<6} NAME",
                        "ID", "PERIOD", "TROOPS", "CHART"
                    ),
                )?;
                for l in lists::lists() {
                    let source = match l.source {
                        lists::Source::Book => "book",
                        lists::Source::Volley => "Volley",
                    };
                    line(
                        &mut out,
                        &format!(
                            "{:<20} {:<13} {:>6}  {:<6} {}",
                            l.id,
                            l.period.id(),
                            l.troops.len(),
                            source,
                            l.name
                        ),
                    )?;
                }
            }
        }
        What::Check { army, points, json } => {
            let src = read_army(&army)?;
            match rules_bpt_commander::army::check(&src, points) {
                Ok(a) => {
                    if json {
                        let v = serde_json::json!({ "ok": true, "army": a });
                        line(
                            &mut out,
                            &serde_json::to_string_pretty(&v).expect("serialises"),
                        )?;
                    } else {
                        summary(&mut out, &a)?;
                    }
                }
                Err(errors) => {
                    if json {
                        let v = serde_json::json!({ "ok": false, "errors": errors.iter().map(|e| serde_json::json!({
                            "file": e.file, "line": e.line, "column": e.column, "message": e.message,
                        })).collect::<Vec<_>>() });
                        line(
                            &mut out,
                            &serde_json::to_string_pretty(&v).expect("serialises"),
                        )?;
                        out.flush()?;
                        return Err(report(&army, &errors));
                    }
                    return Err(report(&army, &errors));
                }
            }
        }
        What::Show { list, json } => {
            let l = lists::find(&list).ok_or_else(|| {
                let ids: Vec<&str> = lists::lists().iter().map(|l| l.id.as_str()).collect();
                Failure::Message(format!(
                    "there is no army list \"{list}\"; the lists are: {}",
                    ids.join(", ")
                ))
            })?;
            if json {
                let v = serde_json::json!({
                    "list": l, "commands": l.command_chart(), "rules": l.rule_set(),
                });
                line(
                    &mut out,
                    &serde_json::to_string_pretty(&v).expect("serialises"),
                )?;
            } else {
                show(&mut out, l)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn show(out: &mut impl Write, l: &ArmyList) -> Outcome {
    line(
        out,
        &format!(
            "{} ({}, {} chart)",
            l.name,
            l.period.id(),
            if l.source == lists::Source::Book {
                "the book's"
            } else {
                "Volley's"
            }
        ),
    )?;
    if let Some(o) = &l.organisation {
        line(out, &format!("  {o}"))?;
    }
    line(out, "")?;
    line(
        out,
        &format!(
            "{:<42} {:<10} {:>5} {:>7} {:>4} {:>4} {:>6} {:>7}  NOTES",
            "TROOP STAND", "ARM", "MOVE", "ATTACK", "HITS", "SAVE", "POINTS", "MIN/MAX"
        ),
    )?;
    for t in &l.troops {
        let mv = match t.move2 {
            Some(b) => format!("{}/{b}", t.move_cm),
            None => t.move_cm.to_string(),
        };
        let attack = if t.cc_only {
            "CC only".to_string()
        } else if t.dice == 0 {
            "-".into()
        } else {
            format!("{}/{}", t.dice, t.range)
        };
        let opt = |v: Option<u8>| v.map_or("-".to_string(), |x| x.to_string());
        let notes: Vec<String> = t.notes.iter().map(|n| n.to_string()).collect();
        line(
            out,
            &format!(
                "{:<42} {:<10} {:>5} {:>7} {:>4} {:>4} {:>6} {:>7}  {}{}",
                t.name,
                format!("{:?}", t.arm).to_lowercase(),
                mv,
                attack,
                t.hits,
                if t.save == 0 {
                    "-".to_string()
                } else {
                    format!("{}+", t.save)
                },
                t.points.map_or("-".to_string(), |p| p.to_string()),
                format!("{}/{}", opt(t.min), opt(t.max)),
                notes.join(", "),
                if t.fix.is_some() {
                    "  (Volley's fix)"
                } else {
                    ""
                }
            ),
        )?;
    }
    let chart = l.command_chart();
    line(out, "")?;
    line(out, &format!("Command units ({}):", chart.name))?;
    for c in &chart.rows {
        line(
            out,
            &format!(
                "  {:?} {:?}: command {}, move {}/{}, presence +{}, hits {}, save {}+, {} points{}",
                c.level,
                c.quality,
                c.command,
                c.move_cm,
                c.move_mounted,
                c.presence,
                c.hits,
                c.save,
                c.points,
                c.limit
                    .as_ref()
                    .map_or(String::new(), |x| format!(", limit {x}"))
            ),
        )?;
    }
    let rules = l.rule_set();
    line(out, "")?;
    line(out, &format!("Special rules ({}):", rules.name))?;
    for n in &rules.notes {
        line(
            out,
            &format!("  {:>2}. {} [{}]", n.number, n.summary, n.mechanic),
        )?;
    }
    Ok(())
}

/// Reads an army file, or says in plain words why it cannot.
pub fn read_army(path: &std::path::Path) -> Result<volley_core::ScenarioSource, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure::Message(format!(
            "{}: cannot read the army file: {e}",
            path.display()
        ))
    })?;
    Ok(volley_core::ScenarioSource::new(
        path.display().to_string(),
        text,
    ))
}

/// What a clean army buys, and what it costs.
fn summary(out: &mut impl Write, a: &rules_bpt_commander::army::Army) -> Outcome {
    line(
        out,
        &format!(
            "{} ({}): {} of {} points, {} units, {} command units — ready to fight",
            a.name,
            a.list.name,
            a.cost,
            a.points,
            a.units.len(),
            a.commands.len()
        ),
    )?;
    let co = a.co();
    for (i, c) in a.commands.iter().enumerate() {
        line(
            out,
            &format!(
                "  HQ   {:<36} {} {} (command {}){}  {:>5}",
                c.name,
                rules_bpt_commander::army::quality_name(c.quality),
                rules_bpt_commander::army::level_name(c.level),
                c.row.command,
                if i == co { ", commanding officer" } else { "" },
                c.cost
            ),
        )?;
    }
    for u in &a.units {
        line(
            out,
            &format!(
                "  {:<4} {:<36} {} stands × {} {:>5}",
                match u.troop.arm {
                    lists::Arm::Infantry => "INF",
                    lists::Arm::Cavalry => "CAV",
                    lists::Arm::Artillery => "ART",
                    lists::Arm::Engineers => "ENG",
                    lists::Arm::Transport => "TRN",
                    lists::Arm::Armour => "ARM",
                },
                u.name,
                u.stands,
                u.stand_points,
                u.cost
            ),
        )?;
    }
    Ok(())
}

/// Prints every problem of an army on its own line as FILE:LINE:COLUMN: message (on stderr),
/// and gives the failure that ends the command.
pub fn report(path: &std::path::Path, errors: &[volley_core::ScenarioError]) -> Failure {
    for e in errors {
        eprintln!("{e}");
    }
    Failure::Message(format!(
        "{}: {} problem{}; the army is not ready to fight",
        path.display(),
        errors.len(),
        if errors.len() == 1 { "" } else { "s" }
    ))
}
