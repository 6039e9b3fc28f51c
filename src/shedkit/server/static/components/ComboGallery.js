// The How-to-play gallery: each combination of a game drawn with real cards (or tiles),
// under its name in the page's language and the notation the game writes it in.
import { html } from "../lib/html.js";
import { has, t } from "../lib/i18n.js";
import { Cards } from "./Card.js";
import { Tile } from "../games/dominoes/Tile.js";
import { TileRow } from "../games/tiengow/Tile.js";
import { tileLabel } from "../games/tiengow/words.js";
import { presetLabel } from "./TableList.js";

function comboName(game, kind) {
  const key = `combo.${game}.${kind}`;
  return has(key) ? t(key) : kind;
}

function Pieces({ game, combo, name }) {
  if (game === "dominoes") {
    return html`<span class="tiles" role="group" aria-label=${name}>
      ${combo.cards.map((c) => html`<${Tile} key=${c.c} tile=${c.t} size=${36} label=${c.t} />`)}
    </span>`;
  }
  if (game === "tiengow") {
    return html`<span class="tiles" role="group" aria-label=${name}>
      ${combo.cards.map((c) => html`<span class="tg-gallery-tile" key=${c.c}><${TileRow} items=${[c]} size=${30} label=${tileLabel(c)} />
        <span class=${`tg-mark tg-mark-${c.s}`} aria-hidden="true">${t(`tg.mark.${c.s}`)}</span></span>`)}
    </span>`;
  }
  return html`<${Cards} cards=${combo.cards} size="table" label=${name} />`;
}

function Combo({ game, combo }) {
  const name = comboName(game, combo.kind);
  const notes = [];
  if (combo.preset && combo.preset !== "standard") {
    notes.push(t("lobby.howto.only_preset", { preset: presetLabel(game, combo.preset) }));
  }
  if (typeof combo.count === "number") notes.push(t("lobby.howto.count", { count: combo.count }));
  if (combo.points) notes.push(t("lobby.howto.points", { count: combo.points }));
  return html`<figure class="combo" data-kind=${combo.kind}>
    <${Pieces} game=${game} combo=${combo} name=${name} />
    <figcaption>
      <span class="combo-name">${name}</span>
      <code class="combo-move" title=${t("lobby.howto.notation", { move: combo.move })}>${combo.move}</code>
      ${notes.map((n) => html`<span class="combo-note">${n}</span>`)}
    </figcaption>
  </figure>`;
}

// props: game (its name), combos ([{kind, move, cards, preset?, count?, points?}] from
// /api/howto/<game>).
export function ComboGallery({ game, combos }) {
  return html`<section class="gallery" aria-labelledby="gallery-heading" tabindex="0">
    <h2 id="gallery-heading">${game === "dominoes" ? t("lobby.howto.gallery_dominoes") : t("lobby.howto.gallery")}</h2>
    <p class="help">${game === "dominoes" ? t("lobby.howto.gallery_help_dominoes")
      : game === "tiengow" ? t("lobby.howto.gallery_help_tiengow") : t("lobby.howto.gallery_help")}</p>
    <div class="combos">${combos.map((c, i) => html`<${Combo} key=${i} game=${game} combo=${c} />`)}</div>
  </section>`;
}
