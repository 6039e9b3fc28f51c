// The table's pace as a player feels it: the trick just ended kept on the felt long enough
// to read, and the last seconds of your own turn told (ticks, then once a warning).
import { useEffect, useRef } from "./html.js";
import { t } from "./i18n.js";
import { beep } from "./sound.js";
import { turnClock } from "../components/Seat.js";

// The trick just ended stays on the felt at least this long, even if the next lead comes
// sooner (a quick player leads): the seats the new trick has not reached keep it, dimmed.
export const FINISHED_TRICK_MS = 1100;
// The whole turn (the bank included) down to this many seconds: warned once per turn.
export const LAST_SECONDS = 5;

// The state to draw: the server sends the trick just ended (`finished_trick`) until the next
// move; this keeps it beside the new trick until it has been drawn FINISHED_TRICK_MS.
// `held` (a ref) remembers the trick and when it was first drawn; `key` names the deal. The
// page draws itself four times a second (its clock), so the trick goes in time.
export function holdFinishedTrick(held, msg, game, key, nowMs) {
  const view = msg && msg.view;
  if (!view || !game || !(game.unit === "cards" || game.holdsTrick)) return msg;
  const done = view.finished_trick || [];
  const last = held.current;
  const same = last && last.key === key;
  if (done.length) {
    if (!(same && last.len === view.history.length)) held.current = { key, len: view.history.length, done, at: nowMs };
    return msg;
  }
  const next = view.trick.length && view.history.length - view.trick.length === (same ? last.len : -1);
  if (!next || view.is_over || nowMs - last.at >= FINISHED_TRICK_MS) return msg;
  return { ...msg, view: { ...view, finished_trick: last.done } };
}

// Your own turn's last seconds: a tick for each, once a second; and once per turn, when the
// whole turn is down to LAST_SECONDS (the bank spent too), a warning: a toast, a buzz where
// the device has one, a sound (heard by default: lib/sound.js). `sound()` reads the setting.
export function useTurnAlarm({ table, you, now, sound, toast }) {
  const ticked = useRef(null);
  const warned = useRef(null);
  useEffect(() => {
    const turn = table && table.turn;
    if (!turn || you === null || turn.seat !== you) return;
    const timer = turnClock(turn, now);
    const key = `${turn.deadline}:${timer.onBank}:${timer.left}`;
    if (timer.urgent && timer.left > 0 && ticked.current !== key) {
      ticked.current = key;
      beep("tick", sound());
    }
    const whole = timer.onBank || !timer.bank ? timer.left : 0;
    const turnKey = `${turn.seat}:${turn.deadline}`;
    if (whole > 0 && whole <= LAST_SECONDS && warned.current !== turnKey) {
      warned.current = turnKey;
      toast(t("table.last_seconds", { count: whole }));
      beep("warn", sound());
      try {
        if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
      } catch (e) {
        // No vibration: the toast and the sound say it.
      }
    }
  }, [now]);
}
