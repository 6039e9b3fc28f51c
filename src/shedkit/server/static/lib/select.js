// Selections of cards (or tiles) against the legal moves the server sent. No rule lives here:
// a selection is matched to the moves by their keys ("k"), as multisets.

function counts(keys) {
  const m = new Map();
  for (const k of keys) m.set(k, (m.get(k) || 0) + 1);
  return m;
}

function sameKeys(a, b) {
  if (a.length !== b.length) return false;
  const ca = counts(a);
  for (const [k, n] of counts(b)) if (ca.get(k) !== n) return false;
  return true;
}

// The keys of the selected hand items, in hand order.
export function selectedKeys(hand, selected) {
  return hand.filter((c) => selected.has(c.c)).map((c) => c.k);
}

// Legal moves made of exactly the selected items (several when a selection reads two ways).
export function candidates(view, selected) {
  const keys = selectedKeys(view.hand, selected);
  if (!keys.length) return [];
  return view.legal.filter((m) => m.k.length && sameKeys(m.k, keys));
}

// The selected items that break the selection: those left over by the legal move that
// shares most keys with it (all of them when no move shares any).
export function wrongItems(view, selected) {
  const chosen = view.hand.filter((c) => selected.has(c.c));
  let best = null;
  let bestShared = -1;
  for (const m of view.legal) {
    if (!m.k.length) continue;
    const left = counts(m.k);
    let shared = 0;
    for (const c of chosen) {
      if (left.get(c.k) > 0) {
        left.set(c.k, left.get(c.k) - 1);
        shared += 1;
      }
    }
    if (shared > bestShared) [best, bestShared] = [m, shared];
  }
  const left = counts(best ? best.k : []);
  const wrong = new Set();
  for (const c of chosen) {
    if (left.get(c.k) > 0) left.set(c.k, left.get(c.k) - 1);
    else wrong.add(c.c);
  }
  return wrong;
}

// The hand items a legal move names: for each key the first item not yet taken.
export function itemsOf(view, move) {
  const chosen = new Set();
  for (const key of move.k) {
    const item = view.hand.find((c) => c.k === key && !chosen.has(c.c));
    if (item) chosen.add(item.c);
  }
  return chosen;
}

// The moves a Hint cycles through: those that play cards, in the server's order.
export function hintMoves(view) {
  return view.legal.filter((m) => m.k.length);
}

// Keys a legal move can use: the hand items that can take part in some play.
export function playableKeys(view) {
  return new Set(view.legal.flatMap((m) => m.k));
}
