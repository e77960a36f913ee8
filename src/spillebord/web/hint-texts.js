// Texts of hints and game reviews in the four interface languages; the language is the one
// i18n.js chose.
import { lang } from "./i18n.js";

const TEXTS = {
  en: {
    hint: "Hint", hint_title: "The strongest bot's choice and its next two, with the estimated chance of winning (from what you can see)",
    hint_thinking: "Thinking about a hint…", hints_on: "Hints on", hints_off: "Hints off at this table",
    hint_suggested: "suggested", hints_setting: "Allow hints", chance: "chance of winning", chance_h: "Chance",
    review: "Review", review_of: "Review", review_title: "Game review", move_no: "Move", played: "Played", best: "Best",
    loss: "Loss", verdict: "Verdict", reviewing: "Reviewing", review_done: "decisions reviewed",
    review_failed: "The review failed", review_seat: "Decisions of", forced: "forced", best_move: "best",
    good: "good", inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder",
    review_summary: "Blunders {b}, mistakes {m}, inaccuracies {i} in {n} decisions.",
    review_explain: "For each decision: the move played, the search's best move and the estimated loss in chance of winning, computed only from what this seat could see.",
    not_over: "A review is made once the game is over.", back_to_table: "Table", replay: "Replay",
  },
  da: {
    hint: "Tip", hint_title: "Den stærkeste robots valg og de to næste, med den anslåede vinderchance (ud fra det, du kan se)",
    hint_thinking: "Tænker over et tip…", hints_on: "Tip slået til", hints_off: "Tip er slået fra ved dette bord",
    hint_suggested: "foreslået", hints_setting: "Tillad tip", chance: "vinderchance", chance_h: "Chance",
    review: "Gennemgang", review_of: "Gennemgang", review_title: "Gennemgang af spillet", move_no: "Træk", played: "Spillet", best: "Bedst",
    loss: "Tab", verdict: "Vurdering", reviewing: "Gennemgår", review_done: "beslutninger gennemgået",
    review_failed: "Gennemgangen mislykkedes", review_seat: "Beslutninger for", forced: "tvunget", best_move: "bedst",
    good: "godt", inaccuracy: "unøjagtighed", mistake: "fejl", blunder: "bommert",
    review_summary: "Bommerter {b}, fejl {m}, unøjagtigheder {i} i {n} beslutninger.",
    review_explain: "For hver beslutning: trækket, der blev spillet, søgningens bedste træk og det anslåede tab i vinderchance, beregnet kun ud fra det, denne plads kunne se.",
    not_over: "En gennemgang laves, når spillet er slut.", back_to_table: "Bord", replay: "Genafspil",
  },
  sv: {
    hint: "Tips", hint_title: "Den starkaste robotens val och de två nästa, med den uppskattade vinstchansen (utifrån det du ser)",
    hint_thinking: "Funderar på ett tips…", hints_on: "Tips påslagna", hints_off: "Tips är avslagna vid det här bordet",
    hint_suggested: "föreslaget", hints_setting: "Tillåt tips", chance: "vinstchans", chance_h: "Chans",
    review: "Genomgång", review_of: "Genomgång", review_title: "Genomgång av partiet", move_no: "Drag", played: "Spelat", best: "Bäst",
    loss: "Förlust", verdict: "Bedömning", reviewing: "Går igenom", review_done: "beslut genomgångna",
    review_failed: "Genomgången misslyckades", review_seat: "Beslut av", forced: "tvunget", best_move: "bäst",
    good: "bra", inaccuracy: "onoggrannhet", mistake: "misstag", blunder: "groda",
    review_summary: "Grodor {b}, misstag {m}, onoggrannheter {i} på {n} beslut.",
    review_explain: "För varje beslut: draget som spelades, sökningens bästa drag och den uppskattade förlusten i vinstchans, beräknad endast utifrån det den här platsen kunde se.",
    not_over: "En genomgång görs när partiet är slut.", back_to_table: "Bord", replay: "Spela upp igen",
  },
  no: {
    hint: "Tips", hint_title: "Den sterkeste robotens valg og de to neste, med anslått vinnersjanse (ut fra det du ser)",
    hint_thinking: "Tenker på et tips…", hints_on: "Tips slått på", hints_off: "Tips er slått av ved dette bordet",
    hint_suggested: "foreslått", hints_setting: "Tillat tips", chance: "vinnersjanse", chance_h: "Sjanse",
    review: "Gjennomgang", review_of: "Gjennomgang", review_title: "Gjennomgang av spillet", move_no: "Trekk", played: "Spilt", best: "Best",
    loss: "Tap", verdict: "Vurdering", reviewing: "Går gjennom", review_done: "avgjørelser gjennomgått",
    review_failed: "Gjennomgangen mislyktes", review_seat: "Avgjørelsene til", forced: "tvunget", best_move: "best",
    good: "bra", inaccuracy: "unøyaktighet", mistake: "feil", blunder: "tabbe",
    review_summary: "Tabber {b}, feil {m}, unøyaktigheter {i} i {n} avgjørelser.",
    review_explain: "For hver avgjørelse: trekket som ble spilt, søkets beste trekk og anslått tap i vinnersjanse, regnet ut bare fra det denne plassen kunne se.",
    not_over: "En gjennomgang lages når spillet er slutt.", back_to_table: "Bord", replay: "Spill av igjen",
  },
};

export function ht(key) {
  return (TEXTS[lang()] || TEXTS.en)[key] ?? TEXTS.en[key] ?? key;
}

// A chance of winning as a whole percentage.
export function pct(x) { return `${Math.round(100 * x)}%`; }
