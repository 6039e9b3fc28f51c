// The table page's layout as a pure function of its state: the felt with the seats around
// it, the centre the game draws, your hand and buttons, and the panels beside.
import { html, useState } from "../lib/html.js";
import { t } from "../lib/i18n.js";
import { candidates, playableKeys } from "../lib/select.js";
import { Header } from "./Header.js";
import { Seat, placeOf, seatName } from "./Seat.js";
import { Hand } from "./Hand.js";
import { Controls } from "./Controls.js";
import { Announcer, Banner, Reconnecting, Toasts } from "./Feedback.js";
import { Chat, Log, Scoreboard } from "./Sidebar.js";
import { EndOfDeal } from "./EndOfDeal.js";

function JoinBox({ table, defaultName, onTake }) {
  const [name, setName] = useState(defaultName);
  const open = table.seats.map((s, i) => [s, i]).filter(([s]) => !s.taken);
  return html`<div class="join" id="join">
    <p>${t("table.watching")}</p>
    ${open.length ? html`<label>${t("table.display_name")}
      <input id="join-name" maxlength="24" value=${name} autocomplete="nickname"
        onInput=${(e) => setName(e.target.value)} /></label>
      ${open.map(([, i]) => html`<button type="button" class="take" key=${i} data-seat=${i}
        onClick=${() => onTake(i, name.trim())}>${t("table.take_seat", { n: i + 1 })}</button>`)}` : null}
  </div>`;
}

function InviteDialog({ onClose }) {
  const [Invite, setInvite] = useState(null);
  if (!Invite) import("./Invite.js").then((m) => setInvite(() => m.Invite)).catch(() => setInvite(() => null));
  const url = `${location.origin}/t/${location.pathname.split("/").pop()}`;
  return html`<div class="overlay" role="dialog" aria-modal="true" aria-label=${t("table.invite")}>
    <div class="dialog">
      ${Invite ? html`<${Invite} url=${url} />` : html`<p><a href=${url}>${url}</a></p>`}
      <div class="dialog-actions"><button type="button" onClick=${onClose}>${t("common.close")}</button></div>
    </div>
  </div>`;
}

function MeArea({ msg, game, selected, wrong, shake, choices, mine, defaultName, actions }) {
  const { table, view, you } = msg;
  if (you === null) return html`<${JoinBox} table=${table} defaultName=${defaultName} onTake=${actions.takeSeat} />`;
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
    <${Hand} items=${view.hand} Item=${game.Item} itemWidth=${game.itemWidth()} selected=${selected}
      playable=${mine ? playableKeys(view) : new Set()} wrong=${wrong} marked=${marked} shake=${shake}
      onTap=${actions.tap} onPlay=${() => actions.play()} onSwipe=${game.singleSelect ? null : actions.swipe} />
  </div>`;
}

export function TableView(props) {
  const { msg, game, status, toasts, chat, banner, spoken, now, settings, actions } = props;
  const [inviting, setInviting] = useState(false);
  if (!msg || !game) {
    return html`<main class="loading"><p>${t("table.connecting")}</p></main>
      <${Reconnecting} status=${status} />`;
  }
  const { table, view, you } = msg;
  const n = table.seats.length;
  const subtitle = [t(`preset.${table.game}.${table.preset}.label`, { defaultValue: table.preset }),
    you === null ? t("table.watching_short") : t("table.you_are", { name: seatName(table, you) })].join(" · ");
  return html`<div class=${"room game-" + table.game + (settings.fourColour ? " four-colour" : "")}>
    <${Header} title=${t(`lobby.games.${table.game}.name`)} subtitle=${subtitle} settings=${settings}
      onSetting=${actions.setSetting} onInvite=${() => setInviting(true)} />
    <main class="room-main">
      <div class="play-area">
        <section class=${`felt players-${n}`} aria-label=${t("table.table")}>
          ${table.seats.map((_, i) => html`<${Seat} key=${i} table=${table} view=${view} seat=${i} you=${you}
            pos=${placeOf(i, you, n)} game=${game} now=${now} />`)}
          <div class="centre">
            ${view ? html`<${game.Centre} view=${view} table=${table} you=${you} selected=${props.selected}
              mine=${props.mine} actions=${actions} />` : null}
            <${Banner} banner=${banner} />
          </div>
          ${table.status === "scored" && table.next_deal_at ? html`<p class="next-deal">
            ${t("table.next_deal_in", { count: Math.max(0, Math.ceil(table.next_deal_at - now)) })}</p>` : null}
        </section>
        <${MeArea} ...${props} />
      </div>
      <aside class="side">
        <${Scoreboard} table=${table} />
        <${Log} view=${view} table=${table} game=${game} />
        <${Chat} lines=${chat} onSend=${(text) => actions.send({ type: "chat", text })} canSend=${you !== null} />
        ${you !== null ? html`<button type="button" id="leave" class="small" onClick=${actions.leave}>${t("table.leave")}</button>` : null}
      </aside>
    </main>
    ${view && view.is_over ? html`<${EndOfDeal} view=${view} table=${table} you=${you} game=${game}
      onNext=${() => actions.send({ type: "next" })} />` : null}
    ${inviting ? html`<${InviteDialog} onClose=${() => setInviting(false)} />` : null}
    <${Toasts} toasts=${toasts} onClose=${actions.closeToast} />
    <${Reconnecting} status=${status} />
    <${Announcer} text=${spoken} />
  </div>`;
}
