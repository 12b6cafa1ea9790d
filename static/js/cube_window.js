/* The cube window's card (templates/tables/_cube_window.html): its countdown, and its rides on
   the table's push stream.

   Countdown: each drawing of the card says how many seconds were left when it was drawn
   (data-remaining); the clock counts down on the device from then, and at zero posts "time up"
   once per decision (data-key): the server decides what the time limit makes
   (chouette.services.cube_window), never this page.

   Push: the card is drawn again only when the table moved. The table's stream (the page's
   .live-push, static/js/live.js) brings the card drawn for this viewer (a "window" event)
   before the table's version or drawing, each time the table moves; the version moves with
   the window's answers too (chouette.push: a "roll" is no event of the log). The card carries
   the version it shows (data-version) and fetches itself when a stream's message brings
   another one without its card (the first message of a stream that opens again after a
   dropped connection). While the stream is not open (a proxy that cannot hold it, a device
   offline) it looks every few seconds instead. */
(function () {
  "use strict";
  var posted = {};
  var POLL_SECONDS = 4;
  var listened = typeof WeakSet === "function" ? new WeakSet() : null;
  var lastLook = 0;

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    document.querySelectorAll(".window-clock[data-remaining]").forEach(function (clock) {
      if (!clock.dataset.seenAt) clock.dataset.seenAt = String(Date.now());
      var end = Number(clock.dataset.seenAt) + Number(clock.dataset.remaining) * 1000;
      var left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      var value = clock.querySelector(".window-clock-value");
      if (value) value.textContent = Math.floor(left / 60) + ":" + pad(left % 60);
      clock.classList.toggle("window-clock-low", left <= 10);
      var key = clock.dataset.key;
      if (left === 0 && key && !posted[key] && window.htmx) {
        posted[key] = true;
        var card = clock.closest(".cube-window");
        window.htmx.ajax("POST", clock.dataset.timeUp, { target: card, swap: "morph" });
      }
    });
  }

  function card() { return document.querySelector(".cube-window[data-version]"); }

  function look() {
    var found = card();
    if (found && window.htmx) {
      lastLook = Date.now();
      window.htmx.trigger(found, "chouette:window");
    }
  }

  function lookIfMoved(version) {
    var found = card();
    if (found && version && found.getAttribute("data-version") !== version) look();
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.target, stream = event.detail && event.detail.source;
    if (!source || !source.classList || !source.classList.contains("live-push") || !stream) return;
    if (listened && listened.has(stream)) return;  // the same stream reconnected: still heard
    if (listened) listened.add(stream);
    var carried = false; // this stream brings the cards itself
    stream.addEventListener("window", function (message) { carried = true; take(message.data); });
    stream.addEventListener("changed", function (message) { lookIfMoved(message.data); });
    stream.addEventListener("fragment", function () { if (!carried) look(); });
  });

  // A card the stream brought: morphed in, unless it is the one shown already.
  function take(html) {
    var found = card();
    var version = /data-version="([^"]*)"/.exec(html);
    if (!found || !window.htmx || (version && found.getAttribute("data-version") === version[1])) return;
    lastLook = Date.now();
    window.htmx.swap(found, html, { swapStyle: "morph" }, { contextElement: found });
  }

  // The fallback: while the table's stream is not open, look every few seconds.
  function poll() {
    var source = document.querySelector(".live-push");
    if (!source || source.getAttribute("data-push") === "open") return;
    if (Date.now() - lastLook >= POLL_SECONDS * 1000) look();
  }

  setInterval(tick, 250);
  setInterval(poll, 1000);
  document.addEventListener("DOMContentLoaded", function () { lastLook = Date.now(); tick(); });
  // The viewer's own action swapped the live table in (a double, a roll): look at once.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    var verb = event.detail && event.detail.requestConfig && event.detail.requestConfig.verb;
    if (target && target.classList && target.classList.contains("live-table") && verb && verb !== "get") {
      look();
    }
  });
})();
