// Revir: the farm Tviksta Gård as a map of squares (territory colours, owners' flags, rat
// profiles, doors open or shut, the house and the barn), the cats on it, the card clock
// (kortklockan) with the card turned up this turn, every player's stones and territories, and a
// fight panel with the hidden bid. Click a square to move there (or to fight / hunt on it);
// in a fight click a stone count to bid it, or the white flag to give up.
import { h, s, svg } from "../dom.js";
import { t as tx } from "../i18n.js";
import { ui, uif } from "../gametext.js";

const TERR = { ROD: "#d64541", GUL: "#e8b923", GRON: "#4f9e43", BLA: "#3c78c8", LILA: "#8e55ad" };
const TERR_LIGHT = { ROD: "#f2b8b4", GUL: "#f8e6a3", GRON: "#bfe0b5", BLA: "#b9d0ef", LILA: "#dcc5e6" };
// Cat fur colours per seat (also the owner flags).
const FUR = ["#e9882a", "#2b2b2b", "#f7f4ee", "#8f9ba3"];
const FUR_INK = ["#fff", "#fff", "#111", "#111"];
const CARD_COL = { permit: "#2b7a9b", happen: "#3d8c4a", once: "#b7791f" };
const CELL_W = 100;
const CELL_H = 74;

function name(ctx, i) {
  if (ctx.name) return ctx.name(i);
  const p = ctx.players[i];
  return (p && (p.name || (p.bot ? `${p.bot} bot` : null))) || `P${i + 1}`;
}

function legalText(ctx, text) {
  return ctx.legal.some((a) => a.text === text);
}

// A cat: a round head with two ears, in the seat's fur colour, with its seat number.
function cat(x, y, seat, r = 11) {
  const f = FUR[seat % 4];
  return s("g", { class: "cat", "aria-label": uif("cat_of", "cat of P{n}", { n: seat + 1 }), "pointer-events": "none" },
    s("polygon", { points: `${x - r * 0.95},${y - r * 0.2} ${x - r * 0.75},${y - r * 1.35} ${x - r * 0.15},${y - r * 0.8}`, fill: f, stroke: "#000", "stroke-width": 1 }),
    s("polygon", { points: `${x + r * 0.95},${y - r * 0.2} ${x + r * 0.75},${y - r * 1.35} ${x + r * 0.15},${y - r * 0.8}`, fill: f, stroke: "#000", "stroke-width": 1 }),
    s("circle", { cx: x, cy: y, r, fill: f, stroke: "#000", "stroke-width": 1 }),
    s("text", { x, y: y + 4, "text-anchor": "middle", "font-size": r, "font-weight": 700, fill: FUR_INK[seat % 4] }, String(seat + 1)));
}

function stone(x, y, r = 6) {
  return s("circle", { cx: x, cy: y, r, fill: "#9aa5ad", stroke: "#4d575e", "stroke-width": 1 });
}

function wrapWords(text, max) {
  const lines = [];
  let cur = "";
  for (const w of text.split(/\s+/)) {
    if (cur && (cur + " " + w).length > max) { lines.push(cur); cur = w; } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines;
}

function farm(v, ctx) {
  const b = v.board;
  const sq = Object.fromEntries(b.squares.map((q) => [q.id, q]));
  const cols = 1 + Math.max(...b.squares.map((q) => q.x));
  const rows = 1 + Math.max(...b.squares.map((q) => q.y));
  const X0 = 8;
  const Y0 = 26;
  const cx = (q) => X0 + q.x * CELL_W + CELL_W / 2;
  const cy = (q) => Y0 + q.y * CELL_H + CELL_H / 2;
  const W = X0 * 2 + cols * CELL_W;
  const H = Y0 + rows * CELL_H + 8;
  const items = [];
  const me = v.seat;
  const open = new Set(v.effects.doors_open);
  const hunt = new Set(v.effects.hunt);
  items.push(s("rect", { x: 0, y: 0, width: W, height: H, rx: 10, fill: "#7fa35a" }));
  items.push(s("text", { x: 10, y: 18, class: "panel-title" },
    `${b.name} · ${ui("turn", "turn")} ${v.turn}${v.max_turns ? `/${v.max_turns}` : ""} · ` +
    (v.winners ? ui("game_over", "game over") : v.phase === "move" ? ui("move", "move")
      : v.phase === "act" ? `${ui("fight_act", "fight")} / ${ui("hunt", "hunt")}`
      : v.phase === "bid" ? ui("fight", "Fight") : v.phase) +
    (v.to_act != null ? ` · ▶ ${name(ctx, v.to_act)}` : "")));
  // The buildings behind their squares.
  for (const [bid, label] of [["house", ui("house", "house")], ["barn", ui("barn", "barn")]]) {
    const qs = b.squares.filter((q) => q.building === bid);
    if (!qs.length) continue;
    const x1 = Math.min(...qs.map((q) => q.x)), x2 = Math.max(...qs.map((q) => q.x));
    const y1 = Math.min(...qs.map((q) => q.y)), y2 = Math.max(...qs.map((q) => q.y));
    items.push(s("rect", { x: X0 + x1 * CELL_W + 1, y: Y0 + y1 * CELL_H + 1, width: (x2 - x1 + 1) * CELL_W - 2,
      height: (y2 - y1 + 1) * CELL_H - 2, rx: 6, fill: bid === "barn" ? "#7a3b2e" : "#5b5f6b", stroke: "#2d2016", "stroke-width": 3 }));
    items.push(s("text", { x: X0 + x1 * CELL_W + 6, y: Y0 + (y2 + 1) * CELL_H - 5, fill: "#f3e9d2", "font-size": 10, "font-style": "italic" }, label));
  }
  // Paths between squares; doors on theirs.
  const doorOf = {};
  for (const d of b.doors) doorOf[[...d.edge].sort().join("-")] = d;
  for (const [a, c] of b.edges) {
    const p = sq[a], q = sq[c];
    items.push(s("line", { x1: cx(p), y1: cy(p), x2: cx(q), y2: cy(q), stroke: "#e9dcb8", "stroke-width": 7, "stroke-linecap": "round", opacity: 0.9 }));
  }
  for (const d of b.doors) {
    const p = sq[d.edge[0]], q = sq[d.edge[1]];
    const isOpen = open.has(d.id);
    const mx = (cx(p) + cx(q)) / 2, my = (cy(p) + cy(q)) / 2;
    items.push(s("line", { x1: cx(p), y1: cy(p), x2: cx(q), y2: cy(q), stroke: isOpen ? "#e9dcb8" : "#6b4a2b",
      "stroke-width": 7, "stroke-dasharray": isOpen ? null : "4 3" }));
    items.push(s("g", {}, s("title", {}, `${d.sv}: ${isOpen ? ui("open", "open") : ui("shut", "shut")}`),
      s("rect", { x: mx - 14, y: my - 9, width: 28, height: 18, rx: 3, fill: isOpen ? "#3fae5a" : "#a8322a", stroke: "#222" }),
      s("text", { x: mx, y: my + 4, "text-anchor": "middle", "font-size": 10, fill: "#fff", "font-weight": 700 }, isOpen ? ui("open", "open") : ui("shut", "shut"))));
  }
  // The squares.
  const catsOn = {};
  v.cats.forEach((q, i) => (catsOn[q] = catsOn[q] || []).push(i));
  const myCat = me != null ? v.cats[me] : null;
  const stay = legalText(ctx, "stay");
  for (const q of b.squares) {
    const x = X0 + q.x * CELL_W + 6, y = Y0 + q.y * CELL_H + 6, w = CELL_W - 12, hh = CELL_H - 12;
    const click = ctx.clickable(q.id);
    const stayHere = !click && stay && q.id === myCat;
    const g = s("g", {
      class: `square${click || stayHere ? " clickable" : ""}${ctx.selected(q.id) ? " selected" : ""}`,
      "data-id": click ? q.id : null, "data-ref": q.id, tabindex: click || stayHere ? 0 : null, role: click || stayHere ? "button" : null,
      "aria-label": `${q.sv} (${q.id})`,
      onclick: stayHere ? () => ctx.act("stay") : null,
    });
    g.append(s("title", {}, `${q.sv}${q.colour ? ` · ${q.colour} · ${ui("rats", "rats")} ${q.profile}` : ""}${v.owner[q.id] != null ? ` · ${name(ctx, v.owner[q.id])}` : ""}${stayHere ? ` · ${ui("click_stay", "click to stay")}` : ""}`));
    const fill = q.colour ? TERR_LIGHT[q.colour] : q.indoor ? "#cbbba4" : "#e4d7b5";
    g.append(s("rect", { x, y, width: w, height: hh, rx: 6, class: "cell", fill, stroke: q.colour ? TERR[q.colour] : "#7d6b51", "stroke-width": 2 }));
    if (q.colour) g.append(s("rect", { x, y, width: 7, height: hh, rx: 3, fill: TERR[q.colour] }));
    if (hunt.has(q.id)) {
      g.append(s("rect", { x: x + 3, y: y + 3, width: w - 6, height: hh - 6, rx: 4, fill: "none", stroke: "#5a3b1a", "stroke-width": 1.5, "stroke-dasharray": "2 3" }));
    }
    g.append(s("text", { x: x + 11, y: y + 18, "font-size": 17, "font-weight": 700, fill: "#222" }, q.id));
    // The room's name, cut to the room's width left of the rat-size circle (never under it).
    const room = Math.floor((w - (q.profile ? 36 : 16)) / 5.9);
    g.append(s("text", { x: x + 11, y: y + hh - 5, "font-size": 10, fill: "#333" }, q.sv.length > room ? q.sv.slice(0, room - 1) + "…" : q.sv));
    if (q.profile) {
      // The rat profile: a rat's size S, M or L in a little circle.
      g.append(s("circle", { cx: x + w - 11, cy: y + hh - 11, r: 8, fill: "#fff", stroke: "#5a3b1a" }));
      g.append(s("text", { x: x + w - 11, y: y + hh - 7.5, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#5a3b1a" }, q.profile));
    }
    const o = v.owner[q.id];
    if (o != null) {
      // The owner's flag.
      g.append(s("rect", { x: x + w - 30, y: y + 3, width: 27, height: 16, rx: 3, fill: FUR[o % 4], stroke: "#000", "stroke-width": 1 }));
      g.append(s("text", { x: x + w - 16.5, y: y + 15, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: FUR_INK[o % 4] }, `P${o + 1}`));
    }
    items.push(g);
  }
  // Cats on top.
  for (const [q, seats] of Object.entries(catsOn)) {
    const p = sq[q];
    if (!p) continue;
    seats.forEach((seat, k) => {
      const ox = (k - (seats.length - 1) / 2) * 22;
      items.push(cat(cx(p) + ox, cy(p) + 6, seat, seat === v.to_act ? 12 : 10));
    });
  }
  return svg(W, H, { class: "revir-farm", style: "max-width: 760px" }, ...items);
}

function clock(v) {
  const c = v.clock;
  const cards = v.board.cards;
  const k = c.size;
  const cw = 92, ch = 54;
  // The smallest radius (from 128) at which neighbouring cards keep apart, across or down.
  let R = 128;
  const apart = (r) => [...Array(k).keys()].every((i) => {
    const a1 = -Math.PI / 2 + (2 * Math.PI * i) / k, a2 = a1 + (2 * Math.PI) / k;
    return Math.abs(r * (Math.cos(a1) - Math.cos(a2))) >= cw + 6 || Math.abs(r * (Math.sin(a1) - Math.sin(a2))) >= ch + 14;
  });
  while (!apart(R) && R < 600) R += 4;
  const W = 2 * R + cw + 16;
  const H = 2 * R + ch + 40;
  const ox = W / 2, oy = H / 2 + 10;
  const items = [];
  items.push(s("text", { x: 6, y: 16, class: "panel-title" }, ui("card_clock", "Card clock")));
  items.push(s("circle", { cx: ox, cy: oy, r: R, fill: "none", stroke: "#ffffff55", "stroke-width": 2, "stroke-dasharray": "4 4" }));
  // The pile in the middle.
  for (let i = 2; i >= 0; i--) {
    items.push(s("rect", { x: ox - 26 + i * 3, y: oy - 36 + i * 3, width: 52, height: 66, rx: 5, class: "card-back" }));
  }
  items.push(s("text", { x: ox + 3, y: oy + 4, "text-anchor": "middle", fill: "#fff", "font-size": 13, "font-weight": 700 }, `${c.pile_size}`));
  items.push(s("text", { x: ox + 3, y: oy + 44, "text-anchor": "middle", fill: "#fff", "font-size": 10 }, ui("pile", "pile")));
  c.positions.forEach((id, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / k;
    const x = ox + R * Math.cos(a) - cw / 2, y = oy + R * Math.sin(a) - ch / 2;
    const isNew = i === c.new_position && id != null;
    if (id == null) {
      items.push(s("rect", { x, y, width: cw, height: ch, rx: 5, fill: "none", stroke: "#ffffff66", "stroke-dasharray": "3 3" }));
      items.push(s("text", { x: x + cw / 2, y: y + ch / 2 + 4, "text-anchor": "middle", fill: "#ffffff88", "font-size": 10 }, String(i + 1)));
      return;
    }
    const card = cards[id] || { sv: id, en: "", type: "permit", text: "" };
    const spent = card.type === "once" && !isNew;
    const g = s("g", { opacity: spent ? 0.55 : 1 }, s("title", {}, `${id} ${card.sv}${spent ? ` (${ui("spent", "spent")})` : ""}`));
    g.append(s("rect", { x, y, width: cw, height: ch, rx: 5, fill: "#fffdf7", stroke: isNew ? "#ffd977" : "#333", "stroke-width": isNew ? 4 : 1 }));
    g.append(s("rect", { x, y, width: cw, height: 12, rx: 5, fill: CARD_COL[card.type] || "#555" }));
    g.append(s("text", { x: x + 4, y: y + 9.5, "font-size": 8, fill: "#fff", "font-weight": 700 },
      `${id} · ${ui(`type_${card.type}`, card.type)}`));
    const words = card.sv.replace(/^Råttspår: .*/, "Råttspår");
    wrapWords(words, 17).slice(0, 2).forEach((ln, j) => g.append(s("text", { x: x + 4, y: y + 24 + j * 11, "font-size": 9.5, "font-weight": 700, fill: "#222" }, ln)));
    const detail = card.sv.startsWith("Råttspår") ? card.text.replace("Rat hunting allowed on ", "") : ui(`card_${card.en.toLowerCase().replace(/[^a-z]+/g, "_")}`, card.en);
    g.append(s("text", { x: x + 4, y: y + ch - 5, "font-size": 8, fill: "#555" }, detail.length > 22 ? detail.slice(0, 21) + "…" : detail));
    items.push(g);
    if (isNew) items.push(s("text", { x: x + cw / 2, y: y - 4, "text-anchor": "middle", fill: "#ffd977", "font-size": 10, "font-weight": 700 }, `▼ ${ui("new", "new")}`));
  });
  return svg(W, H, { class: "revir-clock", style: "max-width: 380px" }, ...items);
}

function effectsLine(v) {
  const e = v.effects;
  const bits = [];
  bits.push(`${ui("doors", "doors")}: ${v.board.doors.map((d) => `${d.sv} ${e.doors_open.includes(d.id) ? ui("open", "open") : ui("shut", "shut")}`).join(", ")}`);
  if (e.hunt.length) bits.push(`${ui("rat_tracks", "rat tracks")}: ${e.hunt.join(" ")}`);
  if (e.fat) bits.push(`${ui("fat_rats", "fat rats")} +${e.fat}`);
  if (e.double) bits.push(ui("big_catch", "big catch"));
  if (e.free_move) bits.push(ui("moving_is_free", "moving is free"));
  if (e.nest) bits.push(ui("rat_nest", "rat nest"));
  if (e.happen.length) bits.push(`${ui("happenings", "happenings")}: ${e.happen.map((c) => (v.board.cards[c] || {}).sv || c).join(", ")}`);
  return h("p", { class: "revir-effects", style: "margin:.3rem 0;font-size:.85rem" }, bits.join(" · "));
}

function players(v, ctx) {
  // Every player: cat, name, stones, and per colour series the territories held (filled boxes).
  const colours = v.board.colours;
  const colourOf = Object.fromEntries(v.board.squares.map((q) => [q.id, q.colour]));
  const size = {};
  for (const q of v.board.squares) if (q.colour) size[q.colour] = (size[q.colour] || 0) + 1;
  const W = 420, RH = 24, X = 186, CW = 46;
  const items = [];
  items.push(s("text", { x: 4, y: 14, class: "svg-label svg-small" }, ui("player", "player")));
  items.push(s("text", { x: 168, y: 14, "text-anchor": "end", class: "svg-label svg-small" }, s("title", {}, ui("stones", "stones")), ui("stones", "stones")));
  colours.forEach((c, k) => items.push(s("text", { x: X + k * CW, y: 14, fill: TERR[c.id], "font-size": 10, "font-weight": 700 }, s("title", {}, c.sv), c.sv)));
  v.cats.forEach((q, i) => {
    const y = 22 + i * RH;
    const terr = v.territories[i];
    if (i === v.to_act) items.push(s("rect", { x: 0, y, width: W, height: RH - 2, rx: 4, fill: "#ffffff1a" }));
    items.push(cat(14, y + 13, i, 8));
    const won = v.winners && v.winners.includes(i);
    items.push(s("text", { x: 28, y: y + 16, fill: won ? "#ffd977" : "#fff", "font-size": 12, "font-weight": i === v.to_act || won ? 700 : 400 },
      `${i === v.to_act ? "▶ " : ""}${name(ctx, i)}${i === v.seat ? ` (${tx("you")})` : ""}`.slice(0, 15) + (won ? " ★" : "")));
    items.push(stone(163, y + 11, 5));
    items.push(s("text", { x: 154, y: y + 16, "text-anchor": "end", fill: "#fff", "font-size": 12, "font-weight": 700 }, v.stones[i] == null ? "?" : String(v.stones[i])));
    colours.forEach((c, k) => {
      const held = terr.filter((tq) => colourOf[tq] === c.id);
      const g = s("g", {}, s("title", {}, `${c.sv}: ${held.join(" ") || "—"}`));
      for (let j = 0; j < (size[c.id] || 0); j++) {
        g.append(s("rect", { x: X + k * CW + j * 9, y: y + 7, width: 7, height: 9, rx: 1, fill: j < held.length ? TERR[c.id] : "none", stroke: TERR[c.id] }));
      }
      items.push(g);
    });
  });
  const by = 22 + v.cats.length * RH + 14;
  items.push(s("text", { x: 4, y: by, class: "svg-label svg-small" },
    `${ui("bank", "bank")}: ${v.bank == null ? "?" : v.bank} · ${ui("series", "series")}: ${uif("series_wins", "{n} of one colour wins", { n: v.series_needed })}`));
  return svg(W, by + 6, { class: "revir-players", style: `max-width:${W}px` }, ...items);
}

function fightPanel(v, ctx) {
  const f = v.fight;
  if (!f) return null;
  const W = 460;
  const sqs = Object.fromEntries(v.board.squares.map((q) => [q.id, q]));
  const terr = sqs[f.territory];
  const items = [];
  items.push(s("rect", { x: 0, y: 0, width: W, height: 10, fill: "none" }));
  items.push(s("text", { x: 6, y: 16, class: "panel-title" },
    `${ui("fight", "Fight")} · ${f.territory} ${terr ? terr.sv : ""} · ${ui("round", "round")} ${f.round}`));
  const side = (who, seat, x, k) => {
    items.push(cat(x + 16, 44, seat, 13));
    items.push(s("text", { x: x + 36, y: 40, fill: "#fff", "font-size": 11, "font-weight": 700 }, who));
    items.push(s("text", { x: x + 36, y: 54, fill: "#fff", "font-size": 11 }, `P${seat + 1} ${name(ctx, seat)}`.slice(0, 24)));
    for (let j = 0; j < v.hits_to_win; j++) {
      items.push(s("circle", { cx: x + 10 + j * 17, cy: 76, r: 7, fill: j < f.hits[k] ? "#ffd977" : "none", stroke: "#ffd977", "stroke-width": 1.5 }));
    }
    items.push(s("text", { x: x + 10 + v.hits_to_win * 17, y: 80, fill: "#fff", "font-size": 10 }, ui("hits", "hits")));
    items.push(stone(x + 10, 98));
    items.push(s("text", { x: x + 20, y: 102, fill: "#fff", "font-size": 11 },
      `${f.committed[k]} ${ui("bet", "bet")} · ${f.available[k] == null ? "?" : f.available[k]} ${ui("left", "left")}`));
  };
  side(ui("attacker", "attacker"), f.attacker, 6, 0);
  side(ui("defender", "defender"), f.defender, W / 2 + 6, 1);
  // This round's hands: the attacker's closed hand hides the bid.
  let y = 126;
  const hand = (x, label, text, hidden) => {
    items.push(s("rect", { x, y, width: 60, height: 30, rx: 14, fill: hidden ? "#5b4636" : "#fffdf7", stroke: "#222" }));
    items.push(s("text", { x: x + 30, y: y + 20, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: hidden ? "#fff" : "#222" }, text));
    items.push(s("text", { x: x + 66, y: y + 19, fill: "#fff", "font-size": 10 }, label));
  };
  if (f.attacker_submitted) {
    const mine = f.my_submission;
    hand(6, mine != null ? ui("your_hidden_bid", "your hidden bid") : ui("hidden_bid", "hidden bid"), mine != null ? String(mine) : "?", mine == null);
  } else {
    hand(6, ui("no_bid", "no bid yet"), "…", false);
  }
  hand(W / 2 + 6, ui("no_bid", "no bid yet"), "…", false);
  if (f.last) {
    const t = (x) => (x < 0 ? ui("gave_up", "gave up") : String(x));
    items.push(s("text", { x: 6, y: y + 48, fill: "#fff", "font-size": 11 }, uif("last_round", "last round: {a} against {b}", { a: t(f.last[0]), b: t(f.last[1]) })));
  }
  y += 58;
  // My bid: click a number of stones.
  const bids = ctx.legal.filter((a) => /^bid \d+$/.test(a.text)).map((a) => Number(a.text.slice(4)));
  if (bids.length) {
    items.push(s("text", { x: 6, y: y + 6, fill: "#ffd977", "font-size": 12, "font-weight": 700 }, `${ui("your_bid", "Your bid")}: ${ui("click_stones", "click the stones")}`));
    y += 14;
    const per = 12;
    bids.forEach((n, j) => {
      const bx = 6 + (j % per) * 30, by = y + Math.floor(j / per) * 30;
      const text = `bid ${n}`;
      items.push(s("g", { class: "clickable", tabindex: 0, role: "button", "aria-label": uif("bid_n", "bid {n}", { n }), onclick: () => ctx.act(text),
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.act(text); } } },
        s("circle", { cx: bx + 12, cy: by + 12, r: 12, fill: "#9aa5ad", class: "cell", stroke: "#4d575e" }),
        s("text", { x: bx + 12, y: by + 16, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#111" }, String(n))));
    });
    y += Math.ceil(bids.length / per) * 30 + 4;
  }
  if (legalText(ctx, "surrender")) {
    items.push(s("g", { class: "clickable", tabindex: 0, role: "button", "aria-label": ui("give_up", "give up"), onclick: () => ctx.act("surrender"),
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.act("surrender"); } } },
      s("rect", { x: 6, y, width: 150, height: 24, rx: 5, fill: "#fff", class: "cell", stroke: "#444" }),
      s("line", { x1: 16, y1: y + 4, x2: 16, y2: y + 21, stroke: "#5b4636", "stroke-width": 2 }),
      s("path", { d: `M17 ${y + 5} h13 l-3 4 l3 4 h-13 z`, fill: "#fff", stroke: "#5b4636" }),
      s("text", { x: 36, y: y + 16, "font-size": 12, fill: "#222" }, ui("give_up", "give up"))));
    y += 30;
  }
  return svg(W, y + 6, { class: "revir-fight", style: "max-width: 460px; background:#3d2b1f; border-radius:8px" }, ...items);
}

export function render(v, ctx) {
  const parts = [farm(v, ctx), effectsLine(v)];
  const lower = h("div", { style: "display:flex;flex-wrap:wrap;gap:.8rem;align-items:flex-start" },
    clock(v), h("div", { style: "flex:1;min-width:260px;display:flex;flex-direction:column;gap:.5rem" },
      fightPanel(v, ctx), players(v, ctx),
      v.winners ? h("p", { style: "font-weight:700" }, `${ui("winner", "Winner")}: ${v.winners.map((w) => name(ctx, w)).join(", ")}`) : null));
  parts.push(lower);
  return h("div", { class: "revir-wrap" }, ...parts);
}
