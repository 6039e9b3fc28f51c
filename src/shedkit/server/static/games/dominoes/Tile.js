// A domino tile drawn as inline SVG: ivory face, black pips (0 to 12 per half), a thin
// divider with its pin, rounded corners. Horizontal or vertical, at any size; given
// `onClick` it is a toggle button (hand tiles), otherwise a picture (tiles on the line).
import { html } from "../../lib/html.js";

// Pip centres in a 100×100 half drawn upright (the tile vertical); a horizontal tile
// swaps x and y, so a six reads as two rows of three as on a real tile turned sideways.
const C3 = [25, 50, 75];
const R4 = [19, 39.5, 60.5, 81];
const grid = (cols, rows) => cols.flatMap((x) => rows.map((y) => [x, y]));
const PIPS = [
  [],
  [[50, 50]],
  [[27, 27], [73, 73]],
  [[25, 25], [50, 50], [75, 75]],
  grid([27, 73], [27, 73]),
  [...grid([25, 75], [25, 75]), [50, 50]],
  grid([28, 72], C3),
  [...grid([28, 72], C3), [50, 50]],
  [...grid([25, 75], C3), [50, 25], [50, 75]],
  grid(C3, C3),
  [...grid([24, 76], R4), [50, 29.5], [50, 70.5]],
  [...grid([24, 76], R4), [50, 25], [50, 50], [50, 75]],
  grid([24, 50, 76], R4),
];

// "6-2" (or [6, 2]) as two numbers.
export function halvesOf(t) {
  if (Array.isArray(t)) return t;
  const [a, b] = String(t).split("-").map(Number);
  return [a, b];
}

function pips(n, offset, vertical) {
  const r = n > 9 ? 7.2 : n > 6 ? 8.2 : 9.4;
  return (PIPS[n] || []).map(([x, y]) => {
    const [cx, cy] = vertical ? [x, y + offset] : [y + offset, x];
    return html`<circle cx=${cx} cy=${cy} r=${r} />`;
  });
}

// The drawing alone: `a` is the left (or top) half, `b` the right (or bottom) half.
export function TileFace({ a, b, vertical = false, width, height, cls = "" }) {
  const [w, h] = vertical ? [100, 200] : [200, 100];
  const divider = vertical
    ? html`<line x1="14" y1="100" x2="86" y2="100" />`
    : html`<line x1="100" y1="14" x2="100" y2="86" />`;
  return html`<svg
    class=${`dom-face ${cls}`}
    viewBox=${`-3 -3 ${w + 7} ${h + 8}`}
    width=${width}
    height=${height}
    aria-hidden="true"
    focusable="false"
  >
    <rect class="dom-edge" x="1" y="3" width=${w} height=${h} rx="13" />
    <rect class="dom-body" x="0" y="0" width=${w} height=${h} rx="13" />
    <g class="dom-divider">${divider}</g>
    <circle class="dom-pin" cx=${w / 2} cy=${h / 2} r="4.5" />
    <g class="dom-pips">${pips(a, 0, vertical)}${pips(b, 100, vertical)}</g>
  </svg>`;
}

// A tile. Props:
//   tile: "6-2" or [6, 2] (or a, b: the halves); vertical; size: short side in px
//   label: its accessible name (from the caller's catalogue)
//   onClick: makes it a button; pressed (selected), disabled, playable mark its state
//   style, cls: placement and extra classes given by the container; place: its place on
//   the line (data-place: "m3", the fourth tile of the main line; "u0", "d0" the spinner's
//   arms), for whoever reads the drawing back
export function Tile(props) {
  const { vertical = false, size = 32, label, onClick, pressed = false } = props;
  const [a, b] = props.tile != null ? halvesOf(props.tile) : [props.a, props.b];
  const [w, h] = vertical ? [size, size * 2] : [size * 2, size];
  const double = a === b ? " dom-double" : "";
  const face = html`<${TileFace} a=${a} b=${b} vertical=${vertical} width=${w} height=${h} />`;
  if (!onClick) {
    return html`<span
      class=${`dom-tile${double} ${props.cls || ""}`}
      style=${props.style}
      data-tile=${`${a}-${b}`}
      data-place=${props.place}
      role=${label ? "img" : undefined}
      aria-label=${label}
      aria-hidden=${label ? undefined : "true"}
      >${face}</span
    >`;
  }
  const state = [
    props.playable ? "dom-playable" : "",
    pressed ? "dom-selected" : "",
    props.disabled ? "dom-disabled" : "",
  ].join(" ");
  return html`<button
    type="button"
    class=${`dom-tile dom-tile-btn${double} ${state} ${props.cls || ""}`}
    style=${props.style}
    data-tile=${`${a}-${b}`}
    aria-pressed=${pressed ? "true" : "false"}
    aria-label=${label}
    disabled=${props.disabled}
    onClick=${onClick}
  >
    ${face}
  </button>`;
}
