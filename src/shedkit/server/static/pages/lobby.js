// The lobby page: the games, the open tables and the new-table form. This module holds
// the page's state and talks to the server; the components only draw what they are given.
import { html, render, useCallback, useEffect, useState } from "../lib/html.js";
import { initI18n, t, useLanguage } from "../lib/i18n.js";
import { api, getName, joinSeat, setName as keepName } from "../lib/api.js";
import { SiteHeader } from "../components/SiteHeader.js";
import { NameField } from "../components/NameField.js";
import { GameTile } from "../components/GameTile.js";
import { TableList } from "../components/TableList.js";
import { COUNTER_GAMES, NewTableForm } from "../components/NewTableForm.js";

// The flagship game first; the API lists the games alphabetically.
const ORDER = ["doudizhu", "president", "dominoes", "tiengow"];
const REFRESH_MS = 4000;

// --- the server ------------------------------------------------------------------------

// --- the form's state ------------------------------------------------------------------

function defaultBot(game) {
  return game.agents.includes("medium") ? "medium" : game.default_agent;
}

function seatsOf(game, form) {
  const opts = { ...game.presets[form.preset], ...form.options };
  return opts.players || game.players || 3;
}

// A fresh form for `game`: bots in every seat but the creator's, a short match unless the
// game plays to a target score.
function freshForm(game, preset = "standard") {
  const form = {
    preset: preset in game.presets ? preset : Object.keys(game.presets)[0],
    options: {},
    bot: defaultBot(game),
    deals: game.options.some((o) => o.name === "target") ? "" : "5",
    speed: "normal",
    cardCounter: false,
    botsTouched: false,
  };
  form.bots = String(seatsOf(game, form) - 1);
  return form;
}

// Bots follow the table's size until the player sets their number.
function withSeats(game, form) {
  const max = seatsOf(game, form) - 1;
  const bots = parseInt(form.bots, 10);
  if (!form.botsTouched || bots > max) return { ...form, bots: String(Math.max(0, max)) };
  return form;
}

// --- the page ---------------------------------------------------------------------------

function Lobby({ games }) {
  const lang = useLanguage();
  const params = new URLSearchParams(location.search);
  const first = games.find((g) => g.name === params.get("game")) || games[0];
  const [gameName, setGameName] = useState(first.name);
  const game = games.find((g) => g.name === gameName);
  const [form, setForm] = useState(() => freshForm(first));
  const [name, setName] = useState(getName());
  const [nameMissing, setNameMissing] = useState(false);
  const [tables, setTables] = useState(null);
  const [tablesError, setTablesError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [createError, setCreateError] = useState(null);

  useEffect(() => {
    document.title = `${t("lobby.page_title")} · shedkit`;
  }, [lang]);

  const loadTables = useCallback(async () => {
    try {
      const all = await api("GET", "/api/tables");
      setTables(all.filter((tb) => tb.status !== "finished"));
      setTablesError(null);
    } catch (e) {
      setTablesError(e);
    }
  }, []);

  useEffect(() => {
    loadTables();
    const timer = setInterval(() => document.hidden || loadTables(), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  function typedName() {
    const clean = name.trim();
    if (!clean) {
      setNameMissing(true);
      document.getElementById("name").focus();
      return null;
    }
    keepName(clean);
    return clean;
  }

  function pickGame(next) {
    const g = games.find((x) => x.name === next);
    if (!g) return;
    setGameName(next);
    setForm(freshForm(g));
    setCreateError(null);
  }

  const on = {
    game: pickGame,
    preset: (preset) => setForm((f) => withSeats(game, { ...f, preset, options: {} })),
    option: (option, value) => setForm((f) => {
      const options = { ...f.options, [option]: value };
      if (JSON.stringify(value) === JSON.stringify(game.presets[f.preset][option])) delete options[option];
      return withSeats(game, { ...f, options });
    }),
    bots: (bots) => setForm((f) => ({ ...f, bots, botsTouched: true })),
    bot: (bot) => setForm((f) => ({ ...f, bot })),
    deals: (deals) => setForm((f) => ({ ...f, deals })),
    speed: (speed) => setForm((f) => ({ ...f, speed })),
    cardCounter: (cardCounter) => setForm((f) => ({ ...f, cardCounter })),
    submit: async () => {
      setCreateError(null);
      const who = typedName();
      if (!who) return;
      const body = {
        game: game.name,
        preset: form.preset,
        options: form.options,
        bots: parseInt(form.bots, 10) || 0,
        bot: form.bot,
        deals: parseInt(form.deals, 10) || null,
        speed: form.speed,
        card_counter: COUNTER_GAMES.includes(game.name) && form.cardCounter,
      };
      // "/?seed=N" fixes the table's seed: the same deals again, for a rematch or a test.
      const seed = params.get("seed");
      if (seed !== null && /^\d+$/.test(seed)) body.seed = parseInt(seed, 10);
      setBusy(true);
      try {
        const table = await api("POST", "/api/tables", body);
        await joinSeat(table.id, 0, who);
        location.href = table.invite;
      } catch (e) {
        setCreateError(e);
        setBusy(false);
      }
    },
  };

  async function sit(tableId, seat) {
    const who = typedName();
    if (!who) return;
    try {
      await joinSeat(tableId, seat, who);
      location.href = `/t/${tableId}`;
    } catch (e) {
      setTablesError(e);
      setTimeout(loadTables, REFRESH_MS);
    }
  }

  function newTable(next) {
    if (next !== gameName) pickGame(next);
    const section = document.getElementById("new-table");
    section.scrollIntoView({ behavior: "smooth", block: "start" });
    document.getElementById("game").focus({ preventScroll: true });
  }

  return html`
    <${SiteHeader} lang=${lang}>
      <${NameField} value=${name} missing=${nameMissing}
        onInput=${(v) => { setName(v); keepName(v.trim()); if (v.trim()) setNameMissing(false); }} />
    <//>
    <main class="lobby-main">
      <section class="games" aria-labelledby="games-heading">
        <h2 id="games-heading">${t("lobby.games.heading")}</h2>
        <div class="game-tiles">
          ${games.map((g) => html`<${GameTile} key=${g.name} game=${g.name} selected=${g.name === gameName} onNewTable=${newTable} />`)}
        </div>
      </section>
      <div class="lobby-columns">
        <${TableList} tables=${tables} error=${tablesError} onJoin=${sit} onRefresh=${loadTables} />
        <${NewTableForm} games=${games} game=${game} form=${form} seats=${seatsOf(game, form)}
          busy=${busy} error=${createError} on=${on} />
      </div>
    </main>`;
}

async function start() {
  await initI18n();
  const games = await api("GET", "/api/games");
  games.sort((a, b) => rank(a.name) - rank(b.name));
  render(html`<${Lobby} games=${games} />`, document.getElementById("app"));
}

function rank(name) {
  const i = ORDER.indexOf(name);
  return i < 0 ? ORDER.length : i;
}

start();
