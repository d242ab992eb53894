// Web Worker that runs regime_core in Pyodide, so the page never waits for Python.
// Protocol: {id, request} in (request is JSON text), {id, response} out; {type: "ready"} or
// {type: "failed", reason} once, after start-up. Every file comes from this site's origin.
const manifestUrl = new URL("./runtime.json", import.meta.url);

async function fetchOk(url, what) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${what} returned HTTP ${response.status}`);
  return response;
}

async function boot() {
  const manifest = await (await fetchOk(manifestUrl, "runtime.json")).json();
  const indexURL = new URL(manifest.pyodide, manifestUrl).href;
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL });
  const wheel = await (await fetchOk(new URL(manifest.wheel, manifestUrl), "the regime_core wheel")).arrayBuffer();
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  return pyodide.pyimport("regime_core.api").handle;
}

function firstLine(error) {
  const text = String((error && error.message) || error || "unknown error").split("\n")[0];
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

const ready = boot();
ready.then(
  () => postMessage({ type: "ready" }),
  (error) => postMessage({ type: "failed", reason: firstLine(error) }),
);

addEventListener("message", async (event) => {
  const { id, request } = event.data;
  try {
    const handle = await ready;
    postMessage({ id, response: handle(request) });
  } catch (error) {
    postMessage({ id, response: JSON.stringify({ ok: false, field: "", error: firstLine(error) }) });
  }
});
