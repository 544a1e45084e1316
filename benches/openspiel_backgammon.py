#!/usr/bin/env python3
"""OpenSpiel's C++ backgammon, timed the way `tortuga bench backgammon` times Tortuga's.

Plays GAMES uniform-random games (two `make_uniform_random_bot`, `evaluate_bots`, all in
C++) and prints the playouts per second of CPU time, the figure to set beside the
"per CPU second" figure of `tortuga bench backgammon`. Run the two in turn, several times,
in one window, and compare medians:

    for i in 1 2 3 4 5; do
      tortuga bench backgammon --rounds 1 --seconds 3 | tail -1
      python3 benches/openspiel_backgammon.py
    done

Needs open-spiel (`pip install open-spiel==2.0.2`, as CI's oracle virtualenv has).
"""

import sys
import time

import pyspiel

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 1500


def main():
    game = pyspiel.load_game("backgammon")
    bots = [pyspiel.make_uniform_random_bot(0, 11), pyspiel.make_uniform_random_bot(1, 12)]
    start = time.process_time()
    for seed in range(GAMES):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    cpu = time.process_time() - start
    print(f"openspiel backgammon: {GAMES / cpu:.0f} playouts per CPU second ({GAMES} games)")


if __name__ == "__main__":
    main()
