// The display-name field: the name other players see at the table (no account behind it).
import { html } from "../lib/html.js";
import { t } from "../lib/i18n.js";

// props: value, missing (ask for it: the player tried to sit without one), onInput(name).
export function NameField({ value, missing, onInput }) {
  return html`<div class=${missing ? "name-field missing" : "name-field"}>
    <label for="name">${t("lobby.name.label")}</label>
    <input id="name" maxlength="24" autocomplete="nickname" value=${value}
      placeholder=${t("lobby.name.placeholder")} aria-describedby="name-help"
      aria-invalid=${missing ? "true" : "false"} onInput=${(e) => onInput(e.target.value)} />
    <p id="name-help" class="help">${missing ? t("lobby.name.missing") : t("lobby.name.help")}</p>
  </div>`;
}
