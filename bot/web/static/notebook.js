// The detective's notebook as a Telegram Mini App. Every word comes from the server
// (GET api/sheet); the page only lays the grid out and saves the player's own marks
// (POST api/mark). Telegram's script is optional: without it, initData is read from the
// URL's fragment (or query) `tgWebAppData`, as Telegram passes it.
"use strict";

(function () {
  const GLYPHS = { has: "✓", lacks: "✗" };
  const OWN = { yes: "+", no: "−", maybe: "?" };
  const CHOICES = ["yes", "no", "maybe", "clear"];
  const STORED = "whodunit.initData";
  const game = new URLSearchParams(location.search).get("game") || "";
  const $ = (id) => document.getElementById(id);
  let initData = "";
  let page = null;
  let editing = null; // {card, owner}
  let themed = false; // listening to Telegram's theme changes

  function telegram() {
    return window.Telegram && window.Telegram.WebApp ? window.Telegram.WebApp : null;
  }

  function findInitData() {
    const tg = telegram();
    if (tg && tg.initData) return tg.initData;
    for (const part of [location.hash.slice(1), location.search.slice(1)]) {
      const found = new URLSearchParams(part).get("tgWebAppData");
      if (found) {
        try { sessionStorage.setItem(STORED, found); } catch (e) { /* private mode */ }
        return found;
      }
    }
    try { return sessionStorage.getItem(STORED) || ""; } catch (e) { return ""; }
  }

  function onTelegram() {
    const tg = telegram();
    if (!tg) return;
    const scheme = () => { document.documentElement.dataset.scheme = tg.colorScheme || ""; };
    scheme();
    if (!themed) {
      themed = true;
      tg.onEvent("themeChanged", scheme);
    }
    tg.ready();
    tg.expand();
  }

  function telegramSettled() {
    // Resolves once Telegram's script has loaded or failed (or after a short wait).
    const script = $("telegram-script");
    if (telegram() || !script) return Promise.resolve();
    return new Promise((resolve) => {
      script.addEventListener("load", resolve);
      script.addEventListener("error", resolve);
      setTimeout(resolve, 3000);
    });
  }

  async function call(path, options) {
    const headers = { Authorization: "tma " + initData };
    if (options && options.body) headers["Content-Type"] = "application/json";
    const response = await fetch("api/" + path, Object.assign({ cache: "no-store" }, options, { headers }));
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) {
      const error = new Error(body && body.message ? body.message : "HTTP " + response.status);
      error.status = response.status;
      throw error;
    }
    return body;
  }

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined && text !== null) made.textContent = text;
    return made;
  }

  function problem(text) {
    const box = $("problem");
    box.textContent = text;
    box.hidden = !text;
  }

  function cellAt(card, owner) {
    for (const section of page.sections) {
      for (const row of section.rows) {
        if (row.card === card) return row.cells.find((c) => c.owner === owner) || null;
      }
    }
    return null;
  }

  function rowOf(card) {
    for (const section of page.sections) {
      const row = section.rows.find((r) => r.card === card);
      if (row) return row;
    }
    return null;
  }

  function paintCell(td, cell) {
    td.className = "cell " + cell.state;
    td.dataset.state = cell.state;
    td.dataset.mark = cell.mark || "";
    td.replaceChildren();
    if (cell.state !== "open") {
      td.appendChild(element("span", "glyph", GLYPHS[cell.state]));
      td.removeAttribute("tabindex");
      td.removeAttribute("role");
      return;
    }
    td.setAttribute("role", "button");
    td.tabIndex = 0;
    if (cell.mark) {
      td.classList.add("own", "own-" + cell.mark);
      td.appendChild(element("span", "glyph", OWN[cell.mark]));
    }
    if (cell.percent !== null && cell.percent !== undefined) {
      td.appendChild(element("span", "percent", cell.percent + "%"));
    }
    if (cell.note) {
      td.classList.add("noted");
      td.title = cell.note;
    } else {
      td.removeAttribute("title");
    }
    if (cell.pending) td.classList.add("pending");
  }

  function render() {
    document.documentElement.lang = page.language || "";
    $("title").textContent = page.title;
    const table = $("grid");
    table.replaceChildren();
    const head = element("thead");
    const top = element("tr");
    top.appendChild(element("th", "corner"));
    for (const column of page.columns) {
      const th = element("th", "column" + (column.you ? " you" : "") + (column.envelope ? " envelope" : ""));
      th.scope = "col";
      th.appendChild(element("span", null, column.name));
      top.appendChild(th);
    }
    head.appendChild(top);
    table.appendChild(head);
    for (const section of page.sections) {
      const body = element("tbody");
      const band = element("tr", "section");
      const title = element("th", null, section.title);
      title.colSpan = page.columns.length + 1;
      title.scope = "colgroup";
      band.appendChild(title);
      body.appendChild(band);
      for (const row of section.rows) {
        const flags = (row.hand ? " hand" : "") + (row.seen ? " seen" : "") + (row.solved ? " solved" : "");
        const tr = element("tr", "row" + flags);
        tr.dataset.card = row.card;
        const name = element("th", "card", row.name);
        name.scope = "row";
        tr.appendChild(name);
        row.cells.forEach((cell, i) => {
          const td = element("td");
          td.dataset.card = row.card;
          td.dataset.owner = String(cell.owner);
          if (page.columns[i].envelope) td.dataset.envelope = "1";
          paintCell(td, cell);
          tr.appendChild(td);
        });
        body.appendChild(tr);
      }
      table.appendChild(body);
    }
    $("hint").textContent = page.words.hint;
    renderLegend();
    renderList("deductions", page.words.deductions, page.deductions);
    renderList("facts", page.words.facts, page.facts);
    $("footer").textContent = page.footer || "";
    $("editor-note").maxLength = page.words.max_note;
    $("editor-note").placeholder = page.words.note;
    $("editor-close").setAttribute("aria-label", page.words.cancel);
    $("app").setAttribute("aria-busy", "false");
    document.body.dataset.ready = "1";
  }

  function renderLegend() {
    const legend = $("legend");
    legend.replaceChildren();
    const samples = {
      has: GLYPHS.has, lacks: GLYPHS.lacks, open: "", own_hand: "Aa", seen: "👁", solved: "",
      own: OWN.yes + OWN.no + OWN.maybe, odds: "%",
    };
    for (const entry of page.legend) {
      const item = element("li");
      item.appendChild(element("span", "sample cell " + entry.kind, samples[entry.kind]));
      item.appendChild(element("span", null, entry.text));
      legend.appendChild(item);
    }
  }

  function renderList(id, heading, lines) {
    const section = $(id);
    section.hidden = !lines.length;
    section.querySelector("h2").textContent = heading;
    const list = section.querySelector("ul");
    list.replaceChildren(...lines.map((line) => element("li", null, line)));
  }

  function repaint(card, owner) {
    const td = document.querySelector('td[data-card="' + CSS.escape(card) + '"][data-owner="' + owner + '"]');
    const cell = cellAt(card, owner);
    if (td && cell) paintCell(td, cell);
    if (editing && editing.card === card && editing.owner === owner) paintEditor();
  }

  async function save(card, owner, mark, note) {
    const cell = cellAt(card, owner);
    const before = { mark: cell.mark, note: cell.note };
    const mine = (cell.sequence || 0) + 1;
    Object.assign(cell, { mark: mark, note: note || null, pending: true, sequence: mine });
    repaint(card, owner);
    try {
      const answer = await call("mark", {
        method: "POST",
        body: JSON.stringify({ game: Number(game), card: card, owner: owner, mark: mark, note: note || null }),
      });
      if (cell.sequence !== mine) return; // a later change decides
      Object.assign(cell, { mark: answer.cell.mark, note: answer.cell.note, pending: false });
      problem("");
      const tg = telegram();
      if (tg && tg.HapticFeedback && tg.isVersionAtLeast && tg.isVersionAtLeast("6.1")) tg.HapticFeedback.selectionChanged();
    } catch (error) {
      if (cell.sequence !== mine) return;
      Object.assign(cell, before, { pending: false });
      problem(page.words.not_saved + " " + error.message);
    }
    repaint(card, owner);
  }

  function openEditor(card, owner) {
    editing = { card: card, owner: owner };
    const column = page.columns.find((c) => c.owner === owner);
    $("editor-title").textContent = page.words.cell.replace("{card}", rowOf(card).name).replace("{owner}", column.name);
    $("editor-note").value = cellAt(card, owner).note || "";
    paintEditor();
    $("editor").hidden = false;
  }

  function paintEditor() {
    const cell = cellAt(editing.card, editing.owner);
    const marks = $("editor-marks");
    marks.replaceChildren();
    for (const choice of CHOICES) {
      const button = element("button", "choice choice-" + choice);
      button.type = "button";
      button.dataset.mark = choice;
      const chosen = choice === "clear" ? !cell.mark && !cell.note : cell.mark === choice;
      button.setAttribute("aria-pressed", chosen ? "true" : "false");
      button.appendChild(element("span", "glyph", OWN[choice] || "○"));
      button.appendChild(element("span", null, page.words.marks[choice]));
      marks.appendChild(button);
    }
  }

  function closeEditor() {
    if (!editing) return;
    const cell = cellAt(editing.card, editing.owner);
    const note = $("editor-note").value.trim();
    if (note !== (cell.note || "")) save(editing.card, editing.owner, cell.mark, note);
    editing = null;
    $("editor").hidden = true;
  }

  function wire() {
    $("grid").addEventListener("click", (event) => {
      const td = event.target.closest("td[data-state='open']");
      if (td) openEditor(td.dataset.card, Number(td.dataset.owner));
    });
    $("grid").addEventListener("keydown", (event) => {
      const td = event.target.closest("td[data-state='open']");
      if (td && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        openEditor(td.dataset.card, Number(td.dataset.owner));
      }
    });
    $("editor-marks").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-mark]");
      if (!button || !editing) return;
      const choice = button.dataset.mark;
      const note = choice === "clear" ? "" : $("editor-note").value.trim();
      const { card, owner } = editing;
      editing = null;
      $("editor").hidden = true;
      save(card, owner, choice === "clear" ? null : choice, note);
    });
    $("editor-note").addEventListener("keydown", (event) => {
      if (event.key === "Enter") closeEditor();
    });
    $("editor-close").addEventListener("click", closeEditor);
    $("editor").addEventListener("click", (event) => {
      if (event.target === $("editor")) closeEditor();
    });
  }

  async function start() {
    wire();
    onTelegram();
    initData = findInitData();
    if (!initData) {
      await telegramSettled();
      onTelegram();
      initData = findInitData();
    }
    try {
      page = await call("sheet?game=" + encodeURIComponent(game));
      render();
    } catch (error) {
      problem(error.message);
      $("app").setAttribute("aria-busy", "false");
    }
  }

  const script = $("telegram-script");
  if (script) script.addEventListener("load", onTelegram);
  start();
})();
