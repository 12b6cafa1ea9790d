/* The viewer's own marks on the live table, put in by the page itself: the drawing of a table
 * is the same bytes for every viewer of its version (chouette.web.live_shared.shared_live_html), and
 * the page knows whose it is (`data-member-id` on <body>, the signed-in member).
 *
 * - the rows of the viewer's seat (`data-member-id` on a seat or cube row) get `is-me`
 *   (highlighted, a star after the name: static/css/live.css);
 * - a button kept for one decider (`.mine-only[data-decider-id]`, hidden as drawn: a member's
 *   double of the box, or their proxy's) shows on that decider's page alone.
 *
 * Marks only: the server authorises every command whoever posts it. Run on load and after
 * every swap (htmx's, and the pushed drawings live.js morphs in through htmx.swap).
 */
(function () {
  "use strict";

  function mark(root) {
    var me = document.body ? document.body.getAttribute("data-member-id") : null;
    var scope = root && root.querySelectorAll ? root : document;
    Array.prototype.forEach.call(scope.querySelectorAll("[data-member-id]"), function (row) {
      if (row === document.body) { return; }
      row.classList.toggle("is-me", !!me && row.getAttribute("data-member-id") === me);
    });
    Array.prototype.forEach.call(scope.querySelectorAll(".mine-only[data-decider-id]"), function (only) {
      only.hidden = !me || only.getAttribute("data-decider-id") !== me;
    });
  }

  document.addEventListener("DOMContentLoaded", function () { mark(document); });
  document.addEventListener("htmx:afterSwap", function () { mark(document); });
  window.chouetteMarkMine = mark;
}());
