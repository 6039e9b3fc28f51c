// Shared helpers of the shedkit web client: DOM building, the API, seat tokens, card faces.
"use strict";

const SK = {};

// h("div.card.red", {onclick: f, title: "x"}, child, "text") builds an element.
SK.h = function (tag, attrs, ...children) {
  const [head, ...classes] = tag.split(".");
  const [name, id] = head.split("#");
  const el = document.createElement(name || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key in el && key !== "list") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
};

// Replace an element's children; arrays are flattened and null/false children skipped.
SK.fill = function (el, ...children) {
  const kids = children.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false);
  el.replaceChildren(...kids.map((k) => (k instanceof Node ? k : document.createTextNode(String(k)))));
};

SK.api = async function (method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const err = (data && data.error) || { code: "http_" + response.status, message: response.statusText };
    throw Object.assign(new Error(err.message), { code: err.code });
  }
  return data;
};

// The seat token of a table lives in this browser only: it authorises that seat's moves.
SK.seatKey = (tableId) => "shedkit.seat." + tableId;
SK.getSeat = function (tableId) {
  try { return JSON.parse(localStorage.getItem(SK.seatKey(tableId)) || "null"); }
  catch (e) { return null; }
};
SK.setSeat = function (tableId, seat, token) {
  if (token === null) localStorage.removeItem(SK.seatKey(tableId));
  else localStorage.setItem(SK.seatKey(tableId), JSON.stringify({ seat, token }));
};
SK.getName = () => localStorage.getItem("shedkit.name") || "";
SK.setName = (name) => localStorage.setItem("shedkit.name", name);

// The token this browser had at the table (kept after leaving: during the deal in progress
// only it can take that seat back).
SK.join = async function (tableId, seat, name) {
  const had = SK.getSeat(tableId) || JSON.parse(localStorage.getItem("shedkit.left." + tableId) || "null");
  const body = { seat, name };
  if (had && had.token) body.token = had.token;
  const data = await SK.api("POST", `/api/tables/${tableId}/join`, body);
  SK.setSeat(tableId, data.seat, data.token);
  return data;
};

SK.SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
// A card as rank + suit symbol; jokers by name. Red suits get the class "red".
SK.cardFace = function (card) {
  const t = card.t;
  if (t === "B") return { text: "Jkr", small: "black", red: false };
  if (t === "R") return { text: "Jkr", small: "red", red: true };
  if (t === "Jk") return { text: "Jkr", small: "joker", red: true };
  const suit = t.length === 2 ? t[1] : "";
  // Anything that is not rank + suit (a domino tile, say) shows its text as it is.
  if (!SK.SUITS[suit]) return { text: t, small: "", red: false };
  return { text: (t[0] === "T" ? "10" : t[0]) + SK.SUITS[suit], small: "", red: suit === "h" || suit === "d" };
};

SK.cardEl = function (card, extra) {
  const face = SK.cardFace(card);
  return SK.h("button.card" + (face.red ? ".red" : ""), Object.assign({ type: "button", dataset: { card: card.c, key: card.k } }, extra || {}),
    SK.h("span.face", {}, face.text), face.small ? SK.h("span.small", {}, face.small) : null);
};

SK.miniCards = function (cards) {
  return SK.h("span.mini", {}, cards.map((c) => {
    const face = SK.cardFace(c);
    return SK.h("span.minicard" + (face.red ? ".red" : ""), {}, face.text + (face.small ? " " + face.small : ""));
  }));
};

SK.seatName = function (table, seat) {
  const s = table.seats[seat];
  if (!s) return "seat " + seat;
  if (s.name) return s.name + (s.away ? " (away, " + s.bot + " plays)" : "");
  const who = `${s.bot} bot ${seat + 1}`;
  return s.human_seat && !s.taken ? `open seat ${seat + 1} (${who})` : who;
};

SK.renderers = {};
