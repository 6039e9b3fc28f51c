// One playing card as an SVG face. In a hand it is a button (aria-pressed shows the
// selection); elsewhere an image with its spoken name.
import { html } from "../lib/html.js";
import { cardName, face, suitClass } from "../lib/cards.js";

function Face({ f }) {
  if (f.joker) {
    return html`<svg viewBox="0 0 60 84" class="face" aria-hidden="true">
      <rect x="1" y="1" width="58" height="82" rx="5" class="paper" />
      <g transform="translate(12 14) scale(0.35)" class="joker-star">
        <path d="M0,-16 L4.7,-6.5 15.2,-4.9 7.6,2.5 9.4,13 0,8 -9.4,13 -7.6,2.5 -15.2,-4.9 -4.7,-6.5Z" />
      </g>
      <g transform="translate(30 46) scale(1.25)" class="joker-star">
        <path d="M0,-16 L4.7,-6.5 15.2,-4.9 7.6,2.5 9.4,13 0,8 -9.4,13 -7.6,2.5 -15.2,-4.9 -4.7,-6.5Z" />
      </g>
    </svg>`;
  }
  return html`<svg viewBox="0 0 60 84" class="face" aria-hidden="true">
    <rect x="1" y="1" width="58" height="82" rx="5" class="paper" />
    <text x="5" y="19" class="rank" textLength=${f.rank.length > 1 ? 20 : null}
      lengthAdjust="spacingAndGlyphs">${f.rank}</text>
    <text x="6" y="33" class="pip">${f.symbol}</text>
    <text x="33" y="66" class="big-pip" text-anchor="middle">${f.symbol}</text>
  </svg>`;
}

// props: card ({t, c, k}), size ("hand" | "table" | "mini"), selected, playable, marked
// (kitty cards in the landlord's hand), wrong (breaks the selection), onTap, label.
export function Card({ card, size = "table", selected, playable, marked, wrong, onTap, label }) {
  const f = face(card.t);
  const name = label || cardName(card.t);
  const cls = ["card", `card-${size}`, suitClass(f), selected && "selected", playable && "playable",
    marked && "marked", wrong && "wrong"].filter(Boolean).join(" ");
  if (onTap) {
    return html`<button type="button" class=${cls} aria-pressed=${selected ? "true" : "false"}
      aria-label=${name} data-card=${card.c} data-key=${card.k}
      onClick=${(e) => onTap(card, e)}><${Face} f=${f} /></button>`;
  }
  return html`<span class=${cls} role="img" aria-label=${name} data-card=${card.c}><${Face} f=${f} /></span>`;
}

// A row of small cards: a play in the trick, the log, the end of deal, the replay.
export function Cards({ cards, size = "table", label }) {
  return html`<span class="cards" role="group" aria-label=${label || null}>
    ${cards.map((c) => html`<${Card} key=${c.c} card=${c} size=${size} />`)}
  </span>`;
}

// A card face down (the kitty before the auction ends, a hand-off in the tax).
export function CardBack({ size = "table" }) {
  return html`<span class=${`card card-${size} back`} aria-hidden="true">
    <svg viewBox="0 0 60 84" class="face"><rect x="1" y="1" width="58" height="82" rx="5" class="back-paper" />
      <rect x="6" y="6" width="48" height="72" rx="3" class="back-pattern" /></svg>
  </span>`;
}
