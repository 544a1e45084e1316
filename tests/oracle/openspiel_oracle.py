#!/usr/bin/env python3
"""Backgammon move oracle backed by OpenSpiel (open-spiel==2.0.2).

Reads JSON lines on stdin, each a position oriented to the player on roll
(spec §7.1: mover positive, `bar` and `off` mover first) with its dice:

    {"board": [24 ints], "bar": [me, opp], "off": [me, opp], "dice": [d1, d2]}

and writes one JSON line per input: the sorted list of the distinct positions
reached by the legal moves, in the same orientation (mover still positive,
no dice). A pass gives the unchanged position; a finished game gives [].

Optional per line: "os_player": 0 or 1 seats the mover as OpenSpiel's X or O
(default: alternate by line), so both of its orientations are exercised.

How the position is set: pyspiel 2.0.2 binds no setter for BackgammonState,
so the C++ `BackgammonState::SetState` is called through ctypes on the object
pybind11 hands out via its `_pybind11_conduit_v1_` protocol.

OpenSpiel's layout: `board(player, j)` for j = 0..23 counts that player's
checkers on absolute point j. X moves 0 -> 23 (its point p is j = 24 - p), O
moves 23 -> 0 (its point p is j = p - 1); `board(player, 100)` is the bar, and
borne-off checkers are the "scores". So the mover's point p (board index
p - 1) is absolute point 24 - p when he is X and p - 1 when he is O.

Compared with the spec (the authority), on the moves this script reports:
- No difference found in the resulting positions: 3,000 positions in
  tests/native_vs_openspiel.rs and 30,000 more in a one-off run (about 5,000
  of them doubles), against the spec's independent native generator.
- OpenSpiel plays a double as two actions of two dice, maximising the dice
  used within each half only, where the spec maximises over all four. That
  changed no result in those runs (a filter keeping only the plays with the
  most dice removed nothing): with one die value each checker's path is
  fixed, and no step makes another checker's step illegal.
- OpenSpiel lists both orders of two dice as separate actions; the distinct
  positions collected here are what the spec's machine interface prints.
Elsewhere in the game: OpenSpiel has no doubling cube, scores a plain
win/loss by default, and ends the game after `max_player_turns` (500) turns,
which the spec only has as the `turn_cap` switch.
"""

import ctypes
import json
import sys

import pyspiel

X, O = 0, 1
BAR_POS = 100
CHECKERS = 15
SETSTATE_SYMBOL = (
    "_ZN10open_spiel10backgammon15BackgammonState8SetState"
    "EibRKSt6vectorIiSaIiEES6_S6_RKS2_IS4_SaIS4_EE"
)
TYPEINFO_SYMBOL = "_ZTIN10open_spiel10backgammon15BackgammonStateE"


class _Vector(ctypes.Structure):
    """libstdc++'s std::vector layout: begin, end, end of storage."""

    _fields_ = [
        ("begin", ctypes.c_void_p),
        ("end", ctypes.c_void_p),
        ("cap", ctypes.c_void_p),
    ]


class _Setter:
    """Calls BackgammonState::SetState on a pyspiel state."""

    def __init__(self):
        lib = ctypes.CDLL(pyspiel.__file__)
        self._set_state = getattr(lib, SETSTATE_SYMBOL)
        self._set_state.restype = None
        self._set_state.argtypes = [
            ctypes.c_void_p,  # this
            ctypes.c_int,  # cur_player
            ctypes.c_bool,  # double_turn
            ctypes.POINTER(_Vector),  # dice
            ctypes.POINTER(_Vector),  # bar
            ctypes.POINTER(_Vector),  # scores
            ctypes.POINTER(_Vector),  # board (vector of two vectors)
        ]
        typeinfo = ctypes.c_void_p.in_dll(lib, TYPEINFO_SYMBOL)
        capsule_new = ctypes.pythonapi.PyCapsule_New
        capsule_new.restype = ctypes.py_object
        capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        # pybind11 checks the capsule name against typeid(std::type_info).name().
        self._typeinfo = capsule_new(ctypes.addressof(typeinfo), b"St9type_info", None)
        self._abi = self._find_abi()
        self._capsule_name = ctypes.pythonapi.PyCapsule_GetName
        self._capsule_name.restype = ctypes.c_char_p
        self._capsule_name.argtypes = [ctypes.py_object]
        self._capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        self._capsule_pointer.restype = ctypes.c_void_p
        self._capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

    @staticmethod
    def _find_abi():
        """pybind11's platform ABI id, as compiled into pyspiel (read from the
        name of its internals symbol, e.g. `system_libstdcpp_gxx_abi_1xxx_...`)."""
        with open(pyspiel.__file__, "rb") as f:
            data = f.read()
        marker = b"__pybind11_internals_v"
        start = data.index(marker) + len(marker)
        start = data.index(b"_", start) + 1
        end = data.index(b"__", start)
        return data[start:end]

    def _pointer(self, state):
        capsule = state._pybind11_conduit_v1_(
            self._abi, self._typeinfo, b"raw_pointer_ephemeral"
        )
        if capsule is None:
            raise RuntimeError("pybind11 conduit refused the BackgammonState")
        return self._capsule_pointer(capsule, self._capsule_name(capsule))

    @staticmethod
    def _vector(values, keep):
        array = (ctypes.c_int * len(values))(*values)
        keep.append(array)
        begin = ctypes.addressof(array)
        end = begin + ctypes.sizeof(array)
        return _Vector(begin, end, end)

    def set(self, state, player, dice, bar, scores, board):
        keep = []
        rows = (_Vector * 2)(
            self._vector(board[X], keep), self._vector(board[O], keep)
        )
        begin = ctypes.addressof(rows)
        end = begin + ctypes.sizeof(rows)
        board_vec = _Vector(begin, end, end)
        self._set_state(
            self._pointer(state),
            player,
            False,
            ctypes.byref(self._vector(dice, keep)),
            ctypes.byref(self._vector(bar, keep)),
            ctypes.byref(self._vector(scores, keep)),
            ctypes.byref(board_vec),
        )


GAME = pyspiel.load_game("backgammon")
SETTER = _Setter()


def board_index(player, j):
    """The mover-oriented board index of OpenSpiel's absolute point j."""
    return 23 - j if player == X else j


def to_openspiel(pos, player):
    """The spec's mover-oriented position as OpenSpiel's (bar, scores, board)."""
    other = 1 - player
    board = [[0] * 24, [0] * 24]
    for j in range(24):
        count = pos["board"][board_index(player, j)]
        if count > 0:
            board[player][j] = count
        elif count < 0:
            board[other][j] = -count
    bar = [0, 0]
    scores = [0, 0]
    bar[player], bar[other] = pos["bar"]
    scores[player], scores[other] = pos["off"]
    return bar, scores, board


def from_openspiel(state, player):
    """OpenSpiel's board back to the mover-oriented position."""
    other = 1 - player
    board = [0] * 24
    for j in range(24):
        mine = state.board(player, j)
        theirs = state.board(other, j)
        assert not (mine and theirs), "both sides on one point"
        board[board_index(player, j)] = mine - theirs
    bar = [state.board(player, BAR_POS), state.board(other, BAR_POS)]
    on_board = [sum(state.board(p, j) for j in range(24)) for p in (player, other)]
    off = [CHECKERS - on_board[k] - bar[k] for k in range(2)]
    return {"board": board, "bar": bar, "off": off}


def new_state(pos, dice, player):
    state = GAME.new_initial_state()
    state.apply_action(0)  # any opening roll: it only leaves the chance node
    bar, scores, board = to_openspiel(pos, player)
    SETTER.set(state, player, list(dice), bar, scores, board)
    assert state.current_player() in (player, pyspiel.PlayerId.TERMINAL)
    return state


def finals(state, player, out):
    """Follows every action while `player` stays on roll (the second half of a
    double) and records each final position."""
    if state.is_terminal() or state.current_player() != player:
        out.append(from_openspiel(state, player))
        return
    for action in state.legal_actions():
        finals(state.child(action), player, out)


def successors(pos, dice, player):
    state = new_state(pos, dice, player)
    if state.is_terminal():
        return []
    out = []
    finals(state, player, out)
    distinct = {json.dumps(p): p for p in out}
    return sorted(distinct.values(), key=lambda p: (p["board"], p["bar"], p["off"]))


def main():
    for number, line in enumerate(sys.stdin):
        line = line.strip()
        if not line:
            continue
        record = json.loads(line)
        pos = {k: record[k] for k in ("board", "bar", "off")}
        player = record.get("os_player", number % 2)
        result = successors(pos, record["dice"], player)
        sys.stdout.write(json.dumps(result, separators=(",", ":")) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
