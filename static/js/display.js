/* The big screen: each fetch of the display fragment sends the ETag it last got, so the
 * server answers 304 and htmx leaves the screen alone while nothing changed. A network error or
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
    var xhr = event.detail.xhr;
    var ok = xhr.status === 200 || xhr.status === 304;
    if (ok) { etag = xhr.getResponseHeader("ETag") || etag; }
    offline(!ok);
  });
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) { if (ours(event)) { offline(true); } });
  });
  document.addEventListener("htmx:sseOpen", function () { offline(false); });
})();
