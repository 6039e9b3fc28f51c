// Draws its children at their natural size, scaled down (never up) to fit the box it is
// given: a long play in front of a narrow seat, the centre of a short felt. The box is
// measured, not guessed, so what is drawn cannot spill onto a seat or the hand.
import { html, useLayoutEffect, useRef, useState } from "../lib/html.js";

// props: cls (the outer box's class), height (fit the height too, not only the width).
export function Fit({ cls, height, children }) {
  const outer = useRef(null);
  const inner = useRef(null);
  const [scale, setScale] = useState(1);
  useLayoutEffect(() => {
    const o = outer.current;
    const i = inner.current;
    if (!o || !i || typeof ResizeObserver === "undefined") return undefined;
    // offsetWidth and offsetHeight ignore the transform: the natural size, whatever the scale.
    const measure = () => {
      const w = i.offsetWidth;
      const h = i.offsetHeight;
      let s = w > o.clientWidth ? o.clientWidth / w : 1;
      if (height && h > o.clientHeight) s = Math.min(s, o.clientHeight / h);
      setScale(Math.max(0.2, Math.floor(s * 100) / 100));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(o);
    ro.observe(i);
    return () => ro.disconnect();
  }, [height]);
  return html`<div class=${"fit " + (cls || "")} ref=${outer}>
    <div class="fit-inner" ref=${inner} style=${scale < 1 ? `transform:scale(${scale})` : ""}>${children}</div>
  </div>`;
}

// The centre is a cell of the felt's grid, apart from the seats: a game that lays itself out
// in the space it is given (the Dominoes line) fills it, any other is scaled down to fit.
export function centreOf(game, drawn) {
  return game.fillsCentre ? html`<div class="centre-fill">${drawn}</div>` : html`<${Fit} cls="centre-fit" height=${true}>${drawn}</${Fit}>`;
}
