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

// A key's rank, low to high, in the game's order in force: Dou Di Zhu's keys are ranks
// (3 = 0 … red joker = 14); President's are card ids, placed by their face in the view's
// `order` (a revolution reverses it), the joker above every face.
const PRESIDENT_FACES = "A23456789TJQK";
const PRESIDENT_JOKER = 52;

function keyRank(view, key) {
  if (view.game !== "president") return key;
  if (key === PRESIDENT_JOKER) return 99;
  const at = (view.order || []).indexOf(PRESIDENT_FACES[key >> 2]);
  return at === -1 ? key >> 2 : at;
}

// How a Hint ranks a move, smaller first: [tier, main rank, cards, rank sum]. Plain answers
// come before what wastes a trump: in Dou Di Zhu a play that breaks up a bomb or the two
// jokers, then bombs, then the rocket; in President a quad (it turns the order over), then
// a play spending the joker. Within a tier the lowest main rank (the rank played most
// often, the top of a run) comes first, as in the QQ apps.
function hintStrength(view, move) {
  const ranks = move.k.map((k) => keyRank(view, k));
  const mine = counts(ranks);
  let main = -1;
  let most = 0;
  for (const [rank, n] of mine) if (n > most || (n === most && rank > main)) [main, most] = [rank, n];
  let tier = 0;
  if (view.game === "doudizhu") {
    const held = counts(view.hand.map((c) => c.k));
    const rocket = held.has(13) && held.has(14);
    const breaks = [...mine.keys()].some((k) => held.get(k) === 4 || (rocket && k >= 13));
    if (move.kind === "rocket") tier = 3;
    else if (move.kind === "bomb") tier = 2;
    else if (breaks) tier = 1;
  } else if (view.game === "president") {
    if (move.k.includes(PRESIDENT_JOKER)) tier = 2;
    else if (move.kind === "quad") tier = 1;
  }
  return [tier, main, ranks.length, ranks.reduce((a, b) => a + b, 0)];
}

function byStrength(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

// The moves a Hint cycles through: those that play cards, plain answers first and the
// smallest first (dominoes keep the server's order). The sort is stable, so equal moves
// keep the server's order.
export function hintMoves(view) {
  const moves = view.legal.filter((m) => m.k.length);
  if (view.game !== "doudizhu" && view.game !== "president") return moves;
  return moves
    .map((m) => ({ m, s: hintStrength(view, m) }))
    .sort((a, b) => byStrength(a.s, b.s))
    .map((x) => x.m);
}

// Keys a legal move can use: the hand items that can take part in some play.
export function playableKeys(view) {
  return new Set(view.legal.flatMap((m) => m.k));
}
