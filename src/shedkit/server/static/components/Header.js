// The table page's header: where you are, the language, sounds, the deck's colours, invite.
import { html, useRef, useState } from "../lib/html.js";
import { useDismiss } from "../lib/dismiss.js";
import { LANGUAGES, setLanguage, t, language } from "../lib/i18n.js";
import { SORT_MODES } from "../lib/sort.js";
import { SOUND_MODES, soundMode } from "../lib/sound.js";

export function LanguagePicker() {
  return html`<label class="lang">
    <span class="visually-hidden">${t("common.language")}</span>
    <select id="lang" onChange=${(e) => setLanguage(e.target.value)}>
      ${LANGUAGES.map((l) => html`<option value=${l.code} selected=${l.code === language()} lang=${l.code}>${l.name}</option>`)}
    </select>
  </label>`;
}

// The order of the hand: big to small, small to big, grouped by count (lib/sort.js).
function SortPicker({ mode, onPick }) {
  return html`<label class="sort">
    <span class="visually-hidden">${t("table.sort_hand")}</span>
    <select id="sort" title=${t("table.sort_hand")} onChange=${(e) => onPick(e.target.value)}>
      ${SORT_MODES.map((m) => html`<option value=${m} selected=${m === mode}>${t(`table.sort_${m}`)}</option>`)}
    </select>
  </label>`;
}

// The sounds: every one, only the last seconds of your turn (the default), none (lib/sound.js).
function SoundPicker({ mode, onPick }) {
  return html`<label class="sound">
    <span class="visually-hidden">${t("table.sound")}</span>
    <select id="sound" title=${t("table.sound")} onChange=${(e) => onPick(e.target.value)}>
      ${SOUND_MODES.map((m) => html`<option value=${m} selected=${m === mode}>${t(`table.sound_${m}`)}</option>`)}
    </select>
  </label>`;
}

// The keys the table answers to, for the shortcuts dialog; passName: the game's own word.
export function ShortcutList({ passName }) {
  const rows = [["space", t("table.play")], ["p", passName], ["h", t("table.shortcut_hint")],
    ["esc", t("table.shortcut_clear")], ["help", t("table.shortcut_help")]];
  return html`<dl class="shortcut-list">
    ${rows.map(([key, what]) => html`<div key=${key}><dt><kbd>${t(`table.key_${key}`)}</kbd></dt><dd>${what}</dd></div>`)}
  </dl>`;
}

// props: title, subtitle, settings ({sound: a mode of lib/sound.js, fourColour, autoPass}),
// onSetting(name, value), onInvite, sortMode (the hand's order, where the game has cards to
// sort: those games also offer to pass for you when nothing beats the play), onShortcuts,
// onHome (given while following the home link would leave a deal in progress: called
// instead, to ask first), cards (the game is played with cards: the four-colour deck is
// offered; tiles have no suits to colour).
// On a phone the tools fold into a menu under one button, so that the header takes one
// line and the table gets the height; on wider screens they stand in the header itself.
export function Header({ title, subtitle, settings, onSetting, onInvite, sortMode, onShortcuts, onHome, extra, cards }) {
  const [open, setOpen] = useState(false);
  const root = useRef(null);
  useDismiss(open, {
    inside: root,
    onAway: () => setOpen(false),
    onEscape: () => {
      setOpen(false);
      const toggle = root.current && root.current.querySelector(".menu-toggle");
      if (toggle) toggle.focus();
    },
  });
  return html`<header class=${"room-header" + (open ? " menu-open" : "")} ref=${root}>
    <a href="/" class="home" onClick=${onHome ? (e) => { e.preventDefault(); setOpen(false); onHome(); } : null}>${t("common.brand")}</a>
    <div class="where"><h1 id="title">${title}</h1>${subtitle ? html`<span class="sub">${subtitle}</span>` : null}</div>
    ${extra || null}
    <button type="button" class="tool menu-toggle" id="menu" aria-expanded=${open ? "true" : "false"}
      aria-controls="room-tools" onClick=${() => setOpen(!open)}>
      <svg viewBox="0 0 20 20" aria-hidden="true"><path d="M3 5h14M3 10h14M3 15h14" /></svg>
      <span>${t("table.menu")}</span></button>
    <div class="tools" id="room-tools">
      <${SoundPicker} mode=${soundMode(settings.sound)} onPick=${(m) => onSetting("sound", m)} />
      ${cards ? html`<button type="button" class="tool" id="four-colour" aria-pressed=${settings.fourColour ? "true" : "false"}
        onClick=${() => onSetting("fourColour", !settings.fourColour)}>${t("table.four_colour")}</button>` : null}
      ${sortMode ? html`<${SortPicker} mode=${sortMode} onPick=${(m) => onSetting("handSort", m)} />` : null}
      ${sortMode ? html`<button type="button" class="tool" id="auto-pass" aria-pressed=${settings.autoPass ? "true" : "false"}
        title=${t("table.auto_pass_help")} onClick=${() => onSetting("autoPass", !settings.autoPass)}>${t("table.auto_pass")}</button>` : null}
      ${onInvite ? html`<button type="button" class="tool" id="invite" onClick=${() => { setOpen(false); onInvite(); }}>${t("table.invite")}</button>` : null}
      ${onShortcuts ? html`<button type="button" class="tool" id="shortcuts" aria-keyshortcuts="?"
        title=${t("table.shortcuts")} onClick=${() => { setOpen(false); onShortcuts(); }}>${t("table.key_help")}<span class="visually-hidden">
        ${t("table.shortcuts")}</span></button>` : null}
      <${LanguagePicker} />
    </div>
  </header>`;
}
