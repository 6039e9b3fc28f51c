// The buttons under the hand: Play, Pass, Hint, Clear, and what the selection would play.
import { html } from "../lib/html.js";
import { t } from "../lib/i18n.js";

// props: view, mine (your turn), found (legal moves the selection makes), selectedCount,
// canPass, game, onPlay(move?), onPass, onHint, onClear, choices (readings to pick from).
export function Controls({ view, mine, found, selectedCount, canPass, game, onPlay, onPass, onHint, onClear, choices }) {
  // 要不起: with nothing but a pass to make, Pass is the button to press. No auto-pass: the
  // player still chooses when to give the turn away.
  const cannotBeat = mine && game.unit === "cards" && view.legal.length > 0 && view.legal.every((m) => game.isPass(m));
  let preview = "";
  if (!mine) preview = "";
  else if (cannotBeat) preview = t("table.cannot_beat");
  else if (!selectedCount) preview = view.legal.some((m) => m.k.length) ? t(`table.select_${game.unit}`) : "";
  else if (!found.length) preview = t("table.not_legal");
  else preview = t("table.would_play", { what: game.moveName(found[0], view) });
  return html`<div class="controls" role="toolbar" aria-label=${t("table.actions")}>
    <span class=${"preview" + (cannotBeat ? " cannot-beat" : "")} id="preview" aria-live="polite">${preview}</span>
    ${choices && choices.length ? html`<span class="choices" role="group" aria-label=${t("table.reads_as")}>
      ${choices.map((m) => html`<button type="button" class="choice" data-move=${m.m} onClick=${() => onPlay(m)}>
        ${game.moveName(m, view)}</button>`)}
    </span>` : null}
    <span class="buttons">
      <button type="button" id="play" class=${cannotBeat ? "" : "primary"} disabled=${!mine} aria-keyshortcuts="Space"
        onClick=${() => onPlay()}>${t("table.play")}</button>
      ${view.legal.filter((m) => !m.k.length && !game.isPass(m)).map((m) => html`<button type="button"
        class="move" data-move=${m.m} disabled=${!mine} onClick=${() => onPlay(m)}>${game.moveName(m, view)}</button>`)}
      ${canPass ? html`<button type="button" id="pass" class=${cannotBeat ? "primary" : ""} disabled=${!mine} aria-keyshortcuts="P" onClick=${onPass}>
        ${t("table.pass")}</button>` : null}
      <button type="button" id="hint" disabled=${!mine} aria-keyshortcuts="H" onClick=${onHint}>${t("table.hint")}</button>
      <button type="button" id="clear" disabled=${!selectedCount} aria-keyshortcuts="Escape" onClick=${onClear}>
        ${t("table.clear")}</button>
    </span>
  </div>`;
}
