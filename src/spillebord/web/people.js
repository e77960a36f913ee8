// People, not seats: the name to show for each seat. A person is their own name; a bot gets a
// persona of its own per seat with its level (the agent the server names), e.g. "Greedy Gry
// (bot)", so two bots of one level are told apart.
import { t } from "./i18n.js";

const PERSONAS = ["Gry", "Bo", "Ane", "Sune", "Liv", "Tor", "Eja", "Nils"];

// The agent's level in the reader's language ("greedy" → "Greedy", "Grådige"), else its name.
function level(agent) {
  const key = `level_${agent}`;
  const word = t(key);
  if (word !== key) return word;
  const a = String(agent || "bot").replace(/[_-]+/g, " ");
  return a.charAt(0).toUpperCase() + a.slice(1);
}

// What a level plays, named for a reader: a bot's word without the compound hyphen ("Kaper").
export function botWord(agent) {
  return level(agent).replace(/-$/, "");
}

// A bot's name: its level and a persona fixed by the seat (distinct at one table).
export function botName(agent, seat) {
  // A word ending in a hyphen makes a compound with the persona ("Makker-Bo"), not two words.
  const word = level(agent);
  const gap = word.endsWith("-") ? "" : " ";
  return `${word}${gap}${PERSONAS[seat % PERSONAS.length]} (${t("bot")})`;
}

// A person's own name; one who gave none is "Player N" on the server: in the reader's language here.
function ownName(name) {
  const unnamed = /^Player (\d+)$/.exec(name || "");
  return unnamed ? t("player_n").replace("{n}", unnamed[1]) : name;
}

// The name of seat i from the players list of a state message or table summary.
export function personName(p, i) {
  if (!p) return `${t("seat")} ${Number(i) + 1}`;
  if (p.bot && p.takeover && p.name && p.name !== p.bot) return `${ownName(p.name)} (${level(p.bot)} ${t("bot")})`;
  if (p.bot && (!p.name || p.name === p.bot)) return botName(p.bot, i);
  if (p.free && !p.name) return t("free");
  return ownName(p.name) || `${t("seat")} ${Number(i) + 1}`;
}

// The same, with "(you)" for the viewer's own seat.
export function displayName(players, i, mySeat) {
  if (i === null || i === undefined || i < 0) return "—";
  const who = personName((players || [])[i], i);
  return mySeat === i ? `${who} (${t("you")})` : who;
}
