"""The table log in words: one sentence per event, in the reader's language.

The live table lists its latest events, the audit trail a dispute is settled on; each is said
as the club would say it ("The box doubles Cy, Dee", "Cy's cube: taken") rather than as the
log's JSON. Players' names are put in as they are (the template escapes them); an event this
module does not know is shown by its type, so a newer log never breaks the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chouette.ledger import cents_to_decimal
from chouette.point_words import points_words
from chouette.web.catalog import gettext as _


def _names(value: Any) -> str:
    """A list of names (or of anything) joined for a sentence."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value)
    return str(value)


def _side(value: Any) -> str:
    return {"box": _("the box"), "team": _("the team")}.get(str(value), str(value))


def _result(winner: Any, kind: Any) -> str:
    words = {
        ("box", "single"): _("The box wins a single game"),
        ("box", "gammon"): _("The box wins a gammon"),
        ("box", "backgammon"): _("The box wins a backgammon"),
        ("team", "single"): _("The team wins a single game"),
        ("team", "gammon"): _("The team wins a gammon"),
        ("team", "backgammon"): _("The team wins a backgammon"),
    }
    return words.get((str(winner), str(kind)), f"{winner} {kind}")


def _double(event: Mapping[str, Any]) -> str:
    by = event.get("by")
    if event.get("extra"):
        return _("%(who)s redoubles %(giver)s's extra cube", who=by, giver=event["extra"])
    if by == "box":
        cubes = event.get("cubes")
        if cubes:
            return _("The box doubles %(names)s", names=_names(cubes))
        return _("The box doubles")
    return _("%(who)s doubles the box", who=by)


def _answer(event: Mapping[str, Any]) -> str:
    kind, cube = str(event.get("type")), event.get("cube")
    if event.get("extra"):
        words = {"take": _("%(giver)s's extra cube: taken"), "drop": _("%(giver)s's extra cube: dropped"),
                 "beaver": _("%(giver)s's extra cube: beavered"),
                 "raccoon": _("%(giver)s's extra cube: raccooned")}
        return words[kind] % {"giver": event["extra"]}
    if cube == "team":
        words = {"take": _("The box takes the team's cube"), "drop": _("The box drops the team's cube"),
                 "beaver": _("The box beavers the team's cube"),
                 "raccoon": _("The box raccoons the team's cube")}
        return words[kind]
    words = {"take": _("%(name)s's cube: taken"), "drop": _("%(name)s's cube: dropped"),
             "beaver": _("%(name)s's cube: beavered"), "raccoon": _("%(name)s's cube: raccooned")}
    return words[kind] % {"name": cube}


def _correction(event: Mapping[str, Any]) -> str:
    reason = event.get("reason", "")
    if event.get("void"):
        return _("Game %(number)s corrected: void (%(reason)s)", number=event.get("game"), reason=reason)
    result = event.get("result") or {}
    return _("Game %(number)s corrected: %(result)s (%(reason)s)", number=event.get("game"),
             result=_result(result.get("winner"), result.get("kind")).lower(), reason=reason)


def _settings(event: Mapping[str, Any]) -> str:
    from chouette.web.house_rules import SETTING_NAMES, value_words

    changes = event.get("settings") or {}
    # The stake as a plain amount: the log line does not know the night's currency.
    words = ", ".join(f"{SETTING_NAMES.get(key, key)}: "
                      + (f"{value // 100}.{value % 100:02d}" if key == "stake_cents" and isinstance(value, int)
                         else value_words(key, value))
                      for key, value in changes.items())
    return _("House rules changed, from the next game: %(changes)s", changes=words)


def _deal(event: Mapping[str, Any]) -> str:
    """A deal in words: who settled, who wins what, and the seat when it is the captain."""
    name = event["cube"]
    if "cents" in event:
        amount = _("%(amount)s in money", amount=cents_to_decimal(abs(int(event["cents"]))))
    else:
        amount = points_words(event["points"])
    if event.get("winner") == "member":
        text = _("%(name)s settles with the box, who pays %(amount)s", name=name, amount=amount)
    else:
        text = _("%(name)s settles with the box and pays it %(amount)s", name=name, amount=amount)
    if event.get("seat") == "box":
        text += "; " + _("the box kept the seat")
    elif event.get("seat") == "captain":
        text += "; " + _("%(name)s takes the box", name=name)
    return text


def _match_line(event: Mapping[str, Any], players: tuple[str, str]) -> str | None:
    """An event of a head-to-head match said with the two players' names (None: as at a
    chouette): the first player sits in the box's seat (side 0), the second in the captain's."""
    first, second = players
    kind = event.get("type")
    if kind == "order":
        return _("Players: %(names)s", names=_names(event["players"]))
    if kind == "opening_roll" and event["box"] == event["team"]:
        return _("Opening roll: %(first)s %(first_die)s, %(second)s %(second_die)s, tie: roll again",
                 first=first, first_die=event["box"], second=second, second_die=event["team"])
    if kind == "opening_roll":
        return _("Opening roll: %(first)s %(first_die)s, %(second)s %(second_die)s",
                 first=first, first_die=event["box"], second=second, second_die=event["team"])
    if kind == "double":
        doubler, taker = (first, second) if event.get("by") == "box" else (second, first)
        return _("%(doubler)s doubles %(taker)s", doubler=doubler, taker=taker)
    if kind in ("take", "drop"):
        answerer = first if event.get("cube") == "team" else second
        if kind == "take":
            return _("%(name)s takes", name=answerer)
        return _("%(name)s drops", name=answerer)
    if kind == "result" and "position_id" not in event:
        winner = first if event.get("winner") == "box" else second
        words = {"single": _("%(name)s wins a single game"), "gammon": _("%(name)s wins a gammon"),
                 "backgammon": _("%(name)s wins a backgammon")}
        text = words[str(event.get("kind"))] % {"name": winner}
        cube = event.get("cube") or 1
        return text + (" · " + _("cube %(value)d", value=cube) if cube > 1 else "")
    return None


def describe(event: Mapping[str, Any], players: tuple[str, str] | None = None) -> str:
    """One event of the log as a sentence; ``players``: the two players of a head-to-head
    match (first, second), whose events are said with their names."""
    kind = event.get("type")
    try:
        if players is not None:
            line = _match_line(event, players)
            if line is not None:
                return line
        if kind == "join":
            return _("%(name)s joins the table", name=event["player"])
        if kind == "leave":
            return _("%(name)s leaves the table", name=event["player"])
        if kind == "order_roll":
            rolls = event.get("rolls") or {}
            return _("Rolls for the order: %(rolls)s",
                     rolls=", ".join(f"{name} {die}" for name, die in rolls.items()))
        if kind == "order":
            return _("Order recorded, the box first: %(names)s", names=_names(event["players"]))
        if kind == "partner":
            if event.get("accept"):
                return _("%(name)s accepts the partnership", name=event["player"])
            return _("%(name)s declines the partnership", name=event["player"])
        if kind == "partner_draw":
            return _("%(name)s is drawn as the box's partner", name=event["player"])
        if kind == "opening_roll" and event["box"] == event["team"]:
            return _("Opening roll: box %(box)s, team %(team)s, tie: roll again",
                     box=event["box"], team=event["team"])
        if kind == "opening_roll":
            return _("Opening roll: box %(box)s, team %(team)s", box=event["box"], team=event["team"])
        if kind == "double":
            return _double(event)
        if kind in ("take", "drop", "beaver", "raccoon"):
            return _answer(event)
        if kind == "extra":
            return _("%(giver)s gives %(taker)s an extra cube", giver=event["from"], taker=event["to"])
        if kind == "roll":
            dice = event.get("dice") or []
            return _("Roll %(dice)s", dice="-".join(str(die) for die in dice))
        if kind == "move":
            return _("Move %(move)s", move=event["move"])
        if kind == "result":
            if "position_id" in event:
                return _("Final position %(position)s, %(side)s on roll",
                         position=event["position_id"], side=_side(event.get("on_roll")))
            return _result(event.get("winner"), event.get("kind"))
        if kind == "correct":
            return _correction(event)
        if kind == "settings":
            return _settings(event)
        if kind == "deal":
            return _deal(event)
        if kind == "proxy":
            return _("%(name)s steps away: %(proxy)s decides for %(name)s for the rest of the game",
                     name=event["player"], proxy=event["to"])
        if kind == "undo":
            return _("Undo of the latest action")
    except (KeyError, TypeError, ValueError):
        pass
    return str(kind)
