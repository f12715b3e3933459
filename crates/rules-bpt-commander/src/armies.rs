//! The army lists offered through the registry ([`volley_core::armies::Armies`]): the lists
//! (`lists.rs`), an army checked against its list (`army.rs`), an army the computer builds
//! to a total (`generate.rs`) and two armies deployed on a field (`battle.rs`), as the command
//! line, the server and the army builder read them.

use crate::army::{self, Army};
use crate::battle;
use crate::lists::{self, Arm, ArmyList, Source};
use serde_json::{json, Value};
use volley_core::armies::{
    Armies, BundledArmy, CheckedArmy, FieldRow, GeneratedArmy, ListRow, Muster, Mustered,
};
use volley_core::{ScenarioError, ScenarioSource};

/// Black Powder Tactical Commander's army lists.
pub struct BptArmies;

pub static ARMIES: BptArmies = BptArmies;

/// How an army file is written.
const FILE_HELP: &str = "\
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
  # or \"fixed\" (25%) at the top, then [[work]] kind = \"trench\" count = 2";

impl Armies for BptArmies {
    fn lists(&self) -> Vec<ListRow> {
        lists::lists()
            .iter()
            .map(|l| ListRow {
                id: l.id.clone(),
                name: l.name.clone(),
                period: l.period.id().to_string(),
                source: source_word(l.source).to_string(),
                troops: l.troops.len(),
            })
            .collect()
    }

    fn list(&self, id: &str) -> Option<Value> {
        let l = lists::find(id)?;
        let rows: Vec<Value> = l
            .troops
            .iter()
            .map(|t| {
                let (lo, hi, default) = army::stand_range(t.arm);
                let (grades, horse, dismount) = army::row_options(l, t);
                json!({
                    "troop": t, "why_not": army::why_not_for_sale(l, t),
                    "stands": [lo, hi, default], "grades": grades, "horse": horse, "dismount": dismount,
                    "regimental_gun": army::regimental_gun_points(l, t).ok(),
                })
            })
            .collect();
        let fao = &army::FAO;
        let works: Vec<Value> = army::buyable_works()
            .map(|k| json!({ "kind": k.word(), "points": k.points(), "hasty": k.hasty() }))
            .collect();
        Some(json!({
            // The whole list (its id, name, period, organisation, source, troop and command
            // charts and rules), then what the builder needs to offer each row.
            "list": l,
            "rows": rows,
            "commands": l.command_chart(),
            "fao": {
                "command": fao.command, "move": fao.move_mounted, "presence": fao.presence,
                "save": fao.save, "points": fao.points, "per_artillery": army::ARTILLERY_PER_FAO,
            },
            "regimental_guns_max": army::REGIMENTAL_GUNS_MAX,
            "defences": { "hasty": 10, "fixed": 25 },
            "works": works,
            "rules": l.rule_set(),
        }))
    }

    fn show(&self, id: &str) -> Option<Vec<String>> {
        lists::find(id).map(show)
    }

    fn check(
        &self,
        src: &ScenarioSource,
        points: Option<u32>,
    ) -> Result<CheckedArmy, Vec<ScenarioError>> {
        Ok(checked(&army::check(src, points)?))
    }

    fn generate(&self, list: &str, points: u32, seed: u64) -> Result<GeneratedArmy, String> {
        let g = crate::generate::generate(list, points, seed)?;
        Ok(GeneratedArmy {
            army: checked(&g.army),
            text: g.text,
        })
    }

    fn addable(&self, text: &str, points: Option<u32>) -> Value {
        serde_json::to_value(army::addable(text, points)).unwrap_or(Value::Null)
    }

    fn fields(&self) -> Vec<FieldRow> {
        battle::MAPS
            .iter()
            .filter_map(|(name, _)| {
                let f = battle::field(&battle::named_map(name)?).ok()?;
                Some(FieldRow {
                    name: name.to_string(),
                    title: f.title,
                })
            })
            .collect()
    }

    fn field(&self, name: &str) -> Option<ScenarioSource> {
        battle::named_map(name)
    }

    fn bundled(&self) -> Vec<BundledArmy> {
        battle::ARMIES
            .iter()
            .map(|&(name, text)| BundledArmy { name, text })
            .collect()
    }

    fn muster(
        &self,
        red: &ScenarioSource,
        blue: &ScenarioSource,
        points: Option<u32>,
        field: &ScenarioSource,
        words: &Muster,
    ) -> Result<Mustered, Vec<ScenarioError>> {
        let mut problems = Vec::new();
        let mut armies: Vec<Army> = Vec::new();
        for src in [red, blue] {
            match army::check(src, points) {
                Ok(a) => armies.push(a),
                Err(e) => problems.extend(e),
            }
        }
        let field = battle::field(field).map_err(|e| {
            problems.push(e);
            std::mem::take(&mut problems)
        })?;
        if !problems.is_empty() {
            return Err(problems);
        }
        let battle_words = battle::Words {
            name: words.name.clone(),
            title: words.title.clone(),
            description: words.description.clone(),
            command: words.command.clone(),
        };
        let scenario = battle::muster(&armies[0], &armies[1], &field, &battle_words, &words.name)
            .map_err(|e| vec![e])?;
        Ok(Mustered {
            scenario,
            said: format!(
                "{} ({} points) against {} ({} points) on {}",
                armies[0].name, armies[0].cost, armies[1].name, armies[1].cost, field.name
            ),
        })
    }

    fn file_help(&self) -> &'static str {
        FILE_HELP
    }
}

/// An army the check accepted, as the registry passes it on.
fn checked(a: &Army) -> CheckedArmy {
    CheckedArmy {
        name: a.name.clone(),
        list: a.list_id.clone(),
        points: a.points,
        cost: a.cost,
        json: serde_json::to_value(a).unwrap_or(Value::Null),
        summary: summary(a),
    }
}

fn source_word(s: Source) -> &'static str {
    match s {
        Source::Book => "book",
        Source::Volley => "Volley",
    }
}

/// A list's troop chart, command chart and special rules, as `volley army show` prints them.
fn show(l: &ArmyList) -> Vec<String> {
    let mut out = vec![format!(
        "{} ({}, {} chart)",
        l.name,
        l.period.id(),
        if l.source == Source::Book {
            "the book's"
        } else {
            "Volley's"
        }
    )];
    if let Some(o) = &l.organisation {
        out.push(format!("  {o}"));
    }
    out.push(String::new());
    out.push(format!(
        "{:<42} {:<10} {:>5} {:>7} {:>4} {:>4} {:>6} {:>7}  NOTES",
        "TROOP STAND", "ARM", "MOVE", "ATTACK", "HITS", "SAVE", "POINTS", "MIN/MAX"
    ));
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
        out.push(format!(
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
        ));
    }
    let chart = l.command_chart();
    out.push(String::new());
    out.push(format!("Command units ({}):", chart.name));
    for c in &chart.rows {
        out.push(format!(
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
        ));
    }
    let rules = l.rule_set();
    out.push(String::new());
    out.push(format!("Special rules ({}):", rules.name));
    for n in &rules.notes {
        out.push(format!("  {:>2}. {} [{}]", n.number, n.summary, n.mechanic));
    }
    out
}

/// What a clean army buys, and what it costs.
fn summary(a: &Army) -> Vec<String> {
    let mut out = vec![format!(
        "{} ({}): {} of {} points, {} units, {} command units — ready to fight",
        a.name,
        a.list.name,
        a.cost,
        a.points,
        a.units.len(),
        a.commands.len()
    )];
    let co = a.co();
    for (i, c) in a.commands.iter().enumerate() {
        out.push(format!(
            "  HQ   {:<36} {} {} (command {}){}  {:>5}",
            c.name,
            army::quality_name(c.quality),
            army::level_name(c.level),
            c.row.command,
            if i == co { ", commanding officer" } else { "" },
            c.cost
        ));
    }
    for u in &a.units {
        out.push(format!(
            "  {:<4} {:<36} {} stands × {} {:>5}",
            match u.troop.arm {
                Arm::Infantry => "INF",
                Arm::Cavalry => "CAV",
                Arm::Artillery => "ART",
                Arm::Engineers => "ENG",
                Arm::Transport => "TRN",
                Arm::Armour => "ARM",
            },
            u.name,
            u.stands,
            u.stand_points,
            u.cost
        ));
    }
    out
}
