"""The admin's pages: the club's members and their roles."""

from __future__ import annotations

from flask import Blueprint, abort, flash, render_template
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response as BaseResponse

from chouette.models import Member
from chouette.services import base
from chouette.services import members as members_service
from chouette.web.auth import role_required
from chouette.web.forms import MemberForm
from chouette.web.htmx import render_page, see_other

bp = Blueprint("admin", __name__, url_prefix="/admin")


def get_member(member_id: int) -> Member:
    """The member, or 404 (only admins reach the views using it)."""
    try:
        return members_service.get_member(member_id)
    except base.NotFound:
        abort(404)


@bp.route("/members", methods=["GET", "POST"])
@role_required("admin")
def members() -> BaseResponse:
    """Every member, and the form to add one."""
    form = MemberForm()
    status = 200
    if form.validate_on_submit():
        if not form.password.data:
            form.password.errors = [_("A new member needs a password.")]
            status = 422
        else:
            try:
                member = members_service.create_member(
                    name=form.name.data or "",
                    username=form.username.data or "",
                    password=form.password.data,
                    role=form.role.data or "player",
                    locale=form.locale.data or None,
                )
            except base.ServiceError as error:
                form.form_errors.append(str(error))
                status = 422
            else:
                flash(_("%(name)s is a member.", name=member.name), "success")
                return see_other("admin.members")
    elif form.is_submitted():
        status = 422
    return render_page(
        "admin/members.html", "admin/_member_list.html", status=status, form=form, members=members_service.list_members()
    )


@bp.route("/members/<int:member_id>", methods=["GET", "POST"])
@role_required("admin")
def edit_member(member_id: int) -> BaseResponse | tuple[str, int]:
    """Change a member's name, role, language, password, or deactivate the member."""
    member = get_member(member_id)
    form = MemberForm(obj=member, locale=member.locale or "")
    if form.validate_on_submit():
        try:
            members_service.update_member(
                member.id,
                name=form.name.data or "",
                role=form.role.data or "player",
                locale=form.locale.data or None,
                active=bool(form.active.data),
                password=form.password.data or None,
                actor=current_user,
            )
        except base.ServiceError as error:
            form.form_errors.append(str(error))
        else:
            flash(_("Saved %(name)s.", name=member.name), "success")
            return see_other("admin.members")
    return render_template("admin/member_edit.html", form=form, member=member), 422 if form.is_submitted() else 200
