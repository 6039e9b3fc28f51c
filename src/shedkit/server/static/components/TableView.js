// The table page's layout as a pure function of its state: the felt with the seats around
// it, the centre the game draws, your hand and buttons, and the panels beside.
import { html, useEffect, useLayoutEffect, useRef, useState } from "../lib/html.js";
import { t } from "../lib/i18n.js";
import { useDismiss } from "../lib/dismiss.js";
import { candidates, playableKeys } from "../lib/select.js";
import { Header, ShortcutList } from "./Header.js";
import { defaultSort, sortHand } from "../lib/sort.js";
import { Seat, isOpen, placeOf, seatName } from "./Seat.js";
import { Hand } from "./Hand.js";
import { Controls } from "./Controls.js";
import { Announcer, Banner, Reconnecting, Toasts } from "./Feedback.js";
import { Chat, Log, Scoreboard } from "./Sidebar.js";
import { CardCounter, CounterStrip } from "./CardCounter.js";
import { EndOfDeal } from "./EndOfDeal.js";
import { centreOf } from "./Fit.js";

// The name a visitor sits down under, typed here: each seat's own "Sit here" uses it too.
// A seat is named as the felt shows it: by its place round the table (a visitor's felt has
// seat 1 at the bottom) and, once its bot plays it, by that bot's name.
function JoinBox({ table, name, setName, onTake }) {
  const open = table.seats.map((s, i) => [s, i]).filter(([s]) => !s.taken);
  const seatLabel = (i) => {
    const place = t(`table.place.${placeOf(i, null, table.seats.length).slice(4)}`);
    return isOpen(table, i) ? t("table.take_place", { place }) : t("table.take_place_named", { place, name: seatName(table, i) });
  };
  return html`<div class="join" id="join">
    <p>${t("table.watching")}</p>
    ${open.length ? html`<label>${t("table.display_name")}
      <input id="join-name" maxlength="24" value=${name} autocomplete="nickname"
        onInput=${(e) => setName(e.target.value)} /></label>
      ${open.map(([, i]) => html`<button type="button" class="take" key=${i} data-seat=${i}
        onClick=${() => onTake(i, name.trim())}>${seatLabel(i)}</button>`)}` : null}
  </div>`;
}

// A modal dialog: Escape closes it (before the table's own Escape, which clears the
// selection), and focus goes back to what opened it, so a keyboard user is not lost.
// returnTo: the id of that button, should the element that had focus be gone by then.
function Modal({ label, labelledby, cls, onClose, returnTo, children }) {
  const box = useRef(null);
  useDismiss(true, { onEscape: onClose });
  useEffect(() => {
    const opener = document.activeElement;
    const first = box.current && box.current.querySelector("button");
    if (first) first.focus();
    return () => {
      const inside = !opener || !opener.isConnected || opener === document.body || (box.current && box.current.contains(opener));
      let back = inside ? document.getElementById(returnTo) : opener;
      // A tool folded into the phone's header menu is hidden again: its menu button then.
      if (back && back.isConnected && !back.getClientRects().length) back = document.getElementById("menu") || back;
      if (!back || !back.focus) return;
      back.focus();
      // The dialog's node may leave the page after this, taking focus with it: once more then.
      setTimeout(() => { if (document.activeElement === document.body && back.isConnected) back.focus(); });
    };
  }, []);
  return html`<div class="overlay" role="dialog" aria-modal="true" aria-label=${label} aria-labelledby=${labelledby}>
    <div class=${"dialog " + (cls || "")} ref=${box}>${children}</div>
  </div>`;
}

function InviteDialog({ onClose }) {
  const [Invite, setInvite] = useState(null);
  if (!Invite) import("./Invite.js").then((m) => setInvite(() => m.Invite)).catch(() => setInvite(() => null));
  const url = `${location.origin}/t/${location.pathname.split("/").pop()}`;
  return html`<${Modal} label=${t("table.invite")} cls="invite-dialog" returnTo="invite" onClose=${onClose}>
    ${Invite ? html`<${Invite} url=${url} />` : html`<p><a href=${url}>${url}</a></p>`}
    <div class="dialog-actions"><button type="button" id="invite-close" onClick=${onClose}>${t("common.close")}</button></div>
  </${Modal}>`;
}

// Leaving mid-deal hands the cards to a bot for the rest of the deal: asked first, by the
// Leave button and by the header's home link alike. Staying is the default: the primary
// button, first, so the one the dialog focuses (Enter keeps the seat).
function LeaveDialog({ onLeave, onStay }) {
  return html`<${Modal} labelledby="leave-title" cls="leave-dialog" returnTo="leave" onClose=${onStay}>
    <h2 id="leave-title">${t("table.leave_title")}</h2>
    <p>${t("table.leave_confirm")}</p>
    <div class="dialog-actions">
      <button type="button" id="leave-stay" class="primary" onClick=${onStay}>${t("table.stay")}</button>
      <button type="button" id="leave-yes" onClick=${onLeave}>${t("table.leave")}</button>
    </div>
  </${Modal}>`;
}

// The hand's order: the reader's choice, or the game's own default until there is one.
const handSort = (settings, game) => (settings && settings.handSort) || defaultSort(game);

// The keys the table answers to, opened by "?" or the header's button.
function ShortcutsDialog({ game, onClose }) {
  return html`<${Modal} labelledby="shortcuts-title" cls="shortcuts-dialog" returnTo="shortcuts" onClose=${onClose}>
    <h2 id="shortcuts-title">${t("table.shortcuts")}</h2>
    <${ShortcutList} passName=${game.moveName({ kind: "pass", k: [] }, null)} />
    <div class="dialog-actions"><button type="button" id="shortcuts-close" onClick=${onClose}>${t("common.close")}</button></div>
  </${Modal}>`;
}

function MeArea({ msg, game, settings, selected, wrong, shake, choices, mine, joinName, setJoinName, actions }) {
  const { table, view, you } = msg;
  if (you === null) return html`<${JoinBox} table=${table} name=${joinName} setName=${setJoinName} onTake=${actions.takeSeat} />`;
  if (!view) {
    return html`<div class="waiting"><p>${t("table.waiting")}</p>
      <button type="button" class="primary" onClick=${() => actions.send({ type: "start" })}>${t("table.start_now")}</button></div>`;
  }
  const found = candidates(view, selected);
  // A game's own controls (the auction, the tax) replace the usual buttons while they apply.
  const special = game.Controls ? game.Controls({ view, table, you, mine, selected, actions }) : null;
  const canPass = view.legal.some((m) => !m.k.length && game.isPass(m));
  const marked = game.marked ? game.marked(view) : new Set();
  return html`<div class="me-area">
    ${special || html`<${Controls} view=${view} mine=${mine} found=${found} selectedCount=${selected.size}
      canPass=${canPass} game=${game} choices=${choices} onPlay=${actions.play} onPass=${actions.pass}
      onHint=${actions.showHint} onClear=${actions.clear} />`}
    <${Hand} items=${sortHand(view.hand, handSort(settings, table.game), table.game, view)} Item=${game.Item} itemWidth=${game.itemWidth()} selected=${selected}
      playable=${mine ? playableKeys(view) : new Set()} wrong=${wrong} marked=${marked} shake=${shake}
      onTap=${actions.tap} onPlay=${() => actions.play()} onSwipe=${game.singleSelect ? null : actions.swipe} />
  </div>`;
}

// Between deals, under the felt and in the page's flow (so that it covers nothing and a long
// language wraps): the countdown to the next deal and the button that reopens the result.
function dealEnd(table, view, result, now, actions) {
  const countdown = table.status === "scored" && table.next_deal_at;
  const reopen = result && !result.open && view && view.is_over;
  if (!countdown && !reopen) return null;
  return html`<div class="deal-end">
    ${countdown ? html`<p class="next-deal">
      ${t("table.next_deal_in", { count: Math.max(0, Math.ceil(table.next_deal_at - now)) })}</p>` : null}
    ${reopen ? html`<button type="button" class="show-result" onClick=${() => actions.showResult(true)}>
      ${t("table.show_result")}</button>` : null}
  </div>`;
}

// On a phone the panels beside the table are a tap away from the felt, never below it: the
// felt's corners hold a button for each (the card counter's strip, this deal's plays, the
// chat, the scores), and a tap opens that panel as a sheet over the felt's top, the hand
// and its buttons still in view. A tap on the same button, the sheet's Close or Escape
// closes it. On a wide screen the panels stand beside the table and the buttons are hidden.
const AID_ICONS = {
  counter: "M4 5h4v4H4zM10 5h4v4h-4zM16 5h4v4h-4zM4 11h4v4H4zM10 11h4v4h-4zM16 11h4v4h-4zM4 17h4v2H4zM10 17h4v2h-4z",
  log: "M5 6h14M5 10h14M5 14h10M5 18h8",
  chat: "M4 5h16v10H10l-5 4v-4H4z",
  scores: "M5 19V11M10 19V5M15 19v-6M20 19V9",
};

function AidButton({ aid, label, pressed, expands, badge, onClick }) {
  return html`<button type="button" class=${"aid aid-" + aid} id=${"aid-" + aid} aria-label=${label} title=${label}
    aria-pressed=${expands ? null : pressed ? "true" : "false"} aria-expanded=${expands ? (pressed ? "true" : "false") : null}
    aria-controls=${expands ? "side" : null} onClick=${onClick}>
    <svg viewBox="0 0 24 24" aria-hidden="true"><path d=${AID_ICONS[aid]} /></svg>
    ${badge ? html`<span class="aid-badge" aria-hidden="true"></span>` : null}
  </button>`;
}

function Aids({ table, view, sheet, setSheet, strip, setStrip, unread }) {
  const open = (name) => setSheet(sheet === name ? null : name);
  const counter = table.card_counter && view && ["doudizhu", "president"].includes(view.game);
  return html`<div class="aids aids-left" role="group" aria-label=${t("table.aids")}>
      ${counter ? html`<${AidButton} aid="counter" label=${t("table.counter")} pressed=${strip}
        onClick=${() => setStrip(!strip)} />` : null}
      <${AidButton} aid="log" label=${t("table.this_deal")} expands=${true} pressed=${sheet === "log"} onClick=${() => open("log")} />
    </div>
    <div class="aids aids-right" role="group" aria-label=${t("table.aids")}>
      <${AidButton} aid="chat" label=${t("table.chat")} expands=${true} pressed=${sheet === "chat"} badge=${unread}
        onClick=${() => open("chat")} />
      <${AidButton} aid="scores" label=${t("table.scores")} expands=${true} pressed=${sheet === "scores"} onClick=${() => open("scores")} />
    </div>`;
}

// The header's height, measured as it wraps, as --head-h: the play area takes the rest of
// the screen, so the hand stays on it.
function useHeaderHeight() {
  useLayoutEffect(() => {
    const root = document.documentElement;
    let ro = null;
    const watch = () => {
      const head = document.querySelector(".room-header");
      if (!head || typeof ResizeObserver === "undefined") return;
      ro = new ResizeObserver(() => root.style.setProperty("--head-h", `${Math.ceil(head.getBoundingClientRect().height)}px`));
      ro.observe(head);
    };
    // The header appears with the first state: look again until it is there.
    const timer = setInterval(() => (ro ? clearInterval(timer) : watch()), 100);
    watch();
    return () => { clearInterval(timer); if (ro) ro.disconnect(); };
  }, []);
}

export function TableView(props) {
  const { msg, game, status, toasts, chat, banner, spoken, now, settings, actions } = props;
  const [inviting, setInviting] = useState(false);
  // The deal whose leaving is being asked about ({deal, to}: to, where the page goes after,
  // for the header's home link): a question left open dies with its deal.
  const [leaving, setLeaving] = useState(null);
  useHeaderHeight();
  const [typedName, setJoinName] = useState(null);
  const joinName = typedName ?? props.defaultName ?? "";
  // The phone's sheet (null, "log", "chat", "scores"), the counter's strip on the felt, and
  // how many chat lines were there when the chat was last open (a dot marks new ones).
  const [sheet, setSheet] = useState(null);
  const [strip, setStrip] = useState(true);
  const [chatSeen, setChatSeen] = useState(0);
  const chatCount = (chat || []).length;
  if (sheet === "chat" && chatSeen !== chatCount) setChatSeen(chatCount);
  useDismiss(sheet !== null, { onEscape: () => setSheet(null) });
  if (!msg || !game) {
    return html`<main class="loading"><p>${t("table.connecting")}</p></main>
      <${Reconnecting} status=${status} />`;
  }
  const { table, view, you } = msg;
  const n = table.seats.length;
  const result = props.result;
  const midDeal = table.status === "playing" && !!view && !view.is_over;
  const subtitle = [t(`preset.${table.game}.${table.preset}.label`, { defaultValue: table.preset }),
    t(`table.speed_${table.speed || "normal"}`),
    you === null ? t("table.watching_short") : t("table.you_are", { name: seatName(table, you) })].join(" · ");
  return html`<div class=${"room game-" + table.game + (settings.fourColour ? " four-colour" : "")}>
    <${Header} title=${t(`lobby.games.${table.game}.name`)} subtitle=${subtitle} settings=${settings} cards=${game.unit === "cards"}
      onHome=${you !== null && midDeal ? () => setLeaving({ deal: table.deal_number, to: "/" }) : null}
      onSetting=${actions.setSetting} onInvite=${() => setInviting(true)} onShortcuts=${() => actions.showShortcuts(true)}
      sortMode=${game.unit === "cards" ? handSort(settings, table.game) : null} 
      extra=${view && strip ? html`<div class="strip-head"><${CounterStrip} view=${view} table=${table} /></div>` : null} />
    <main class="room-main">
      <div class="play-area">
        <section class=${`felt players-${n}`} aria-label=${t("table.table")}>
          ${table.seats.map((_, i) => html`<${Seat} key=${i} table=${table} view=${view} seat=${i} you=${you}
            pos=${placeOf(i, you, n)} game=${game} now=${now} emote=${props.emotes && props.emotes[i]}
            onSit=${you === null && !table.seats[i].taken && table.status !== "playing"
              ? () => actions.takeSeat(i, joinName.trim()) : null} />`)}
          <${Aids} table=${table} view=${view} sheet=${sheet} setSheet=${setSheet} strip=${strip} setStrip=${setStrip}
            unread=${chatCount > chatSeen && sheet !== "chat"} />
          <div class="centre">
            ${view && strip ? html`<${CounterStrip} view=${view} table=${table} />` : null}
            ${view ? centreOf(game, html`<${game.Centre} view=${view} table=${table} you=${you} selected=${props.selected}
              mine=${props.mine} actions=${actions} />`) : null}
            <${Banner} banner=${banner} />
          </div>
        </section>
        ${dealEnd(table, view, result, now, actions)}
        <${MeArea} ...${props} joinName=${joinName} setJoinName=${setJoinName} />
      </div>
      <aside class=${"side" + (sheet ? " sheet-open" : "")} id="side" data-sheet=${sheet || ""}>
        ${sheet ? html`<button type="button" class="small sheet-close" onClick=${() => setSheet(null)}>${t("common.close")}</button>` : null}
        <${Scoreboard} table=${table} />
        <${CardCounter} view=${view} table=${table} />
        <${Log} view=${view} table=${table} game=${game} names=${props.movers} />
        <${Chat} lines=${chat} onSend=${(text) => actions.send({ type: "chat", text })} canSend=${you !== null}
          onQuick=${(said) => actions.send({ type: "chat", ...said })} />
        ${you !== null ? html`<button type="button" id="leave" class="small" onClick=${() => { setSheet(null); if (midDeal) setLeaving({ deal: table.deal_number }); else actions.leave(); }}>${t("table.leave")}</button>` : null}
      </aside>
    </main>
    ${result && result.open ? html`<${EndOfDeal} view=${result.view} table=${result.table} you=${you} game=${game}
      started=${result.started} onNext=${actions.next} onClose=${() => actions.showResult(false)} />` : null}
    ${leaving && leaving.deal === table.deal_number && midDeal ? html`<${LeaveDialog} onStay=${() => setLeaving(null)}
      onLeave=${() => { setLeaving(null); actions.leave(leaving.to); }} />` : null}
    ${inviting ? html`<${InviteDialog} onClose=${() => setInviting(false)} />` : null}
    ${props.shortcuts ? html`<${ShortcutsDialog} game=${game} onClose=${() => actions.showShortcuts(false)} />` : null}
    <${Toasts} toasts=${toasts} onClose=${actions.closeToast} />
    <${Reconnecting} status=${status} />
    <${Announcer} text=${spoken} />
  </div>`;
}
