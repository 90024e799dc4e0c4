// tricklab board: a thin front end. Python renders the scene's markup (tricklab.display);
// this module shows it, forwards clicks on [data-intent] elements and the step keys as
// intents, and keeps keyboard focus. It holds no rule and no game state. It also tells the
// learner in words when Python no longer answers (see watchConnection).

// the keys a board sends unless its scene names others (``scene.keys``: key names, a shifted
// one written "Shift+ArrowRight"); a key the scene does not name keeps its usual meaning
const STEP_KEYS = ["ArrowLeft", "ArrowRight", "Home", "End"];

// --- Is Python still there? ------------------------------------------------------------
// The front end decides nothing, so it cannot tell by itself that the kernel has died or the
// connection has dropped: it asks. After a click, a tap or a key anywhere on the page (ipywidgets'
// buttons and sliders too) each board sends a "ping" and its Board in Python answers with a
// pong. No pong within PONG_WITHIN_MS, or a send that throws, and one banner for the whole
// page says so; a later pong takes it away again. anywidget loads each model's module
// separately, so what the boards of a page share lives on globalThis.

const PONG_WITHIN_MS = 3500;
// at most one ping a second per board (a held arrow key sends a key every 30 ms or so); a
// click within the second after a pong is asked about when the second is over
const PING_EVERY_MS = 1000;
const LOST_TEXT = "Connection lost — reload to continue";
const PAGE_KEY = Symbol.for("tricklab.connection");
// ipywidgets marks a view whose comm is gone with this class (the broken-link icon); a board
// then asks at once instead of waiting for the next click, and Python's answer still decides.
const DISCONNECTED = "jupyter-widgets-disconnected";

/** What the boards of one page share: their probes, the ones without an answer, the banner. */
function pageState() {
  let page = globalThis[PAGE_KEY];
  if (!page) {
    page = { probes: new Set(), lost: new Set(), pings: 0, banner: null, stop: null };
    globalThis[PAGE_KEY] = page;
  }
  return page;
}

function pingAll(page) {
  for (const probe of page.probes) probe.ping();
}

/** One listener (and one observer) for the whole page, however many boards it shows. */
function listen(page) {
  if (page.stop) return;
  const onInteraction = () => pingAll(page);
  const events = ["pointerdown", "click", "keydown"];
  for (const type of events) document.addEventListener(type, onInteraction, { capture: true, passive: true });
  const observer = typeof MutationObserver === "undefined" ? null : new MutationObserver((records) => {
    if (records.some((r) => r.target instanceof Element && r.target.classList.contains(DISCONNECTED))) {
      pingAll(page);
    }
  });
  observer?.observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ["class"] });
  page.stop = () => {
    for (const type of events) document.removeEventListener(type, onInteraction, { capture: true });
    observer?.disconnect();
    page.stop = null;
  };
}

/** Shows the banner while any board of the page waits in vain, removes it otherwise. */
function updateBanner(page) {
  if (page.lost.size === 0) {
    page.banner?.remove();
    return;
  }
  if (!page.banner) {
    const banner = document.createElement("div");
    banner.className = "tricklab-connection";
    banner.setAttribute("role", "alert");
    const text = document.createElement("p");
    text.textContent = LOST_TEXT;
    const reload = document.createElement("button");
    reload.type = "button";
    reload.textContent = "Reload";
    reload.addEventListener("click", () => window.location.reload());
    banner.append(text, reload);
    page.banner = banner;
  }
  // appended anew each time it is shown, so screen readers announce it again
  if (!page.banner.isConnected) document.body.appendChild(page.banner);
}

/**
 * Watch one board view's way back to Python. Returns ``send`` (model.send, telling the page
 * at once when it throws) and ``stop``.
 *
 * Only where it is right. Python decides (``watch_connection``, see the Board's docstring): an
 * app's page (Voilà, the static site) is watched; a notebook host (JupyterLab, Notebook 7,
 * VS Code, Colab) shows its kernel's state itself, and there a busy kernel's late pong is no
 * lost connection, so nothing is watched. The page's own guard: each watching board says hello
 * (a ping no timer waits for) when it is shown, and until some pong has come back
 * (``page.heard``) a missing pong is not told, only a send that throws. A static export has
 * no kernel to answer (its sends go nowhere, without throwing): it is never told of one lost.
 */
function watchConnection(model, el) {
  if (!model.get("watch_connection")) {
    const send = (content) => {
      try {
        model.send(content);
      } catch {
        // the host shows that its kernel is gone
      }
    };
    return { send, stop: () => {} };
  }
  const page = pageState();
  const probe = { waiting: false, timer: 0, later: 0, answered: -Infinity, ping: () => {} };
  const lost = (known) => {
    clearTimeout(probe.timer);
    if (!known && !page.heard) {
      probe.waiting = false; // nothing on this page has ever answered: nothing to lose
      return;
    }
    page.lost.add(probe);
    updateBanner(page);
  };
  probe.ping = () => {
    if (!el.isConnected) return; // a view that is not on the page
    if (probe.waiting && !page.lost.has(probe)) return; // one ping at a time
    const early = probe.answered + PING_EVERY_MS - performance.now();
    if (early > 0) {
      probe.later ||= setTimeout(() => {
        probe.later = 0;
        probe.ping();
      }, early);
      return;
    }
    probe.waiting = true;
    page.pings += 1;
    clearTimeout(probe.timer);
    probe.timer = setTimeout(() => lost(false), PONG_WITHIN_MS);
    send({ intent: "ping", value: String(page.pings) });
  };
  const send = (content) => {
    try {
      model.send(content);
    } catch {
      lost(true); // the comm is closed: the kernel is known to be gone
    }
  };
  const onMessage = (content) => {
    if (!content || typeof content !== "object" || !("pong" in content)) return;
    page.heard = true;
    if (probe.waiting) probe.answered = performance.now(); // (the hello's answer holds back no click)
    probe.waiting = false;
    clearTimeout(probe.timer);
    page.lost.delete(probe);
    updateBanner(page);
  };
  model.on("msg:custom", onMessage);
  page.probes.add(probe);
  listen(page);
  if (!page.heard) {
    page.pings += 1;
    send({ intent: "ping", value: String(page.pings) }); // hello: is there a kernel at all?
  }
  const stop = () => {
    model.off("msg:custom", onMessage);
    clearTimeout(probe.timer);
    clearTimeout(probe.later);
    page.probes.delete(probe);
    page.lost.delete(probe);
    updateBanner(page);
    if (page.probes.size === 0) page.stop?.();
  };
  return { send, stop };
}

// --- The address ---------------------------------------------------------------------------
// Python puts the query string of the state shown in scene.address; the page's address shows
// it (replaced, not pushed, so Back leaves the app). "Copy link" copies the page's address.

/** Show ``address`` (a query string Python built) in the page's location, keeping the path. */
function showAddress(address) {
  if (typeof address !== "string" || "?" + address === location.search) return;
  history.replaceState(history.state, "", location.pathname + (address ? "?" + address : "") + location.hash);
}

// A secret the page needs to open again where it was (a class session's teacher secret) stays out
// of the address, which a projector shows the whole room: Python puts it in scene.keep (a query
// string, "" to forget it), the page keeps it in this tab's session storage by path, and sends it
// back once when a scene asks (scene.recall): after a reload, or a tab restored. With
// scene.keep_on_device (a seat at a table of classmates) it is kept in the device's local storage
// instead, so the same device sits down again after its tab was closed.
const KEPT = "tricklab-kept:";

/** Keep ``value`` for this page in this tab, or on this device (``""``: forget it). */
function keepInTab(value, onDevice) {
  if (typeof value !== "string") return;
  try {
    const store = onDevice ? localStorage : sessionStorage;
    if (value) store.setItem(KEPT + location.pathname, value);
    else store.removeItem(KEPT + location.pathname);
  } catch { /* storage refused (a locked-down browser): a reload starts afresh */ }
}

/** What this page kept in this tab, else on this device, or ``""``. */
function keptInTab() {
  const read = (store) => { try { return store.getItem(KEPT + location.pathname) || ""; } catch { return ""; } };
  return read(sessionStorage) || read(localStorage);
}

/** Copy the page's address; where the clipboard may not be used, show it selected instead. */
function copyLink(button) {
  const said = (text) => { button.textContent = text; };
  const field = button.parentElement?.querySelector(".tl-link-field");
  const fallback = () => {
    if (!field) return;
    field.hidden = false;
    field.value = location.href;
    field.select();
    said(document.execCommand?.("copy") ? "Link copied" : "Copy the selected link");
  };
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(location.href).then(() => said("Link copied"), fallback);
  else fallback();
}

// --- Announcements and focus ---------------------------------------------------------------
// The board's markup is replaced on every scene, and a live region rebuilt each time is not
// announced reliably; so each board view keeps one live region of its own, outside that markup,
// and puts the scene's ``announce`` text in it when the text changes. After a learner's action
// the scene may name (``focus``, a CSS selector chosen by Python) what to do next.

/** The one live region of a board view, placed just after its markup. */
function makeAnnouncer(el) {
  const region = document.createElement("p");
  region.className = "tricklab-announce";
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  el.appendChild(region);
  return region;
}

function announce(region, text) {
  if (typeof text === "string" && text && region.textContent !== text) region.textContent = text;
}

// --- Scrolling lists --------------------------------------------------------------------------
// A list that scrolls in its own box (a move list) is drawn anew with every scene: each element
// marked data-keep-scroll="name" gets back the scroll position its namesake had, and the element
// the scene names in ``reveal`` is then scrolled into sight inside that box (never the page).

function scrollPositions(root) {
  const kept = new Map();
  for (const box of root.querySelectorAll("[data-keep-scroll]")) kept.set(box.dataset.keepScroll, box.scrollTop);
  return kept;
}

/** Which disclosures (``<details>``, by class) the learner has open or shut: a redraw (a classmate
 * joining, a bot's move) must not shut what the learner just opened, nor open what they shut. */
function disclosures(root) {
  const kept = new Map();
  for (const box of root.querySelectorAll("details[class]")) kept.set(box.className, box.open);
  return kept;
}

function restoreDisclosures(root, kept) {
  for (const box of root.querySelectorAll("details[class]")) {
    const open = kept.get(box.className);
    if (open !== undefined) box.open = open;
  }
}

function restoreScroll(root, kept, selector) {
  for (const box of root.querySelectorAll("[data-keep-scroll]")) {
    const top = kept.get(box.dataset.keepScroll);
    if (top !== undefined) box.scrollTop = top;
  }
  let shown = null;
  try {
    shown = typeof selector === "string" && selector ? root.querySelector(selector) : null;
  } catch {
    return; // not a selector: nothing to bring into sight
  }
  const box = shown?.closest("[data-keep-scroll]");
  if (!shown || !box) return;
  const inner = box.getBoundingClientRect();
  const item = shown.getBoundingClientRect();
  if (item.top < inner.top || item.bottom > inner.bottom) {
    // the item a third of the way down the box, so the moves before it stay in sight too
    box.scrollTop += item.top - inner.top - Math.max(0, (inner.height - item.height) / 3);
  }
}

/** The element the scene asks to focus, if it names one that is there. */
function sceneFocus(root, selector) {
  if (typeof selector !== "string" || !selector) return null;
  try {
    const found = root.querySelector(selector);
    return found instanceof HTMLElement ? found : null;
  } catch {
    return null; // not a selector: keep focus as it was
  }
}

/** The selector ``focusIn`` ({region: selector}) gives for the region holding ``element``, or "". */
function focusWithin(element, focusIn) {
  if (!(element instanceof Element) || !focusIn || typeof focusIn !== "object") return "";
  for (const [region, selector] of Object.entries(focusIn)) {
    try {
      if (element.closest(region)) return typeof selector === "string" ? selector : "";
    } catch {
      // not a selector: this region holds nothing
    }
  }
  return "";
}

// --- A sowing, stone by stone ----------------------------------------------------------------
// After a Kalah move Python sends its sowing as the engine told it (scene.sowing: the 14 counts
// before the move, then after each step: the pick-up, every stone, a capture, the end). The board
// repaints the counts frame by frame, one every ``stone_ms``, over the scene's own markup, then
// shows the scene as it is. It decides nothing: it only repaints counts Python sent. Under
// prefers-reduced-motion nothing moves: the scene is shown as it is at once.

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
const STONES_DRAWN = 24; // as tricklab.display.boards: more stones are shown as their count only
const SVG = "http://www.w3.org/2000/svg";

function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia(REDUCED_MOTION).matches;
}

/** Up to STONES_DRAWN stones as dots on a grid (the picture boards.py draws), or null for none. */
function stonesPicture(count) {
  const shown = Math.min(count, STONES_DRAWN);
  if (!(shown > 0)) return null;
  const cols = shown > 9 ? 4 : 3;
  const rows = Math.ceil(shown / cols);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "tl-stones");
  svg.setAttribute("viewBox", `0 0 ${cols * 10 + 2} ${rows * 10 + 2}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (let k = 0; k < shown; k++) {
    const row = Math.floor(k / cols);
    const col = k % cols;
    const short = cols - Math.min(cols, shown - row * cols); // a row that is not full is centred
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", String(6 + col * 10 + short * 5));
    dot.setAttribute("cy", String(6 + row * 10));
    dot.setAttribute("r", "4");
    svg.appendChild(dot);
  }
  return svg;
}

/** Paint one frame of a sowing over the Kalah board drawn in ``root``. */
function paintFrame(root, frame) {
  const board = root.querySelector(".tl-kalah");
  if (!board || !frame || !Array.isArray(frame.pits)) return;
  for (const place of board.querySelectorAll("[data-index]")) {
    const index = Number(place.getAttribute("data-index"));
    const count = frame.pits[index];
    if (!Number.isInteger(count)) continue;
    const number = place.querySelector(".tl-count-n");
    if (number) number.textContent = String(count);
    place.querySelector("svg.tl-stones")?.remove();
    const picture = stonesPicture(count);
    if (picture && number) number.after(picture);
    place.classList.remove("tl-marked");
    place.classList.toggle("tl-sown", index === frame.mark);
  }
  let note = board.querySelector(".tl-sowing-note");
  if (!note) {
    note = document.createElement("p");
    note.className = "tl-sowing-note";
    note.setAttribute("aria-hidden", "true"); // the board is busy meanwhile; the scene says what happened
    board.querySelector(".tl-kalah-grid")?.after(note);
  }
  const inHand = frame.lifted > 0 ? ` (${frame.lifted} in hand)` : "";
  note.textContent = typeof frame.text === "string" && frame.text ? frame.text + inHand : "";
}

// --- Controls and the message -------------------------------------------------------------
// A widget that is one board draws its controls from the scene (``scene.controls``: rows of
// pickers, buttons, a text box, toggles, described by tricklab.widgets.controls) above the board,
// as real elements with labels. They are made once and then updated in place, so a control keeps
// the focus while Python answers; a change is sent as {intent: "control", name, value} and Python
// decides what it does. Every text is set as text (textContent, attributes), never as markup. The
// model's ``message`` (plain text) is shown in one live region (role="alert") between the controls
// and the board, made the first time there is a message or a control.

let viewCount = 0; // makes the ids of each view's controls unique in the page

/** The row of controls of one board view: ``update(rows)`` draws them, ``node`` holds them. */
function makeControls(send) {
  const view = ++viewCount;
  const node = document.createElement("div");
  node.className = "tricklab-controls";
  node.setAttribute("data-lm-suppress-shortcuts", "true");
  let shape = ""; // the kinds and names of the controls drawn, row by row
  const drawn = new Map(); // name -> { spec, input, wrap }

  const text = (value) => (typeof value === "string" ? value : "");

  const make = (spec) => {
    const wrap = document.createElement("span");
    wrap.className = "tl-control tl-control-" + spec.kind;
    const id = `tl-control-${view}-${spec.name}`;
    let input;
    if (spec.kind === "picker" || spec.kind === "text") {
      const label = document.createElement("label");
      label.htmlFor = id;
      input = document.createElement(spec.kind === "picker" ? "select" : "input");
      if (spec.kind === "text") {
        input.type = "text";
        input.autocomplete = "off";
        input.spellcheck = false;
      }
      input.id = id;
      wrap.append(label, input);
    } else if (spec.kind === "progress") {
      const label = document.createElement("label");
      label.htmlFor = id;
      input = document.createElement("progress");
      input.id = id;
      wrap.append(label, input);
    } else if (spec.kind === "note") {
      input = document.createElement("span");
      wrap.append(input);
    } else {
      input = document.createElement("button");
      input.type = "button";
      wrap.append(input);
    }
    input.dataset.control = spec.name;
    return { spec, input, wrap, synced: undefined, sent: undefined };
  };

  const refresh = (item, spec) => {
    const { input, wrap } = item;
    item.spec = spec;
    wrap.hidden = Boolean(spec.hidden);
    input.disabled = Boolean(spec.disabled);
    if (spec.tooltip) input.title = text(spec.tooltip);
    else input.removeAttribute("title");
    const label = wrap.querySelector("label");
    if (label) label.textContent = text(spec.label);
    else input.textContent = text(spec.label);
    if (spec.kind === "picker") {
      const labels = Array.isArray(spec.options) ? spec.options.map(text) : [];
      const now = [...input.options].map((o) => o.textContent);
      if (now.length !== labels.length || now.some((l, i) => l !== labels[i])) {
        input.replaceChildren(...labels.map((l, i) => {
          const option = document.createElement("option");
          option.value = String(i);
          option.textContent = l;
          return option;
        }));
      }
      if (Number.isInteger(spec.index)) input.selectedIndex = spec.index;
    } else if (spec.kind === "text") {
      input.placeholder = text(spec.placeholder);
      if (Number.isInteger(spec.max) && spec.max > 0) input.maxLength = spec.max;
      // Python's text replaces the box's only when Python changed it: what the learner is
      // typing meanwhile is kept
      if (spec.value !== item.synced) {
        item.synced = spec.value;
        item.sent = undefined;
        input.value = text(spec.value);
      }
    } else if (spec.kind === "toggle") {
      input.setAttribute("aria-pressed", spec.value ? "true" : "false");
    } else if (spec.kind === "button") {
      input.classList.toggle("tl-primary", Boolean(spec.primary));
    } else if (spec.kind === "progress") {
      const max = Number.isInteger(spec.max) && spec.max > 0 ? spec.max : 1;
      input.max = max;
      input.value = Number.isInteger(spec.value) ? Math.min(Math.max(spec.value, 0), max) : 0;
    }
  };

  const update = (rows) => {
    const specs = Array.isArray(rows) ? rows.map((row) => (Array.isArray(row) ? row : [])) : [];
    const now = JSON.stringify(specs.map((row) => row.map((c) => [c?.kind, c?.name])));
    const focused = node.contains(document.activeElement) ? document.activeElement.dataset.control : undefined;
    if (now !== shape) { // other controls: drawn anew, the focused one focused again
      shape = now;
      drawn.clear();
      node.replaceChildren(...specs.map((row) => {
        const line = document.createElement("div");
        line.className = "tl-control-row";
        for (const spec of row) {
          if (!spec || typeof spec.name !== "string" || drawn.has(spec.name)) continue;
          const item = make(spec);
          drawn.set(spec.name, item);
          line.append(item.wrap);
        }
        return line;
      }));
      if (focused) drawn.get(focused)?.input.focus();
    }
    for (const row of specs) for (const spec of row) if (drawn.get(spec?.name)?.spec.kind === spec?.kind) refresh(drawn.get(spec.name), spec);
    // the button that had the focus is gone or hidden now ("Back"): the focus goes to the first usable button
    const gone = focused && (!drawn.has(focused) || drawn.get(focused).wrap.hidden);
    if (gone) {
      [...drawn.values()].map((item) => item.input)
        .find((input) => input.matches("button") && !input.disabled && !input.closest("[hidden]"))?.focus();
    }
    node.hidden = drawn.size === 0;
  };

  const submit = (item) => {
    if (item.input.value === item.sent) return; // Enter, then the box loses the focus: sent once
    item.sent = item.input.value;
    send({ intent: "control", name: item.spec.name, value: item.input.value });
  };

  const itemOf = (event) => {
    const input = event.target instanceof Element ? event.target.closest("[data-control]") : null;
    return input && node.contains(input) ? drawn.get(input.dataset.control) : undefined;
  };
  const onChange = (event) => {
    const item = itemOf(event);
    if (!item) return;
    if (item.spec.kind === "picker") send({ intent: "control", name: item.spec.name, value: item.input.value });
    else if (item.spec.kind === "text") submit(item);
  };
  const onClick = (event) => {
    const item = itemOf(event);
    if (!item || item.input.disabled) return;
    if (item.spec.kind === "button") send({ intent: "control", name: item.spec.name, value: null });
    else if (item.spec.kind === "toggle") {
      send({ intent: "control", name: item.spec.name, value: item.spec.value ? "false" : "true" });
    }
  };
  const onKey = (event) => {
    const item = itemOf(event);
    if (item?.spec.kind === "text" && event.key === "Enter") {
      event.preventDefault();
      submit(item);
    }
  };
  node.addEventListener("change", onChange);
  node.addEventListener("click", onClick);
  node.addEventListener("keydown", onKey);
  const stop = () => {
    node.removeEventListener("change", onChange);
    node.removeEventListener("click", onClick);
    node.removeEventListener("keydown", onKey);
    node.remove();
  };
  return { node, update, stop };
}

/** The message region: plain text in a live region, shown as text. */
function makeMessage() {
  const region = document.createElement("p");
  region.className = "tricklab-message tricklab-said";
  region.setAttribute("role", "alert");
  return region;
}

// --- The stylesheet, once per page ------------------------------------------------------------
// The board's stylesheet does not travel with every board (anywidget's _css is a copy per board):
// tricklab.widgets.frontend adds it to this module, which goes with one board of a kernel only
// (the other boards carry a small module that waits for this one), and each view puts it into
// its page once: into the page's head, or into the shadow root a host draws the view in (marimo).
// The mark and digest are those of the static pictures' sheet, so the two are not both added.
// Where a picture of the kernel brought the sheet already, the module comes without it
// (SHEET.css missing): the picture's script puts it into the head, a moment later perhaps; if it
// is not there after SHEET.ask_after_ms (its output cleared), the board asks its kernel for it.

let SHEET = null; // { css, digest } or { digest, ask_after_ms }: set by the lines added below
let sheetText = null; // a promise of the sheet's text, when the module came without it

const sheetSelector = () => `style[data-tricklab-css="${SHEET.digest}"]`;

/** The sheet's text from the page's head, where a picture put it, or else from the kernel. */
function sheetFromPage(model) {
  sheetText ??= new Promise((resolve) => {
    const found = () => document.head.querySelector(sheetSelector())?.textContent || null;
    const done = (css) => {
      observer.disconnect();
      model.off("msg:custom", onMessage);
      resolve(css);
    };
    const onMessage = (content) => {
      if (content && typeof content.sheet === "string") done(content.sheet);
    };
    const observer = new MutationObserver(() => found() && done(found()));
    if (found()) return resolve(found());
    observer.observe(document.head, { childList: true });
    setTimeout(() => {
      if (found()) return done(found());
      model.on("msg:custom", onMessage);
      try { model.send({ intent: "sheet" }); } catch { /* no kernel: the page may bring it yet */ }
    }, SHEET.ask_after_ms);
  });
  return sheetText;
}

function adoptSheet(el, model) {
  if (!SHEET) return;
  const root = el.getRootNode();
  const target = typeof ShadowRoot !== "undefined" && root instanceof ShadowRoot ? root : document.head;
  if (!target || target.querySelector(sheetSelector())) return;
  const put = (css) => {
    if (target.querySelector(sheetSelector())) return;
    const style = document.createElement("style");
    style.setAttribute("data-tricklab-css", SHEET.digest);
    style.textContent = css;
    target.append(style);
  };
  if (typeof SHEET.css === "string") put(SHEET.css);
  else sheetFromPage(model).then(put);
}

// --- The scene as the page gets it ----------------------------------------------------------
// Python sends the scene as its JSON (the synced ``_packed``), deflated and in base64 after "z:"
// when it is long: a scene's markup is mostly cards drawn alike, so it shrinks about tenfold, on
// the wire and in a saved notebook (tricklab.widgets.board.pack). A browser without
// DecompressionStream asks once for plain scenes ("plain"), which Python then sends it.

const PACKED = "z:";
const canInflate = () => typeof DecompressionStream === "function";

/** The scene in ``text``: at once when it is plain JSON, else a promise of it. */
function readScene(text) {
  if (typeof text !== "string" || !text) return {};
  if (!text.startsWith(PACKED)) return JSON.parse(text);
  const bytes = Uint8Array.from(atob(text.slice(PACKED.length)), (c) => c.charCodeAt(0));
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Response(inflated).text().then((json) => JSON.parse(json));
}

// --- The board -----------------------------------------------------------------------------

/** @param {{ model: any, el: HTMLElement }} ctx */
function render({ model, el }) {
  adoptSheet(el, model);
  const connection = watchConnection(model, el);
  const root = document.createElement("div");
  root.tabIndex = 0;
  // Keys pressed here belong to the widget, not to JupyterLab's shortcuts.
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  el.appendChild(root);
  const announcer = makeAnnouncer(el);
  let controls = null; // made with the first scene that has controls
  let message = null; // made with the first message, or with the controls

  /** The controls and the message, above the board (made when first needed). */
  const drawAround = (scene) => {
    if (!controls && Array.isArray(scene.controls) && scene.controls.length) {
      controls = makeControls(connection.send);
      el.insertBefore(controls.node, root);
    }
    if (controls) {
      controls.update(scene.controls);
      controls.node.classList.toggle("tl-large", Boolean(scene.large));
    }
    const said = model.get("message");
    if (!message && (controls || (typeof said === "string" && said))) {
      message = makeMessage();
      el.insertBefore(message, root);
    }
    if (message) {
      const words = typeof said === "string" ? said : "";
      if (message.textContent !== words) message.textContent = words;
      // An empty region stays in the page (so the next words are announced) but is not shown.
      message.hidden = !words;
      message.classList.toggle("tl-large", Boolean(scene.large));
    }
  };

  let addressSent = false;
  let pageSent = false;
  let recallSent = false;
  let motionSent = false;
  const seen = new Set(); // the sowings already shown (or passed over)
  const queue = []; // sowings waiting to be shown, oldest first
  let sowing = null; // the sowing being shown: { frames, ms, index, timer }

  const stopSowing = () => {
    if (sowing) clearTimeout(sowing.timer);
    sowing = null;
    queue.length = 0;
  };

  const nextFrame = () => {
    if (!sowing) return;
    sowing.index += 1;
    if (sowing.index >= sowing.frames.length - 1) {
      sowing = null; // the last frame is the scene itself
      const next = queue.shift();
      if (next) startSowing(next);
      draw();
      return;
    }
    paintFrame(root, sowing.frames[sowing.index]);
    sowing.timer = setTimeout(nextFrame, sowing.ms);
  };

  const startSowing = (shown) => {
    sowing = { ...shown, index: 0, timer: setTimeout(nextFrame, shown.ms) };
  };

  /** Take in the scene's sowing, if it is a new one and motion is welcome. */
  const takeSowing = (scene) => {
    const sow = scene.sowing;
    if (!sow || typeof sow !== "object") {
      stopSowing(); // another kind of scene (an undo, a new deal): nothing is left to show
      return;
    }
    const key = String(sow.key);
    if (seen.has(key)) return;
    seen.add(key);
    const ms = Number(sow.stone_ms);
    if (reducedMotion() || !Array.isArray(sow.frames) || sow.frames.length < 2 || !(ms > 0)) return;
    const shown = { frames: sow.frames, ms: Math.min(ms, 5000) };
    if (sowing) queue.push(shown);
    else startSowing(shown);
  };

  let scene = {}; // the scene shown: the last one read from ``_packed``
  let revealed = 0;
  const draw = () => {
    // where the kernel cannot see the page's address (Python in the browser) it asks for it once
    if (scene.read_address && !addressSent) {
      addressSent = true;
      connection.send({ intent: "address", value: location.search });
    }
    // the page's own address without its query, once: for a link the kernel gives other people
    // (a class's join link), which the kernel cannot know from behind a proxy
    if (scene.read_page && !pageSent) {
      pageSent = true;
      connection.send({ intent: "page", value: location.origin + location.pathname });
    }
    if (scene.recall && !recallSent) {
      recallSent = true;
      connection.send({ intent: "recall", value: keptInTab() });
    }
    keepInTab(scene.keep, scene.keep_on_device === true);
    const hadFocus = root.contains(document.activeElement);
    const focused = hadFocus && document.activeElement instanceof HTMLElement
      ? document.activeElement.dataset.value : undefined;
    // scene.focus_in ({region: selector}): focus that was inside a region goes to that selector's
    // element after the redraw (a move list: the move shown, when the learner stepped from the list)
    const within = hadFocus ? focusWithin(document.activeElement, scene.focus_in) : "";
    // a board that shows a list beside another board (a move list) is not "the board" of its page
    const kind = scene.kind === "list" ? "tricklab-list" : "tricklab-board";
    root.className = "tricklab " + kind + (scene.large ? " tl-large" : "");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", scene.label || "tricklab");
    root.dataset.step = scene.step === undefined ? "" : String(scene.step);
    // scalar facts for assistive tech and tests, e.g. data-turn="true"
    for (const [key, value] of Object.entries(scene.data || {})) {
      root.dataset[key] = String(value);
    }
    const kept = scrollPositions(root);
    const shown = disclosures(root);
    root.innerHTML = scene.html || "";
    restoreDisclosures(root, shown);
    restoreScroll(root, kept, scene.reveal);
    if (sowing) { // the sowing under way is painted over the scene; the board waits meanwhile
      paintFrame(root, sowing.frames[sowing.index]);
      root.dataset.turn = "false";
      root.dataset.sowing = "true";
      root.setAttribute("aria-busy", "true");
    } else {
      delete root.dataset.sowing;
      root.removeAttribute("aria-busy");
    }
    // a Kalah table is told once that this page asks for reduced motion (its bots then need not
    // wait for sowings that are not shown)
    if (!motionSent && reducedMotion() && root.querySelector(".tl-kalah")) {
      motionSent = true;
      connection.send({ intent: "motion", value: "reduce" });
    }
    showAddress(scene.address);
    announce(announcer, scene.announce);
    // what the learner just asked for (a review, a moment of it) is brought into view and focused,
    // once per request (scene.reveal_id counts them): it appears where the learner is looking
    const reveal = typeof scene.reveal_id === "number" && scene.reveal_id !== revealed
      ? sceneFocus(root, scene.reveal) : null;
    if (typeof scene.reveal_id === "number") revealed = scene.reveal_id;
    if (reveal) {
      reveal.scrollIntoView({ block: scene.reveal_block === "nearest" ? "nearest" : "start", behavior: "instant" });
      reveal.focus({ preventScroll: true });
    } else if (hadFocus) {
      const again = focused && root.querySelector(`[data-value="${CSS.escape(focused)}"]`);
      (sceneFocus(root, scene.focus) || sceneFocus(root, within) || again || root).focus({ preventScroll: focused === "tl-review-box" });
    }
  };

  const onClick = (event) => {
    const target = event.target instanceof Element ? event.target.closest("[data-intent]") : null;
    if (!target || !root.contains(target)) return;
    event.preventDefault();
    if (sowing && target.closest(".tl-board")) return; // no move on a board still being sown
    if (target.getAttribute("data-intent") === "copy-link") {
      copyLink(target);
      return;
    }
    connection.send({ intent: target.getAttribute("data-intent"), value: target.getAttribute("data-value") });
  };

  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = scene.keys;
    const named = Array.isArray(keys) ? keys : STEP_KEYS;
    const shifted = "Shift+" + event.key;
    const key = event.shiftKey && named.includes(shifted) ? shifted : event.key;
    if (!named.includes(key)) return;
    event.preventDefault();
    event.stopPropagation();
    connection.send({ intent: "key", value: key });
  };

  const show = (next) => {
    scene = next && typeof next === "object" ? next : {};
    takeSowing(scene);
    drawAround(scene);
    draw();
  };
  // Every scene is drawn, in the order it came: one may ask for something once (reveal_id) that
  // the next no longer asks for, so none is skipped. A deflated one is read before those after it.
  let reading = Promise.resolve();
  let gone = false; // the view was taken down: what is read after that is dropped
  let askedPlain = false;
  const onScene = () => {
    const text = model.get("_packed");
    if (typeof text === "string" && text.startsWith(PACKED) && !canInflate()) {
      if (!askedPlain) connection.send({ intent: "plain" });
      askedPlain = true;
      return;
    }
    const drawn = (next) => {
      if (gone) return;
      try {
        show(next);
      } catch (error) {
        setTimeout(() => { throw error; }); // told as any error is, and the next scene is still drawn
      }
    };
    reading = reading.then(() => readScene(text)).then(drawn, () => {}); // not a scene: the one shown stays
  };
  const onMessage = () => drawAround(scene);

  model.on("change:_packed", onScene);
  model.on("change:message", onMessage);
  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onKey);
  onScene();
  return () => {
    gone = true;
    stopSowing();
    connection.stop();
    model.off("change:_packed", onScene);
    model.off("change:message", onMessage);
    controls?.stop();
    message?.remove();
    root.removeEventListener("click", onClick);
    root.removeEventListener("keydown", onKey);
    announcer.remove();
  };
}

// (tricklab.widgets.board adds the stylesheet and this module's registration after this line)
export default { render };
