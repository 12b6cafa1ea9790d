"""A member's own password; the one-time links that set one (made by an admin or organizer,
handed over on the page or as a QR); invitations to join the club."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, flash, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response as BaseResponse

from chouette.models import Member
from chouette.services import account_links, base, members
from chouette.web.auth import role_required, sign_in
from chouette.web.forms import InvitationForm, JoinForm, NewPasswordForm, PasswordChangeForm, PostForm
from chouette.web.htmx import see_other

bp = Blueprint("accounts", __name__)


def _private(html: str, status: int = 200) -> BaseResponse:
    """A page carrying a link's token: never cached, never sent on as a referrer."""
    response = make_response(html, status)
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _refused(error: account_links.LinkRefused) -> BaseResponse:
    """The clear page of a link that no longer works (410: gone)."""
    return _private(render_template("auth/link_refused.html", message=str(error)), 410)


def _use_link(form: FlaskForm, use: Callable[[], Member],
              welcome: Callable[[Member], str]) -> BaseResponse | None:
    """Use a one-time link with its valid form (``use``): the member is signed in, greeted
    (``welcome``) and sent home; or the link's refusal page. None: the form is shown again
    with the service's refusal (422)."""
    try:
        member = use()
    except account_links.LinkRefused as error:
        return _refused(error)
    except base.ServiceError as error:
        form.form_errors.append(str(error))
        return None
    sign_in(member)
    flash(welcome(member), "success")
    return see_other("main.home")


# --------------------------------------------------------------------------- own password


@bp.route("/account/password", methods=["GET", "POST"])
@login_required
def password() -> BaseResponse:
    """The signed-in member changes their password; their other devices are signed out."""
    form = PasswordChangeForm()
    status = 200
    if form.validate_on_submit():
        try:
            members.change_password(current_user, form.current.data or "", form.password.data or "",
                                    request.remote_addr or "")
        except base.ServiceError as error:
            form.form_errors.append(str(error))
            status = 429 if isinstance(error, base.TooManyAttempts) else 422
        else:
            sign_in(members.get_member(current_user.id))  # this device stays signed in, anew
            flash(_("Your password is changed; your other devices are signed out."), "success")
            return see_other("main.account")
    elif form.is_submitted():
        status = 422
    return _private(render_template("auth/password.html", form=form), status)


# --------------------------------------------------------------------------- password links


@bp.get("/members/password-links")
@role_required("organizer")
def password_links() -> BaseResponse:
    """The members the signed-in admin or organizer may make a password link for."""
    fit = [member for member in members.list_members()
           if member.active and account_links.may_make_password_link(current_user, member)]
    return _private(render_template("auth/password_links.html", members=fit, form=PostForm()))


@bp.post("/members/<int:member_id>/password-link")
@role_required("organizer")
def make_password_link(member_id: int) -> BaseResponse:
    """Make a one-time link for the member and show it (and its QR) to hand over."""
    form = PostForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        token, link = account_links.make_password_link(member_id, current_user)
    except base.NotFound:
        abort(404)
    except base.ServiceError as error:
        flash(str(error), "error")
        return see_other("accounts.password_links")
    url = url_for("accounts.reset", token=token, _external=True)
    return _private(render_template("auth/link_shown.html", url=url, member=link.member, link=link), 201)


@bp.route("/auth/reset/<token>", methods=["GET", "POST"])
def reset(token: str) -> BaseResponse:
    """Whoever holds the link sets the member's new password (once); then signed in as them."""
    try:
        member = account_links.check_password_link(token)
    except account_links.LinkRefused as error:
        return _refused(error)
    form = NewPasswordForm()
    if form.validate_on_submit():
        done = _use_link(form, lambda: account_links.use_password_link(token, form.password.data or ""),
                         lambda member: _("Your new password is set, %(name)s.", name=member.name))
        if done is not None:
            return done
    status = 422 if form.is_submitted() else 200
    return _private(render_template("auth/reset.html", form=form, member=member, token=token), status)


# --------------------------------------------------------------------------- invitations


def _invitations_page(form: InvitationForm, status: int = 200) -> BaseResponse:
    invitations = account_links.list_invitations()
    states = {invitation.id: account_links.invitation_state(invitation) for invitation in invitations}
    return _private(render_template("admin/invitations.html", form=form, invitations=invitations,
                                    states=states), status)


@bp.route("/admin/invitations", methods=["GET", "POST"])
@role_required("admin")
def invitations() -> BaseResponse:
    """The invitations (their uses left, revoke) and the form to make one; a new one is shown
    once, with its link and QR (only its hash is kept)."""
    form = InvitationForm()
    if form.validate_on_submit():
        try:
            token, invitation = account_links.make_invitation(
                current_user, label=form.label.data or "", hours=form.hours.data or 0,
                max_uses=form.max_uses.data or 0)
        except base.ServiceError as error:
            form.form_errors.append(str(error))
            return _invitations_page(form, 422)
        url = url_for("accounts.join", token=token, _external=True)
        return _private(render_template("admin/invitation_shown.html", url=url, invitation=invitation), 201)
    return _invitations_page(form, 422 if form.is_submitted() else 200)


@bp.post("/admin/invitations/<int:invitation_id>/revoke")
@role_required("admin")
def revoke_invitation(invitation_id: int) -> BaseResponse:
    """Withdraw an invitation: its link opens nothing after."""
    form = PostForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        account_links.revoke_invitation(invitation_id)
    except base.NotFound:
        abort(404)
    flash(_("The invitation is withdrawn."), "success")
    return see_other("accounts.invitations")


@bp.route("/join/<token>", methods=["GET", "POST"])
def join(token: str) -> BaseResponse:
    """Whoever opens an invitation creates a member account, a player, and is signed in."""
    try:
        account_links.check_invitation(token)
    except account_links.LinkRefused as error:
        return _refused(error)
    signed_in: Member | None = current_user if current_user.is_authenticated else None
    form = JoinForm()
    if signed_in is None and form.validate_on_submit():
        done = _use_link(form, lambda: account_links.join_with_invitation(
                             token, name=form.name.data or "", username=form.username.data or "",
                             password=form.password.data or ""),
                         lambda member: _("Welcome to the club, %(name)s.", name=member.name))
        if done is not None:
            return done
    status = 422 if form.is_submitted() else 200
    return _private(render_template("auth/join.html", form=form, token=token, signed_in=signed_in), status)
