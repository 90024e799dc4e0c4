// The Python of a tricklab app page in the static site: Pyodide in this Web Worker, with tricklab
// and the widgets' pure-Python packages, and no Jupyter kernel, IPython or notebook front end.
//
// The page (app.js) starts this worker as its first script and sends {kind: "start", runtime,
// wheels, snapshot, cells}: Pyodide's folder, the wheels' addresses, the interpreter snapshot's
// (or null) and the app notebook's code cells. The wheels start downloading at once, while the
// interpreter starts; they are unpacked into site-packages as they arrive, the widgets' comm is
// carried to the page (tricklab/bridge.py), and the cells run as a notebook runs them.
//
// To the page: {kind: "progress", percent, words} while starting, {kind: "bridge", text} for each
// widget message (JSON text, read by the page's widget manager), {kind: "ready", restored,
// timings} once the cells have run (whether a snapshot was restored; when each stage ended), {kind: "failed", text} when something stops the app. From the page: {kind: "start"}
// once, then {kind: "msg", text}: what the learner did, for a widget.
"use strict";

let python = null; // a promise of the bridge's receive function, once the app runs

self.onmessage = (event) => {
  const message = event.data || {};
  if (message.kind === "start" && python === null) {
    python = start(message).catch((error) => {
      postMessage({ kind: "failed", text: String((error && error.message) || error) });
      return null;
    });
  } else if (message.kind === "msg" && python !== null && typeof message.text === "string") {
    python.then((receive) => {
      if (!receive) return;
      try {
        receive(message.text);
      } catch (error) {
        // a message the bridge refuses (tricklab.bridge.BridgeError) changes nothing; say why
        console.warn("tricklab: a message from the page was refused:", String((error && error.message) || error));
      }
    });
  }
};

const progress = (percent, words) => postMessage({ kind: "progress", percent, words });

async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.arrayBuffer();
}

async function start({ runtime, wheels, snapshot, cells }) {
  const timings = {}; // milliseconds since the worker started, at the end of each stage
  const mark = (name) => { timings[name] = Math.round(performance.now()); };
  progress(5, "Starting…");
  // every download starts now: the wheels and the snapshot come while the runtime starts
  const arriving = wheels.map(download);
  const restoring = snapshot ? download(snapshot).catch(() => null) : Promise.resolve(null);
  importScripts(runtime + "pyodide.js");
  const saved = await restoring;
  let py = null;
  if (saved) {
    try {
      py = await loadPyodide({ indexURL: runtime, _loadSnapshot: new Uint8Array(saved) });
    } catch (error) {
      console.warn("tricklab: the prepared interpreter could not be restored; starting afresh:", String(error));
      py = null;
    }
  }
  const restored = py !== null;
  if (!restored) py = await loadPyodide({ indexURL: runtime });
  mark("runtime");
  progress(45, "Unpacking the cards…");
  let unpacked = 0;
  for (const buffer of await Promise.all(arriving)) {
    py.unpackArchive(buffer, "wheel"); // into site-packages
    unpacked += 1;
    progress(45 + Math.round((25 * unpacked) / wheels.length), "Unpacking the cards…");
  }
  mark("wheels");
  progress(70, "Dealing the cards…");
  const bridge = py.pyimport("tricklab.bridge");
  bridge.install((text) => postMessage({ kind: "bridge", text }));
  const namespace = py.globals.get("dict")();
  for (const cell of cells) bridge.run_cell(cell, namespace);
  mark("app");
  postMessage({ kind: "ready", restored, timings });
  return (text) => bridge.receive(text);
}
