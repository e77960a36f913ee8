// Interface texts in English, Danish, Swedish and Norwegian. Game terms keep their original
// names; renderers show them beside the English (see term()).
const TEXTS = {
  en: {
    undo: "Undo", undo_hint: "Take back your last step of this turn (Ctrl+Z)",
    zoom: "Zoom", zoom_in: "Zoom in", zoom_out: "Zoom out",
    level_random: "Random", level_greedy: "Greedy", level_heuristic: "Canny", level_planner: "Planner", level_trader: "Trader", level_raider: "Raider", level_gatherer: "Gatherer", level_stager: "Stager", level_partners: "Partner", level_ismcts: "Searching",
    level_level1: "Beginner", level_level2: "Casual", level_level3: "Club", level_level4: "Expert", level_level5: "Master",
    levels_line: "Levels: {levels}.", level_search: "search, {n} iterations a move",
    player_n: "Player {n}",
    last_move: "Last move", board: "board", rematch: "Rematch", watch_rematch: "Watch the rematch", replay: "Replay", rules: "Rules", copy: "Copy", copied: "Copied", sound: "Sound on my turn", recent: "Recent games", step: "Step", first: "Start", prev: "Back", next: "Forward", last: "End", view_as: "View as", spectator: "Spectator", replay_of: "Replay",
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
    undo: "Fortryd", undo_hint: "Tag dit sidste træk i denne tur tilbage (Ctrl+Z)",
    zoom: "Zoom", zoom_in: "Zoom ind", zoom_out: "Zoom ud",
    level_random: "Tilfældige", level_greedy: "Grådige", level_heuristic: "Snedige", level_planner: "Planlæggende", level_trader: "Handlende", level_raider: "Kaper-", level_gatherer: "Samlende", level_stager: "Gemmende", level_partners: "Makker-", level_ismcts: "Søgende",
    level_level1: "Begynder", level_level2: "Hobbyspiller", level_level3: "Klubspiller", level_level4: "Ekspert", level_level5: "Mester",
    levels_line: "Niveauer: {levels}.", level_search: "søgning, {n} iterationer pr. træk",
    player_n: "Spiller {n}",
    last_move: "Sidste træk", board: "bræt", rematch: "Omkamp", watch_rematch: "Se omkampen", replay: "Genafspil", rules: "Regler", copy: "Kopiér", copied: "Kopieret", sound: "Lyd når det er min tur", recent: "Seneste spil", step: "Træk", first: "Start", prev: "Tilbage", next: "Frem", last: "Slut", view_as: "Se som", spectator: "Tilskuer", replay_of: "Genafspilning",
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
    retrying: "Serveren havde travlt; prøver igen…", commitment: "Givet fastlagt på forhånd", revealed: "Seed og salt (tjek med `spillebord verify`)", closed: "lukket",
  },
  sv: {
    undo: "Ångra", undo_hint: "Ta tillbaka ditt senaste drag i denna tur (Ctrl+Z)",
    zoom: "Zoom", zoom_in: "Zooma in", zoom_out: "Zooma ut",
    level_random: "Slumpvisa", level_greedy: "Giriga", level_heuristic: "Listiga", level_planner: "Planerande", level_trader: "Handlande", level_raider: "Kapar-", level_gatherer: "Samlande", level_stager: "Gömmande", level_partners: "Partner-", level_ismcts: "Sökande",
    level_level1: "Nybörjare", level_level2: "Hobbyspelare", level_level3: "Klubbspelare", level_level4: "Expert", level_level5: "Mästare",
    levels_line: "Nivåer: {levels}.", level_search: "sökning, {n} iterationer per drag",
    player_n: "Spelare {n}",
    last_move: "Senaste draget", board: "bräde", rematch: "Revansch", watch_rematch: "Titta på revanschen", replay: "Spela upp igen", rules: "Regler", copy: "Kopiera", copied: "Kopierat", sound: "Ljud när det är min tur", recent: "Senaste partier", step: "Drag", first: "Början", prev: "Bakåt", next: "Framåt", last: "Slut", view_as: "Visa som", spectator: "Åskådare", replay_of: "Uppspelning",
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
    retrying: "Servern var upptagen; försöker igen…", commitment: "Given bestämd i förväg", revealed: "Seed och salt (kontrollera med `spillebord verify`)", closed: "stängt",
  },
  no: {
    undo: "Angre", undo_hint: "Ta tilbake ditt siste trekk i denne turen (Ctrl+Z)",
    zoom: "Zoom", zoom_in: "Zoom inn", zoom_out: "Zoom ut",
    level_random: "Tilfeldige", level_greedy: "Grådige", level_heuristic: "Lure", level_planner: "Planleggende", level_trader: "Handlende", level_raider: "Kaper-", level_gatherer: "Samlende", level_stager: "Gjemmende", level_partners: "Makker-", level_ismcts: "Søkende",
    level_level1: "Nybegynner", level_level2: "Hobbyspiller", level_level3: "Klubbspiller", level_level4: "Ekspert", level_level5: "Mester",
    levels_line: "Nivåer: {levels}.", level_search: "søk, {n} iterasjoner per trekk",
    player_n: "Spiller {n}",
    last_move: "Siste trekk", board: "brett", rematch: "Omkamp", watch_rematch: "Se omkampen", replay: "Spill av igjen", rules: "Regler", copy: "Kopier", copied: "Kopiert", sound: "Lyd når det er min tur", recent: "Siste spill", step: "Trekk", first: "Start", prev: "Tilbake", next: "Fram", last: "Slutt", view_as: "Vis som", spectator: "Tilskuer", replay_of: "Avspilling",
    truncated: "Stoppet ved spillets grense for antall trekk: rangert etter poeng.", shared_win: "Delt seier",
    won_by: "Vunnet av", draw_between: "Uavgjort mellom", unavailable: "utilgjengelig",
    tagline: "Syv skandinaviske bordspill", language: "Språk", games: "Spill", new_table: "Nytt bord",
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
    retrying: "Serveren var opptatt; prøver igjen…", commitment: "Utdelingen fastsatt på forhånd", revealed: "Seed og salt (sjekk med `spillebord verify`)", closed: "lukket",
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
