// Tien Gow (天九) at the table: Chinese dominoes standing in the hand, each seat's play in
// front of it (another seat's discard as backs: its tiles are never told, TG-25), the high
// of the trick lit, the banker with its factor, each seat's units won, the payments of a
// hand as a table. Play and Discard follow the legal moves the server sends.
import { html } from "../../lib/html.js";
import { t } from "../../lib/i18n.js";
import { candidates } from "../../lib/select.js";
import { seatName } from "../../components/Seat.js";
import { TileFace, TileRow } from "./Tile.js";
import { Controls, hintMoves } from "./Controls.js";
import { Settlement } from "./Settlement.js";
import { comboName, moveName, tileLabel, tilesText } from "./words.js";

// The hand's tiles: narrower on a phone. A tile's button: the tile and 6 px of padding and
// border on each side, 44 px at least.
const small = () => window.innerWidth < 600 || window.innerHeight < 520;
const tileSize = () => (window.innerHeight < 520 ? 22 : small() ? 26 : 36);
const tileButton = () => Math.max(44, tileSize() + 12);
// A play in front of a seat (scaled down further by Fit where the seat is narrow).
const playSize = () => (small() ? 18 : 24);

function TileItem({ item, selected, wrong, onTap }) {
  const cls = ["tg-tile-btn", selected ? "tg-selected" : "", wrong ? "tg-wrong" : ""].join(" ");
  const label = tileLabel(item);
  return html`<button type="button" class=${cls} data-card=${item.c} data-tile=${item.t} aria-pressed=${selected ? "true" : "false"}
    aria-label=${label} title=${label} onClick=${(e) => onTap(item, e)}>
    <${TileFace} tile=${item.t} suit=${item.s} size=${tileSize()} />
    <span class=${`tg-mark tg-mark-${item.s}`} aria-hidden="true">${t(`tg.mark.${item.s}`)}</span>
  </button>`;
}
// In an overlapped hand the next tile may cover a tile's padding, never its pips.
TileItem.minStrip = () => tileButton() - 6;

// A play's tiles as drawn: face up, or face down (backs; the owner sees its own, dimmed).
function Play({ entry, size, high, label }) {
  const down = entry.kind === "discard";
  const backs = down && entry.hidden ? entry.size : 0;
  return html`<${TileRow} items=${entry.cards} backs=${backs} size=${size} high=${high} label=${label}
    cls=${down ? "tg-discarded" : ""} />`;
}

const isDiscard = (m) => m.kind === "discard";
// The play that holds a trick: its last face-up play (the lead if nobody beat it).
const highOf = (trick) => [...trick].reverse().find((e) => !isDiscard(e));

function entryText(e) {
  if (isDiscard(e)) return e.hidden ? t("tg.said_discard", { count: e.size }) : t("tg.said_discard_own", { count: e.size, tiles: tilesText(e.cards) });
  return t(e.lead ? "tg.said_lead" : "tg.said_beat", { combo: comboName(e.kind), tiles: tilesText(e.cards) });
}

// In front of a seat: its play in the trick; the trick just won stays, dimmed, until the
// next lead (the view's `finished_trick`, held a moment longer by pages/table.js).
function LastPlay({ view, seat }) {
  const live = view.trick.filter((e) => e.seat === seat);
  const old = (view.finished_trick || []).filter((e) => e.seat === seat);
  const done = !live.length && old.length > 0;
  const entry = done ? old[old.length - 1] : live[live.length - 1];
  if (!entry) return null;
  const high = highOf(done ? view.finished_trick : view.trick) === entry;
  const drawn = html`<${Play} entry=${entry} size=${playSize()} high=${high} label=${entryText(entry)} />`;
  return done ? html`<span class="done-trick">${drawn}</span>` : drawn;
}

// The banker's badge, with the factor its payments are multiplied by (TG-32).
function Role({ view, seat }) {
  if (view.banker !== seat) return null;
  return html`<span class="role tg-banker" title=${t("tg.banker_help", { n: view.multiplier })}>
    ${t("tg.banker_badge", { n: view.multiplier })}</span>`;
}

// By a seat's avatar, across from its tiles left: the units it has won this hand (TG-26), a
// stack of tiles and the number.
function SeatBadge({ view, seat }) {
  const label = t("tg.units", { count: view.units[seat] });
  return html`<span class="count tg-won" role="img" aria-label=${label} title=${label}>
    <svg viewBox="0 0 12 14" aria-hidden="true"><rect x="1" y="4" width="6" height="9" rx="1.2" /><rect x="5" y="1" width="6" height="9" rx="1.2" /></svg>
    <span aria-hidden="true">${view.units[seat]}</span></span>`;
}

// The middle of the felt: the trick's number and what was led (the banker's factor is on
// its badge), or who won the hand.
function Centre({ view, table }) {
  const lead = view.trick[0];
  let line;
  if (view.special) line = t("tg.special_short", { name: seatName(table, view.special.seat) });
  else if (view.is_over) line = t("tg.won_short", { name: seatName(table, view.winner) });
  else if (lead) line = t("tg.led", { combo: comboName(lead.kind), count: lead.size });
  else line = t("tg.new_trick");
  const n = view.tricks.length + (lead && !view.is_over ? 1 : 0) || 1;
  return html`<div class="tg-centre">
    <span class="chip">${t("tg.trick_n", { n })}</span>
    <span class="label tg-lead">${line}</span>
    ${view.discards_exposed ? html`<span class="chip">${t("tg.open_discards")}</span>` : null}
  </div>`;
}

// A move in the log: its tiles (another seat's discard as backs), what it was, and the
// trick it won.
function Entry({ entry, table }) {
  const text = isDiscard(entry) ? t("tg.log_discard", { count: entry.size })
    : t(entry.lead ? "tg.log_lead" : "tg.log_beat", { combo: comboName(entry.kind) });
  const takes = entry.winner !== undefined && table
    ? t("tg.log_takes", { name: seatName(table, entry.winner), count: entry.size }) : null;
  return html`<span class="entry"><${Play} entry=${entry} size=${11} />
    <span class="entry-name">${text}${takes ? html` <b class="tg-takes">${takes}</b>` : null}</span></span>`;
}

// The biggest plays in a banner: a Supreme, a Civil Supreme or a quad led, a capture.
function banner(before, view) {
  if (view.captured && !before.captured) return { kind: "supreme", text: t("tg.captured") };
  if (view.history.length <= before.history.length) return null;
  const e = view.history[view.history.length - 1];
  if (e.lead && ["supreme", "wen_supreme", "quad"].includes(e.kind)) return { kind: "supreme", text: comboName(e.kind) };
  return null;
}

export default {
  name: "tiengow",
  unit: "tiles",
  Item: TileItem,
  itemWidth: tileButton,
  isPass: () => false,
  // Play lays tiles face up; the same selection may also be discarded, by its own button.
  isDiscard,
  passMove: (view, selected) => candidates(view, selected).find(isDiscard),
  hintMoves,
  // A second tap lets a tile go: a selection of several tiles is built tap by tap.
  secondTapPlays: false,
  // Every seat holds as many tiles as the others: no last-tile call.
  alerts: false,
  holdsTrick: true,
  // The hands end empty, and the discards stay hidden for good: nothing to reveal.
  revealsHands: false,
  moveName,
  playText: (e) => entryText(e),
  Role,
  SeatBadge,
  LastPlay,
  Centre,
  Controls: (props) => html`<${Controls} ...${props} />`,
  Entry,
  Summary: Settlement,
  banner,
  Drawing: ({ items }) => html`<span class="tg-drawing">${items.map((x) => html`<${TileRow} key=${x.c} items=${x.back ? [] : [x]}
    backs=${x.back ? 1 : 0} size=${16} label=${tileLabel(x)} />`)}</span>`,
};
