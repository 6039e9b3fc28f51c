// Quick phrases and emotes: they travel as codes (the server keeps the same lists, in
// server/manager.py) and each page words a phrase in its own language.
import { html, useEffect, useRef, useState } from "../lib/html.js";
import { useDismiss } from "../lib/dismiss.js";
import { t } from "../lib/i18n.js";

export const QUICK_PHRASES = ["well_played", "good_luck", "hurry_up", "thanks", "oops", "nice_bomb", "good_game", "one_more"];
export const EMOTES = { thumbs_up: "👍", laugh: "😄", wow: "😮", sad: "😢", fire: "🔥", clap: "👏" };

// A chat line added to the page's lines: the lines kept at the table come again after a
// reconnection (marked `past`), and each is shown once.
export function withLine(lines, line) {
  if (line.past && lines.some((l) => l.at === line.at && l.seat === line.seat)) return lines;
  return [...lines.slice(-99), line];
}

// What each seat just said by its avatar ({code, kind, id}: an emote or a quick phrase) and
// the handler of chat lines that pops it up for a few seconds, as players of card apps
// expect to see it by the seat; a line kept from before (`past`) pops up nothing.
export function useEmotes() {
  const [emotes, setEmotes] = useState({});
  const pop = (line) => {
    if (line.past || !(line.emote || line.phrase)) return;
    const id = Math.random();
    const said = line.emote ? { code: line.emote, kind: "emote", id } : { code: line.phrase, kind: "phrase", id };
    setEmotes((e) => ({ ...e, [line.seat]: said }));
    setTimeout(() => setEmotes((e) => (e[line.seat] && e[line.seat].id === id ? { ...e, [line.seat]: null } : e)), 4000);
  };
  return [emotes, pop];
}

// What a chat line says, in the page's language: its text, its phrase or its emote.
export function ChatSaid({ line }) {
  if (line.phrase) return html`<span class="quick-said">${t(`table.quick.phrase.${line.phrase}`)}</span>`;
  if (line.emote) {
    return html`<span class="emote-said" role="img" aria-label=${t(`table.quick.emote.${line.emote}`)}>
      ${EMOTES[line.emote] || ""}</span>`;
  }
  return line.text;
}

// The emote or phrase a seat just sent, drawn by its avatar for a moment (the page removes
// it). Hidden from screen readers: the chat's line says it.
export function EmoteBubble({ emote }) {
  if (!emote) return null;
  if (emote.kind === "phrase") {
    if (!QUICK_PHRASES.includes(emote.code)) return null;
    return html`<div class="phrase-bubble" key=${emote.id} aria-hidden="true">${t(`table.quick.phrase.${emote.code}`)}</div>`;
  }
  if (!EMOTES[emote.code]) return null;
  return html`<div class="emote-bubble" key=${emote.id} aria-hidden="true">${EMOTES[emote.code]}</div>`;
}

// The button beside the chat's Send and its menu; onSend({phrase} or {emote}).
// Escape or a click elsewhere closes the menu, and focus goes back to the button.
export function QuickChat({ onSend }) {
  const [open, setOpen] = useState(false);
  const root = useRef(null);
  const box = useRef(null);
  const toggle = useRef(null);
  const close = () => {
    setOpen(false);
    if (toggle.current) toggle.current.focus();
  };
  useDismiss(open, { onEscape: close, inside: root, onAway: () => setOpen(false) });
  useEffect(() => {
    const first = open && box.current && box.current.querySelector("button");
    if (first) first.focus();
  }, [open]);
  const say = (what) => { onSend(what); close(); };
  const label = t("table.quick.button");
  return html`<div class="quick-chat" ref=${root}>
    <button type="button" id="quick-toggle" class="small quick-toggle" ref=${toggle} aria-label=${label} title=${label}
      aria-expanded=${open ? "true" : "false"} aria-controls="quick-menu" onClick=${() => setOpen(!open)}>😊</button>
    ${open ? html`<div class="quick-menu" id="quick-menu" role="group" aria-label=${label} ref=${box}>
      <h3>${t("table.quick.phrases")}</h3>
      <div class="quick-phrases">${QUICK_PHRASES.map((code) => html`<button type="button" class="small quick-phrase"
        key=${code} data-phrase=${code} onClick=${() => say({ phrase: code })}>${t(`table.quick.phrase.${code}`)}</button>`)}</div>
      <h3>${t("table.quick.emotes")}</h3>
      <div class="quick-emotes">${Object.entries(EMOTES).map(([code, glyph]) => html`<button type="button" class="small quick-emote"
        key=${code} data-emote=${code} aria-label=${t(`table.quick.emote.${code}`)} title=${t(`table.quick.emote.${code}`)}
        onClick=${() => say({ emote: code })}>${glyph}</button>`)}</div>
    </div>` : null}
  </div>`;
}
