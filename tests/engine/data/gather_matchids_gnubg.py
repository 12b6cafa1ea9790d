"""Gather the Match IDs GNU Backgammon writes, for tests/engine/test_matchid_gnubg.py.

Rerun (only needed to refresh the facts; the tests never need gnubg), from the repository root:

    apt-get install -y gnubg        # Debian 12: GNU Backgammon 1.07.001, a few minutes
    HOME=$(mktemp -d) /usr/games/gnubg -t -q -r -p tests/engine/data/gather_matchids_gnubg.py

It writes tests/engine/data/matchids_gnubg.json (the path is taken from the working directory,
since gnubg runs this file without ``__file__``) and prints a summary line. gnubg exits 0 even
when this script fails: read the output. The script uses only gnubg and the standard library.

Each row is one state and the Match ID gnubg wrote for it, reached by one of four routes:

- ``writer``: gnubg's own encoder, ``gnubg.matchid(cubeinfo, posinfo)``, fed every field of a
  generated state (any game state, offers, resignations, dice in both orders, cubes to 32768).
- ``set matchid``: gnubg reads the ID an older version of this project wrote for the state
  (``old_id``: dice in the given order, bit 67 always 0), holds it as its session, and writes
  its own; ``state`` is what the old ID says (Jacoby in use, as gnubg reads bit 67 at 0).
- ``xgid``: gnubg reads an XGID (``input``) and writes the Match ID; ``state`` is read from
  gnubg's session (``gnubg.cubeinfo()`` and ``gnubg.posinfo()``), not from the Match ID.
- ``session``: gnubg plays commands (``input``: double, take, roll, resign, reject ...) from an
  XGID; ``state`` again read from gnubg's session, while the game is being played (once it is
  over ``gnubg.cubeinfo()`` still shows the old score; the writer route covers ended games).

The ``session`` route's rolls are gnubg's own random dice, so a rerun changes those rows.
In a match gnubg's ``cubeinfo()`` always says Jacoby off; for the ``xgid`` and ``session`` routes
the Jacoby flag recorded is that (gnubg starts matches with the rule off) and for money play the
session's own setting.
"""

import base64
import json
import os
import random

import gnubg  # only inside GNU Backgammon

OUT = os.path.join(os.getcwd(), "tests", "engine", "data", "matchids_gnubg.json")

# (first bit counted from 1, width), from the manual; bit 67 is gnubg's "Jacoby NOT in use"
LAYOUT = {
    "cube_log": (1, 4), "owner": (5, 2), "on_roll": (7, 1), "crawford": (8, 1),
    "game_state": (9, 3), "turn": (12, 1), "double": (13, 1), "resign": (14, 2),
    "die_1": (16, 3), "die_2": (19, 3), "length": (22, 15), "score_0": (37, 15),
    "score_1": (52, 15), "no_jacoby": (67, 1),
}
START = "-b----E-C---eE---c-e----B-"
ISSUE_POSITION = "-----aEAACA-eA--abadA-aB--"


def command(text):
    """Run one gnubg command."""
    gnubg.command(text)


def old_id(state):
    """The Match ID this project wrote before it followed gnubg: dice as given, bit 67 clear."""
    dice = state["dice"] or [0, 0]
    fields = {
        "cube_log": state["cube_value"].bit_length() - 1,
        "owner": 3 if state["cube_owner"] is None else state["cube_owner"],
        "on_roll": state["on_roll"], "crawford": int(state["crawford"]),
        "game_state": state["game_state"], "turn": state["turn"],
        "double": int(state["double_offered"]), "resign": state["resignation"],
        "die_1": dice[0], "die_2": dice[1], "length": state["length"],
        "score_0": state["scores"][0], "score_1": state["scores"][1], "no_jacoby": 0,
    }
    key = 0
    for name, value in fields.items():
        key |= value << (LAYOUT[name][0] - 1)
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def generated_state(rng):
    """A state a game can show: money or match, any game state, cube, offer, dice, Jacoby."""
    length = rng.choice([0, 0, 0, 1, 2, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25, 64])
    game_state = rng.choice([1, 1, 1, 1, 1, 1, 0, 2, 3, 4])
    playing = game_state == 1
    if length:
        scores = [rng.randrange(length), rng.randrange(length)]
        if not playing and rng.random() < 0.5:  # the game just ended the match
            scores[rng.randrange(2)] = length
            if scores == [length, length]:
                scores[0] = length - 1
    else:
        scores = [rng.choice([0, 0, 1, 3, 12, 250]), rng.choice([0, 0, 2, 7, 40])]
    at_match_point = [s == length - 1 for s in scores] if length else [False, False]
    crawford = at_match_point.count(True) == 1 and length not in scores and rng.random() < 0.6
    on_roll = rng.randrange(2)
    double_offered = playing and not crawford and rng.random() < 0.25
    if crawford:
        cube_value, cube_owner = 1, None
    else:
        cube_value = 2 ** rng.choice([0, 0, 0, 1, 1, 2, 3, 4, 6, 9, 12, 15])
        cube_owner = None if cube_value == 1 and rng.random() < 0.8 else rng.choice([None, 0, 1])
    if double_offered and cube_owner == 1 - on_roll:
        cube_owner = on_roll
    # a resignation offered, or kept by gnubg once accepted (a resigned game)
    resigned = game_state == 3 and rng.random() < 0.8
    offered = playing and rng.random() < (0.15 if double_offered else 0.3)
    resignation = rng.randrange(1, 4) if resigned or offered else 0
    if double_offered:  # the doubled player acts, or the doubler when the other resigned instead
        turn = on_roll if resignation else 1 - on_roll
    else:
        turn = 1 - on_roll if resignation and rng.random() < 0.7 else on_roll
        if rng.random() < 0.15:
            turn = 1 - turn
    dice = None
    if not double_offered and rng.random() < 0.65:
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
    return {
        "cube_value": cube_value, "cube_owner": cube_owner, "on_roll": on_roll,
        "crawford": crawford, "game_state": game_state, "turn": turn,
        "double_offered": double_offered, "resignation": resignation, "dice": dice,
        "length": length, "scores": scores, "jacoby": rng.random() < 0.5,
    }


def by_writer(state):
    """gnubg's encoder fed every field of ``state``."""
    cubeinfo = gnubg.cubeinfo(1, 0, 0, 0, (0, 0), 0, 0)
    cubeinfo.update({
        "cube": state["cube_value"], "cubeowner": -1 if state["cube_owner"] is None else state["cube_owner"],
        "move": state["on_roll"], "matchto": state["length"], "score": tuple(state["scores"]),
        "crawford": int(state["crawford"]), "jacoby": int(state["jacoby"]),
    })
    posinfo = {
        "dice": tuple(state["dice"] or (0, 0)), "turn": state["turn"], "resigned": state["resignation"],
        "doubled": int(state["double_offered"]), "gamestate": state["game_state"],
    }
    return gnubg.matchid(cubeinfo, posinfo)


def session_state():
    """The state gnubg holds now, read from its session, not from its Match ID."""
    cubeinfo, posinfo = gnubg.cubeinfo(), gnubg.posinfo()
    dice = list(posinfo["dice"])
    return {
        "cube_value": cubeinfo["cube"], "cube_owner": None if cubeinfo["cubeowner"] == -1 else cubeinfo["cubeowner"],
        "on_roll": cubeinfo["move"], "crawford": bool(cubeinfo["crawford"]),
        "game_state": posinfo["gamestate"], "turn": posinfo["turn"],
        "double_offered": bool(posinfo["doubled"]), "resignation": posinfo["resigned"],
        "dice": None if dice == [0, 0] else dice, "length": cubeinfo["matchto"],
        "scores": list(cubeinfo["score"]), "jacoby": bool(cubeinfo["jacoby"]),
    }


def xgid_text(rng, length):
    """A random XGID with the given match length (0 = money)."""
    position = rng.choice([START, ISSUE_POSITION])
    crawford_jacoby, score = 0, [0, 0]
    if length:
        score = [rng.randrange(length), rng.randrange(length)]
        if (length - 1) in score and score.count(length - 1) == 1 and rng.random() < 0.6:
            crawford_jacoby = 1
    else:
        crawford_jacoby = rng.randrange(4)  # 1 Jacoby, 2 beavers
    cube_log = 0 if crawford_jacoby and length else rng.choice([0, 0, 1, 2, 3, 5])
    owner = 0 if cube_log == 0 else rng.choice([-1, 0, 1])
    dice = rng.choice(["00", "00"] + [f"{a}{b}" for a in range(1, 7) for b in range(1, 7)])
    turn = rng.choice([-1, 1])
    return (f"XGID={position}:{cube_log}:{owner}:{turn}:{dice}:{score[0]}:{score[1]}:"
            f"{crawford_jacoby}:{length}:10")


SESSIONS = [
    # (starting XGID, commands); the state is recorded after the XGID and after each command
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:1:0:10",
     ["double", "take", "roll", "resign gammon", "accept"]),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10",
     ["double", "resign single", "reject", "take", "roll", "resign backgammon", "reject"]),
    ("XGID=-----aEAACA-eA--abadA-aB--:1:1:1:00:3:1:0:11:10", ["double", "resign gammon", "reject"]),
    ("XGID=-----aEAACA-eA--abadA-aB--:1:1:1:00:0:0:0:0:10", ["double", "drop"]),
    ("XGID=-----aEAACA-eA--abadA-aB--:0:0:1:00:2:3:0:7:10", ["double", "take", "roll"]),
    ("XGID=-----aEAACA-eA--abadA-aB--:1:-1:-1:00:4:1:0:9:10", ["double", "drop"]),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:3:1:7:10", ["roll", "resign backgammon", "accept"]),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:2:4:0:5:10", ["roll", "resign gammon", "reject"]),
    ("XGID=-b----E-C---eE---c-e----B-:2:1:1:00:6:6:0:7:10", ["roll"]),
]


def main():
    """Gather every route and write the JSON file."""
    for setting in ("confirm new off", "confirm default no", "player 0 human", "player 1 human",
                    "automatic roll off", "automatic game off"):
        command("set " + setting)
    rng = random.Random(20240510)
    rows = []
    fixed = [  # the issue's example and the manual's, as states
        {"cube_value": 4, "cube_owner": None, "on_roll": 1, "crawford": False, "game_state": 1, "turn": 1,
         "double_offered": False, "resignation": 0, "dice": [1, 3], "length": 0, "scores": [0, 0], "jacoby": False},
        {"cube_value": 2, "cube_owner": 0, "on_roll": 1, "crawford": False, "game_state": 1, "turn": 1,
         "double_offered": False, "resignation": 0, "dice": [5, 2], "length": 9, "scores": [2, 4], "jacoby": True},
    ]
    states = fixed + [generated_state(rng) for _ in range(330)]
    for state in states:
        rows.append({"route": "writer", "state": state, "gnubg": by_writer(state)})
    # gnubg reads our old IDs into a session, which keeps only some states as they are: a game
    # being played, no offer pending, the player on roll to act, a cube up to 4096
    held = [s for s in states if s["game_state"] == 1 and not s["double_offered"] and not s["resignation"]
            and s["turn"] == s["on_roll"] and s["cube_value"] <= 4096]
    for state in held[:120]:
        old = old_id(state)
        command("set matchid " + old)
        read = dict(state, jacoby=True)
        rows.append({"route": "set matchid", "old_id": old, "state": read, "gnubg": gnubg.matchid()})
    issue = ["XGID=-----aEAACA-eA--abadA-aB--:2:0:-1:13:0:0:0:0:10",  # the issue's example, both dice orders
             "XGID=-----aEAACA-eA--abadA-aB--:2:0:-1:31:0:0:0:0:10"]
    for text in issue + [xgid_text(rng, length) for length in [0] * 40 + [1, 3, 5, 7, 9, 11, 15, 25] * 5]:
        command("set xgid " + text)
        rows.append({"route": "xgid", "input": text, "state": session_state(), "gnubg": gnubg.matchid()})
    for start, commands in SESSIONS:
        for jacoby in ("on", "off"):
            command(f"set jacoby {jacoby}")
            command("set xgid " + start)
            done = [f"set jacoby {jacoby}", "set xgid " + start]
            rows.append({"route": "session", "input": list(done), "state": session_state(), "gnubg": gnubg.matchid()})
            for step in commands:
                command(step)
                done.append(step)
                if gnubg.posinfo()["gamestate"] != 1:
                    break  # game over: gnubg.cubeinfo() still shows the score before it
                rows.append({"route": "session", "input": list(done), "state": session_state(),
                             "gnubg": gnubg.matchid()})
    with open(OUT, "w", encoding="utf-8") as out:
        out.write('{"gnubg": "GNU Backgammon 1.07.001 (Debian 12 package gnubg)",\n "rows": [\n')
        out.write(",\n".join(json.dumps(row, sort_keys=True) for row in rows))
        out.write("\n]}\n")
    print(f"GATHERED {len(rows)} rows into {OUT}")


main()
