#!/usr/bin/env bash
# How often bot A beats bot B in a two-player game, A taking each seat in turn: GAMES games with
# A as the first seat and GAMES with A as the second (seeds SEED and SEED+1), then A's wins over
# both, with a 95% Wilson interval, and the wall time.
#
#   benches/bot_strength.sh GAME A B [GAMES] [SEED] [-- sim options…]   (needs a release build)
#
#   benches/bot_strength.sh backgammon greedy:pubeval greedy 5000 1 -- --set cube=false
set -euo pipefail
cd "$(dirname "$0")/.."
game="$1" a="$2" b="$3"
shift 3
games=1000 seed=1
if [ $# -gt 0 ] && [ "$1" != -- ]; then games="$1"; shift; fi
if [ $# -gt 0 ] && [ "$1" != -- ]; then seed="$1"; shift; fi
[ "${1:-}" = -- ] && shift
bin=target/release/tortuga
[ -x "$bin" ] || { echo "no $bin: run cargo build --release first" >&2; exit 2; }
wins() { # seat-1 or seat-2 wins of A, from the report's first two lines of wins
  "$bin" sim "$game" --bots "$1" --games "$games" --seed "$2" "${@:4}" |
    awk -v row="$3" '/ wins / { n++; if (n == row) { sub(/%.*/, "", $3); print $3 } }'
}
start=$SECONDS
first=$(wins "$a,$b" "$seed" 1 "$@")
second=$(wins "$b,$a" "$((seed + 1))" 2 "$@")
awk -v f="$first" -v s="$second" -v n="$games" -v a="$a" -v b="$b" -v t="$((SECONDS - start))" 'BEGIN {
  w = (f + s) / 100 * n; m = 2 * n; p = w / m; z = 1.96
  c = (p + z * z / (2 * m)) / (1 + z * z / m)
  h = z * sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / (1 + z * z / m)
  printf "%s against %s: %.1f%% as the first seat, %.1f%% as the second\n", a, b, f, s
  printf "%s wins %.0f of %d games: %.1f%% [%.1f, %.1f] (95%% Wilson), %d s\n", a, w, m, 100 * p, 100 * (c - h), 100 * (c + h), t
}'
