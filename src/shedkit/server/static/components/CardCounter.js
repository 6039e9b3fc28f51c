// The card counter (记牌器), a table option: for each rank, how many cards are still out,
// that is neither played yet nor in your own hand. Counted from what every seat may see (the
// plays of the deal, your hand, President's cards left over face up); never from a hidden
// card. The table's public data says whether it is on, so every seat sees it alike.
import { html } from "../lib/html.js";
import { t } from "../lib/i18n.js";
import { face } from "../lib/cards.js";

// Dou Di Zhu's ranks as the server numbers them (`k`: 0 is the 3 … 12 the 2, 13 the black
// joker, 14 the red one), highest first as players count them.
const DDZ_ORDER = [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0];
// President's faces as the server numbers them (`f`: 0 the ace … 12 the king, -1 the joker).
const PRE_FACES = "A23456789TJQK";
const JOKER_NAMES = { R: "red", B: "black", Jk: "any" };

// [{id, label, name, total}] of a deck, highest rank first, and the rank id of one card.
function deckOf(view, table) {
  if (view.game === "doudizhu") {
    const ranks = DDZ_ORDER.map((k) => {
      const text = view.key_names[k];
      return { id: String(k), text, total: k >= 13 ? 1 : 4 };
    });
    return { ranks, rankOf: (card) => String(card.k) };
  }
  // President: the order in force (the revolution turns it over), the joker above it all.
  const faces = [...view.order].reverse().map((f) => ({ id: String(PRE_FACES.indexOf(f)), text: `${f}s`, total: 4 }));
  const jokers = (table.options && table.options.jokers) || 0;
  const ranks = jokers ? [{ id: "-1", text: "Jk", total: jokers }, ...faces] : faces;
  return { ranks, rankOf: (card) => String(card.f) };
}

// The words and the short mark of a rank: a joker by its colour, any other by its rank as
// drawn on the cards ("10", never "T").
function rankWords(text) {
  const joker = JOKER_NAMES[text];
  if (joker) return { mark: t(`table.counter_joker_${joker}`), name: t(`card.joker.${joker}`), joker };
  const rank = face(text.length === 1 ? `${text}s` : text).rank;
  return { mark: rank, name: rank, joker: null };
}

// How many cards of each rank are still out: {rankId: count}. A pure function of the view,
// so the tests count the same way from the same public history.
export function cardsOut(view, table) {
  const { ranks, rankOf } = deckOf(view, table);
  const left = Object.fromEntries(ranks.map((r) => [r.id, r.total]));
  // President's tax moves cards between hands: a give is not a play.
  const seen = [...view.history.filter((e) => e.kind !== "give").flatMap((e) => e.cards), ...view.hand, ...(view.leftover || [])];
  for (const card of seen) {
    const id = rankOf(card);
    if (id in left) left[id] -= 1;
  }
  return { ranks, left };
}

// props: view (your view of the deal), table (its public data).
export function CardCounter({ view, table }) {
  if (!table.card_counter || !view || !["doudizhu", "president"].includes(view.game)) return null;
  const { ranks, left } = cardsOut(view, table);
  return html`<section class="panel card-counter" aria-labelledby="counter-title">
    <h2 id="counter-title">${t("table.counter")}</h2>
    <ol class="counter-ranks" title=${t("table.counter_help")}>
      ${ranks.map((r) => {
        const words = rankWords(r.text);
        const count = Math.max(0, left[r.id]);
        return html`<li key=${r.id} data-rank=${r.id} data-left=${count}
          class=${"counter-rank" + (count ? "" : " none") + (words.joker ? ` joker-${words.joker}` : "")}
          aria-label=${t("table.counter_left", { rank: words.name, count })}>
          <span class="counter-mark" aria-hidden="true">${words.mark}</span>
          <span class="counter-count" aria-hidden="true">${count}</span>
        </li>`;
      })}
    </ol>
    <p class="hint">${t("table.counter_help")}</p>
  </section>`;
}

// The counter as a strip on the felt, for a phone (as the card apps draw their 记牌器): one
// cell a rank, its mark over the count, the whole row in view during the trick. The side
// panel's counter serves a wide screen; the page's style sheet shows one or the other.
export function CounterStrip({ view, table }) {
  if (!table.card_counter || !view || !["doudizhu", "president"].includes(view.game)) return null;
  const { ranks, left } = cardsOut(view, table);
  return html`<ol class="counter-strip" aria-label=${t("table.counter")}>
    ${ranks.map((r) => {
      const words = rankWords(r.text);
      const count = Math.max(0, left[r.id]);
      return html`<li key=${r.id} data-rank=${r.id} data-left=${count}
        class=${"strip-rank" + (count ? "" : " none") + (words.joker ? ` joker-${words.joker}` : "")}
        aria-label=${t("table.counter_left", { rank: words.name, count })}>
        <span class="strip-mark" aria-hidden="true">${words.joker ? t(`card.joker_short.${words.joker}`) : words.mark}</span>
        <span class="strip-count" aria-hidden="true">${count}</span>
      </li>`;
    })}
  </ol>`;
}
