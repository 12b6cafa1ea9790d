"""Flask-WTF forms: they parse and check input; what was typed is re-shown on any refusal."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateField,
    Field,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectField,
    StringField,
)
from wtforms.validators import (
    EqualTo,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)
from wtforms.widgets import TextInput

from chouette.services import members, tables
from chouette.table.settings import MAX_STAKE_CENTS
from chouette.web import house_rules

PASSWORD_LENGTH = _l("A password has at least %(min)d characters (at most %(max)d).")


class PostForm(FlaskForm):
    """A form with nothing but its CSRF token: buttons that change something."""


class LoginForm(FlaskForm):
    """Sign in."""

    username = StringField(_l("Username"), validators=[InputRequired(), Length(max=40)])
    password = PasswordField(_l("Password"), validators=[InputRequired(), Length(max=200)])
    next = HiddenField()


class SetupForm(FlaskForm):
    """First start: the club's first admin."""

    name = StringField(_l("Your name"), validators=[InputRequired(), Length(max=80)])
    username = StringField(_l("Username"), validators=[InputRequired(), Length(min=2, max=40)])
    password = PasswordField(
        _l("Password"), validators=[InputRequired(), Length(min=members.MIN_PASSWORD_LENGTH, max=200, message=PASSWORD_LENGTH)]
    )
    confirm = PasswordField(
        _l("Password again"),
        validators=[InputRequired(), EqualTo("password", message=_l("The two passwords differ."))],
    )


def _role_choices() -> list[tuple[str, Any]]:
    """The roles, named in the current language."""
    return [("player", _l("Player")), ("organizer", _l("Organizer")), ("admin", _l("Admin"))]


def _locale_choices() -> list[tuple[str, Any]]:
    """The interface languages, each named in itself."""
    return [("", _l("Browser's language")), ("en", "English"), ("it", "Italiano")]


class MemberForm(FlaskForm):
    """An admin adds or edits a member."""

    name = StringField(_l("Name"), validators=[InputRequired(), Length(max=80)])
    username = StringField(
        _l("Username"),
        validators=[
            InputRequired(),
            Regexp(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,39}$", message=_l("2 to 40 letters, digits, dots, dashes or underscores.")),
        ],
    )
    role = SelectField(_l("Role"), choices=_role_choices, default="player")
    locale = SelectField(_l("Language"), choices=_locale_choices, default="")
    active = BooleanField(_l("Active"), default=True)
    password = PasswordField(_l("Password"), validators=[Optional(), Length(min=members.MIN_PASSWORD_LENGTH, max=200, message=PASSWORD_LENGTH)])


class AccountForm(FlaskForm):
    """A member's own preferences."""

    locale = SelectField(_l("Language"), choices=_locale_choices, default="")
    auto_forced_moves = BooleanField(_l("At a table played online, play a forced move by itself"))


def _new_password() -> PasswordField:
    """A new password, with the sign-up rules."""
    return PasswordField(_l("New password"), validators=[
        InputRequired(), Length(min=members.MIN_PASSWORD_LENGTH, max=200, message=PASSWORD_LENGTH)])


def _password_again() -> PasswordField:
    """The new password typed again."""
    return PasswordField(_l("New password again"), validators=[
        InputRequired(), EqualTo("password", message=_l("The two passwords differ."))])


class NewPasswordForm(FlaskForm):
    """A new password, twice (through a one-time link)."""

    password = _new_password()
    confirm = _password_again()


class PasswordChangeForm(NewPasswordForm):
    """A member changes their own password."""

    current = PasswordField(_l("Current password"), validators=[InputRequired(), Length(max=200)])


class JoinForm(FlaskForm):
    """Joining the club through an invitation: the new member's own account."""

    name = StringField(_l("Your name"), validators=[InputRequired(), Length(max=40)])
    username = StringField(_l("Username"), validators=[
        InputRequired(),
        Regexp(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,39}$", message=_l("2 to 40 letters, digits, dots, dashes or underscores."))])
    password = PasswordField(_l("Password"), validators=[
        InputRequired(), Length(min=members.MIN_PASSWORD_LENGTH, max=200, message=PASSWORD_LENGTH)])
    confirm = PasswordField(_l("Password again"), validators=[
        InputRequired(), EqualTo("password", message=_l("The two passwords differ."))])


class InvitationForm(FlaskForm):
    """An admin invites people to join."""

    label = StringField(_l("Label (who or which night it is for)"), validators=[Optional(), Length(max=80)])
    hours = IntegerField(_l("Valid for (hours)"), default=12, validators=[
        InputRequired(message=_l("Enter a whole number.")), NumberRange(min=1, max=90 * 24)])
    max_uses = IntegerField(_l("How many people may join with it"), default=20, validators=[
        InputRequired(message=_l("Enter a whole number.")), NumberRange(min=1, max=500)])


class NightForm(FlaskForm):
    """Open a club night."""

    name = StringField(_l("Name"), validators=[InputRequired(), Length(max=80)])
    date = DateField(_l("Date"), validators=[InputRequired(message=_l("Enter a date such as 2026-11-21."))])
    currency = StringField(
        _l("Currency"),
        default="EUR",
        validators=[InputRequired(), Regexp(r"^[A-Za-z]{3}$", message=_l("A three-letter code such as EUR."))],
    )


class CentsField(Field):
    """An amount of money typed as ``2`` or ``2.50``; its data is integer cents."""

    widget = TextInput()

    def _value(self) -> str:
        """What the input shows: what was typed, else the amount as ``1.00``."""
        if self.raw_data:
            return str(self.raw_data[0])
        if isinstance(self.data, int):
            return f"{self.data // 100}.{self.data % 100:02d}"
        return ""

    def process_formdata(self, valuelist: list[Any]) -> None:
        """Parse the typed amount exactly (Decimal, never float) into cents."""
        if not valuelist:
            return
        text = str(valuelist[0]).strip().replace(",", ".")
        try:
            amount = Decimal(text)
        except InvalidOperation:
            self.data = None
            raise ValueError(_l("Enter an amount such as 1 or 2.50.")) from None
        if not amount.is_finite() or amount <= 0:
            self.data = None
            raise ValueError(_l("Enter an amount such as 1 or 2.50."))
        # The size first: quantizing 1E26 to cents exceeds Decimal's precision and raises.
        if amount * 100 > MAX_STAKE_CENTS:
            self.data = None
            raise ValueError(_l("That stake is too large."))
        if amount != amount.quantize(Decimal("0.01")):
            self.data = None
            raise ValueError(_l("Enter an amount such as 1 or 2.50."))
        self.data = int(amount * 100)


def _choices(key: str) -> list[tuple[str, Any]]:
    """The allowed values of a choice setting, named in words."""
    return [(value, house_rules.VALUE_NAMES[key][value]) for value in tables.SETTING_CHOICES[key]]


def _int_field(key: str) -> IntegerField:
    """A whole-number setting's field, with its default and range."""
    low, high = tables.SETTING_RANGES[key]
    return IntegerField(
        house_rules.SETTING_NAMES[key],
        default=tables.TABLE_DEFAULTS[key],
        validators=[
            InputRequired(message=_l("Enter a whole number.")),
            NumberRange(low, high, message=_l("Between %(min)s and %(max)s.")),
        ],
    )


class TableForm(FlaskForm):
    """Create a table: a name, and every setting (a preset fills them in)."""

    name = StringField(_l("Table name"), validators=[InputRequired(), Length(max=60)])
    preset = SelectField(_l("Preset"), choices=lambda: [("", _l("Custom"))] + house_rules.preset_choices(), default="")
    cube_mode = SelectField(house_rules.SETTING_NAMES["cube_mode"], choices=lambda: _choices("cube_mode"))
    stake_cents = CentsField(house_rules.SETTING_NAMES["stake_cents"], default=tables.TABLE_DEFAULTS["stake_cents"])
    per_player_stakes = BooleanField(house_rules.SETTING_NAMES["per_player_stakes"])
    jacoby = BooleanField(house_rules.SETTING_NAMES["jacoby"])
    beavers = BooleanField(house_rules.SETTING_NAMES["beavers"])
    raccoons = BooleanField(house_rules.SETTING_NAMES["raccoons"])
    automatic_doubles = _int_field("automatic_doubles")
    all_but_one = SelectField(house_rules.SETTING_NAMES["all_but_one"], choices=lambda: _choices("all_but_one"), default="forced_drop")
    all_but_one_min_players = _int_field("all_but_one_min_players")
    extras = BooleanField(house_rules.SETTING_NAMES["extras"])
    partner_min_players = _int_field("partner_min_players")
    partner_share_percent = _int_field("partner_share_percent")
    box_retention = SelectField(house_rules.SETTING_NAMES["box_retention"], choices=lambda: _choices("box_retention"))
    join_position = SelectField(house_rules.SETTING_NAMES["join_position"], choices=lambda: _choices("join_position"))
    consulting = SelectField(house_rules.SETTING_NAMES["consulting"], choices=lambda: _choices("consulting"))
    same_value_same_action = BooleanField(house_rules.SETTING_NAMES["same_value_same_action"])
    play = SelectField(house_rules.SETTING_NAMES["play"], choices=lambda: _choices("play"), default="club")
    decision_seconds = _int_field("decision_seconds")
    unanswered_double = SelectField(house_rules.SETTING_NAMES["unanswered_double"],
                                    choices=lambda: _choices("unanswered_double"), default="drop")

    def validate_raccoons(self, field: Field) -> None:
        """Raccoons need beavers (docs/rules.md 1.7)."""
        if field.data and not self.beavers.data:
            raise ValidationError(_l("Raccoons need beavers."))

    def validate_all_but_one(self, field: Field) -> None:
        """The lone taker cannot be made to beaver where beavers are not played."""
        if field.data == "mandatory_beaver" and not self.beavers.data:
            raise ValidationError(_l("A mandatory beaver needs beavers."))

    def settings(self) -> dict[str, Any]:
        """The settings as typed, keyed as in docs/log-format.md 3."""
        return {key: getattr(self, key).data for key in tables.TABLE_DEFAULTS}

    def fill(self, settings: dict[str, Any]) -> None:
        """Show ``settings`` in the fields (a preset chosen)."""
        for key, value in settings.items():
            getattr(self, key).data = value
