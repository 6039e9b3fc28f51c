// One playing card as an SVG face. In a hand it is a button (aria-pressed shows the
// selection); elsewhere an image with its spoken name.
import { html } from "../lib/html.js";
import { t } from "../lib/i18n.js";
import { cardName, face, suitClass } from "../lib/cards.js";

const STAR = "M0,-16 L4.7,-6.5 15.2,-4.9 7.6,2.5 9.4,13 0,8 -9.4,13 -7.6,2.5 -15.2,-4.9 -4.7,-6.5Z";

// The corner index, the same at every size: the rank over the suit, in the left 28 of the
// face's 60 units, which is what a row of overlapping cards leaves in view of each (`.cards`
// overlaps by half). Drawn this big, a card 32 px wide still shows both at 11 px or more.
const INDEX = { x: 3, rankY: 23, suitY: 42, width: 25 };

// A joker lettered down its left edge as on a real deck ("JOKER"; 大王 / 小王 in Chinese),
// where an overlapped hand still shows it. Big and small differ by more than colour: the
// big joker's star is filled and crowned, the small one's only outlined. Drawn small (on the
// table, in the log) the letters would be unreadable: one mark stands for them there
// ("J"; 大 / 小), in the corner where other cards show their rank.
function JokerFace({ f, size }) {
  const big = f.joker !== "black";
  const small = size !== "hand";
  const letters = Array.from(t(`card.${small ? "joker_short" : "joker_mark"}.${f.joker}`));
  const wide = letters.some((c) => c.charCodeAt(0) > 0x2e80);
  const fs = small ? 22 : Math.min(wide ? 17 : 15, 74 / letters.length);
  const x = 3 + fs / 2;
  // Colours set here, not in a page's style sheet, so a joker looks the same on every page.
  const ink = big ? "var(--red, #c0182b)" : "#111";
  const star = big ? `fill:${ink}` : `fill:none;stroke:${ink};stroke-width:2.6;stroke-linejoin:round`;
  return html`<svg viewBox="0 0 60 84" class="face" aria-hidden="true">
    <rect x="1" y="1" width="58" height="82" rx="5" class="paper" />
    <text class="joker-letters" text-anchor="middle" style=${`font:800 ${fs}px system-ui, sans-serif;fill:${ink}`}>
      ${letters.map((c, i) => html`<tspan key=${i} x=${x} y=${(small ? 1 : 5) + fs * (i + 0.9)}>${c}</tspan>`)}
    </text>
    ${big && !small ? html`<path class="joker-crown" style=${`fill:${ink}`}
      d="M26 29 L27.5 19 L32.5 24 L36 15 L39.5 24 L44.5 19 L46 29 Z" />` : null}
    <g transform=${small ? "translate(15 48) scale(0.62)" : "translate(36 50) scale(0.95)"}
      class=${"joker-star" + (big ? " big" : " small")} style=${star}><path d=${STAR} /></g>
  </svg>`;
}

function Face({ f, size }) {
  if (f.joker) return html`<${JokerFace} f=${f} size=${size} />`;
  return html`<svg viewBox="0 0 60 84" class="face" aria-hidden="true">
    <rect x="1" y="1" width="58" height="82" rx="5" class="paper" />
    <text x=${INDEX.x} y=${INDEX.rankY} class="rank" textLength=${f.rank.length > 1 ? INDEX.width : null}
      lengthAdjust="spacingAndGlyphs">${f.rank}</text>
    <text x=${INDEX.x + 1} y=${INDEX.suitY} class="pip">${f.symbol}</text>
    <text x="40" y="74" class="big-pip" text-anchor="middle">${f.symbol}</text>
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
      onClick=${(e) => onTap(card, e)}><${Face} f=${f} size=${size} /></button>`;
  }
  return html`<span class=${cls} role="img" aria-label=${name} data-card=${card.c}><${Face} f=${f} size=${size} /></span>`;
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
