// The open tables of the lobby: game, rules, players, who sits where, and "Sit here" or
// "Watch". A table whose deals were fixed in advance says so where everyone sees it, and so
// does one where a single device may hold several seats: a stranger looking for a game
// should know the other seats may all be one person's.
import { html } from "../lib/html.js";
import { has, t } from "../lib/i18n.js";
import { errorText } from "./ErrorMessage.js";
import { botLabel } from "./Seat.js";

export function gameName(game) {
  const key = `lobby.games.${game}.name`;
  return has(key) ? t(key) : game;
}

export function presetLabel(game, preset) {
  const key = `preset.${game}.${preset}.label`;
  return has(key) ? t(key) : preset;
}

function SeatChip({ table, seat, index, onJoin }) {
  const n = index + 1;
  let who;
  if (seat.taken && seat.is_bot) who = t("lobby.tables.seat_program", { name: seat.name });
  else if (seat.taken) who = seat.away ? t("lobby.tables.seat_away", { name: seat.name }) : seat.name;
  else if (seat.human_seat) who = t("lobby.tables.seat_empty");
  else who = t("lobby.tables.seat_bot", { bot: botLabel(seat.bot) });
  return html`<li class=${seat.taken ? "seat taken" : "seat open"}>
    <span class="seat-no">${t("lobby.tables.seat", { n })}</span>
    <span class="seat-who">${who}</span>
    ${seat.taken ? null : html`<button type="button" class="button small join" data-seat=${index}
      aria-label=${t("lobby.tables.join_label", { n, table: table.id })}
      onClick=${() => onJoin(table.id, index)}>${t("lobby.tables.join")}</button>`}
  </li>`;
}

function TableRow({ table, onJoin }) {
  const status = `lobby.tables.status.${table.status}`;
  return html`<li class="table-row" data-table=${table.id}>
    <div class="table-head">
      <strong class="table-game">${gameName(table.game)}</strong>
      <span class="table-preset">${presetLabel(table.game, table.preset)}</span>
      <span class="table-players">${t("lobby.tables.players", { count: table.players })}</span>
      <span class="table-status">${has(status) ? t(status) : table.status}</span>
      ${table.fixed_seed ? html`<span class="fixed-seed" title=${t("lobby.tables.fixed_seed_help")}>
        ${t("lobby.tables.fixed_seed")}</span>` : null}
      ${table.hot_seat ? html`<span class="hot-seat" title=${t("lobby.tables.hot_seat_help")}>
        ${t("lobby.tables.hot_seat")}</span>` : null}
      ${table.speed ? html`<span class="table-speed">${t(`lobby.tables.speed_${table.speed}`)}</span>` : null}
      ${table.card_counter ? html`<span class="table-counter" title=${t("lobby.tables.card_counter_help")}>
        ${t("lobby.tables.card_counter")}</span>` : null}
      <a class="button small watch" href=${`/t/${table.id}`}
        aria-label=${t("lobby.tables.watch_label", { table: table.id })}>${t("lobby.tables.watch")}</a>
    </div>
    <ul class="seats" aria-label=${t("lobby.tables.seats_label")}>
      ${table.seats.map((s, i) => html`<${SeatChip} key=${i} table=${table} seat=${s} index=${i} onJoin=${onJoin} />`)}
    </ul>
  </li>`;
}

// props: tables (the API's list, or null while loading), error ({code, data} or null),
// onJoin(tableId, seat), onRefresh().
export function TableList({ tables, error, onJoin, onRefresh }) {
  let body;
  if (error) body = html`<p class="error-message" role="alert">${errorText(error)}</p>`;
  else if (tables === null) body = html`<p class="help">${t("lobby.tables.loading")}</p>`;
  else if (!tables.length) body = html`<p class="help empty">${t("lobby.tables.empty")}</p>`;
  else body = html`<ul class="tables">${tables.map((tb) => html`<${TableRow} key=${tb.id} table=${tb} onJoin=${onJoin} />`)}</ul>`;
  return html`<section class="panel" aria-labelledby="tables-heading">
    <div class="panel-head">
      <h2 id="tables-heading">${t("lobby.tables.heading")}</h2>
      <button type="button" id="refresh" class="button small" onClick=${onRefresh}>${t("lobby.tables.refresh")}</button>
    </div>
    <div id="tables" aria-live="polite">${body}</div>
  </section>`;
}
