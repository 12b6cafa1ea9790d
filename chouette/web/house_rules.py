"""Table settings in words: the names, the choices, the presets, and the house-rules card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from chouette.amounts import format_cents
from chouette.services import tables
from chouette.services import tables as tables_service
from chouette.table import TableState
from chouette.web.catalog import gettext as _

SETTING_NAMES: dict[str, Any] = {
    "cube_mode": _l("Cube"),
    "stake_cents": _l("Stake per point"),
    "per_player_stakes": _l("Per-player stakes"),
    "jacoby": _l("Jacoby rule"),
    "beavers": _l("Beavers"),
    "raccoons": _l("Raccoons"),
    "automatic_doubles": _l("Automatic doubles"),
    "all_but_one": _l("All but one decline"),
    "all_but_one_min_players": _l("All but one: from how many players"),
    "extras": _l("Extra cubes for a lone taker"),
    "partner_min_players": _l("Box partner: from how many players"),
    "partner_share_percent": _l("Box partner's share (%)"),
    "box_retention": _l("The box keeps the box"),
    "join_position": _l("Newcomers join the line"),
    "consulting": _l("Consulting"),
    "same_value_same_action": _l("Same value, same action"),
    "play": _l("Where the game is played"),
    "decision_seconds": _l("Time limit per decision (seconds)"),
    "unanswered_double": _l("A double unanswered in time is"),
}

VALUE_NAMES: dict[str, dict[str, Any]] = {
    "cube_mode": {"multi": _l("Multi-cube"), "single": _l("Single cube")},
    "all_but_one": {
        "off": _l("Off"),
        "forced_drop": _l("The lone taker must drop"),
        "mandatory_beaver": _l("The lone taker must beaver"),
    },
    "box_retention": {
        "beat_captain": _l("while the box beats the captain"),
        "net_non_negative": _l("while the box beats the captain and does not lose overall"),
        "net_positive": _l("while the box beats the captain and wins overall"),
    },
    "join_position": {
        "immediate": _l("at the end, at once"),
        "after_next_rotation": _l("behind the next player to rotate"),
    },
    "consulting": {
        "free": _l("Free"),
        "forbidden": _l("Forbidden"),
        "after_cube": _l("Only after a cube is turned"),
    },
    "play": {"club": _l("At the club"), "online": _l("Online")},
    "unanswered_double": {"drop": _l("dropped"), "take": _l("taken")},
}

#: The settings a house-rules form drawn before they existed has no field for: such a form
#: leaves them as they are (``play._typed_settings``).
LATER_RULES = ("play", "decision_seconds", "unanswered_double")

PRESET_NAMES: dict[str, Any] = {
    "club-standard": _l("Club standard (the seeds' defaults)"),
    "single-cube-jacoby": _l("Single cube, Jacoby"),
    "money-night": _l("Money night: beavers, raccoons, automatic doubles (cap 1), Jacoby"),
}


def preset_choices() -> list[tuple[str, Any]]:
    """The presets for a select box, in their order."""
    return [(key, PRESET_NAMES[key]) for key in tables.PRESETS]


def money(cents: int, currency: str) -> str:
    """``cents`` as an amount of ``currency`` as the club writes them (``chouette.amounts``)."""
    return format_cents(cents, currency)


def _yes_no(value: bool, yes: Any, no: Any) -> str:
    """The sentence for an on/off setting."""
    return str(yes if value else no)


def describe(settings: dict[str, Any], currency: str = "EUR") -> list[tuple[str, str, str]]:
    """Every setting as ``(key, name, sentence)``, in the current language, for the card."""
    if settings.get("match_length"):
        return describe_match(settings, currency)
    s = {**tables_service.TABLE_DEFAULTS, **settings}
    automatic = s["automatic_doubles"]
    lines: dict[str, str] = {
        "cube_mode": str(
            _l("Multi-cube: every member has a cube of their own against the box.")
            if s["cube_mode"] == "multi"
            else _l("Single cube: one cube between the box and the team; the captain decides the team's doubles.")
        ),
        "stake_cents": str(_l("%(amount)s a point.", amount=money(s["stake_cents"], currency))),
        "per_player_stakes": _yes_no(
            s["per_player_stakes"],
            _l("Each player may choose a stake; a box-member pair plays at the lower one."),
            _l("One stake for the whole table."),
        ),
        "jacoby": _yes_no(
            s["jacoby"],
            _l("On: gammons and backgammons count single unless the cube was turned."),
            _l("Off: gammons and backgammons always count."),
        ),
        "beavers": _yes_no(
            s["beavers"],
            _l("Allowed: the taker may redouble at once and keep the cube."),
            _l("Not allowed."),
        ),
        "raccoons": _yes_no(
            s["raccoons"],
            _l("Allowed: the doubler may answer a beaver by redoubling again."),
            _l("Not allowed."),
        ),
        "automatic_doubles": (
            ngettext(
                "On, at most %(num)d: a tied opening roll turns the cube.",
                "On, at most %(num)d: each tied opening roll turns the cube.",
                automatic,
            )
            if automatic
            else str(_l("Off."))
        ),
        "all_but_one": str(
            {
                "off": _l("Off: a lone taker plays on."),
                "forced_drop": _l("When all members but one drop the box's double, the one who took must drop too."),
                "mandatory_beaver": _l("When all members but one drop the box's double, the one who took must beaver or drop."),
            }[s["all_but_one"]]
        ),
        "all_but_one_min_players": str(
            _l("With %(count)d players or more.", count=s["all_but_one_min_players"])
        ),
        "extras": _yes_no(
            s["extras"],
            _l("On: a lone taker of the box's first double accepts extra 2-cubes from teammates."),
            _l("Off."),
        ),
        "partner_min_players": str(
            _l("The box may take a partner with %(count)d players or more.", count=s["partner_min_players"])
            if s["partner_min_players"]
            else _l("No box partner at this table.")
        ),
        "partner_share_percent": str(
            _l("The partner shares %(percent)d%% of the box's result.", percent=s["partner_share_percent"])
        ),
        "box_retention": str(
            _l("The box keeps the box %(rule)s.", rule=VALUE_NAMES["box_retention"][s["box_retention"]])
        ),
        "join_position": str(
            _l("A newcomer joins the line %(where)s.", where=VALUE_NAMES["join_position"][s["join_position"]])
        ),
        "consulting": str(
            {
                "free": _l("Free: the team may consult at any time."),
                "forbidden": _l("Forbidden: the captain decides alone."),
                "after_cube": _l("Only after a cube has been turned, and only members still in the game."),
            }[s["consulting"]]
        ),
        "same_value_same_action": _yes_no(
            s["same_value_same_action"],
            _l("On: cubes of the same value doubled together must all be taken or all dropped by the box."),
            _l("Off: the box answers each cube on its own."),
        ),
        "play": str(
            _l("Online: the box and the captain roll (the app's dice) and move on their own devices.")
            if s["play"] == "online"
            else _l("At the club: the organizer or the players enter the dice and moves of a physical board.")
        ),
        "decision_seconds": str(
            _l("%(seconds)d seconds for each decision, shown as a countdown: an unanswered "
               "\"roll or double\" rolls; a move is never made for anyone.",
               seconds=s["decision_seconds"])
            if s["decision_seconds"] and s["play"] == "online"
            else _l("No time limit: every decision waits for its player.")
        ),
        "unanswered_double": str(
            _l("Taken when its time is up.") if s["unanswered_double"] == "take"
            else _l("Dropped when its time is up.")
        ),
    }
    if s["extras"] and s["all_but_one"] != "off":
        # Extras replace the all-but-one rule on the box's first double (docs/rules.md 2.7); a later
        # double of every member still falls under it (chouette.table.cube_rules).
        lines["all_but_one"] = str(
            {
                "forced_drop": _l("Replaced by the extra cubes on the box's first double; on a later double, when all members but one drop, the one who took must drop too."),
                "mandatory_beaver": _l("Replaced by the extra cubes on the box's first double; on a later double, when all members but one drop, the one who took must beaver or drop."),
            }[s["all_but_one"]]
        )
    # One cube has one answer: "same value, same action" is a multi-cube rule (docs/rules.md 2.5).
    hidden = {"same_value_same_action"} if s["cube_mode"] == "single" else set()
    # Without a time limit (at the club nobody is timed) no double goes unanswered in time.
    if s["play"] != "online" or not s["decision_seconds"]:
        hidden.add("unanswered_double")
    return [(key, str(SETTING_NAMES[key]), lines[key]) for key in tables_service.TABLE_DEFAULTS
            if key not in hidden]


def value_words(key: str, value: Any, currency: str = "EUR") -> str:
    """One setting's value in a word or two (``on``, ``Single cube``, ``€2.00``, ``5``)."""
    if key == "stake_cents" and isinstance(value, int):
        return money(value, currency)
    if key in VALUE_NAMES and value in VALUE_NAMES[key]:
        return str(VALUE_NAMES[key][value])
    if isinstance(value, bool):
        return _("on") if value else _("off")
    return str(value)


def change_words(changed: Mapping[str, tuple[Any, Any]], currency: str = "EUR") -> list[str]:
    """Each changed setting as ``name: new (was old)``, for the card, the sheet and history."""
    return [_("%(setting)s: %(new)s (was %(old)s)", setting=str(SETTING_NAMES.get(key, key)),
              new=value_words(key, new, currency), old=value_words(key, old, currency))
            for key, (old, new) in changed.items()]


def card(state: TableState, currency: str = "EUR") -> dict[str, Any]:
    """The house-rules card's context for a table as its log left it (docs/rules.md 2.12): every
    setting now in force (``rules``), the game from which each has applied when a change
    brought it (``rules_since``: key -> game), and each change (``rules_changes``: the game
    it applied from and what it changed, in words)."""
    since: dict[str, int] = {}
    changes: list[tuple[int, list[str]]] = []
    for first, _settings, changed in state.settings_changes():
        for key in changed:
            since[key] = first
        changes.append((first, change_words(changed, currency)))
    return {"rules": describe(state.settings.to_dict(), currency), "rules_since": since,
            "rules_changes": changes}


def form_fields(settings: Mapping[str, Any], typed: Mapping[str, str]) -> list[dict[str, Any]]:
    """The fields of the form that changes the house rules between games
    (``tables/_settings_form.html``), each showing the rule in force or, after a refusal,
    what was typed (``typed``: the form's fields, ``rule-<setting>``)."""
    retyped = "rule-stake_cents" in typed
    fields: list[dict[str, Any]] = []
    for key, default in tables_service.TABLE_DEFAULTS.items():
        name = f"rule-{key}"
        value: Any = settings.get(key, default)
        field: dict[str, Any] = {"key": key, "name": name, "label": str(SETTING_NAMES[key])}
        if isinstance(default, bool):
            field.update(kind="bool", value=(typed.get(name) == "on") if retyped else bool(value))
        elif key == "stake_cents":
            field.update(kind="stake", value=typed.get(name, "") if retyped
                         else f"{value // 100}.{value % 100:02d}")
        elif isinstance(default, int):
            low, high = tables_service.SETTING_RANGES[key]
            field.update(kind="int", value=typed.get(name, "") if retyped else value, min=low,
                         max=high)
        else:
            field.update(kind="choice", value=typed.get(name, "") if retyped else value,
                         choices=[(choice, str(VALUE_NAMES[key][choice]))
                                  for choice in tables_service.SETTING_CHOICES[key]])
        fields.append(field)
    return fields


def describe_match(settings: Mapping[str, Any], currency: str) -> list[tuple[str, str, str]]:
    """A match's rules card: ``(key, name, sentence)`` as ``house_rules.describe`` gives them."""
    stake = settings.get("match_stake", "none")
    amount = money(int(settings.get("stake_cents", 0)), currency)
    money_line = {"none": _("No money: the match is not in the ledger."),
                  "point": _("%(amount)s a point.", amount=amount),
                  "match": _("%(amount)s for the match.", amount=amount)}[stake]
    return [
        ("match_length", _("Match"), _("To %(length)d points; points beyond it give no bonus.",
                                        length=int(settings["match_length"]))),
        ("crawford", _("Crawford rule"), _("Always on: when a player first reaches one point "
                                           "from the end, nobody doubles in the next game.")),
        ("holland", _("Holland rule"),
         _("On: after the Crawford game the trailer may not double before their third turn.")
         if settings.get("holland") else _("Off.")),
        ("cube", _("Cube"), _("One cube; no automatic doubles, beavers or Jacoby rule.")),
        ("match_stake", _("Money"), money_line),
    ]
