// What the page tells a player besides the table: toasts for errors, the reconnecting
// overlay that blocks input while offline, banners for big plays, the spoken line.
import { html, useRef } from "../lib/html.js";
import { t } from "../lib/i18n.js";
import { useFlyIn } from "../lib/anim.js";

// Its children fly in from the side of `place` each time `id` changes (a new play).
export function Fly({ id, place, children }) {
  const ref = useRef(null);
  useFlyIn(ref, id, place);
  return html`<div class="fly" ref=${ref}>${children}</div>`;
}

// props: toasts ([{id, text}]), onClose(id).
export function Toasts({ toasts, onClose }) {
  return html`<div class="toasts" role="alert" aria-live="assertive">
    ${toasts.map((toast) => html`<div class="toast" key=${toast.id}>
      <span>${toast.text}</span>
      <button type="button" class="toast-close" aria-label=${t("common.close")}
        onClick=${() => onClose(toast.id)}>×</button>
    </div>`)}
  </div>`;
}

// Shown while the socket is closed: it dims the page and takes every click.
export function Reconnecting({ status }) {
  if (status.state === "open") return null;
  const seconds = status.retryIn ? Math.max(1, Math.round(status.retryIn / 1000)) : null;
  return html`<div class="overlay reconnecting" id="reconnecting" role="status">
    <div class="overlay-box">
      <div class="spinner" aria-hidden="true"></div>
      <p>${status.state === "connecting" ? t("table.connecting") : t("table.reconnecting", { count: seconds || 1 })}</p>
    </div>
  </div>`;
}

// A short banner over the felt: bomb, rocket, spring, revolution…
export function Banner({ banner }) {
  if (!banner) return null;
  return html`<div class=${`banner banner-${banner.kind}`} key=${banner.id} aria-hidden="true">
    ${banner.text}
  </div>`;
}

// The line a screen reader speaks: turns and plays, in the page's language.
export function Announcer({ text }) {
  return html`<p class="visually-hidden" id="announcer" aria-live="polite">${text}</p>`;
}
