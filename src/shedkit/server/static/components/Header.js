// The table page's header: where you are, the language, sounds, the deck's colours, invite.
import { html } from "../lib/html.js";
import { LANGUAGES, setLanguage, t, language } from "../lib/i18n.js";

export function LanguagePicker() {
  return html`<label class="lang">
    <span class="visually-hidden">${t("common.language")}</span>
    <select id="lang" onChange=${(e) => setLanguage(e.target.value)}>
      ${LANGUAGES.map((l) => html`<option value=${l.code} selected=${l.code === language()} lang=${l.code}>${l.name}</option>`)}
    </select>
  </label>`;
}

// props: title, subtitle, settings ({sound, fourColour}), onSetting(name, value), onInvite.
export function Header({ title, subtitle, settings, onSetting, onInvite }) {
  return html`<header class="room-header">
    <a href="/" class="home">${t("common.brand")}</a>
    <div class="where"><h1 id="title">${title}</h1>${subtitle ? html`<span class="sub">${subtitle}</span>` : null}</div>
    <div class="tools">
      <button type="button" class="tool" aria-pressed=${settings.sound ? "true" : "false"}
        onClick=${() => onSetting("sound", !settings.sound)}>${settings.sound ? t("table.sound_on") : t("table.sound_off")}</button>
      <button type="button" class="tool" aria-pressed=${settings.fourColour ? "true" : "false"}
        onClick=${() => onSetting("fourColour", !settings.fourColour)}>${t("table.four_colour")}</button>
      ${onInvite ? html`<button type="button" class="tool" id="invite" onClick=${onInvite}>${t("table.invite")}</button>` : null}
      <${LanguagePicker} />
    </div>
  </header>`;
}
