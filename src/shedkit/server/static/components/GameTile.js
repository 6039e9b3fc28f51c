// One game in the lobby's choice of games: its name, what it is in a line, a few cards
// that show it at a glance, "New table" (picks it in the form) and "How to play".
import { html } from "../lib/html.js";
import { t } from "../lib/i18n.js";
import { Card } from "./Card.js";
import { Tile } from "../games/dominoes/Tile.js";
import { TileFace } from "../games/tiengow/Tile.js";

// A hand that says which game this is before any word is read.
const ART = {
  doudizhu: ["2h", "B", "R"],
  president: ["Qs", "Qh", "Qd", "Qc"],
};

function Art({ game }) {
  if (game === "dominoes") {
    return html`<span class="tile-art dominoes-art" aria-hidden="true">
      <${Tile} tile="6-6" vertical=${true} size=${26} /><${Tile} tile="6-3" size=${26} />
    </span>`;
  }
  if (game === "tiengow") {
    // Heaven and the Supreme: the top tile and the pair nothing beats.
    return html`<span class="tile-art tiengow-art" aria-hidden="true">
      <${TileFace} tile="6-6" suit="civil" size=${22} /><${TileFace} tile="2-4" suit="military" size=${22} />
      <${TileFace} tile="1-2" suit="military" size=${22} />
    </span>`;
  }
  const cards = ART[game] || [];
  return html`<span class="tile-art" aria-hidden="true">
    ${cards.map((c, i) => html`<${Card} key=${c} card=${{ t: c, c: i, k: i }} size="mini" />`)}
  </span>`;
}

// props: game (its name, e.g. "doudizhu"), selected (chosen in the form), onNewTable(game).
export function GameTile({ game, selected, onNewTable }) {
  const id = `game-tile-${game}`;
  return html`<article class=${selected ? "game-tile selected" : "game-tile"} data-game=${game}
    aria-labelledby=${id}>
    <${Art} game=${game} />
    <h3 id=${id}>${t(`lobby.games.${game}.name`)}</h3>
    <p class="tagline">${t(`lobby.games.${game}.tagline`)}</p>
    <div class="tile-actions">
      <button type="button" class="button primary new-table" aria-pressed=${selected ? "true" : "false"}
        onClick=${() => onNewTable(game)}>${t("lobby.games.new_table")}</button>
      <a class="button howto-link" href=${`/howto/${game}`}>${t("lobby.games.howto")}</a>
    </div>
  </article>`;
}
