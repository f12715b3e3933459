#!/usr/bin/env bash
# Regenerates the Black Powder scenarios deployed by `volley battle` from the armies in
# scenarios/armies/. Run from the repository root after changing an army or the deployment.
set -euo pipefail
volley() { if [ -n "${VOLLEY:-}" ]; then "$VOLLEY" "$@"; else cargo run -q --release -p volley -- "$@"; fi; }
volley battle scenarios/armies/acw-union.toml scenarios/armies/acw-confederate.toml \
  --map creek-crossing --out scenarios/bptc-acw.toml \
  --title "Across the Creek, 1862" \
  --description "A Union division of the ACW Union list and a Confederate division of equal points (3000) march for the Mumma farm beyond the creek: whoever holds it at the end of a game turn wins, and the Union wins outright if it takes the church beyond. Infantry regiments, cavalry and two batteries a side. Both armies are in scenarios/armies/."
volley battle scenarios/armies/prussia-1757.toml scenarios/armies/austria-1757.toml \
  --map ridge-and-village --out scenarios/bptc-18th-century.toml \
  --title "The Ridge at Leuthen, 1757" \
  --description "A Prussian and an Austrian division of the 18th century list, 3000 points each, meet on a ridge with a walled village on it. Both armies are in scenarios/armies/."
