#!/usr/bin/env python3
"""What happens in a scenario's battles between two bots: plays games with
`volley play --json` (seeds S to S+N-1) and reports how long they last (median and spread of
the turns played), the share of games in which each kind of event happened at least once
(orders, moves, formation changes, fire, charges, knock-outs, breakpoint rolls) and the turn
of the first fire and the first charge, then who won and why the battles ended.

`volley simulate` gives wins and mean turns; this answers "does a battle teach what its
briefing says": whether the armies fire and charge before the battle can be won.

    python3 scripts/battle_story.py bptc-first-lesson --games 300 --seed 1
    python3 scripts/battle_story.py my-battle.toml --red normal --blue random --volley target/release/volley

The kinds are the events' `kind` (for Black Powder: order, move, form, fire, charge, melee,
ko, breakpoint); `--kind` adds others.
"""

import argparse
import collections
import json
import statistics
import subprocess

KINDS = ["order", "move", "form", "fire", "charge", "melee", "ko", "breakpoint"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("scenario", help="a bundled scenario's name or a scenario file")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1, help="the first game's seed")
    p.add_argument("--red", default="normal")
    p.add_argument("--blue", default="normal")
    p.add_argument("--volley", default="volley", help="the volley binary")
    p.add_argument("--kind", action="append", default=[], help="another event kind to count")
    a = p.parse_args()
    kinds = KINDS + [k for k in a.kind if k not in KINDS]

    turns = []
    seen = collections.Counter()
    first = {"fire": [], "charge": []}
    wins = collections.Counter()
    ends = collections.Counter()
    for seed in range(a.seed, a.seed + a.games):
        out = subprocess.run(
            [a.volley, "play", a.scenario, "--red", a.red, "--blue", a.blue,
             "--seed", str(seed), "--json"],
            capture_output=True, text=True, check=True,
        ).stdout.splitlines()
        *events, summary = [json.loads(line) for line in out]
        turns.append(summary["turns"])
        wins[summary["winner"] or "draw"] += 1
        why = summary["reason"].split(":")[0]
        ends["the turn limit" if "turns are played" in why else why] += 1
        happened = {e["kind"] for e in events}
        seen.update(k for k in kinds if k in happened)
        for k, at in first.items():
            when = [e["turn"] for e in events if e["kind"] == k]
            if when:
                at.append(when[0])

    n = a.games
    spread = ", ".join(f"{t}: {c}" for t, c in sorted(collections.Counter(turns).items()))
    print(f"{a.scenario}: {n} games, red {a.red} vs blue {a.blue}, seeds {a.seed}-{a.seed + n - 1}")
    print(f"  turns: median {statistics.median(turns)}, mean {statistics.mean(turns):.2f} (turns: games {spread})")
    print("  games with: " + ", ".join(f"{k} {100 * seen[k] / n:.0f}%" for k in kinds))
    for k, at in first.items():
        if at:
            print(f"  first {k}: turn {statistics.median(at)} (median of the games with one)")
    decided = wins["red"] + wins["blue"]
    red = f"{100 * wins['red'] / decided:.1f}%" if decided else "-"
    print(f"  red {wins['red']}, blue {wins['blue']}, drawn {wins['draw']}: red {red} of decided games")
    print("  ended: " + ", ".join(f"{why} {c}" for why, c in ends.most_common()))


if __name__ == "__main__":
    main()
