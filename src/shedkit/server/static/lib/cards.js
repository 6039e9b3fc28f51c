// Card faces from the server's card text ("Th", "3s", "B", "R", "Jk"): rank, suit, joker, colour.
// Only drawing facts live here; what a card may do is the server's to say.
import { t } from "./i18n.js";

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const JOKERS = { B: "black", R: "red", Jk: "any" };

// {rank, suit, symbol, joker, red} of a card text; ten is always "10", never "T".
export function face(text) {
  if (JOKERS[text]) return { joker: JOKERS[text], rank: "", suit: "", symbol: "", red: text !== "B" };
  const rank = text.slice(0, -1) === "T" ? "10" : text.slice(0, -1);
  const suit = text.slice(-1);
  return { joker: null, rank, suit, symbol: SUITS[suit] || "", red: suit === "h" || suit === "d" };
}

// The spoken name of a card in the page's language ("Ten of hearts", "红桃10").
export function cardName(text) {
  const f = face(text);
  if (f.joker) return t(`card.joker.${f.joker}`);
  return t("card.name", { rank: t(`card.rank.${f.rank}`), suit: t(`card.suit.${f.suit}`) });
}

export function cardsName(cards) {
  return cards.map((c) => cardName(c.t)).join(", ");
}

// Colour class of a suit: two colours, or four with the four-colour deck.
export function suitClass(f) {
  if (f.joker) return f.red ? "red" : "black";
  return `suit-${f.suit}`;
}
