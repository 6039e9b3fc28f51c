// What changed at the seats between two states, as sentences for everyone at the table:
// someone sat down, left (their seat opens, or its bot plays on), or is back. The state
// says all of it; no message of its own is needed.
import { useEffect, useRef } from "./html.js";
import { t } from "./i18n.js";

// A player offline for less than this (a reload, a short drop) is not told to be back.
export const BACK_AFTER_MS = 5000;

// before, after: {table, you} of two states in a row; mine: a seat this page is taking
// (its own action is not told to it); seen: what noteConnected keeps, so that a player's
// first connection after sitting down is no "back"; now: milliseconds (Date.now()).
export function seatNotices(before, after, mine, seen, now) {
  const notices = [];
  after.table.seats.forEach((s, i) => {
    const was = before.table.seats[i];
    if (!was || i === after.you || i === before.you || i === mine) return;
    const n = i + 1;
    const other = s.taken && was.taken && s.name !== was.name;
    if (was.taken && (!s.taken || other)) {
      // Before the first deal the seat is open again; after it, its bot plays.
      const key = after.table.status === "waiting" ? "table.notice.left_open" : "table.notice.left_bot";
      notices.push(t(key, { name: was.name, n }));
    }
    if (s.taken && (!was.taken || other)) notices.push(t("table.notice.sat", { name: s.name, n }));
    else if (s.taken && s.connected && !s.away) {
      const since = seen.offline.get(`${i}:${s.name}`);
      const long = !was.connected && since !== undefined && now - since >= BACK_AFTER_MS;
      if (was.away || long) notices.push(t("table.notice.back", { name: s.name, n }));
    }
  });
  return notices;
}

// Notes in `seen` ({connected: Set, offline: Map}) the players connected now, and since
// when a player seen connected before is offline.
export function noteConnected(table, seen, now) {
  table.seats.forEach((s, i) => {
    const key = `${i}:${s.name}`;
    if (!s.taken) return;
    if (s.connected) {
      seen.connected.add(key);
      seen.offline.delete(key);
    } else if (seen.connected.has(key) && !seen.offline.has(key)) seen.offline.set(key, now);
  });
}

// Tells `tell(notices)` what changed at the seats with each state message `msg`, from the
// second state on (nothing on loading). joining: a ref to the seat this page is taking.
export function useSeatNotices(msg, joining, tell) {
  const was = useRef(null);
  const seen = useRef({ connected: new Set(), offline: new Map() });
  useEffect(() => {
    if (!msg) return;
    const state = { table: msg.table, you: msg.you };
    const before = was.current;
    was.current = state;
    if (joining.current !== null && state.you === joining.current) joining.current = null;
    const notices = before ? seatNotices(before, state, joining.current, seen.current, Date.now()) : [];
    noteConnected(state.table, seen.current, Date.now());
    if (notices.length) tell(notices);
  }, [msg]);
}
