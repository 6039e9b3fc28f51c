// Development page for the Dominoes board: mounts Line and Hand on the fixture views
// in fixtures/ so they can be looked at, and driven by the browser tests. Every
// visible string comes from the page's placeholder label table, as the app's would.
import { html, render, useState } from "../../lib/html.js";
import { Hand } from "./Hand.js";
import { Line } from "./Line.js";
import { Tile } from "./Tile.js";
import { leadIndex, movesByEnd, playableKeys } from "./moves.js";

const LABELS = JSON.parse(document.getElementById("labels").textContent);
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => String(values[k]));

// What the tests read back: every end tapped, in order.
window.demoEvents = [];

function Fixture({ fixture }) {
  const view = fixture.view;
  const [selected, setSelected] = useState(fixture.selected);
  const [event, setEvent] = useState("");
  const moves = movesByEnd(view.legal, selected);
  const targets = {};
  for (const end of Object.keys(moves)) targets[end] = LABELS.ends[end];
  const onEnd = (end) => {
    window.demoEvents.push({ fixture: fixture.name, end, move: moves[end].m });
    setEvent(fill(LABELS.played, { m: moves[end].m }));
  };
  const ends = Object.entries(view.ends)
    .map(([k, v]) => `${k}:${v}`)
    .join(" ");
  return html`<section class="fixture" data-fixture=${fixture.name}>
    <h2>${fixture.name}</h2>
    <div class="facts">${fill(LABELS.facts, { ends, count: view.count, boneyard: view.boneyard })}</div>
    <div class="board">
      <${Line}
        line=${view.line}
        ends=${view.ends}
        targets=${targets}
        onEnd=${onEnd}
        lead=${leadIndex(view.history)}
        label=${LABELS.line}
        tileLabel=${(t) => fill(LABELS.tile, { t })}
      />
    </div>
    <${Hand}
      tiles=${view.hand}
      selected=${selected}
      playable=${playableKeys(view.legal)}
      onSelect=${setSelected}
      label=${LABELS.hand}
      labelFor=${(tile) => fill(LABELS.tile, { t: tile.t })}
    />
    <div class="event" aria-live="polite">${event}</div>
  </section>`;
}

// Every face from 0 to 12, both ways up, to check the pip layouts by eye.
function Gallery() {
  const faces = Array.from({ length: 13 }, (_, n) => n);
  return html`<section class="gallery">
    <div>${faces.map((n) => html`<${Tile} key=${n} a=${n} b=${12 - n} size=${26} />`)}</div>
    <div>${faces.map((n) => html`<${Tile} key=${n} a=${n} b=${n} vertical=${true} size=${26} />`)}</div>
  </section>`;
}

async function main() {
  const base = new URL("./fixtures/", import.meta.url);
  const names = await (await fetch(new URL("index.json", base))).json();
  const only = new URLSearchParams(location.search).get("fixture");
  const chosen = only ? names.filter((n) => n === only) : names;
  const fixtures = await Promise.all(
    chosen.map(async (n) => (await fetch(new URL(`${n}.json`, base))).json()),
  );
  const root = document.getElementById("demo");
  const shown = fixtures.map((f) => html`<${Fixture} key=${f.name} fixture=${f} />`);
  render(html`${shown}${only ? null : html`<${Gallery} />`}`, root);
  root.dataset.ready = "true";
}

main();
