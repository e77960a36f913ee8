// Interface texts in English, Danish, Swedish and Norwegian. Game terms keep their original
// names; renderers show them beside the English (see term()).
const TEXTS = {
  en: {
    truncated: "Stopped at the game's decision bound: ranked by score.", shared_win: "Shared win",
    won_by: "Won by", draw_between: "A draw between", unavailable: "unavailable",
    tagline: "Seven Scandinavian table games", language: "Language", games: "Games", new_table: "New table",
    name: "Your name", players: "Players", public: "Listed in the lobby", quick: "Short game",
    seats: "Seats", rules_options: "Rule options", create: "Create table", tables: "Tables",
    loading: "Loading…", no_tables: "No tables yet: create one above.", join: "Join seat",
    watch: "Watch", open: "open", running: "running", over: "over", you: "you", human: "person",
    bot: "bot", your_moves: "Your moves", play: "Play", share: "Share this table:", log: "Game log",
    your_turn: "Your turn", waiting_for: "Waiting for", game_over: "Game over", winner: "Winner",
    spectating: "You are watching", seat: "Seat", free: "free", connected: "online",
    offline: "offline", clear: "Clear", choose: "Choose one:", take_seat: "Take a seat", reconnecting: "Reconnecting…",
    connected_ok: "Connected", play_new: "New table", score: "Score", not_your_turn: "Not your turn",
    seat_of: "seat", players_range: "players", new_game_of: "New table",
    retrying: "The server was busy; trying again…", commitment: "Deal fixed in advance", revealed: "Seed and salt (check with `spillebord verify`)", closed: "closed",
  },
  da: {
    truncated: "Stoppet ved spillets grænse for antal træk: rangeret efter point.", shared_win: "Delt sejr",
    won_by: "Vundet af", draw_between: "Uafgjort mellem", unavailable: "utilgængeligt",
    tagline: "Syv skandinaviske bordspil", language: "Sprog", games: "Spil", new_table: "Nyt bord",
    name: "Dit navn", players: "Spillere", public: "Vis i lobbyen", quick: "Kort spil",
    seats: "Pladser", rules_options: "Regelvalg", create: "Opret bord", tables: "Borde",
    loading: "Henter…", no_tables: "Ingen borde endnu: opret et ovenfor.", join: "Tag plads",
    watch: "Se med", open: "åbent", running: "i gang", over: "slut", you: "dig", human: "person",
    bot: "robot", your_moves: "Dine træk", play: "Spil", share: "Del bordet:", log: "Spillets forløb",
    your_turn: "Din tur", waiting_for: "Venter på", game_over: "Spillet er slut", winner: "Vinder",
    spectating: "Du ser med", seat: "Plads", free: "ledig", connected: "online", offline: "offline",
    clear: "Ryd", choose: "Vælg:", take_seat: "Tag en plads", reconnecting: "Forbinder igen…",
    connected_ok: "Forbundet", play_new: "Nyt bord", score: "Point", not_your_turn: "Ikke din tur",
    seat_of: "plads", players_range: "spillere", new_game_of: "Nyt bord",
    retrying: "Serveren havde travlt; prøver igen…", commitment: "Givet fastlagt på forhånd", revealed: "Frø og salt (tjek med `spillebord verify`)", closed: "lukket",
  },
  sv: {
    truncated: "Stoppat vid spelets gräns för antal drag: rangordnat efter poäng.", shared_win: "Delad seger",
    won_by: "Vunnet av", draw_between: "Oavgjort mellan", unavailable: "otillgängligt",
    tagline: "Sju skandinaviska bordsspel", language: "Språk", games: "Spel", new_table: "Nytt bord",
    name: "Ditt namn", players: "Spelare", public: "Visa i lobbyn", quick: "Kort parti",
    seats: "Platser", rules_options: "Regelval", create: "Skapa bord", tables: "Bord",
    loading: "Hämtar…", no_tables: "Inga bord ännu: skapa ett ovan.", join: "Ta plats",
    watch: "Titta", open: "öppet", running: "pågår", over: "slut", you: "du", human: "person",
    bot: "robot", your_moves: "Dina drag", play: "Spela", share: "Dela bordet:", log: "Partiets gång",
    your_turn: "Din tur", waiting_for: "Väntar på", game_over: "Partiet är slut", winner: "Vinnare",
    spectating: "Du tittar på", seat: "Plats", free: "ledig", connected: "online", offline: "offline",
    clear: "Rensa", choose: "Välj:", take_seat: "Ta en plats", reconnecting: "Ansluter igen…",
    connected_ok: "Ansluten", play_new: "Nytt bord", score: "Poäng", not_your_turn: "Inte din tur",
    seat_of: "plats", players_range: "spelare", new_game_of: "Nytt bord",
    retrying: "Servern var upptagen; försöker igen…", commitment: "Given bestämd i förväg", revealed: "Frö och salt (kontrollera med `spillebord verify`)", closed: "stängt",
  },
  no: {
    truncated: "Stoppet ved spillets grense for antall trekk: rangert etter poeng.", shared_win: "Delt seier",
    won_by: "Vunnet av", draw_between: "Uavgjort mellom", unavailable: "utilgjengelig",
    tagline: "Syv skandinaviske brettspill", language: "Språk", games: "Spill", new_table: "Nytt bord",
    name: "Ditt navn", players: "Spillere", public: "Vis i lobbyen", quick: "Kort parti",
    seats: "Plasser", rules_options: "Regelvalg", create: "Opprett bord", tables: "Bord",
    loading: "Henter…", no_tables: "Ingen bord ennå: opprett et over.", join: "Ta plass",
    watch: "Se på", open: "åpent", running: "pågår", over: "slutt", you: "deg", human: "person",
    bot: "robot", your_moves: "Dine trekk", play: "Spill", share: "Del bordet:", log: "Spillets gang",
    your_turn: "Din tur", waiting_for: "Venter på", game_over: "Spillet er slutt", winner: "Vinner",
    spectating: "Du ser på", seat: "Plass", free: "ledig", connected: "pålogget", offline: "frakoblet",
    clear: "Tøm", choose: "Velg:", take_seat: "Ta en plass", reconnecting: "Kobler til igjen…",
    connected_ok: "Tilkoblet", play_new: "Nytt bord", score: "Poeng", not_your_turn: "Ikke din tur",
    seat_of: "plass", players_range: "spillere", new_game_of: "Nytt bord",
    retrying: "Serveren var opptatt; prøver igjen…", commitment: "Given bestemt på forhånd", revealed: "Frø og salt (sjekk med `spillebord verify`)", closed: "lukket",
  },
};

export function lang() {
  const saved = localStorage.getItem("sb:lang");
  if (saved && TEXTS[saved]) return saved;
  const nav = (navigator.language || "en").slice(0, 2);
  return { da: "da", sv: "sv", nb: "no", nn: "no", no: "no" }[nav] || "en";
}

export function t(key) {
  return (TEXTS[lang()] || TEXTS.en)[key] ?? TEXTS.en[key] ?? key;
}

// "Spy (Smugkigge)": an English word with the game's own term beside it, or the term alone
// when the interface speaks the game's language.
export function term(english, original, originalLang) {
  if (!original || original === english) return english;
  return lang() === originalLang ? original : `${english} (${original})`;
}

export function applyTexts(root = document) {
  document.documentElement.lang = lang();
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  const sel = document.getElementById("lang");
  if (sel) {
    sel.value = lang();
    sel.onchange = () => { localStorage.setItem("sb:lang", sel.value); location.reload(); };
  }
}
