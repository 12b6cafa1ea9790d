"""Signing in and out, and the role checks every mutation goes through."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext, refresh
from flask_login import current_user, login_user, logout_user
from werkzeug.wrappers import Response as BaseResponse

from chouette.extensions import login
from chouette.models import Member
from chouette.services import base, members
from chouette.web.forms import LoginForm, PostForm
from chouette.web.htmx import is_htmx

bp = Blueprint("auth", __name__, url_prefix="/auth")

#: A role may do what the roles before it may.
ROLE_RANK = {"player": 0, "organizer": 1, "admin": 2}

View = TypeVar("View", bound=Callable[..., Any])


@login.user_loader
def load_member(session_id: str) -> Member | None:
    """The signed-in member, if their server-side session still exists and the session's epoch
    is still theirs (see Member.get_id): signed out, the cookie opens nothing."""
    member_id, _sep, rest = session_id.partition(".")
    epoch, _sep, token = rest.partition(".")
    if not member_id.isdigit() or not epoch.isdigit() or not token:
        return None
    return members.session_member(int(member_id), int(epoch), token)


def sign_in(member: Member) -> None:
    """Start a fresh session for ``member``: nothing set before it survives (session
    fixation), and a server-side session that signing out ends."""
    session.clear()
    members.start_session(member)
    login_user(member)
    session.permanent = True


@login.unauthorized_handler
def unauthorized() -> BaseResponse:
    """Signed out: htmx is told to load the sign-in page; a browser is redirected there."""
    target = url_for("auth.login", next=request.full_path.rstrip("?") if request.method == "GET" else None)
    if is_htmx():
        response = make_response("", 401)
        response.headers["HX-Redirect"] = target
        return response
    flash(_("Please sign in first."), "info")
    return redirect(target)


def has_role(member: Any, role: str) -> bool:
    """True when ``member`` is signed in with ``role`` or a higher one."""
    return bool(member.is_authenticated) and ROLE_RANK.get(member.role, -1) >= ROLE_RANK[role]


def role_required(role: str) -> Callable[[View], View]:
    """Decorate a view: signed out goes to sign-in, a lower role gets 403."""

    def decorator(view: View) -> View:
        """Wrap ``view`` with the check."""
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if not current_user.is_authenticated:
                return login.unauthorized()
            if not has_role(current_user, role):
                abort(403)
            return view(*args, **kwargs)

        return cast(View, wrapped)

    return decorator


def is_safe_next(target: str | None) -> bool:
    """True for a path on this site only: no scheme, no host, no ``//`` or backslash tricks."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return False
    if "\\" in target or any(ord(char) < 32 for char in target):
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc


def safe_next(target: str | None) -> str:
    """``target`` when it is safe, else the home page."""
    return target if target and is_safe_next(target) else url_for("main.home")


@bp.route("/login", methods=["GET", "POST"], endpoint="login")
def login_page() -> BaseResponse | tuple[str, int]:
    """Sign in with a username and password."""
    if members.needs_setup():
        return redirect(url_for("main.setup"))
    next_url = request.values.get("next")
    if current_user.is_authenticated:
        return redirect(safe_next(next_url))
    form = LoginForm(next=next_url if is_safe_next(next_url) else "")
    status = 200
    if form.validate_on_submit():
        try:
            member = members.authenticate(
                form.username.data or "", form.password.data or "", request.remote_addr or ""
            )
        except base.TooManyAttempts as error:
            form.form_errors.append(str(error))
            status = 429
        except base.LoginRefused as error:
            form.form_errors.append(str(error))
            status = 401
        else:
            sign_in(member)
            refresh()  # the welcome in the member's own language, not the sign-in page's
            flash(_("Welcome, %(name)s.", name=member.name), "success")
            return redirect(safe_next(form.next.data), 303)
    elif request.method == "POST":
        status = 422
    return render_template("auth/login.html", form=form), status


@bp.post("/logout")
def logout() -> BaseResponse:
    """Sign out: end the session on the server (a copy of the cookie opens nothing after)
    and forget the whole session."""
    form = PostForm()
    if form.validate_on_submit():
        if current_user.is_authenticated:
            members.end_session(current_user.session_token)
        logout_user()
        session.clear()
        flash(_("You are signed out."), "info")
    return redirect(url_for("auth.login"), 303)


login.login_message = lazy_gettext("Please sign in first.")
