// The lobby: open tables (join a seat or watch) and the form that creates a table.
"use strict";
(function () {
  const h = SK.h;
  const $ = (id) => document.getElementById(id);
  let games = [];

  const nameInput = $("name");
  nameInput.value = SK.getName();
  nameInput.addEventListener("change", () => SK.setName(nameInput.value.trim()));

  function needName() {
    const name = nameInput.value.trim();
    if (!name) {
      nameInput.focus();
      nameInput.classList.add("missing");
      throw new Error("Enter a display name first.");
    }
    SK.setName(name);
    return name;
  }

  async function loadTables() {
    const list = $("tables");
    let tables;
    try { tables = await SK.api("GET", "/api/tables"); }
    catch (e) { SK.fill(list, h("p.error", {}, e.message)); return; }
    const open = tables.filter((t) => t.status !== "finished");
    if (!open.length) { SK.fill(list, h("p.hint", {}, "No tables yet: create one below.")); return; }
    SK.fill(list, h("ul.tables", {}, open.map((t) => h("li.table-row", { dataset: { table: t.id } },
      h("b", {}, (SK.renderers[t.game] || { title: t.game }).title), ` · ${t.preset} · ${t.players} players · ${t.status} `,
      t.fixed_seed ? h("span.fixed-seed", { title: "The deals were chosen in advance by whoever created the table." }, "fixed seed ") : null,
      h("span.seats", {}, t.seats.map((s, i) => s.taken
        ? h("span.seat-tag", {}, s.name)
        : h("button.small.join", { type: "button", onclick: () => joinSeat(t.id, i) }, `Sit at seat ${i + 1}` + (s.human_seat ? "" : " (bot)")))),
      h("a.watch", { href: `/t/${t.id}` }, "Watch")))));
  }

  async function joinSeat(tableId, seat) {
    try {
      const name = needName();
      await SK.join(tableId, seat, name);
      location.href = `/t/${tableId}`;
    } catch (e) { alert(e.message); }
  }

  function gameOf() { return games.find((g) => g.name === $("game").value); }

  function showOptions() {
    const game = gameOf();
    const values = game.presets[$("preset").value];
    SK.fill($("options"), ...game.options.map((o) => {
      const value = values[o.name];
      let input;
      if (o.kind === "bool") input = h("input", { type: "checkbox", checked: !!value });
      else if (o.kind === "choice") input = h("select", {}, o.choices.map((c) => h("option", { value: JSON.stringify(c), selected: c === value }, c === null ? "default" : String(c))));
      else if (o.kind === "int") input = h("input", { type: "number", value: value === null ? "" : value, placeholder: o.nullable ? "default" : "" });
      else input = h("input", { value: value === null ? "" : value });
      input.dataset.option = o.name;
      input.dataset.kind = o.kind;
      input.addEventListener("change", syncBots);
      return h("label", {}, o.name.replace(/_/g, " ") + " ", input, h("span.default", {}, value === null ? " (default: set by the other options)" : ` (default ${JSON.stringify(value)})`));
    }));
    syncBots();
  }

  function readOptions() {
    const game = gameOf();
    const base = game.presets[$("preset").value];
    const out = {};
    for (const input of $("options").querySelectorAll("[data-option]")) {
      const name = input.dataset.option;
      let value;
      if (input.dataset.kind === "bool") value = input.checked;
      else if (input.dataset.kind === "choice") value = JSON.parse(input.value);
      else if (input.dataset.kind === "int") value = input.value === "" ? null : parseInt(input.value, 10);
      else value = input.value;
      if (JSON.stringify(value) !== JSON.stringify(base[name])) out[name] = value;
    }
    return out;
  }

  function players() {
    const opts = Object.assign({}, gameOf().presets[$("preset").value], readOptions());
    return opts.players || 3;
  }

  function syncBots() {
    $("bots").max = players() - 1;
  }

  function showGame() {
    const game = gameOf();
    SK.fill($("preset"), ...Object.keys(game.presets).map((p) => h("option", { value: p }, p)));
    SK.fill($("bot"), ...game.agents.map((a) => h("option", { value: a, selected: a === game.default_agent }, a)));
    // A game with its own target score (Dominoes) plays to it: no deal limit by default.
    $("deals").value = game.options.some((o) => o.name === "target") ? "" : "5";
    showOptions();
  }

  $("game").addEventListener("change", showGame);
  $("preset").addEventListener("change", showOptions);
  $("refresh").addEventListener("click", loadTables);

  $("create").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("create-error").textContent = "";
    try {
      const name = needName();
      const body = {
        game: $("game").value,
        preset: $("preset").value,
        options: readOptions(),
        bots: parseInt($("bots").value, 10) || 0,
        bot: $("bot").value,
        deals: parseInt($("deals").value, 10) || null,
      };
      // "/?seed=N" fixes the table's seed: the same deals again, for a rematch or a test.
      const seed = new URLSearchParams(location.search).get("seed");
      if (seed !== null && /^\d+$/.test(seed)) body.seed = parseInt(seed, 10);
      const table = await SK.api("POST", "/api/tables", body);
      await SK.join(table.id, 0, name);
      location.href = table.invite;
    } catch (e) { $("create-error").textContent = e.message; }
  });

  (async function start() {
    games = await SK.api("GET", "/api/games");
    // Dou Di Zhu first: the list is alphabetical, the flagship game is not.
    SK.fill($("game"), ...games.map((g) => h("option", { value: g.name, selected: g.name === "doudizhu" }, g.title)));
    showGame();
    loadTables();
    setInterval(loadTables, 4000);
  })();
})();
