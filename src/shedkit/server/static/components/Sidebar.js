// Beside the table: the match's running scores, this deal's plays drawn, the chat.
import { html, useEffect, useRef, useState } from "../lib/html.js";
import { t } from "../lib/i18n.js";
import { botLabel, seatName } from "./Seat.js";
import { ChatSaid, QuickChat } from "./QuickChat.js";
import { GAMES } from "../games/index.js";

// The rows of a score table: a seat each, or a team each where seats play and score
// together (the table's `teams`: Dominoes' partners, DOM-02), named as the game names them.
// A team's partners share its points, so a row's scores are its first seat's.
export function scoreRows(table, view) {
  const game = GAMES[table.game];
  if (game && game.resultRows) return game.resultRows(view, table);
  return table.seats.map((_, i) => ({ seats: [i] }));
}

// The heading of a score table's first column: players, or teams.
export const rowsHeading = (rows) => t(rows.some((r) => r.team !== undefined) ? "table.team" : "table.player");

// props: table.
export function Scoreboard({ table }) {
  const of = table.deals ? "table.deal_of" : "table.deal_n";
  const rows = scoreRows(table, null);
  return html`<section class="panel scoreboard" aria-labelledby="scores-title">
    <h2 id="scores-title">${t("table.scores")}</h2>
    <table class="scores" id="scores">
      <thead><tr><th scope="col">${rowsHeading(rows)}</th><th scope="col">${t("table.total")}</th></tr></thead>
      <tbody>${rows.map((row, r) => html`<tr key=${r} class=${row.team !== undefined ? `team-${row.team}` : ""}>
        <th scope="row">${row.label || seatName(table, row.seats[0])}</th>
        <td>${table.totals[row.seats[0]]}</td></tr>`)}</tbody>
    </table>
    <p class="hint">${t(of, { n: table.deals_played, total: table.deals })}</p>
    ${table.commitment ? html`<p class="hint commitment" title=${table.commitment}>
      ${t("table.commitment", { hash: table.commitment.slice(0, 12) })}</p>` : null}
    ${table.fixed_seed ? html`<p class="fixed-seed">${t("table.fixed_seed")}</p>` : null}
    ${table.hot_seat ? html`<p class="hot-seat">${t("table.hot_seat")}</p>` : null}
    ${table.history.length ? html`<h3>${t("table.past_deals")}</h3><ol class="deals" id="deals">
      ${table.history.map((d) => html`<li key=${d.number}><a href=${`/replay/${table.id}/${d.number}`} target="_blank">
        ${t("table.deal_n", { n: d.number })}</a> ${d.thrown_in ? t("table.thrown_in") : rows.map((row) => d.returns[row.seats[0]]).join(" / ")}</li>`)}
    </ol>` : null}
  </section>`;
}

function moverName(table, seat, who) {
  if (typeof who === "string") return who;
  if (who && who.bot) return t("table.bot_name", { level: botLabel(who.bot), n: seat + 1 });
  return seatName(table, seat);
}

// props: view, table, game (the game's client module), names (who made each move, as the
// table named it then: a player's name or {bot}; a move not in it takes the seat's name now).
// What happened at the deal before the first move (President's tax taking cards by itself)
// comes first, from the game's `logLead`.
export function Log({ view, table, game, names }) {
  const ref = useRef(null);
  useEffect(() => { if (ref.current) ref.current.scrollTop = ref.current.scrollHeight; });
  const entries = view ? view.history : [];
  const lead = view && game.logLead ? game.logLead(view, table) : [];
  return html`<section class="panel log-panel" aria-labelledby="log-title">
    <h2 id="log-title">${t("table.this_deal")}</h2>
    <ol class="log" id="log" ref=${ref} tabindex="0" aria-labelledby="log-title">
      ${lead.map((e, i) => html`<li key=${`lead-${i}`} class="log-lead"><span class="who">${seatName(table, e.seat)}</span>
        ${e.node}</li>`)}
      ${entries.map((e, i) => html`<li key=${i}><span class="who">${moverName(table, e.seat, names && names[i])}</span>
        <${game.Entry} entry=${e} view=${view} table=${table} /></li>`)}
    </ol>
  </section>`;
}

// props: lines ([{name, text | phrase | emote}]), onSend(text), onQuick({phrase} or {emote}),
// canSend.
export function Chat({ lines, onSend, onQuick, canSend }) {
  const [text, setText] = useState("");
  const box = useRef(null);
  useEffect(() => { if (box.current) box.current.scrollTop = box.current.scrollHeight; });
  const submit = (e) => {
    e.preventDefault();
    if (text.trim()) onSend(text.trim());
    setText("");
  };
  return html`<section class="panel chat" aria-labelledby="chat-title">
    <h2 id="chat-title">${t("table.chat")}</h2>
    <div class="chat-lines" id="chat" ref=${box} tabindex="0" role="log" aria-labelledby="chat-title">
      ${lines.map((l, i) => html`<div class="chat-line" key=${i}><b>${l.name}:</b> <${ChatSaid} line=${l} /></div>`)}
    </div>
    ${canSend ? html`<form id="chat-form" onSubmit=${submit}>
      <label class="visually-hidden" for="chat-input">${t("table.say")}</label>
      <input id="chat-input" maxlength="300" value=${text} placeholder=${t("table.say")} autocomplete="off"
        onInput=${(e) => setText(e.target.value)} />
      <button type="submit" class="small">${t("table.send")}</button>
      ${onQuick ? html`<${QuickChat} onSend=${onQuick} />` : null}
    </form>` : null}
  </section>`;
}
