// The replay page: every step of a finished deal with all hands shown, drawn as at the
// table; first/back/next/last buttons, a slider and the arrow keys step through it.
import { html, render, useEffect, useState } from "../lib/html.js";
import { api, getSetting, setSetting } from "../lib/api.js";
import { has, initI18n, t, useLanguage } from "../lib/i18n.js";
import { Header } from "../components/Header.js";
import { Seat, placeOf, seatName } from "../components/Seat.js";
import { GAMES } from "../games/index.js";

const [, , tableId, numberText] = location.pathname.split("/").map(decodeURIComponent);
const number = parseInt(numberText, 10);

function Steps({ step, last, go }) {
  return html`<div class="replay-controls" role="group" aria-label=${t("replay.steps")}>
    <button type="button" id="first" onClick=${() => go(0)} aria-label=${t("replay.first")}>⏮</button>
    <button type="button" id="prev" onClick=${() => go(step - 1)} aria-label=${t("replay.back")}>◀</button>
    <input id="slider" type="range" min="0" max=${last} value=${step} aria-label=${t("replay.step_label")}
      onInput=${(e) => go(parseInt(e.target.value, 10))} />
    <button type="button" id="next" onClick=${() => go(step + 1)} aria-label=${t("replay.next")}>▶</button>
    <button type="button" id="last" onClick=${() => go(last)} aria-label=${t("replay.last")}>⏭</button>
    <span id="step">${t("replay.step", { n: step, total: last })}</span>
  </div>`;
}

function App() {
  useLanguage();
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [step, setStep] = useState(0);
  const [settings, setSettings] = useState({ sound: false, fourColour: getSetting("fourColour", false) });
  useEffect(() => {
    Promise.all([api("GET", `/api/tables/${encodeURIComponent(tableId)}/deals/${number}`),
      api("GET", `/api/tables/${encodeURIComponent(tableId)}`)])
      .then(([deal, table]) => setData({ deal, table }))
      .catch((e) => setError(has(`error.${e.code}`) ? t(`error.${e.code}`, e.data) : t("error.generic", { code: e.code })));
  }, []);
  const last = data ? data.deal.steps.length - 1 : 0;
  const go = (to) => setStep(Math.max(0, Math.min(last, to)));
  useEffect(() => {
    const keys = (e) => {
      if (e.key === "ArrowRight") go(step + 1);
      if (e.key === "ArrowLeft") go(step - 1);
    };
    document.addEventListener("keydown", keys);
    return () => document.removeEventListener("keydown", keys);
  });
  if (error) return html`<main class="loading"><p role="alert">${error}</p></main>`;
  if (!data) return html`<main class="loading"><p>${t("table.connecting")}</p></main>`;
  const { deal, table } = data;
  const game = GAMES[deal.record.game];
  const s = deal.steps[step];
  const view = s.public;
  const entry = step > 0 ? view.history[view.history.length - 1] : null;
  const n = table.seats.length;
  const onSetting = (name, value) => { setSetting(name, value); setSettings((x) => ({ ...x, [name]: value })); };
  return html`<div class=${"room replay game-" + deal.record.game + (settings.fourColour ? " four-colour" : "")}>
    <${Header} title=${t(`lobby.games.${deal.record.game}.name`)} subtitle=${t("replay.title", { n: number })}
      settings=${settings} onSetting=${onSetting} />
    <main class="replay-main">
      <${Steps} step=${step} last=${last} go=${go} />
      <p class="replay-move" id="move" aria-live="polite">${entry
        ? html`<b>${seatName(table, entry.seat)}</b> <${game.Entry} entry=${entry} view=${view} table=${table} />`
        : t("replay.the_deal")}</p>
      <section class=${`felt players-${n}`} aria-label=${t("table.table")}>
        ${table.seats.map((_, i) => html`<${Seat} key=${i} table=${table} view=${view} seat=${i} you=${0}
          pos=${placeOf(i, 0, n)} game=${game} now=${0} />`)}
        <div class="centre"><${game.Centre} view=${view} table=${table} you=${null} selected=${new Set()}
          mine=${false} actions=${{ sendMove: () => {} }} /></div>
      </section>
      <section class="replay-hands">
        ${s.hands.map((cards, seat) => html`<div class="panel replay-hand" key=${seat} data-seat=${seat}>
          <h2>${seatName(table, seat)} · ${t(`table.unit_${game.unit}`, { count: cards.length })}</h2>
          ${cards.length ? html`<${game.Drawing} items=${cards} view=${view} />` : null}
        </div>`)}
      </section>
      ${step === last ? html`<section class="panel" id="result"><h2>${t("replay.result")}</h2>
        <${game.Summary} view=${view} table=${table} />
        <p>${table.seats.map((_, i) => `${seatName(table, i)}: ${view.returns[i]}`).join(" · ")}</p></section>` : null}
    </main>
  </div>`;
}

initI18n().then(() => render(html`<${App} />`, document.getElementById("app")));
