//! What every chapter's tests share: small scenarios made from a few lines of TOML, the
//! bundled battles, and a game's helpers to set up a position and play actions by notation
//! with scripted dice.
#![allow(dead_code, unused_imports)]

pub use rules_hex_command::game::*;
pub use rules_hex_command::state::*;
pub use rules_hex_command::*;
pub use volley_core::geometry::parse_label;
pub use volley_core::Side;
pub use volley_core::{Game, ScriptedDice, Seed, SeededDice};

pub fn h(l: &str) -> volley_core::Hex {
    parse_label(l).expect("label")
}

/// A game from a small scenario: a 10×10 open map unless `map` rows are given, the units
/// given as TOML `[[units]]` tables, options as `key = "value"` lines.
pub fn setup(options: &str, map_rows: &[&str], units: &str) -> HexCommandGame {
    let rows = if map_rows.is_empty() {
        (0..10)
            .map(|_| format!("\"{}\"", ["."; 10].join(" ")))
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        map_rows
            .iter()
            .map(|r| format!("\"{r}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!(
        "ruleset = \"hex-command\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 10\n[options]\n{options}\n[map]\nrows = [{rows}]\n[sides.red]\nname = \"Red\"\ncommanders = [{{ id = \"R1\", name = \"Roth\", value = 1, supreme = true }}]\n[sides.blue]\nname = \"Blue\"\ncommanders = [{{ id = \"B1\", name = \"Blau\", value = 1, supreme = true }}]\n{units}"
    );
    let src = volley_core::ScenarioSource::new("test.toml", text);
    HexCommandGame::new(
        scenario::load(&src, &volley_core::Options::new(), OPTIONS)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

/// Like [`setup`], on a 10×10 open map with some hexes changed (`("0505", "W")`) and extra
/// `[map]` keys (roads, hexsides) given as TOML lines.
pub fn setup_map(
    options: &str,
    changes: &[(&str, &str)],
    map_extra: &str,
    units: &str,
) -> HexCommandGame {
    let mut grid = vec![vec!["."; 10]; 10];
    for (l, code) in changes {
        let (c, r) = volley_core::geometry::col_row(h(l));
        grid[(r - 1) as usize][(c - 1) as usize] = code;
    }
    let rows = grid
        .iter()
        .map(|r| format!("\"{}\"", r.join(" ")))
        .collect::<Vec<_>>()
        .join(", ");
    let text = format!(
        "ruleset = \"hex-command\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 10\n[options]\n{options}\n[map]\nrows = [{rows}]\n{map_extra}\n[sides.red]\nname = \"Red\"\ncommanders = [{{ id = \"R1\", name = \"Roth\", value = 1, supreme = true }}]\n[sides.blue]\nname = \"Blue\"\ncommanders = [{{ id = \"B1\", name = \"Blau\", value = 1, supreme = true }}]\n{units}"
    );
    let src = volley_core::ScenarioSource::new("test.toml", text);
    HexCommandGame::new(
        scenario::load(&src, &volley_core::Options::new(), OPTIONS)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

pub fn unit(id: &str, side: &str, arm: &str, hex: &str, facing: &str, extra: &str) -> String {
    format!("[[units]]\nid = \"{id}\"\nside = \"{side}\"\nname = \"{id}\"\narm = \"{arm}\"\nhex = \"{hex}\"\nfacing = \"{facing}\"\n{extra}\n")
}

/// A game's helpers for tests: find units, set up a phase, play or refuse by notation.
pub trait Helpers {
    fn idx(&self, id: &str) -> usize;
    fn u(&self, id: &str) -> &Unit;
    fn um(&mut self, id: &str) -> &mut Unit;
    fn sync(&mut self);
    fn at(&mut self, side: Side, phase: Phase);
    fn at_fire(&mut self, side: Side, phasing: bool);
    fn play(&mut self, text: &str, dice: &[u32]) -> Vec<volley_core::Event>;
    fn refused(&mut self, text: &str) -> String;
    fn legal_texts(&self) -> Vec<String>;
}

impl Helpers for HexCommandGame {
    fn idx(&self, id: &str) -> usize {
        self.state
            .units
            .iter()
            .position(|u| u.id == id)
            .expect("unit id")
    }
    fn u(&self, id: &str) -> &Unit {
        &self.state.units[self.idx(id)]
    }
    /// A unit to set up a position with. The board is brought up to date before the next
    /// action, listing or check made through these helpers ([`HexCommandGame::sync`]).
    fn um(&mut self, id: &str) -> &mut Unit {
        let i = self.idx(id);
        &mut self.state.units[i]
    }
    /// Rebuilds the board and the listing after a test has placed units by hand.
    fn sync(&mut self) {
        self.relist();
    }
    /// Puts the game at the start of `side`'s phase `phase`, player A being `side`.
    fn at(&mut self, side: Side, phase: Phase) {
        let s = &mut self.state;
        s.turns.first = side;
        s.turns.at = 0;
        s.phase = phase;
        for i in 0..s.units.len() {
            let mp = rules_hex_command::effects::allowance(s, &s.units[i]);
            let u = &mut s.units[i];
            u.mp = mp;
            u.move_start = u.hex;
            u.stepped = false;
        }
        self.relist();
    }
    /// The fire step with `side` firing: as the phasing player (the step's second round) or
    /// the non-phasing one (its first), 7 c's standard order.
    fn at_fire(&mut self, side: Side, phasing: bool) {
        let phasing_side = if phasing { side } else { side.other() };
        self.at(phasing_side, Phase::Fire);
        let s = &mut self.state;
        s.fire_rounds = vec![
            rules_hex_command::state::FireRound {
                side: phasing_side.other(),
                who: rules_hex_command::state::FireWho::All,
            },
            rules_hex_command::state::FireRound {
                side: phasing_side,
                who: rules_hex_command::state::FireWho::All,
            },
        ];
        s.fire_round = phasing as u8;
        self.relist();
    }

    /// Applies an action by notation with scripted dice; panics if illegal.
    fn play(&mut self, text: &str, dice: &[u32]) -> Vec<volley_core::Event> {
        self.sync();
        let a = self
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut d = ScriptedDice::new(dice.iter().copied());
        let events = self
            .apply(a, &mut d)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(d.remaining(), 0, "{text}: unused scripted dice");
        events
    }
    fn refused(&mut self, text: &str) -> String {
        self.sync();
        let before = format!("{:?}", self.view(None));
        let a = self
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let err = self
            .apply(a, &mut ScriptedDice::new([]))
            .expect_err("should be illegal");
        assert_eq!(
            before,
            format!("{:?}", self.view(None)),
            "an illegal action changed the game"
        );
        err.0
    }
    fn legal_texts(&self) -> Vec<String> {
        let mut g = self.clone();
        g.sync();
        g.legal_actions()
            .into_iter()
            .map(|a| g.notation(a))
            .collect()
    }
}

pub fn bundled(name: &str) -> HexCommandGame {
    let text = match name {
        "hc-first-clash" => include_str!("../../../../scenarios/hc-first-clash.toml"),
        "hc-crossroads" => include_str!("../../../../scenarios/hc-crossroads.toml"),
        _ => include_str!("../../../../scenarios/hc-night-march.toml"),
    };
    let src = volley_core::ScenarioSource::new(name, text);
    HexCommandGame::new(
        scenario::load(&src, &volley_core::Options::new(), OPTIONS)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}
