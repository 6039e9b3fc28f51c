// Cards fly to the table: a play's cards glide in from the seat that played them.
import { useLayoutEffect } from "./html.js";

const FROM = {
  "pos-bottom": [0, 120], "pos-top": [0, -90], "pos-left": [-140, 0], "pos-right": [140, 0],
  "pos-top-left": [-110, -70], "pos-top-right": [110, -70],
  "pos-bottom-left": [-110, 70], "pos-bottom-right": [110, 70],
};

// Animate ref's element each time `key` changes (a new play), from the side of `place`.
export function useFlyIn(ref, key, place) {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !el.animate || !key || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const [x, y] = FROM[place] || [0, 60];
    el.animate(
      [{ transform: `translate(${x}px, ${y}px) scale(0.6)`, opacity: 0.2 }, { transform: "none", opacity: 1 }],
      { duration: 280, easing: "cubic-bezier(.2,.8,.3,1)" });
  }, [key]);
}
