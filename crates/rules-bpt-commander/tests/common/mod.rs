//! The harness of the rule tests (`tests/<chapter>.rs`): a small open map built from inline
//! TOML, units placed where a test needs them, orders in notation and scripted dice that must
//! be used up exactly. Hex labels are column then row; one hex is 5 cm. Each test file uses a
//! part of it.

#![allow(dead_code)]

use rules_bpt_commander::state::Phase;
use rules_bpt_commander::BptGame;
use volley_core::{Event, Game, Options, ScenarioSource, ScriptedDice};

/// A scenario under construction: a 12 × 12 open map unless rows are given.
#[derive(Clone)]
pub struct Scen {
    pub rows: Vec<String>,
    pub map_extra: String,
    pub top: String,
    pub red_hqs: Vec<String>,
    pub blue_hqs: Vec<String>,
    pub units: Vec<String>,
    pub options: Options,
}

/// Default stat lines by arm, overridden key by key.
fn defaults(arm: &str) -> Vec<(&'static str, String)> {
    let v: &[(&str, &str)] = match arm {
        "infantry" => &[
            ("stands", "4"),
            ("move", "10"),
            ("dice", "1"),
            ("range", "20"),
            ("hits", "3"),
            ("points", "10"),
            ("formation", "\"line\""),
        ],
        "cavalry" => &[
            ("stands", "3"),
            ("move", "30"),
            ("dice", "1"),
            ("range", "2"),
            ("hits", "3"),
            ("points", "10"),
            ("formation", "\"line\""),
        ],
        _ => &[
            ("stands", "1"),
            ("move", "30"),
            ("dice", "3"),
            ("range", "60"),
            ("hits", "2"),
            ("points", "10"),
            ("manhandle", "5"),
            ("prolonge", "10"),
        ],
    };
    v.iter().map(|(k, s)| (*k, s.to_string())).collect()
}

impl Scen {
    pub fn new() -> Scen {
        Scen {
            rows: vec![["."; 12].join(" "); 12],
            map_extra: String::new(),
            top: String::new(),
            red_hqs: vec![hq("rhq", 8, "0610", true)],
            blue_hqs: vec![hq("bhq", 8, "0603", true)],
            units: Vec::new(),
            options: Options::new(),
        }
    }

    /// A unit of `arm` with the default stat line, `over` replacing or adding keys
    /// (`("save", "5")`, `("traits", "[\"elite\"]")`).
    pub fn unit(
        mut self,
        side: &str,
        id: &str,
        arm: &str,
        hex: &str,
        facing: &str,
        over: &[(&str, &str)],
    ) -> Scen {
        let mut keys = defaults(arm);
        for (k, v) in over {
            keys.retain(|(d, _)| d != k);
            keys.push((k_static(k), v.to_string()));
        }
        let mut s = format!(
            "[[units]]\nside = \"{side}\"\nid = \"{id}\"\nname = \"{id}\"\narm = \"{arm}\"\nhex = \"{hex}\"\nfacing = \"{facing}\"\n"
        );
        for (k, v) in keys {
            if v != "-" {
                s.push_str(&format!("{k} = {v}\n"));
            }
        }
        self.units.push(s);
        self
    }

    pub fn inf(self, side: &str, id: &str, hex: &str, facing: &str, over: &[(&str, &str)]) -> Scen {
        self.unit(side, id, "infantry", hex, facing, over)
    }

    pub fn cav(self, side: &str, id: &str, hex: &str, facing: &str, over: &[(&str, &str)]) -> Scen {
        self.unit(side, id, "cavalry", hex, facing, over)
    }

    pub fn gun(self, side: &str, id: &str, hex: &str, facing: &str, over: &[(&str, &str)]) -> Scen {
        self.unit(side, id, "artillery", hex, facing, over)
    }

    /// Replaces the side's command units.
    pub fn hqs(mut self, side: &str, list: &[String]) -> Scen {
        if side == "red" {
            self.red_hqs = list.to_vec();
        } else {
            self.blue_hqs = list.to_vec();
        }
        self
    }

    pub fn rows(mut self, rows: &[&str]) -> Scen {
        self.rows = rows.iter().map(|r| r.to_string()).collect();
        self
    }

    pub fn map(mut self, extra: &str) -> Scen {
        self.map_extra.push_str(extra);
        self.map_extra.push('\n');
        self
    }

    pub fn top(mut self, extra: &str) -> Scen {
        self.top.push_str(extra);
        self.top.push('\n');
        self
    }

    pub fn option(mut self, key: &str, value: &str) -> Scen {
        self.options.insert(key.into(), value.into());
        self
    }

    pub fn text(&self) -> String {
        let rows: Vec<String> = self.rows.iter().map(|r| format!("\"{r}\"")).collect();
        format!(
            "ruleset = \"bpt-commander\"\nname = \"test\"\ntitle = \"Test\"\nturn_limit = 4\n{}\n[map]\nrows = [{}]\n{}\n[sides.red]\nname = \"Red\"\ncommanders = [{}]\n[sides.blue]\nname = \"Blue\"\ncommanders = [{}]\n\n{}",
            self.top,
            rows.join(", "),
            self.map_extra,
            self.red_hqs.join(", "),
            self.blue_hqs.join(", "),
            self.units.join("\n")
        )
    }

    /// The game, loaded and not started.
    pub fn load(&self) -> BptGame {
        rules_bpt_commander::scenario::load(
            &ScenarioSource::new("test.toml", self.text()),
            &self.options,
        )
        .unwrap_or_else(|e| panic!("{e}\n{}", self.text()))
    }

    /// The game started (red's first player turn), with these dice for its start.
    pub fn start_with(&self, dice: &[u32]) -> BptGame {
        let mut g = self.load();
        let mut d = ScriptedDice::new(dice.iter().copied());
        g.start(&mut d);
        assert_eq!(d.remaining(), 0, "start: dice left over");
        g
    }

    /// Started and past the initiative phase, in red's command phase.
    pub fn command(&self) -> BptGame {
        let mut g = self.start_with(&[]);
        if g.phase == Phase::Initiative {
            play(&mut g, "end", &[]);
        }
        assert_eq!(g.phase, Phase::Command);
        g
    }
}

fn k_static(k: &str) -> &'static str {
    Box::leak(k.to_string().into_boxed_str())
}

/// A command unit entry for a side's `commanders`.
pub fn hq(id: &str, value: u32, hex: &str, supreme: bool) -> String {
    format!("{{ id = \"{id}\", name = \"{id}\", value = {value}, supreme = {supreme}, hex = \"{hex}\" }}")
}

/// Plays an action in notation with exactly these dice; returns the events.
pub fn play(g: &mut BptGame, order: &str, dice: &[u32]) -> Vec<Event> {
    let a = g
        .parse_action(order)
        .unwrap_or_else(|e| panic!("{order}: {e}"));
    let mut d = ScriptedDice::tolerant(dice.iter().copied());
    let events = g
        .apply(a, &mut d)
        .unwrap_or_else(|e| panic!("{order}: {}", e.0));
    if let Some(fault) = d.fault() {
        panic!(
            "{order}: the script does not fit: {fault}\n{}",
            log(&events)
        );
    }
    g.check_invariants().unwrap();
    events
}

/// Why an action is refused (it must be).
pub fn refused(g: &mut BptGame, order: &str) -> String {
    let a = g
        .parse_action(order)
        .unwrap_or_else(|e| panic!("{order}: {e}"));
    let mut d = ScriptedDice::tolerant([]);
    match g.apply(a, &mut d) {
        Ok(e) => panic!("{order} was allowed:\n{}", log(&e)),
        Err(e) => e.0,
    }
}

/// The events' texts, one a line.
pub fn log(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| e.text.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The index of a unit by id.
pub fn k(g: &BptGame, id: &str) -> usize {
    g.units
        .iter()
        .position(|u| &*u.id == id)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

pub fn hex(label: &str) -> volley_core::Hex {
    volley_core::geometry::parse_label(label).expect("a hex label")
}

/// The usual duel: red infantry r1 at 0608 facing N, blue infantry b1 at 0605 facing S
/// (15 cm apart), red's CO (8) at 0610, blue's at 0603.
pub fn duel(r: &[(&str, &str)], b: &[(&str, &str)]) -> Scen {
    Scen::new()
        .inf("red", "r1", "0608", "N", r)
        .inf("blue", "b1", "0605", "S", b)
}

impl Scen {
    /// Raw TOML appended after the units (objectives).
    pub fn raw(mut self, text: &str) -> Scen {
        self.units.push(text.to_string());
        self
    }
}

/// The 12 × 12 open map's rows with row `row` (1-based) replaced by `text`.
pub fn with_row(row: usize, text: &str) -> Vec<String> {
    let mut rows = vec![["."; 12].join(" "); 12];
    rows[row - 1] = text.into();
    rows
}

/// Suppressed by an earlier attack (number 99), placed in this player turn.
pub fn suppressed(g: &mut rules_bpt_commander::BptGame, id: &str) {
    let u = k(g, id);
    g.units[u].suppressed = Some(rules_bpt_commander::troops::Suppression {
        placed: 0,
        by_attack: 99,
    });
}
