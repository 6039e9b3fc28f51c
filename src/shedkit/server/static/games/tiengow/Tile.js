// A Chinese domino as Tien Gow plays it, drawn as inline SVG: a dark tile standing up, the
// lower number on top (TG-80), white pips and red ones where real tiles have them (the ones
// and the fours; on the double six the left column of each half), a rim in the colour of
// its suit (civil gold, military blue). A face-down tile is its back, which tells nothing,
// not even its suit. No blank halves: the set has none (DOM-30).
import { html } from "../../lib/html.js";

// Pip places in a half, as (row, column) of a 3 × 3 grid; a two lies along the tile's end.
const PIPS = {
  1: [[1, 1]],
  2: [[0, 0], [0, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [0, 2], [2, 0], [2, 2]],
  5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]],
  6: [[0, 0], [0, 2], [1, 0], [1, 2], [2, 0], [2, 2]],
};
const RED = new Set([1, 4]);
const W = 100;
const H = 220;
const HALF = H / 2;
const COLS = [27, 50, 73];
const ROWS = [25, 55, 85];

// "1-3" as its two numbers, the lower first.
export function halvesOf(text) {
  const [a, b] = String(text).split("-").map(Number);
  return a <= b ? [a, b] : [b, a];
}

function half(n, bottom, doubleSix) {
  const spots = n === 2 && bottom ? PIPS[2].map(([, c]) => [2, c]) : PIPS[n] || [];
  return spots.map(([r, c]) => {
    const red = RED.has(n) || (doubleSix && c === 0);
    return html`<circle class=${red ? "tg-red" : "tg-white"} cx=${COLS[c]} cy=${ROWS[r] + (bottom ? HALF : 0)}
      r=${n === 1 ? 15 : 9.5} />`;
  });
}

// The drawing alone. props: tile ("a-b"), suit ("civil" | "military"), size (width in px),
// back (draw the back instead), cls.
export function TileFace({ tile, suit, size = 24, back = false, cls = "" }) {
  const width = size;
  const height = Math.round((size * H) / W);
  const box = `-3 -3 ${W + 6} ${H + 8}`;
  if (back) {
    return html`<svg class=${`tg-face tg-back ${cls}`} viewBox=${box} width=${width} height=${height} aria-hidden="true" focusable="false">
      <rect class="tg-edge" x="1" y="4" width=${W} height=${H} rx="14" />
      <rect class="tg-back-body" x="0" y="0" width=${W} height=${H} rx="14" />
      <rect class="tg-back-inlay" x="14" y="14" width=${W - 28} height=${H - 28} rx="8" />
      <path class="tg-back-lattice" d=${`M14 ${HALF} L50 60 L86 ${HALF} L50 160 Z M50 14 V60 M50 160 V${H - 14}`} />
    </svg>`;
  }
  const [a, b] = halvesOf(tile);
  const doubleSix = a === 6 && b === 6;
  return html`<svg class=${`tg-face tg-${suit || "civil"} ${cls}`} viewBox=${box} width=${width} height=${height}
    aria-hidden="true" focusable="false">
    <rect class="tg-edge" x="1" y="4" width=${W} height=${H} rx="14" />
    <rect class="tg-body" x="0" y="0" width=${W} height=${H} rx="14" />
    <line class="tg-divider" x1="16" y1=${HALF} x2=${W - 16} y2=${HALF} />
    <g>${half(a, false, doubleSix)}${half(b, true, doubleSix)}</g>
  </svg>`;
}

// A tile as a picture with its spoken name (`label`), or a back. props: item ({t, s} or
// {back: true}), size, label, cls (extra classes: tg-high, tg-down).
export function Tile({ item, size = 20, label, cls = "" }) {
  const back = !!item.back;
  return html`<span class=${`tg-tile ${cls}`} data-tile=${back ? "back" : item.t} role=${label ? "img" : undefined}
    aria-label=${label} title=${label} aria-hidden=${label ? undefined : "true"}>
    <${TileFace} tile=${item.t} suit=${item.s} size=${size} back=${back} />
  </span>`;
}

// Tiles in a row; `backs` more backs after them (another seat's discard, TG-25).
export function TileRow({ items = [], backs = 0, size = 20, label, cls = "", high = false }) {
  const all = [...items, ...Array.from({ length: backs }, (_, i) => ({ c: `back-${i}`, back: true }))];
  return html`<span class=${`tg-row ${high ? "tg-high" : ""} ${cls}`} role=${label ? "img" : undefined} aria-label=${label}
    title=${label} aria-hidden=${label ? undefined : "true"}>
    ${all.map((x, i) => html`<${Tile} key=${x.c ?? i} item=${x} size=${size} />`)}
  </span>`;
}
