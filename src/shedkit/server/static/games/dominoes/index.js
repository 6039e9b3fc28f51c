// Dominoes at the table: tiles in the hand, the line that snakes with its spinner's arms,
// a tile that fits two ends played by tapping the end, partners in team colours.
import { html } from "../../lib/html.js";
import { language, t } from "../../lib/i18n.js";
import { seatName } from "../../components/Seat.js";
import { Tile } from "./Tile.js";
import { Line } from "./Line.js";
import { leadIndex, movesByEnd } from "./moves.js";

const tileName = (text) => {
  const [a, b] = String(text).split("-");
  return t("dom.tile", { a, b });
};

// A legal move ({m, end}) or a history entry ({move}) in words.
function moveName(m) {
  const text = m.m || m.move || "";
  const tile = text.split("@")[0];
  if (m.kind === "play") return t("dom.play_on", { tile: tileName(tile), end: t(`dom.end.${m.end || text.split("@")[1]}`) });
  if (m.kind === "lead") return t("dom.lead", { tile: tileName(tile) });
  if (m.kind === "draw") return t("dom.draw");
  return t("table.pass");
}

// A hand tile for the fanned hand: standing up, a toggle button.
const tileSize = () => (window.innerWidth < 600 || window.innerHeight < 520 ? 26 : 32);
// A tile's button: the tile and 6 px of padding and border on each side, 44 px at least.
const tileButton = () => Math.max(44, tileSize() + 12);

function TileItem({ item, selected, playable, onTap }) {
  return html`<${Tile} tile=${item.t} vertical=${true} size=${tileSize()} label=${tileName(item.t)}
    pressed=${selected} playable=${playable} onClick=${(e) => onTap(item, e)} />`;
}
// In an overlapped hand the next tile may cover a tile's right padding, never its pips.
TileItem.minStrip = () => tileButton() - 6;

function team(view, seat) {
  return view.teams ? seat % 2 : null;
}

function Role({ view, seat }) {
  const side = team(view, seat);
  if (side === null) return null;
  // The short form (a letter) stands for the name where a phone on its side has no room.
  return html`<span class=${`role team-badge team-${side}`}>
    <span class="team-short" aria-hidden="true">${t(`dom.team_short.${side}`)}</span>
    <span class="role-name">${t(`dom.team.${side}`)}</span>
  </span>`;
}

// In front of a seat: its last move of this round (the tile it laid, a draw, a pass).
function LastPlay({ view, seat }) {
  const recent = view.history.slice(-view.num_players);
  const mine = recent.filter((e) => e.seat === seat);
  const last = mine[mine.length - 1];
  if (!last) return null;
  const points = last.points ? html`<span class="bubble points">${t("dom.scores", { count: last.points })}</span>` : null;
  if (last.kind === "play" || last.kind === "lead") {
    return html`<span class="dom-last"><${Tile} tile=${last.cards[0].t} size=${16} label=${moveName(last)} />${points}</span>`;
  }
  return html`<span class="bubble">${moveName(last)}</span>`;
}

function Centre({ view, selected, actions }) {
  const key = [...selected].map((c) => view.hand.find((x) => x.c === c)).filter(Boolean).map((x) => x.k)[0];
  const byEnd = movesByEnd(view.legal, key);
  const targets = {};
  for (const end of Object.keys(byEnd)) targets[end] = end === "lead" ? t("dom.lead_here") : t("dom.play_here", { end: t(`dom.end.${end}`) });
  return html`<div class="dom-centre">
    <${Line} fill=${true} line=${view.line} ends=${view.ends} targets=${targets} lead=${leadIndex(view.history)}
      onEnd=${(end) => byEnd[end] && actions.sendMove(byEnd[end])} label=${t("dom.line")} tileLabel=${tileName} />
    <div class="stakes">
      <span class="chip">${t("dom.boneyard", { count: view.boneyard })}</span>
      ${view.variant === "fives" ? html`<span class="chip">${t("dom.count", { count: view.count })}</span>` : null}
    </div>
  </div>`;
}

function Entry({ entry }) {
  const tile = entry.cards.length ? html`<${Tile} tile=${entry.cards[0].t} size=${12} />` : null;
  return html`<span class="entry">${tile}<span class="entry-name">${moveName(entry)}</span>
    ${entry.points ? html`<b>${t("dom.scores", { count: entry.points })}</b>` : null}</span>`;
}

// The partnerships (DOM-02): the table's `teams`, or from a view of a team game, 0+2 and 1+3.
function teamsOf(view, table) {
  if (table && table.teams) return table.teams;
  if (!view || !view.teams) return null;
  return [0, 1].map((side) => table.seats.map((_, i) => i).filter((i) => i % 2 === side));
}

function Summary({ view, table }) {
  const reason = view.end_reason === "blocked" ? t("dom.blocked") : t("dom.domino");
  const winner = view.winner === null || view.winner === undefined ? t("dom.void")
    : t(view.teams ? "dom.team_wins" : "dom.seat_wins", { team: t(`dom.team.${view.winner % 2}`), name: seatName(table, view.winner) });
  // With partners the pips left count by team, summing both hands (DOM-10).
  const teams = teamsOf(view, table);
  const pips = teams ? teams.map((seats, side) => t("dom.team_pips", { team: t(`dom.team.${side}`),
    pips: seats.reduce((sum, i) => sum + (view.pips[i] || 0), 0) })).join(" / ") : view.pips.join(" / ");
  return html`<p class="result-line">${reason} ${winner}</p>
    <p class="breakdown">${t("dom.pips_left", { pips })}</p>`;
}

// A team is named by its players as the table names them (a bot seat by its bot), joined
// as the page's language joins a list.
function resultRows(view, table) {
  const teams = teamsOf(view, table);
  if (!teams) return table.seats.map((_, i) => ({ seats: [i] }));
  const and = new Intl.ListFormat(language(), { type: "conjunction" });
  return teams.map((seats, side) => ({ team: side, seats,
    label: `${t(`dom.team.${side}`)}: ${and.format(seats.map((i) => seatName(table, i)))}` }));
}

export default {
  name: "dominoes",
  unit: "tiles",
  Item: TileItem,
  itemWidth: tileButton,
  singleSelect: true,
  // The line lays itself out in the whole centre of the felt (Line's fill).
  fillsCentre: true,
  isPass: (m) => m.kind === "pass",
  moveName,
  playText: (e) => moveName(e),
  team,
  Role,
  LastPlay,
  Centre,
  Entry,
  Summary,
  resultRows,
  banner: () => null,
  Drawing: ({ items }) => html`<span class="dom-tiles">${items.map((x) => html`<${Tile} key=${x.c} tile=${x.t} size=${14} label=${tileName(x.t)} />`)}</span>`,
};
