// Message catalogues: every string a person reads comes from i18n/<lang>.json through t().
// The language follows the browser, can be switched in the header, and is kept in this browser.
import i18next from "i18next";
import { useEffect, useState } from "./html.js";

export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "zh", name: "中文" },
  { code: "it", name: "Italiano" },
  { code: "de", name: "Deutsch" },
  { code: "ja", name: "日本語" },
];
const CODES = LANGUAGES.map((l) => l.code);
const KEY = "shedkit.lang";
const listeners = new Set();

// The first of the browser's languages that has a catalogue, else English.
export function detectLanguage() {
  const kept = localStorage.getItem(KEY);
  if (kept && CODES.includes(kept)) return kept;
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && CODES.includes(asked)) return asked;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (CODES.includes(base)) return base;
  }
  return "en";
}

// A language's catalogue is split in parts (one owner each): i18n/<lang>/<part>.json.
// Keys never repeat across parts; a part is a nested object of keys.
export const PARTS = ["common", "table", "lobby", "errors", "doudizhu", "president", "dominoes", "tiengow"];

async function part(code, name) {
  // A missing part leaves its keys to the English fallback rather than a blank page.
  const response = await fetch(`/static/i18n/${code}/${name}.json`).catch(() => null);
  if (!response || !response.ok) return {};
  return response.json();
}

async function catalogue(code) {
  const parts = await Promise.all(PARTS.map((name) => part(code, name)));
  return Object.assign({}, ...parts);
}

async function load(code) {
  if (!i18next.hasResourceBundle(code, "translation")) {
    i18next.addResourceBundle(code, "translation", await catalogue(code), true, true);
  }
}

// Load English (the fallback) and the page's language, then set <html lang>.
export async function initI18n() {
  const code = detectLanguage();
  await i18next.init({
    lng: code,
    fallbackLng: "en",
    resources: {},
    interpolation: { escapeValue: false }, // Preact escapes text itself
    returnNull: false,
  });
  await load("en");
  if (code !== "en") await load(code);
  await i18next.changeLanguage(code);
  document.documentElement.lang = code;
  return code;
}

export async function setLanguage(code) {
  if (!CODES.includes(code)) return;
  await load(code);
  await i18next.changeLanguage(code);
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function language() {
  return i18next.language || "en";
}

export function t(key, data) {
  return i18next.t(key, data);
}

// Whether a key exists (server codes the catalogue may not know yet fall back to a generic text).
export function has(key) {
  return i18next.exists(key);
}

// Re-render a component when the language changes.
export function useLanguage() {
  const [code, setCode] = useState(language());
  useEffect(() => {
    listeners.add(setCode);
    return () => listeners.delete(setCode);
  }, []);
  return code;
}
