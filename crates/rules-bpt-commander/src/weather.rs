//! WEATHER and NIGHT (optional rules): normal, poor or extreme weather, rolled before the
//! battle or set by the scenario, worsening on a double six and clearing on a double one at
//! the end of each game turn; poor weather costs every command roll 1 and limits sight to
//! 40 cm, extreme weather 2 and 10 cm. Night is poor weather that never changes.

use volley_core::{Dice, Event, Log};

/// Normal visibility, 100 cm ("Line of Sight").
pub const VISIBILITY_CM: u32 = 100;

fn rule() -> String {
    format!("{} Weather", crate::ID)
}

/// The weather on the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Weather {
    #[default]
    Normal,
    Poor,
    Extreme,
}

impl Weather {
    pub fn name(self) -> &'static str {
        match self {
            Weather::Normal => "normal weather",
            Weather::Poor => "poor weather",
            Weather::Extreme => "extreme weather",
        }
    }

    /// How far (cm) the enemy can be made out.
    pub fn visibility_cm(self) -> u32 {
        match self {
            Weather::Normal => VISIBILITY_CM,
            Weather::Poor => 40,
            Weather::Extreme => 10,
        }
    }

    /// What it costs each command roll.
    pub fn command_penalty(self) -> i32 {
        match self {
            Weather::Normal => 0,
            Weather::Poor => -1,
            Weather::Extreme => -2,
        }
    }

    /// The weather before the battle from two dice: 12 extreme, 10 or 11 poor.
    pub fn from_roll(total: u32) -> Weather {
        match total {
            12 => Weather::Extreme,
            10 | 11 => Weather::Poor,
            _ => Weather::Normal,
        }
    }

    fn worse(self) -> Weather {
        match self {
            Weather::Normal => Weather::Poor,
            _ => Weather::Extreme,
        }
    }

    fn better(self) -> Weather {
        match self {
            Weather::Extreme => Weather::Poor,
            _ => Weather::Normal,
        }
    }
}

/// How a scenario plays the weather (option `weather`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeatherRule {
    /// The optional rule is not used: normal weather throughout.
    Off,
    /// Rolled before the battle, then changing.
    Roll,
    /// The scenario's (historical) weather at the start, then changing.
    Start(Weather),
    /// Night: poor weather that never changes.
    Night,
}

impl WeatherRule {
    pub fn parse(text: &str) -> Option<WeatherRule> {
        Some(match text {
            "off" => WeatherRule::Off,
            "roll" => WeatherRule::Roll,
            "normal" => WeatherRule::Start(Weather::Normal),
            "poor" => WeatherRule::Start(Weather::Poor),
            "extreme" => WeatherRule::Start(Weather::Extreme),
            "night" => WeatherRule::Night,
            _ => return None,
        })
    }

    /// The weather the battle opens in, before any roll.
    pub fn opening(self) -> Weather {
        match self {
            WeatherRule::Off | WeatherRule::Roll => Weather::Normal,
            WeatherRule::Start(w) => w,
            WeatherRule::Night => Weather::Poor,
        }
    }
}

/// Before the first turn: the weather roll, where the scenario asks for one; the weather
/// `now` otherwise.
pub fn roll_opening(
    rule_of: WeatherRule,
    now: Weather,
    dice: &mut dyn Dice,
    log: &mut Log,
) -> Weather {
    if rule_of != WeatherRule::Roll {
        return now;
    }
    let (a, b) = (dice.roll(6), dice.roll(6));
    let w = Weather::from_roll(a + b);
    log.add(|| {
        Event::new(
            "weather",
            rule(),
            format!(
                "the weather before the battle: rolled {a}+{b} = {}: {}",
                a + b,
                w.name()
            ),
        )
    });
    w
}

/// At the end of each game turn: a double six worsens the weather, a double one clears it
/// (never at night, nor when the rule is not used).
pub fn change(
    rule_of: WeatherRule,
    before: Weather,
    dice: &mut dyn Dice,
    log: &mut Log,
) -> Weather {
    if matches!(rule_of, WeatherRule::Off | WeatherRule::Night) {
        return before;
    }
    let (a, b) = (dice.roll(6), dice.roll(6));
    let now = match (a, b) {
        (6, 6) => before.worse(),
        (1, 1) => before.better(),
        _ => before,
    };
    log.add(|| {
        let text = if now == before {
            format!("the weather holds ({a}, {b}): {}", now.name())
        } else {
            format!(
                "the weather changes ({a}, {b}): {} becomes {}",
                before.name(),
                now.name()
            )
        };
        Event::new("weather", rule(), text)
    });
    now
}
