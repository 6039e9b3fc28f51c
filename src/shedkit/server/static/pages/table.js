// The table page: one WebSocket, the seat's view after every change, and the player's
// selection. Everything drawn is a pure function of that state (components/TableView.js).
import { html, render, useEffect, useRef, useState } from "../lib/html.js";
import { TableSocket } from "../lib/socket.js";
import { forgetSeat, getName, getSetting, joinSeat, setName, setSetting } from "../lib/api.js";
import { initI18n, t, useLanguage } from "../lib/i18n.js";
import { errorText } from "../components/ErrorMessage.js";
import { candidates, hintMoves, itemsOf, wrongItems } from "../lib/select.js";
import { beep, soundMode } from "../lib/sound.js";
import { TableView } from "../components/TableView.js";
import { alertOf, alertText, seatName } from "../components/Seat.js";
import { holdFinishedTrick, useTurnAlarm } from "../lib/pace.js";
import { GAMES } from "../games/index.js";
import { useSeatNotices } from "../lib/notices.js";
import { useEmotes, withLine } from "../components/QuickChat.js";
import { stopAsking, useAskBeforeUnload } from "../lib/unload.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
// How long a banner (bomb, rocket, spring, revolution) stays: the `pop` animation of
// table.css lasts as long, so the banner is gone when its animation ends.
const BANNER_MS = 3200;
// How long a can't-beat turn shows before it is passed for a player who asked for that.
const AUTO_PASS_MS = 900;
// How long a page that leaves its seat on the way home waits for the server's answer.
const LEAVE_GRACE_MS = 1500;

function App() {
  useLanguage();
  const [msg, setMsg] = useState(null);
  const [status, setStatus] = useState({ state: "connecting" });
  const [toasts, setToasts] = useState([]);
  const [chat, setChat] = useState([]);
  const [selected, setSelected] = useState(new Set());
  const [wrong, setWrong] = useState(new Set());
  const [shake, setShake] = useState(0);
  const [choices, setChoices] = useState([]);
  const [banner, setBanner] = useState(null);
  const [spoken, setSpoken] = useState("");
  const [now, setNow] = useState(Date.now() / 1000);
  const [result, setResult] = useState(null);
  const [emotes, popEmote] = useEmotes();
  const joining = useRef(null); // the seat this page is sitting down in
  const leaving = useRef(false); // the page has given its seat back (it may then go home)
  const heldTrick = useRef(null); // the trick just ended, and when this page first drew it
  const movers = useRef({ key: null, names: [] });
  // handSort: null until the reader picks an order (each game then has its own default).
  const [settings, setSettings] = useState({ sound: soundMode(getSetting("sound", null)), fourColour: getSetting("fourColour", false),
    handSort: getSetting("handSort", null), autoPass: getSetting("autoPass", false) });
  const [shortcuts, setShortcuts] = useState(false);
  const socket = useRef(null);
  const hint = useRef(-1);
  const prev = useRef(null);
  const prevTable = useRef(null);
  const gameRef = useRef(null);
  const settingsRef = useRef(settings);
  settingsRef.current = settings;

  const toast = (text) => {
    const id = Math.random();
    setToasts((list) => [...list.slice(-3), { id, text }]);
    setTimeout(() => setToasts((list) => list.filter((x) => x.id !== id)), 6000);
  };

  useEffect(() => {
    const s = new TableSocket(tableId, {
      onState: (message) => setMsg(message),
      onError: (error) => { toast(errorText(error, { game: gameRef.current })); beep("error", settingsRef.current.sound); },
      onChat: (line) => { setChat((lines) => withLine(lines, line)); popEmote(line); },
      onStatus: setStatus,
    });
    socket.current = s;
    s.connect();
    const timer = setInterval(() => setNow(Date.now() / 1000), 250);
    return () => clearInterval(timer);
  }, []);

  const view = msg && msg.view;
  const table = msg && msg.table;
  const you = msg ? msg.you : null;
  const game = table ? GAMES[table.game] : null;
  gameRef.current = table ? table.game : null;
  const mine = !!(view && you !== null && view.current_player === you && !view.is_over && view.legal.length);
  const dealKey = table ? `${table.match_no}/${table.deal_number}` : null;

  // The seats' names change when a player leaves mid-deal (the bot's name shows): each move
  // keeps the name of whoever held the seat when this page first saw it.
  if (view) {
    if (movers.current.key !== dealKey || movers.current.names.length > view.history.length) {
      movers.current = { key: dealKey, names: [] };
    }
    const names = movers.current.names;
    // A name, or the bot then playing (named at drawing time, in the language of the moment).
    for (let i = names.length; i < view.history.length; i++) {
      const s = table.seats[view.history[i].seat];
      names.push(s && s.name ? s.name : { bot: s ? s.bot : null });
    }
  }

  // The trick just ended, kept a moment beside the next lead (lib/pace.js).
  const shown = holdFinishedTrick(heldTrick, msg, game, dealKey, Date.now());

  // A finished deal's result stays open until its reader closes it: another player's Next,
  // or the countdown, may deal the next hand while it is still being read.
  useEffect(() => {
    if (!table) return;
    setResult((r) => {
      const same = r && r.key === dealKey;
      if (view && view.is_over) return { key: dealKey, view, table, open: same ? r.open : true, next: !!(same && r.next) };
      return r && r.open && !r.next && view ? { ...r, started: true } : null;
    });
  }, [msg]);

  useSeatNotices(msg, joining, (notices) => { notices.forEach(toast); setSpoken(notices.join(" ")); });

  // What changed since the last state: a new play to announce, a banner, the turn cue.
  useEffect(() => {
    // The server counts a seat's timeouts: one more on yours means its bot just moved for you.
    const was = prevTable.current;
    prevTable.current = table;
    const mineNow = table && you !== null ? table.seats[you] : null;
    const mineWas = was && you !== null ? was.seats[you] : null;
    if (mineNow && mineWas && (mineNow.timeouts || 0) > (mineWas.timeouts || 0)) toast(t("table.timed_out"));
    if (!view || !game) return;
    const before = prev.current;
    prev.current = view;
    const held = new Set(view.hand.map((c) => c.c));
    setSelected((sel) => new Set([...sel].filter((c) => held.has(c))));
    setWrong(new Set());
    setChoices([]);
    hint.current = -1;
    const fresh = before && before.history.length < view.history.length ? view.history[view.history.length - 1] : null;
    if (fresh) {
      setSpoken(`${seatName(table, fresh.seat)}: ${game.playText(fresh, view)}`);
      beep("play", settingsRef.current.sound);
    }
    // 报双 / 报单: said once, when a seat's count comes down to it.
    const alerts = before && !view.is_over ? view.cards_left.map((count, seat) => {
      const alert = alertOf(game, count);
      return alert && before.cards_left[seat] !== count ? `${seatName(table, seat)}: ${alertText(game, alert)}.` : null;
    }).filter(Boolean) : [];
    if (alerts.length) {
      setSpoken((text) => `${fresh ? text : ""} ${alerts.join(" ")}`.trim());
      beep("alert", settingsRef.current.sound);
    }
    const big = before ? game.banner(before, view) : null;
    if (big) {
      const id = Math.random();
      setBanner({ ...big, id });
      beep("bomb", settingsRef.current.sound);
      // Only this banner's own timer takes it down: a later banner keeps its full time.
      setTimeout(() => setBanner((b) => (b && b.id === id ? null : b)), BANNER_MS);
    }
    if (mine && !(before && before.current_player === you)) {
      beep("turn", settingsRef.current.sound);
      setSpoken((text) => `${text} ${t("table.your_turn")}`);
    }
  }, [msg]);

  // Your turn's last seconds: ticks, and once a warning (lib/pace.js).
  useTurnAlarm({ table, you, now, sound: () => settingsRef.current.sound, toast });

  useEffect(() => {
    const name = game ? t(`lobby.games.${table.game}.name`) : "";
    document.title = `${mine ? "● " + t("table.your_turn") + " · " : ""}${name} · ${t("common.brand")}`;
  });

  // 要不起, passed for you when you asked for it: a moment later, so that the play you could
  // not beat is seen first, and once per state.
  const autoPassed = useRef(null);
  useEffect(() => {
    if (!settings.autoPass || !mine || game.unit !== "cards" || autoPassed.current === msg.state_id) return undefined;
    if (!view.legal.every((m) => game.isPass(m))) return undefined;
    const timer = setTimeout(() => {
      autoPassed.current = msg.state_id;
      pass();
      toast(t("table.auto_passed"));
    }, AUTO_PASS_MS);
    return () => clearTimeout(timer);
  }, [msg, settings.autoPass]);

  const send = (message) => {
    if (!socket.current.send(message)) toast(t("table.offline_not_sent"));
  };
  const sendMove = (move) => {
    setSelected(new Set());
    setChoices([]);
    send({ type: "move", move: move.m, state_id: msg.state_id });
  };
  const play = (move) => {
    if (!mine) return;
    if (move) return sendMove(move);
    // Play lays tiles face up: a game's face-down moves (Tien Gow's discards) have their own button.
    const found = candidates(view, selected).filter((m) => !(game.isDiscard && game.isDiscard(m)));
    if (found.length === 1) return sendMove(found[0]);
    if (found.length > 1) return setChoices(found);
    setWrong(wrongItems(view, selected));
    setShake((n) => n + 1);
    setSpoken(t("table.not_legal"));
  };
  const pass = () => {
    const move = view && (game.passMove ? game.passMove(view, selected) : view.legal.find((m) => !m.k.length && game.isPass(m)));
    if (mine && move) sendMove(move);
  };
  const showHint = () => {
    const moves = mine ? (game.hintMoves || hintMoves)(view) : [];
    if (!moves.length) return;
    hint.current = (hint.current + 1) % moves.length;
    setSelected(itemsOf(view, moves[hint.current]));
    setWrong(new Set());
    setSpoken(game.moveName(moves[hint.current], view));
  };
  const clear = () => { setSelected(new Set()); setWrong(new Set()); setChoices([]); };
  const swipe = (item) => {
    setWrong(new Set());
    setSelected((sel) => new Set([...sel, item.c]));
  };
  const tap = (item) => {
    if (selected.has(item.c)) {
      if (game.secondTapPlays !== false && mine && candidates(view, selected).length) return play();
      const next = new Set(selected);
      next.delete(item.c);
      return setSelected(next);
    }
    setWrong(new Set());
    setSelected(new Set([...(game.singleSelect ? [] : selected), item.c]));
  };

  // One listener for the page's life, calling this render's actions: a key pressed right
  // after a tap acts on the selection the tap made, not on the one before it.
  const onKeys = useRef(null);
  onKeys.current = { play, pass, showHint, clear };
  useEffect(() => {
    const keys = (e) => {
      if (e.target.closest && e.target.closest("input, textarea, select")) return;
      const act = onKeys.current;
      if (e.key === " ") { e.preventDefault(); act.play(); }
      else if (e.key === "p" || e.key === "P") act.pass();
      else if (e.key === "h" || e.key === "H") act.showHint();
      else if (e.key === "Escape") act.clear();
      else if (e.key === "?") { e.preventDefault(); setShortcuts(true); }
    };
    document.addEventListener("keydown", keys);
    return () => document.removeEventListener("keydown", keys);
  }, []);

  const takeSeat = async (seat, name) => {
    if (!name) { document.getElementById("join-name")?.focus(); return toast(t("table.name_first")); }
    setName(name);
    joining.current = seat;
    leaving.current = false;
    try {
      await joinSeat(tableId, seat, name);
      socket.current.hello();
    } catch (e) { joining.current = null; toast(errorText(e, { game: table.game })); }
  };
  // Leaving, then going to `to` (the header's home link) once the server has the seat back,
  // or after a moment if no answer comes: the message is not lost with the page.
  const leaveTo = useRef(null);
  const goOnce = () => {
    const to = leaveTo.current;
    leaveTo.current = null;
    if (to) location.assign(to);
  };
  const leave = (to) => {
    leaving.current = true;
    stopAsking();
    send({ type: "leave" });
    forgetSeat(tableId);
    if (typeof to !== "string") return;
    leaveTo.current = to;
    setTimeout(goOnce, LEAVE_GRACE_MS);
  };
  useEffect(() => {
    if (msg && msg.you === null) goOnce();
  }, [msg]);
  // Closing the tab, reloading or Back while seated in a deal in progress: the browser asks.
  useAskBeforeUnload(!!(table && view && you !== null && table.status === "playing" && !view.is_over) && !leaving.current);
  const setSetting_ = (name, value) => {
    setSetting(name, value);
    setSettings((s) => ({ ...s, [name]: value }));
  };

  window.shedkit = { state: msg, selected: [...selected], status: status.state };
  return html`<${TableView} msg=${shown} game=${game} status=${status} toasts=${toasts} chat=${chat} emotes=${emotes}
    selected=${selected} wrong=${wrong} shake=${shake} choices=${choices} banner=${banner} spoken=${spoken}
    now=${now} settings=${settings} mine=${mine} defaultName=${getName()} result=${result} movers=${movers.current.names}
    shortcuts=${shortcuts} actions=${{ tap, swipe, play, pass, showHint, clear, sendMove, send, takeSeat, leave,
      next: () => { send({ type: "next" }); setResult((r) => r && { ...r, next: true }); },
      showResult: (open) => setResult((r) => r && (open || !r.started ? { ...r, open } : null)),
      setSetting: setSetting_, showShortcuts: setShortcuts, closeToast: (id) => setToasts((l) => l.filter((x) => x.id !== id)) }} />`;
}

initI18n().then(() => render(html`<${App} />`, document.getElementById("app")));
