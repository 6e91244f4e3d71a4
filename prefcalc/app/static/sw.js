/* prefcalc app: the service worker. It keeps every file of the app (the list below is written
   by `prefcalc app build`, with each file's sha256) in one cache named after the build, so
   the app starts with no network at all. A file that has a gzip copy is fetched compressed
   and kept decompressed: a phone moves the fewest bytes from any static server, one that
   compresses nothing too. The install fetches every file, those the engine installs only
   once it is ready (pydantic) included: an app that is installed works offline, whatever it
   is asked next. A file whose bytes are not the listed ones fails the install (the previous
   build, if any, stays in charge). The install says how far it is to the pages:
   {type: "progress", done, total} (bytes moved). Nothing is fetched from another origin,
   ever, and nothing here names the app's own address: its scope is its folder. */
"use strict";

const BUILD = __BUILD__;
const FILES = __FILES__;
const CACHE = "prefcalc-app-" + BUILD;
const PREFIX = "prefcalc-app-";

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function where(file) {
  return new URL(file.url, self.registration.scope).href;
}

async function fetchOne(file) {
  const url = where(file);
  const answer = await fetch(file.gz ? url + ".gz" : url, { cache: "no-cache", credentials: "same-origin" });
  if (!answer.ok) throw new Error(file.url + ": " + answer.status);
  // a server may already have undone the gzip (Content-Encoding); the magic bytes tell
  let bytes = new Uint8Array(await answer.arrayBuffer());
  if (file.gz && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const plain = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(plain).arrayBuffer());
  }
  const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
  if (bytes.length !== file.size || digest !== file.sha256) {
    throw new Error(file.url + ": not the file of this build");
  }
  const headers = { "Content-Type": file.type, "Content-Length": String(bytes.length) };
  return [url, new Response(bytes, { headers })];
}

async function tell(message) {
  for (const client of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
    client.postMessage(message);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const have = new Set((await cache.keys()).map((r) => r.url));
    const todo = FILES.filter((f) => !have.has(where(f)));
    const total = todo.reduce((sum, f) => sum + (f.gz || f.size), 0);
    let done = 0;
    // a few at a time: a phone on a slow Wi-Fi gets steady progress, not 20 stalled requests
    let next = 0;
    async function lane() {
      while (next < todo.length) {
        const file = todo[next++];
        const [url, response] = await fetchOne(file);
        await cache.put(url, response);
        done += file.gz || file.size;
        tell({ type: "progress", done, total });
      }
    }
    tell({ type: "progress", done, total });
    await Promise.all([lane(), lane(), lane(), lane()]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    url.search = "";
    url.hash = "";
    const key = request.mode === "navigate" && (url.pathname === scope.pathname || url.pathname.endsWith("/index.html"))
      ? new URL("index.html", scope).href
      : url.href;
    const hit = await cache.match(key);
    if (hit) return hit;
    return fetch(request);
  })());
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "build") {
    event.source && event.source.postMessage({ type: "build", build: BUILD, files: FILES.length });
  }
});
