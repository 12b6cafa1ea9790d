"""Run inside GNU Backgammon (``gnubg -t -q -r -p gnubg_replay.py``): check one record file.

The spec (JSON, path in ``RECORD_CHECK``) names the file, its format and every game as we
recorded it. The script imports the file, compares gnubg's reading of it (players, dice,
positions, cube actions, scores, results) with the spec, then plays every game again in a
fresh session through gnubg's own rules (``set dice``, ``move``, ``double``, ``take``,
``drop``: gnubg refuses an illegal play) and compares each position and each result. The
problems found are written as a JSON list to ``RECORD_CHECK_OUT``.
"""

import json
import os

import gnubg

with open(os.environ["RECORD_CHECK"]) as handle:
    spec = json.load(handle)
problems = []
SIDES = {"X": 0, "O": 1}


def command(text):
    if os.environ.get("RECORD_CHECK_ECHO"):
        print(">>> " + text)
    gnubg.command(text)


def imported_actions(game):
    return [a for a in game["game"] if a["action"] in ("move", "double", "take", "drop")]


def check_import():
    command("set jacoby " + ("on" if spec["jacoby"] else "off"))
    command("set confirm default no")
    if spec["format"] == "mat":
        command("import mat " + spec["file"])
    else:
        command("load match " + spec["file"])
    match = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    if not match:
        problems.append("gnubg read no match from the file")
        return
    info = match["match-info"]
    names = [info["X"]["name"], info["O"]["name"]]
    if names != spec["names"]:
        problems.append("players {!r}, expected {!r}".format(names, spec["names"]))
    if info["match-length"] != spec["match_length"]:
        problems.append("match length {!r}, expected {!r}".format(info["match-length"], spec["match_length"]))
    games = match["games"]
    if len(games) != len(spec["games"]):
        problems.append(f"{len(games)} games read, expected {len(spec['games'])}")
    for number, (game, want) in enumerate(zip(games, spec["games"], strict=False), start=1):
        got = game["info"]
        score = [got["score-X"], got["score-O"]]
        if score != want["score"]:
            problems.append(f"game {number}: score before {score!r}, expected {want['score']!r}")
        winner = SIDES.get(got.get("winner"))
        result = [winner, got.get("points-won", 0) if winner is not None else 0]
        if result != [want["winner"], want["points"]]:
            problems.append(f"game {number}: result {result!r}, expected {[want['winner'], want['points']]!r}")
        if spec["match_length"] and bool(got.get("crawford", False)) != want["crawford"]:
            problems.append(f"game {number}: Crawford {got.get('crawford')!r}, expected {want['crawford']!r}")
        actions = imported_actions(game)
        if len(actions) != len(want["actions"]):
            problems.append(f"game {number}: {len(actions)} actions read, expected {len(want['actions'])}")
        for index, (action, expected) in enumerate(zip(actions, want["actions"], strict=False), start=1):
            seen = [action["action"], SIDES[action["player"]]]
            if seen != [expected["type"], expected["player"]]:
                problems.append(f"game {number} action {index}: {seen!r}, expected {[expected['type'], expected['player']]!r}")
                break
            if expected["type"] == "move":
                dice = sorted(action["dice"])
                if dice != sorted(expected["dice"]) or action["board"] != expected["before"]:
                    problems.append(f"game {number} action {index}: dice {dice!r} on {action['board']}, "
                                    f"expected {expected['dice']!r} on {expected['before']}")
                    break


def replay_games():
    # Starting a new session asks to discard the game in progress: the answer is yes.
    command("set confirm new off")
    command("set confirm default yes")
    # No roll by itself when the player on roll cannot double: every roll is `set dice`.
    command("set auto roll off")
    command("set player 0 human")
    command("set player 1 human")
    for number, want in enumerate(spec["games"], start=1):
        command("new session")
        count = len(gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)["games"])
        command(f"set player 0 name {NAMES[0]}")
        command(f"set player 1 name {NAMES[1]}")
        command("set board 4HPwATDgc/ABMA")
        first = want["actions"][0]["player"]
        command(f"set turn {NAMES[first]}")
        for index, action in enumerate(want["actions"], start=1):
            kind = action["type"]
            if kind == "move":
                command(f"set dice {action['dice'][0]} {action['dice'][1]}")
                # With no legal play, a bare `move` passes the turn.
                command(("move " + action["text"]).strip())
                now = gnubg.positionid(gnubg.board())
                if action["after"] is not None and now != action["after"]:
                    problems.append(f"game {number} action {index}: gnubg's rules reach {now} after "
                                    f"{action['text']!r} with {action['dice']!r}, we reach {action['after']}")
                    break
            else:
                command(kind)
        # A finished game is followed at once by a new one: the replayed game is at `count`.
        played = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)["games"][count - 1]["info"]
        winner = SIDES.get(played.get("winner"))
        result = [winner, played.get("points-won", 0) if winner is not None else 0]
        if result != [want["winner"], want["session_points"]]:
            problems.append(f"game {number} replayed: result {result!r}, expected {[want['winner'], want['session_points']]!r}")


NAMES = ["left", "right"]
check_import()
if not problems:
    replay_games()
with open(os.environ["RECORD_CHECK_OUT"], "w") as out:
    json.dump(problems, out)
