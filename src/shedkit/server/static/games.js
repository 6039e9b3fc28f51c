// One renderer per game: the panel of public facts, a badge per seat, the score words.
// Adding a game to the web client is adding one entry here (and a serialiser on the server).
"use strict";

SK.renderers.doudizhu = {
  title: "Dou Di Zhu",
  badge(view, seat) {
    if (view.landlord === seat) return "Landlord";
    if (view.landlord !== null && view.landlord !== undefined) return "Peasant";
    return "";
  },
  panel(view, table) {
    const h = SK.h;
    const rows = [];
    rows.push(h("div.fact", {}, "Phase: ", h("b", {}, view.phase)));
    if (view.phase === "auction" || view.bids.length) {
      rows.push(h("div.fact.bids", {}, "Bids: ",
        view.bids.length ? view.bids.map((b) => `${SK.seatName(table, b.seat)}: ${b.move}`).join(", ") : "none yet"));
    }
    rows.push(h("div.fact", {}, "Stake: ", h("b.stake", {}, String(view.stake)),
      " · Multiplier: ", h("b.multiplier", {}, "×" + view.multiplier),
      view.bombs ? ` (${view.bombs} bomb${view.bombs > 1 ? "s" : ""})` : ""));
    if (view.kitty) rows.push(h("div.fact", {}, "Kitty: ", SK.miniCards(view.kitty)));
    if (view.spring) rows.push(h("div.fact", {}, h("b", {}, "Spring! (stake doubled)")));
    return rows;
  },
  result(view, table) {
    if (view.thrown_in) return "Everybody passed: the deal is thrown in and redealt.";
    const who = view.winner === view.landlord ? "The landlord wins" : "The peasants win";
    return `${who} (${SK.seatName(table, view.winner)} went out).`;
  },
};

SK.renderers.president = {
  title: "President",
  badge(view, seat) {
    return view.titles[String(seat)] || (view.dealer === seat ? "Dealer" : "");
  },
  panel(view, table) {
    const h = SK.h;
    const rows = [];
    rows.push(h("div.fact", {}, "Phase: ", h("b", {}, view.phase)));
    rows.push(h("div.fact.order", {}, "Order in force (low → high): ",
      h("b", {}, view.order.join(" ")), view.revolution ? h("b.rev", {}, " — revolution!") : ""));
    if (view.leftover.length) rows.push(h("div.fact", {}, "Out of play: ", SK.miniCards(view.leftover)));
    if (view.exchanges.length) {
      rows.push(h("div.fact", {}, "Tax: ", view.exchanges.map((x) =>
        `${SK.seatName(table, x.giver)} gives ${SK.seatName(table, x.receiver)} ${x.count}`).join("; ")));
      if (view.tax_drawn.length) rows.push(h("div.fact", {}, "You received: ", SK.miniCards(view.tax_drawn)));
      if (view.tax_lost.length) rows.push(h("div.fact", {}, "You gave up: ", SK.miniCards(view.tax_lost)));
    }
    if (view.finished.length) {
      rows.push(h("div.fact", {}, "Out: ", view.finished.map((s, i) =>
        `${i + 1}. ${SK.seatName(table, s)} (${view.titles[String(s)]})`).join(", ")));
    }
    return rows;
  },
  result(view, table) {
    return "Finishing order: " + view.finished.map((s) =>
      `${SK.seatName(table, s)} (${view.titles[String(s)]})`).join(", ");
  },
};

SK.renderers.dominoes = {
  title: "Dominoes",
  unit: "tiles",
  badge(view, seat) {
    const parts = [];
    if (view.teams) parts.push(seat % 2 === 0 ? "Team A (seats 1+3)" : "Team B (seats 2+4)");
    if (view.leader === seat && !view.line.main.length) parts.push("Leads");
    return parts.join(" · ");
  },
  lineText(line) {
    // The line left to right; a spinner's cross arms after it.
    const tile = (t) => `[${t[0]}|${t[1]}]`;
    let text = line.main.map(tile).join("");
    if (line.up.length) text += "   up: " + line.up.map(tile).join("");
    if (line.down.length) text += "   down: " + line.down.map(tile).join("");
    return text || "(empty: the leader plays first)";
  },
  panel(view, table) {
    const h = SK.h;
    const ends = Object.entries(view.ends).map(([name, pips]) => `${name} ${pips}`).join(" · ");
    const rows = [
      h("div.fact", {}, "Phase: ", h("b", {}, view.phase), ` · ${view.variant} game · boneyard: ${view.boneyard} tiles`),
      h("div.fact.line", {}, "Line: ", h("code", {}, this.lineText(view.line))),
      h("div.fact.ends", {}, "Open ends: ", h("b", {}, ends || "none yet"),
        view.variant === "fives" ? [" · Count: ", h("b.count", {}, String(view.count))] : null),
      h("div.fact", {}, "Points this hand: ", view.scores.map((p, i) => `${SK.seatName(table, i)} ${p}`).join(", "),
        ` · match to ${view.target}`),
    ];
    if (view.lead_tile) rows.push(h("div.fact", {}, "You lead with ", SK.miniCards([view.lead_tile])));
    return rows;
  },
  result(view, table) {
    // The winner is a side: a team with partners, else a seat.
    const side = (w) => (view.teams ? (w === 0 ? "Team A" : "Team B") : SK.seatName(table, w));
    let how;
    if (view.end_reason !== "blocked") how = `${side(view.winner)} went out (domino)`;
    else if (view.winner === null) how = "The line is blocked: a tie, no points";
    else how = `The line is blocked: ${side(view.winner)} has the fewest pips`;
    return `${how}. Pips left: ` + view.pips.map((p, i) => `${SK.seatName(table, i)} ${p}`).join(", ") + ".";
  },
};
