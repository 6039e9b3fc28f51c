// The table page: one WebSocket to the server, which sends this seat's view after every change.
// Clicking cards selects them; the legal move the selection makes is shown before it is sent.
"use strict";
(function () {
  const h = SK.h;
  const $ = (id) => document.getElementById(id);
  const tableId = decodeURIComponent(location.pathname.split("/").pop());
  let ws = null;
  let retry = 0;
  let state = null;          // the last "state" message
  let selected = new Set();  // card ids
  let errorTimer = null;
  window.shedkit = { get state() { return state; }, get selected() { return [...selected]; } };

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    else showError("Not connected; reconnecting…");
  }

  function showError(text) {
    const bar = $("error");
    bar.textContent = text;
    bar.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => { bar.hidden = true; }, 6000);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + location.host + "/ws/" + encodeURIComponent(tableId));
    $("conn").textContent = "connecting…";
    ws.onopen = () => {
      retry = 0;
      $("conn").textContent = "connected";
      $("conn").dataset.state = "open";
      const mine = SK.getSeat(tableId);
      if (mine) send({ type: "hello", token: mine.token });
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") { state = message; render(); }
      else if (message.type === "error") {
        if (message.code === "bad_token") SK.setSeat(tableId, null, null);
        showError(message.message);
      } else if (message.type === "chat") addChat(message);
    };
    ws.onclose = () => {
      $("conn").dataset.state = "closed";
      // Backoff: 0.5 s, 1 s, 2 s … up to 10 s; the server resends the seat's view on hello.
      const wait = Math.min(10000, 500 * 2 ** retry++);
      $("conn").textContent = `reconnecting in ${Math.round(wait / 1000)} s…`;
      setTimeout(connect, wait);
    };
  }

  function addChat(line) {
    const box = $("chat");
    box.append(h("div.chat-line", {}, h("b", {}, line.name + ": "), line.text));
    box.scrollTop = box.scrollHeight;
  }

  function sameKeys(a, b) {
    if (a.length !== b.length) return false;
    const x = [...a].sort((p, q) => p - q), y = [...b].sort((p, q) => p - q);
    return x.every((v, i) => v === y[i]);
  }

  // Legal moves whose cards are exactly the selection (several when one selection reads two ways).
  function candidates(view) {
    const keys = view.hand.filter((c) => selected.has(c.c)).map((c) => c.k);
    if (!keys.length) return [];
    return view.legal.filter((m) => m.k.length && sameKeys(m.k, keys));
  }

  // Select the cards a legal move names: for each key the first unselected card with it.
  function selectMove(view, move) {
    selected = new Set();
    const used = new Set();
    for (const key of move.k) {
      const card = view.hand.find((c) => c.k === key && !used.has(c.c));
      if (card) { used.add(card.c); selected.add(card.c); }
    }
    render();
  }

  function render() {
    const table = state.table;
    const view = state.view;
    const you = state.you;
    const renderer = SK.renderers[table.game];
    document.title = `shedkit — ${renderer.title} ${table.id}`;
    $("title").textContent = `${renderer.title} · ${table.preset} · table ${table.id}` +
      (you !== null ? ` · you are ${SK.seatName(table, you)}` : " · watching") +
      (table.fixed_seed ? " · fixed seed: the deals were chosen in advance" : "");
    $("leave").hidden = you === null;

    // Seats around the table.
    SK.fill($("seats"), ...table.seats.map((s, i) => {
      const turn = view && view.current_player === i;
      return h("div.seat" + (turn ? ".turn" : "") + (i === you ? ".mine" : ""), { dataset: { seat: i } },
        h("div.seat-name", {}, SK.seatName(table, i), s.connected || !s.taken ? "" : " ·offline"),
        view ? h("div.seat-badge", {}, renderer.badge(view, i)) : null,
        view ? h("div.seat-count", {}, `${view.cards_left[i]} ${renderer.unit || "cards"}`) : null,
        view && view.last_by_seat[String(i)] ? h("div.seat-last", {}, view.last_by_seat[String(i)]) : null,
        h("div.seat-score", {}, `score ${table.totals[i]}`));
    }));

    // The join box for people without a seat.
    const join = $("join");
    if (you === null) {
      join.hidden = false;
      const open = table.seats.map((s, i) => [s, i]).filter(([s]) => !s.taken);
      SK.fill(join, h("span", {}, "You are watching. "),
        h("input#join-name", { value: SK.getName(), placeholder: "display name", maxLength: 24 }),
        open.map(([s, i]) => h("button.small.take", { type: "button", onclick: () => takeSeat(i) }, `Take seat ${i + 1}`)));
    } else join.hidden = true;

    // Status line.
    let status = "";
    if (table.status === "waiting") status = "Waiting for players. ";
    else if (view && view.current_player !== null) {
      status = view.current_player === you ? "Your turn." : `${SK.seatName(table, view.current_player)} to play.`;
    }
    SK.fill($("status"), h("span#turn", { dataset: { mine: view && view.current_player === you && you !== null ? "1" : "0" } }, status),
      h("span#clock.clock", {}),
      table.status === "waiting" && you !== null ? h("button.small", { type: "button", onclick: () => send({ type: "start" }) }, "Start now (bots fill open seats)") : null);

    SK.fill($("panel"), ...(view ? renderer.panel(view, table) : []));
    SK.fill($("trick"), ...(view ? view.trick.map((t) => h("span.play", {}, h("b", {}, SK.seatName(table, t.seat) + ": "), t.move)) : []));

    // Score screen.
    const result = $("result");
    if (view && view.is_over) {
      result.hidden = false;
      const last = table.history[table.history.length - 1];
      SK.fill(result, 
        h("h2#score-screen", {}, table.match_over ? "Match over" : "Deal over"),
        h("p", {}, renderer.result(view, table)),
        h("table.scores", {}, h("tr", {}, h("th", {}, "Seat"), h("th", {}, "This deal"), h("th", {}, "Total")),
          table.seats.map((s, i) => h("tr", {}, h("td", {}, SK.seatName(table, i)), h("td", {}, String(view.returns[i])), h("td", {}, String(table.totals[i]))))),
        last ? h("a", { href: `/replay/${table.id}/${last.number}`, target: "_blank" }, "Replay this deal (all hands)") : null,
        you !== null ? h("button#next", { type: "button", onclick: () => send({ type: "next" }) }, table.match_over ? "Rematch" : "Next deal") : null);
    } else result.hidden = true;

    renderHand(view, you);

    SK.fill($("scores"), h("table.scores", {}, table.seats.map((s, i) =>
      h("tr", {}, h("td", {}, SK.seatName(table, i)), h("td", {}, String(table.totals[i]))))),
      h("div.hint", {}, `Deal ${table.deals_played}${table.deals ? " of " + table.deals : ""} played`),
      table.commitment ? h("div.hint", { title: table.commitment }, `Seed commitment ${table.commitment.slice(0, 12)}…`) : null);
    SK.fill($("log"), ...(view ? view.history.map((e) =>
      h("li", {}, `${SK.seatName(table, e.seat)}: ${e.move}`)) : []));
    $("log").scrollTop = $("log").scrollHeight;
    SK.fill($("deals"), ...table.history.map((d) => h("li", {},
      h("a", { href: `/replay/${table.id}/${d.number}`, target: "_blank" }, `Deal ${d.number}`),
      d.thrown_in ? " thrown in" : ": " + d.returns.join(" / "))));
  }

  function renderHand(view, you) {
    const hand = $("hand");
    if (!view || you === null) { SK.fill(hand); SK.fill($("actions")); $("preview").textContent = ""; SK.fill($("legal")); return; }
    const have = new Set(view.hand.map((c) => c.c));
    selected = new Set([...selected].filter((c) => have.has(c)));
    const playableKeys = new Set(view.legal.flatMap((m) => m.k));
    SK.fill(hand, ...view.hand.map((card) => SK.cardEl(card, {
      className: "card" + (SK.cardFace(card).red ? " red" : "") + (selected.has(card.c) ? " selected" : "") + (playableKeys.has(card.k) ? " playable" : ""),
      onclick: () => { if (selected.has(card.c)) selected.delete(card.c); else selected.add(card.c); render(); },
    })));

    const actions = [];
    const plain = view.legal.filter((m) => !m.k.length);
    for (const m of plain) actions.push(h("button.move", { type: "button", dataset: { move: m.m }, onclick: () => play(m.m) }, m.m));
    const found = candidates(view);
    let preview = "";
    if (view.current_player !== you) preview = selected.size ? "Not your turn yet." : "";
    else if (!selected.size) preview = view.legal.some((m) => m.k.length) ? `Select ${SK.renderers[view.game].unit || "cards"} to play.` : "";
    else if (!found.length) preview = "The selection is not a legal move.";
    else {
      preview = found.length === 1 ? `Play: ${found[0].m}` : "This selection reads as:";
      for (const m of found) actions.push(h("button.move.send", { type: "button", dataset: { move: m.m }, onclick: () => play(m.m) }, found.length === 1 ? "Send" : m.m));
    }
    $("preview").textContent = preview;
    SK.fill($("actions"), ...actions);
    $("legal-count").textContent = String(view.legal.length);
    SK.fill($("legal"), ...view.legal.filter((m) => m.k.length).map((m) =>
      h("button.small.chip", { type: "button", dataset: { move: m.m }, onclick: () => selectMove(view, m) }, m.m)));
  }

  function play(move) {
    selected = new Set();
    send({ type: "move", move, state_id: state.state_id });
  }

  // The turn clock and the next deal's countdown, from the deadlines the server sends.
  function tick() {
    const clock = $("clock");
    if (!clock || !state) return;
    const table = state.table;
    const now = Date.now() / 1000;
    let text = "";
    if (table.turn) {
      const left = Math.max(0, Math.ceil(table.turn.deadline - now));
      text = `${SK.seatName(table, table.turn.seat)}: ${left} s left`;
    } else if (table.next_deal_at) {
      text = `Next deal in ${Math.max(0, Math.ceil(table.next_deal_at - now))} s`;
    }
    clock.textContent = text;
  }
  setInterval(tick, 500);

  async function takeSeat(seat) {
    const input = document.getElementById("join-name");
    const name = (input && input.value.trim()) || SK.getName();
    if (!name) { showError("Enter a display name first."); return; }
    SK.setName(name);
    try {
      await SK.join(tableId, seat, name);
      const mine = SK.getSeat(tableId);
      send({ type: "hello", token: mine.token });
    } catch (e) { showError(e.message); }
  }

  $("clear").addEventListener("click", () => { selected = new Set(); render(); });
  $("leave").addEventListener("click", () => {
    send({ type: "leave" });
    const mine = SK.getSeat(tableId);
    if (mine) localStorage.setItem("shedkit.left." + tableId, JSON.stringify(mine));
    SK.setSeat(tableId, null, null);
  });
  $("invite").addEventListener("click", async () => {
    const link = location.origin + "/t/" + tableId;
    try { await navigator.clipboard.writeText(link); $("invite").textContent = "Link copied"; }
    catch (e) { prompt("Invite link:", link); }
  });
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("chat-input").value.trim();
    if (text) send({ type: "chat", text });
    $("chat-input").value = "";
  });
  connect();
})();
