// President's tax: the giver chooses the cards in an exchange panel; everyone reads who gives
// how many cards to whom, and the two seats of an exchange see the cards that changed hands.
import { html, useRef } from "../../lib/html.js";
import { t } from "../../lib/i18n.js";
import { useFlyIn } from "../../lib/anim.js";
import { CardBack, Cards } from "../../components/Card.js";
import { seatName } from "../../components/Seat.js";
import { candidates } from "../../lib/select.js";

function Exchange({ x, table, done, current }) {
  const ref = useRef(null);
  useFlyIn(ref, done ? `done-${x.giver}` : null, "pos-left");
  return html`<li class=${"exchange" + (done ? " done" : "") + (current ? " current" : "")}>
    <span>${t(done ? "pre.gave" : "pre.gives_to", { giver: seatName(table, x.giver), receiver: seatName(table, x.receiver), count: x.count })}</span>
    <span class="cards" ref=${ref} aria-hidden="true">${Array.from({ length: x.count }, (_, i) => html`<${CardBack} key=${i} size="mini" />`)}</span>
  </li>`;
}

// For everyone: the rule in force (PRE-20 drawn, PRE-21 best), each exchange of the tax in a
// sentence, and what you gave and received.
export function TaxHandOff({ view, table }) {
  const given = view.history.filter((e) => e.kind === "give").length;
  return html`<div class="tax" aria-live="polite">
    <h3>${t("pre.tax")}</h3>
    <p class="tax-rule">${t(view.tax_style === "best" ? "pre.tax_rule_best" : "pre.tax_rule_drawn")}</p>
    <ol class="exchanges">${view.exchanges.map((x, i) => html`<${Exchange} key=${i} x=${x} table=${table}
      done=${i < given} current=${i === given && view.phase === "tax"} />`)}</ol>
    ${view.tax_lost.length ? html`<p>${t("pre.you_gave")} <${Cards} cards=${view.tax_lost} size="mini" /></p>` : null}
    ${view.tax_drawn.length ? html`<p>${t("pre.you_received")} <${Cards} cards=${view.tax_drawn} size="mini" /></p>` : null}
  </div>`;
}

// For the giver: choose the cards in your hand, then give them.
export function Tax({ view, table, you, mine, selected, actions }) {
  const step = view.exchanges[view.tax_step];
  if (!mine || !step) return html`<div class="tax-wait"><p>${step ? t("pre.tax_waiting", { giver: seatName(table, step.giver) }) : ""}</p></div>`;
  const found = candidates(view, selected);
  return html`<div class="tax-dialog" role="group" aria-labelledby="tax-title">
    <p id="tax-title" class="tax-title">${t("pre.choose_to_give", { count: step.count, receiver: seatName(table, step.receiver) })}</p>
    <p class="hint">${t("pre.chosen", { count: selected.size, total: step.count })}</p>
    <div class="buttons">
      <button type="button" id="give" class="primary" disabled=${found.length !== 1}
        onClick=${() => actions.sendMove(found[0])}>${t("pre.give")}</button>
      <button type="button" id="hint" onClick=${actions.showHint}>${t("table.hint")}</button>
      <button type="button" id="clear" disabled=${!selected.size} onClick=${actions.clear}>${t("table.clear")}</button>
    </div>
  </div>`;
}
