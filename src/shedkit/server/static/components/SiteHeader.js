// The header of the lobby and the How-to-play pages: the site name, the language, the name.
import { html } from "../lib/html.js";
import { t } from "../lib/i18n.js";
import { LanguageSwitcher } from "./LanguageSwitcher.js";

// props: lang (current language code), children (what goes beside the language: the name field).
export function SiteHeader({ lang, children }) {
  return html`<header class="site-header">
    <div class="brand">
      <a href="/" class="brand-name">shedkit</a>
      <span class="brand-tagline">${t("lobby.tagline")}</span>
    </div>
    <div class="header-tools">
      ${children}
      <${LanguageSwitcher} value=${lang} />
    </div>
  </header>`;
}
