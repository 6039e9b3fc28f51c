// Injected into the table page by test_layout.py: checks the layout after every change and
// plays the seated viewer's turns through the page's own buttons.
(() => {
  const found = [];
  const seen = new Set();
  // Text drawn under 11 px, by element: {what, px, move} (the first time it was seen).
  const small = new Map();
  let checks = 0;
  let moves = 0;
  // Selectors a test asked to be told about: how many checks saw each on the page.
  const watched = new Map();
  // Whether a seat's role badge is checked against the other parts of the seats.
  let badges = false;
  let pauseAt = Infinity;
  let pauseAtPlay = false;
  let paused = false;
  let acted = null;
  let scheduled = false;

  // A short selector that names an element: tag, id, classes, and its seat if it has one.
  const name = (el) => {
    const seat = el.closest(".seat");
    const cls = typeof el.className === "string" ? el.className : el.className.baseVal;
    const own = `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${cls ? "." + cls.trim().split(/\s+/).join(".") : ""}`;
    return seat ? `.seat[data-seat="${seat.dataset.seat}"] ${own}` : own;
  };
  const box = (el) => el.getBoundingClientRect();
  const rect = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
  const hits = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const shown = (el) => {
    const r = box(el);
    if (r.width < 1 || r.height < 1) return false;
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.display !== "none" && Number(style.opacity) > 0.05;
  };
  const move = () => {
    const s = window.shedkit && window.shedkit.state;
    return s && s.view ? s.view.history.length : -1;
  };
  const note = (problem, what, against) => {
    const key = `${problem}|${what}|${against}`;
    if (seen.has(key) || found.length > 200) return;
    seen.add(key);
    found.push({ problem, what, against, move: move() });
  };

  // What the table draws: every element in the centre, in front of a seat, or a banner.
  // The parts of an SVG drawing are its svg; boxes that only hold others are skipped.
  const drawn = () => [...document.querySelectorAll(".felt .centre *, .felt .seat-play *, .felt .banner")]
    .filter((el) => !el.ownerSVGElement && !el.matches(".fit, .fit-inner, .centre-fit, .centre-fill, .dom-centre, .dom-line, .dom-band, .fly"))
    .filter(shown);
  const reserved = () => [...document.querySelectorAll(
    ".felt .seat .avatar-box, .felt .seat .seat-name, .felt .seat .count, .felt .seat .role, .felt .seat .seat-clock, .felt .seat .seat-status, .felt .seat .seat-alert, .felt .seat .seat-score",
  )].filter(shown);

  // The felt's inside (its padding box, with the border's rounded corners): a function that
  // says where a box leaves it ("its side", "top left"...), or null. Each corner of the box
  // is taken a little inside, as a badge's own corners are round.
  function feltEdge(felt) {
    const f = box(felt);
    const st = getComputedStyle(felt);
    const bl = parseFloat(st.borderLeftWidth), bt = parseFloat(st.borderTopWidth);
    const br = parseFloat(st.borderRightWidth), bb = parseFloat(st.borderBottomWidth);
    const left = f.left + bl, right = f.right - br, top = f.top + bt, bottom = f.bottom - bb;
    const radius = (prop, bx, by) => {
      const [rx, ry = rx] = st[prop].split(" ").map(parseFloat);
      return [Math.max(0, rx - bx), Math.max(0, ry - by)];
    };
    const corners = [
      ["top left", left, top, 1, 1, radius("borderTopLeftRadius", bl, bt)],
      ["top right", right, top, -1, 1, radius("borderTopRightRadius", br, bt)],
      ["bottom left", left, bottom, 1, -1, radius("borderBottomLeftRadius", bl, bb)],
      ["bottom right", right, bottom, -1, -1, radius("borderBottomRightRadius", br, bb)],
    ];
    return (r) => {
      const inset = Math.min(3, r.width / 4, r.height / 4);
      const points = [[r.left + inset, r.top + inset], [r.right - inset, r.top + inset],
        [r.left + inset, r.bottom - inset], [r.right - inset, r.bottom - inset]];
      for (const [x, y] of points) {
        if (x < left - 1 || x > right + 1 || y < top - 1 || y > bottom + 1) return "its side";
        for (const [where, cx, cy, sx, sy, [rx, ry]] of corners) {
          if (!rx || !ry) continue;
          // The corner's ellipse has its centre (ox, oy); a point in its square must lie in it.
          const ox = cx + sx * rx, oy = cy + sy * ry;
          if ((x - ox) * sx >= 0 || (y - oy) * sy >= 0) continue;
          if (((x - ox) / rx) ** 2 + ((y - oy) / ry) ** 2 > 1.02) return where;
        }
      }
      return null;
    };
  }

  function check() {
    scheduled = false;
    const felt = document.querySelector(".room .felt");
    if (!felt || document.querySelector(".overlay")) return;
    checks += 1;
    for (const [sel, n] of watched) if (document.querySelector(sel)) watched.set(sel, n + 1);
    const feltBox = box(felt);
    const parts = reserved().map((el) => [el, box(el)]);
    const hand = document.querySelector(".me-area");
    const handBox = hand && box(hand);
    for (const el of drawn()) {
      const r = box(el);
      for (const [part, p] of parts) if (hits(r, p)) note("covers", name(el), name(part));
      if (handBox && hits(r, handBox)) note("covers", name(el), "the hand");
      if (!inside(r, feltBox)) note("cut by the felt", name(el), `.felt ${rect(feltBox)} (${rect(r)})`);
    }
    // A seat's role badge (a role, a title, a team) stands out of its avatar's box: whole
    // inside the felt's rounded edge, and, where a test asks (badges()), over no other part
    // of a seat (its own avatar excepted, which it sits on).
    const edge = feltEdge(felt);
    for (const [el, r] of parts) {
      if (!el.matches(".role")) continue;
      const corner = edge(r);
      if (corner) note("cut by the felt", name(el), `.felt's edge at ${corner} (${rect(r)})`);
      if (!badges) continue;
      const own = el.closest(".avatar-box");
      for (const [part, p] of parts) if (part !== el && part !== own && hits(r, p)) note("covers", name(el), name(part));
    }
    // The hand and each of its items on the screen, at the top of the page, no scrolling.
    const y0 = window.scrollY;
    for (const el of document.querySelectorAll(".me-area .hand, .me-area .hand-slot")) {
      const r = box(el);
      if (r.left < -1 || r.right > innerWidth + 1 || r.top + y0 < -1 || r.bottom + y0 > innerHeight + 1) {
        note("off the screen", name(el), `${innerWidth}x${innerHeight}`);
      }
    }
    if (document.documentElement.scrollWidth > innerWidth + 1) note("scrolls sideways", "page", `${document.documentElement.scrollWidth}px`);
    // What a player needs during a trick is on the first screen: the buttons (the tax's
    // too), the aids.
    for (const el of document.querySelectorAll(".me-area .controls button, .me-area .auction button, .me-area .tax-dialog button, .felt .aids button")) {
      if (!shown(el)) continue;
      const r = box(el);
      if (r.left < -1 || r.right > innerWidth + 1 || r.top + y0 < -1 || r.bottom + y0 > innerHeight + 1) {
        note("off the screen", name(el), `${innerWidth}x${innerHeight}`);
      }
    }
    for (const [el, px] of smallText()) {
      const key = name(el);
      if (!small.has(key)) small.set(key, { what: key, px, move: move() });
    }
    play();
  }

  // The size text is drawn at: its font size, times the scale Fit gives what it draws, or,
  // in a card's face, the face's width over its 60 units.
  const scaleOf = (el) => {
    let scale = 1;
    for (let p = el; p && p !== document.body; p = p.parentElement) {
      const m = /scale\(([\d.]+)/.exec(p.style && p.style.transform || "");
      if (m) scale *= Number(m[1]);
    }
    return scale;
  };
  function smallText() {
    const small = [];
    const room = document.querySelector(".room");
    if (!room) return small;
    const walker = document.createTreeWalker(room, NodeFilter.SHOW_TEXT);
    const seenEls = new Set();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || seenEls.has(el) || !node.textContent.trim()) continue;
      seenEls.add(el);
      if (el.closest(".visually-hidden, [aria-hidden='true'] .visually-hidden, .overlay, .side:not(.sheet-open), title")) continue;
      const font = parseFloat(getComputedStyle(el).fontSize);
      let px = font * scaleOf(el);
      const svg = el instanceof SVGElement ? el.closest("svg") : null;
      if (svg) {
        // The svg's box on the screen has every scale above it in it already.
        const view = svg.viewBox && svg.viewBox.baseVal;
        if (!view || !view.width) continue;
        px = font * svg.getBoundingClientRect().width / view.width;
      }
      const r = box(el);
      if (r.width < 1 || r.height < 1 || !shown(el.closest("svg") || el)) continue;
      if (px < 10.95) small.push([el, px]);
    }
    return small;
  }

  const later = (ms) => new Promise((done) => setTimeout(done, ms));
  const click = (sel) => {
    const el = document.querySelector(sel);
    if (el && !el.disabled) { el.click(); return true; }
    return false;
  };

  // The viewer's turn, played as a person plays it: a bid, Give, Hint then Play (or
  // Discard), or Pass.
  async function play() {
    const s = window.shedkit && window.shedkit.state;
    if (!s || !s.view || s.view.is_over || s.you === null || s.view.current_player !== s.you || !s.view.legal.length) return;
    if (s.state_id === acted) return;
    // A page fed a position (window.__layoutHold, set before its scripts) never plays.
    if (window.__layoutHold || (move() >= pauseAt && (!pauseAtPlay || s.view.phase === "play"))) { paused = true; return; }
    acted = s.state_id;
    moves += 1;
    // The bids come highest last, then "no bid"; to be the landlord, bid the most.
    const bids = document.querySelectorAll(".bid-buttons button.bid");
    const most = document.querySelectorAll(".bid-buttons button.bid.primary");
    if (bids.length) { (pauseAtPlay && most.length ? most[most.length - 1] : bids[0]).click(); return; }
    if (document.querySelector("#give")) { click("#hint"); await later(0); click("#give"); return; }
    const cards = s.view.legal.filter((m) => m.k.length);
    if (!cards.length) {
      const plain = s.view.legal.find((m) => !m.k.length);
      if (!click(`.controls button[data-move="${plain.m}"]`)) click("#pass");
      return;
    }
    click("#hint");
    await later(0);
    // Tien Gow: what cannot be played face up is laid face down (Discard).
    if (!click("#play")) click("#discard");
    await later(0);
    click(".choices button");
    // A move the page did not send (nothing changed): let the next check try again.
    setTimeout(() => { if (window.shedkit.state.state_id === acted) acted = null; }, 1500);
  }

  // A check waits for a frame with no change before it: what a change sets in motion (a
  // ResizeObserver that scales a play to its seat) has then run, as it has on the screen.
  let changes = 0;
  const settled = (seen) => requestAnimationFrame(() => (seen === changes ? check() : settled(changes)));
  const schedule = () => {
    changes += 1;
    if (scheduled) return;
    scheduled = true;
    settled(-1);
  };
  new MutationObserver(schedule).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  addEventListener("resize", schedule);

  window.__layout = {
    reset() { found.length = 0; seen.clear(); small.clear(); checks = 0; moves = 0; acted = null; watched.clear(); },
    // Count the checks that find `sel` on the page (result().watched[sel]).
    watch(sel) { watched.set(sel, 0); },
    // Check each seat's role badge against the other parts of the seats too.
    badges() { badges = true; schedule(); },
    // Stop on the viewer's turn once `n` moves are made (`atPlay`: and the auction is over;
    // it then bids the most, to be the landlord).
    pauseAt(n, atPlay = false) { pauseAt = n; pauseAtPlay = atPlay; paused = false; acted = null; schedule(); },
    resume() { pauseAt = Infinity; paused = false; schedule(); },
    get paused() { return paused; },
    result: () => ({ found: [...found], small: [...small.values()], checks, moves, watched: Object.fromEntries(watched) }),
  };
})();
