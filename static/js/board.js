/* Tap to move on the board (templates/board/_board.html): tap a checker, then its destination.
 *
 * Every step is appended to the move input as "from/to" in the on-roll player's numbering
 * (the SVG's data-point attributes already are: bar = 25, off = 0). Tapping the selected point
 * again cancels it; "Clear" empties the move. The server validates the play with the engine.
 * One listener on document (event delegation), so the board keeps working after htmx swaps it.
 */
(function () {
  "use strict";
  // The script may run again (htmx re-runs scripts in swapped content): one set of handlers,
  // and adding the same function twice to document is a no-op.
  var api = window.chouetteBoard || (window.chouetteBoard = makeBoard());
  document.addEventListener("click", api.onClick);
  document.addEventListener("input", api.onInput);
  document.addEventListener("htmx:load", api.onLoad);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", api.onLoad);
  } else {
    api.onLoad();
  }

  function makeBoard() {
    var state = new WeakMap(); // board root -> {selected, counts, steps}

    function pointName(n) {
      return n === 25 ? "bar" : n === 0 ? "off" : String(n);
    }

    // The legal plays (data-plays, from the server): lists of [from, to] single-die steps.
    function playsOf(root) {
      var text = root.getAttribute("data-plays");
      if (!text) return null;
      return text.split(";").map(function (play) {
        return play.split(" ").map(function (step) {
          var parts = step.split("/");
          return [parseInt(parts[0], 10), parseInt(parts[1], 10)];
        });
      });
    }

    // Take the steps from..to out of a play's remaining steps: the step itself, or a chain of
    // them (a tap may jump several dice at once). False when the play has no such way.
    function consume(rest, from, to) {
      for (var i = 0; i < rest.length; i++) {
        if (rest[i][0] !== from || rest[i][1] < to) continue;
        var taken = rest.splice(i, 1)[0];
        if (taken[1] === to || (taken[1] !== 0 && consume(rest, taken[1], to))) return true;
        rest.splice(i, 0, taken);
      }
      return false;
    }

    // What is left of each play that the steps chosen so far are part of.
    function restOfPlays(root, s) {
      var plays = playsOf(root);
      if (!plays) return null;
      var left = [];
      plays.forEach(function (play) {
        var rest = play.slice();
        for (var i = 0; i < s.chosen.length; i++) {
          if (!consume(rest, s.chosen[i][0], s.chosen[i][1])) return;
        }
        left.push(rest);
      });
      return left;
    }

    // Where a checker on ``from`` may go next: one step, or on along a chain of steps.
    function targetsFrom(rests, from) {
      var found = {};
      rests.forEach(function (rest) {
        (function walk(at, steps) {
          steps.forEach(function (step, i) {
            if (step[0] !== at) return;
            found[step[1]] = true;
            if (step[1] !== 0) walk(step[1], steps.slice(0, i).concat(steps.slice(i + 1)));
          });
        })(from, rest);
      });
      return Object.keys(found);
    }

    function initial(root) {
      var counts = {};
      root.querySelectorAll("svg [data-point][data-mover]").forEach(function (el) {
        counts[el.getAttribute("data-point")] = parseInt(el.getAttribute("data-mover"), 10) || 0;
      });
      return { selected: null, counts: counts, steps: [], chosen: [] };
    }

    function stateOf(root) {
      var s = state.get(root);
      if (!s) {
        s = initial(root);
        state.set(root, s);
      }
      return s;
    }

    function pointEl(root, n) {
      return root.querySelector('svg g.point[data-point="' + n + '"], svg g.bar-area[data-point="' + n + '"]');
    }

    function maxSteps(root) {
      var dice = (root.querySelector("svg[data-dice]") || { getAttribute: function () { return ""; } })
        .getAttribute("data-dice");
      var parts = (dice || "").split("-");
      return parts.length === 2 && parts[0] === parts[1] ? 4 : 2;
    }

    function render(root) {
      var s = stateOf(root);
      root.querySelectorAll("svg .selected, svg .target").forEach(function (el) {
        el.classList.remove("selected", "target");
      });
      // With the legal plays known, the hints follow the steps chosen so far: the checkers
      // that can still move, and where the selected one can go.
      var rests = restOfPlays(root, s);
      if (rests) {
        root.querySelectorAll("svg g.point[data-point], svg g.bar-area[data-point]").forEach(function (el) {
          var n = parseInt(el.getAttribute("data-point"), 10);
          var movable = (s.counts[n] || 0) > 0 && rests.some(function (rest) {
            return rest.some(function (step) { return step[0] === n; });
          });
          el.classList.toggle("movable", movable);
        });
      }
      if (s.selected !== null) {
        var el = pointEl(root, s.selected);
        if (el) {
          el.classList.add("selected");
          var targets = rests ? targetsFrom(rests, s.selected)
            : (el.getAttribute("data-targets") || "").split(" ");
          targets.forEach(function (t) {
            var target = t && (t === "0" ? root.querySelector("svg g.tray[data-point='0']") : pointEl(root, t));
            if (target) target.classList.add("target");
          });
        }
      }
      var composing = root.querySelector("[data-board-composing]");
      if (composing) {
        var text = s.steps.join(" ");
        if (s.selected !== null) text += (text ? " " : "") + pointName(s.selected) + "/…";
        composing.textContent = text;
        composing.hidden = !text;
      }
      var play = root.querySelector("[data-board-play]");
      if (play) play.classList.toggle("ready", s.steps.length >= maxSteps(root));
    }

    function appendStep(root, from, to) {
      var s = stateOf(root);
      var step = pointName(from) + "/" + pointName(to);
      s.steps.push(step);
      s.chosen.push([from, to]);
      s.counts[from] = (s.counts[from] || 0) - 1;
      if (to !== 0) s.counts[to] = (s.counts[to] || 0) + 1;
      var input = root.querySelector("[data-board-input]");
      if (input) {
        input.value = (input.value.trim() + " " + step).trim();
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }

    function tap(root, n) {
      var s = stateOf(root);
      if (s.selected === null) {
        if (n !== 0 && (s.counts[n] || 0) > 0) s.selected = n;
      } else if (n === s.selected) {
        s.selected = null; // the same point twice: cancel
      } else if (n < s.selected) {
        appendStep(root, s.selected, n);
        s.selected = null;
      } else if ((s.counts[n] || 0) > 0) {
        s.selected = n; // a checker further back: choose it instead
      }
      render(root);
    }

    function clear(root) {
      var input = root.querySelector("[data-board-input]");
      if (input) input.value = "";
      state.set(root, initial(root));
      render(root);
    }

    function ready(root) {
      if (root.getAttribute("data-interactive") !== "true") return;
      var clearButton = root.querySelector("[data-board-clear]");
      if (clearButton) clearButton.hidden = false;
    }

    function onClick(event) {
      var root = event.target.closest && event.target.closest("[data-board]");
      if (!root || root.getAttribute("data-interactive") !== "true") return;
      if (event.target.closest("[data-board-clear]")) {
        event.preventDefault();
        clear(root);
        return;
      }
      var el = event.target.closest("svg [data-point]");
      if (!el || !root.contains(el)) return;
      tap(root, parseInt(el.getAttribute("data-point"), 10));
    }

    // Typing by hand takes over: taps start again from the position as drawn.
    function onInput(event) {
      var root = event.target.closest && event.target.closest("[data-board]");
      if (!root || !event.target.matches("[data-board-input]")) return;
      state.set(root, initial(root));
      render(root);
    }

    // A board appeared (page load, or htmx swapped a fresh one in): show its clear button.
    function onLoad(event) {
      var scope = event && event.target && event.target.querySelectorAll ? event.target : document;
      scope.querySelectorAll("[data-board]").forEach(ready);
      if (scope.matches && scope.matches("[data-board]")) ready(scope);
    }

    return { tap: tap, clear: clear, onClick: onClick, onInput: onInput, onLoad: onLoad };
  }
})();
