// Tien Gow's buttons under the hand: Play lays the selected tiles face up (a lead, or a beat
// of the trick's high), Discard lays them face down (TG-21), Hint and Clear. Both are driven
// by the legal moves the server sent: a selection is matched to them (lib/select.js), never
// judged here. Space plays, P discards, H hints, Esc clears (pages/table.js).
import { html } from "../../lib/html.js";
import { t } from "../../lib/i18n.js";
import { candidates } from "../../lib/select.js";
import { moveName, tilesText } from "./words.js";

const Key = ({ name }) => html`<kbd class="key" aria-hidden="true">${t(`table.key_${name}`)}</kbd>`;

const isDiscard = (m) => m.kind === "discard";

// The face-up and the face-down reading of the selection, each a legal move or undefined.
export function readings(view, selected) {
  const found = candidates(view, selected);
  return { face: found.find((m) => !isDiscard(m)), down: found.find(isDiscard) };
}

// The tiles of the selection by name, "(Heaven, Mixed Nine)", after what it would play
// (left out on a phone on its side, where the line has least room).
function names(view, selected) {
  const tiles = view.hand.filter((c) => selected.has(c.c));
  return tiles.length ? html` <span class="tg-names">${t("tg.names", { tiles: tilesText(tiles) })}</span>` : null;
}

// What the line above the buttons says.
function previewOf(view, mine, selected, face, down) {
  if (!mine) return "";
  const leading = !view.trick.length;
  const size = leading ? 0 : view.trick[0].size;
  const canBeat = view.legal.some((m) => !isDiscard(m));
  if (!selected.size) {
    if (leading) return t("tg.select_lead");
    if (view.early_death) return t("tg.early_death");
    return canBeat ? t("tg.select_follow", { count: size }) : t("tg.cannot_beat", { count: size });
  }
  if (face && down) return t("tg.would_play_or_discard", { what: moveName(face) });
  if (face) return t("table.would_play", { what: moveName(face) });
  if (down) return t("tg.would_discard", { count: down.k.length });
  return leading ? t("tg.not_a_combination") : t("tg.not_legal_follow", { count: size });
}

// props: view, mine, selected, actions ({play, pass, showHint, clear, sendMove}).
export function Controls({ view, mine, selected, actions }) {
  const { face, down } = readings(view, selected);
  const following = view.trick.length > 0 && !view.is_over;
  const stuck = mine && following && !view.legal.some((m) => !isDiscard(m));
  const preview = previewOf(view, mine, selected, face, down);
  return html`<div class="controls tg-controls" role="toolbar" aria-label=${t("table.actions")}>
    <span class=${"preview" + (stuck ? " cannot-beat" : "")} id="preview" aria-live="polite">${preview}${mine && face ? names(view, selected) : null}</span>
    <span class="buttons">
      <button type="button" id="play" class=${face ? "primary" : ""} disabled=${!mine || !face} aria-keyshortcuts="Space"
        onClick=${() => face && actions.sendMove(face)}>${t("table.play")}<${Key} name="space" /></button>
      <button type="button" id="discard" class=${!face && down ? "primary" : ""} disabled=${!mine || !down}
        aria-keyshortcuts="P" onClick=${() => down && actions.sendMove(down)}>${t("tg.discard")}<${Key} name="p" /></button>
      <button type="button" id="hint" disabled=${!mine} aria-keyshortcuts="H" onClick=${actions.showHint}>
        ${t("table.hint")}<${Key} name="h" /></button>
      <button type="button" id="clear" disabled=${!selected.size} aria-keyshortcuts="Escape" onClick=${actions.clear}>
        ${t("table.clear")}<${Key} name="esc" /></button>
    </span>
  </div>`;
}

// The moves Hint cycles through: the face-up plays in the server's order, then the
// discards, the weakest tiles first (each tile's rank in its suit, `r`, as the server sends it).
export function hintMoves(view) {
  const rank = new Map(view.hand.map((c) => [c.k, c.r]));
  const weight = (m) => m.k.reduce((sum, k) => sum + (rank.get(k) || 0), 0);
  const face = view.legal.filter((m) => !isDiscard(m));
  const down = view.legal.filter(isDiscard).map((m, i) => ({ m, w: weight(m), i }));
  down.sort((a, b) => a.w - b.w || a.i - b.i);
  return [...face, ...down.map((x) => x.m)];
}
