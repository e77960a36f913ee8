// Texts of the people modules (clocks, chat, accounts, ratings, notifications) in the four
// interface languages; the language is the one i18n.js chose.
import { lang } from "./i18n.js";

const TEXTS = {
  en: {
    chat: "Chat", say: "Send", chat_placeholder: "Say something", chat_off: "This table has no chat.",
    chat_readonly: "Only the players write here.", clock: "Clock", turn_based: "per move",
    me: "My tables", login: "Log in", register: "Register", logout: "Log out",
    logout_all: "Log out everywhere", password: "Password", account_name: "Name",
    your_turn_in: "your turn", waiting: "waiting", finished: "Finished games", replay: "Replay record",
    no_my_tables: "No tables yet.", logged_in_as: "Logged in as", notify: "Notify me when it is my turn",
    leaderboard: "Leaderboard", rank: "#", rating: "Rating", games_played: "Games", kind_bot: "bot",
    kind_person: "person", time_control: "Time control", tc_none: "No clock", tc_realtime: "Real time",
    tc_turn: "Turn-based", bank_min: "minutes each", increment_s: "seconds a move", per_move_h: "hours a move",
    on_timeout: "On timeout", timeout_bot: "a bot takes the seat", timeout_lose: "the seat loses",
    rated: "Rated", chat_policy: "Chat", chat_players: "players (spectators read)",
    chat_seated: "players only", chat_none: "off", anonymous: "Playing without an account: your seats live in this browser.",
    open_table: "Open",
  },
  da: {
    chat: "Chat", say: "Send", chat_placeholder: "Skriv noget", chat_off: "Dette bord har ingen chat.",
    chat_readonly: "Kun spillerne skriver her.", clock: "Ur", turn_based: "pr. træk",
    me: "Mine borde", login: "Log ind", register: "Opret konto", logout: "Log ud",
    logout_all: "Log ud overalt", password: "Adgangskode", account_name: "Navn",
    your_turn_in: "din tur", waiting: "venter", finished: "Færdige spil", replay: "Genafspilning",
    no_my_tables: "Ingen borde endnu.", logged_in_as: "Logget ind som", notify: "Giv besked når det er min tur",
    leaderboard: "Rangliste", rank: "#", rating: "Rating", games_played: "Spil", kind_bot: "robot",
    kind_person: "person", time_control: "Tidskontrol", tc_none: "Intet ur", tc_realtime: "Realtid",
    tc_turn: "Turbaseret", bank_min: "minutter hver", increment_s: "sekunder pr. træk", per_move_h: "timer pr. træk",
    on_timeout: "Når tiden løber ud", timeout_bot: "en robot tager pladsen", timeout_lose: "pladsen taber",
    rated: "Tæller i ratingen", chat_policy: "Chat", chat_players: "spillere (tilskuere læser)",
    chat_seated: "kun spillere", chat_none: "fra", anonymous: "Du spiller uden konto: dine pladser gemmes i denne browser.",
    open_table: "Åbn",
  },
  sv: {
    chat: "Chatt", say: "Skicka", chat_placeholder: "Skriv något", chat_off: "Det här bordet har ingen chatt.",
    chat_readonly: "Bara spelarna skriver här.", clock: "Klocka", turn_based: "per drag",
    me: "Mina bord", login: "Logga in", register: "Skapa konto", logout: "Logga ut",
    logout_all: "Logga ut överallt", password: "Lösenord", account_name: "Namn",
    your_turn_in: "din tur", waiting: "väntar", finished: "Avslutade partier", replay: "Uppspelning",
    no_my_tables: "Inga bord ännu.", logged_in_as: "Inloggad som", notify: "Meddela mig när det är min tur",
    leaderboard: "Topplista", rank: "#", rating: "Rating", games_played: "Spel", kind_bot: "robot",
    kind_person: "person", time_control: "Tidskontroll", tc_none: "Ingen klocka", tc_realtime: "Realtid",
    tc_turn: "Turbaserat", bank_min: "minuter var", increment_s: "sekunder per drag", per_move_h: "timmar per drag",
    on_timeout: "När tiden tar slut", timeout_bot: "en robot tar platsen", timeout_lose: "platsen förlorar",
    rated: "Räknas i ratingen", chat_policy: "Chatt", chat_players: "spelare (åskådare läser)",
    chat_seated: "bara spelare", chat_none: "av", anonymous: "Du spelar utan konto: dina platser finns i den här webbläsaren.",
    open_table: "Öppna",
  },
  no: {
    chat: "Chat", say: "Send", chat_placeholder: "Skriv noe", chat_off: "Dette bordet har ingen chat.",
    chat_readonly: "Bare spillerne skriver her.", clock: "Klokke", turn_based: "per trekk",
    me: "Mine bord", login: "Logg inn", register: "Opprett konto", logout: "Logg ut",
    logout_all: "Logg ut overalt", password: "Passord", account_name: "Navn",
    your_turn_in: "din tur", waiting: "venter", finished: "Ferdige spill", replay: "Avspilling",
    no_my_tables: "Ingen bord ennå.", logged_in_as: "Logget inn som", notify: "Varsle meg når det er min tur",
    leaderboard: "Rangliste", rank: "#", rating: "Rating", games_played: "Spill", kind_bot: "robot",
    kind_person: "person", time_control: "Tidskontroll", tc_none: "Ingen klokke", tc_realtime: "Sanntid",
    tc_turn: "Turbasert", bank_min: "minutter hver", increment_s: "sekunder per trekk", per_move_h: "timer per trekk",
    on_timeout: "Når tiden går ut", timeout_bot: "en robot tar plassen", timeout_lose: "plassen taper",
    rated: "Teller i ratingen", chat_policy: "Chat", chat_players: "spillere (tilskuere leser)",
    chat_seated: "bare spillere", chat_none: "av", anonymous: "Du spiller uten konto: plassene dine lagres i denne nettleseren.",
    open_table: "Åpne",
  },
};

export function pt(key) {
  return (TEXTS[lang()] || TEXTS.en)[key] ?? TEXTS.en[key] ?? key;
}
