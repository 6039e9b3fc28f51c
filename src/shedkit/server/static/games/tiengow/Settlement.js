// The end of a Tien Gow hand: who won it, and who paid whom, as a small table. The server
// lists every payment with its base and factors (`payments`: TG-30…34, TG-61…64); this
// draws them in the reader's words.
import { html } from "../../lib/html.js";
import { t } from "../../lib/i18n.js";
import { seatName } from "../../components/Seat.js";

// Why a payment was made, in words.
function reason(p, name) {
  switch (p.reason) {
    case "units": return p.units ? t("tg.why.units", { count: p.units }) : t("tg.why.no_unit");
    case "refund": return t("tg.why.refund", { count: p.units });
    case "no_refund": return t("tg.why.no_refund", { count: p.units });
    case "capture": return t("tg.why.capture", { name: name(p.for) });
    default: return t(`tg.why.${p.reason}`);
  }
}

// How the amount came about: the base, each factor, the total ("5 × 2 banker = 10").
function formula(p) {
  if (!p.factors.length) return "";
  const parts = [String(p.base), ...p.factors.map((f) => t(`tg.factor.${f.code}`, { n: f.n }))];
  return `${parts.join(" ")} = ${p.amount}`;
}

// The line over the table: who won the hand and how.
function resultLine(view, table) {
  if (view.special) return t("tg.special_win", { name: seatName(table, view.special.seat), n: view.special.factor });
  if (view.winner === null || view.winner === undefined) return "";
  const slam = view.units[view.winner] === view.units.reduce((a, b) => a + b, 0);
  return t(slam ? "tg.hand_won_slam" : "tg.hand_won", { name: seatName(table, view.winner), count: view.units[view.winner] });
}

// props: view (finished), table.
export function Settlement({ view, table }) {
  const name = (s) => seatName(table, s);
  const rows = view.payments || [];
  return html`<p class="result-line">${resultLine(view, table)}</p>
    <p class="breakdown tg-units-line">${view.units.map((u, s) => t("tg.units_of", { name: name(s), count: u })).join(t("tg.list_sep"))}</p>
    ${rows.length ? html`<table class="scores tg-payments" id="payments">
      <caption>${t("tg.payments")}</caption>
      <thead><tr><th scope="col">${t("tg.pays")}</th><th scope="col">${t("tg.to")}</th>
        <th scope="col">${t("tg.chips")}</th><th scope="col">${t("tg.why_col")}</th></tr></thead>
      <tbody>${rows.map((p, i) => html`<tr key=${i} data-reason=${p.reason}>
        <th scope="row">${name(p.payer)}</th><td class="tg-to">${name(p.payee)}</td>
        <td>${p.amount}</td>
        <td class="tg-why">${reason(p, name)}${formula(p) ? html`<span class="tg-formula">${formula(p)}</span>` : null}</td>
      </tr>`)}</tbody>
    </table>` : null}`;
}
