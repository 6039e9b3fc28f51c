// Tien Gow in words: tiles by their names (天, 地 … in Chinese, Heaven, Earth … in English),
// combinations, moves and the log's lines, all from the catalogues (i18n/<lang>/tiengow.json
// and the lobby's combo names).
import { t } from "../../lib/i18n.js";
import { halvesOf } from "./Tile.js";

// A tile's name: "天" for 6-6 (the two copies of a civil tile share it; military tiles of a
// total share theirs, so the pips tell them apart in a label).
export const tileName = (item) => t(`tg.tile.${item.t}`);

// What a screen reader says for a tile: its name, pips and suit, or that it lies face down.
export function tileLabel(item) {
  if (item.back) return t("tg.face_down");
  const [a, b] = halvesOf(item.t);
  return t("tg.tile_label", { name: tileName(item), pips: t("tg.pips", { a, b }), suit: t(`tg.suit.${item.s}`) });
}

export const tilesText = (items) => items.map(tileName).join(t("tg.list_sep"));

export const comboName = (kind) => t(`combo.tiengow.${kind}`);

// A legal move ({m, k, kind}) or a history entry ({kind, size, cards}) in words.
export function moveName(m) {
  if (!m) return t("tg.discard");
  const size = m.size || (m.k ? m.k.length : 0);
  if (m.kind === "discard") return size ? t("tg.discard_n", { count: size }) : t("tg.discard");
  if (m.kind === "pass") return t("tg.discard");
  return comboName(m.kind);
}
