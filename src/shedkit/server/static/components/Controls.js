// The buttons under the hand: Play, Pass, Hint, Clear, and what the selection would play.
import { html } from "../lib/html.js";
import { t } from "../lib/i18n.js";

// A button's keyboard key, shown in the button (hidden on touch-only screens by table.css).
const Key = ({ name }) => html`<kbd class="key" aria-hidden="true">${t(`table.key_${name}`)}</kbd>`;

// props: view, mine (your turn), found (legal moves the selection makes), selectedCount,
// canPass, game, onPlay(move?), onPass, onHint, onClear, choices (readings to pick from).
export function Controls({ view, mine, found, selectedCount, canPass, game, onPlay, onPass, onHint, onClear, choices }) {
  // 要不起: with nothing but a pass to make, Pass is the button to press and Play is disabled
  // beside it. No auto-pass unless asked for: the player still chooses when to give the turn away.
  const cannotBeat = mine && game.unit === "cards" && view.legal.length > 0 && view.legal.every((m) => game.isPass(m));
  // Dominoes alike: no tile fits, so drawing (or passing, once the boneyard is empty) is
  // the move, and its button is the one to press.
  const cannotPlay = mine && game.unit === "tiles" && view.legal.length > 0 && view.legal.every((m) => !m.k.length);
  const stuck = cannotBeat || cannotPlay;
  const drawOnly = cannotPlay && view.legal.some((m) => !game.isPass(m));
  // Each game names its own pass (Dou Di Zhu's 不出 in play).
  const passMove = view.legal.find((m) => !m.k.length && game.isPass(m));
  let preview = "";
  if (!mine) preview = "";
  else if (cannotBeat) preview = t("table.cannot_beat");
  else if (cannotPlay) preview = drawOnly ? t("table.cannot_play_draw") : t("table.cannot_play_pass");
  else if (!selectedCount) preview = view.legal.some((m) => m.k.length) ? t(`table.select_${game.unit}`) : "";
  else if (!found.length) preview = t("table.not_legal");
  else preview = t("table.would_play", { what: game.moveName(found[0], view) });
  return html`<div class="controls" role="toolbar" aria-label=${t("table.actions")}>
    <span class=${"preview" + (stuck ? " cannot-beat" : "")} id="preview" aria-live="polite">${preview}</span>
    ${choices && choices.length ? html`<span class="choices" role="group" aria-label=${t("table.reads_as")}>
      ${choices.map((m) => html`<button type="button" class="choice" data-move=${m.m} onClick=${() => onPlay(m)}>
        ${game.moveName(m, view)}</button>`)}
    </span>` : null}
    <span class="buttons">
      <button type="button" id="play" class=${stuck ? "" : "primary"} disabled=${!mine || cannotBeat} aria-keyshortcuts="Space"
        onClick=${() => onPlay()}>${t("table.play")}<${Key} name="space" /></button>
      ${view.legal.filter((m) => !m.k.length && !game.isPass(m)).map((m) => html`<button type="button"
        class=${"move" + (drawOnly ? " primary" : "")} data-move=${m.m} disabled=${!mine} onClick=${() => onPlay(m)}>${game.moveName(m, view)}</button>`)}
      ${canPass ? html`<button type="button" id="pass" class=${stuck && !drawOnly ? "primary" : ""} disabled=${!mine} aria-keyshortcuts="P" onClick=${onPass}>
        ${game.moveName(passMove, view)}<${Key} name="p" /></button>` : null}
      <button type="button" id="hint" disabled=${!mine} aria-keyshortcuts="H" onClick=${onHint}>${t("table.hint")}<${Key} name="h" /></button>
      <button type="button" id="clear" disabled=${!selectedCount} aria-keyshortcuts="Escape" onClick=${onClear}>
        ${t("table.clear")}<${Key} name="esc" /></button>
    </span>
  </div>`;
}
