/* The big screen: each fetch of the display fragment sends the ETag of what the screen shows
 * (the last answer it took in), so the server answers 304 and htmx leaves the screen alone
 * while nothing changed. A network error or
 * an error answer also leaves it alone and shows "Reconnecting…" until a fetch or the push
 * stream succeeds again. */
(function () {
  "use strict";
  var etag = null;
  function ours(event) { return event.detail.elt && event.detail.elt.id === "display-refresh"; }
  function offline(on) { document.body.classList.toggle("is-offline", on); }
  document.addEventListener("htmx:configRequest", function (event) {
    if (ours(event) && etag) { event.detail.headers["If-None-Match"] = etag; }
  });
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    if (!ours(event)) { return; }
    var status = event.detail.xhr.status;
    offline(status !== 200 && status !== 304);
  });
  // The ETag kept is that of what the screen shows: an answer it did not take in (a drawing
  // its stream brought came first: static/js/live.js) leaves it as it was, or the next fetch
  // of that answer's version would be answered 304 over the older tables shown, for good.
  // A 304 keeps the ETag sent.
  document.addEventListener("htmx:afterOnLoad", function (event) {
    if (!ours(event) || event.detail.xhr.status !== 200) { return; }
    var xhr = event.detail.xhr;
    var found = /data-version="([^"]*)"/.exec(xhr.responseText || "");
    var board = document.getElementById("display-board");
    if (found && board && board.getAttribute("data-version") === found[1]) {
      etag = xhr.getResponseHeader("ETag") || etag;
    }
  });
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) { if (ours(event)) { offline(true); } });
  });
  document.addEventListener("htmx:sseOpen", function () { offline(false); });
})();
