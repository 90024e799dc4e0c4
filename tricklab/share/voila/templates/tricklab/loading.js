// The loading screen of a tricklab app, from the page's first paint until the app is drawn.
//
// Voilà shows a spinner that says "Running play...", "Executing 1 of 1" and "Starting up
// kernel...": words about notebooks, not about the app. This script hides that spinner and shows the app's name, what is coming ("Getting the table ready…") and a
// progress bar that moves on at each stage the page reports (the notebook running, its output
// arriving) and creeps forward between them. It goes once the app's own drawing (a board, the
// gallery, the rulebooks) is on the page, and then brings a link's #anchor into view (a
// page drawn later than the browser looks for its anchor, as the rulebooks' clause ids).
//
// The Voilà template includes this file as Jinja: it holds no Jinja delimiter (a brace followed
// by #, % or a brace; tests/test_serve.py checks).
//
// window.TRICKLAB_LOADING = {app, coming} is set just before this script (the Voilà template
// and the static site's build write it from the app notebook's metadata). The static site's page
// reports its own stages, in words and figures, through window.tricklabLoading. Text only: every
// word is set with textContent, never as markup.
(function () {
  "use strict";
  var words = window.TRICKLAB_LOADING || {};
  var app = String(words.app || "tricklab");
  var coming = String(words.coming || "Getting ready…");

  var style = document.createElement("style");
  style.textContent =
    "#loading{display:none !important}" +
    "#tricklab-loading{position:fixed;inset:0;z-index:1000;display:flex;flex-direction:column;" +
    "align-items:center;justify-content:center;gap:0.8em;padding:1em;text-align:center;" +
    "background:var(--jp-layout-color0,#fff);color:var(--jp-ui-font-color1,#1a1a1a);" +
    "font-family:var(--jp-ui-font-family,system-ui,sans-serif)}" +
    "#tricklab-loading h1{font-size:clamp(1.4em,4vw,2.4em);margin:0}" +
    "#tricklab-loading p{font-size:clamp(1em,2.5vw,1.4em);margin:0}" +
    "#tricklab-loading .tl-loading-bar{width:min(80vw,24em);height:0.9em;border-radius:0.45em;" +
    "background:var(--jp-layout-color3,#ccc);overflow:hidden}" +
    "#tricklab-loading .tl-loading-bar span{display:block;height:100%;width:0;" +
    "background:var(--jp-brand-color1,#1976d2);transition:width 0.4s ease-out}" +
    "@media (prefers-reduced-motion: reduce){ #tricklab-loading .tl-loading-bar span{transition:none}}";
  (document.head || document.documentElement).appendChild(style);

  var box = document.createElement("div");
  box.id = "tricklab-loading";
  box.setAttribute("role", "status");
  box.setAttribute("aria-live", "polite");
  box.setAttribute("aria-busy", "true");
  var title = document.createElement("h1");
  title.textContent = app;
  var line = document.createElement("p");
  var said = document.createElement("span");
  said.textContent = coming;
  var figure = document.createElement("span"); // how far along, as the bar shows it: " 40 %"
  figure.className = "tl-loading-figure";
  figure.setAttribute("aria-hidden", "true"); // the bar says it to a screen reader, once
  line.appendChild(said);
  line.appendChild(figure);
  var bar = document.createElement("div");
  bar.className = "tl-loading-bar";
  bar.setAttribute("role", "progressbar");
  bar.setAttribute("aria-label", app + ": loading");
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", "100");
  var fill = document.createElement("span");
  bar.appendChild(fill);
  box.appendChild(title);
  box.appendChild(line);
  box.appendChild(bar);

  var percent = 0;
  var ceiling = 30; // where the bar creeps to before the next stage
  function show(value) {
    percent = Math.max(percent, Math.min(99, value));
    fill.style.width = percent + "%";
    bar.setAttribute("aria-valuenow", String(Math.round(percent)));
    figure.textContent = "\u00a0" + Math.round(percent) + "\u00a0%";
  }
  function stage(text, value, next) {
    if (text) said.textContent = text;
    show(value);
    ceiling = Math.max(ceiling, next);
  }
  var creep = window.setInterval(function () {
    if (percent < ceiling) show(percent + Math.max(0.3, (ceiling - percent) / 12));
  }, 250);

  function place() {
    if (!finished && !box.isConnected && document.body) document.body.appendChild(box); // not once the app is drawn
  }
  place();
  document.addEventListener("DOMContentLoaded", place);
  stage(coming, 8, 35);
  window.setTimeout(done, 180000); // whatever happens, the page itself is never hidden for good

  // the stages Voilà's page reports: voila_process, then voila_finish
  var started = false;
  function running() {
    if (!started) {
      started = true;
      stage(coming, 40, 75);
    }
  }
  function finished_cells() {
    stage("Almost ready…", 80, 95);
    window.setTimeout(done, 30000); // should the app never be drawn, the page is shown anyway
  }
  // installed now and again once the page is parsed: a page whose own helpers come after this
  // script defines them again
  function install() {
    if (window.voila_process !== running) window.voila_process = running;
    // Voilà calls voila_finish once the notebook has run: it is followed
    ["voila_finish"].forEach(function (name) {
      var theirs = window[name];
      if (typeof theirs !== "function" || theirs.tricklab) return;
      var wrapped = function () {
        finished_cells();
        return theirs.apply(this, arguments);
      };
      wrapped.tricklab = true;
      window[name] = wrapped;
    });
  }
  install();
  document.addEventListener("DOMContentLoaded", install);

  var finished = false;
  function done() {
    if (finished) return;
    finished = true;
    window.clearInterval(creep);
    show(100);
    box.setAttribute("aria-busy", "false");
    box.remove();
    watch.disconnect();
    var id = "";
    try {
      id = decodeURIComponent(window.location.hash.slice(1));
    } catch (e) {
      id = "";
    }
    var target = id ? document.getElementById(id) : null;
    if (!target) return;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    // brought into view now and again once the page has settled (its last outputs and styles
    // may still move it), unless the reader has scrolled away meanwhile
    var settled = -1;
    function bring() {
      if (settled >= 0 && Math.abs(window.scrollY - settled) > 2) return;
      target.scrollIntoView({ block: "start" });
      target.focus({ preventScroll: true });
      settled = window.scrollY;
    }
    bring();
    [300, 1000, 2500].forEach(function (ms) {
      window.setTimeout(bring, ms);
    });
  }
  // the static site's page reports its own stages (tricklab/share/site/app.js): what is under way
  // in words, how far along, and when the app could not start (the page is then shown as it is)
  window.tricklabLoading = {
    stage: function (text, value) {
      stage(String(text || ""), Number(value) || 0, Math.min(95, (Number(value) || 0) + 20));
    },
    done: done,
  };
  // the app is drawn: a board (class "tricklab"), the gallery or the rulebooks is on the page and
  // shown, and it is not the board that only asks the page for its link ("Opening the link…")
  var DRAWN = ".tricklab, .tricklab-landing, .tl-rulebook-links";
  var watch = new MutationObserver(function () {
    var found = document.querySelectorAll(DRAWN);
    for (var i = 0; i < found.length; i++) {
      if (found[i].getClientRects().length && !found[i].querySelector(".tricklab-loading")) {
        done();
        return;
      }
    }
  });
  watch.observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ["style", "class"] });
})();
