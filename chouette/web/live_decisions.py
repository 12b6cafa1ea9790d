"""What a viewer may decide at the live table: the legal actions grouped the way the page shows
them (``group_actions``), and the decisions that wait for the viewer, each with its sentence
and its buttons (``my_decision``, ``tables/_my_decision.html``).
"""

from __future__ import annotations

from typing import Any, TypedDict

from flask import url_for
from flask_login import current_user

from chouette.services import deciders, take_back
from chouette.table import TableState
from chouette.web.catalog import gettext as _


class Actions(TypedDict):
    """The legal actions grouped the way the page shows them (``group_actions``)."""

    partner: list[dict[str, Any]]
    draw: bool
    box_cubes: list[str]
    box_double: bool
    member_doubles: list[str]
    answers: dict[str, list[str]]
    extras: list[dict[str, Any]]
    results: list[dict[str, Any]]
    extra_cubes: dict[str, list[dict[str, Any]]]


def answer_words() -> dict[str, str]:
    return {"take": _("Take"), "drop": _("Drop"), "beaver": _("Beaver"), "raccoon": _("Raccoon")}


def group_actions(state: TableState, legal: list[dict[str, Any]]) -> Actions:
    """The legal actions (``deciders.candidate_decisions``), grouped the way the page shows them."""
    grouped: Actions = {"partner": [], "draw": False, "box_cubes": [], "box_double": False,
                               "member_doubles": [], "answers": {}, "extras": [], "results": [],
                               "extra_cubes": {}}
    for event in legal:
        kind = event["type"]
        if "extra" in event:
            grouped["extra_cubes"].setdefault(event["extra"], []).append(event)
        elif kind == "partner":
            grouped["partner"].append(event)
        elif kind == "partner_draw":
            grouped["draw"] = True
        elif kind == "double" and event["by"] == "box":
            grouped["box_double"] = True
            cubes = event.get("cubes")
            if cubes and len(cubes) == 1:
                grouped["box_cubes"].append(cubes[0])
        elif kind == "double":
            grouped["member_doubles"].append(event["by"])
        elif kind in deciders.ANSWERS:
            grouped["answers"].setdefault(event["cube"], []).append(kind)
        elif kind == "extra":
            grouped["extras"].append(event)
        elif kind == "result" and not state.settings.is_match:  # a match has its own form
            grouped["results"].append(event)
    return grouped


def member_double(event: dict[str, Any]) -> bool:
    """A member's double of the box (``{"type": "double", "by": name}``): a decision they may
    make at any time, whose button stands in their cube's row."""
    return event.get("type") == "double" and set(event) == {"type", "by"} and event["by"] != "box"


def _offer_text(offerer: str, kind: str, value: int, absent: str | None = None) -> str:
    """What waits for an answer, said to the one who must answer it (``absent``: the member
    they answer for as proxy)."""
    if absent is not None and kind == "double":
        return _("%(name)s doubles %(member)s to %(value)d: you decide for %(member)s.",
                 name=offerer, member=absent, value=value)
    if kind == "beaver":
        return _("%(name)s beavers: the cube goes to %(value)d.", name=offerer, value=value)
    if kind == "raccoon":
        return _("%(name)s raccoons: the cube goes to %(value)d.", name=offerer, value=value)
    return _("%(name)s doubles you to %(value)d.", name=offerer, value=value)


def _answer_buttons(table_id: int, events: list[dict[str, Any]], field: str) -> list[dict[str, Any]]:
    words = answer_words()
    return [{"url": url_for("play.answer", table_id=table_id), "label": words[e["type"]],
             "fields": {field: e[field], "answer": e["type"]}, "css": f"answer answer-{e['type']}"}
            for e in events]


def own_drop(table_id: int, state: TableState, me: str) -> list[dict[str, Any]]:
    """The viewer's own drop, the table's last event, while they may still take it back."""
    until = take_back.own_drop_until(current_user, table_id, state, me)
    if until is None:
        return []
    return [{"kind": "take-back", "title": _("Your drop"),
             "text": _("Tapped by mistake? You may take it back for a few seconds, while "
                       "nothing else happens at the table."),
             "buttons": [{"url": url_for("play.take_back", table_id=table_id),
                          "label": _("Take back my drop"), "fields": {},
                          "css": "secondary take-back"}],
             "until": until.isoformat(timespec="seconds") + "Z",
             "key": f"take-back-{len(state.effective)}"}]


def my_decision(table_id: int, state: TableState, me: str,
                waiting: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decisions waiting for ``me`` (``deciders.waiting_for``), each with its sentence and
    its buttons (``tables/_my_decision.html``): one item per cube, extra cube or offer."""
    game = state.game
    items: list[dict[str, Any]] = []
    by_cube: dict[str, list[dict[str, Any]]] = {}
    by_extra: dict[str, list[dict[str, Any]]] = {}
    for event in waiting:
        if event["type"] in deciders.ANSWERS and "extra" in event:
            by_extra.setdefault(event["extra"], []).append(event)
        elif event["type"] in deciders.ANSWERS:
            by_cube.setdefault(event["cube"], []).append(event)
    for cube, events in by_cube.items():
        assert game is not None
        names = game.pending if cube == "team" else [cube]
        offer = game.cubes[names[0]].cube.offer
        if offer is None:
            continue
        answerer = game.cubes[names[0]].to_answer
        if answerer == "member":
            offerer = state.box or ""
        elif state.settings.is_match:
            offerer = game.acting_captain
        else:
            offerer = _("The team (%(name)s)", name=game.acting_captain) if cube == "team" else cube
        title = _("The team's cube") if cube == "team" else (
            _("Your cube") if cube == me else _("%(name)s's cube", name=cube))
        absent = cube if game.proxies.get(cube) == me else None
        if state.settings.is_match:
            title = _("The cube")
        items.append({"kind": "cube", "cube": cube, "title": title,
                      "text": _offer_text(offerer, offer.kind, offer.value, absent),
                      "buttons": _answer_buttons(table_id, events, "cube"),
                      "key": f"g{game.number}-d{game.doubles}-{cube}-{offer.kind}{offer.value}"})
    for giver, events in by_extra.items():
        assert game is not None
        extra = next(e for e in game.extras if e.giver == giver)
        offer = extra.cube.offer
        if offer is None:
            continue
        offerer = extra.taker if giver == me else giver
        items.append({"kind": "extra-cube", "cube": giver,
                      "title": _("Extra cube %(value)d from %(giver)s to %(taker)s",
                                 value=extra.value, giver=giver, taker=extra.taker),
                      "text": _offer_text(offerer, offer.kind, offer.value),
                      "buttons": _answer_buttons(table_id, events, "extra"),
                      "key": f"g{game.number}-d{game.doubles}-x{giver}-{offer.kind}{offer.value}"})
    partner_url = url_for("play.partner", table_id=table_id)
    for event in waiting:
        if event["type"] == "partner" and event["accept"]:
            items.append({"kind": "partner", "title": _("The box's partner"),
                          "text": _("You are offered the partnership with the box, %(name)s.",
                                    name=state.box),
                          "buttons": [{"url": partner_url, "label": label, "css": css,
                                       "fields": {"player": me, "answer": answer}}
                                      for answer, label, css in (
                                          ("accept", _("Accept"), "primary"),
                                          ("decline", _("Decline"), "secondary"))],
                          "key": f"p{len(state.games)}-{len(state.partner_offers)}"})
        elif event["type"] == "extra":
            assert game is not None
            items.append({"kind": "extra", "title": _("An extra cube"),
                          "text": _("%(name)s took alone: you may give %(name)s an extra cube "
                                    "(and pay one point now).", name=event["to"]),
                          "buttons": [{"url": url_for("play.extra", table_id=table_id),
                                       "label": _("Give %(name)s an extra cube", name=event["to"]),
                                       "css": "primary",
                                       "fields": {"giver": me, "taker": event["to"]}}],
                          "key": f"g{game.number}-extra-{event['to']}"})
    return items
