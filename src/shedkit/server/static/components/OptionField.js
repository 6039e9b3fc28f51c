// One rules option of the new-table form, in words: its label, the control its kind calls
// for (a switch, a list of choices, a number) and a line saying what it does.
import { html } from "../lib/html.js";
import { has, t } from "../lib/i18n.js";

// The option's words from the catalogue; an option the catalogue does not know yet still
// gets a readable label instead of its identifier.
export function optionLabel(game, name) {
  const key = `option.${game}.${name}.label`;
  return has(key) ? t(key) : name.replace(/_/g, " ");
}

function choiceLabel(game, name, value) {
  const key = `option.${game}.${name}.choice.${String(value)}`;
  return has(key) ? t(key) : String(value);
}

function Control({ game, option, value, id, help, onChange }) {
  if (option.kind === "bool") {
    return html`<input type="checkbox" id=${id} checked=${!!value} aria-describedby=${help}
      data-option=${option.name} onChange=${(e) => onChange(option.name, e.target.checked)} />`;
  }
  if (option.kind === "choice") {
    // Choices are kept as JSON text so null, true and numbers survive the <select>.
    return html`<select id=${id} aria-describedby=${help} data-option=${option.name}
      value=${JSON.stringify(value)} onChange=${(e) => onChange(option.name, JSON.parse(e.target.value))}>
      ${option.choices.map((c) => html`<option value=${JSON.stringify(c)}>${choiceLabel(game, option.name, c)}</option>`)}
    </select>`;
  }
  if (option.kind === "int") {
    return html`<input type="number" inputmode="numeric" id=${id} aria-describedby=${help}
      data-option=${option.name} value=${value === null || value === undefined ? "" : String(value)}
      placeholder=${option.nullable ? t("lobby.form.automatic") : null}
      onInput=${(e) => onChange(option.name, e.target.value === "" ? null : parseInt(e.target.value, 10))} />`;
  }
  return html`<input id=${id} aria-describedby=${help} data-option=${option.name} value=${value ?? ""}
    onInput=${(e) => onChange(option.name, e.target.value)} />`;
}

// props: game (its name), option ({name, kind, choices?, nullable?} from /api/games),
// value (in force: the preset's or the player's), changed (differs from the preset),
// onChange(name, value).
export function OptionField({ game, option, value, changed, onChange }) {
  const id = `opt-${option.name}`;
  const help = `${id}-help`;
  const key = `option.${game}.${option.name}.help`;
  const cls = ["option", `option-${option.kind}`, changed ? "changed" : ""].join(" ");
  return html`<div class=${cls}>
    <label for=${id} class="option-label">${optionLabel(game, option.name)}</label>
    <${Control} game=${game} option=${option} value=${value} id=${id} help=${help} onChange=${onChange} />
    <p class="help" id=${help}>${has(key) ? t(key) : ""}</p>
  </div>`;
}
