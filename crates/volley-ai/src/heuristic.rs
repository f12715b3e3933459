//! The heuristic bot: plays like a sensible table player, from its own side's view only.
//!
//! Each decision it
//! 1. orders the legal actions cheaply by what their notation names (a unit, a hex): attacks
//!    on weakened or flanked enemies first, steps towards objectives or the enemy next, weak
//!    units kept out of reach ([`priors`]);
//! 2. looks one action ahead on the best few: each is applied to copies of the game made by
//!    [`Game::determinize`] (never the real state) with sampled dice, and the copy's view is
//!    scored by the generic [`Evaluator`];
//! 3. ends the phase when nothing it can do improves on standing still.

use crate::eval::{arm_power, has, is_decoy, is_guns, Evaluator, Geometry, Weights};
use crate::Bot;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use volley_core::geometry::in_front_arc;
use volley_core::view::{UnitView, View};
use volley_core::{Action, ActionKind, Dice, Game, Hex, Seed, SeededDice, Side};

/// How hard the heuristic thinks.
#[derive(Clone, Copy, Debug)]
pub struct HeuristicSettings {
    /// Actions looked at one action ahead per decision (the best by the cheap ordering).
    pub candidates: usize,
    /// Determinized copies, each with its own dice, per action looked at.
    pub samples: usize,
    /// Chance of picking a legal action at random instead (the `easy` bot's blunders).
    pub blunder: f64,
    /// Own decisions played after the action looked at, in each copy, by a quick heuristic
    /// ([`HeuristicSettings::FOLLOW_UP`]) before the copy is scored: the action is judged by
    /// what it leads to in the rest of the phase (a step that opens a flank attack, a volley
    /// that clears the way for a charge), not only by the position it leaves. 0 for `normal`.
    pub follow: usize,
    /// After the follow-up, the phase is ended and play goes on until the enemy has made
    /// this many decisions, the same quick heuristic deciding for both sides (in the sampled
    /// world, which holds only what this side knows or guessed): the action is judged after
    /// the enemy's answer, the volleys its move walks into included ([`play_line`]). Ending
    /// the phase is judged the same way. 0 for `normal`.
    pub reply: usize,
    /// With a reply, where else the line ends: 0, only at the count of the enemy's
    /// decisions; 1, also where the player turn it began in ends (after the enemy's defensive
    /// fire and the side's own fire and melee); 2, also where the side's own next player
    /// turn begins, so that the line holds the enemy's whole answer (its movement, fire and
    /// melee, up to `reply` decisions) and none of the side's next moves. In Hex Command:
    /// Mechanized, where a unit moves one hex a decision, a line ended by the count alone
    /// stopped half-way through a movement, often the side's own next one.
    pub horizon: usize,
    /// Rounds of successive halving after the first look: each round keeps the better half
    /// of the candidates and looks at them again on twice as many fresh sampled worlds as
    /// the round before, so the choice among the few best rests on many samples rather than
    /// on the luck of six (which favours whichever candidate's dice happened to fall well).
    /// 0 for `normal`.
    pub halving: usize,
    /// On a crowded map (over [`CROWDED`] units), where the follow-up, the reply and the
    /// halving are left out to keep a turn quick: the actions looked at per batch (one per
    /// unit)…
    pub crowd_candidates: usize,
    /// …and the sampled worlds each is looked at on…
    pub crowd_samples: usize,
    /// …and the enemy's decisions each is judged after (as `reply`; 0 leaves the answer out).
    /// Off for every bot: on hc-corps it made `hard` fire less and lose to `normal`
    /// (docs/AI.md, "`hard`").
    pub crowd_reply: usize,
    /// …and the pull towards the objectives there, in place of the weights' `approach`
    /// (`None`: the same). On hc-corps' 64 × 40 hexes, where the towns and bridges lie across
    /// a river, `hard` at three times the standard pull beat `normal` three games in four
    /// rather than three in five (docs/AI.md, "`hard`").
    pub crowd_approach: Option<f64>,
    /// The evaluation's weights ([`Weights::STANDARD`] unless set).
    pub weights: Weights,
    /// Threads that share the looks at the candidates (at most the machine's cores; the first
    /// look, the rounds of halving and the second look): each judges its share on the same
    /// sampled worlds with an evaluator of its own, and the looks are put back in the
    /// candidates' order, so the decision is the same with any number of threads; only its
    /// time changes.
    pub threads: usize,
    /// Lines played through the enemy's answer (a candidate on a sampled world, with a
    /// follow-up or a reply) that one player turn's decisions look at in full; 0 for no
    /// limit (every bot's default). Once half of it is spent, each decision looks on fewer
    /// sampled worlds, in proportion to what is left, down to [`TURN_FLOOR_SAMPLES`]: a turn
    /// of many decisions (every unit moving, then firing) costs not much more than this many
    /// lines, so a slow machine or a big battle can bound its time, and a decision is still
    /// the same for a seed whatever the machine's speed. In one hc-crossroads game (seed 4),
    /// `hard`'s longest turn played 6 276 lines; the lines of a Black Powder turn cost about
    /// eight times those of a Hex Command one (docs/AI.md, "Settings of the heuristic").
    pub turn_lines: usize,
}

impl HeuristicSettings {
    pub const NORMAL: HeuristicSettings = HeuristicSettings {
        candidates: 8,
        samples: 3,
        blunder: 0.0,
        follow: 0,
        reply: 0,
        horizon: 0,
        halving: 0,
        crowd_candidates: 3,
        crowd_samples: 1,
        crowd_reply: 0,
        crowd_approach: None,
        weights: Weights::STANDARD,
        threads: 1,
        turn_lines: 0,
    };
    pub const EASY: HeuristicSettings = HeuristicSettings {
        candidates: 2,
        samples: 1,
        blunder: 0.25,
        follow: 0,
        reply: 0,
        horizon: 0,
        halving: 0,
        crowd_candidates: 2,
        crowd_samples: 1,
        crowd_reply: 0,
        crowd_approach: None,
        weights: Weights::STANDARD,
        threads: 1,
        turn_lines: 0,
    };
    /// The `hard` bot: the heuristic looking at twice as many actions, on four times as many
    /// sampled worlds, each judged after the enemy's answer, up to the side's own next
    /// player turn; on a crowded map, where the answer is left out, 8 actions a batch (one a
    /// unit) on 4 worlds each (docs/AI.md: the settings tried and how each fared).
    pub const HARD: HeuristicSettings = HeuristicSettings {
        candidates: 16,
        samples: 12,
        blunder: 0.0,
        follow: 0,
        reply: 10,
        horizon: 2,
        halving: 0,
        crowd_candidates: 8,
        crowd_samples: 4,
        crowd_reply: 0,
        crowd_approach: Some(0.09),
        weights: Weights::HARD,
        threads: 2,
        turn_lines: 0,
    };
    /// The quick player of a follow-up: its best four actions, one look each.
    const FOLLOW_UP: HeuristicSettings = HeuristicSettings {
        candidates: 4,
        samples: 1,
        blunder: 0.0,
        follow: 0,
        reply: 0,
        horizon: 0,
        halving: 0,
        crowd_candidates: 3,
        crowd_samples: 1,
        crowd_reply: 0,
        crowd_approach: None,
        weights: Weights::STANDARD,
        threads: 1,
        turn_lines: 0,
    };

    /// The most positions one decision plays out: each candidate on each sampled world
    /// (again on about as many in each round of halving), and the second look before ending
    /// a phase on dice, each with its follow-up and the enemy's reply (a quick player's look
    /// at four actions each, and the side's own decisions among the reply).
    pub const fn work(&self) -> usize {
        let first = self.candidates * self.samples * (1 + self.halving);
        let second = SECOND_LOOK_CANDIDATES * SECOND_LOOK_WORLDS;
        let among = if self.reply > 0 {
            OWN_AMONG_THE_REPLY
        } else {
            0
        };
        let crowd_among = if self.crowd_reply > 0 {
            OWN_AMONG_THE_REPLY
        } else {
            0
        };
        let crowded = self.crowd_candidates
            * self.crowd_samples
            * LOOK_FURTHER
            * (1 + 4 * (self.crowd_reply + crowd_among));
        let open = (first + second) * (1 + 4 * (self.follow + self.reply + among));
        if crowded > open {
            crowded
        } else {
            open
        }
    }

    /// The evaluation's weights on a map crowded or not.
    pub fn weights(&self, crowded: bool) -> Weights {
        match self.crowd_approach {
            Some(approach) if crowded => Weights {
                approach,
                ..self.weights
            },
            _ => self.weights,
        }
    }

    /// Reads `candidates=8,samples=3,follow=3,blunder=0.1` (comma-separated, each optional)
    /// over the normal settings.
    pub fn parse(text: &str) -> Result<HeuristicSettings, String> {
        let mut s = HeuristicSettings::NORMAL;
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("heuristic setting \"{part}\" should be KEY=VALUE"))?;
            let (key, value) = (key.trim(), value.trim());
            let number = |most: usize| {
                value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| {
                        (1..=most).contains(n)
                            || matches!(key, "follow" | "reply" | "halving" | "horizon" | "crowd_reply" | "turn_lines")
                                && *n == 0
                    })
                    .ok_or_else(|| {
                        format!("heuristic setting {key} needs a whole number up to {most}, not \"{value}\"")
                    })
            };
            let weight = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|x| (0.0..=100.0).contains(x))
                    .ok_or_else(|| {
                        format!("heuristic setting {key} (a weight of the evaluation) needs a number from 0 to 100, not \"{value}\"")
                    })
            };
            match key {
                "candidates" => s.candidates = number(64)?,
                "samples" => s.samples = number(32)?,
                "follow" => s.follow = number(32)?,
                "reply" => s.reply = number(32)?,
                "halving" => s.halving = number(4)?,
                "horizon" => s.horizon = number(2)?,
                "crowd_candidates" => s.crowd_candidates = number(64)?,
                "crowd_samples" => s.crowd_samples = number(32)?,
                "crowd_reply" => s.crowd_reply = number(32)?,
                "crowd_approach" => s.crowd_approach = Some(weight()?),
                "threads" => s.threads = number(16)?,
                "turn_lines" => s.turn_lines = number(10_000_000)?,
                "blunder" => {
                    s.blunder = value
                        .parse::<f64>()
                        .ok()
                        .filter(|b| (0.0..=1.0).contains(b))
                        .ok_or_else(|| {
                            format!(
                            "heuristic setting blunder needs a chance from 0 to 1, not \"{value}\""
                        )
                        })?
                }
                other => {
                    let Some(w) = s.weights.get_mut(other) else {
                        return Err(format!(
                            "unknown heuristic setting \"{other}\" (known: candidates, samples, follow, reply, horizon, halving, crowd_candidates, crowd_samples, crowd_reply, crowd_approach, blunder, threads, turn_lines, and the evaluation's weights: {})",
                            Weights::NAMES
                        ));
                    };
                    *w = weight()?
                }
            }
        }
        Ok(s)
    }
}

/// Gains smaller than this are not worth an action: the phase ends instead.
const END_MARGIN: f64 = 0.004;
/// Before ending a phase on dice, the best few actions that rolled are looked at again…
const SECOND_LOOK_CANDIDATES: usize = 4;
/// …on this many fresh worlds.
const SECOND_LOOK_WORLDS: usize = 12;
/// Batches of candidates looked at on a crowded map before ending the phase.
const LOOK_FURTHER: usize = 4;
/// Above this many units on the map the lookahead narrows, to keep a turn fast.
const CROWDED: usize = 120;
/// The fewest sampled worlds a decision looks on once its player turn's lines run short
/// ([`HeuristicSettings::turn_lines`]): `normal`'s.
pub const TURN_FLOOR_SAMPLES: usize = 3;

/// The sampled worlds a decision looks on when `spent` of a player turn's `budget` lines are
/// gone ([`HeuristicSettings::turn_lines`]): all of `samples` up to half the budget, then in
/// proportion to what is left, never fewer than [`TURN_FLOOR_SAMPLES`] (nor more than
/// `samples`).
pub fn thinned(samples: usize, spent: usize, budget: usize) -> usize {
    if budget == 0 || 2 * spent <= budget {
        return samples;
    }
    let left = budget.saturating_sub(spent);
    // samples × left / (budget / 2), rounded to the nearest.
    let share = (2 * samples * left + budget / 2) / budget;
    share.clamp(TURN_FLOOR_SAMPLES.min(samples), samples)
}

pub struct HeuristicBot {
    rng: ChaCha8Rng,
    settings: HeuristicSettings,
    spec: String,
    /// The threads besides the caller's that share the looks at the candidates
    /// ([`HeuristicSettings::threads`]), started at the first decision and kept for the game.
    helpers: Vec<Helper>,
    /// The player turn of the last decision (the game turn and its phasing side) and the
    /// lines its decisions have looked at ([`HeuristicSettings::turn_lines`]).
    spent: ((u32, Option<Side>), usize),
}

impl HeuristicBot {
    pub fn new(seed: u64, settings: HeuristicSettings, spec: &str) -> HeuristicBot {
        HeuristicBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            settings,
            spec: spec.to_string(),
            helpers: Vec::new(),
            spent: ((0, None), 0),
        }
    }
}

thread_local! {
    /// The most threads a heuristic bot deciding on this thread thinks on, whatever its
    /// settings: lowered on the threads that play games side by side
    /// ([`crate::play::simulate`]), where the cores are taken already.
    static THREAD_CAP: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

/// Caps the threads of the heuristic bots that decide on this thread ([`THREAD_CAP`]).
pub(crate) fn cap_threads_here(most: usize) {
    THREAD_CAP.with(|c| c.set(most.max(1)));
}

/// One action to look at: played with `follow` of the side's own decisions after it, on
/// the sampled worlds `worlds` (of those made).
#[derive(Clone, Debug)]
struct Item {
    action: Action,
    follow: usize,
    worlds: std::ops::Range<usize>,
}

/// A look at some actions, shared by the caller and the helpers: each takes the next item
/// not yet taken until none is left, so a thread that drew quick lines takes more of them
/// and none waits long for the others.
struct Job {
    worlds: Arc<Worlds>,
    view: Arc<View>,
    side: Side,
    weights: Weights,
    items: Arc<[Item]>,
    /// The next item to take.
    next: Arc<AtomicUsize>,
    /// The evaluation before the decision, and the reply.
    how: (f64, usize),
}

impl Job {
    /// Takes items until none is left: each item's place and gains.
    fn take(&self, eval: &Evaluator) -> Vec<(usize, Gains)> {
        let (base, reply) = self.how;
        let mut out = Vec::new();
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = self.items.get(i) else {
                return out;
            };
            let range = item.worlds.clone();
            let gains = self
                .worlds
                .gains(item.action, eval, base, item.follow, reply, range);
            out.push((i, gains));
        }
    }
}

/// A thread kept for the bot's whole game. A thread started for each decision came out no
/// quicker than none: its walking distances (kept per thread) and its memory were cold at
/// every decision.
struct Helper {
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<Vec<(usize, Gains)>>,
}

impl Helper {
    fn start() -> Helper {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, done) = mpsc::channel();
        std::thread::Builder::new()
            .name("volley-ai look".into())
            .spawn(move || {
                for job in inbox {
                    let eval = Evaluator::weighted(&job.view, job.side, job.weights);
                    let gains = job.take(&eval);
                    // The worlds go back before the answer, so the caller may extend them.
                    drop(job);
                    if outbox.send(gains).is_err() {
                        break;
                    }
                }
            })
            .expect("the system refused a thread for the bot's lookahead");
        Helper { jobs, done }
    }
}

/// What the looks at candidates in one decision share.
struct Looking<'a> {
    helpers: &'a [Helper],
    view: &'a Arc<View>,
    eval: &'a Evaluator,
    side: Side,
    weights: Weights,
    /// The evaluation before the decision, the follow-up and the reply.
    how: (f64, usize, usize),
    /// The lines played through the enemy's answer so far ([`HeuristicSettings::turn_lines`]).
    lines: std::cell::Cell<usize>,
}

impl Looking<'_> {
    /// The gains of each of `actions` on the worlds in `range`, in the order of `actions`
    /// (with the follow-up of [`Looking::how`]).
    fn gains(
        &self,
        worlds: &Arc<Worlds>,
        actions: &[Action],
        range: std::ops::Range<usize>,
    ) -> Vec<Gains> {
        let follow = self.how.1;
        let items = actions.iter().map(|&action| Item {
            action,
            follow,
            worlds: range.clone(),
        });
        self.items(worlds, items.collect())
    }

    /// The gains of each item, in their order: the items are shared out between this
    /// thread and the helpers, each item judged with the evaluator of the thread that takes
    /// it (an evaluator keeps its walking distances behind an `Rc`), and an item's gains are
    /// the same whichever thread takes it, so the decision does not depend on how many
    /// threads there are.
    fn items(&self, worlds: &Arc<Worlds>, items: Vec<Item>) -> Vec<Gains> {
        let (base, _, reply) = self.how;
        let counted: Vec<bool> = items.iter().map(|i| i.follow + reply > 0).collect();
        let job = Job {
            worlds: worlds.clone(),
            view: self.view.clone(),
            side: self.side,
            weights: self.weights,
            next: Arc::new(AtomicUsize::new(0)),
            items: items.into(),
            how: (base, reply),
        };
        let helped = &self.helpers[..self.helpers.len().min(job.items.len().saturating_sub(1))];
        for helper in helped {
            let share = Job {
                worlds: job.worlds.clone(),
                view: job.view.clone(),
                items: job.items.clone(),
                next: job.next.clone(),
                ..job
            };
            helper
                .jobs
                .send(share)
                .expect("a helper of the lookahead stopped (it panicked)");
        }
        let mut taken = job.take(self.eval);
        for helper in helped {
            taken.extend(
                helper
                    .done
                    .recv()
                    .expect("a helper of the lookahead stopped (it panicked)"),
            );
        }
        let mut out = vec![Gains::default(); job.items.len()];
        for (i, gains) in taken {
            out[i] = gains;
        }
        let played: usize = out
            .iter()
            .zip(&counted)
            .filter(|(_, &c)| c)
            .map(|(g, _)| g.worlds)
            .sum();
        self.lines.set(self.lines.get() + played);
        out
    }
}

impl Bot for HeuristicBot {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn choose(&mut self, game: &dyn Game, side: Side) -> Action {
        let legal = game.legal_actions();
        assert!(
            !legal.is_empty(),
            "{side} was asked to choose but {} lists no legal action",
            game.ruleset()
        );
        if legal.len() == 1 {
            return legal[0];
        }
        if self.settings.blunder > 0.0 && self.rng.random_bool(self.settings.blunder) {
            return legal[self.rng.random_range(0..legal.len())];
        }
        let view = Arc::new(game.search_view(Some(side)));
        let crowded = view.units.len() + view.markers.len() > CROWDED;
        let eval = Evaluator::weighted(&view, side, self.settings.weights(crowded));
        // On a crowded map the actions are put in order below, one a unit.
        let ranked = if crowded {
            unordered_priors(game, &legal, &view, &eval)
        } else {
            priors(game, &legal, &view, &eval)
        };
        let mut k = self.settings.candidates;
        if crowded {
            k = k.min(self.settings.crowd_candidates);
        }
        let seed: u64 = self.rng.random();
        let end = ranked.iter().filter(|r| r.end).map(|r| r.action).min();
        let mut choices: Vec<&Ranked> = ranked.iter().filter(|r| !r.end).collect();
        if crowded {
            // Actions the cheap ordering scores alike are listed in the ruleset's order, which
            // follows the map's grid: of a unit's equal steps forward the northernmost comes
            // first, the longest stride for a side marching north and the shortest for one
            // marching south. With only one action a unit looked at, that order picked the
            // step and favoured one side (hc-corps, turned half a circle onto itself, gave
            // Red 62% between equal bots): ties are broken by a shuffle of this decision's
            // seed instead, the same for either side.
            let shuffled = |r: &Ranked| crate::game_seed(seed, r.action.0 as usize);
            let before = |a: &&Ranked, b: &&Ranked| {
                b.prior
                    .total_cmp(&a.prior)
                    .then_with(|| shuffled(a).cmp(&shuffled(b)))
                    .then(a.action.cmp(&b.action))
            };
            // With many units, look at one action per unit so that a few units' poor options
            // cannot crowd out everyone else's.
            let units = view.units.iter().map(|u| u.key as usize + 1).max();
            choices = one_a_unit(choices, units.unwrap_or(0), before);
        }
        if choices.is_empty() {
            return end.unwrap_or(legal[0]);
        }
        let base = eval.evaluate(&view);
        // The lines this player turn's decisions have looked at so far.
        let turn = (game.turn(), game.phasing());
        if self.spent.0 != turn {
            self.spent = (turn, 0);
        }
        let samples = if crowded {
            self.settings.crowd_samples
        } else {
            thinned(
                self.settings.samples,
                self.spent.1,
                self.settings.turn_lines,
            )
        };
        // The second look before ending a phase on dice thins out in proportion.
        let second_worlds = SECOND_LOOK_WORLDS * samples / self.settings.samples.max(samples);
        let halving = if crowded { 0 } else { self.settings.halving };
        // Round r of the halving looks at samples·2^r fresh worlds: samples·(2^(h+1) − 1) in all.
        let mut worlds = Worlds::new(game, &view, side, seed, samples * ((2 << halving) - 1));
        worlds.horizon = self.settings.horizon;
        let mut worlds = Arc::new(worlds);
        let mut best = (f64::NEG_INFINITY, choices[0]);
        let mut worth = false;
        // Look at the best few; on a crowded map, when none of them is worth playing, at the
        // next few, up to a limit, before ending the phase.
        let batches = if crowded { LOOK_FURTHER } else { 1 };
        let (follow, reply) = if crowded {
            (0, self.settings.crowd_reply)
        } else {
            (self.settings.follow, self.settings.reply)
        };
        // With the enemy's answer looked at, ending the phase is judged the same way (it
        // lets the enemy answer at once), on every world made, alongside the first look at
        // the candidates; otherwise it leaves the position as it is.
        let mut stop_item = match end {
            Some(action) if reply > 0 => Some(Item {
                action,
                follow: 0,
                worlds: 0..usize::MAX,
            }),
            _ => None,
        };
        let mut stop = 0.0;
        let mut lines = 0;
        // The best of the candidates looked at (its score and place), and whether it is worth
        // playing rather than ending the phase.
        let pick = |looked: &[Look], stop: f64| -> (f64, usize, bool) {
            let mut best = (f64::NEG_INFINITY, 0);
            for (i, l) in looked.iter().enumerate() {
                // A sliver of the cheap ordering breaks ties between equal lookaheads.
                let score = l.mean() + 1e-4 * l.ranked.prior;
                if score > best.0 {
                    best = (score, i);
                }
            }
            // An attack that does no harm is worth making even when the sampled dice all
            // missed: its expected effect is still positive.
            let attack = looked[best.1].ranked.attack;
            let worth = best.0 > stop + END_MARGIN || (attack && best.0 > stop - END_MARGIN);
            (best.0, best.1, worth)
        };
        // The machine's cores, asked once: Linux reads the cgroup's files to answer, and the
        // quick players of the lines come through here thousands of times a decision.
        static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let threads = match self.settings.threads {
            1 => 1,
            n => n
                .min(*CORES.get_or_init(|| {
                    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
                }))
                .min(THREAD_CAP.with(std::cell::Cell::get)),
        };
        while self.helpers.len() + 1 < threads {
            self.helpers.push(Helper::start());
        }
        let weights = self.settings.weights(crowded);
        for batch in choices.chunks(k.max(1)).take(batches) {
            let looking = Looking {
                helpers: &self.helpers[..threads - 1],
                view: &view,
                eval: &eval,
                side,
                weights,
                how: (base, follow, reply),
                lines: std::cell::Cell::new(0),
            };
            let mut items: Vec<Item> = batch
                .iter()
                .map(|r| Item {
                    action: r.action,
                    follow,
                    worlds: 0..samples,
                })
                .collect();
            let stopping = stop_item.take().map(|i| items.push(i)).is_some();
            let mut first = looking.items(&worlds, items);
            if stopping {
                stop = first.pop().expect("the stop's look").mean();
            }
            let mut looked: Vec<Look> = batch
                .iter()
                .zip(first)
                .map(|(&r, g)| Look::new(r, g))
                .collect();
            let mut from = samples;
            for round in 1..=halving {
                if looked.len() < 2 {
                    break;
                }
                looked.sort_by(|a, b| b.mean().total_cmp(&a.mean()));
                looked.truncate(looked.len().div_ceil(2));
                let fresh = from..from + (samples << round);
                let actions: Vec<Action> = looked.iter().map(|l| l.ranked.action).collect();
                for (l, g) in looked
                    .iter_mut()
                    .zip(looking.gains(&worlds, &actions, fresh.clone()))
                {
                    l.add(g);
                }
                from = fresh.end;
            }
            let (score, i, w) = pick(&looked, stop);
            (best, worth) = ((score, looked[i].ranked), w);
            // Before the phase is ended on a few worlds' dice (every order's command roll
            // failed in them, or a one-in-36 blunder came up), the actions whose outcome hung
            // on dice are looked at again on more worlds: an order that succeeds two times in
            // three is worth giving even when the first worlds' rolls all failed.
            if !worth && !crowded && looked.iter().any(|l| l.rolled) {
                let fresh = from..from + second_worlds;
                Arc::get_mut(&mut worlds)
                    .expect("the helpers gave the worlds back")
                    .extend(game, fresh.end);
                // The best few of those that rolled, judged on the fresh worlds alone: the
                // first ones were looked at again because their dice fell badly, so counting
                // them would keep that bad luck.
                looked.retain(|l| l.rolled);
                looked.sort_by(|a, b| b.mean().total_cmp(&a.mean()));
                looked.truncate(SECOND_LOOK_CANDIDATES);
                let actions: Vec<Action> = looked.iter().map(|l| l.ranked.action).collect();
                for (l, g) in looked
                    .iter_mut()
                    .zip(looking.gains(&worlds, &actions, fresh))
                {
                    *l = Look::new(l.ranked, g);
                }
                let (score, i, w) = pick(&looked, stop);
                (best, worth) = ((score, looked[i].ranked), w);
            }
            lines += looking.lines.get();
            if worth {
                break;
            }
        }
        self.spent.1 += lines;
        match end {
            Some(end) if !worth => end,
            _ => best.1.action,
        }
    }
}

/// What the lookahead found for one candidate: the sum of its gains over the worlds looked
/// at, how many, and whether any of them rolled dice.
struct Look<'r> {
    ranked: &'r Ranked,
    sum: f64,
    n: usize,
    rolled: bool,
}

impl<'r> Look<'r> {
    fn new(ranked: &'r Ranked, g: Gains) -> Look<'r> {
        Look {
            ranked,
            sum: g.sum,
            n: g.worlds,
            rolled: g.rolled,
        }
    }

    fn add(&mut self, g: Gains) {
        self.sum += g.sum;
        self.n += g.worlds;
        self.rolled |= g.rolled;
    }

    fn mean(&self) -> f64 {
        self.sum / self.n.max(1) as f64
    }
}

/// The evaluation's changes over some sampled worlds when an action is played.
#[derive(Clone, Copy, Debug, Default)]
pub struct Gains {
    /// The sum of the changes.
    pub sum: f64,
    /// The worlds looked at.
    pub worlds: usize,
    /// Whether dice were rolled in any of them.
    pub rolled: bool,
}

impl Gains {
    pub fn mean(&self) -> f64 {
        self.sum / self.worlds.max(1) as f64
    }
}

/// Determinized copies of the game, made once per decision and shared by every action
/// looked at, each with its own dice seed (common random numbers, so actions are compared
/// on the same luck).
pub struct Worlds {
    copies: Vec<(Box<dyn Game>, Seed)>,
    side: Side,
    seed: u64,
    /// The dice that deal each new copy's hidden units.
    dealer: SeededDice,
    /// Whether the side sees everything, so a diceless action needs only one copy.
    open: bool,
    /// Where else each line ends ([`HeuristicSettings::horizon`]).
    pub horizon: usize,
}

impl Worlds {
    pub fn new(game: &dyn Game, view: &View, side: Side, seed: u64, samples: usize) -> Worlds {
        let mut worlds = Worlds {
            copies: Vec::new(),
            side,
            seed,
            dealer: SeededDice::new(Seed::from_u64(seed)),
            open: view.markers.is_empty(),
            horizon: 0,
        };
        worlds.extend(game, samples.max(1));
        worlds
    }

    /// Makes copies up to `total` of them (each new one after those already made, so the
    /// first copies are the same however many are asked for later).
    pub fn extend(&mut self, game: &dyn Game, total: usize) {
        while self.copies.len() < total {
            let k = self.copies.len() as u64;
            let copy = game.determinize(self.side, &mut self.dealer);
            let dice = Seed::from_u64(self.seed ^ (k + 1).wrapping_mul(0x9e37_79b9));
            self.copies.push((copy, dice));
        }
    }

    /// The sum of the evaluation's changes over the worlds `worlds` (of those made) when
    /// `action` is played and then the line [`play_line`] describes, and how many worlds
    /// that is.
    pub fn gains(
        &self,
        action: Action,
        eval: &Evaluator,
        base: f64,
        follow: usize,
        reply: usize,
        worlds: std::ops::Range<usize>,
    ) -> Gains {
        let mut out = Gains::default();
        let end = worlds.end.min(self.copies.len());
        for (copy, seed) in &self.copies[worlds.start.min(end)..end] {
            out.worlds += 1;
            // Legal for the side but not in this sampled world: counted as no gain.
            let Some((g, rolls)) = play_line(
                &**copy,
                *seed,
                self.side,
                action,
                follow,
                reply,
                self.horizon,
            ) else {
                continue;
            };
            let after = eval.evaluate(&g.search_view(Some(self.side)));
            out.sum += after - base;
            out.rolled |= rolls > 0;
            if rolls == 0 && self.open {
                break;
            }
        }
        out
    }
}

/// Plays `action` for `side` on a copy of `world` with the dice of `seed`, and after it up
/// to `follow` more of the side's own decisions, each by a quick heuristic, while the side
/// still decides and the quick player does not end the phase. Then, if `reply` is not 0, the
/// phase is ended (by the quick player or, when the follow-up ran out first, here) and play
/// goes on, the same quick heuristic deciding for whoever decides, until the enemy has made
/// `reply` decisions (with at most [`OWN_AMONG_THE_REPLY`] of the side's own among them), so
/// that the line is judged after the enemy's answer: the volleys a move walks into, the
/// charge it invites. With a `horizon` ([`HeuristicSettings::horizon`]) the line also ends
/// where the player turn it began in ends (1) or where the side's own next player turn
/// begins (2). Returns the game at the end of the line and the dice rolled on the way,
/// or `None` when `action` is not legal in this world.
pub fn play_line(
    world: &dyn Game,
    seed: Seed,
    side: Side,
    action: Action,
    follow: usize,
    reply: usize,
    horizon: usize,
) -> Option<(Box<dyn Game>, u32)> {
    // The player turn the line begins in: the game turn and its phasing side.
    let began = (horizon > 0).then(|| (world.turn(), world.phasing()));
    let mut g = world.clone_game();
    let mut dice = Counting {
        inner: SeededDice::new(seed),
        rolls: 0,
    };
    let mut ended = g.describe(action).kind == ActionKind::End;
    g.apply_quiet(action, &mut dice).ok()?;
    // Ending the phase with a reply to look at, what the enemy may do at once is its reply.
    if !(ended && reply > 0) {
        see_through_interrupt(&mut *g, side, &mut dice);
    }
    if follow == 0 && reply == 0 {
        return Some((g, dice.rolls));
    }
    let word = u64::from_le_bytes(seed.0[..8].try_into().expect("32 bytes"));
    let mut quick = HeuristicBot::new(word, HeuristicSettings::FOLLOW_UP, "follow-up");
    for _ in 0..follow {
        if ended || g.to_decide() != Some(side) {
            break;
        }
        let next = quick.choose(&*g, side);
        // Without a reply to look at, the phase's end is where the judging stops; with one,
        // the phase is ended so that the enemy may answer.
        ended = g.describe(next).kind == ActionKind::End;
        if ended && reply == 0 {
            break;
        }
        // The quick player chose from this very position's legal list.
        g.apply_unchecked(next, &mut dice);
        if !ended {
            see_through_interrupt(&mut *g, side, &mut dice);
        }
    }
    if reply == 0 {
        return Some((g, dice.rolls));
    }
    // The follow-up ran out before the quick player ended the phase: it is ended here.
    if !ended && g.to_decide() == Some(side) {
        let end = g
            .legal_actions()
            .into_iter()
            .find(|&a| g.describe(a).kind == ActionKind::End);
        // What the enemy may do at once (Hex Command's defensive fire) is its reply, not an
        // interrupt to pass over.
        if let Some(end) = end {
            g.apply_unchecked(end, &mut dice);
        }
    }
    // The answer rolls from a stream of its own, begun afresh, so that on one sampled world
    // the enemy's dice (Black Powder's command rolls above all) fall the same way whichever
    // action is looked at, however many rolls that action took: the candidates are compared
    // on the same luck of the answer, not on how many of the enemy's orders happened to pass.
    let mut answer = seed;
    answer.0[31] ^= 0xa5;
    dice.inner = SeededDice::new(answer);
    // Then the play goes on, the quick player deciding for whoever decides, until the enemy
    // has made `reply` decisions: its answer, with what the side does in between (Hex
    // Command's phasing fire after the enemy's defensive fire, Black Powder's command units
    // moving after the orders), up to a few of the side's own decisions.
    let (mut theirs, mut ours) = (0, 0);
    while let Some(who) = g.to_decide() {
        let (count, most) = if who == side {
            (&mut ours, OWN_AMONG_THE_REPLY)
        } else {
            (&mut theirs, reply)
        };
        if *count == most {
            break;
        }
        if began.is_some_and(|b| {
            let now = (g.turn(), g.phasing());
            now != b && (horizon == 1 || now.1 == Some(side))
        }) {
            break;
        }
        *count += 1;
        let next = quick.choose(&*g, who);
        g.apply_unchecked(next, &mut dice);
    }
    Some((g, dice.rolls))
}

/// Interrupts the action opened for the other side (a charge's answer, opportunity fire)
/// are passed over as if the other side let them go: it ends each (or, where it must answer,
/// takes its first answer) until the decision comes back, so the action is judged by what it
/// settles (a charge by its combat) rather than by the half-way position.
fn see_through_interrupt(g: &mut dyn Game, side: Side, dice: &mut dyn Dice) {
    for _ in 0..MAX_PASSES {
        let Some(other) = g.to_decide() else { return };
        if other == side || g.phasing() != Some(side) {
            return;
        }
        let legal = g.legal_actions();
        let pass = legal
            .iter()
            .copied()
            .find(|&a| g.describe(a).kind == ActionKind::End)
            .or_else(|| legal.first().copied());
        match pass {
            Some(a) if g.apply_quiet(a, dice).is_ok() => {}
            _ => return,
        }
    }
}

/// The side's own decisions at most among the enemy's reply (Hex Command's phasing fire and
/// melee, Stand and Die!'s own musketry, Black Powder's command units moving).
pub const OWN_AMONG_THE_REPLY: usize = 8;

/// Answers passed over at most, after one action.
const MAX_PASSES: usize = 8;

struct Counting {
    inner: SeededDice,
    rolls: u32,
}

impl Dice for Counting {
    fn roll(&mut self, sides: u32) -> u32 {
        self.rolls += 1;
        self.inner.roll(sides)
    }
}

/// A legal action with its cheap score.
#[derive(Clone, Debug)]
pub struct Ranked {
    pub action: Action,
    pub prior: f64,
    /// The action that ends the phase.
    pub end: bool,
    /// It strikes at a hex held by an enemy (fire, melee, charge).
    pub attack: bool,
    /// The acting unit's key, when one of the side's units acts.
    pub unit: Option<u32>,
}

/// Each unit's first action in the order `before`, with every action of no unit, all in that
/// order: what sorting the whole list and keeping each unit's first would give, found in one
/// pass over the thousands a crowded map lists rather than by sorting them all. `units` is
/// one more than the greatest unit key.
fn one_a_unit<'a>(
    choices: Vec<&'a Ranked>,
    units: usize,
    before: impl Fn(&&'a Ranked, &&'a Ranked) -> std::cmp::Ordering,
) -> Vec<&'a Ranked> {
    let mut first: Vec<Option<&Ranked>> = vec![None; units];
    let mut others = Vec::new();
    for r in choices {
        match r.unit {
            Some(k) => {
                let slot = &mut first[k as usize];
                if slot.is_none_or(|s| before(&r, &s).is_lt()) {
                    *slot = Some(r);
                }
            }
            None => others.push(r),
        }
    }
    let mut out: Vec<&Ranked> = first.into_iter().flatten().chain(others).collect();
    out.sort_by(before);
    out
}

/// Orders the legal actions, best first, by what [`Game::describe`] says of them: the
/// acting unit and the hex it goes to or strikes at. No rules are consulted, so this is
/// cheap and the same for every ruleset.
pub fn priors(game: &dyn Game, legal: &[Action], view: &View, eval: &Evaluator) -> Vec<Ranked> {
    let mut out = unordered_priors(game, legal, view, eval);
    // Each action is listed once, so the order is total and an unstable sort gives the same.
    out.sort_unstable_by(|a, b| b.prior.total_cmp(&a.prior).then(a.action.cmp(&b.action)));
    out
}

/// The cheap ordering's scores of [`priors`], in the listing's order.
fn unordered_priors(
    game: &dyn Game,
    legal: &[Action],
    view: &View,
    eval: &Evaluator,
) -> Vec<Ranked> {
    let side = eval.side;
    let g = eval.geometry;
    let mut own: Vec<Option<&UnitView>> = Vec::new();
    for u in view.units.iter().filter(|u| u.side == side) {
        let k = u.key as usize;
        if own.len() <= k {
            own.resize(k + 1, None);
        }
        own[k] = Some(u);
    }
    let enemies = eval.enemies(view);
    let near = eval.near(view, &enemies);
    let goal_distance = |h: Hex| -> u32 {
        let to_goal = eval.objective_distance(h);
        let to_foe = near.nearest(h).map(|(d, _, _)| d + 1);
        to_goal.into_iter().chain(to_foe).min().unwrap_or(0)
    };
    let near_enemy = |h: Hex, within: u32| near.nearest(h).is_some_and(|(d, _, _)| d <= within);
    legal
        .iter()
        .map(|&action| {
            let info = game.describe(action);
            if info.kind == ActionKind::End {
                return Ranked {
                    action,
                    prior: 0.0,
                    end: true,
                    attack: false,
                    unit: None,
                };
            }
            let unit = info
                .unit
                .and_then(|k| own.get(k as usize).copied().flatten());
            let hex = info.place.and_then(|p| g.hex(&p));
            let target = hex.and_then(|h| near.at(h).map(|t| (h, t)));
            let prior = match (unit, hex, target) {
                // A decoy's moves gain nothing the evaluation sees: last, so they never crowd
                // out a real unit's.
                (Some(u), _, _) if is_decoy(u) => -5.0,
                (Some(u), Some(_), Some((h, t))) => attack_prior(eval, &g, u, h, t),
                (Some(u), Some(h), None) => move_prior(eval, &g, u, h, &goal_distance, &near_enemy),
                // Facing, limbering, attaching, advancing: the lookahead judges them.
                _ => 0.5,
            };
            Ranked {
                action,
                prior,
                end: false,
                attack: target.is_some(),
                unit: unit.map(|u| u.key),
            }
        })
        .collect()
}

/// Attacks on weakened enemies and on enemies taken in flank or rear come first; guns
/// firing are always worth it.
fn attack_prior(
    eval: &Evaluator,
    g: &Geometry,
    attacker: &UnitView,
    target_hex: Hex,
    target: Option<&UnitView>,
) -> f64 {
    let mut p = 2.0;
    if let Some(t) = target {
        p += 1.5 * (1.0 - eval.health(t));
        if let (Some(f), Some(from)) = (t.facing, g.hex(&attacker.place)) {
            if !in_front_arc(target_hex, f, from) {
                p += 0.7;
            }
        }
        // Charging something stronger is a poor idea.
        let mine = eval.health(attacker) * arm_power(attacker);
        let theirs = eval.health(t) * arm_power(t);
        if g.hex(&attacker.place)
            .is_some_and(|a| g.distance(a, target_hex) <= 1)
            && theirs > mine
            && !is_guns(attacker)
        {
            p -= 1.5;
        }
    }
    if is_guns(attacker) {
        p += 0.5;
    }
    p
}

fn move_prior(
    eval: &Evaluator,
    g: &Geometry,
    u: &UnitView,
    to: Hex,
    goal_distance: &dyn Fn(Hex) -> u32,
    near_enemy: &dyn Fn(Hex, u32) -> bool,
) -> f64 {
    let Some(from) = g.hex(&u.place) else {
        return 0.0;
    };
    // One hex nearer is all a step should promise: a longer jump (through a friend, say)
    // has costs the lookahead must weigh.
    let nearer = goal_distance(from) as f64 - goal_distance(to) as f64;
    let mut p = 1.0 + nearer.min(1.0);
    let weak = eval.weakened(u);
    if (weak || is_guns(u)) && near_enemy(to, if weak { 2 } else { 1 }) {
        p -= 3.0;
    }
    if weak || has(u, "routed") {
        // Rather back out of reach than forward.
        p = p.min(0.2);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_crowded_pull_towards_the_objectives_replaces_approach_on_a_crowded_map_only() {
        let hard = HeuristicSettings::HARD;
        assert_eq!(hard.weights(false).approach, Weights::HARD.approach);
        assert_eq!(hard.weights(true).approach, 0.09);
        // The rest of the weights stay as they are.
        assert_eq!(hard.weights(true).race, Weights::HARD.race);
        assert_eq!(hard.weights(true).danger, Weights::HARD.danger);
        // Unset, the crowded map weighs as any other; set, it follows the spec whatever
        // order the keys come in.
        let normal = HeuristicSettings::NORMAL;
        assert_eq!(normal.weights(true).approach, Weights::STANDARD.approach);
        let spec = HeuristicSettings::parse("approach=0.05").unwrap();
        assert_eq!(spec.weights(true).approach, 0.05);
        for text in [
            "crowd_approach=0.2,approach=0.05",
            "approach=0.05,crowd_approach=0.2",
        ] {
            let s = HeuristicSettings::parse(text).unwrap();
            assert_eq!(
                (s.weights(false).approach, s.weights(true).approach),
                (0.05, 0.2)
            );
        }
    }

    #[test]
    fn the_worlds_thin_out_in_proportion_once_half_the_turns_lines_are_spent() {
        // No budget, or up to half of it spent: every world.
        assert_eq!(thinned(12, 999_999, 0), 12);
        assert_eq!(thinned(12, 0, 3000), 12);
        assert_eq!(thinned(12, 1500, 3000), 12);
        // Then 12 × what is left / 1 500, rounded: 2 000 spent leaves 1 000, 8 worlds…
        assert_eq!(thinned(12, 2000, 3000), 8);
        assert_eq!(thinned(12, 1501, 3000), 12);
        assert_eq!(thinned(12, 2500, 3000), 4);
        // …never fewer than normal's three, nor more than asked for.
        assert_eq!(thinned(12, 2900, 3000), 3);
        assert_eq!(thinned(12, 9000, 3000), 3);
        assert_eq!(thinned(2, 9000, 3000), 2);
    }

    /// hc-night-march begun: a battle of hidden units, where every line is played on every
    /// world (on an open map a move that rolls no dice is looked at on one).
    fn night_march() -> Box<dyn Game> {
        crate::tests::begun("hc-night-march", 3)
    }

    #[test]
    fn a_decision_counts_its_lines_against_the_turn_and_a_new_turn_starts_afresh() {
        let mut game = night_march();
        let side = game.to_decide().expect("someone moves first");
        let settings =
            HeuristicSettings::parse("candidates=4,samples=6,reply=2,turn_lines=40").unwrap();
        let mut bot = HeuristicBot::new(1, settings, "budget");
        let mut dice = SeededDice::new(Seed::from_u64(4));
        // The first move of the turn: four candidates and the phase's end, on six worlds
        // each (a move rolls no dice, so there is no second look).
        let a = bot.choose(&*game, side);
        assert_eq!(game.describe(a).kind, ActionKind::Move);
        assert_eq!(bot.spent, ((game.turn(), game.phasing()), 30));
        game.apply(a, &mut dice).unwrap();
        // 30 of 40 spent leaves 10: 6 × 10 / 20 worlds, rounded, is 3, the floor.
        let b = bot.choose(&*game, side);
        assert_eq!(game.describe(b).kind, ActionKind::Move);
        assert_eq!(bot.spent.1, 30 + 5 * 3);
        // The other side's player turn counts from nothing.
        while game.phasing() == Some(side) {
            let legal = game.legal_actions();
            let end = legal
                .iter()
                .find(|&&x| game.describe(x).kind == ActionKind::End);
            game.apply(*end.unwrap_or(&legal[0]), &mut dice).unwrap();
        }
        let other = game.to_decide().expect("the other side moves");
        bot.choose(&*game, other);
        assert_eq!(bot.spent.0, (game.turn(), Some(other)));
        assert_eq!(bot.spent.1, 30, "a fresh turn looks on every world");
    }

    proptest! {
        /// The one-pass pick keeps what sorting everything and then taking each unit's first
        /// kept, in the same order, ties on the score included.
        #[test]
        fn one_a_unit_is_sorting_then_each_units_first(
            listed in proptest::collection::vec((0u8..4, proptest::option::of(0u32..6)), 0..60),
        ) {
            let ranked: Vec<Ranked> = listed
                .iter()
                .enumerate()
                .map(|(i, &(prior, unit))| Ranked {
                    action: Action((i as u64 * 7919) % 1000),
                    prior: f64::from(prior),
                    end: false,
                    attack: false,
                    unit,
                })
                .collect();
            let before = |a: &&Ranked, b: &&Ranked| {
                b.prior.total_cmp(&a.prior).then(a.action.cmp(&b.action))
            };
            let mut sorted: Vec<&Ranked> = ranked.iter().collect();
            sorted.sort_by(before);
            let mut seen = std::collections::HashSet::new();
            let expected: Vec<Action> = sorted
                .iter()
                .filter(|r| r.unit.is_none_or(|k| seen.insert(k)))
                .map(|r| r.action)
                .collect();
            let got: Vec<Action> = one_a_unit(ranked.iter().collect(), 6, before)
                .iter()
                .map(|r| r.action)
                .collect();
            prop_assert_eq!(got, expected);
        }
    }
}
