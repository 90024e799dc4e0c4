// The Python of a tricklab app page in the static site: Pyodide in this Web Worker, with tricklab
// and the widgets' pure-Python packages, and no Jupyter kernel, IPython or notebook front end.
//
// The page (app.js) starts this worker as its first script and sends {kind: "start", runtime,
// wheels, prepared, boot, dataclasses, cells}: Pyodide's folder, the wheels' addresses, the key
// of the build's prepared interpreter (below), what Python runs first (boot.py) and the code it
// gives the dataclasses, and the app notebook's cells ({code} or, for text, {html}). The wheels start downloading
// at once, while the interpreter starts; they go on sys.path as they are (Python imports from a
// zip), the widgets' comm is carried to the page (tricklab/bridge.py), and the cells run as a
// notebook runs them.
//
// To the page: {kind: "progress", percent, words} while starting (no words: the app's own), {kind: "bridge", text} for each
// widget message (JSON text, read by the page's widget manager), {kind: "ready", restored,
// timings} once the cells have run (whether a prepared interpreter was restored; when each stage
// ended, in milliseconds since the worker started), {kind: "failed", text} when something stops
// the app, {kind: "retry"} when a prepared interpreter could not be restored (it is dropped; the
// page starts a fresh worker). From the page: {kind: "start"} once, then {kind: "msg", text}:
// what the learner did, for a widget.
//
// The prepared interpreter. After a first visit's app is drawn, the page starts a second worker
// of this script with {kind: "prepare", runtime, wheels, prepared, boot, dataclasses}: it starts Python, puts the
// wheels on sys.path, imports every module a page runs (tricklab.bridge.prepare) and keeps a
// snapshot of Python's memory in the browser (Cache Storage, where the page's origin has it),
// then answers {kind: "prepared", kept} and is done. Every later visit of any app of the site
// restores that snapshot instead of starting Python and importing again. It is kept under the
// build's key, so a new build of the site never restores an old one's; one that cannot be
// restored is dropped, and Python starts afresh.
"use strict";

let python = null; // a promise of the bridge's receive function, once the app runs

self.onmessage = (event) => {
  const message = event.data || {};
  if (message.kind === "start" && python === null) {
    python = start(message).catch((error) => {
      postMessage({ kind: "failed", text: said(error) });
      return null;
    });
  } else if (message.kind === "prepare" && python === null) {
    python = Promise.resolve(null);
    prepare(message).then(
      (kept) => postMessage({ kind: "prepared", kept }),
      (error) => {
        console.warn("tricklab: no prepared interpreter this time:", said(error));
        postMessage({ kind: "prepared", kept: false });
      },
    );
  } else if (message.kind === "msg" && python !== null && typeof message.text === "string") {
    python.then((receive) => {
      if (!receive) return;
      try {
        receive(message.text);
      } catch (error) {
        // a message the bridge refuses (tricklab.bridge.BridgeError) changes nothing; say why
        console.warn("tricklab: a message from the page was refused:", said(error));
      }
    });
  }
};

// where the wheels are put, each a zip on sys.path (the same in a prepared interpreter)
const WHEELS = "/lib/tricklab-wheels";
const SNAPSHOTS = "tricklab-prepared";

const progress = (percent, words) => postMessage({ kind: "progress", percent, words });
const said = (error) => String((error && error.message) || error);

async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.arrayBuffer();
}

/** Write the wheels (their bytes, as they arrive) where sys.path has them; returns their paths. */
async function placeWheels(py, wheels, arriving) {
  py.FS.mkdirTree(WHEELS);
  const paths = [];
  for (const [i, buffer] of (await Promise.all(arriving)).entries()) {
    const path = `${WHEELS}/${wheels[i].split("/").pop()}`;
    py.FS.writeFile(path, new Uint8Array(buffer));
    paths.push(path);
  }
  return paths;
}

const snapshotAddress = (key) => new URL(`${SNAPSHOTS}/${encodeURIComponent(key)}`, self.location.href).href;

// what a Pyodide snapshot starts with (its first four bytes, little-endian)
const SNAPSHOT_MAGIC = 1886286592;

async function savedSnapshot(key) {
  if (!key || !self.caches) return null;
  try {
    const found = await (await caches.open(SNAPSHOTS)).match(snapshotAddress(key));
    const bytes = found ? new Uint8Array(await found.arrayBuffer()) : null;
    if (bytes && (bytes.length < 1 << 20 || new DataView(bytes.buffer).getUint32(0, true) !== SNAPSHOT_MAGIC)) {
      await caches.delete(SNAPSHOTS); // spoilt: dropped, and a normal start
      return null;
    }
    return bytes;
  } catch {
    return null; // storage refused (a private window, a full disk): a normal start
  }
}

// where the code of the dataclasses' sources goes (boot.py)
const DATACLASS_CODE = "/lib/tricklab-dataclasses.bin";

async function downloadText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.text();
}

/** Before any module of tricklab: the dataclasses run the code the build kept (boot.py). */
async function boot(py, booting) {
  const [text, code] = await booting;
  if (text === null || code === null) return;
  py.FS.writeFile(DATACLASS_CODE, new Uint8Array(code));
  py.runPython(`${text}\nuse_dataclass_code(${JSON.stringify(DATACLASS_CODE)})`);
}

const fetchBoot = (bootFile, dataclasses) =>
  bootFile && dataclasses ? Promise.all([downloadText(bootFile), download(dataclasses)]) : Promise.resolve([null, null]);

async function start({ runtime, wheels, prepared, boot: bootFile, dataclasses, cells }) {
  const timings = {};
  const mark = (name) => {
    timings[name] = Math.round(performance.now());
  };
  progress(5, ""); // the app's own words: "Getting the table ready…"
  // every download starts now: the wheels come while the runtime starts
  const arriving = wheels.map(download);
  const booting = fetchBoot(bootFile, dataclasses);
  importScripts(runtime + "pyodide.js");
  const saved = await savedSnapshot(prepared);
  let py = null;
  if (saved) {
    try {
      py = await loadPyodide({ indexURL: runtime, _loadSnapshot: saved });
    } catch (error) {
      // dropped, and the page starts a fresh worker: this one's runtime may be half set up
      console.warn("tricklab: the prepared interpreter could not be restored; starting afresh:", said(error));
      await caches.delete(SNAPSHOTS).catch(() => false);
      postMessage({ kind: "retry" });
      return null;
    }
  }
  const restored = py !== null;
  if (!restored) py = await loadPyodide({ indexURL: runtime });
  mark("runtime");
  progress(45, "Unpacking the cards…");
  const paths = await placeWheels(py, wheels, arriving);
  // a restored interpreter has them on sys.path already, and its own random numbers are drawn anew
  if (restored) py.runPython("import random; random.seed()");
  else {
    await boot(py, booting);
    py.runPython(`import sys; sys.path[0:0] = ${JSON.stringify(paths)}`);
  }
  mark("wheels");
  progress(70, "");
  const bridge = py.pyimport("tricklab.bridge");
  bridge.install((text) => postMessage({ kind: "bridge", text }));
  const namespace = py.globals.get("dict")();
  for (const [i, cell] of cells.entries()) {
    if (typeof cell.code === "string") bridge.run_cell(cell.code, namespace, i);
  }
  mark("app");
  postMessage({ kind: "ready", restored, timings });
  return (text) => bridge.receive(text);
}

async function prepare({ runtime, wheels, prepared, boot: bootFile, dataclasses }) {
  if (!prepared || !self.caches) return false;
  const arriving = wheels.map(download); // from the browser's cache: the page has just loaded them
  const booting = fetchBoot(bootFile, dataclasses);
  importScripts(runtime + "pyodide.js");
  const py = await loadPyodide({ indexURL: runtime, _makeSnapshot: true });
  const paths = await placeWheels(py, wheels, arriving);
  await boot(py, booting);
  // nothing of the page is referenced before the snapshot: no bridge, no cell
  py.runPython(`import sys; sys.path[0:0] = ${JSON.stringify(paths)}\nfrom tricklab import bridge\nbridge.prepare()`);
  const bytes = py.makeMemorySnapshot();
  const cache = await caches.open(SNAPSHOTS);
  for (const old of await cache.keys()) await cache.delete(old); // one build's snapshot at a time
  await cache.put(snapshotAddress(prepared), new Response(bytes));
  return true;
}
