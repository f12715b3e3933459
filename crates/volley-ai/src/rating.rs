//! Elo ratings from a round robin: the Bradley–Terry model fitted by maximum likelihood (a
//! draw counts half a win to each side), on the Elo scale (400·log10 of the strength), with
//! 95% intervals from the curvature of the likelihood. As in BayesElo, every pair is given
//! one drawn game more than it played, so that a clean sweep has a finite rating.

/// Drawn games added to every pair (the prior).
const PRIOR_DRAWS: f64 = 1.0;

/// The results of a round robin: `score[i][j]` is what player i scored against player j (a
/// win 1, a draw ½), `games[i][j]` how many games they played.
#[derive(Clone, Debug)]
pub struct Results {
    pub players: Vec<String>,
    pub score: Vec<Vec<f64>>,
    pub games: Vec<Vec<f64>>,
}

/// One player's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub player: String,
    pub elo: f64,
    /// Half the width of the 95% interval (`None` for the anchor, fixed at its value).
    pub plus_minus: Option<f64>,
    pub games: f64,
    /// Share of the points scored.
    pub score: f64,
}

impl Results {
    pub fn new(players: Vec<String>) -> Results {
        let n = players.len();
        Results {
            players,
            score: vec![vec![0.0; n]; n],
            games: vec![vec![0.0; n]; n],
        }
    }

    /// Adds games between players `i` and `j`: `i_won`, `j_won` and `draws`.
    pub fn add(&mut self, i: usize, j: usize, i_won: usize, j_won: usize, draws: usize) {
        let half = draws as f64 / 2.0;
        self.score[i][j] += i_won as f64 + half;
        self.score[j][i] += j_won as f64 + half;
        let n = (i_won + j_won + draws) as f64;
        self.games[i][j] += n;
        self.games[j][i] += n;
    }

    /// The ratings, the `anchor` player at 0 (the mean at 0 when there is none), best first.
    pub fn ratings(&self, anchor: Option<usize>) -> Vec<Rating> {
        let n = self.players.len();
        let gamma = self.fit();
        let mut elo: Vec<f64> = gamma.iter().map(|g| 400.0 * g.log10()).collect();
        let zero = match anchor {
            Some(a) => elo[a],
            None => elo.iter().sum::<f64>() / n.max(1) as f64,
        };
        for e in &mut elo {
            *e -= zero;
        }
        let spread = self.spread(&gamma, anchor);
        let mut out: Vec<Rating> = (0..n)
            .map(|i| {
                let games: f64 = self.games[i].iter().sum();
                let scored: f64 = self.score[i].iter().sum();
                Rating {
                    player: self.players[i].clone(),
                    elo: elo[i],
                    plus_minus: spread[i].filter(|_| Some(i) != anchor),
                    games,
                    score: if games > 0.0 { scored / games } else { 0.5 },
                }
            })
            .collect();
        out.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        out
    }

    /// The strengths by Hunter's MM iteration, with the prior draw.
    fn fit(&self) -> Vec<f64> {
        let n = self.players.len();
        let mut gamma = vec![1.0; n];
        for _ in 0..10_000 {
            let mut next = gamma.clone();
            let mut change: f64 = 0.0;
            for i in 0..n {
                let mut wins = 0.0;
                let mut denom = 0.0;
                for j in 0..n {
                    if i == j {
                        continue;
                    }
                    let g = self.games[i][j] + PRIOR_DRAWS;
                    wins += self.score[i][j] + PRIOR_DRAWS / 2.0;
                    denom += g / (gamma[i] + gamma[j]);
                }
                if denom > 0.0 {
                    next[i] = wins / denom;
                }
            }
            // Keep the scale fixed (the model only sees ratios).
            let mean = next.iter().map(|g| g.ln()).sum::<f64>() / n.max(1) as f64;
            for (g, old) in next.iter_mut().zip(&gamma) {
                *g /= mean.exp();
                change = change.max((g.ln() - old.ln()).abs());
            }
            gamma = next;
            if change < 1e-10 {
                break;
            }
        }
        gamma
    }

    /// Half-widths of the 95% intervals, on the Elo scale, from the inverse of the
    /// likelihood's information matrix with the anchor (or the mean) held fixed.
    fn spread(&self, gamma: &[f64], anchor: Option<usize>) -> Vec<Option<f64>> {
        let n = self.players.len();
        if n < 2 {
            return vec![None; n];
        }
        // Information in the natural log-strengths θ: I[i][i] = Σ_j n_ij p_ij (1 − p_ij),
        // I[i][j] = −n_ij p_ij (1 − p_ij).
        let mut info = vec![vec![0.0; n]; n];
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let p = gamma[i] / (gamma[i] + gamma[j]);
                let w = (self.games[i][j] + PRIOR_DRAWS) * p * (1.0 - p);
                info[i][i] += w;
                info[i][j] -= w;
            }
        }
        // Drop the anchor's row and column (with no anchor, the last player's, then spread
        // as if the mean were fixed: close enough for a table).
        let fixed = anchor.unwrap_or(n - 1);
        let keep: Vec<usize> = (0..n).filter(|&i| i != fixed).collect();
        let m: Vec<Vec<f64>> = keep
            .iter()
            .map(|&i| keep.iter().map(|&j| info[i][j]).collect())
            .collect();
        let Some(inv) = invert(m) else {
            return vec![None; n];
        };
        let scale = 400.0 / std::f64::consts::LN_10;
        let mut out = vec![None; n];
        for (a, &i) in keep.iter().enumerate() {
            let var = inv[a][a];
            if var.is_finite() && var > 0.0 {
                out[i] = Some(1.96 * var.sqrt() * scale);
            }
        }
        out
    }
}

/// The inverse of a small square matrix by Gauss–Jordan elimination; `None` when singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        inv.swap(c, p);
        let d = a[c][c];
        for j in 0..n {
            a[c][j] /= d;
            inv[c][j] /= d;
        }
        for r in 0..n {
            if r != c {
                let f = a[r][c];
                if f != 0.0 {
                    for j in 0..n {
                        a[r][j] -= f * a[c][j];
                        inv[r][j] -= f * inv[c][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_quarters_of_the_points_is_191_elo() {
        let mut r = Results::new(vec!["a".into(), "b".into()]);
        r.add(0, 1, 70, 20, 20);
        let out = r.ratings(Some(1));
        assert_eq!(out[0].player, "a");
        // 80.5 of 111 points with the prior draw: 400·log10(80.5/30.5) = 168.6.
        assert!((out[0].elo - 168.6).abs() < 0.5, "{out:?}");
        assert_eq!(out[1].elo, 0.0);
        assert!(out[1].plus_minus.is_none());
        // 110 games at about 73%: ±1.96·√(1/(110·p·q))·400/ln10 ≈ ±72.
        let pm = out[0].plus_minus.unwrap();
        assert!((pm - 72.0).abs() < 3.0, "{pm}");
        assert!((out[0].score - 80.0 / 110.0).abs() < 1e-9);
    }

    #[test]
    fn a_chain_of_results_adds_up() {
        // a beats b 3:1 in points, b beats c 3:1, over many games: a stands about 2 × 191
        // over c (the prior draws and the a–c pairing's lone prior pull it in a little).
        let mut r = Results::new(vec!["a".into(), "b".into(), "c".into()]);
        r.add(0, 1, 750, 250, 0);
        r.add(1, 2, 750, 250, 0);
        let out = r.ratings(Some(2));
        let elo = |p: &str| out.iter().find(|x| x.player == p).unwrap().elo;
        assert!((elo("b") - 190.8).abs() < 2.0, "{out:?}");
        assert!((elo("a") - 381.7).abs() < 4.0, "{out:?}");
    }

    #[test]
    fn a_clean_sweep_stays_finite() {
        let mut r = Results::new(vec!["a".into(), "b".into()]);
        r.add(0, 1, 40, 0, 0);
        let out = r.ratings(Some(1));
        // 40.5 of 41 points: 400·log10(81) = 763.4.
        assert!((out[0].elo - 763.4).abs() < 0.5, "{out:?}");
        assert!(out[0].plus_minus.is_some_and(|x| x.is_finite()));
    }
}
