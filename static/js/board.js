/* Tap to move on the board (templates/board/_board.html): tap a checker, then its destination.
 *
 * The hints walk the tap graph that the server gives in data-taps (chouette/web/board_taps.py
 * builds it from the engine's legal plays and says its format): a node is the play composed so
 * far, an edge one single-die step. The functions decode, offeredTargets, hops and walk mirror
 * board_taps.py exactly (tests/browser/test_board_js.py compares them on random positions).
 *
 * The move box's text is the one source of truth: each tap appends its step ("13/9", "13/9*\/7",
 * "bar/22", "6/off") in the on-roll player's numbering; the board shows that text walked through
 * the graph: the checkers moved (hits on the bar), the pips, the hints from there. Typing by
 * hand is walked the same way. The text is also remembered per board and position, so a
 * composed move survives the board being swapped or morphed by a fresh copy of the same
 * position (htmx:load, htmx:afterSettle): the copy is drawn again from the remembered text.
 * One set of listeners on document (event delegation). The server validates the play.
 */
(function () {
  "use strict";
  // The script may run again (htmx re-runs scripts in swapped content): one set of handlers,
  // and adding the same function twice to document is a no-op.
  var api = window.chouetteBoard || (window.chouetteBoard = makeBoard());
  document.addEventListener("click", api.onClick);
  document.addEventListener("input", api.onInput);
  document.addEventListener("keydown", api.onKey);
  document.addEventListener("htmx:load", api.onLoad);
  document.addEventListener("htmx:afterSettle", api.onLoad);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", api.onLoad);
  } else {
    api.onLoad();
  }

  function makeBoard() {
    var SVG_NS = "http://www.w3.org/2000/svg";
    var SHOWN = 5; // checkers drawn on one stack, as board_drawing.SHOWN
    var BAR = 25, OFF = 0;
    var graphs = {}; // data-taps text -> decoded graph
    var memory = {}; // board id -> {key, text, selected}: survives the board being replaced

    // --- the tap graph: a mirror of chouette/web/board_taps.py ----------------------------

    function decode(text) {
      return text.split(";").map(function (part) {
        return part.split(" ").filter(Boolean).map(function (edge) {
          var halves = edge.split(">");
          var step = halves[0];
          var hit = step.charAt(step.length - 1) === "*";
          var ends = step.replace("*", "").split("/");
          return [parseInt(ends[0], 10), parseInt(ends[1], 10), hit, parseInt(halves[1], 10)];
        });
      });
    }

    function hitsOf(chain) {
      return chain.reduce(function (n, edge) { return n + (edge[2] ? 1 : 0); }, 0);
    }

    // Fewer steps, then fewer hits; on a tie the chain found first stays.
    function better(a, b) {
      if (a.length !== b.length) return a.length < b.length;
      return hitsOf(a) < hitsOf(b);
    }

    // {from: {to: chain}}: where each checker may go from ``node``, by one or more steps.
    function offeredTargets(nodes, node) {
      var found = {};
      var edges = nodes[node];
      edges.forEach(function (edge) {
        var start = edge[0];
        if (Object.prototype.hasOwnProperty.call(found, start)) return;
        var targets = {};
        var stack = [];
        for (var i = edges.length - 1; i >= 0; i--) {
          if (edges[i][0] === start) stack.push([edges[i]]);
        }
        while (stack.length) {
          var chain = stack.pop();
          var last = chain[chain.length - 1];
          var end = last[1];
          if (!Object.prototype.hasOwnProperty.call(targets, end) || better(chain, targets[end])) {
            targets[end] = chain;
          }
          if (end !== OFF) {
            var next = nodes[last[3]];
            for (var j = next.length - 1; j >= 0; j--) {
              if (next[j][0] === end) stack.push(chain.concat([next[j]]));
            }
          }
        }
        found[start] = targets;
      });
      return found;
    }

    var TOKEN = /^((?:bar|off|\d{1,2})\*?(?:\/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$/;

    function pointNumber(name) {
      return name === "bar" ? BAR : name === "off" ? OFF : parseInt(name, 10);
    }

    // Move text as taps [from, to]; null when it cannot be read.
    function hops(text) {
      var out = [];
      var tokens = text.toLowerCase().replace(/,/g, " ").split(/\s+/).filter(Boolean);
      for (var i = 0; i < tokens.length; i++) {
        var match = TOKEN.exec(tokens[i]);
        if (!match) return null;
        var points = match[1].split("/").map(function (name) { return pointNumber(name.replace("*", "")); });
        var repeat = parseInt(match[2] || "1", 10);
        for (var r = 0; r < repeat; r++) {
          for (var k = 0; k + 1 < points.length; k++) out.push([points[k], points[k + 1]]);
        }
      }
      return out;
    }

    // The node the taps written in ``text`` reach, as far as they go, and the chains taken.
    function walk(nodes, text) {
      var node = 0;
      var chains = [];
      var taps = hops(text) || [];
      var all = hops(text) !== null;
      for (var i = 0; i < taps.length; i++) {
        var from = offeredTargets(nodes, node)[taps[i][0]];
        var chain = from && from[taps[i][1]];
        if (!chain) { all = false; break; }
        chains.push(chain);
        node = chain[chain.length - 1][3];
      }
      return { node: node, chains: chains, all: all };
    }

    function pointName(n) {
      return n === BAR ? "bar" : n === OFF ? "off" : String(n);
    }

    // What one tap writes: the start, the points where it hits, the end.
    function tapText(chain) {
      var text = pointName(chain[0][0]);
      chain.forEach(function (edge, i) {
        if (edge[2] || i === chain.length - 1) text += "/" + pointName(edge[1]) + (edge[2] ? "*" : "");
      });
      return text;
    }

    // --- the board's state ----------------------------------------------------------------

    function graphOf(root) {
      var text = root.getAttribute("data-taps");
      if (!text) return null;
      if (!graphs[text]) graphs[text] = decode(text);
      return graphs[text];
    }

    function drawings(root) {
      return Array.prototype.slice.call(root.querySelectorAll("svg.board"));
    }

    // The same position, roll and side on roll on the same board: the same composing.
    function keyOf(root) {
      var svg = root.querySelector("svg.board");
      if (!svg) return root.id;
      return [root.id, svg.getAttribute("data-position-id"), svg.getAttribute("data-on-roll"),
        svg.getAttribute("data-dice")].join("|");
    }

    function remembered(root) {
      var key = keyOf(root);
      var mem = memory[root.id];
      if (!mem || mem.key !== key) {
        var input = root.querySelector("[data-board-input]");
        mem = memory[root.id] = { key: key, text: input ? input.value : "", selected: null };
      }
      return mem;
    }

    function inputOf(root) {
      return root.querySelector("[data-board-input]");
    }

    // Both sides' checkers as drawn by the server, in the on-roll player's numbering.
    function drawnCounts(svg) {
      var me = [], other = [];
      for (var p = 0; p <= 25; p++) { me.push(0); other.push(0); }
      svg.querySelectorAll("g.point[data-point], g.bar-area[data-point], g.tray[data-point='0']")
        .forEach(function (el) {
          var n = parseInt(el.getAttribute("data-point"), 10);
          me[n] = parseInt(el.getAttribute("data-mover"), 10) || 0;
          other[n] = parseInt(el.getAttribute("data-other"), 10) || 0;
        });
      return { me: me, other: other };
    }

    function afterChains(counts, chains) {
      var me = counts.me.slice(), other = counts.other.slice();
      chains.forEach(function (chain) {
        chain.forEach(function (edge) {
          me[edge[0]] -= 1;
          me[edge[1]] += 1;
          if (edge[2]) {
            other[edge[1]] = 0;
            other[BAR] += 1; // the hit checker goes to its bar
          }
        });
      });
      return { me: me, other: other };
    }

    // --- drawing ----------------------------------------------------------------------------

    function svgEl(name, attrs, cls) {
      var el = document.createElementNS(SVG_NS, name);
      Object.keys(attrs).forEach(function (k) { el.setAttribute(k, String(attrs[k])); });
      if (cls) el.setAttribute("class", cls);
      return el;
    }

    function numbers(text) {
      return (text || "").split(" ").map(parseFloat);
    }

    function stackGroup(side, mover, count, geometry, point) {
      var g = numbers(geometry); // x0 y0 dx dy r
      var group = svgEl("g", { "data-side": side, "data-count": count }, "checkers side-" + side +
        (mover ? " mover" : "") + " composed");
      if (point !== null) group.setAttribute("data-point", point);
      var shown = Math.min(count, SHOWN);
      for (var i = 0; i < shown; i++) {
        group.appendChild(svgEl("circle", { cx: g[0] + i * g[2], cy: g[1] + i * g[3], r: g[4] }, "checker"));
      }
      if (count > SHOWN) {
        var label = svgEl("text", { x: g[0] + (shown - 1) * g[2], y: g[1] + (shown - 1) * g[3] }, "count");
        label.textContent = String(count);
        group.appendChild(label);
      }
      return group;
    }

    function slabGroup(side, count, geometry) {
      var g = numbers(geometry); // x0 y0 dx dy w h tx ty
      var group = svgEl("g", { "data-side": side, "data-count": count, "data-point": 0 },
        "checkers off side-" + side + " mover composed");
      for (var i = 0; i < count; i++) {
        group.appendChild(svgEl("rect", { x: g[0] + i * g[2], y: g[1] + i * g[3], width: g[4], height: g[5], rx: 2 }, "slab"));
      }
      if (count) {
        var label = svgEl("text", { x: g[6] + count * g[2], y: g[7] + count * g[3] }, "off-count");
        label.textContent = String(count);
        group.appendChild(label);
      }
      return group;
    }

    // Hide a side's checkers as the server drew them on a spot, and draw them as composed.
    function redraw(spot, side, group) {
      spot.querySelectorAll(":scope > g.checkers[data-side='" + side + "']").forEach(function (el) {
        el.classList.add("moved-away");
      });
      spot.appendChild(group);
    }

    function draw(svg, counts, now) {
      svg.querySelectorAll(".composed").forEach(function (el) { el.remove(); });
      svg.querySelectorAll(".moved-away").forEach(function (el) { el.classList.remove("moved-away"); });
      var mover = svg.getAttribute("data-on-roll");
      var other = mover === "box" ? "team" : "box";
      svg.querySelectorAll("g.point[data-point][data-stack]").forEach(function (spot) {
        var n = parseInt(spot.getAttribute("data-point"), 10);
        var geometry = spot.getAttribute("data-stack");
        if (now.me[n] !== counts.me[n]) redraw(spot, mover, stackGroup(mover, true, now.me[n], geometry, n));
        if (now.other[n] !== counts.other[n]) redraw(spot, other, stackGroup(other, false, now.other[n], geometry, n));
      });
      var bar = svg.querySelector("g.bar-area[data-point]");
      if (bar) {
        if (now.me[BAR] !== counts.me[BAR]) {
          redraw(bar, mover, stackGroup(mover, true, now.me[BAR], bar.getAttribute("data-stack-" + mover), BAR));
        }
        if (now.other[BAR] !== counts.other[BAR]) {
          redraw(bar, other, stackGroup(other, false, now.other[BAR], bar.getAttribute("data-stack-" + other), null));
        }
      }
      var tray = svg.querySelector("g.tray[data-point='0'][data-slabs]");
      if (tray && now.me[OFF] !== counts.me[OFF]) {
        redraw(tray, mover, slabGroup(mover, now.me[OFF], tray.getAttribute("data-slabs")));
      }
      // The pips as they will be after the steps chosen.
      var pips = {};
      pips[mover] = 0;
      pips[other] = 0;
      for (var p = 1; p <= 25; p++) {
        pips[mover] += p * now.me[p];
        pips[other] += (p === BAR ? 25 : 25 - p) * now.other[p];
      }
      svg.querySelectorAll("g.side[data-side] .pips").forEach(function (text) {
        var side = text.closest("g.side").getAttribute("data-side");
        if (!text.hasAttribute("data-drawn")) text.setAttribute("data-drawn", text.textContent);
        text.textContent = text.getAttribute("data-drawn").replace(/\d+/, String(pips[side]));
      });
    }

    function render(root) {
      var nodes = graphOf(root);
      var mem = remembered(root);
      var input = inputOf(root);
      var text = input ? input.value : "";
      var walked = nodes ? walk(nodes, text) : { node: 0, chains: [], all: false };
      var targets = nodes ? offeredTargets(nodes, walked.node) : {};
      if (mem.selected !== null && !targets[mem.selected]) mem.selected = null;
      drawings(root).forEach(function (svg) {
        var counts = drawnCounts(svg);
        draw(svg, counts, afterChains(counts, walked.chains));
        svg.querySelectorAll(".selected, .target").forEach(function (el) {
          el.classList.remove("selected", "target");
          el.removeAttribute("aria-pressed");
        });
        if (!nodes) return;
        svg.querySelectorAll("g.point[data-point], g.bar-area[data-point]").forEach(function (el) {
          el.classList.toggle("movable", !!targets[el.getAttribute("data-point")]);
        });
        if (mem.selected === null) return;
        var from = svg.querySelector("g.point[data-point='" + mem.selected + "'], g.bar-area[data-point='" + mem.selected + "']");
        if (from) {
          from.classList.add("selected");
          if (from.getAttribute("role") === "button") from.setAttribute("aria-pressed", "true");
        }
        Object.keys(targets[mem.selected]).forEach(function (t) {
          var el = t === "0" ? svg.querySelector("g.tray[data-point='0']")
            : svg.querySelector("g.point[data-point='" + t + "']");
          if (el) el.classList.add("target");
        });
      });
      var composing = root.querySelector("[data-board-composing]");
      if (composing) {
        var shown = text.trim();
        if (mem.selected !== null) shown += (shown ? " " : "") + pointName(mem.selected) + "/…";
        composing.textContent = shown;
        composing.hidden = !shown;
      }
      var complete = !!nodes && walked.all && nodes[walked.node].length === 0 && walked.chains.length > 0;
      var play = root.querySelector("[data-board-play]");
      if (play) play.classList.toggle("ready", complete);
      var undo = root.querySelector("[data-board-undo]");
      if (undo) undo.disabled = !text.trim();
      return { node: walked.node, targets: targets, complete: complete };
    }

    // --- what a person does -----------------------------------------------------------------

    function setText(root, text) {
      var input = inputOf(root);
      if (input) {
        input.value = text;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
      remembered(root).text = text;
    }

    function tap(root, n) {
      var mem = remembered(root);
      var now = render(root);
      var targets = now.targets;
      if (mem.selected === null) {
        if (targets[n]) mem.selected = n;
      } else if (n === mem.selected) {
        mem.selected = null; // the same point twice: cancel
      } else if (targets[mem.selected][n]) {
        var input = inputOf(root);
        setText(root, ((input ? input.value.trim() : "") + " " + tapText(targets[mem.selected][n])).trim());
        mem.selected = null;
      } else if (targets[n]) {
        mem.selected = n; // another checker that can move: choose it instead
      }
      render(root);
    }

    // Take back the last tap (the last written hop).
    function undo(root) {
      var input = inputOf(root);
      var tokens = (input ? input.value : "").trim().split(/\s+/).filter(Boolean);
      var last = tokens.pop();
      if (last) {
        var match = TOKEN.exec(last.toLowerCase());
        if (match && (match[2] && parseInt(match[2], 10) > 1)) {
          // "6/4(3)": one fewer.
          var left = parseInt(match[2], 10) - 1;
          tokens.push(match[1] + (left > 1 ? "(" + left + ")" : ""));
        } else if (match && match[1].split("/").length > 2) {
          // "13/9*/7": back to "13/9*".
          tokens.push(match[1].split("/").slice(0, -1).join("/"));
        }
      }
      remembered(root).selected = null;
      setText(root, tokens.join(" "));
      render(root);
    }

    function clear(root) {
      remembered(root).selected = null;
      setText(root, "");
      render(root);
    }

    function ready(root) {
      if (root.getAttribute("data-interactive") !== "true") return;
      root.querySelectorAll("[data-board-clear], [data-board-undo]").forEach(function (button) {
        button.hidden = false;
      });
      // A fresh copy of the same position (a swap, a morph): put back the move being composed.
      var mem = remembered(root);
      var input = inputOf(root);
      if (input && !input.value && mem.text) input.value = mem.text;
      if (input) mem.text = input.value;
      render(root);
    }

    function onClick(event) {
      var root = event.target.closest && event.target.closest("[data-board]");
      if (!root || root.getAttribute("data-interactive") !== "true") return;
      if (event.target.closest("[data-board-clear]")) {
        event.preventDefault();
        clear(root);
        return;
      }
      if (event.target.closest("[data-board-undo]")) {
        event.preventDefault();
        undo(root);
        return;
      }
      var el = event.target.closest("svg [data-point]");
      if (!el || !root.contains(el)) return;
      tap(root, parseInt(el.getAttribute("data-point"), 10));
    }

    // A point, the bar or the tray is a button (role="button", tabindex="0"): Enter or Space taps it.
    function onKey(event) {
      if (event.key !== "Enter" && event.key !== " ") return;
      var el = event.target.closest && event.target.closest("svg [data-point][role='button']");
      var root = el && el.closest("[data-board]");
      if (!root || root.getAttribute("data-interactive") !== "true") return;
      event.preventDefault();
      tap(root, parseInt(el.getAttribute("data-point"), 10));
    }

    // Typing by hand: the board shows what the text says, as far as it reads as legal steps.
    function onInput(event) {
      var root = event.target.closest && event.target.closest("[data-board]");
      if (!root || !event.target.matches("[data-board-input]")) return;
      var mem = remembered(root);
      mem.text = event.target.value;
      mem.selected = null;
      render(root);
    }

    // A board appeared or was refreshed (page load, an htmx swap or morph): every board again.
    function onLoad() {
      document.querySelectorAll("[data-board]").forEach(ready);
    }

    return {
      tap: tap, undo: undo, clear: clear, render: render, onClick: onClick, onInput: onInput, onLoad: onLoad,
      onKey: onKey,
      decode: decode, offeredTargets: offeredTargets, hops: hops, walk: walk, tapText: tapText
    };
  }
})();
