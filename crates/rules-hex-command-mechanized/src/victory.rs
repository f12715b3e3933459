//! Losses, break point, panic and victory (M41–M44, 3.3, 3.11): a side's loss percentage, the
//! objectives held as each side knows them, the panic check past the break point, the battle
//! decided when a side breaks or at the turn limit, and "as it stands" for the view.

use crate::command_tables;
use crate::effects;
use crate::hidden;
use crate::items::Kind;
use crate::losses;
use crate::rule;
use crate::state::State;
use volley_core::{Dice, Event, Hex, Log, Outcome, Side};

/// A side's loss percentage (M41): items lost over items begun with, plus ten per
/// commander lost.
pub fn loss_percent(s: &State, side: Side) -> f64 {
    let lost = (0..s.items.len())
        .filter(|&i| s.counted[i] && s.item(i).side == side)
        .count();
    let commanders = s.posts.lost(|c| s.commanders[c].side, side);
    command_tables::loss_percent(
        lost as i32,
        s.start_items[side.index()] as i32,
        commanders as u32,
    )
}

/// The side holding an objective hex: the one with an unrouted item on it.
pub fn holder(s: &State, hex: Hex) -> Option<Side> {
    holder_seen_by(s, hex, None)
}

/// The holder as a viewer knows it (hidden enemies hold nothing it can see).
pub fn holder_seen_by(s: &State, hex: Hex, viewer: Option<Side>) -> Option<Side> {
    s.items_at(hex)
        .find(|&i| !s.routed(i) && viewer.is_none_or(|v| hidden::visible_to(s, i, v)))
        .map(|i| s.item(i).side)
}

pub fn objective_points(s: &State, side: Side) -> i32 {
    objective_points_seen_by(s, side, None)
}

/// A side's objective points as a viewer knows them: what hidden enemies hold does not
/// show.
pub fn objective_points_seen_by(s: &State, side: Side, viewer: Option<Side>) -> i32 {
    s.objectives
        .iter()
        .filter(|o| {
            o.goal_of.is_none_or(|g| g == side) && holder_seen_by(s, o.hex, viewer) == Some(side)
        })
        .map(|o| o.points)
        .sum()
}

/// M42–M43 (C5): past its break point a side rolls for panic at the start of each of its
/// player turns; on a panic every squad of it takes a hit marker, and until its next check
/// its units advance only with a commander (interpretation 47).
pub(crate) fn panic_check(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let side = s.phasing();
    s.panicked[side.index()] = false;
    let loss = loss_percent(s, side);
    let bp = s.sides[side.index()].break_point;
    if loss < bp as f64 {
        return;
    }
    let d = dice.roll(10);
    let panics = command_tables::panics(d, loss, bp);
    s.panicked[side.index()] = panics;
    let name = &s.setup.side_names[side.index()];
    log.add(|| {
        Event::new(
            "panic",
            rule("M43"),
            format!(
                "{name} has lost {loss:.0}% (break point {bp}%) and rolls {d} on a d10 for panic ({} panics): {}.",
                command_tables::panic_needs(loss),
                if panics {
                    "it panics; every squad takes a hit marker, and until its next turn no unit advances without a commander"
                } else {
                    "it holds"
                }
            ),
        )
        .side(side)
    });
    if panics {
        for i in 0..s.items.len() {
            if s.in_play(i) && s.item(i).side == side {
                if let Kind::Squad(_) = s.item(i).kind {
                    let (r, _) = losses::hit_squad(&mut s.items[i], 1);
                    effects::after_loss(s, i, r, log);
                }
            }
        }
    }
}

pub(crate) fn scores(s: &State) -> [i32; 2] {
    scores_seen_by(s, None)
}

/// Both sides' objective points (red, blue) as `viewer` knows them.
pub(crate) fn scores_seen_by(s: &State, viewer: Option<Side>) -> [i32; 2] {
    Side::BOTH.map(|side| objective_points_seen_by(s, side, viewer))
}

/// M44: a side with nothing left loses; a side at its break point loses to an enemy
/// whose losses are lower, or whose objectives are more (3.11). Otherwise the battle goes
/// on and the broken side checks for panic each turn (M42) — or, with option
/// `break_point = "ends"`, it ends there as a draw.
pub(crate) fn decided(s: &State) -> Option<Outcome> {
    let score = scores(s);
    for side in Side::BOTH {
        let left =
            (0..s.items.len()).any(|i| s.in_play(i) && s.item(i).side == side && !s.routed(i));
        if !left {
            return Some(Outcome {
                winner: Some(side.other()),
                reason: format!("{side} has no unit left in good order."),
                score,
            });
        }
    }
    let losses = Side::BOTH.map(|side| loss_percent(s, side));
    let at_break = |side: Side| losses[side.index()] >= s.sides[side.index()].break_point as f64;
    // The enemy of a side at its break point wins when it has lost less or holds more.
    let beaten = |side: Side| {
        let o = side.other();
        at_break(side)
            && (losses[o.index()] < losses[side.index()] || score[o.index()] > score[side.index()])
    };
    let reason = |side: Side| {
        let o = side.other();
        format!(
            "{side} reached its break point ({:.0}% lost of {}%); {o} has lost {:.0}%, objectives {side} {}, {o} {}.",
            losses[side.index()],
            s.sides[side.index()].break_point,
            losses[o.index()],
            score[side.index()],
            score[o.index()],
        )
    };
    // Both past their break points and each ahead on one count: the losses decide.
    let loser = match (beaten(Side::Red), beaten(Side::Blue)) {
        (true, true) => match losses[0].partial_cmp(&losses[1]) {
            Some(std::cmp::Ordering::Greater) => Some(Side::Red),
            Some(std::cmp::Ordering::Less) => Some(Side::Blue),
            _ => None,
        },
        (true, false) => Some(Side::Red),
        (false, true) => Some(Side::Blue),
        (false, false) => None,
    };
    if let Some(side) = loser {
        return Some(Outcome {
            winner: Some(side.other()),
            reason: reason(side),
            score,
        });
    }
    if s.setup.settings.break_point_ends {
        if let Some(side) = Side::BOTH.into_iter().find(|&sq| at_break(sq)) {
            return Some(Outcome {
                winner: None,
                reason: format!(
                    "{} The battle ends there as a draw (option break_point = ends).",
                    reason(side)
                ),
                score,
            });
        }
    }
    None
}

/// M42, M44: tells when a side reaches its break point and the battle goes on.
pub(crate) fn note_break_points(s: &mut State, log: &mut Log) {
    for side in Side::BOTH {
        let bp = s.sides[side.index()].break_point;
        let (mine, theirs) = (loss_percent(s, side), loss_percent(s, side.other()));
        let broken = mine >= bp as f64;
        if broken && !s.broken[side.index()] {
            let names = &s.setup.side_names;
            let (me, them) = (&names[side.index()], &names[side.other().index()]);
            log.add(|| {
                Event::new(
                    "break point",
                    rule("M44"),
                    format!(
                        "{me} has reached its break point ({mine:.0}% lost of {bp}%), but {them} has lost {theirs:.0}% and holds no more objectives, so the battle goes on; {me} checks for panic at the start of each of its turns (M42)."
                    ),
                )
                .side(side)
            });
        }
        s.broken[side.index()] = broken;
    }
}

/// M22, M44: at the turn limit objectives decide, then the lower losses.
pub(crate) fn final_outcome(s: &State) -> Outcome {
    let (winner, score, [lr, lb]) = at_the_limit(s, None);
    Outcome {
        winner,
        reason: format!(
            "The turn limit is reached: objectives red {}, blue {}; losses red {lr:.0}%, blue {lb:.0}%.",
            score[0], score[1]
        ),
        score,
    }
}

/// Who would win if the turn limit came now, as `viewer` knows the table (M22, M44):
/// the more objective points, then the lower losses. With the objective points (red,
/// blue) and the loss percentages (red, blue) it was judged on. Losses are open to both
/// sides; an objective under an enemy the viewer has not seen counts for nobody
/// (interpretation 42).
pub(crate) fn at_the_limit(s: &State, viewer: Option<Side>) -> (Option<Side>, [i32; 2], [f64; 2]) {
    let score = scores_seen_by(s, viewer);
    let losses = Side::BOTH.map(|side| loss_percent(s, side));
    let winner = match score[0].cmp(&score[1]) {
        std::cmp::Ordering::Greater => Some(Side::Red),
        std::cmp::Ordering::Less => Some(Side::Blue),
        std::cmp::Ordering::Equal if losses[0] < losses[1] => Some(Side::Red),
        std::cmp::Ordering::Equal if losses[1] < losses[0] => Some(Side::Blue),
        std::cmp::Ordering::Equal => None,
    };
    (winner, score, losses)
}

/// "As it stands" for the view (interpretation 43): the result M44 would give if the
/// turn limit came now, judged on what `viewer` sees. The rules know no decisive
/// victory, so it is never decisive.
pub fn standing(s: &State, viewer: Option<Side>) -> volley_core::view::Standing {
    let (winner, score, [lr, lb]) = at_the_limit(s, viewer);
    let lead = match winner {
        Some(w) => format!(
            "{} would win at the turn limit",
            s.setup.side_names[w.index()]
        ),
        None => "a draw at the turn limit".into(),
    };
    volley_core::view::Standing {
        winner,
        decisive: false,
        reason: format!(
            "{lead}: objectives red {}, blue {}; losses red {lr:.0}%, blue {lb:.0}%",
            score[0], score[1]
        ),
    }
}
