// President at the table: titles held through the deal, the order in force with the
// revolution, the tax as an exchange, combinations named, revolutions in banners.
import { html } from "../../lib/html.js";
import { t } from "../../lib/i18n.js";
import { cardsName } from "../../lib/cards.js";
import { CardBack, Cards } from "../../components/Card.js";
import { CARD_GAME } from "../cards.js";
import { seatName } from "../../components/Seat.js";
import { Tax, TaxHandOff, ownExchange } from "./Tax.js";

const CODES = ["president", "vice_president", "citizen", "vice_slave", "slave"];

// The PRE-11 title code of finishing place `place` among n players.
export function titleCode(place, n) {
  if (place === 0) return CODES[0];
  if (place === n - 1) return CODES[4];
  if (place === 1) return CODES[1];
  if (place === n - 2) return CODES[3];
  return CODES[2];
}

// Titles the seats hold during this deal: those the last deal before it in the same match
// gave them. A new match starts without titles, as it starts without the tax; a replay
// passes the table as it stood at its deal, so it shows that deal's titles and not today's.
export function heldTitles(table) {
  const before = table.history.filter((d) => d.match === table.match_no && d.number < table.deal_number && !d.thrown_in);
  const last = before[before.length - 1];
  const order = last && last.finished ? last.finished : [];
  const out = {};
  order.forEach((seat, place) => { out[seat] = titleCode(place, table.seats.length); });
  return out;
}

// How many cards a give of the tax moved. A seat outside the exchange (and a replay's
// public view) sees the give without its cards, so the count comes from the exchange the
// give settles: a seat's k-th give is the k-th exchange it gives in, whichever way the
// tax is run; failing that, the exchange at the give's place in the tax. Null if unknown.
export function giveCount(m, view) {
  if (m.k) return m.k.length;
  if (m.cards.length || !view) return m.cards.length || null;
  const x = giveExchange(m, view);
  return x ? x.count : null;
}

// The exchange a give of the history settles (see giveCount), or null.
export function giveExchange(m, view) {
  if (!view || !view.exchanges) return null;
  const gives = view.history.filter((e) => e.kind === "give");
  let at = gives.indexOf(m);
  if (at < 0) at = gives.map((e) => e.seat).lastIndexOf(m.seat);
  if (at < 0) return null;
  const earlier = gives.slice(0, at).filter((e) => e.seat === m.seat).length;
  return view.exchanges.filter((e) => e.giver === m.seat)[earlier] || view.exchanges[at] || null;
}

function moveName(m, view) {
  if (m.kind === "pass") return t("table.pass");
  if (m.kind === "give") {
    const count = giveCount(m, view);
    return count === null ? t("pre.gives_some") : t("pre.gives", { count });
  }
  return t(`combo.president.${m.kind}`);
}

function Role({ view, seat, table }) {
  const code = view.is_over ? view.title_codes[String(seat)] : heldTitles(table)[seat];
  if (!code) return view.dealer === seat ? html`<span class="role dealer">${t("pre.dealer")}</span>` : null;
  return html`<span class=${`role title-${code}`}>${t(`pre.title.${code}`)}</span>`;
}

// In front of a seat: its play in the trick, or its place once out. A finished trick stays,
// dimmed, until the next lead (the view's `finished_trick`, sent by the server), and in front
// of a seat the new trick has not reached while the page holds it a moment longer.
function LastPlay({ view, seat }) {
  const place = view.finished.indexOf(seat);
  if (place >= 0 && !view.is_over) return html`<span class="bubble out">${t("pre.out_place", { ordinal: place + 1 })}</span>`;
  const live = view.trick.filter((e) => e.seat === seat);
  const old = (view.finished_trick || []).filter((e) => e.seat === seat);
  const done = !live.length && old.length > 0;
  const last = done ? old[old.length - 1] : live[live.length - 1];
  if (!last) return null;
  const drawn = !last.cards.length ? html`<span class="bubble">${moveName(last, view)}</span>`
    : html`<${Cards} cards=${last.cards} size="table" label=${moveName(last, view)} />`;
  return done ? html`<span class="done-trick">${drawn}</span>` : drawn;
}

// The tax is told on the felt from the deal to its first play; meanwhile a phone shows it alone.
function Centre({ view, table }) {
  const taxing = view.phase === "tax" || (view.exchanges.length > 0 && view.history.every((e) => e.kind === "give"));
  return html`<div class=${"pre-centre" + (taxing ? " taxing" : "")}>
    ${taxing ? html`<${TaxHandOff} view=${view} table=${table} />` : null}
    <div class=${"order" + (view.revolution ? " revolution" : "")}>
      <span class="label">${view.revolution ? t("pre.revolution_on") : t("pre.order")}</span>
      <span class="order-faces" aria-label=${t("pre.order_low_high")}>${view.order.map((f) => (f === "T" ? "10" : f)).join(" ‹ ")}</span>
    </div>
    ${view.leftover.length ? html`<div class="leftover"><span class="label">${t("pre.leftover")}</span>
      <${Cards} cards=${view.leftover} size="mini" /></div>` : null}
  </div>`;
}

function Controls({ view, table, you, mine, selected, actions }) {
  if (view.phase !== "tax") return null;
  return html`<${Tax} view=${view} table=${table} you=${you} mine=${mine} selected=${selected} actions=${actions} />`;
}

// Cards of the tax in the log: face up for the two seats of the exchange, else backs.
function TaxCards({ cards, count }) {
  if (cards && cards.length) return html`<${Cards} cards=${cards} size="mini" />`;
  return count ? html`<span class="cards" aria-hidden="true">${Array.from({ length: count }, (_, i) => html`<${CardBack} key=${i} size="mini" />`)}</span>` : null;
}

function Entry({ entry, view, table }) {
  if (entry.kind === "give") {
    // A give names its receiver, and shows its cards to the two seats of its exchange.
    const x = giveExchange(entry, view);
    const count = giveCount(entry, view);
    const text = x && table ? t("pre.log_give", { to: seatName(table, x.receiver), count }) : moveName(entry, view);
    return html`<span class="entry"><${TaxCards} cards=${entry.cards} count=${count} />
      <span class="entry-name">${text}</span></span>`;
  }
  return html`<span class="entry">${entry.cards.length ? html`<${Cards} cards=${entry.cards} size="mini" />` : null}
    <span class="entry-name">${moveName(entry, view)}</span></span>`;
}

// What the log tells before the first move: the tax's cards that moved by themselves at the
// deal, each exchange's loser handing over their best cards (PRE-21) or the winner drawing
// as many at random (PRE-20). {seat, node}: who did it, and the entry.
function logLead(view, table) {
  if (!view.exchanges || !view.exchanges.length) return [];
  const best = view.tax_style === "best";
  return view.exchanges.map((x) => ({
    seat: best ? x.receiver : x.giver,
    node: html`<span class="entry tax-taken"><${TaxCards} cards=${x.taken} count=${x.count} />
      <span class="entry-name">${best ? t("pre.log_best", { to: seatName(table, x.giver), count: x.count })
        : t("pre.log_drawn", { from: seatName(table, x.receiver), count: x.count })}</span></span>`,
  }));
}

function Summary({ view, table }) {
  return html`<ol class="finishing">${view.finished.map((seat, place) => html`<li key=${seat}>
    ${seatName(table, seat)} — ${t(`pre.title.${titleCode(place, view.num_players)}`)}</li>`)}</ol>`;
}

function banner(before, view) {
  if (view.revolution !== before.revolution) return { kind: "revolution", text: t("pre.revolution") };
  return null;
}

export default {
  name: "president",
  ...CARD_GAME,
  moveName,
  playText: (e, view) => (e.cards.length && e.kind !== "give" ? `${moveName(e, view)}: ${cardsName(e.cards)}` : moveName(e, view)),
  Role,
  LastPlay,
  Centre,
  Controls,
  Entry,
  logLead,
  Summary,
  banner,
  // Cards received at the tax (taken, or given back to the loser) stay marked until played.
  marked: (view) => new Set(ownExchange(view).got.map((c) => c.c)),
};
