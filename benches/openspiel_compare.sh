#!/usr/bin/env bash
# Tortuga's backgammon against OpenSpiel's C++ backgammon, interleaved in one window on one
# core: RUNS pairs of `tortuga bench backgammon --rounds 1 --seconds 3` and
# `benches/openspiel_backgammon.py`, then the median playouts per CPU second of each, their
# ratio, and the median of the pairwise ratios (a loaded machine slows both of a pair alike).
#
#   benches/openspiel_compare.sh [RUNS]      (default 7; needs a release build)
#
# PYTHON (default: target/oracle-venv/bin/python, as .ci/run makes it) must have open-spiel;
# CPU (default 1) is the core both run on.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-7}"
py="${PYTHON:-target/oracle-venv/bin/python}"
cpu="${CPU:-1}"
bin=target/release/tortuga
[ -x "$bin" ] || { echo "no $bin: run cargo build --release first" >&2; exit 2; }
"$py" -c 'import pyspiel' 2>/dev/null || { echo "$py has no open-spiel (pip install open-spiel==2.0.2)" >&2; exit 2; }
ours=() theirs=()
for _ in $(seq "$runs"); do
  ours+=("$(taskset -c "$cpu" "$bin" bench backgammon --rounds 1 --seconds 3 | tail -1 | grep -o '[0-9]* per CPU second' | cut -d' ' -f1)")
  theirs+=("$(taskset -c "$cpu" "$py" benches/openspiel_backgammon.py | grep -o '[0-9]* playouts per CPU second' | cut -d' ' -f1)")
done
python3 - "${ours[*]}" "${theirs[*]}" <<'PY'
import statistics, sys
ours = [float(x) for x in sys.argv[1].split()]
theirs = [float(x) for x in sys.argv[2].split()]
pairs = [o / t for o, t in zip(ours, theirs)]
print("tortuga   per CPU second:", " ".join(f"{x:.0f}" for x in ours))
print("openspiel per CPU second:", " ".join(f"{x:.0f}" for x in theirs))
mo, mt = statistics.median(ours), statistics.median(theirs)
print(f"medians {mo:.0f} / {mt:.0f} = {mo / mt:.2f}x; median of pairwise ratios {statistics.median(pairs):.2f}x ({len(pairs)} pairs)")
PY
