//! Monte Carlo tree search over any ruleset, from one side's knowledge only.
//!
//! Open-loop information-set search: every iteration draws a fresh world with
//! [`Game::determinize`] (hidden enemies dealt among their markers) and fresh dice, then walks
//! one tree keyed by actions (not by states, which differ from world to world and roll to
//! roll). Nodes widen progressively in the heuristic's cheap order (with `end` always among
//! the first two), so the search spends itself on plausible actions. A rollout plays a few
//! random actions and the generic evaluation scores the leaf.
//!
//! With `iters=N` the search is deterministic for a seed (and a thread count); with `ms=N`
//! it stops on the clock. `threads=N` runs N trees from different seeds and adds up their
//! root visit counts (root parallelisation).

use crate::eval::Evaluator;
use crate::heuristic::priors;
use crate::Bot;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};
use volley_core::{Action, Game, Seed, SeededDice, Side};

/// How long to search each decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Millis(u64),
    Iterations(u64),
}

#[derive(Clone, Copy, Debug)]
pub struct MctsSettings {
    pub budget: Budget,
    pub threads: usize,
    /// Random actions played after leaving the tree before the evaluation is taken.
    pub depth: usize,
    /// UCB exploration constant.
    pub exploration: f64,
}

impl Default for MctsSettings {
    fn default() -> MctsSettings {
        MctsSettings {
            budget: Budget::Millis(DEFAULT_MS),
            threads: 1,
            depth: 4,
            exploration: 0.7,
        }
    }
}

/// The budget of a bare `mcts`: a whole turn of hc-crossroads stays under two seconds.
pub const DEFAULT_MS: u64 = 40;
/// The tree is not walked deeper than this many actions.
const MAX_TREE_DEPTH: usize = 40;
/// Evaluation differences are squashed into a win chance on this scale.
const SCALE: f64 = 0.5;

impl MctsSettings {
    /// Reads `ms=100`, `iters=2000`, `threads=2`, `depth=4`, `c=0.7`, comma-separated.
    pub fn parse(text: &str) -> Result<MctsSettings, String> {
        let mut s = MctsSettings::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("mcts setting \"{part}\" should be KEY=VALUE"))?;
            let number = || {
                value.trim().parse::<u64>().map_err(|_| {
                    format!("mcts setting {key} needs a whole number, not \"{value}\"")
                })
            };
            match key.trim() {
                "ms" => s.budget = Budget::Millis(number()?.max(1)),
                "iters" => s.budget = Budget::Iterations(number()?.max(1)),
                "threads" => s.threads = number()?.clamp(1, 64) as usize,
                "depth" => s.depth = number()? as usize,
                "c" => {
                    s.exploration = value
                        .trim()
                        .parse()
                        .map_err(|_| format!("mcts setting c needs a number, not \"{value}\""))?
                }
                other => {
                    return Err(format!(
                        "unknown mcts setting \"{other}\" (known: ms, iters, threads, depth, c)"
                    ))
                }
            }
        }
        Ok(s)
    }
}

pub struct MctsBot {
    rng: ChaCha8Rng,
    settings: MctsSettings,
    spec: String,
    /// Iterations run by the last decision, over all threads (for benchmarks and reports).
    pub last_iterations: u64,
}

impl MctsBot {
    pub fn new(seed: u64, settings: MctsSettings, spec: &str) -> MctsBot {
        MctsBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            settings,
            spec: spec.to_string(),
            last_iterations: 0,
        }
    }

    /// Searches and returns the root visit counts, per legal action.
    pub fn search(&mut self, game: &dyn Game, side: Side) -> Vec<(Action, u64)> {
        let seed: u64 = self.rng.random();
        let threads = self.settings.threads.max(1);
        let settings = self.settings;
        let results: Vec<(Vec<(Action, u64)>, u64)> = if threads == 1 {
            vec![Tree::new(game, side, settings, seed, 0).run(threads)]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        scope.spawn(move || Tree::new(game, side, settings, seed, t).run(threads))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked"))
                    .collect()
            })
        };
        let mut merged: Vec<(Action, u64)> = Vec::new();
        let mut iterations = 0;
        for (visits, n) in results {
            iterations += n;
            for (a, v) in visits {
                match merged.iter_mut().find(|(b, _)| *b == a) {
                    Some(m) => m.1 += v,
                    None => merged.push((a, v)),
                }
            }
        }
        self.last_iterations = iterations;
        merged
    }
}

impl Bot for MctsBot {
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
        let visits = self.search(game, side);
        legal
            .iter()
            .map(|&a| {
                let v = visits.iter().find(|(b, _)| *b == a).map_or(0, |x| x.1);
                (v, std::cmp::Reverse(a), a)
            })
            .max()
            .map(|(_, _, a)| a)
            .expect("legal is not empty")
    }
}

struct Node {
    visits: u64,
    /// Sum of rewards for the side that chose the action leading here.
    reward: f64,
    /// The actions of this node in the cheap order, once the node has been reached.
    order: Vec<Action>,
    children: Vec<(Action, usize)>,
}

impl Node {
    fn new() -> Node {
        Node {
            visits: 0,
            reward: 0.0,
            order: Vec::new(),
            children: Vec::new(),
        }
    }
}

struct Tree<'a> {
    game: &'a dyn Game,
    side: Side,
    settings: MctsSettings,
    rng: ChaCha8Rng,
    nodes: Vec<Node>,
    base: f64,
    eval: Evaluator,
}

impl<'a> Tree<'a> {
    fn new(
        game: &'a dyn Game,
        side: Side,
        settings: MctsSettings,
        seed: u64,
        thread: usize,
    ) -> Tree<'a> {
        let view = game.search_view(Some(side));
        let eval = Evaluator::new(&view, side);
        let base = eval.evaluate(&view);
        Tree {
            game,
            side,
            settings,
            rng: ChaCha8Rng::seed_from_u64(
                seed ^ (thread as u64).wrapping_mul(0x2545_f491_4f6c_dd1d),
            ),
            nodes: vec![Node::new()],
            base,
            eval,
        }
    }

    /// Runs this thread's share of the budget; returns root visits and iterations run.
    fn run(mut self, threads: usize) -> (Vec<(Action, u64)>, u64) {
        let start = Instant::now();
        let (limit, deadline) = match self.settings.budget {
            Budget::Iterations(n) => (n.div_ceil(threads as u64), None),
            Budget::Millis(ms) => (u64::MAX, Some(Duration::from_millis(ms))),
        };
        let mut done = 0;
        while done < limit {
            if let Some(d) = deadline {
                if start.elapsed() >= d {
                    break;
                }
            }
            self.iterate();
            done += 1;
            // Stop early once no other action can catch up with the most visited one.
            if done % 32 == 0 {
                let remaining = match deadline {
                    None => limit - done,
                    Some(d) => {
                        let spent = start.elapsed().as_secs_f64().max(1e-9);
                        let left = d.as_secs_f64() - spent;
                        (done as f64 * left / spent).max(0.0) as u64
                    }
                };
                if self.decided(remaining) {
                    break;
                }
            }
        }
        let root = &self.nodes[0];
        let visits = root
            .children
            .iter()
            .map(|&(a, c)| (a, self.nodes[c].visits))
            .collect();
        (visits, done)
    }

    fn decided(&self, remaining: u64) -> bool {
        let mut v: Vec<u64> = self.nodes[0]
            .children
            .iter()
            .map(|&(_, c)| self.nodes[c].visits)
            .collect();
        v.sort_unstable_by(|a, b| b.cmp(a));
        match v.as_slice() {
            [a, b, ..] => a - b > remaining,
            _ => false,
        }
    }

    fn iterate(&mut self) {
        let mut dice = SeededDice::new(Seed::from_u64(self.rng.random()));
        let mut world = self.game.determinize(self.side, &mut dice);
        let mut node = 0;
        let mut path: Vec<(usize, Side)> = Vec::new();
        let mut expanded = false;
        for _ in 0..MAX_TREE_DEPTH {
            let Some(player) = world.to_decide() else {
                break;
            };
            let legal = world.legal_actions();
            if self.nodes[node].order.is_empty() {
                self.nodes[node].order = ordered(&*world, &legal, player);
            }
            let width = 2 + (self.nodes[node].visits as f64).sqrt() as usize;
            let considered: Vec<Action> = self.nodes[node]
                .order
                .iter()
                .copied()
                .filter(|a| legal.contains(a))
                .chain(
                    legal
                        .iter()
                        .copied()
                        .filter(|a| !self.nodes[node].order.contains(a)),
                )
                .take(width)
                .collect();
            let fresh = considered
                .iter()
                .copied()
                .find(|a| !self.nodes[node].children.iter().any(|(b, _)| b == a));
            let (action, child) = match fresh {
                Some(a) => {
                    let c = self.nodes.len();
                    self.nodes.push(Node::new());
                    self.nodes[node].children.push((a, c));
                    expanded = true;
                    (a, c)
                }
                None => self.select(node, &considered),
            };
            world.apply_unchecked(action, &mut dice);
            path.push((child, player));
            node = child;
            if expanded {
                break;
            }
        }
        let reward = self.rollout(&mut *world, &mut dice);
        self.nodes[0].visits += 1;
        for (n, mover) in path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.reward += if mover == self.side {
                reward
            } else {
                1.0 - reward
            };
        }
    }

    /// UCB1 among the children whose actions are legal in this world.
    fn select(&self, node: usize, considered: &[Action]) -> (Action, usize) {
        let parent = &self.nodes[node];
        let ln = (parent.visits.max(1) as f64).ln();
        parent
            .children
            .iter()
            .filter(|(a, _)| considered.contains(a))
            .map(|&(a, c)| {
                let n = &self.nodes[c];
                let visits = n.visits.max(1) as f64;
                let ucb = n.reward / visits + self.settings.exploration * (ln / visits).sqrt();
                (ucb, a, c)
            })
            .max_by(|x, y| x.0.total_cmp(&y.0).then(y.1.cmp(&x.1)))
            .map(|(_, a, c)| (a, c))
            .expect("every considered action has a child")
    }

    /// A few random actions, then the evaluation from the searching side's view, as a win
    /// chance in 0..1.
    fn rollout(&mut self, world: &mut dyn Game, dice: &mut SeededDice) -> f64 {
        for _ in 0..self.settings.depth {
            if world.to_decide().is_none() {
                break;
            }
            let legal = world.legal_actions();
            let a = legal[self.rng.random_range(0..legal.len())];
            world.apply_unchecked(a, dice);
        }
        let e = self.eval.evaluate(&world.search_view(Some(self.side))) - self.base;
        1.0 / (1.0 + (-e / SCALE).exp())
    }
}

/// The node's actions in the heuristic's cheap order, with `end` moved up to second place so
/// that stopping is always among the first things tried.
fn ordered(world: &dyn Game, legal: &[Action], player: Side) -> Vec<Action> {
    let view = world.search_view(Some(player));
    let eval = Evaluator::new(&view, player);
    let ranked = priors(world, legal, &view, &eval);
    let mut order: Vec<Action> = ranked.iter().filter(|r| !r.end).map(|r| r.action).collect();
    if let Some(end) = ranked.iter().find(|r| r.end) {
        order.insert(order.len().min(1), end.action);
    }
    order
}
