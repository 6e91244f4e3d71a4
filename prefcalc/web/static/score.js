/* The scorer page: touch controls that build a play line, and the line field. */
"use strict";
(() => {
  const P = Prefcalc;
  const $ = (id) => document.getElementById(id);
  const readOnly = document.body.dataset.readOnly === "true";

  // the token: from the link's fragment (#token=...), or ?token=... moved into the fragment
  function findToken() {
    const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
    const query = new URLSearchParams(location.search);
    let token = hash.get("token") || query.get("token") || sessionStorage.getItem("prefcalc-token") || "";
    if (query.get("token")) history.replaceState(null, "", location.pathname + "#token=" + encodeURIComponent(token));
    if (token) sessionStorage.setItem("prefcalc-token", token);
    return token;
  }
  let token = findToken();
  if (!token && !readOnly) $("no-token").hidden = false;
  window.addEventListener("hashchange", () => {
    token = findToken();
    $("no-token").hidden = !!token || readOnly;
  });

  const b = { kind: "game", declarer: null, contract: null, tricks: null, defenders: {}, passes: {} };
  let players = [];
  let active = [];

  function quote(word) {
    return /^[^\s'"\\]+$/.test(word) ? word : "'" + word.replace(/'/g, "'\"'\"'") + "'";
  }

  function build() {
    if (b.kind === "passes") {
      if (!active.length || active.some((p) => b.passes[p] === undefined || b.passes[p] === "")) return "";
      return ["passes", ...active.map((p) => quote(p + "=" + b.passes[p]))].join(" ");
    }
    if (!b.declarer) return "";
    if (b.kind === "misere") {
      if (b.tricks === null) return "";
      return ["misere", quote(b.declarer), String(b.tricks)].join(" ");
    }
    if (!b.contract || b.tricks === null) return "";
    const words = ["game", quote(b.declarer), b.contract, String(b.tricks)];
    for (const p of active) {
      if (p === b.declarer) continue;
      const d = b.defenders[p];
      if (!d || !d.role) continue;
      words.push(quote(p + ":" + d.role + (d.role === "w" && d.tricks !== "" && d.tricks !== undefined ? d.tricks : "")));
    }
    return words.join(" ");
  }

  function choice(container, label, on, click, extra) {
    const btn = P.el("button", label);
    btn.type = "button";
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    if (on) btn.classList.add("on");
    if (extra) extra(btn);
    btn.addEventListener("click", click);
    container.append(btn);
    return btn;
  }

  function select(values, current, change, name) {
    const s = document.createElement("select");
    s.setAttribute("aria-label", name);
    for (const v of values) {
      const o = P.el("option", v === "" ? "–" : v);
      o.value = v;
      if (String(current ?? "") === v) o.selected = true;
      s.append(o);
    }
    s.addEventListener("change", () => change(s.value));
    return s;
  }

  const TRICKS = ["", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];

  function draw() {
    document.querySelectorAll("[role=tab]").forEach((t) => {
      const on = t.dataset.kind === b.kind;
      t.classList.toggle("on", on);
      t.setAttribute("aria-selected", on ? "true" : "false");
    });
    document.querySelectorAll("[data-for]").forEach((row) => {
      row.hidden = !row.dataset.for.split(" ").includes(b.kind);
    });
    $("declarer-row").hidden = b.kind === "passes";

    const decl = $("declarers");
    decl.replaceChildren();
    for (const p of active) choice(decl, p, p === b.declarer, () => { b.declarer = p; draw(); });

    const grid = $("contracts");
    grid.replaceChildren();
    for (let level = 6; level <= 10; level++) {
      for (const suit of ["s", "c", "d", "h", "nt"]) {
        const code = level + suit;
        choice(grid, level + P.SUITS[suit], b.contract === code, () => { b.contract = code; draw(); }, (btn) => {
          btn.dataset.contract = code;
          if (suit === "d" || suit === "h") btn.classList.add("red");
        });
      }
    }

    const tricks = $("tricks");
    tricks.replaceChildren();
    const options = b.kind === "game" ? ["-", ...TRICKS.slice(1)] : TRICKS.slice(1);
    for (const t of options) {
      choice(tricks, t === "-" ? P.t("not played") : t, String(b.tricks) === t, () => { b.tricks = t; draw(); }, (btn) => {
        btn.dataset.tricks = t;
        if (t === "-") btn.style.flexBasis = "100%";
      });
    }

    const defs = $("defenders");
    defs.replaceChildren();
    if (!b.declarer) defs.append(P.el("p", P.t("choose the declarer first"), "muted"));
    for (const p of b.declarer ? active : []) {
      if (p === b.declarer) continue;
      const d = (b.defenders[p] = b.defenders[p] || { role: null, tricks: "" });
      const row = P.el("div", null, "defender");
      row.dataset.player = p;
      row.append(P.el("span", p, "who"));
      const roles = P.el("div", null, "roles");
      for (const [role, label] of [["w", P.t("whist")], ["p", P.t("pass")], ["h", "½"]]) {
        choice(roles, label, d.role === role, () => { d.role = role; draw(); }, (btn) => {
          btn.dataset.role = role;
          btn.title = { w: P.t("whist"), p: P.t("pass"), h: P.t("half-whist") }[role];
        });
      }
      if (d.role === "w") roles.append(select(TRICKS, d.tricks, (v) => { d.tricks = v; draw(); }, P.t("{player}'s tricks", { player: p })));
      row.append(roles);
      defs.append(row);
    }

    const passes = $("passes");
    passes.replaceChildren();
    for (const p of active) {
      const row = P.el("div", null, "passer");
      row.dataset.player = p;
      row.append(P.el("span", p, "who"));
      row.append(select(TRICKS, b.passes[p], (v) => { b.passes[p] = v; draw(); }, P.t("{player}'s tricks", { player: p })));
      passes.append(row);
    }

    const line = build();
    $("preview").textContent = line || P.t("choose the deal above");
    $("record").disabled = readOnly || !line;
    $("edit").disabled = readOnly || !line || !$("edit-number").value;
  }

  function clearDeal() {
    b.declarer = null; b.contract = null; b.tricks = null; b.defenders = {}; b.passes = {};
  }

  async function send(line) {
    const err = $("error");
    const out = $("output");
    let data;
    let ok = false;
    try {
      const r = await fetch("/api/lines", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
        body: JSON.stringify({ line }),
      });
      data = await r.json().catch(() => ({ error: r.status + " " + r.statusText }));
      ok = r.ok;
    } catch (e) {
      data = { error: P.t("the server cannot be reached ({error})", { error: e.message }) };
    }
    if (ok) {
      err.hidden = true;
      err.textContent = "";
      out.textContent = data.output || P.t("done");
      out.hidden = false;
      out.scrollIntoView({ block: "nearest" });
      P.schedule();
    } else {
      err.textContent = data.error || P.t("refused");
      err.hidden = false;
      err.scrollIntoView({ block: "nearest" });
    }
    return ok;
  }

  document.querySelectorAll("[role=tab]").forEach((t) => t.addEventListener("click", () => { b.kind = t.dataset.kind; b.tricks = null; draw(); }));
  $("record").addEventListener("click", async () => { const line = build(); if (line && (await send(line))) { clearDeal(); draw(); } });
  $("edit").addEventListener("click", async () => {
    const n = $("edit-number").value;
    const line = build();
    if (n && line && (await send("edit " + n + " " + line))) { clearDeal(); $("edit-number").value = ""; draw(); }
  });
  $("edit-number").addEventListener("input", draw);
  $("line-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = $("line");
    if (!input.value.trim()) return;
    if (await send(input.value)) input.value = "";
  });
  document.querySelectorAll("[data-line]").forEach((btn) => btn.addEventListener("click", () => send(btn.dataset.line)));
  $("set-target").addEventListener("click", () => { const v = $("target").value.trim(); if (v) send("set target=" + v); });
  if (readOnly) document.querySelectorAll("#line-form button, [data-line], #set-target").forEach((x) => { x.disabled = true; });

  P.state.listeners.push((game, seats) => {
    const same = seats.players.join("\u0000") === players.join("\u0000");
    players = seats.players;
    active = seats.players.filter((p) => !seats.sitting_out.includes(p));
    if (!same) clearDeal();
    if (b.declarer && !active.includes(b.declarer)) b.declarer = null;
    if (!$("target").value) $("target").placeholder = String(game.target);
    draw();
  });
  draw();
  P.start();
})();
