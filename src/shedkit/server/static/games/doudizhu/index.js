// Dou Di Zhu at the table: the landlord's hat, bids in bubbles, the kitty turned face up
// and marked in the landlord's hand, combinations named, bombs and rockets in banners.
import { html } from "../../lib/html.js";
import { t } from "../../lib/i18n.js";
import { cardsName } from "../../lib/cards.js";
import { CardBack, Cards } from "../../components/Card.js";
import { CARD_GAME } from "../cards.js";
import { Auction } from "./Auction.js";

// Whether a pass was made in the auction (不叫, "No bid") rather than in play (不出, "Pass").
// The history starts with the auction's moves, as many as `bids` holds, so a move of the
// history is placed by where it stands; anything else (a bubble, a legal move) goes by the
// phase of the view it is drawn with.
export function isAuctionPass(m, view) {
  if (!view) return false;
  const at = view.history ? view.history.indexOf(m) : -1;
  if (at !== -1) return at < (view.bids || []).length;
  return view.phase === "auction";
}

function moveName(m, view) {
  if (m.kind === "bid") return t("ddz.bid_points", { count: m.bid });
  if (m.kind === "pass") return isAuctionPass(m, view) ? t("ddz.no_bid") : t("combo.doudizhu.pass");
  return t(`combo.doudizhu.${m.kind}`);
}

function Role({ view, seat }) {
  if (view.landlord === null || view.landlord === undefined) return null;
  const landlord = view.landlord === seat;
  return html`<span class=${"role " + (landlord ? "landlord" : "peasant")} title=${landlord ? t("ddz.landlord") : t("ddz.peasant")}>
    ${landlord ? html`<svg viewBox="0 0 24 16" class="hat" aria-hidden="true"><path d="M2 14 L12 2 L22 14 Z" /></svg>` : null}
    <span class="role-name">${landlord ? t("ddz.landlord") : t("ddz.peasant")}</span>
  </span>`;
}

// In front of a seat: its bid during the auction, its play in the trick after. Once a trick
// is over it stays, dimmed, until the next lead (the view's `finished_trick`, sent by the
// server), so the pass that ended it is seen; a seat the new trick has not reached yet keeps
// it while the page holds it a moment longer (pages/table.js).
function LastPlay({ view, seat }) {
  const own = (list) => (list || []).filter((e) => e.seat === seat);
  const live = own(view.phase === "auction" ? view.bids : view.trick);
  const old = view.phase === "auction" ? [] : own(view.finished_trick);
  const done = !live.length && old.length > 0;
  const last = done ? old[old.length - 1] : live[live.length - 1];
  if (!last) return null;
  const drawn = !last.cards.length ? html`<span class="bubble" data-kind=${last.kind}>${moveName(last, view)}</span>`
    : html`<${Cards} cards=${last.cards} size="table" label=${moveName(last, view)} />`;
  return done ? html`<span class="done-trick">${drawn}</span>` : drawn;
}

function Centre({ view }) {
  const kitty = view.kitty
    ? html`<${Cards} cards=${view.kitty} size="mini" label=${t("ddz.kitty")} />`
    : html`<span class="cards" role="img" aria-label=${t("ddz.kitty_hidden")}>${[0, 1, 2].map((i) => html`<${CardBack} key=${i} size="mini" />`)}</span>`;
  return html`<div class="ddz-centre">
    <div class="kitty"><span class="label">${t("ddz.kitty")}</span>${kitty}</div>
    <div class="stakes">
      <span class="chip">${view.stake ? t("ddz.bid", { count: view.stake }) : t("ddz.no_bid_yet")}</span>
      <span class="chip">${t("ddz.multiplier", { n: view.multiplier })}</span>
      ${view.bombs ? html`<span class="chip">${t("ddz.bombs", { count: view.bombs })}</span>` : null}
    </div>
  </div>`;
}

function Controls({ view, mine, actions }) {
  if (view.phase !== "auction") return null;
  return html`<${Auction} view=${view} mine=${mine} onBid=${actions.sendMove} moveName=${moveName} />`;
}

function Entry({ entry, view }) {
  return html`<span class="entry">${entry.cards.length ? html`<${Cards} cards=${entry.cards} size="mini" />` : null}
    <span class="entry-name">${moveName(entry, view)}</span></span>`;
}

function Summary({ view }) {
  if (view.thrown_in) return html`<p>${t("ddz.thrown_in")}</p>`;
  const winner = view.winner === view.landlord ? t("ddz.landlord_wins") : t("ddz.peasants_win");
  const parts = [t("ddz.bid", { count: view.stake })];
  if (view.bombs) parts.push(t("ddz.bombs_double", { count: view.bombs }));
  if (view.spring) parts.push(t("ddz.spring_double"));
  return html`<p class="result-line">${winner}</p>
    <p class="breakdown">${parts.join(" × ")} = ${t("ddz.stake_total", { count: view.stake * view.multiplier })}</p>`;
}

function banner(before, view) {
  if (view.history.length > before.history.length) {
    const e = view.history[view.history.length - 1];
    if (e.kind === "rocket") return { kind: "rocket", text: t("combo.doudizhu.rocket") };
    if (e.kind === "bomb") return { kind: "bomb", text: t("combo.doudizhu.bomb") };
  }
  if (view.spring && !before.spring) return { kind: "spring", text: t("ddz.spring") };
  return null;
}

export default {
  name: "doudizhu",
  ...CARD_GAME,
  moveName,
  playText: (e, view) => (e.cards.length ? `${moveName(e, view)}: ${cardsName(e.cards)}` : moveName(e, view)),
  Role,
  LastPlay,
  Centre,
  Controls,
  Entry,
  Summary,
  banner,
  // The kitty stays marked in the landlord's hand.
  marked: (view) => new Set(view.kitty && view.landlord === view.seat ? view.kitty.map((c) => c.c) : []),
};
