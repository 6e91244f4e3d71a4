/* prefcalc serve: what the watcher and the scorer pages share. No external code. */
"use strict";

const Prefcalc = (() => {
  const SUITS = { s: "♠", c: "♣", d: "♦", h: "♥", nt: "БК" };
  const state = { version: null, method: "pairwise", game: null, seats: null, listeners: [] };

  async function getJSON(url) {
    const r = await fetch(url, { cache: "no-store" });
    const data = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function number(v) {
    // exact values come as JSON numbers: show at most two decimals (2/3 → 0.67)
    return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
  }

  function signed(v) {
    return (v > 0 ? "+" : "") + number(v);
  }

  function renderStatus(game) {
    const parts = [game.convention, "to " + game.target, game.deals + (game.deals === 1 ? " deal" : " deals")];
    if (game.finished) parts.push("finished");
    else {
      parts.push(game.next_dealer + " deals next");
      if (game.lowest_contract > 6) parts.push("lowest contract " + game.lowest_contract);
    }
    if (game.passes_streak) parts.push("all-pass ×" + game.passes_streak);
    document.getElementById("status").textContent = parts.join(" · ");
    document.body.dataset.deals = String(game.deals);
  }

  const COLUMNS = { pool: "pool", mountain: "mountain", whists: "whists" };

  function renderLast(items) {
    const head = document.getElementById("last-deal");
    const list = document.getElementById("last-writes");
    if (!head || !list) return;
    list.replaceChildren();
    if (!items.length) {
      head.textContent = "no deals recorded yet";
      head.className = "muted";
      return;
    }
    const d = items[items.length - 1];
    head.className = "";
    head.textContent = "№" + d.number + (d.dealer ? " (" + d.dealer + " dealt): " : ": ") + d.notation;
    if (!d.writes.length) list.append(el("li", "nothing written", "muted"));
    for (const w of d.writes) {
      const where = (COLUMNS[w.column] || w.column) + (w.on ? " on " + w.on : "");
      list.append(el("li", w.player + " " + where + " " + signed(w.amount) + (w.reason ? " — " + w.reason : "")));
    }
  }

  function renderSettle(s) {
    const body = document.querySelector("#money tbody");
    const pays = document.getElementById("payments");
    if (!body || !pays) return;
    body.replaceChildren();
    for (const p of s.players) {
      const tr = el("tr");
      tr.append(el("td", p.name), el("td", signed(p.whists)), el("td", signed(p.money) + (s.currency ? " " + s.currency : "")));
      body.append(tr);
    }
    pays.replaceChildren();
    if (!s.payments.length) pays.append(el("li", "nobody pays anybody", "muted"));
    for (const p of s.payments) {
      pays.append(el("li", p.from + " pays " + p.to + " " + p.amount + (s.currency ? " " + s.currency : "")));
    }
  }

  async function refresh() {
    const method = encodeURIComponent(state.method);
    const wantSettle = !!document.getElementById("money");
    const [game, svg, last, seats, settle] = await Promise.all([
      getJSON("/api/game"),
      fetch("/sheet.svg", { cache: "no-store" }).then((r) => (r.ok ? r.text() : "")),
      getJSON("/api/log?last=1"),
      getJSON("/api/seats"),
      wantSettle ? getJSON("/api/settle?method=" + method) : Promise.resolve(null),
    ]);
    state.game = game;
    state.seats = seats;
    renderStatus(game);
    if (svg) document.getElementById("sheet").innerHTML = svg; // drawn by the server, every name escaped
    renderLast(last);
    if (settle) renderSettle(settle);
    for (const fn of state.listeners) fn(game, seats);
    document.body.dataset.version = state.version || "";
  }

  let pending = null;
  function schedule() {
    // one refresh at a time; a change during a refresh gets one more after it
    if (pending) { pending.again = true; return; }
    pending = { again: false };
    refresh()
      .catch((e) => console.warn("refresh failed:", e))
      .finally(() => {
        const again = pending.again;
        pending = null;
        if (again) schedule();
      });
  }

  function connect() {
    const live = document.getElementById("live");
    const source = new EventSource("/api/events");
    source.addEventListener("open", () => { live.textContent = "live"; live.classList.remove("off"); });
    source.addEventListener("error", () => { live.textContent = "reconnecting"; live.classList.add("off"); });
    source.addEventListener("ledger", (ev) => {
      let data = {};
      try { data = JSON.parse(ev.data); } catch (e) { /* a ping or garbage: refresh anyway */ }
      if (data.version && data.version === state.version) return;
      state.version = data.version || null;
      schedule();
    });
  }

  function start() {
    document.querySelectorAll("[data-method]").forEach((b) => {
      b.addEventListener("click", () => {
        state.method = b.dataset.method;
        document.querySelectorAll("[data-method]").forEach((o) => {
          o.classList.toggle("on", o === b);
          o.setAttribute("aria-pressed", o === b ? "true" : "false");
        });
        schedule();
      });
    });
    schedule();
    connect();
  }

  return { SUITS, state, el, getJSON, schedule, start };
})();
