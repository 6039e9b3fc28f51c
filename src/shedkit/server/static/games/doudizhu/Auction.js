// The Dou Di Zhu auction: big "1 / 2 / 3 points / no bid" buttons on your turn, and who is
// bidding otherwise (the bids themselves show in bubbles over the seats).
import { html } from "../../lib/html.js";
import { t } from "../../lib/i18n.js";

export function Auction({ view, mine, onBid, moveName }) {
  if (!mine) return html`<div class="auction waiting-bid"><p>${t("ddz.auction_waiting")}</p></div>`;
  const bids = view.legal.filter((m) => m.kind === "bid");
  const pass = view.legal.find((m) => m.kind === "pass");
  return html`<div class="auction" role="group" aria-label=${t("ddz.auction")}>
    <p class="auction-title">${t("ddz.your_bid")}</p>
    <div class="bid-buttons">
      ${bids.map((m) => html`<button type="button" class="bid primary" data-move=${m.m} key=${m.m}
        onClick=${() => onBid(m)}>${moveName(m, view)}</button>`)}
      ${pass ? html`<button type="button" class="bid" data-move=${pass.m} onClick=${() => onBid(pass)}>${t("ddz.no_bid")}</button>` : null}
    </div>
  </div>`;
}
