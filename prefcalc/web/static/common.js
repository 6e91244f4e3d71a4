/* prefcalc serve: what the watcher and the scorer pages share. No external code. */
"use strict";

const Prefcalc = (() => {
  const WORDS = (() => {
    const node = document.getElementById("words");
    try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
  })();

  // a message in the page's language (the server renders the dictionary into the page)
  function t(text, values) {
    let out = typeof WORDS[text] === "string" ? WORDS[text] : text;
    // a name's Russian case ({player:acc}) from the players' forms the page was given
    // (WORDS.cases, see prefcalc.cases.forms); without them the name stays as typed
    for (const [k, v] of Object.entries(values || {})) {
      out = out.replace(new RegExp("\\{" + k + "(?::(nom|gen|dat|acc|ins|pre))?\\}", "g"), (m, c) => {
        const forms = c && WORDS.cases && WORDS.cases[String(v)];
        return forms && typeof forms[c] === "string" ? forms[c] : String(v);
      });
    }
    return out;
  }

  function deals(n) {
    const forms = WORDS["{n} deals"];
    let form = n === 1 ? "{n} deal" : "{n} deals";
    if (Array.isArray(forms)) {
      const ru = WORDS.lang === "ru";
      const k = !ru ? (n === 1 ? 0 : 1)
        : n % 10 === 1 && n % 100 !== 11 ? 0
        : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2;
      form = forms[Math.min(k, forms.length - 1)];
    }
    return form.split("{n}").join(String(n));
  }

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
    const parts = [t(game.convention), t("to {target}", { target: game.target }), deals(game.deals)];
    if (game.finished) parts.push(t("finished"));
    else {
      parts.push(t("{player} deals next", { player: game.next_dealer }));
      if (game.lowest_contract > 6) parts.push(t("lowest contract {level}", { level: game.lowest_contract }));
    }
    if (game.passes_streak) parts.push(t("all-pass ×{n}", { n: game.passes_streak }));
    document.getElementById("status").textContent = parts.join(" · ");
    document.body.dataset.deals = String(game.deals);
  }


  function renderLast(items) {
    const head = document.getElementById("last-deal");
    const list = document.getElementById("last-writes");
    if (!head || !list) return;
    list.replaceChildren();
    if (!items.length) {
      head.textContent = t("no deals recorded yet");
      head.className = "muted";
      return;
    }
    const d = items[items.length - 1];
    head.className = "";
    head.textContent = (d.dealer ? t("№{number} ({dealer} dealt): ", { number: d.number, dealer: d.dealer }) : "№" + d.number + ": ") + d.notation;
    if (!d.writes.length) list.append(el("li", t("nothing written"), "muted"));
    for (const w of d.writes) {
      const where = w.on ? t("whists on {player}", { player: w.on }) : t(w.column);
      const reason = w.said || w.reason;
      list.append(el("li", w.player + " " + where + " " + signed(w.amount) + (reason ? " — " + reason : "")));
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
    if (!s.payments.length) pays.append(el("li", t("nobody pays anybody"), "muted"));
    for (const p of s.payments) {
      const amount = p.amount + (s.currency ? " " + s.currency : "");
      pays.append(el("li", t("{payer} pays {payee} {amount}", { payer: p.from, payee: p.to, amount })));
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
    source.addEventListener("open", () => { live.textContent = t("live"); live.classList.remove("off"); });
    source.addEventListener("error", () => { live.textContent = t("reconnecting"); live.classList.add("off"); });
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

  return { SUITS, state, el, t, getJSON, schedule, start };
})();
