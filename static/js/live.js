/* The live pages' glue: push, morphing swaps that keep the reader's place, stale pages.
 *
 * Push: a page that shows something live holds a server-sent-event stream (htmx's sse
 * extension, `sse-connect`). The stream sends the version of what the page shows (`changed`:
 * the page fetches its fragment when the version differs from the one it shows), or the new
 * drawing itself when it is the same for every viewer (`fragment`: the whole fragment;
 * `parts`: the version, the version they build on, then the parts that moved, each replacing
 * the element of its id).
 * The page polls only while the stream is not open (a proxy that cannot hold it, a worker
 * restarting).
 *
 * Keeping the place: fragments are morphed in (idiomorph), so the page does not move, and
 * what the reader is doing survives an update pushed by another device: a field being typed,
 * a ticked box, a chosen option, a <details> they opened or closed. Only the form they submitted
 * (and what contains it) takes the server's answer whole.
 */
(function () {
  "use strict";

  var acting = null;  // the form whose answer is being swapped in, if any
  var sending = [];   // the requests of the reader's own actions on their way to the server
  // (How many of those actions' answers each stream's target took in: source.chouetteAnswers.)

  /* Push. The element holding the stream has `sse-connect`; inside it, each element with
   * `data-refresh` re-fetches its fragment (its own hx-get, hx-trigger="chouette:refresh")
   * when an event brings a version other than the one its target shows (`data-version`), or,
   * while the stream is not open, every `data-poll-seconds`. No inline code, no eval: the
   * pages can run under a Content-Security-Policy without 'unsafe-eval'. */
  var listened = typeof WeakSet === "function" ? new WeakSet() : null;

  function refreshers(source) {
    return Array.prototype.slice.call(source.querySelectorAll("[data-refresh]"));
  }

  // A table's version may end with its cube window's part (`~...`, chouette.push): a target
  // whose version has no such part (the live table) compares the part before it.
  function shows(shown, version) {
    if (shown === version) { return true; }
    var cut = version.indexOf("~");
    return cut >= 0 && shown.indexOf("~") < 0 && shown === version.slice(0, cut);
  }

  function isStale(refresher, version) {
    var selector = refresher.getAttribute("hx-target");
    var target = selector ? document.querySelector(selector) : null;
    return !target || !version || !target.hasAttribute("data-version") ||
      !shows(target.getAttribute("data-version"), version);
  }

  function targetOf(refresher) {
    var selector = refresher.getAttribute("hx-target");
    return selector ? document.querySelector(selector) : null;
  }

  function versionOf(html) {
    var found = /data-version="([^"]*)"/.exec(html);
    return found ? found[1] : null;
  }

  // How many pushed drawings each stream's targets took in (source.chouettePushes): a fetch
  // sent before the latest one would bring an older fragment than the one shown, and is not
  // swapped in. Counted per stream: the "Who is here" panel's drawing says nothing of how
  // old a fetch of the live table is.
  function pushedInto(source) {
    source.chouettePushes = (source.chouettePushes || 0) + 1;
  }

  // The latest version each stream said (source.chouetteLatest). A fetch whose answer is not
  // swapped in (older than what the page took since it was sent, or come while the reader's
  // own action was on its way) leaves the page to look again: it fetches once more if what it
  // shows is not the latest version said. So the page always ends at the stream's last word.
  function lookAgain(source) {
    if (source && source.chouetteLatest) {
      window.setTimeout(function () { refresh(source, source.chouetteLatest); }, 0);
    }
  }

  function morph(target, html, refresher) {
    window.htmx.swap(target, html, { swapStyle: "morph" }, { contextElement: refresher });
  }

  function takeFragment(source, html) {
    var version = versionOf(html);
    if (version !== null) { source.chouetteLatest = version; }
    refreshers(source).forEach(function (refresher) {
      var target = targetOf(refresher);
      if (!target || (version !== null && target.getAttribute("data-version") === version)) { return; }
      // While the reader's own action is on its way, its answer brings the table; if the
      // push was newer, the page fetches it after the answer (lookAgain).
      if (sending.length > 0) { return; }
      pushedInto(source);
      morph(target, html, refresher);
    });
  }

  // `parts`: the version, the version they build on (the stream's last), then the parts. A
  // page that shows another version than they build on (it fetched one meanwhile) fetches
  // the whole fragment: a part that did not move since the stream's last event may have
  // moved since the page's.
  function lines(data, count) {
    var found = [], rest = data;
    for (var i = 0; i < count; i += 1) {
      var cut = rest.indexOf("\n");
      found.push(cut < 0 ? rest : rest.slice(0, cut));
      rest = cut < 0 ? "" : rest.slice(cut + 1);
    }
    return found.concat([rest]);
  }

  function takeParts(source, data) {
    var head = lines(data, 2), version = head[0], base = head[1];
    source.chouetteLatest = version;
    var box = document.createElement("template");
    box.innerHTML = head[2];
    refreshers(source).forEach(function (refresher) {
      var target = targetOf(refresher);
      if (!target) { return; }
      var shown = target.getAttribute("data-version") || "";
      if (shows(shown, version)) { return; }
      if (shown !== base) { window.htmx.trigger(refresher, "chouette:refresh"); return; }
      pushedInto(source);
      var whole = true;
      Array.prototype.forEach.call(box.content.children, function (part) {
        var old = part.id ? document.getElementById(part.id) : null;
        if (old && target.contains(old)) { morph(old, part.outerHTML, refresher); } else { whole = false; }
      });
      if (whole) {
        target.setAttribute("data-version", version);
      } else {  // a part the page does not hold: fetch the whole fragment
        window.htmx.trigger(refresher, "chouette:refresh");
      }
    });
  }

  // While the reader's own action is on its way, its answer brings the table: a fetch now
  // would not be swapped in (beforeSwap), so none is sent; once the action ends, the page looks
  // again (lookAgain) and fetches only if the stream said a later version than the answer's.
  function refresh(source, version) {
    if (sending.length > 0) { return; }
    refreshers(source).forEach(function (refresher) {
      if (version === null || isStale(refresher, version)) {
        window.htmx.trigger(refresher, "chouette:refresh");
      }
    });
  }

  function setOpen(source, open) {
    source.chouetteStreamOpen = open;
    source.setAttribute("data-push", open ? "open" : "polling");
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.target, stream = event.detail && event.detail.source;
    setOpen(source, true);
    if (stream && (!listened || !listened.has(stream))) {
      if (listened) { listened.add(stream); }
      stream.addEventListener("changed", function (message) {
        source.chouetteLatest = message.data;
        refresh(source, message.data);
      });
      stream.addEventListener("fragment", function (message) { takeFragment(source, message.data); });
      stream.addEventListener("parts", function (message) { takeParts(source, message.data); });
    }
  });
  document.addEventListener("htmx:sseError", function (event) { setOpen(event.target, false); });
  document.addEventListener("htmx:sseClose", function (event) { setOpen(event.target, false); });

  // The fallback: poll while the stream is not open (a proxy that cannot hold it, a worker
  // restarting, a browser without EventSource).
  function poll() {
    Array.prototype.forEach.call(document.querySelectorAll("[sse-connect]"), function (source) {
      // An open stream is enough, unless the last fetch it caused failed: then poll until
      // one succeeds (the stream will not say the same version twice).
      if (source.chouetteStreamOpen && !source.chouetteFetchFailed) { catchUp(source); return; }
      var every = parseFloat(source.getAttribute("data-poll-seconds") || "4") * 1000;
      var now = Date.now();
      if (!source.chouetteLastPoll || now - source.chouetteLastPoll >= every) {
        source.chouetteLastPoll = now;
        refresh(source, null);
      }
    });
  }
  window.setInterval(poll, 1000);

  // A page that still does not show the stream's last word a second later (and no action of
  // the reader on its way) fetches it once: whatever order the answers came in, it catches up.
  function catchUp(source) {
    var latest = source.chouetteLatest;
    if (!latest || latest === source.chouetteCaughtUp || sending.length > 0) { return; }
    var behind = refreshers(source).some(function (refresher) { return isStale(refresher, latest); });
    if (!behind) { source.chouetteBehind = undefined; return; }
    if (source.chouetteBehind !== latest) { source.chouetteBehind = latest; return; }
    source.chouetteCaughtUp = latest;
    refresh(source, latest);
  }

  function refresherSource(event) {
    var elt = event.detail && event.detail.elt;
    return elt && elt.hasAttribute && elt.hasAttribute("data-refresh") ? streamElement(elt) : null;
  }
  function streamElement(elt) { return elt.closest ? elt.closest("[sse-connect]") : null; }
  document.addEventListener("htmx:afterRequest", function (event) {
    var source = refresherSource(event);
    if (source) { source.chouetteFetchFailed = !event.detail.successful && event.detail.xhr.status !== 304; }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = refresherSource(event);
    if (source) {
      event.detail.elt.chouettePushesBefore = source.chouettePushes || 0;
      event.detail.elt.chouetteAnswersBefore = source.chouetteAnswers || 0;
    }
  });
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var source = refresherSource(event);
      if (source) { source.chouetteFetchFailed = true; }
    });
  });

  // ---------------------------------------------------------------- what the reader does

  function isTyped(elt) {
    if (elt.tagName === "TEXTAREA") { return elt.value !== elt.defaultValue; }
    if (elt.tagName !== "INPUT") { return false; }
    var kind = (elt.type || "text").toLowerCase();
    if (kind === "hidden" || kind === "submit" || kind === "button" || kind === "reset" ||
        kind === "checkbox" || kind === "radio" || kind === "file") { return false; }
    return elt.value !== elt.defaultValue;
  }

  function isTicked(elt) {
    return elt.tagName === "INPUT" && (elt.type === "checkbox" || elt.type === "radio") &&
      elt.checked !== elt.defaultChecked;
  }

  function isChosen(elt) {
    // An option of a list where the reader chose another than the page's default.
    var list = elt.tagName === "OPTION" ? elt.closest("select") : null;
    return !!list && Array.prototype.some.call(list.options, function (option) {
      return option.selected !== option.defaultSelected;
    });
  }

  function takesTheAnswer(elt) {
    // The form that was submitted, what is inside it, and what contains it.
    return !!acting && (acting === elt || acting.contains(elt) || elt.contains(acting));
  }

  // A <details> the reader opened or closed keeps their choice.
  document.addEventListener("click", function (event) {
    var summary = event.target.closest ? event.target.closest("summary") : null;
    if (summary && summary.parentElement) { summary.parentElement.chouetteToggled = true; }
  }, true);

  function keepReaders(name, elt) {
    if (takesTheAnswer(elt)) {
      if (name === "open") { elt.chouetteToggled = false; }
      return true;
    }
    if (name === "value" && isTyped(elt)) { return false; }
    if (name === "checked" && isTicked(elt)) { return false; }
    if (name === "selected" && isChosen(elt)) { return false; }
    if (name === "open" && elt.tagName === "DETAILS" && elt.chouetteToggled) { return false; }
    return true;
  }

  // A form that leaves the page for a while (the result form while a cube waits for its
  // answer) gives back what was typed in it when it returns: drafts are kept by field id.
  var drafts = {};
  function keepDrafts(node) {
    if (node.nodeType !== 1 || takesTheAnswer(node)) { return; }
    var fields = [node].concat(Array.prototype.slice.call(node.querySelectorAll("input[id], textarea[id]")));
    fields.forEach(function (field) {
      if (field.id && (field.tagName === "INPUT" || field.tagName === "TEXTAREA") && isTyped(field)) {
        drafts[field.id] = field.value;
      }
    });
  }
  function restoreDrafts() {
    Object.keys(drafts).forEach(function (id) {
      var field = document.getElementById(id);
      if (field && !takesTheAnswer(field)) {
        if (field.value === field.defaultValue) { field.value = drafts[id]; }
        delete drafts[id];
      }
    });
  }

  if (window.Idiomorph) {
    window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, elt) {
      return keepReaders(name, elt);
    };
    window.Idiomorph.defaults.callbacks.beforeNodeRemoved = function (node) {
      keepDrafts(node);
      return true;
    };
  }

  // ---------------------------------------------------------------- swaps

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail, status = detail.xhr.status;
    var config = detail.requestConfig || {};
    var target = detail.target;
    var live = target && target.hasAttribute && target.hasAttribute("data-version");
    acting = null;
    if (config.verb && config.verb !== "get" && config.elt) {
      acting = config.elt.form || (config.elt.closest && config.elt.closest("form")) || config.elt;
    }
    if (!live) { return; }
    // A stale page (409) or a form without its seq (400) shows the table as it is now.
    if (status === 400 || status === 409) { detail.shouldSwap = true; detail.isError = false; }
    if (config.verb !== "get") {
      var answered = streamElement(target);
      if (detail.shouldSwap && answered) { answered.chouetteAnswers = (answered.chouetteAnswers || 0) + 1; }
      return;
    }
    // While the reader's own action is on its way, its answer brings the table: a pushed
    // update arriving first would move the page under them (the page looks again after it).
    if (sending.length > 0) { detail.shouldSwap = false; return; }
    // A fetch sent before the latest pushed drawing or the reader's latest answer was taken
    // in may be older than the page: it is not swapped in, and the page looks again.
    var elt = config.elt, from = elt ? streamElement(elt) : null;
    if (elt && from && ((elt.chouettePushesBefore !== undefined && elt.chouettePushesBefore < (from.chouettePushes || 0)) ||
                        (elt.chouetteAnswersBefore !== undefined && elt.chouetteAnswersBefore < (from.chouetteAnswers || 0)))) {
      detail.shouldSwap = false;
      lookAgain(streamElement(elt));
      return;
    }
    // A fetch that brings the version already shown changes nothing: leave the page alone.
    if (status === 200) {
      var found = /data-version="([^"]*)"/.exec(detail.serverResponse || "");
      if (found && found[1] === target.getAttribute("data-version")) { detail.shouldSwap = false; }
    }
  });

  function isAction(event) {
    var config = event.detail.requestConfig;
    return !!(config && config.verb && config.verb !== "get");
  }
  // An action is on its way from its send to the end of its request, however it ends (its
  // answer swapped in, an error, a timeout, an exception while swapping): the browser's
  // own "loadend", which comes after htmx has handled the answer.
  document.addEventListener("htmx:beforeSend", function (event) {
    if (!isAction(event)) { return; }
    var xhr = event.detail.xhr;
    sending.push(xhr);
    xhr.addEventListener("loadend", function () {
      sending = sending.filter(function (other) { return other !== xhr; });
      // A pushed table that came while the action was on its way: fetched if the answer is
      // not the stream's last word.
      if (sending.length === 0) {
        Array.prototype.forEach.call(document.querySelectorAll("[sse-connect]"), lookAgain);
      }
    });
  });
  document.addEventListener("htmx:afterSwap", function () { restoreDrafts(); acting = null; });

  // A form drawn apart from the live table (the social panel's "hand my cube over", which is
  // not drawn again for every roll and move) sends the seq of the table the page shows now
  // (`data-seq-of`: the live table's selector), as the live table's own forms do.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var selector = form && form.getAttribute ? form.getAttribute("data-seq-of") : null;
    var live = selector ? document.querySelector(selector) : null;
    if (live && live.getAttribute("data-seq") && form.elements.seq) {
      form.elements.seq.value = live.getAttribute("data-seq");
    }
  }, true);

  // Print buttons (no inline handlers: the pages run under a Content-Security-Policy).
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) { window.print(); }
  });
  document.addEventListener("htmx:swapError", function () { acting = null; });

  // A flash that is news ("Table 2 is ready") leaves after a while; a refusal stays until the
  // next action replaces it. The table's page is never reloaded during a night.
  var FLASH_SECONDS = 8;
  function fadeFlashes() {
    Array.prototype.forEach.call(document.querySelectorAll(".flash:not(.flash-error):not([data-fading])"),
      function (flash) {
        flash.setAttribute("data-fading", "");
        window.setTimeout(function () { if (flash.parentNode) { flash.parentNode.removeChild(flash); } },
                          FLASH_SECONDS * 1000);
      });
  }
  document.addEventListener("DOMContentLoaded", fadeFlashes);
  document.addEventListener("htmx:afterSettle", fadeFlashes);

  // A decision that lasts a few seconds (taking back one's own drop) leaves when its time is
  // up; the server refuses it after that anyway.
  function expireDecisions() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-until]:not([data-expiring])"),
      function (item) {
        item.setAttribute("data-expiring", "");
        var left = Date.parse(item.getAttribute("data-until")) - Date.now();
        window.setTimeout(function () { if (item.parentNode) { item.parentNode.removeChild(item); } },
                          Math.max(0, left));
      });
  }
  document.addEventListener("DOMContentLoaded", expireDecisions);
  document.addEventListener("htmx:afterSettle", expireDecisions);
})();
