// A tricklab app page of the static site: the app's Python runs in a Web Worker (worker.js), and
// this script draws its widgets, as a notebook's widget manager does under Voilà, from the
// messages the worker's bridge sends (tricklab/bridge.py), and sends back what the learner does.
//
// It runs as the page's first script: the worker, and with it every download, starts at once.
// window.TRICKLAB_SITE = {root, worker, wheels, prepared, boot, dataclasses, cells} is written by
// the build (tricklab.site): the site's root from this page, the worker's and the wheels'
// addresses from there, the key of the build's prepared interpreter (worker.js), what Python runs
// first and the code it gives the dataclasses (boot.py), and the app notebook's cells: {code} for Python,
// {html} for its text (Markdown, rendered at the build) or, with ran, for what a cell showed when
// the build ran it (an app that is markup only: the page then starts no Python), each shown in
// its place, in order.
//
// The widgets it knows are those the apps are made of: anywidget's (each board: its module's
// render({model, el}) draws it), ipywidgets' boxes (VBox, HBox, Box: their children in a column
// or a row) and HTML (its markup). Layout and style models hold nothing the apps use. The model
// each anywidget view gets is the part of anywidget's model the modules use: get, set,
// save_changes, on, off and send.
//
// Every word it shows itself is set with textContent; markup comes only from the app's Python.
(() => {
  "use strict";
  const site = window.TRICKLAB_SITE;
  const root = new URL(site.root, location.href);
  const at = (path) => new URL(path, root).href;
  const loading = () => window.tricklabLoading;

  // --- the theme: a link's ?theme=dark (the theme guard has kept only light or dark) ---------
  const dark = new URLSearchParams(location.search).get("theme") === "dark";
  const theme = () => {
    document.body.dataset.jpThemeLight = dark ? "false" : "true";
    document.body.dataset.jpThemeName = dark ? "JupyterLab Dark" : "JupyterLab Light";
  };
  document.documentElement.style.colorScheme = dark ? "dark" : "light";
  if (document.body) theme();
  else document.addEventListener("DOMContentLoaded", theme);

  // --- the worker ---------------------------------------------------------------------------
  // an app that is markup only (the gallery, the rulebooks) was run at the build: no Python here
  const runsPython = site.cells.some((cell) => typeof cell.code === "string");
  /** What the worker runs first, and the code it gives the dataclasses (worker.js, boot.py). */
  const booting = () => ({ boot: site.boot && at(site.boot), dataclasses: site.dataclasses && at(site.dataclasses) });
  let worker = null;
  /** Start the app's worker (again, when a prepared interpreter could not be restored). */
  function startWorker() {
    worker = new Worker(at(site.worker));
    worker.onmessage = fromWorker;
    worker.onerror = (event) => {
      event.preventDefault();
      failed(String(event.message || "Python could not be started in this browser."));
    };
    worker.postMessage({
      kind: "start",
      runtime: at("static/pyodide/"),
      wheels: site.wheels.map(at),
      prepared: site.prepared,
      ...booting(),
      cells: site.cells,
    });
  }
  const toPython = (commId, data) => worker.postMessage({ kind: "msg", text: JSON.stringify({ kind: "msg", comm_id: commId, data }) });

  // --- the widgets' models ------------------------------------------------------------------
  const models = new Map(); // comm id -> Model
  const waiting = new Map(); // comm id -> resolve functions of those waiting for that model
  const PREFIX = "IPY_MODEL_";

  class Model {
    constructor(id, state) {
      this.id = id;
      this.state = state;
      this.pending = {};
      this.handlers = new Map(); // event name -> Set of callbacks
      this.views = new Set(); // {el, cleanup}
    }
    get(name) {
      return this.state[name];
    }
    set(name, value) {
      this.state[name] = value;
      this.pending[name] = value;
      this.emit(`change:${name}`, this, value);
    }
    save_changes() {
      if (!Object.keys(this.pending).length) return;
      toPython(this.id, { method: "update", state: this.pending, buffer_paths: [] });
      this.pending = {};
    }
    send(content) {
      toPython(this.id, { method: "custom", content });
    }
    on(name, callback) {
      for (const one of String(name).split(/\s+/)) {
        if (!this.handlers.has(one)) this.handlers.set(one, new Set());
        this.handlers.get(one).add(callback);
      }
    }
    off(name, callback) {
      if (name === undefined) return this.handlers.clear();
      for (const one of String(name).split(/\s+/)) {
        if (callback === undefined) this.handlers.delete(one);
        else this.handlers.get(one)?.delete(callback);
      }
    }
    emit(name, ...args) {
      for (const callback of [...(this.handlers.get(name) || [])]) {
        try {
          callback(...args);
        } catch (error) {
          console.error(error);
        }
      }
    }
  }

  const modelOf = (reference) => {
    const id = String(reference).startsWith(PREFIX) ? String(reference).slice(PREFIX.length) : String(reference);
    if (models.has(id)) return Promise.resolve(models.get(id));
    return new Promise((resolve) => {
      if (!waiting.has(id)) waiting.set(id, []);
      waiting.get(id).push(resolve);
    });
  };

  // --- views --------------------------------------------------------------------------------
  const modules = new Map(); // module text -> promise of the module
  const moduleOf = (text) => {
    if (!modules.has(text)) {
      const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
      modules.set(text, import(url).finally(() => URL.revokeObjectURL(url)));
    }
    return modules.get(text);
  };
  const initialized = new WeakSet();

  async function anyView(model, el) {
    const module = await moduleOf(model.get("_esm"));
    const widget = module.default ?? module;
    if (typeof widget.initialize === "function" && !initialized.has(model)) {
      initialized.add(model);
      await widget.initialize({ model });
    }
    const css = model.get("_css");
    if (typeof css === "string" && css && !document.head.querySelector(`style[data-tricklab-widget="${model.id}"]`)) {
      const style = document.createElement("style");
      style.dataset.tricklabWidget = model.id;
      style.textContent = css;
      document.head.append(style);
    }
    return typeof widget.render === "function" ? widget.render({ model, el }) : undefined;
  }

  function boxView(model, el, direction) {
    el.classList.add("widget-box", direction === "row" ? "widget-hbox" : "widget-vbox");
    el.style.display = "flex";
    el.style.flexDirection = direction;
    let shown = [];
    let drawn = 0;
    const draw = async () => {
      const turn = ++drawn;
      const children = await Promise.all((model.get("children") || []).map(modelOf));
      if (turn !== drawn) return;
      for (const child of shown) child.remove();
      shown = [];
      for (const child of children) {
        const holder = document.createElement("div");
        el.append(holder);
        shown.push({ remove: () => removeView(holder) });
        await show(child, holder);
      }
    };
    model.on("change:children", draw);
    draw();
    return () => {
      model.off("change:children", draw);
      for (const child of shown) child.remove();
    };
  }

  function htmlView(model, el) {
    el.classList.add("widget-html");
    const content = document.createElement("div");
    content.className = "widget-html-content";
    el.append(content);
    const draw = () => {
      content.innerHTML = String(model.get("value") ?? "");
    };
    model.on("change:value", draw);
    draw();
    return () => model.off("change:value", draw);
  }

  /** Draw ``model`` into ``el`` (a view of its own); what tears the view down is kept with it. */
  async function show(model, el) {
    for (const name of model.get("_dom_classes") || []) el.classList.add(name);
    const kind = model.get("_model_name");
    let cleanup;
    if (kind === "AnyModel") cleanup = await anyView(model, el);
    else if (kind === "VBoxModel" || kind === "BoxModel") cleanup = boxView(model, el, "column");
    else if (kind === "HBoxModel") cleanup = boxView(model, el, "row");
    else if (kind === "HTMLModel") cleanup = htmlView(model, el);
    const view = { el, cleanup: typeof cleanup === "function" ? cleanup : null };
    model.views.add(view);
    el.tricklabView = { model, view };
  }

  function removeView(el) {
    for (const inner of [el, ...el.querySelectorAll("*")].reverse()) {
      const held = inner.tricklabView;
      if (!held) continue;
      held.model.views.delete(held.view);
      try {
        held.view.cleanup?.();
      } catch (error) {
        console.error(error);
      }
    }
    el.remove();
  }

  // --- what the app shows -------------------------------------------------------------------
  const app = () => document.getElementById("tricklab-app");

  /** Markup an app's cell shows, with its scripts run (as a notebook runs a trusted output's). */
  function showHtml(html, cell) {
    const output = document.createElement("div");
    output.className = "tricklab-output tricklab-rendered";
    output.innerHTML = html;
    for (const old of output.querySelectorAll("script")) {
      const script = document.createElement("script");
      for (const { name, value } of old.attributes) script.setAttribute(name, value);
      script.textContent = old.textContent;
      old.replaceWith(script);
    }
    placeOf(cell).append(output);
  }

  /** Where the notebook's cell number ``cell`` shows its outputs: one place per cell, in order. */
  function placeOf(cell) {
    const places = app().querySelectorAll(":scope > .tricklab-cell");
    return (Number.isInteger(cell) && places[cell]) || app();
  }

  /** One place per cell of the notebook, its text (Markdown, rendered at the build) shown at once. */
  function placeCells() {
    for (const cell of site.cells) {
      const place = document.createElement("div");
      place.className = "tricklab-cell";
      app().append(place);
      if (typeof cell.html !== "string") continue;
      if (cell.ran) showHtml(cell.html, site.cells.indexOf(cell)); // an output the build made: its scripts run
      else {
        const text = document.createElement("div"); // a Markdown cell's text
        text.className = "tricklab-output tricklab-rendered";
        text.innerHTML = cell.html;
        place.append(text);
      }
    }
    if (!runsPython) {
      window.tricklabStart = { restored: false, timings: {}, python: false };
      prepareForNextTime();
    }
  }
  if (document.getElementById("tricklab-app")) placeCells();
  else document.addEventListener("DOMContentLoaded", placeCells);

  function showBundle(bundle, cell) {
    const view = bundle["application/vnd.jupyter.widget-view+json"];
    if (view && typeof view.model_id === "string") {
      const output = document.createElement("div");
      output.className = "tricklab-output";
      placeOf(cell).append(output);
      modelOf(view.model_id).then((model) => show(model, output));
    } else if (typeof bundle["text/html"] === "string") {
      showHtml(bundle["text/html"], cell);
    }
  }

  function failed(text) {
    const box = document.createElement("div");
    box.className = "tricklab-failed";
    box.setAttribute("role", "alert");
    const title = document.createElement("h2");
    title.textContent = "This app could not start.";
    const said = document.createElement("p");
    said.textContent = `${text} Reloading the page may help; if it does not, this browser may be too old for the app.`;
    box.append(title, said);
    app().append(box);
    loading()?.done();
  }

  function fromBridge(text) {
    const message = JSON.parse(text);
    if (message.kind === "open") {
      const model = new Model(message.comm_id, message.data.state || {});
      models.set(model.id, model);
      for (const resolve of waiting.get(model.id) || []) resolve(model);
      waiting.delete(model.id);
    } else if (message.kind === "msg") {
      const model = models.get(message.comm_id);
      const data = message.data || {};
      if (!model) return;
      if (data.method === "update") {
        Object.assign(model.state, data.state || {});
        for (const [name, value] of Object.entries(data.state || {})) model.emit(`change:${name}`, model, value);
        model.emit("change", model);
      } else if (data.method === "custom") {
        model.emit("msg:custom", data.content, []);
      }
    } else if (message.kind === "close") {
      const model = models.get(message.comm_id);
      if (!model) return;
      models.delete(model.id);
      for (const view of [...model.views]) removeView(view.el);
      model.emit("destroy");
    } else if (message.kind === "show") {
      showBundle(message.bundle || {}, message.cell);
    }
  }

  // Once a first visit's app is drawn, a second worker prepares an interpreter for the next
  // visit of any app of the site, while the learner reads (worker.js says how): not where the
  // browser keeps nothing for the page, nor where the visitor asked to save data.
  function prepareForNextTime() {
    const saving = navigator.connection && navigator.connection.saveData;
    if (!site.prepared || !window.caches || saving) return;
    const later = window.requestIdleCallback || ((callback) => setTimeout(callback, 1000));
    later(() => {
      const helper = new Worker(at(site.worker));
      helper.onmessage = (event) => {
        if ((event.data || {}).kind !== "prepared") return;
        window.tricklabPrepared = Boolean(event.data.kept);
        helper.terminate();
      };
      helper.onerror = (event) => {
        event.preventDefault();
        helper.terminate();
      };
      helper.postMessage({
        kind: "prepare",
        runtime: at("static/pyodide/"),
        wheels: site.wheels.map(at),
        prepared: site.prepared,
        ...booting(),
      });
    }, { timeout: 3000 });
  }

  function fromWorker(event) {
    const message = event.data || {};
    if (message.kind === "bridge") fromBridge(message.text);
    else if (message.kind === "progress") loading()?.stage(message.words || (window.TRICKLAB_LOADING || {}).coming, message.percent);
    else if (message.kind === "ready") {
      // how the start went, for the site's benchmark (benchmarks/site.py) and the curious
      window.tricklabStart = { restored: message.restored, timings: message.timings };
      loading()?.stage("Almost ready…", 95);
      if (!message.restored) prepareForNextTime();
    } else if (message.kind === "retry") {
      worker.terminate(); // its prepared interpreter could not be restored: Python starts afresh
      startWorker();
    } else if (message.kind === "failed") failed(message.text);
  }

  if (runsPython) startWorker();
})();
