// Small pure readings of a Dominoes view that the board components need from the
// caller: which tiles can be played, where a selected tile can go, where the line began.

// The end a legal move goes on: its `end` field where the server sends one, else read
// from the notation ("6-2@L" → "L"); a lead ("6-2") goes on no end and is called "lead".
export function endOf(move) {
  if (move.end) return move.end;
  const m = move.m || "";
  return m.includes("@") ? m.slice(m.indexOf("@") + 1) : "lead";
}

// Keys of the hand tiles that some legal move plays.
export function playableKeys(legal) {
  return new Set((legal || []).filter((m) => m.k && m.k.length).map((m) => m.k[0]));
}

// The legal moves of tile `key`, by end name ("L", "R", "U", "D", or "lead").
// A tile that fits two ends has one move on each.
export function movesByEnd(legal, key) {
  const out = {};
  if (key == null) return out;
  for (const m of legal || []) {
    if (m.k && m.k[0] === key && (m.kind === "play" || m.kind === "lead")) out[endOf(m)] = m;
  }
  return out;
}

// Where the hand's first tile sits in `line.main`: each later play on the left end
// pushes it one place right. The history holds the hand's moves in order.
export function leadIndex(history) {
  let n = null;
  for (const h of history || []) {
    const m = h.move || "";
    const kind = h.kind || (m === "draw" || m === "pass" ? m : m.includes("@") ? "play" : "lead");
    if (kind === "lead") n = 0;
    else if (kind === "play" && n != null && m.endsWith("@L")) n += 1;
  }
  return n;
}
