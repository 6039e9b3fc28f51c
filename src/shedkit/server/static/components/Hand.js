// The player's hand, fanned at the bottom: items overlap as much as the width needs, but
// never so much that a card's corner (rank and suit, "10" whole) is hidden: a hand too long
// for one row at that overlap takes two (or more), the later row over the lower part of the
// one before. Tap selects; tap a selected item again, or drag the hand up, to play.
import { html, useEffect, useLayoutEffect, useRef, useState } from "../lib/html.js";
import { t } from "../lib/i18n.js";

// The share of a card's width left in view at the most overlap: its corner index (the rank
// over the suit, "10" whole) takes the left 28 of the face's 60 units (components/Card.js).
const CORNER = 0.5;

// How many rows, items per row and the step between items for n items in `width` px.
// minStrip: the least an item must show, when its drawing says (a tile: its pips).
export function fan(n, width, itemWidth, minStrip = Math.ceil(itemWidth * CORNER)) {
  const room = width - itemWidth - 8;
  const least = Math.min(itemWidth + 6, minStrip);
  let rows = 1;
  if (width && n > 1 && room / (n - 1) < least) rows = Math.ceil(n / (Math.max(0, Math.floor(room / least)) + 1));
  const perRow = Math.ceil(n / rows) || 1;
  const step = perRow > 1 && width ? Math.min(itemWidth + 6, room / (perRow - 1)) : itemWidth + 6;
  return { rows, perRow, step };
}

// The hand's inner width, read before the first paint too: a fan laid out for no width
// would spill off a phone's screen for a frame.
function useWidth(ref) {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!ref.current) return undefined;
    const el = ref.current;
    const style = getComputedStyle(el);
    setWidth(el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight));
    const observer = new ResizeObserver((entries) => setWidth(entries[0].contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return width;
}

// props: items, Item (component drawing one item: Card or Tile), itemWidth (px), selected,
// playable (keys), wrong (ids), marked (ids), shake (a counter: each change shakes), onTap,
// onPlay (drag up), onSwipe (an item swiped over: select it), label.
export function Hand({ items, Item, itemWidth, selected, playable, wrong, marked, shake, onTap, onPlay, onSwipe, label }) {
  const ref = useRef(null);
  const width = useWidth(ref);
  const drag = useRef(null);
  const n = items.length;
  const { rows, perRow, step } = fan(n, width, itemWidth, Item.minStrip ? Item.minStrip() : undefined);
  const lines = Array.from({ length: rows }, (_, r) => items.slice(r * perRow, (r + 1) * perRow));

  useEffect(() => {
    if (!shake || !ref.current || !ref.current.animate) return;
    ref.current.animate(
      [{ transform: "translateX(0)" }, { transform: "translateX(-8px)" }, { transform: "translateX(8px)" },
        { transform: "translateX(-5px)" }, { transform: "translateX(0)" }],
      { duration: 320, easing: "ease-in-out" });
  }, [shake]);

  // A slot under the pointer, for a swipe across the fan.
  const itemAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    const slot = el && el.closest(".hand-slot");
    return slot && ref.current.contains(slot) ? items[Number(slot.dataset.index)] : null;
  };
  const down = (e) => {
    // A new gesture: a swipe that ended on another card left no click to swallow.
    delete ref.current.dataset.dragged;
    drag.current = { x: e.clientX, y: e.clientY, mode: null, swiped: new Set() };
  };
  // Swiping sideways across overlapped cards selects each card passed over, as in the
  // Dou Di Zhu apps: on a phone a card's visible strip is narrow.
  const move = (e) => {
    const d = drag.current;
    if (!d || !onSwipe) return;
    if (!d.mode) {
      const dx = Math.abs(e.clientX - d.x);
      if (dx < 12 || dx < Math.abs(e.clientY - d.y)) return;
      d.mode = "swipe";
      const first = itemAt(d.x, d.y);
      if (first) { d.swiped.add(first.c); onSwipe(first); }
    }
    const item = itemAt(e.clientX, e.clientY);
    if (item && !d.swiped.has(item.c)) { d.swiped.add(item.c); onSwipe(item); }
  };
  const up = (e) => {
    const d = drag.current;
    drag.current = null;
    if (d && d.mode === "swipe") {
      ref.current.dataset.dragged = "1";
    } else if (d && d.y - e.clientY > 48 && selected.size) {
      // A drag upwards plays; the click that follows the drag must not toggle a card.
      ref.current.dataset.dragged = "1";
      onPlay();
    }
  };
  const tap = (item, e) => {
    if (ref.current.dataset.dragged === "1") {
      delete ref.current.dataset.dragged;
      return;
    }
    onTap(item, e);
  };

  return html`<div class=${`hand rows-${rows}`} ref=${ref} role="group" aria-label=${label || t("table.your_hand")}
      style=${`--step:${step}px;--item:${itemWidth}px`} onPointerDown=${down} onPointerMove=${move} onPointerUp=${up}>
    ${lines.map((line, r) => html`<div class="hand-row" key=${r}>${line.map((item, j) => {
      const i = r * perRow + j;
      return html`<div class="hand-slot" key=${item.c} data-index=${i}
        style=${`z-index:${i + 1};margin-left:${j ? step - itemWidth : 0}px`}>
      <${Item} item=${item} card=${item} size="hand" selected=${selected.has(item.c)}
        playable=${playable.has(item.k)} wrong=${wrong.has(item.c)} marked=${marked.has(item.c)}
        onTap=${tap} />
    </div>`;
    })}</div>`)}
  </div>`;
}
