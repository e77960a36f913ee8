// A game's own texts in the reader's language (served from games/<id>/texts.json): events
// rendered from templates, action labels, option labels, end-summary rows and terms. A text
// missing in a language falls back to English, and a missing template to the engine's text.
//
// Templates: "{seat|p} trails {card|c}". Filters: p a seat's name, ps a list of seats' names,
// s a per-seat list as "name value", c a card, cs cards, b a build (by its card), t:GROUP a value
// from the game's terms, ts:GROUP a list of them. "{a,b|…}" takes the first field present.
import { lang } from "./i18n.js";

let TEXTS = {};
let NAME = (i) => `#${i}`;

export async function loadTexts(gameId) {
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/texts`);
    TEXTS = r.ok ? await r.json() : {};
  } catch { TEXTS = {}; }
  return TEXTS;
}

export function setTexts(texts) { TEXTS = texts || {}; }

// How a seat number becomes a name (the table page sets it once players are known).
export function setNamer(fn) { NAME = fn; }

function pick(entry) {
  if (!entry || typeof entry !== "object") return null;
  return entry[lang()] ?? entry.en ?? null;
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function cardText(id) {
  const m = /^(10|[2-9AJQKT])([SHDC])[ab]?$/.exec(String(id));
  if (!m) return String(id);
  return `${m[1] === "T" ? "10" : m[1]}${SUITS[m[2]]}`;
}

export function term(group, value) {
  const g = (TEXTS.terms || {})[group] || {};
  return pick(g[String(value)]) ?? String(value);
}

function list(v) { return Array.isArray(v) ? v : v == null ? [] : [v]; }

function apply(value, filter, group) {
  switch (filter) {
    case "p": return NAME(value);
    case "ps": return list(value).map((x) => NAME(x)).join(", ");
    case "s": return list(value).map((x, i) => `${NAME(i)} ${x}`).join(", ");
    case "c": return cardText(value);
    case "cs": return list(value).map(cardText).join(" ");
    case "b": return cardText(String(value).replace(/^B/, ""));
    case "t": return term(group, value);
    case "ts": return list(value).map((x) => term(group, x)).join(", ");
    default: return Array.isArray(value) ? value.join(", ") : value == null ? "—" : String(value);
  }
}

export function fill(template, data) {
  return template.replace(/\{([A-Za-z_0-9,]+)(?:\|([a-z]+)(?::([a-z_]+))?)?\}/g, (_, fields, filter, group) => {
    const key = fields.split(",").find((f) => data[f] !== undefined);
    return apply(key === undefined ? null : data[key], filter, group);
  });
}

// One event as a line of the log, or null for an event without a text.
export function eventLine(e) {
  if (!e) return null;
  const tpl = pick(((TEXTS.events || {})[e.kind]));
  if (tpl) return fill(tpl, e);
  return e.text || null;
}

// A legal action's label: the game's template for its kind, else the engine's label.
export function actionLabel(a) {
  const tpl = a.json && pick((TEXTS.actions || {})[a.json.kind]);
  return tpl ? fill(tpl, a.json) : a.label || a.text;
}

// The rule an option sets, in the reader's language (texts.json "option_help"), else the engine's English.
export function optionHelp(name, english) { return pick((TEXTS.option_help || {})[name]) || english || ""; }
export function optionLabel(name) { return pick((TEXTS.options || {})[name]) || name.replace(/_/g, " "); }
export function summaryLabel(key) { return pick((TEXTS.summary || {})[key]) || key.replace(/_/g, " "); }
// A renderer's word ("pts", "dealer"): the game's "ui" texts, else the English given.
export function ui(key, english) { return pick((TEXTS.ui || {})[key]) || english || key; }
export function hasTexts() { return Object.keys(TEXTS).length > 0; }
// A renderer's text with fields: uif("deck", "deck: {n} cards", { n: 12 }) (filters as in templates).
export function uif(key, english, data) { return fill(ui(key, english), data || {}); }
