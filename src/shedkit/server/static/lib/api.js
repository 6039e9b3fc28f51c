// The HTTP API and this browser's seat tokens. Errors come back as {code, data}: the page
// words them from the catalogue, never from the server's English message.
export class ApiError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data || {};
  }
}

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError("network", String(e));
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const err = (data && data.error) || { code: "http", message: response.statusText, data: { status: response.status } };
    throw new ApiError(err.code, err.message, err.data);
  }
  return data;
}

// A seat's token lives in this browser only: it authorises that seat's moves.
const seatKey = (tableId) => `shedkit.seat.${tableId}`;
const leftKey = (tableId) => `shedkit.left.${tableId}`;

function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch (e) {
    return null;
  }
}

export function getSeat(tableId) {
  return readJson(seatKey(tableId));
}

export function setSeat(tableId, seat, token) {
  if (token === null) localStorage.removeItem(seatKey(tableId));
  else localStorage.setItem(seatKey(tableId), JSON.stringify({ seat, token }));
}

// Leaving keeps the token aside: during the deal in progress only it can take the seat back.
export function forgetSeat(tableId) {
  const mine = getSeat(tableId);
  if (mine) localStorage.setItem(leftKey(tableId), JSON.stringify(mine));
  setSeat(tableId, null, null);
}

export const getName = () => localStorage.getItem("shedkit.name") || "";
export const setName = (name) => localStorage.setItem("shedkit.name", name);

export async function joinSeat(tableId, seat, name) {
  const had = getSeat(tableId) || readJson(leftKey(tableId));
  const body = { seat, name };
  if (had && had.token) body.token = had.token;
  const data = await api("POST", `/api/tables/${tableId}/join`, body);
  setSeat(tableId, data.seat, data.token);
  return data;
}

// Display settings kept in this browser: sounds (off by default), the four-colour deck.
export function getSetting(name, fallback) {
  const value = readJson(`shedkit.setting.${name}`);
  return value === null ? fallback : value;
}

export function setSetting(name, value) {
  localStorage.setItem(`shedkit.setting.${name}`, JSON.stringify(value));
}
