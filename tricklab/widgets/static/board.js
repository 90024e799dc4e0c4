// tricklab board: a thin front end. Python renders the scene's markup (tricklab.display);
// this module shows it, forwards clicks on [data-intent] elements and the step keys as
// intents, and keeps keyboard focus. It holds no rule and no game state.

const STEP_KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);

/** @param {{ model: any, el: HTMLElement }} ctx */
function render({ model, el }) {
  const root = document.createElement("div");
  root.tabIndex = 0;
  // Keys pressed here belong to the widget, not to JupyterLab's shortcuts.
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  el.appendChild(root);

  const draw = () => {
    const scene = model.get("scene") || {};
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
    if (hadFocus) {
      const again = focused && root.querySelector(`[data-value="${CSS.escape(focused)}"]`);
      (again || root).focus();
    }
  };

  const onClick = (event) => {
    const target = event.target instanceof Element ? event.target.closest("[data-intent]") : null;
    if (!target || !root.contains(target)) return;
    event.preventDefault();
    model.send({ intent: target.getAttribute("data-intent"), value: target.getAttribute("data-value") });
  };

  const onKey = (event) => {
    if (!STEP_KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    event.stopPropagation();
    model.send({ intent: "key", value: event.key });
  };

  model.on("change:scene", draw);
  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onKey);
  draw();
  return () => {
    model.off("change:scene", draw);
    root.removeEventListener("click", onClick);
    root.removeEventListener("keydown", onKey);
  };
}

export default { render };
