// The player's Dominoes hand: tiles standing in a row that wraps on a narrow screen.
// Tapping a tile selects it (tapping it again lets it go); playable tiles are marked.
import { html } from "../../lib/html.js";
import { Tile } from "./Tile.js";

// Props:
//   tiles: the view's `hand` ([{c, t: "6-2", k}])
//   selected: the key (`k`) of the selected tile, or null
//   playable: keys some legal move plays (a Set or an array; moves.js playableKeys);
//     when given, the other tiles are disabled. null: every tile can be tapped
//   onSelect(key | null): called on a tap with the tile's key, or null to deselect
//   labelFor(tile) → the tile's accessible name; label: the hand's accessible name
//   size: short side of a tile in px (default 30); disabled: the whole hand
export function Hand(props) {
  const { tiles = [], selected = null, size = 30 } = props;
  const playable = props.playable == null ? null : new Set(props.playable);
  return html`<div class="dom-hand" role="group" aria-label=${props.label}>
    ${tiles.map((tile) => {
      const can = playable == null || playable.has(tile.k);
      const pressed = selected === tile.k;
      return html`<${Tile}
        key=${tile.c}
        tile=${tile.t}
        vertical=${true}
        size=${size}
        label=${props.labelFor ? props.labelFor(tile) : tile.t}
        pressed=${pressed}
        playable=${playable != null && can}
        disabled=${Boolean(props.disabled) || !can}
        onClick=${() => props.onSelect && props.onSelect(pressed ? null : tile.k)}
      />`;
    })}
  </div>`;
}
