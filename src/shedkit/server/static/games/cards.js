// What the card games (Dou Di Zhu, President) draw alike: cards in the fanned hand, passes,
// revealed hands as small cards. Each game's module spreads this and adds its own pieces.
import { html } from "../lib/html.js";
import { Card, Cards } from "../components/Card.js";

export const CARD_GAME = {
  unit: "cards",
  Item: Card,
  // A phone on its side fits a 20-card hand in one row beside the buttons.
  itemWidth: () => (window.innerHeight < 520 ? 48 : window.innerWidth < 600 ? 50 : 70),
  isPass: (m) => m.kind === "pass",
  Drawing: ({ items }) => html`<${Cards} cards=${items} size="mini" />`,
};
