"""Use-cases: each loads what it needs, checks, and writes inside one ``base.writing()``,
which commits once (or changes nothing) and tells the pages.

Views call exactly one of these. Refusals are ``ServiceError`` (a ``ValueError``) whose message
a player can read; the app factory turns them into a flash message (or a 422 fragment for htmx).
One module per subject, imported by module (``from chouette.services import tables``): this
package re-exports nothing, so importing one service never imports them all.
"""
