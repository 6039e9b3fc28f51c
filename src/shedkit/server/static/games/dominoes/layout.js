// Where each tile of a Dominoes line goes, as a pure function of the line and the width.
// Kept apart from the rendering so it can be tested on its own (and from the page).
//
// The line grows both ways from a centre tile (the spinner, else the first tile led):
// the left arm runs left and climbs a row at each turn, the right arm runs right and
// drops a row, each row reversing direction (a snake). A turn is made as players make it
// at the table's edge: one tile, the corner, stood across the turn with a half in each
// row's reach; the line touches it on one half and goes on from the other, so every tile
// touches the one before it, matching half to matching half. A spinner's up and down arms
// run straight up and down from it in a column kept free for them. Doubles lie crosswise.
//
// Geometry is first worked out in units of a tile's short side, then scaled to pixels.

const GAP = 0.06; // between touching tiles
const PITCH = 2 + GAP; // between row centres: a corner's two halves, one at each row
const BAND = 2; // width of the spinner's up/down column

const isDouble = (t) => t[0] === t[1];

// One arm that snakes across rows. `region(row)` gives the x range a row may use; `dir`
// is the way the first row runs (+1 right, -1 left), `step` the way the rows go (+1 down).
//
// A tile that no longer fits its row is the corner, stood on end (upright). Where the row
// has a unit of room left, beside the last tile with its inner half level with the row,
// and the next row starts under (over) its outer half. Where it has none, under (over) the
// last tile's outer half, its own outer half then level with the next row, which starts
// beside it. A crosswise double keeps a unit of room after it, so that a corner always
// finds its place beside it or under the tile before.
function snake(start, dir, step, region) {
  // x: the open end, where the next tile's inner edge goes; hang: the left edge of a corner
  // the next tile starts under (over); flat: the last tile lies lengthwise in this row.
  let s = { x: start, row: 0, dir, hang: null, flat: false };
  const out = [];

  const turn = (x0, y, inner, outer, hang) => {
    const halves = step > 0 ? [inner, outer] : [outer, inner];
    const rect = { x: x0, y, w: 1, h: 2, vertical: true, halves, corner: true };
    const ndir = -s.dir;
    s = { x: ndir > 0 ? x0 + 1 + GAP : x0 - GAP, row: s.row + step, dir: ndir, hang, flat: false };
    return rect;
  };

  const place = (inner, outer, dbl) => {
    const { x, row, dir: d } = s;
    const yc = row * PITCH;
    if (s.hang !== null) {
      // The row's first tile, lengthwise, its inner half under (over) the corner's outer half.
      const x0 = d > 0 ? s.hang : s.hang - 1;
      s = { ...s, x: d > 0 ? x0 + 2 + GAP : x0 - GAP, hang: null, flat: true };
      return { x: x0, y: yc - 0.5, w: 2, h: 1, vertical: false, halves: d > 0 ? [inner, outer] : [outer, inner] };
    }
    const [lo, hi] = region(row);
    const room = d > 0 ? hi - x : x - lo; // units left in the row
    const len = dbl ? 1 : 2;
    // A double keeps room for the corner after it.
    if (room >= (dbl ? len + GAP + 1 : len) - 1e-9) {
      const x0 = d > 0 ? x : x - len;
      s = { ...s, x: d > 0 ? x0 + len + GAP : x0 - GAP, flat: !dbl };
      if (dbl) return { x: x0, y: yc - 1, w: 1, h: 2, vertical: true, halves: [inner, outer] };
      return { x: x0, y: yc - 0.5, w: 2, h: 1, vertical: false, halves: d > 0 ? [inner, outer] : [outer, inner] };
    }
    if (room >= 1 - 1e-9 || !s.flat) {
      // Beside the last tile: inner half level with this row, the next row under its outer half.
      const x0 = d > 0 ? x : x - 1;
      return turn(x0, step > 0 ? yc - 0.5 : yc - 1.5, inner, outer, x0);
    }
    // Under (over) the last tile's outer half: the next row goes on beside its outer half.
    const x0 = d > 0 ? x - GAP - 1 : x + GAP;
    return turn(x0, step > 0 ? yc + 0.5 + GAP : yc - 2.5 - GAP, inner, outer, null);
  };

  return {
    add(inner, outer) {
      out.push(place(inner, outer, inner === outer));
    },
    // The spot the next (non-double) tile would take: the arm's open end.
    slot() {
      const saved = s;
      const rect = place(-1, -1, false);
      s = saved;
      return rect;
    },
    tiles: out,
  };
}

// A spinner's arm, straight up (step -1) or down (step +1) from `edge`.
function column(cx, edge, step) {
  let y = edge;
  const out = [];
  const place = (inner, outer, dbl) => {
    const len = dbl ? 1 : 2;
    const y0 = step > 0 ? y + GAP : y - GAP - len;
    const rect = dbl
      ? { x: cx - 1, y: y0, w: 2, h: 1, vertical: false, halves: [inner, outer] }
      : { x: cx - 0.5, y: y0, w: 1, h: 2, vertical: true };
    if (!dbl) rect.halves = step > 0 ? [inner, outer] : [outer, inner];
    return rect;
  };
  return {
    add(inner, outer) {
      const rect = place(inner, outer, inner === outer);
      y = step > 0 ? rect.y + rect.h : rect.y;
      out.push(rect);
    },
    slot: () => place(-1, -1, false),
    tiles: out,
  };
}

// The whole line in units for a row `cols` units wide.
export function layoutUnits(line, cols, centre) {
  const main = line.main || [];
  const tiles = [];
  const ends = {};
  if (!main.length) {
    ends.lead = { x: cols / 2 - 1, y: -0.5, w: 2, h: 1, vertical: false };
    return { tiles, ends };
  }
  const spin = line.spinner != null && line.spinner >= 0 ? line.spinner : -1;
  const c = spin >= 0 ? spin : Math.max(0, Math.min(main.length - 1, centre ?? (main.length - 1) >> 1));
  const cx = cols / 2;
  const first = main[c];
  const firstRect = isDouble(first)
    ? { x: cx - 0.5, y: -1, w: 1, h: 2, vertical: true }
    : { x: cx - 1, y: -0.5, w: 2, h: 1, vertical: false };
  tiles.push({ ...firstRect, halves: [first[0], first[1]], id: `m${c}`, spinner: c === spin });

  // With a spinner the column above and below it stays free for its cross arms.
  const bandLo = spin >= 0 ? cx - BAND / 2 - GAP : cols;
  const bandHi = spin >= 0 ? cx + BAND / 2 + GAP : 0;
  const left = snake(firstRect.x - GAP, -1, -1, (row) => [0, row === 0 ? cols : bandLo]);
  const right = snake(firstRect.x + firstRect.w + GAP, 1, 1, (row) => [row === 0 ? 0 : bandHi, cols]);
  for (let i = c - 1; i >= 0; i--) left.add(main[i][1], main[i][0]);
  for (let i = c + 1; i < main.length; i++) right.add(main[i][0], main[i][1]);
  left.tiles.forEach((t, n) => tiles.push({ ...t, id: `m${c - 1 - n}` }));
  right.tiles.forEach((t, n) => tiles.push({ ...t, id: `m${c + 1 + n}` }));
  ends.L = left.slot();
  ends.R = right.slot();

  if (spin >= 0) {
    const up = column(cx, firstRect.y, -1);
    const down = column(cx, firstRect.y + firstRect.h, 1);
    (line.up || []).forEach((t) => up.add(t[0], t[1]));
    (line.down || []).forEach((t) => down.add(t[0], t[1]));
    up.tiles.forEach((t, n) => tiles.push({ ...t, id: `u${n}` }));
    down.tiles.forEach((t, n) => tiles.push({ ...t, id: `d${n}` }));
    ends.U = up.slot();
    ends.D = down.slot();
  }
  return { tiles, ends };
}

const DEFAULTS = { maxUnit: 30, minUnit: 7, minCols: 12 };

// The line scaled to `width` px: the largest tile size (short side, px) at which
// the line fits `maxHeight` (default: a share of the width), never below minUnit.
export function layoutLine(line, width, options = {}) {
  const opts = { ...DEFAULTS, ...options };
  const maxHeight = opts.maxHeight ?? Math.max(320, width * 0.6);
  let best = null;
  const top = Math.min(opts.maxUnit, width / opts.minCols);
  for (let unit = Math.floor(top * 2) / 2; unit >= opts.minUnit; unit -= 0.5) {
    best = scaled(layoutUnits(line, width / unit, opts.centre), unit, width);
    if (best.height <= maxHeight) return best;
  }
  return best ?? scaled(layoutUnits(line, width / opts.minUnit, opts.centre), opts.minUnit, width);
}

function scaled({ tiles, ends }, unit, width) {
  const rects = [...tiles, ...Object.values(ends)];
  const minY = Math.min(...rects.map((r) => r.y));
  const maxY = Math.max(...rects.map((r) => r.y + r.h));
  const px = (r) => ({ ...r, x: r.x * unit, y: (r.y - minY) * unit, w: r.w * unit, h: r.h * unit });
  const outEnds = {};
  for (const [name, r] of Object.entries(ends)) outEnds[name] = px(r);
  return { unit, width, height: Math.ceil((maxY - minY) * unit), tiles: tiles.map(px), ends: outEnds };
}
