// The end of a deal: every hand shown (in the order the live hand is drawn in), how the
// score came about, the running match table, and the next deal or a rematch.
import { html, useEffect, useState } from "../lib/html.js";
import { api } from "../lib/api.js";
import { readerSort, sortHand } from "../lib/sort.js";
import { t } from "../lib/i18n.js";
import { seatName } from "./Seat.js";
import { rowsHeading, scoreRows } from "./Sidebar.js";

// The finished deal's hands, as the replay API gives them (public once the deal is over).
function useFinalHands(table) {
  const last = table.history[table.history.length - 1];
  const number = last ? last.number : null;
  const [hands, setHands] = useState(null);
  useEffect(() => {
    if (number === null) return;
    let live = true;
    api("GET", `/api/tables/${table.id}/deals/${number}`)
      .then((data) => { if (live) setHands(data.steps[data.steps.length - 1].hands); })
      .catch(() => { if (live) setHands(null); });
    return () => { live = false; };
  }, [table.id, number]);
  return { hands, number };
}

// props: view, table (as the deal ended), you, game, onNext, onClose, started (the next deal
// has begun behind the dialog: Next has nothing left to do).
export function EndOfDeal({ view, table, you, game, onNext, onClose, started }) {
  const { hands, number } = useFinalHands(table);
  const n = table.seats.length;
  const rows = scoreRows(table, view);
  return html`<div class="overlay end-of-deal" role="dialog" aria-modal="false" aria-labelledby="score-screen">
    <div class="dialog" id="result">
      <h2 id="score-screen">${table.match_over ? t("table.match_over") : t("table.deal_over")}</h2>
      <div class="summary"><${game.Summary} view=${view} table=${table} /></div>
      <table class="scores">
        <thead><tr><th scope="col">${rowsHeading(rows)}</th><th scope="col">${t("table.this_deal_points")}</th>
          <th scope="col">${t("table.total")}</th></tr></thead>
        <tbody>${rows.map((row, r) => html`<tr key=${r} class=${row.team !== undefined ? `team-${row.team}` : ""}>
          <th scope="row">${row.label || seatName(table, row.seats[0])}
            ${game.Role && row.seats.length === 1 ? html`<${game.Role} view=${view} seat=${row.seats[0]} table=${table} />` : null}</th>
          <td>${view.returns[row.seats[0]]}</td>
          <td>${table.totals[row.seats[0]]}</td></tr>`)}</tbody>
      </table>
      ${hands && game.revealsHands !== false ? html`<div class="revealed">
        ${hands.map((cards, seat) => seat < n ? html`<div class="revealed-hand" key=${seat}>
          <span class="who">${seatName(table, seat)}</span>
          ${cards.length ? html`<${game.Drawing} items=${sortHand(cards, readerSort(table.game), table.game, view)} view=${view} />`
            : html`<span class="hint">${t("table.out")}</span>`}
        </div>` : null)}
      </div>` : null}
      ${started ? html`<p class="next-started" role="status">${t("table.next_started")}</p>` : null}
      <div class="dialog-actions">
        ${number !== null ? html`<a href=${`/replay/${table.id}/${number}`} target="_blank" class="button-link">${t("table.replay")}</a>` : null}
        ${you !== null && !started ? html`<button type="button" id="next" class="primary" onClick=${onNext}>
          ${table.match_over ? t("table.rematch") : t("table.next_deal")}</button>` : null}
        <button type="button" id="see-table" onClick=${onClose}>${t("table.see_table")}</button>
      </div>
    </div>
  </div>`;
}
