// The order the hand is drawn in, a reader's choice kept in the browser: big to small (as
// the Dou Di Zhu apps deal it: 大王 小王 2 A K … 3), small to big, or grouped by count
// (quads, triples, pairs, singles). Ranks follow the game's own order as the view gives it;
// dominoes keep the server's order, which the line's ends already make easy to read.
import { getSetting } from "./api.js";

export const SORT_MODES = ["desc", "asc", "count"];

// The mode a game starts with before the reader picks one: QQ's big-to-small for Dou Di
// Zhu, the low-to-high of most President tables (and of board-game sites) for President.
export function defaultSort(game) {
  return game === "president" ? "asc" : "desc";
}

const SUIT_ORDER = "shdc";

// A card's rank, low to high, in the order in force. Dou Di Zhu's keys are ranks already
// (3 = 0 … red joker = 14); President's are card ids, so its face is placed in the view's
// `order` (low to high, reversed by a revolution), the joker above every face.
function rankOf(item, game, view) {
  if (game === "doudizhu") return item.k;
  if (game === "president") {
    if (item.f === -1 || item.t === "Jk") return 99;
    const at = view && view.order ? view.order.indexOf(item.t.slice(0, -1)) : -1;
    return at === -1 ? item.f : at;
  }
  return 0;
}

// Suits only break ties within a rank, in the notation's order (s h d c), so that equal
// ranks keep one stable look.
function suitOf(item) {
  const at = SUIT_ORDER.indexOf(item.t.slice(-1));
  return at === -1 ? 0 : at;
}

// The order the reader chose (kept in this browser by the header's picker), or the game's
// default: the live hand, the hands revealed at the end of a deal and in a replay alike.
export function readerSort(game) {
  const chosen = getSetting("handSort", null);
  return SORT_MODES.includes(chosen) ? chosen : defaultSort(game);
}

// The hand items in the reader's order; the items themselves are untouched.
export function sortHand(items, mode, game, view) {
  if (game !== "doudizhu" && game !== "president") return items;
  const keyed = items.map((item) => ({ item, rank: rankOf(item, game, view), suit: suitOf(item) }));
  const count = new Map();
  for (const x of keyed) count.set(x.rank, (count.get(x.rank) || 0) + 1);
  const sign = mode === "asc" ? 1 : -1;
  keyed.sort((a, b) => {
    if (mode === "count" && count.get(a.rank) !== count.get(b.rank)) return count.get(b.rank) - count.get(a.rank);
    if (a.rank !== b.rank) return sign * (a.rank - b.rank);
    return a.suit - b.suit;
  });
  return keyed.map((x) => x.item);
}
