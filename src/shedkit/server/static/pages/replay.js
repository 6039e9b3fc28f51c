// The replay page: every step of a finished deal with all hands shown, drawn as at the
// table as it stood then; first/back/next/last buttons, a slider, the arrow keys, Home and
// End step through it.
import { html, render, useEffect, useRef, useState } from "../lib/html.js";
import { api, getSetting, setSetting } from "../lib/api.js";
import { has, initI18n, t, useLanguage } from "../lib/i18n.js";
import { Header } from "../components/Header.js";
import { Seat, placeOf, seatName } from "../components/Seat.js";
import { centreOf } from "../components/Fit.js";
import { GAMES } from "../games/index.js";
import { soundMode } from "../lib/sound.js";
import { readerSort, sortHand } from "../lib/sort.js";

const [, , tableId, numberText] = location.pathname.split("/").map(decodeURIComponent);
const number = parseInt(numberText, 10);

// The step buttons' icons, drawn: the media-control characters have no glyph in many fonts.
const ICONS = {
  first: "M3 3h2v10H3z M13 3v10L6 8z",
  back: "M12 3v10L5 8z",
  next: "M4 3v10l7-5z",
  last: "M11 3h2v10h-2z M3 3v10l7-5z",
};

function StepButton({ id, icon, label, onClick }) {
  return html`<button type="button" id=${id} class="step-button" onClick=${onClick} aria-label=${label} title=${label}>
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path d=${ICONS[icon]} /></svg>
  </button>`;
}

function Steps({ step, last, go }) {
  return html`<div class="replay-controls" role="group" aria-label=${t("replay.steps")}>
    <${StepButton} id="first" icon="first" label=${t("replay.first")} onClick=${() => go(0)} />
    <${StepButton} id="prev" icon="back" label=${t("replay.back")} onClick=${() => go(step - 1)} />
    <input id="slider" type="range" min="0" max=${last} value=${step} aria-label=${t("replay.step_label")}
      onInput=${(e) => go(parseInt(e.target.value, 10))} />
    <${StepButton} id="next" icon="next" label=${t("replay.next")} onClick=${() => go(step + 1)} />
    <${StepButton} id="last" icon="last" label=${t("replay.last")} onClick=${() => go(last)} />
    <span id="step">${t("replay.step", { n: step, total: last })}</span>
  </div>`;
}

const add = (a, b, sign = 1) => a.map((v, i) => v + sign * (b[i] || 0));

// The table as it stood during deal `number`, not as it is now: that deal's match totals
// (before it, and after it once the replay reaches its end), the deals before it in its
// match (President's titles come from the last of them), and no turn clock, absence or
// seat of "yours". Totals come from the table's totals less the later deals of the same
// match, or, for an earlier match, from its deals summed; null when the kept summaries
// cannot tell (a deal older than they reach).
function asDealt(table, summaries, number, record) {
  const seen = table.history.length ? table.history[table.history.length - 1].number : 0;
  const deals = summaries.filter((d) => d.number <= seen);
  const own = deals.find((d) => d.number === number);
  const match = own ? own.match : null;
  const same = deals.filter((d) => d.match === match);
  let before = null;
  if (own && match === table.match_no) {
    before = same.filter((d) => d.number >= number).reduce((acc, d) => add(acc, d.returns, -1), table.totals);
  } else if (own && deals.length && (deals[0].match < match || deals[0].number === 1)) {
    before = same.filter((d) => d.number < number).reduce((acc, d) => add(acc, d.returns), table.totals.map(() => 0));
  }
  let history = same.filter((d) => d.number < number);
  const previous = record.setup && record.setup.previous_order;
  if (!history.some((d) => !d.thrown_in) && previous) {
    // The tax's own order, for a deal whose previous one the summaries no longer hold.
    history = [{ number: number - 1, match, thrown_in: false, finished: previous }];
  }
  return {
    ...table,
    seats: table.seats.map((s) => ({ name: s.name, bot: s.bot })),
    history,
    deal_number: number,
    match_no: match,
    before,
    after: before && own ? add(before, own.returns) : null,
    turn: null,
    thinking: null,
  };
}

// The replay's result: each seat (a team in team games) with its match total before the
// deal, the deal's points and the total after.
function Result({ view, dealt, game }) {
  const rows = game.resultRows ? game.resultRows(view, dealt) : dealt.seats.map((_, i) => ({ seats: [i] }));
  const totals = dealt.before !== null;
  return html`<section class="panel" id="result"><h2>${t("replay.result")}</h2>
    <div class="summary"><${game.Summary} view=${view} table=${dealt} /></div>
    <table class="scores" id="replay-scores">
      <thead><tr><th scope="col">${t("table.player")}</th>
        ${totals ? html`<th scope="col">${t("replay.total_before")}</th>` : null}
        <th scope="col">${t("table.this_deal_points")}</th>
        ${totals ? html`<th scope="col">${t("replay.total_after")}</th>` : null}</tr></thead>
      <tbody>${rows.map((row, r) => html`<tr key=${r} class=${row.team !== undefined ? `team-${row.team}` : ""} data-seat=${row.seats[0]}>
        <th scope="row">${row.label || seatName(dealt, row.seats[0])}
          ${game.Role && row.seats.length === 1 ? html`<${game.Role} view=${view} seat=${row.seats[0]} table=${dealt} />` : null}</th>
        ${totals ? html`<td class="before">${dealt.before[row.seats[0]]}</td>` : null}
        <td class="deal">${view.returns[row.seats[0]]}</td>
        ${totals ? html`<td class="after">${dealt.after[row.seats[0]]}</td>` : null}</tr>`)}</tbody>
    </table>
  </section>`;
}

function App() {
  useLanguage();
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [step, setStep] = useState(0);
  const [settings, setSettings] = useState({ sound: soundMode(getSetting("sound", null)), fourColour: getSetting("fourColour", false) });
  useEffect(() => {
    const base = `/api/tables/${encodeURIComponent(tableId)}`;
    // The summaries after the table: a deal that ends in between is then left out of both.
    Promise.all([api("GET", `${base}/deals/${number}`), api("GET", base)])
      .then(([deal, table]) => api("GET", `${base}/deals`).then((summaries) => setData({ deal, table, summaries })))
      .catch((e) => setError(has(`error.${e.code}`) ? t(`error.${e.code}`, e.data) : t("error.generic", { code: e.code })));
  }, []);
  const last = data ? data.deal.steps.length - 1 : 0;
  const lastStep = useRef(0);
  lastStep.current = last;
  const within = (to) => Math.max(0, Math.min(lastStep.current, to));
  const go = (to) => setStep(within(to));
  // One listener for the page's life, stepping from the step shown: two arrows pressed
  // quickly are two steps, even before the first is drawn.
  useEffect(() => {
    const keys = (e) => {
      // The slider steps by itself when it has the focus.
      if (e.target && e.target.id === "slider") return;
      if (e.key === "ArrowRight") setStep((s) => within(s + 1));
      if (e.key === "ArrowLeft") setStep((s) => within(s - 1));
      if (e.key === "Home") setStep(0);
      if (e.key === "End") setStep(lastStep.current);
    };
    document.addEventListener("keydown", keys);
    return () => document.removeEventListener("keydown", keys);
  }, []);
  if (error) return html`<main class="loading"><p role="alert">${error}</p></main>`;
  if (!data) return html`<main class="loading"><p>${t("table.connecting")}</p></main>`;
  const { deal, table, summaries } = data;
  const game = GAMES[deal.record.game];
  const s = deal.steps[step];
  const view = s.public;
  const entry = step > 0 ? view.history[view.history.length - 1] : null;
  const n = table.seats.length;
  const base = asDealt(table, summaries, number, deal.record);
  // The seats show the totals the deal started with, and the new ones once it is over.
  const dealt = { ...base, totals: step === last ? base.after : base.before };
  const onSetting = (name, value) => { setSetting(name, value); setSettings((x) => ({ ...x, [name]: value })); };
  return html`<div class=${"room replay game-" + deal.record.game + (settings.fourColour ? " four-colour" : "")}>
    <${Header} title=${t(`lobby.games.${deal.record.game}.name`)} subtitle=${t("replay.title", { n: number })}
      settings=${settings} onSetting=${onSetting} cards=${game.unit === "cards"} />
    <main class="replay-main">
      <${Steps} step=${step} last=${last} go=${go} />
      <p class="replay-move" id="move" aria-live="polite">${entry
        ? html`<b>${seatName(dealt, entry.seat)}</b> <${game.Entry} entry=${entry} view=${view} table=${dealt} />`
        : t("replay.the_deal")}</p>
      <section class=${`felt players-${n}`} aria-label=${t("table.table")}>
        ${dealt.seats.map((_, i) => html`<${Seat} key=${i} table=${dealt} view=${view} seat=${i} you=${null}
          pos=${placeOf(i, 0, n)} game=${game} now=${0} />`)}
        <div class="centre">${centreOf(game, html`<${game.Centre} view=${view} table=${dealt} you=${null}
          selected=${new Set()} mine=${false} actions=${{ sendMove: () => {} }} />`)}</div>
      </section>
      <section class="replay-hands">
        ${s.hands.map((cards, seat) => html`<div class="panel replay-hand" key=${seat} data-seat=${seat}>
          <h2>${seatName(dealt, seat)} · ${t(`table.unit_${game.unit}`, { count: cards.length })}</h2>
          ${cards.length ? html`<${game.Drawing} items=${sortHand(cards, readerSort(game.name), game.name, view)} view=${view} />` : null}
        </div>`)}
      </section>
      ${step === last ? html`<${Result} view=${view} dealt=${dealt} game=${game} />` : null}
    </main>
  </div>`;
}

initI18n().then(() => render(html`<${App} />`, document.getElementById("app")));
