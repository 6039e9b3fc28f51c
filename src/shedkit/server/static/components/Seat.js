// A seat at the table: avatar with the turn ring and its countdown, name, cards or tiles
// left, the seat's role and a badge from the game (Tien Gow's units won), and its last play
// drawn in front of it.
import { html } from "../lib/html.js";
import { t } from "../lib/i18n.js";
import { Fly } from "./Feedback.js";
import { EmoteBubble } from "./QuickChat.js";
import { Fit } from "./Fit.js";

// The seat's name as people read it: the player's name, or the bot that plays it.
export function seatName(table, seat) {
  const s = table.seats[seat];
  if (!s) return t("table.seat_n", { n: seat + 1 });
  if (s.name) return s.name;
  if (isOpen(table, seat)) return t("table.open_seat.name");
  return t("table.bot_name", { level: botLabel(s.bot), n: seat + 1 });
}

// Before the first deal a seat nobody holds is an empty chair: a player may still come, or
// its bot sits down when the deal starts; it is not a bot yet.
export function isOpen(table, seat) {
  const s = table.seats[seat];
  return table.status === "waiting" && !!s && !s.taken;
}

// An empty chair, outlined.
function Chair() {
  return html`<svg class="chair" viewBox="0 0 24 24" aria-hidden="true">
    <path d="M7 3.5h10v8H7zM5 11.5h14v3H5zM6.5 14.5V21M17.5 14.5V21" /></svg>`;
}

export function botLabel(bot) {
  // The greedy bot is the medium level under its own name.
  const key = `level.${bot === "greedy" ? "medium" : bot}.label`;
  const label = t(key);
  return label === key ? bot : label;
}

// The server's deadline ends the move clock and the bank together, and `bank` is the bank
// the turn began with: the move clock runs first, the bank only once the clock is spent.
// Seconds are rounded to the nearest, not up: the page reads its clock four times a second
// and the bank comes to a tenth, so a 30 s turn arrives as 30.2 s left and shows 30 (a
// ceiling showed 31); 1 while any time is left.
export function turnClock(turn, now) {
  const total = Math.max(0, turn.deadline - now);
  const bank = Math.min(Math.max(0, turn.bank || 0), total);
  const own = total - bank;
  const onBank = own <= 0;
  const secs = (x) => (x > 0 ? Math.max(1, Math.round(x)) : 0);
  const left = secs(onBank ? total : own);
  return { total, left, bank: secs(bank), onBank, urgent: left <= 5 };
}

// Two cards left is called out in the card games (报双), the last card or tile in all (报单).
export function alertOf(game, count) {
  if (game.alerts === false) return null;
  if (count === 1) return "one";
  if (count === 2 && game.unit === "cards") return "two";
  return null;
}

export function alertText(game, alert) {
  return t(alert === "one" ? `table.alert_one_${game.unit}` : "table.alert_two_cards");
}

// The turn ring: a circle that empties as the turn clock runs down.
function TurnRing({ fraction, urgent }) {
  const r = 30;
  const length = 2 * Math.PI * r;
  return html`<svg class=${"turn-ring" + (urgent ? " urgent" : "")} viewBox="0 0 68 68" aria-hidden="true">
    <circle cx="34" cy="34" r=${r} class="ring-back" />
    <circle cx="34" cy="34" r=${r} class="ring-time"
      stroke-dasharray=${length} stroke-dashoffset=${length * (1 - fraction)} />
  </svg>`;
}

function initials(name) {
  const chars = [...(name || "?").trim()];
  return (chars[0] || "?").toUpperCase();
}

// props: table, view, seat, you, pos (a place class), game (the game's client module),
// now (seconds, for the countdown), team (a team index or null), onSit (a visitor may sit
// here: the seat's own button), emote ({code, id}: the emote its player just sent).
export function Seat({ table, view, seat, you, pos, game, now, onSit, emote }) {
  const s = table.seats[seat];
  const open = isOpen(table, seat);
  const name = seatName(table, seat);
  const turn = view && view.current_player === seat && !view.is_over;
  const clock = table.turn && table.turn.seat === seat ? table.turn : null;
  const timer = clock ? turnClock(clock, now) : null;
  // The ring shows the move clock, then fills again for the bank.
  const fraction = !timer ? 1 : timer.onBank ? Math.min(1, timer.total / Math.max(1, clock.bank))
    : Math.min(1, (timer.total - clock.bank) / Math.max(1, table.turn_clock));
  const count = view ? view.cards_left[seat] : null;
  const alert = count !== null && !(view && view.is_over) ? alertOf(game, count) : null;
  const role = view && game.Role ? html`<${game.Role} view=${view} seat=${seat} table=${table} />` : null;
  const team = view && game.team ? game.team(view, seat) : null;
  const thinking = table.thinking === seat;
  // Counts this seat's moves: a new one makes its play fly in.
  const plays = view ? view.history.filter((e) => e.seat === seat).length : 0;
  const status = [];
  if (s && s.away) status.push(t("table.away"));
  else if (s && s.taken && !s.connected && s.human_seat) status.push(t("table.offline"));
  if (thinking) status.push(t("table.thinking"));
  // A program sits here through the bot protocol: people should know they play a bot.
  if (s && s.is_bot) status.push(t("table.program"));
  if (open) status.push(t(s.human_seat ? "table.open_seat.waiting" : "table.open_seat.bot_at_start"));
  // An empty chair holds no cards: it is named with what it waits for.
  const label = open ? [name, ...status].join(", ")
    : t("table.seat_label", { name, count: count ?? 0, unit: t(`table.unit_${game.unit}`, { count: count ?? 0 }) });
  return html`<section class=${`seat ${pos}` + (turn ? " turn" : "") + (seat === you ? " mine" : "") + (open ? " open" : "") +
      (team !== null ? ` team-${team}` : "")} data-seat=${seat} aria-label=${label}>
    <div class="avatar-box">
      ${turn ? html`<${TurnRing} fraction=${fraction} urgent=${!!(timer && timer.urgent)} />` : null}
      <div class=${"avatar" + (open ? " open-chair" : "")} aria-hidden="true">${open ? html`<${Chair} />` : initials(name)}</div>
      ${count !== null ? html`<span class=${"count" + (alert ? ` alert alert-${alert}` : "")} title=${label}>${count}</span>` : null}
      ${role}
      ${view && game.SeatBadge ? html`<${game.SeatBadge} view=${view} seat=${seat} />` : null}
      <${EmoteBubble} emote=${emote} />
    </div>
    <div class="seat-name">${name}${seat === you ? html` <span class="you">${t("table.you")}</span>` : null}</div>
    ${alert ? html`<div class=${`seat-alert alert-${alert}`}>${alertText(game, alert)}</div>` : null}
    ${timer ? html`<div class=${"seat-clock" + (timer.urgent ? " urgent" : "") + (timer.onBank ? " on-bank" : "")} role="timer">
      <span class="clock-left">${t("table.seconds_left", { count: timer.left })}</span>
      ${timer.onBank ? html` <span class="clock-bank">${t("table.bank_running")}</span>`
        : timer.bank > 0 ? html` <span class="clock-bank">${t("table.bank_plus", { count: timer.bank })}</span>` : null}
    </div>` : null}
    ${status.length ? html`<div class="seat-status">${status.join(" · ")}</div>` : null}
    ${onSit ? html`<button type="button" class="small sit-here" data-seat=${seat} aria-label=${t("table.open_seat.sit_label", { n: seat + 1 })}
      onClick=${() => onSit(seat)}>${t("table.open_seat.sit")}</button>` : null}
    ${table.totals ? html`<div class="seat-score">${t("table.points", { count: table.totals[seat] })}</div>` : null}
    <div class="seat-play">${view && game.LastPlay ? html`<${Fit}><${Fly} id=${plays} place=${pos}>
      <${game.LastPlay} view=${view} seat=${seat} table=${table} /></${Fly}></${Fit}>` : null}</div>
  </section>`;
}

// Places around the felt by the number of players, the viewer always at the bottom.
const PLACES = {
  2: ["bottom", "top"],
  3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"],
  // Five round a pentagon: the two beside you in the bottom corners, so that no seat sits
  // in the middle row, where a top seat's play would reach it.
  5: ["bottom", "bottom-right", "top-right", "top-left", "bottom-left"],
  6: ["bottom", "bottom-right", "top-right", "top", "top-left", "bottom-left"],
};

export function placeOf(seat, you, n) {
  const rel = (seat - (you ?? 0) + n) % n;
  return "pos-" + (PLACES[n] || PLACES[6])[rel];
}
