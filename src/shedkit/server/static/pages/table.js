// The table page: one WebSocket, the seat's view after every change, and the player's
// selection. Everything drawn is a pure function of that state (components/TableView.js).
import { html, render, useEffect, useRef, useState } from "../lib/html.js";
import { TableSocket } from "../lib/socket.js";
import { forgetSeat, getName, getSetting, joinSeat, setName, setSetting } from "../lib/api.js";
import { initI18n, t, useLanguage } from "../lib/i18n.js";
import { errorText } from "../components/ErrorMessage.js";
import { candidates, hintMoves, itemsOf, wrongItems } from "../lib/select.js";
import { beep } from "../lib/sound.js";
import { TableView } from "../components/TableView.js";
import { alertOf, alertText, seatName, turnClock } from "../components/Seat.js";
import { GAMES } from "../games/index.js";
import { useSeatNotices } from "../lib/notices.js";
import { useEmotes, withLine } from "../components/QuickChat.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
// How long a banner (bomb, rocket, spring, revolution) stays: the `pop` animation of
// table.css lasts as long, so the banner is gone when its animation ends.
const BANNER_MS = 3200;
// How long a can't-beat turn shows before it is passed for a player who asked for that.
const AUTO_PASS_MS = 900;

// The trick just finished, kept in front of the seats until the next lead. The server sends
// the trick in play only; the page remembers where that trick began, and once the trick is
// cleared the moves since then are the finished one, its passes included. `memo` holds
// {len, start, done} from the view before: a pure step from one view to the next.
function trickStep(memo, view) {
  const len = view.history.length;
  if (memo && memo.len === len) return memo;
  const inPlay = view.trick ? view.trick.length : 0;
  if (view.phase !== "play" || view.is_over) return { len, start: null, done: [] };
  const start = memo && memo.start !== null && memo.start < len ? memo.start : null;
  const done = !inPlay && start !== null ? view.history.slice(start) : [];
  // With the table clear, the next trick begins with the next move.
  return { len, start: inPlay ? len - inPlay : memo ? len : null, done };
}

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
  const movers = useRef({ key: null, names: [] });
  const tricks = useRef({ key: null, memo: null });
  // handSort: null until the reader picks an order (each game then has its own default).
  const [settings, setSettings] = useState({ sound: getSetting("sound", false), fourColour: getSetting("fourColour", false),
    handSort: getSetting("handSort", null), autoPass: getSetting("autoPass", false) });
  const [shortcuts, setShortcuts] = useState(false);
  const socket = useRef(null);
  const hint = useRef(-1);
  const prev = useRef(null);
  const prevTable = useRef(null);
  const ticked = useRef(null);
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

  if (view && game && game.unit === "cards") {
    if (tricks.current.key !== dealKey) tricks.current = { key: dealKey, memo: null };
    tricks.current.memo = trickStep(tricks.current.memo, view);
  }
  const done = view && tricks.current.key === dealKey && tricks.current.memo ? tricks.current.memo.done : [];
  const shown = done.length ? { ...msg, view: { ...view, finished_trick: done } } : msg;

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

  // A tick for each of your clock's last seconds, once a second.
  useEffect(() => {
    const turn = table && table.turn;
    if (!turn || you === null || turn.seat !== you) return;
    const timer = turnClock(turn, now);
    const key = `${turn.deadline}:${timer.onBank}:${timer.left}`;
    if (timer.urgent && timer.left > 0 && ticked.current !== key) {
      ticked.current = key;
      beep("tick", settingsRef.current.sound);
    }
  }, [now]);

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
    const found = candidates(view, selected);
    if (found.length === 1) return sendMove(found[0]);
    if (found.length > 1) return setChoices(found);
    setWrong(wrongItems(view, selected));
    setShake((n) => n + 1);
    setSpoken(t("table.not_legal"));
  };
  const pass = () => {
    const move = view && view.legal.find((m) => !m.k.length && game.isPass(m));
    if (mine && move) sendMove(move);
  };
  const showHint = () => {
    const moves = mine ? hintMoves(view) : [];
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
    try {
      await joinSeat(tableId, seat, name);
      socket.current.hello();
    } catch (e) { joining.current = null; toast(errorText(e, { game: table.game })); }
  };
  const leave = () => { send({ type: "leave" }); forgetSeat(tableId); };
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
