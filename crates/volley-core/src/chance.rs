//! Exact chances of d6 rolls, for rulesets that work out their odds by counting
//! ([`crate::game::Game::odds_cases`]) rather than letting the odds walk every die.
//!
//! Twenty or thirty dice have more sequences than anyone can walk, but when a rule only
//! counts the dice that reach a number, or adds them up, every sequence with the same count
//! or sum does the same thing. These helpers give the exact chance of each count or sum,
//! and one sequence of dice that has it, so a ruleset can hand the odds a few hundred
//! classes instead of 6^30 sequences.
//!
//! The distributions are built by adding one die at a time (a convolution): every step only
//! adds and multiplies numbers between 0 and 1, so nothing cancels and nothing overflows,
//! however many dice are rolled; the cost is a few thousand operations for a hundred dice.

/// The chance that one d6 shows `t` or more: 1 for `t` ≤ 1, 0 for `t` ≥ 7.
pub fn d6_at_least(t: u32) -> f64 {
    match t {
        0 | 1 => 1.0,
        2..=6 => f64::from(7 - t) / 6.0,
        _ => 0.0,
    }
}

/// The chances of 0, 1, …, `n` successes in `n` independent tries that each succeed with
/// chance `p`: index `k` holds the chance of exactly `k`. The length is `n + 1`.
///
/// Built one try at a time rather than from the factorial formula, so that large `n` does
/// not overflow binomial coefficients, and `p` of exactly 0 or 1 gives exact zeros and ones.
///
/// # Panics
/// When `p` is not a chance (outside 0..=1, or NaN).
pub fn binomial(n: u32, p: f64) -> Vec<f64> {
    assert!(
        (0.0..=1.0).contains(&p),
        "binomial: {p} is not a chance between 0 and 1"
    );
    let q = 1.0 - p;
    let mut pmf = vec![0.0; n as usize + 1];
    pmf[0] = 1.0;
    for tries in 1..=n as usize {
        // One more try: k successes now are k before and a failure, or k - 1 and a success.
        // Going down from the top, each term is still the old one when it is read.
        for k in (1..=tries).rev() {
            pmf[k] = pmf[k] * q + pmf[k - 1] * p;
        }
        pmf[0] *= q;
    }
    pmf
}

/// The chances of each total of `n` d6 added up: index `s` holds the chance that they add up
/// to `s`. The length is `6n + 1` (totals below `n` have chance 0); no dice total 0 for sure.
pub fn sum_of_d6(n: u32) -> Vec<f64> {
    let mut pmf = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; pmf.len() + 6];
        for (s, &chance) in pmf.iter().enumerate() {
            if chance == 0.0 {
                continue;
            }
            for face in 1..=6 {
                next[s + face] += chance / 6.0;
            }
        }
        pmf = next;
    }
    pmf
}

/// The chance that at least one of `n` d6 shows `t` or more (0 for no dice).
pub fn any_at_least(n: u32, t: u32) -> f64 {
    1.0 - (1.0 - d6_at_least(t)).powi(n as i32)
}

/// One sequence of `n` d6 results in which exactly `k` dice show `t` or more: `k` sixes
/// first, then `n - k` ones. It stands for every sequence with that count, which is right
/// only for a rule that counts the dice reaching `t` and looks at nothing else about them
/// (which die it was, or what a success showed).
///
/// # Panics
/// When no sequence has that count: `k` greater than `n`; `t` ≤ 1, where every die succeeds,
/// with `k` other than `n`; `t` ≥ 7, where none does, with `k` other than 0.
pub fn dice_for_count(n: u32, k: u32, t: u32) -> Vec<u32> {
    assert!(k <= n, "dice_for_count: {k} successes out of {n} dice");
    assert!(
        t >= 2 || k == n,
        "dice_for_count: every d6 shows {t} or more, so {n} dice cannot have {k} successes"
    );
    assert!(
        t <= 6 || k == 0,
        "dice_for_count: no d6 shows {t} or more, so {n} dice cannot have {k} successes"
    );
    let mut dice = vec![6; k as usize];
    dice.resize(n as usize, 1);
    dice
}

/// One sequence of `n` d6 results that adds up to `sum`: sixes first, then the one die that
/// makes up the rest, then ones.
///
/// # Panics
/// When `n` d6 cannot add up to `sum` (it is below `n` or above `6n`).
pub fn dice_for_sum(n: u32, sum: u32) -> Vec<u32> {
    assert!(
        n <= sum && sum <= 6 * n,
        "dice_for_sum: {n} d6 cannot add up to {sum}"
    );
    let mut rest = sum;
    (0..n)
        .map(|i| {
            // Leave at least a 1 for each die still to come.
            let after = n - i - 1;
            let die = (rest - after).min(6);
            rest -= die;
            die
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sequence of `n` d6 results, each equally likely.
    fn all_rolls(n: u32) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new()];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|seq| {
                    (1..=6).map(move |face| {
                        let mut next = seq.clone();
                        next.push(face);
                        next
                    })
                })
                .collect();
        }
        out
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn d6_at_least_counts_faces() {
        let expected = [
            1.0,
            1.0,
            5.0 / 6.0,
            4.0 / 6.0,
            0.5,
            2.0 / 6.0,
            1.0 / 6.0,
            0.0,
            0.0,
        ];
        for (t, &want) in expected.iter().enumerate() {
            assert!(close(d6_at_least(t as u32), want), "t = {t}");
        }
    }

    #[test]
    fn distributions_add_up_to_one() {
        for n in [0, 1, 2, 7, 30, 100, 200] {
            for p in [0.0, 1.0 / 6.0, 0.5, 5.0 / 6.0, 1.0, 0.123] {
                let pmf = binomial(n, p);
                assert_eq!(pmf.len(), n as usize + 1);
                assert!(pmf.iter().all(|&x| x >= 0.0));
                assert!((pmf.iter().sum::<f64>() - 1.0).abs() < 1e-12, "n {n} p {p}");
            }
            let pmf = sum_of_d6(n);
            assert_eq!(pmf.len(), 6 * n as usize + 1);
            assert!((pmf.iter().sum::<f64>() - 1.0).abs() < 1e-12, "n {n}");
        }
    }

    #[test]
    fn binomial_of_many_dice_keeps_its_ratios() {
        // Neighbouring terms of a binomial stand in a known ratio; a hundred-odd steps of
        // rounding must not have bent it.
        let (n, p) = (200, 1.0 / 3.0);
        let pmf = binomial(n, p);
        for k in 0..n as usize {
            if pmf[k] > 1e-250 {
                let ratio = (n as f64 - k as f64) / (k as f64 + 1.0) * p / (1.0 - p);
                let got = pmf[k + 1] / pmf[k];
                assert!((got / ratio - 1.0).abs() < 1e-10, "k {k}");
            }
        }
        assert_eq!(binomial(5, 0.0), vec![1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(binomial(5, 1.0), vec![0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(binomial(0, 0.5), vec![1.0]);
    }

    #[test]
    fn counts_match_every_roll_of_up_to_five_dice() {
        for n in 0..=5u32 {
            let rolls = all_rolls(n);
            let each = 1.0 / rolls.len() as f64;
            for t in 0..=8u32 {
                let mut counted = vec![0.0; n as usize + 1];
                let mut any = 0.0;
                for seq in &rolls {
                    let k = seq.iter().filter(|&&d| d >= t).count();
                    counted[k] += each;
                    if k > 0 {
                        any += each;
                    }
                }
                let pmf = binomial(n, d6_at_least(t));
                for k in 0..=n as usize {
                    assert!(close(pmf[k], counted[k]), "n {n} t {t} k {k}");
                }
                assert!(close(any_at_least(n, t), any), "n {n} t {t}");
            }
        }
    }

    #[test]
    fn sums_match_every_roll_of_up_to_five_dice() {
        for n in 0..=5u32 {
            let rolls = all_rolls(n);
            let each = 1.0 / rolls.len() as f64;
            let mut counted = vec![0.0; 6 * n as usize + 1];
            for seq in &rolls {
                counted[seq.iter().sum::<u32>() as usize] += each;
            }
            let pmf = sum_of_d6(n);
            assert_eq!(pmf.len(), counted.len());
            for (s, (&got, &want)) in pmf.iter().zip(&counted).enumerate() {
                assert!(close(got, want), "n {n} sum {s}");
            }
        }
        assert_eq!(sum_of_d6(0), vec![1.0]);
    }

    #[test]
    fn representatives_have_their_count() {
        for n in 0..=8u32 {
            for t in 0..=8u32 {
                for k in 0..=n {
                    let possible = (t >= 2 || k == n) && (t <= 6 || k == 0);
                    if !possible {
                        continue;
                    }
                    let dice = dice_for_count(n, k, t);
                    assert_eq!(dice.len(), n as usize);
                    assert!(dice.iter().all(|d| (1..=6).contains(d)));
                    let got = dice.iter().filter(|&&d| d >= t).count();
                    assert_eq!(got, k as usize, "n {n} k {k} t {t}: {dice:?}");
                }
            }
        }
    }

    #[test]
    fn representatives_have_their_sum() {
        for n in 0..=8u32 {
            for sum in n..=6 * n {
                let dice = dice_for_sum(n, sum);
                assert_eq!(dice.len(), n as usize);
                assert!(dice.iter().all(|d| (1..=6).contains(d)), "{dice:?}");
                assert_eq!(dice.iter().sum::<u32>(), sum);
            }
        }
    }

    #[test]
    #[should_panic(expected = "every d6 shows")]
    fn no_failures_when_every_die_succeeds() {
        dice_for_count(3, 2, 1);
    }

    #[test]
    #[should_panic(expected = "no d6 shows")]
    fn no_successes_when_no_die_can() {
        dice_for_count(3, 1, 7);
    }

    #[test]
    #[should_panic(expected = "cannot add up to")]
    fn no_sum_out_of_reach() {
        dice_for_sum(2, 13);
    }
}

/// A class of die sequences that all lead to the same result, as a ruleset gives them
/// ([`crate::Game::odds_cases`]): the chance of the whole class, and one sequence from it that the
/// odds play to see what the class does.
#[derive(Clone, Debug, PartialEq)]
pub struct OddsCase {
    /// The chance that the action's dice fall in this class.
    pub probability: f64,
    /// One sequence of the class: every die result the action rolls, in the order it rolls
    /// them, no more and no fewer.
    pub dice: Vec<u32>,
}
