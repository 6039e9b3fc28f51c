// The language menu of a page: each language under its own name, so anyone can find theirs.
import { html } from "../lib/html.js";
import { LANGUAGES, setLanguage, t } from "../lib/i18n.js";

// props: value (the current language code).
export function LanguageSwitcher({ value }) {
  return html`<label class="lang-switch">
    <span class="lang-switch-label">${t("lobby.language")}</span>
    <select id="lang" value=${value} onChange=${(e) => setLanguage(e.target.value)}>
      ${LANGUAGES.map((l) => html`<option value=${l.code} lang=${l.code}>${l.name}</option>`)}
    </select>
  </label>`;
}
