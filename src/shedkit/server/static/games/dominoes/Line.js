// The line of play: tiles placed by layoutLine (a snake from the first tile that turns at
// the edges with a corner tile, the spinner's four arms in All Fives), and the open ends as
// drop targets. An end the selected tile fits is a button; tapping it reports the end's name
// to the caller.
import { html, useLayoutEffect, useRef, useState } from "../../lib/html.js";
import { layoutLine } from "./layout.js";
import { Tile } from "./Tile.js";

const TOUCH = 44; // px: the least a tap target may measure
const UNIT = 30; // px: the largest tile's short side, as layoutLine has it
const MAX_UNIT = 42; // px: the largest on a big screen's felt

// The size of the element, kept up to date, when the caller gives no width. `fill`: the
// line fills a box the page sizes (the felt's centre), so its height is read as well.
function useSize(ref, given, fill) {
  const [measured, setMeasured] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    if (given || !ref.current) return undefined;
    const el = ref.current;
    const read = () => setMeasured({ width: Math.floor(el.clientWidth), height: fill ? Math.floor(el.clientHeight) : 0 });
    read();
    if (typeof ResizeObserver === "undefined") return undefined;
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, [given, fill]);
  return given ? { width: given, height: 0 } : measured;
}

const box = (r) => `left:${r.x}px;top:${r.y}px;width:${r.w}px;height:${r.h}px`;

// A tap target at least TOUCH px square around the slot, kept inside the line's box.
function touchBox(r, width, height) {
  const w = Math.min(Math.max(r.w, TOUCH), width);
  const h = Math.max(r.h, TOUCH);
  const x = Math.min(Math.max(r.x + r.w / 2 - w / 2, 0), width - w);
  const y = Math.min(Math.max(r.y + r.h / 2 - h / 2, 0), Math.max(height - h, 0));
  return { x, y, w, h, inner: { x: r.x - x, y: r.y - y, w: r.w, h: r.h } };
}

function End({ name, rect, label, onEnd, width, height }) {
  if (!label) {
    return html`<span class="dom-end" data-end=${name} style=${box(rect)} aria-hidden="true"></span>`;
  }
  const t = touchBox(rect, width, height);
  return html`<button
    type="button"
    class="dom-end-btn"
    data-end=${name}
    style=${box(t)}
    aria-label=${label}
    onClick=${() => onEnd && onEnd(name)}
  >
    <span class="dom-end dom-end-target" style=${box(t.inner)}></span>
  </button>`;
}

// Props:
//   line: the view's `line` ({main, spinner, up, down}); ends: the view's `ends`
//   targets: {endName: label} for the ends the selected tile fits ("lead" when the
//     line is empty and the tile may lead); onEnd(endName) is called on a tap
//   lead: index in line.main of the hand's first tile (moves.js leadIndex(history))
//   width: px to lay out in (default: the element's own width); maxHeight: px
//   label: accessible name of the line; tileLabel(tile "a-b") → name of each tile
//   fill: the line fills the box its parent gives it and is scaled to fit it whole,
//     however long it grows (the table's centre), rather than setting its own height
export function Line(props) {
  const ref = useRef(null);
  const fill = !props.width && !!props.fill;
  const { width, height } = useSize(ref, props.width, fill);
  const line = props.line || { main: [] };
  const targets = props.targets || {};
  // Filling a box, the tiles grow with a big felt's box (a big screen's): a tile's short side
  // up to a tenth of its height and a 28th of its width, 42 px at most, 30 px at least.
  const grown = Math.min(MAX_UNIT, Math.max(UNIT, Math.floor(Math.min(height / 10, width / 28))));
  const options = fill ? { maxHeight: height, minUnit: 3, maxUnit: grown } : { maxHeight: props.maxHeight };
  const lay = width && (!fill || height)
    ? layoutLine(line, width, { ...options, centre: props.lead })
    : null;
  const open = new Set(Object.keys(props.ends || {}));
  if (!(line.main || []).length && targets.lead) open.add("lead");
  const style = !lay ? ""
    : fill ? `--dom-unit:${lay.unit}px`
    : `height:${lay.height}px;--dom-unit:${lay.unit}px${props.width ? `;width:${width}px` : ""}`;
  // Filling a box, the tiles are drawn in a band of their own height, centred in it.
  const drawn = html`
    ${lay &&
    lay.tiles.map(
      (t) => html`<${Tile}
        key=${t.id}
        a=${t.halves[0]}
        b=${t.halves[1]}
        vertical=${t.vertical}
        place=${t.id}
        size=${lay.unit}
        label=${props.tileLabel && props.tileLabel(`${t.halves[0]}-${t.halves[1]}`)}
        cls=${`dom-placed${t.spinner ? " dom-spinner" : ""}`}
        style=${box(t)}
      />`,
    )}
    ${lay &&
    Object.entries(lay.ends)
      .filter(([name]) => open.has(name))
      .map(
        ([name, r]) => html`<${End}
          key=${`end-${name}`}
          name=${name}
          rect=${r}
          label=${targets[name]}
          onEnd=${props.onEnd}
          width=${width}
          height=${lay.height}
        />`,
      )}
  `;

  return html`<div
    ref=${ref}
    class=${"dom-line" + (fill ? " dom-fill" : "")}
    role="group"
    aria-label=${props.label}
    data-unit=${lay && lay.unit}
    style=${style}
  >${fill && lay
    ? html`<div class="dom-band" style=${`top:${Math.max(0, (height - lay.height) / 2)}px;height:${lay.height}px`}>${drawn}</div>`
    : drawn}</div>`;
}
