// President's tax: the giver chooses the cards in an exchange panel; everyone reads each
// exchange both ways (the cards taken at the deal, the cards given back) with how many cards,
// and the two seats of an exchange see the cards that changed hands.
import { html, useRef } from "../../lib/html.js";
import { t } from "../../lib/i18n.js";
import { useFlyIn } from "../../lib/anim.js";
import { CardBack, Cards } from "../../components/Card.js";
import { seatName } from "../../components/Seat.js";
import { candidates } from "../../lib/select.js";

// Cards that changed hands: face up for the two seats of the exchange (the server sends
// them those only), else as many backs.
function Moved({ cards, count, fly }) {
  const ref = useRef(null);
  useFlyIn(ref, fly, "pos-left");
  if (cards) return html`<span class="cards" ref=${ref}><${Cards} cards=${cards} size="mini" /></span>`;
  return html`<span class="cards" ref=${ref} aria-hidden="true">${Array.from({ length: count }, (_, i) => html`<${CardBack} key=${i} size="mini" />`)}</span>`;
}

// What the giver took from the receiver at the deal, by itself: the receiver's best cards
// (PRE-21) or as many drawn at random (PRE-20).
export function takenText(view, x, name) {
  const style = view.tax_style === "best" ? "best" : "drawn";
  return t(`pre.took_${style}`, { from: name(x.receiver), to: name(x.giver), count: x.count });
}

// Each exchange both ways: the cards the giver took, then the cards it gives back.
function Exchange({ x, view, table, done, current }) {
  const name = (seat) => seatName(table, seat);
  return html`<li class="exchange taken done">
      <span>${takenText(view, x, name)}</span>
      <${Moved} cards=${x.taken} count=${x.count} fly=${null} />
    </li>
    <li class=${"exchange given" + (done ? " done" : "") + (current ? " current" : "")}>
      <span>${t(done ? "pre.gave" : "pre.gives_to", { giver: name(x.giver), receiver: name(x.receiver), count: x.count })}</span>
      <${Moved} cards=${done ? x.given : null} count=${x.count} fly=${done ? `done-${x.giver}` : null} />
    </li>`;
}

// The cards this seat gave and received in the tax, both ways of its exchange.
export function ownExchange(view) {
  const gave = [];
  const got = [];
  for (const x of view.exchanges) {
    if (view.seat === x.giver) { gave.push(...(x.given || [])); got.push(...(x.taken || [])); }
    if (view.seat === x.receiver) { gave.push(...(x.taken || [])); got.push(...(x.given || [])); }
  }
  return { gave, got };
}

// For everyone: the rule in force (PRE-20 drawn, PRE-21 best), each exchange of the tax both
// ways in sentences, and what you gave and received.
export function TaxHandOff({ view, table }) {
  const given = view.history.filter((e) => e.kind === "give").length;
  const { gave, got } = ownExchange(view);
  return html`<div class="tax" aria-live="polite">
    <h3>${t("pre.tax")}</h3>
    <p class="tax-rule">${t(view.tax_style === "best" ? "pre.tax_rule_best" : "pre.tax_rule_drawn")}</p>
    <ol class="exchanges">${view.exchanges.map((x, i) => html`<${Exchange} key=${i} x=${x} view=${view} table=${table}
      done=${i < given} current=${i === given && view.phase === "tax"} />`)}</ol>
    ${gave.length || got.length ? html`<p class="you-exchanged">
      ${gave.length ? html`<span class="you-gave">${t("pre.you_gave")} <${Cards} cards=${gave} size="mini" /></span>` : null}
      ${got.length ? html` <span class="you-received">${t("pre.you_received")} <${Cards} cards=${got} size="mini" /></span>` : null}
    </p>` : null}
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
