// The How-to-play page of one game (/howto/<game>): the rules in the page's language and
// the gallery of its combinations. This module fetches; the components draw.
import { html, render, useEffect, useState } from "../lib/html.js";
import { initI18n, t, useLanguage } from "../lib/i18n.js";
import { SiteHeader } from "../components/SiteHeader.js";
import { ComboGallery } from "../components/ComboGallery.js";
import { Rules } from "../components/Rules.js";
import { ErrorMessage } from "../components/ErrorMessage.js";
import { gameName } from "../components/TableList.js";

const GAMES = ["doudizhu", "president", "dominoes", "tiengow"];

async function fetchHowto(game, lang) {
  let response;
  try {
    response = await fetch(`/api/howto/${encodeURIComponent(game)}?lang=${lang}`);
  } catch (e) {
    throw { code: "network" };
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw (data && data.error) || { code: "http", data: { status: response.status } };
  return data;
}

function GameTabs({ game }) {
  return html`<nav class="game-tabs">
    <ul>${GAMES.map((g) => html`<li><a href=${`/howto/${g}`} aria-current=${g === game ? "page" : null}>
      ${gameName(g)}</a></li>`)}</ul>
  </nav>`;
}

function Howto({ game }) {
  const lang = useLanguage();
  const [page, setPage] = useState(null);
  const [error, setError] = useState(null);

  useEffect(() => {
    let live = true;
    setError(null);
    fetchHowto(game, lang).then(
      (data) => live && setPage(data),
      (e) => live && setError(e),
    );
    return () => { live = false; };
  }, [game, lang]);

  const title = t("lobby.howto.page_title", { game: gameName(game) });
  useEffect(() => { document.title = `${title} · shedkit`; }, [title]);
  const ready = page && page.game === game && page.lang === lang;

  return html`
    <${SiteHeader} lang=${lang} />
    <main class="howto-main">
      <div class="howto-head">
        <a href="/" class="back">${t("lobby.howto.back")}</a>
        <h1>${title}</h1>
        <a class="button primary" href=${`/?game=${game}`}>${t("lobby.howto.play", { game: gameName(game) })}</a>
      </div>
      <${GameTabs} game=${game} />
      ${error ? html`<${ErrorMessage} error=${error} />` : null}
      ${!page && !error ? html`<p class="help">${t("lobby.howto.loading")}</p>` : null}
      ${page ? html`<div class=${ready ? "howto-body" : "howto-body stale"} data-lang=${page.lang}>
        <${ComboGallery} game=${game} combos=${page.combos} />
        <section class="rules-section" aria-labelledby="rules-heading">
          <h2 id="rules-heading">${t("lobby.howto.rules")}</h2>
          <${Rules} markdown=${page.markdown} />
        </section>
      </div>` : null}
    </main>`;
}

async function start() {
  await initI18n();
  const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  render(html`<${Howto} game=${game} />`, document.getElementById("app"));
}

start();
