// tricklab board: a thin front end. Python renders the scene's markup (tricklab.display);
// this module shows it, forwards clicks on [data-intent] elements and the step keys as
// intents, and keeps keyboard focus. It holds no rule and no game state. It also tells the
// learner in words when Python no longer answers (see watchConnection).

const STEP_KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);

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
 */
function watchConnection(model, el) {
  const page = pageState();
  const probe = { waiting: false, timer: 0, later: 0, answered: -Infinity, ping: () => {} };
  const lost = () => {
    clearTimeout(probe.timer);
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
    probe.timer = setTimeout(lost, PONG_WITHIN_MS);
    send({ intent: "ping", value: String(page.pings) });
  };
  const send = (content) => {
    try {
      model.send(content);
    } catch {
      lost(); // the comm is closed: the kernel is known to be gone
    }
  };
  const onMessage = (content) => {
    if (!content || typeof content !== "object" || !("pong" in content)) return;
    probe.waiting = false;
    probe.answered = performance.now();
    clearTimeout(probe.timer);
    page.lost.delete(probe);
    updateBanner(page);
  };
  model.on("msg:custom", onMessage);
  page.probes.add(probe);
  listen(page);
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

// --- The board -----------------------------------------------------------------------------

/** @param {{ model: any, el: HTMLElement }} ctx */
function render({ model, el }) {
  const connection = watchConnection(model, el);
  const root = document.createElement("div");
  root.tabIndex = 0;
  // Keys pressed here belong to the widget, not to JupyterLab's shortcuts.
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  el.appendChild(root);
  const announcer = makeAnnouncer(el);

  let addressSent = false;
  let revealed = 0;
  const draw = () => {
    const scene = model.get("scene") || {};
    // where the kernel cannot see the page's address (Python in the browser) it asks for it once
    if (scene.read_address && !addressSent) {
      addressSent = true;
      connection.send({ intent: "address", value: location.search });
    }
    const hadFocus = root.contains(document.activeElement);
    const focused = hadFocus && document.activeElement instanceof HTMLElement
      ? document.activeElement.dataset.value : undefined;
    root.className = "tricklab tricklab-board" + (scene.large ? " tl-large" : "");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", scene.label || "tricklab");
    root.dataset.step = scene.step === undefined ? "" : String(scene.step);
    // scalar facts for assistive tech and tests, e.g. data-turn="true"
    for (const [key, value] of Object.entries(scene.data || {})) {
      root.dataset[key] = String(value);
    }
    root.innerHTML = scene.html || "";
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
      (sceneFocus(root, scene.focus) || again || root).focus({ preventScroll: focused === "tl-review-box" });
    }
  };

  const onClick = (event) => {
    const target = event.target instanceof Element ? event.target.closest("[data-intent]") : null;
    if (!target || !root.contains(target)) return;
    event.preventDefault();
    if (target.getAttribute("data-intent") === "copy-link") {
      copyLink(target);
      return;
    }
    connection.send({ intent: target.getAttribute("data-intent"), value: target.getAttribute("data-value") });
  };

  const onKey = (event) => {
    if (!STEP_KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    event.stopPropagation();
    connection.send({ intent: "key", value: event.key });
  };

  model.on("change:scene", draw);
  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onKey);
  draw();
  return () => {
    connection.stop();
    model.off("change:scene", draw);
    root.removeEventListener("click", onClick);
    root.removeEventListener("keydown", onKey);
    announcer.remove();
  };
}

export default { render };
