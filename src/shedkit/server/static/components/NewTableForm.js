// The new-table form in words: the game, its rules (presets, each option explained),
// the bots in the empty seats and their strength, the length of the match.
import { html } from "../lib/html.js";
import { has, t } from "../lib/i18n.js";
import { ErrorMessage } from "./ErrorMessage.js";
import { OptionField } from "./OptionField.js";
import { gameName } from "./TableList.js";

const LEVELS = ["easy", "medium", "hard", "expert"];
const SPEEDS = ["relaxed", "normal", "fast"];
// The games whose tables may show the cards still out (记牌器).
export const COUNTER_GAMES = ["doudizhu", "president"];

function Choice({ name, value, checked, label, help, onPick }) {
  const id = `${name}-${value}`;
  return html`<label class=${checked ? "choice checked" : "choice"} for=${id}>
    <input type="radio" name=${name} id=${id} value=${value} checked=${checked}
      onChange=${() => onPick(value)} />
    <span class="choice-text"><span class="choice-label">${label}</span>
      ${help ? html`<span class="choice-help">${help}</span>` : null}</span>
  </label>`;
}

function Presets({ game, value, onPreset }) {
  return html`<fieldset class="presets">
    <legend>${t("lobby.form.preset")}</legend>
    <p class="help">${t("lobby.form.preset_help")}</p>
    <div class="choices">
      ${Object.keys(game.presets).map((p) => {
        const key = `preset.${game.name}.${p}`;
        return html`<${Choice} key=${p} name="preset" value=${p} checked=${p === value}
          label=${has(`${key}.label`) ? t(`${key}.label`) : p}
          help=${has(`${key}.help`) ? t(`${key}.help`) : ""} onPick=${onPreset} />`;
      })}
    </div>
  </fieldset>`;
}

// A model the server offers (shedkit serve --model NAME=DIR) is named by the server's
// operator: its name as given, marked as a model, shown only under the presets it plays.
function botLabel(game, a) {
  if (game.models && game.models[a]) return t("lobby.form.bot_model", { name: a });
  return has(`level.${a}.label`) ? t(`level.${a}.label`) : a;
}

function botHelp(game, a) {
  if (game.models && game.models[a]) return t("lobby.form.bot_model_help");
  return has(`level.${a}.help`) ? t(`level.${a}.help`) : "";
}

function Bots({ game, form, seats, onBots, onBot }) {
  const levels = LEVELS.filter((l) => game.agents.includes(l));
  const models = game.models || {};
  const others = game.agents.filter(
    (a) => !levels.includes(a) && (!models[a] || models[a].presets.includes(form.preset)),
  );
  return html`<fieldset class="bots">
    <legend>${t("lobby.form.bots_heading")}</legend>
    <div class="field">
      <label for="bots">${t("lobby.form.bots")}</label>
      <input id="bots" type="number" inputmode="numeric" min="0" max=${seats - 1} value=${form.bots}
        aria-describedby="bots-help" onInput=${(e) => onBots(e.target.value)} />
      <p class="help" id="bots-help">${t("lobby.form.bots_help", { count: seats - 1 })}</p>
    </div>
    <div class="choices levels" role="radiogroup" aria-label=${t("lobby.form.bot")}>
      ${levels.map((l) => html`<${Choice} key=${l} name="bot" value=${l} checked=${form.bot === l}
        label=${t(`level.${l}.label`)} help=${t(`level.${l}.help`)} onPick=${onBot} />`)}
    </div>
    ${others.length ? html`<details class="other-bots" open=${others.includes(form.bot)}>
      <summary>${t("lobby.form.bot_other")}</summary>
      <div class="choices compact">
        ${others.map((a) => html`<${Choice} key=${a} name="bot" value=${a} checked=${form.bot === a}
          label=${botLabel(game, a)} help=${botHelp(game, a)} onPick=${onBot} />`)}
      </div>
    </details>` : null}
  </fieldset>`;
}

// The table's pace (how long the bots take) and, for the card games, the card counter: an
// aid shown to every seat alike, so it is a rule of the table and not a player's setting.
function Pace({ game, form, onSpeed, onCounter }) {
  return html`<fieldset class="pace">
    <legend>${t("lobby.form.speed")}</legend>
    <p class="help">${t("lobby.form.speed_help")}</p>
    <div class="choices compact">
      ${SPEEDS.map((s) => html`<${Choice} key=${s} name="speed" value=${s} checked=${form.speed === s}
        label=${t(`lobby.form.speed_${s}`)} help=${t(`lobby.form.speed_${s}_help`)} onPick=${onSpeed} />`)}
    </div>
    ${COUNTER_GAMES.includes(game.name) ? html`<div class="option option-bool">
      <label for="card-counter" class="option-label">${t("lobby.form.card_counter")}</label>
      <input type="checkbox" id="card-counter" checked=${form.cardCounter} aria-describedby="card-counter-help"
        onChange=${(e) => onCounter(e.target.checked)} />
      <p class="help" id="card-counter-help">${t("lobby.form.card_counter_help")}</p>
    </div>` : null}
  </fieldset>`;
}

// props: games (from /api/games, in the lobby's order), game (the chosen one), form
// ({preset, options, bots, bot, deals, speed, cardCounter}: the options are those the player
// changed),
// seats (players at the table with these options), busy, error ({code, data} or null),
// on ({game, preset, option, bots, bot, deals, speed, cardCounter, submit}: the form's events).
export function NewTableForm({ games, game, form, seats, busy, error, on }) {
  const preset = game.presets[form.preset] || {};
  const hasTarget = game.options.some((o) => o.name === "target");
  const submit = (e) => {
    e.preventDefault();
    on.submit();
  };
  return html`<section class="panel new-table" id="new-table" aria-labelledby="new-heading">
    <h2 id="new-heading">${t("lobby.form.heading")}</h2>
    <form id="create" onSubmit=${submit} novalidate>
      <div class="field">
        <label for="game">${t("lobby.form.game")}</label>
        <select id="game" value=${game.name} onChange=${(e) => on.game(e.target.value)}>
          ${games.map((g) => html`<option value=${g.name}>${gameName(g.name)}</option>`)}
        </select>
      </div>
      <${Presets} game=${game} value=${form.preset} onPreset=${on.preset} />
      <fieldset class="options">
        <legend>${t("lobby.form.options")}</legend>
        <p class="help">${t("lobby.form.options_help")}</p>
        <div class="option-grid">
          ${game.options.map((o) => {
            const changed = o.name in form.options;
            const value = changed ? form.options[o.name] : preset[o.name];
            return html`<${OptionField} key=${`${game.name}.${o.name}`} game=${game.name} option=${o}
              value=${value} changed=${changed} onChange=${on.option} />`;
          })}
        </div>
      </fieldset>
      <${Bots} game=${game} form=${form} seats=${seats} onBots=${on.bots} onBot=${on.bot} />
      <fieldset class="match">
        <legend>${t("lobby.form.match")}</legend>
        <div class="field">
          <label for="deals">${t("lobby.form.deals")}</label>
          <input id="deals" type="number" inputmode="numeric" min="1" max="1000" value=${form.deals}
            placeholder=${t("lobby.form.deals_placeholder")} aria-describedby="deals-help"
            onInput=${(e) => on.deals(e.target.value)} />
          <p class="help" id="deals-help">${hasTarget ? t("lobby.form.deals_help_target") : t("lobby.form.deals_help")}</p>
        </div>
      </fieldset>
      <${Pace} game=${game} form=${form} onSpeed=${on.speed} onCounter=${on.cardCounter} />
      <div class="submit-row">
        <button type="submit" id="create-btn" class="button primary big" disabled=${busy}>
          ${busy ? t("lobby.form.creating") : t("lobby.form.create")}</button>
        <${ErrorMessage} id="create-error" error=${error} game=${game.name} />
      </div>
    </form>
  </section>`;
}
