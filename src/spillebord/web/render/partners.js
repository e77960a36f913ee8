// Partners: the ring track (start fields, numbered squares in each colour's segment), the houses
// running inwards from each start field, the start circles outside the ring, the four players
// with their hands as backs, the played cards, and this seat's hand and exchange (bytte kort).
// The board is turned so that the seat's own colour sits at the bottom. Click a card, then the
// piece's square (or start circle) and the square to move it to; the action list narrows.
import { h, s, svg } from "../dom.js";
import { t } from "../i18n.js";
import { ui, uif } from "../gametext.js";

// The card types of the deck (games/partners/data.py): symbol, English and Danish names, start card.
const CARD_TYPES = {
  HEART: ["♥", "heart (start card)", "hjertekort (startkort)", 1], A114: ["1/14", "1/14", "1/14-kortet", 0],
  N2: ["2", "2", "2", 0], N3: ["3", "3", "3", 0], M4: ["-4", "-4 (four backwards)", "-4 (4 baglæns)", 0],
  N5: ["5", "5", "5", 0], N6: ["6", "6", "6", 0], S7: ["7", "7 (split card)", "7 (delekort)", 0],
  H8: ["8♥", "8 with heart", "8 med hjerte", 1], N9: ["9", "9", "9", 0], N10: ["10", "10", "10", 0],
  N12: ["12", "12", "12", 0], H13: ["13♥", "13 with heart", "13 med hjerte", 1], SWAP: ["⇄", "swap card", "byttekort", 0],
};
const LETTERS = ["Y", "R", "B", "G"];
const FILL = { yellow: "#f2c913", red: "#d64541", blue: "#3b6fd1", green: "#2e9e52" };
const PALE = { yellow: "#fbf0b8", red: "#f4c6c1", blue: "#c6d6f4", green: "#c2e6cc" };
const DARK = { yellow: "#8a6f00", red: "#7a1f1a", blue: "#1d3c7a", green: "#16552b" };

const W = 620;
const C = W / 2;
const R = 196;

function colourName(c) {
  return ui(c, c);
}

function seatName(v, ctx, k) {
  const person = v.controllers ? v.controllers[k] : k;
  const p = ctx.players[person];
  const n = ctx.name ? ctx.name(person) : (p && (p.name || (p.bot ? `${p.bot} bot` : null))) || uif("seat", "seat {n}", { n: person });
  return ctx.seat === person ? `${n} (${t("you")})` : n;
}

function clickAttrs(ctx, id) {
  const c = ctx.clickable(id);
  return {
    class: `${c ? "clickable" : ""}${ctx.selected(id) ? " selected" : ""}`.trim() || null,
    "data-id": c ? id : null, "data-ref": id, tabindex: c ? 0 : null, role: c ? "button" : null,
  };
}

function piece(x, y, colour, r = 7, label = null) {
  const g = s("g", { "pointer-events": "none" });
  g.append(s("circle", { cx: x, cy: y + 1.2, r, fill: "rgba(0,0,0,.35)" }));
  g.append(s("circle", { cx: x, cy: y, r, fill: FILL[colour], stroke: DARK[colour], "stroke-width": 1.5 }));
  g.append(s("circle", { cx: x - r * 0.3, cy: y - r * 0.3, r: r * 0.3, fill: "rgba(255,255,255,.45)" }));
  if (label) g.append(s("text", { x, y: y + 3.5, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#fff" }, label));
  return g;
}

// One Partners card: its symbol large, its name small; start cards carry a red heart.
function pcard(x, y, code, opts = {}) {
  const t = CARD_TYPES[code] || [code, code, code, 0];
  const w = opts.small ? 34 : 54;
  const hh = opts.small ? 48 : 78;
  const id = opts.id === undefined ? code : opts.id;
  const click = opts.ctx && id && opts.ctx.clickable(id);
  const sel = opts.ctx && id && opts.ctx.selected(id);
  const g = s("g", {
    transform: `translate(${x},${y})`,
    class: ["card", click ? "clickable" : "", sel ? "selected" : ""].join(" ").trim(),
    "data-id": click ? id : null, "data-ref": id, tabindex: click ? 0 : null, role: click ? "button" : null,
    "aria-label": ui(`card_${code}`, t[1]),
  });
  g.append(s("rect", { width: w, height: hh, rx: 5, class: "card-face" }));
  const red = t[3] ? "#c0392b" : "#1d2327";
  const sym = t[0];
  const size = opts.small ? (sym.length > 2 ? 11 : 16) : sym.length > 3 ? 16 : sym.length > 2 ? 19 : 26;
  g.append(s("text", { x: w / 2, y: hh / 2 + size / 3, "text-anchor": "middle", "font-size": size, "font-weight": 700,
    fill: red, "font-family": "DejaVu Serif, Georgia, serif" }, sym));
  if (!opts.small) {
    g.append(s("text", { x: 4, y: 12, "font-size": 9, "font-weight": 700, fill: red }, sym));
    const label = code === "S7" ? ui("split", "split") : code === "M4" ? ui("back", "back") : code === "SWAP" ? ui("swap", "swap")
      : t[3] ? ui("start", "start") : "";
    if (label) g.append(s("text", { x: w / 2, y: hh - 7, "text-anchor": "middle", "font-size": 8.5, fill: "#555" }, label));
  }
  g.append(s("title", {}, ui(`card_${code}`, t[1])));
  return g;
}

function backCard(x, y, small = true) {
  const w = small ? 22 : 34;
  const hh = small ? 31 : 48;
  const g = s("g", { transform: `translate(${x},${y})` });
  g.append(s("rect", { width: w, height: hh, rx: 3, class: "card-back" }));
  g.append(s("rect", { x: 3, y: 3, width: w - 6, height: hh - 6, rx: 2, class: "card-back-inner" }));
  return g;
}

export function render(v, ctx) {
  const n = v.fields_per_segment || 14;
  const seg = n + 1;
  const total = 4 * seg;
  const colours = v.colours || ["yellow", "red", "blue", "green"];
  const me = v.colour_seat ?? 0;
  const step = 360 / total;
  // The start field of colour c; the board turns so that the seat's own colour is at the bottom.
  const base = (c) => 90 + (((c - me) % 4) + 4) % 4 * 90 - (seg / 2) * step + step / 2;
  const ang = (c, k) => ((base(c) + k * step) * Math.PI) / 180;
  const at = (a, r) => [C + r * Math.cos(a), C + r * Math.sin(a)];
  const items = [];
  items.push(s("rect", { x: 0, y: 0, width: W, height: W, rx: 18, fill: "#f3ead2", stroke: "#8c7a4f", "stroke-width": 3 }));
  items.push(s("circle", { cx: C, cy: C, r: R + 16, fill: "none", stroke: "#d9caa2", "stroke-width": 2 }));
  items.push(s("circle", { cx: C, cy: C, r: R - 16, fill: "#efe3c4", stroke: "#d9caa2", "stroke-width": 2 }));
  // Whose pieces are where.
  const track = v.track || {};
  const sqR = Math.min(9.5, (Math.PI * R) / total - 0.6);
  for (let c = 0; c < 4; c++) {
    const col = colours[c];
    for (let k = 0; k < seg; k++) {
      const id = k === 0 ? `${LETTERS[c]}S` : `${LETTERS[c]}${k}`;
      const [x, y] = at(ang(c, k), R);
      const g = s("g", clickAttrs(ctx, id));
      const click = ctx.clickable(id);
      const sel = ctx.selected(id);
      const r = k === 0 ? sqR + 3.5 : sqR;
      g.append(s("circle", { cx: x, cy: y, r: click ? r + 1.5 : r, class: "cell",
        fill: sel ? "#ffd977" : k === 0 ? FILL[col] : PALE[col],
        stroke: click ? "#d98e04" : DARK[col], "stroke-width": click ? 3 : 1 }));
      if (!track[id]) {
        g.append(s("text", { x, y: y + 3.2, "text-anchor": "middle", "font-size": k === 0 ? 8.5 : 8.5, "font-weight": 700,
          fill: k === 0 ? "#fff" : DARK[col], "pointer-events": "none" }, k === 0 ? "S" : String(k)));
      } else {
        const [pc, cnt] = track[id];
        g.append(piece(x, y, pc, sqR - 1.5, cnt > 1 ? String(cnt) : null));
      }
      g.append(s("title", {}, k === 0 ? uif("start_field", "{id}: {colour} start field", { id, colour: colourName(col) }) : uif("square", "{id}: square {k} of the {colour} segment", { id, k, colour: colourName(col) })));
      items.push(g);
    }
    // The house: four circles running inwards from the start field.
    const a0 = ang(c, 0);
    const house = (v.houses && v.houses[col]) || [false, false, false, false];
    const [sx, sy] = at(a0, R);
    const [ex, ey] = at(a0, R - 34 - 26 * (house.length - 1));
    items.splice(3, 0, s("line", { x1: sx, y1: sy, x2: ex, y2: ey, stroke: DARK[col], "stroke-width": 3, opacity: 0.5, "pointer-events": "none" }));
    house.forEach((full, k) => {
      const id = `${LETTERS[c]}H${k + 1}`;
      const [x, y] = at(a0, R - 34 - 26 * k);
      const g = s("g", clickAttrs(ctx, id));
      const click = ctx.clickable(id);
      g.append(s("circle", { cx: x, cy: y, r: 10, class: "cell", fill: ctx.selected(id) ? "#ffd977" : "#fffaf0",
        stroke: click ? "#d98e04" : FILL[col], "stroke-width": click ? 3 : 2.5 }));
      if (full) g.append(piece(x, y, col, 7.5));
      else g.append(s("text", { x, y: y + 3, "text-anchor": "middle", "font-size": 8, fill: DARK[col], "pointer-events": "none" }, `H${k + 1}`));
      g.append(s("title", {}, uif("house_circle", "{id}: {colour} house, circle {k}", { id, colour: colourName(col), k: k + 1 })));
      items.push(g);
    });
    // The start circle, outside the ring just before the start field.
    const ac = a0 - (step * Math.max(2.2, seg / 5) * Math.PI) / 180;
    const [cx, cy] = at(ac, R + 44);
    const cid = `${LETTERS[c]}C`;
    const cg = s("g", clickAttrs(ctx, cid));
    const cclick = ctx.clickable(cid);
    cg.append(s("circle", { cx, cy, r: 24, class: "cell", fill: ctx.selected(cid) ? "#ffd977" : PALE[col],
      stroke: cclick ? "#d98e04" : FILL[col], "stroke-width": cclick ? 3.5 : 2.5, "stroke-dasharray": "4 2" }));
    const inCircle = (v.circles && v.circles[col]) || 0;
    const spots = [[-8, -8], [8, -8], [-8, 8], [8, 8]];
    for (let k = 0; k < Math.min(inCircle, 4); k++) cg.append(piece(cx + spots[k][0], cy + spots[k][1], col, 7));
    cg.append(s("title", {}, uif("start_circle", "{id}: {colour} start circle, {n} piece(s)", { id: cid, colour: colourName(col), n: inCircle })));
    items.push(cg);
    // The player of this colour, in the board's corner beside its segment.
    // Sides: 0 bottom, 1 left, 2 top, 3 right (the board turns with the seat).
    const side = (((c - me) % 4) + 4) % 4;
    const turn = v.turn === c && v.result == null;
    const anchor = side === 1 ? "start" : side === 3 ? "end" : "middle";
    const bx = side === 1 ? 10 : side === 3 ? W - 10 : C;
    const by = side === 0 ? W - 62 : side === 2 ? 20 : C - 24;
    items.push(s("text", { x: bx, y: by, "text-anchor": anchor, "font-size": 13, "font-weight": turn ? 700 : 400, fill: "#222" },
      `${turn ? "▶ " : ""}${seatName(v, ctx, c)}`));
    const info = [colourName(col)];
    if (v.dealer === c) info.push(ui("dealer", "dealer"));
    if (v.phase === "exchange" && v.committed && v.committed[c]) info.push(`${ui("card_given", "card given")} ✓`);
    if (v.sat_out && v.sat_out[c]) info.push(ui("laid_down", "hand laid down"));
    // On the left and right sides, one fact per line (the ring is close).
    const lines = side === 1 || side === 3 ? info : [info.join(" · ")];
    lines.forEach((line, j) => items.push(s("text", { x: bx, y: by + 14 + 12 * j, "text-anchor": anchor, "font-size": 10.5, fill: DARK[col] }, line)));
    const nh = (v.hand_sizes && v.hand_sizes[c]) || 0;
    const startX = anchor === "start" ? bx : anchor === "end" ? bx - nh * 9 - 13 : bx - (nh * 9 + 13) / 2;
    for (let k = 0; k < nh; k++) items.push(backCard(startX + k * 9, by + 8 + 12 * lines.length, true));
  }
  // The middle: the deck and the last card played.
  items.push(s("g", {}, backCard(C - 46, C - 24, false)));
  items.push(s("text", { x: C - 29, y: C + 38, "text-anchor": "middle", "font-size": 10, fill: "#333" }, `${v.deck_size ?? 0} ${ui("cards", "cards")}`));
  const disc = v.discard || [];
  if (disc.length) items.push(pcard(C + 8, C - 24, disc[disc.length - 1], { small: true, id: null }));
  items.push(s("text", { x: C + 25, y: C + 50, "text-anchor": "middle", "font-size": 10, fill: "#333" }, ui("played", "played")));
  if (v.phase === "split") {
    items.push(s("text", { x: C, y: C - 34, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#7a1f1a" },
      uif("split_left", "7 split: {n} left", { n: v.split_left })));
  }
  const board = svg(W, W, { class: "partners-board", style: "max-width: 640px" }, ...items);

  // The seat's hand(s) and the exchange.
  const hands = [];
  const mine = v.hands ? Object.keys(v.hands).map(Number) : v.hand ? [me] : [];
  for (const k of mine) {
    const priv = v.hands ? v.hands[String(k)] : v;
    const cards = priv.hand || [];
    const active = k === v.turn;
    const hi = [];
    cards.forEach((code, j) => hi.push(pcard(8 + j * 62, 26, code, { ctx: active ? ctx : null, id: active ? code : null })));
    let x = 8 + Math.max(cards.length, 1) * 62 + 14;
    const note = (label, code) => {
      hi.push(s("text", { x, y: 40, "font-size": 11, fill: "#fff" }, label));
      hi.push(pcard(x, 46, code, { small: true, id: null }));
      x += 92;
    };
    if (priv.giving) note(ui("giving", "giving"), priv.giving);
    if (priv.gave) note(ui("gave", "gave"), priv.gave);
    if (priv.received) note(ui("received", "received"), priv.received);
    const col = colours[k];
    const title = `${colourName(col)}: ${seatName(v, ctx, k)} · ${ui("hand", "hand")}` +
      (v.phase === "exchange" && active ? ` — ${ui("give_partner", "give a card to your partner")} (${colourName(colours[(k + 2) % 4])})` : "");
    hi.unshift(s("text", { x: 8, y: 16, "font-size": 13, "font-weight": 700, fill: "#fff" }, title));
    hi.unshift(s("rect", { x: 0, y: 0, width: 5, height: 110, fill: FILL[col] }));
    hands.push(svg(Math.max(x + 10, 330), 112, { class: "partners-hand", style: `max-width: ${Math.max(x + 10, 330) * 1.1}px; margin: .4rem 0 0` }, ...hi));
  }
  if (!mine.length) hands.push(h("p", { class: "muted", style: "color:#fff" }, ui("spectating", "spectating: hands are hidden")));

  // Side facts: phase, deals, partnerships, the played cards.
  const phaseName = v.result != null ? ui("game_over", "game over") : { exchange: ui("exchange", "exchange"), play: ui("play", "play"), split: ui("split7", "split 7") }[v.phase] || v.phase;
  const teams = (v.partnerships || [[0, 2], [1, 3]]).map((t) => {
    const home = t.reduce((acc, c) => acc + ((v.houses && v.houses[colours[c]]) || []).filter(Boolean).length, 0);
    return h("tr", {}, h("td", {}, ...t.map((c) => h("span", { style: `display:inline-block;width:10px;height:10px;border-radius:50%;background:${FILL[colours[c]]};margin-right:3px` })),
      t.map((c) => colourName(colours[c])).join(" + ")),
      h("td", { class: "num" }, uif("in_house", "{n} in the house", { n: home })),
      h("td", {}, v.winner && v.winner.length && t.includes(v.winner[0]) ? h("b", { style: "color:#ffd977" }, `★ ${ui("won", "won")}`) : ""));
  });
  const pw = Math.max(disc.slice(-10).length, 1) * 38 + 4;
  const played = svg(pw, 52, { width: pw, style: "max-width: 100%; display:block; margin:0" },
    ...disc.slice(-10).map((code, j) => pcard(2 + j * 38, 2, code, { small: true, id: null })));
  const facts = h("div", { style: "display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:flex-start;margin-top:.4rem;font-size:.9rem" },
    h("div", {},
      h("div", {}, h("b", {}, phaseName), v.phase === "split" ? ` · ${uif("steps_left", "{n} steps left", { n: v.split_left })}` : ""),
      h("div", {}, uif("deals", "dealer: {colour} · deal {k} of 3 · {n} deals", { colour: colourName(colours[v.dealer ?? 0]), k: v.deal_in_cycle, n: v.deals })),
      h("div", {}, uif("deck", "deck: {n} cards", { n: v.deck_size }))),
    h("table", { class: "scores" }, ...teams),
    h("div", {}, h("div", {}, uif("played_last", "played (last {k} of {n})", { k: Math.min(10, disc.length), n: disc.length })), played));
  return h("div", { class: "partners-wrap" }, board, ...hands, facts);
}
