// A server or network error in the page's language: the server sends a stable code and
// the facts a person needs (`data`); the words come from the `errors` catalogue part.
import { html } from "../lib/html.js";
import { has, t } from "../lib/i18n.js";

// The text of an error `{code, data}` (as the API and the WebSocket send it). `game`
// names the game an option error is about, so the option shows by its label.
export function errorText(error, { game } = {}) {
  const code = error && error.code;
  const data = { ...((error && error.data) || {}) };
  // The protocol counts seats from 0; people count them from 1.
  if (typeof data.seat === "number") data.seat += 1;
  let key = `error.${code}`;
  if (code === "bad_option" && data.option) {
    const label = `option.${game}.${data.option}.label`;
    data.option = game && has(label) ? t(label) : data.option;
    key = "error.bad_option_named";
  }
  // One code can cover several cases; `reason` picks the catalogue's sentence for it.
  if (data.reason && has(`${key}_${data.reason}`)) key = `${key}_${data.reason}`;
  if (!code || !has(key)) key = "error.unknown";
  return t(key, data);
}

// props: error ({code, data} or null), game (for option labels), id.
export function ErrorMessage({ error, game, id }) {
  return html`<p class="error-message" id=${id} role="alert">${error ? errorText(error, { game }) : null}</p>`;
}
