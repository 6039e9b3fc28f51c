// The replay page: every step of a finished deal with all hands shown.
"use strict";
(function () {
  const h = SK.h;
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/");
  const tableId = decodeURIComponent(parts[2]);
  const number = parseInt(parts[3], 10);
  let data = null;
  let table = null;
  let step = 0;

  function show() {
    const renderer = SK.renderers[data.record.game];
    const s = data.steps[step];
    $("slider").value = String(step);
    $("step").textContent = `step ${step} of ${data.steps.length - 1}`;
    $("move").textContent = s.move === null ? "The deal" : `${SK.seatName(table, s.seat)}: ${s.move}`;
    SK.fill($("panel"), ...renderer.panel(s.public, table));
    SK.fill($("trick"), ...s.public.trick.map((t) => h("span.play", {}, h("b", {}, SK.seatName(table, t.seat) + ": "), t.move)));
    SK.fill($("hands"), ...s.hands.map((cards, seat) => h("div.panel.replay-hand", { dataset: { seat } },
      h("h3", {}, SK.seatName(table, seat), " ", h("span.seat-badge", {}, renderer.badge(s.public, seat)), ` · ${cards.length} cards`),
      h("div.hand", {}, cards.map((c) => SK.cardEl(c, { disabled: true }))))));
    const end = data.steps[data.steps.length - 1].public;
    $("result").textContent = step === data.steps.length - 1
      ? renderer.result(end, table) + " Returns: " + end.returns.join(" / ")
      : "";
  }

  function go(to) { step = Math.max(0, Math.min(data.steps.length - 1, to)); show(); }

  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(data.steps.length - 1));
  $("slider").addEventListener("input", () => go(parseInt($("slider").value, 10)));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(step + 1);
    if (e.key === "ArrowLeft") go(step - 1);
  });

  (async function start() {
    try {
      [data, table] = await Promise.all([
        SK.api("GET", `/api/tables/${encodeURIComponent(tableId)}/deals/${number}`),
        SK.api("GET", `/api/tables/${encodeURIComponent(tableId)}`),
      ]);
    } catch (e) { $("move").textContent = e.message; return; }
    $("title").textContent = `Replay · ${SK.renderers[data.record.game].title} · table ${tableId} · deal ${number}`;
    $("slider").max = String(data.steps.length - 1);
    show();
  })();
})();
