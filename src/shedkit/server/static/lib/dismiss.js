// Closing what floats over the table (a dialog, a menu): Escape, caught before the table's
// own Escape (which clears the selection), and, for a menu, a press outside the element it
// lives in. One hook for the dialogs, the header's menu and the quick chat.
import { useLayoutEffect, useRef } from "./html.js";

// While `active`: Escape calls onEscape(); a pointer pressed outside `inside` (a ref)
// calls onAway(). The latest callbacks are called, not those of the first render.
// The keys are caught from the moment the dialog or menu is on the page (a layout effect,
// not one after the next frame): an Escape pressed at once must not reach the table instead.
export function useDismiss(active, { onEscape, inside = null, onAway = null }) {
  const latest = useRef({ onEscape, onAway });
  latest.current = { onEscape, onAway };
  useLayoutEffect(() => {
    if (!active) return undefined;
    const keys = (e) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopImmediatePropagation();
      latest.current.onEscape();
    };
    const away = (e) => {
      if (inside && inside.current && !inside.current.contains(e.target)) latest.current.onAway();
    };
    document.addEventListener("keydown", keys, true);
    if (inside) document.addEventListener("pointerdown", away, true);
    return () => {
      document.removeEventListener("keydown", keys, true);
      if (inside) document.removeEventListener("pointerdown", away, true);
    };
  }, [active]);
}
