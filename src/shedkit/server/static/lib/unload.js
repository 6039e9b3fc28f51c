// The browser's own "Leave site?" before the page is closed, reloaded or left by Back, while
// a seated player's deal is on: the page asks in its own dialog for its own ways out (the
// Leave button, the home link), the browser for the rest. Its words are the browser's, in
// its language: no page may set them.
import { useEffect } from "./html.js";

function ask(e) {
  e.preventDefault();
  e.returnValue = ""; // what older browsers need to ask
}

// Ask while `active` holds; the question is taken away as soon as it no longer does.
export function useAskBeforeUnload(active) {
  useEffect(() => {
    if (!active) return undefined;
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [active]);
}

// The page leaves its seat itself (and may go home): nothing is left to ask about.
export function stopAsking() {
  window.removeEventListener("beforeunload", ask);
}
