/* The cube window's countdown (templates/tables/_cube_window.html). Each drawing of the card
   says how many seconds are left (data-remaining); the clock counts down from the moment this
   page received it, and at zero posts "time up" once per decision (data-key): the server
   decides what the time limit makes (chouette.services.cube_window), never this page. The
   card fetches itself again when the live table changes. */
(function () {
  "use strict";
  var posted = {};

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

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
  // The live table moved (a double, a roll, an answer): the card looks again at once.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.classList && target.classList.contains("live-table")) {
      document.body.dispatchEvent(new CustomEvent("chouette:window"));
    }
  });
})();
