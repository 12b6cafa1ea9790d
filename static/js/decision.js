/* A decision waiting for this player (templates/tables/_my_decision.html): the phone vibrates
   once per decision, where the browser allows it. Each decision block carries a key (the table,
   the game, the offer); keys already felt are kept in sessionStorage, so a reload or the live
   table drawn again (htmx swaps it after every change) does not vibrate for the same decision. */
(function () {
  "use strict";
  var STORE = "chouette-decisions-felt";

  function felt() {
    try { return JSON.parse(sessionStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }

  function remember(keys) {
    try { sessionStorage.setItem(STORE, JSON.stringify(keys.slice(-50))); } catch (e) { /* private mode */ }
  }

  function check() {
    var blocks = document.querySelectorAll("[data-decision-key]");
    if (!blocks.length) return;
    var known = felt(), fresh = false;
    blocks.forEach(function (block) {
      var key = block.getAttribute("data-decision-key");
      if (key && known.indexOf(key) === -1) { known.push(key); fresh = true; }
    });
    if (!fresh) return;
    remember(known);
    if (navigator.vibrate) {
      try { navigator.vibrate([200, 100, 200]); } catch (e) { /* not allowed here */ }
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", check);
  else check();
  document.addEventListener("htmx:load", check);
  document.addEventListener("htmx:afterSettle", check);
})();
