"""GNU Backgammon's Position ID and Match ID of backgammon states, for the differential test
in tests/suite/backgammon_gnubg.rs. Reads one JSON object a line: the state as tortuga's
`export` writes it (spec section 7.1: oriented to the side on roll), whether a double waits
for its answer, and whether money play uses the Jacoby rule. Writes gnubg's
PositionID:MatchID of each, as gnubg's own functions (the `gnubg` package) compute them."""

import json
import sys

import gnubg


def ids(case):
    s = case["state"]
    board = s["board"]
    me_side = [max(board[i], 0) for i in range(24)] + [s["bar"][0]]
    # the opponent's point j (its own numbering) is the player on roll's point 25 - j
    opp_side = [max(-board[24 - j], 0) for j in range(1, 25)] + [s["bar"][1]]
    position = gnubg.positionid((tuple(opp_side), tuple(me_side)))
    me = 1 if s["on_roll"] == "x" else 0
    cube = s["cube"]
    owner = {"center": -1, "me": me, "opp": 1 - me}[cube["owner"]]
    match = s["match"]
    mine, theirs = match["score"]
    score = (theirs, mine) if me == 1 else (mine, theirs)
    info = gnubg.cubeinfo(cube["value"], owner, me, match["length"], score,
                          1 if match["crawford"] else 0, 0)
    info = dict(info)
    info["jacoby"] = 1 if (match["length"] == 0 and case["jacoby"]) else 0
    doubled = case["doubled"]
    dice = tuple(s.get("dice", (0, 0)))
    turn = 1 - me if doubled else me
    pos = gnubg.posinfo(turn, 0, 1 if doubled else 0, 1, dice)
    return position + ":" + gnubg.matchid(info, pos)


for line in sys.stdin:
    print(ids(json.loads(line)), flush=True)
