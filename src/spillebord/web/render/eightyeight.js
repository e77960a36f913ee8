// 88 (Digital Dramatik): each player's black display panel (displaypanel) with its two
// seven-segment positions built from L pieces (L-formade pjäser) and straight pieces (raka
// pjäser), the peg track (markeringspinne) along its top edge, the pieces left in stock; the two
// target cards and the target number (Måltal) with its setter (Målsättare). Decisions are drawn
// too: the number to lay, the reading of the cards, the options with their numbers, and the
// candidate tilings of a digit as little digits: click one to choose it.
import { h, s, svg } from "../dom.js";
import { t as tx } from "../i18n.js";
import { ui, uif, actionLabel } from "../gametext.js";

const L_COL = "#f39c12";
const S_COL = "#5dade2";
const OPT = { stay: "Stay", rearrange: "Rearrange", remove: "Take away", add: "Add" };
const optName = (o) => ui(`opt_${o}`, OPT[o]);
const SEAT_COL = ["#e74c3c", "#2ecc71", "#f1c40f", "#9b59b6"];

function name(ctx, i) {
  if (ctx.name) return ctx.name(i);
  const p = ctx.players[i];
  return (p && (p.name || (p.bot ? `${p.bot} bot` : null))) || uif("seat", "seat {n}", { n: i });
}

const pad = (n) => (n == null ? "??" : String(n).padStart(2, "0"));

// Corners of a digit of width w (height 2w) and the segments between them.
function corners(x, y, w) {
  return { TL: [x, y], TR: [x + w, y], ML: [x, y + w], MR: [x + w, y + w], BL: [x, y + 2 * w], BR: [x + w, y + 2 * w] };
}
const SEG = { a: ["TL", "TR"], b: ["TR", "MR"], c: ["MR", "BR"], d: ["BL", "BR"], e: ["ML", "BL"], f: ["TL", "ML"], g: ["ML", "MR"] };

function towards(p, q, by) {
  const dx = q[0] - p[0], dy = q[1] - p[1];
  const len = Math.hypot(dx, dy) || 1;
  return [p[0] + (dx * by) / len, p[1] + (dy * by) / len];
}

// The path of one piece: a straight on one segment, or an L over two segments meeting at a corner.
function piecePath(name, c, inset) {
  if (name.length === 1) {
    const [p, q] = SEG[name].map((k) => c[k]);
    const a = towards(p, q, inset), b = towards(q, p, inset);
    return `M${a[0]} ${a[1]} L${b[0]} ${b[1]}`;
  }
  const [s1, s2] = [SEG[name[0]], SEG[name[1]]];
  const shared = s1.find((k) => s2.includes(k));
  const e1 = s1.find((k) => k !== shared), e2 = s2.find((k) => k !== shared);
  const a = towards(c[e1], c[shared], inset), b = towards(c[e2], c[shared], inset);
  return `M${a[0]} ${a[1]} L${c[shared][0]} ${c[shared][1]} L${b[0]} ${b[1]}`;
}

// One digit position: faint empty segments, then the pieces. items: placement names ("fg", "b").
function digit(x, y, w, items, opts = {}) {
  const c = corners(x, y, w);
  const sw = Math.max(3, w * 0.2);
  const g = s("g", { class: "digit" });
  for (const k of Object.keys(SEG)) {
    g.append(s("path", { d: piecePath(k, c, sw * 0.7), stroke: opts.ghost || "#ffffff1c", "stroke-width": sw, "stroke-linecap": "round", fill: "none" }));
  }
  for (const it of items || []) {
    const col = it.length === 2 ? L_COL : S_COL;
    const d = piecePath(it, c, sw * 0.7);
    g.append(s("path", { d, stroke: "#111", "stroke-width": sw + 2, "stroke-linecap": "round", "stroke-linejoin": "round", fill: "none" }));
    g.append(s("path", { d, stroke: col, "stroke-width": sw, "stroke-linecap": "round", "stroke-linejoin": "round", fill: "none" },
      s("title", {}, it.length === 2 ? `${ui("l_piece", "L piece")} ${it}` : `${ui("straight_piece", "straight piece")} ${it}`)));
  }
  return g;
}

function split(tiling) {
  return tiling ? tiling.split(/\s+/).filter(Boolean) : [];
}

// A number drawn with full segments (for the target and the choices).
const GLYPH = ["abcdef", "bc", "abdeg", "abcdg", "bcfg", "acdfg", "acdefg", "abc", "abcdefg", "abcdfg"];
function number(x, y, w, n, col) {
  const g = s("g", {});
  const str = pad(n);
  [...str].forEach((ch, i) => {
    const c = corners(x + i * (w * 1.7), y, w);
    const sw = Math.max(2, w * 0.2);
    for (const k of Object.keys(SEG)) {
      const on = ch !== "?" && GLYPH[Number(ch)].includes(k);
      g.append(s("path", { d: piecePath(k, c, sw * 0.7), stroke: on ? col : "#ffffff14", "stroke-width": sw, "stroke-linecap": "round" }));
    }
  });
  return g;
}

function panel(v, ctx, p, x, y, pw) {
  const items = [];
  const me = p.seat === ctx.seat;
  const acting = p.seat === v.to_act;
  const ph = 170;
  items.push(s("rect", { x, y, width: pw, height: ph, rx: 10, fill: "#151515", stroke: acting ? "#ffd977" : "#444", "stroke-width": acting ? 3 : 1.5 }));
  // The peg track along the top edge (points in the points game).
  const L = v.track_length;
  if (v.scoring === "pegs") {
    const step = (pw - 24) / Math.max(L, 1);
    for (let k = 0; k <= L; k++) {
      const hx = x + 12 + k * step;
      items.push(s("circle", { cx: hx, cy: y + 12, r: 3.2, fill: k === L ? "#7a6a2a" : "#333", stroke: "#666", "stroke-width": 0.8 }));
    }
    const px = x + 12 + Math.min(p.peg, L) * step;
    items.push(s("circle", { cx: px, cy: y + 12, r: 5.5, fill: SEAT_COL[p.seat % 4], stroke: "#fff", "stroke-width": 1.2 },
      s("title", {}, uif("peg_at", "peg at {n} of {m}", { n: p.peg, m: L }))));
  } else {
    items.push(s("text", { x: x + 10, y: y + 16, fill: "#ddd", "font-size": 11 }, `${ui("points", "points")}: ${p.points} (${ui("lowest_wins", "lowest wins")})`));
  }
  items.push(s("text", { x: x + 10, y: y + 36, fill: "#fff", "font-size": 12, "font-weight": acting ? 700 : 400 },
    `${acting ? "▶ " : ""}${name(ctx, p.seat)}${me ? ` (${tx("you")})` : ""}${p.seat === v.setter ? " ★" : ""}`.slice(0, 26)));
  // The two digit positions.
  const w = 30;
  const dx = x + (pw - (2 * w + 26)) / 2;
  if (p.panel != null) {
    items.push(digit(dx, y + 50, w, split(p.tens)));
    items.push(digit(dx + w + 26, y + 50, w, split(p.units)));
  } else {
    // Not visible (or not laid yet); this seat's own tens already chosen shows.
    const pend = me && v.pending && v.pending.tens ? split(v.pending.tens) : [];
    items.push(digit(dx, y + 50, w, pend));
    items.push(digit(dx + w + 26, y + 50, w, []));
    if (p.laid) items.push(s("text", { x: x + pw / 2, y: y + 88, "text-anchor": "middle", fill: "#aaa", "font-size": 22, "font-weight": 700 }, "?"));
  }
  // Number, distance, stock.
  const info = p.number != null ? `= ${pad(p.number)}${p.distance != null ? ` · ${ui("dist", "dist")} ${p.distance}` : ""}` : p.laid ? ui("laid_secret", "laid in secret") : ui("not_laid", "not laid yet");
  items.push(s("text", { x: x + 10, y: y + ph - 26, fill: "#ddd", "font-size": 11 }, info));
  if (p.supply) {
    // Pieces left in stock: little L shapes and bars.
    let sx = x + 10;
    const sy = y + ph - 14;
    for (let k = 0; k < p.supply.L; k++) {
      items.push(s("path", { d: `M${sx} ${sy - 7} L${sx} ${sy} L${sx + 7} ${sy}`, stroke: L_COL, "stroke-width": 3, fill: "none" }));
      sx += 11;
    }
    sx += 4;
    for (let k = 0; k < p.supply.S; k++) {
      items.push(s("path", { d: `M${sx} ${sy - 7} L${sx} ${sy}`, stroke: S_COL, "stroke-width": 3 }));
      sx += 6;
    }
    items.push(s("text", { x: x + pw - 8, y: sy, "text-anchor": "end", fill: "#999", "font-size": 9 }, ui("stock", "stock")));
  }
  const moved = v.round_moves.find((m) => m.seat === p.seat);
  if (moved) {
    items.push(s("text", { x: x + pw - 8, y: y + 36, "text-anchor": "end", fill: "#9fd", "font-size": 10 },
      `${optName(moved.option)} ${moved.option === "stay" ? "" : pad(moved.number)}`));
  }
  return items;
}

function button(x, y, w, hgt, text, label, ctx, opts = {}) {
  return s("g", { class: "clickable", tabindex: 0, role: "button", "aria-label": label || text, onclick: () => ctx.act(text),
    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.act(text); } } },
    s("title", {}, label || text),
    s("rect", { x, y, width: w, height: hgt, rx: 5, class: "cell", fill: opts.fill || "#fffdf7", stroke: "#444" }),
    s("text", { x: x + w / 2, y: y + hgt / 2 + 4.5, "text-anchor": "middle", "font-size": opts.size || 13, "font-weight": 700, fill: "#222", "font-family": "ui-monospace, monospace" }, opts.caption ?? text));
}

// The seat's decision drawn as things to click (the action list stays below for keyboards).
function decisions(v, ctx, W) {
  const legal = ctx.legal;
  if (!legal.length) return null;
  const items = [];
  let y = 8;
  const title = (t) => { items.push(s("text", { x: 8, y: y + 12, fill: "#ffd977", "font-size": 13, "font-weight": 700 }, t)); y += 20; };
  const lays = legal.filter((a) => a.json.kind === "lay");
  const targets = legal.filter((a) => a.json.kind === "target");
  const moves = legal.filter((a) => a.json.kind === "move");
  const places = legal.filter((a) => a.json.kind === "place");
  if (lays.length) {
    title(`${ui("lay_your_number", "Lay your number")}: ${ui("click_it", "click it")}`);
    const bw = (W - 16) / 10;
    lays.forEach((a, i) => items.push(button(8 + (i % 10) * bw, y + Math.floor(i / 10) * 28, bw - 4, 24, a.text, actionLabel(a), ctx, { caption: pad(a.json.number) })));
    y += Math.ceil(lays.length / 10) * 28 + 4;
  }
  if (targets.length) {
    title(`${ui("choose_the_target_number", "Choose the target number")}`);
    targets.forEach((a, i) => {
      const bx = 8 + i * 130;
      items.push(s("g", { class: "clickable", tabindex: 0, role: "button", "aria-label": actionLabel(a), onclick: () => ctx.act(a.text),
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.act(a.text); } } },
        s("rect", { x: bx, y, width: 118, height: 80, rx: 8, class: "cell", fill: "#151515", stroke: "#888" }),
        number(bx + 30, y + 12, 28, a.json.number, "#ff5b4f")));
    });
    y += 88;
  }
  if (moves.length) {
    title(ui("your_move_choose_the_opt", "Your move: choose the option and the number"));
    for (const opt of ["stay", "rearrange", "remove", "add"]) {
      const row = moves.filter((a) => a.json.option === opt);
      if (!row.length) continue;
      items.push(s("text", { x: 8, y: y + 17, fill: "#fff", "font-size": 11 }, optName(opt)));
      const x0 = 168, bw = 44;
      const per = Math.max(1, Math.floor((W - x0 - 8) / bw));
      row.forEach((a, i) => items.push(button(x0 + (i % per) * bw, y + Math.floor(i / per) * 28, bw - 4, 24, a.text, actionLabel(a), ctx,
        { caption: opt === "stay" ? "✓" : pad(a.json.number) })));
      y += Math.ceil(row.length / per) * 28 + 4;
    }
  }
  if (places.length) {
    const pend = v.pending || {};
    title(`${pend.option ? optName(pend.option) + " → " : ""}${pad(pend.number)}: ` +
      `${places[0].json.position === "tens" ? ui("choose_the_tens", "choose the tens") : ui("choose_the_units", "choose the units")}`);
    const w = 26, bw = 84;
    const per = Math.max(1, Math.floor((W - 8) / bw));
    places.forEach((a, i) => {
      const bx = 8 + (i % per) * bw, by = y + Math.floor(i / per) * 96;
      items.push(s("g", { class: "clickable", tabindex: 0, role: "button", "aria-label": actionLabel(a), onclick: () => ctx.act(a.text),
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.act(a.text); } } },
        s("title", {}, actionLabel(a)),
        s("rect", { x: bx, y: by, width: bw - 8, height: 90, rx: 8, class: "cell", fill: "#151515", stroke: "#888" }),
        digit(bx + (bw - 8 - w) / 2, by + 10, w, split(a.json.tiling)),
        s("text", { x: bx + (bw - 8) / 2, y: by + 84, "text-anchor": "middle", fill: "#ccc", "font-size": 9, "font-family": "ui-monospace, monospace" }, a.json.tiling)));
    });
    y += Math.ceil(places.length / per) * 96 + 4;
  }
  return svg(W, y + 4, { class: "eightyeight-decide", style: `max-width:${W}px;background:#0f3a26;border-radius:8px` }, ...items);
}

export function render(v, ctx) {
  const W = 560;
  const items = [];
  // The target: the two cards, the number, the setter.
  items.push(s("text", { x: 8, y: 18, class: "panel-title" },
    `88 · ${ui("round", "round")} ${v.round}${v.rounds_total ? `/${v.rounds_total}` : ""} · ` +
    (v.scoring === "pegs" ? `${ui("peg_track", "peg track")} ${v.track_length}` : ui("points_game", "points game"))));
  const cy = 30;
  (v.cards.length ? v.cards : [null, null]).forEach((c, i) => {
    const x = 8 + i * 58;
    items.push(s("rect", { x, y: cy, width: 50, height: 72, rx: 5, fill: c == null ? "#8e2c2c" : "#fffdf7", stroke: "#333" }));
    if (c != null) {
      items.push(s("text", { x: x + 25, y: cy + 48, "text-anchor": "middle", "font-size": 34, "font-weight": 700, fill: "#222", "font-family": "DejaVu Serif, Georgia, serif" }, String(c)));
      items.push(s("text", { x: x + 5, y: cy + 13, "font-size": 11, fill: "#222" }, String(c)));
    }
  });
  items.push(s("text", { x: 8, y: cy + 88, class: "svg-label svg-small" }, `${ui("deck", "deck")} ${v.deck_size} · ${ui("discard", "discard")} ${v.discard.length}`));
  items.push(s("rect", { x: 130, y: cy, width: 130, height: 80, rx: 8, fill: "#151515", stroke: "#666" }));
  items.push(number(130 + 32, cy + 12, 28, v.target, "#ff5b4f"));
  items.push(s("text", { x: 270, y: cy + 20, class: "svg-label" }, ui("target_number", "Target number")));
  items.push(s("text", { x: 270, y: cy + 40, class: "svg-label" },
    `${ui("setter", "setter")}: ${v.setter != null ? name(ctx, v.setter) : "—"} ★`));
  if (v.target_choices) items.push(s("text", { x: 270, y: cy + 56, class: "svg-label svg-small" }, uif("reading", "reading {ns}", { ns: v.target_choices.map(pad).join(` ${ui("or", "or")} `) })));
  if (v.last_round) {
    const lr = v.last_round;
    items.push(s("text", { x: 270, y: cy + 66, class: "svg-label svg-small" }, uif("last_round", "last round: target {n}", { n: pad(lr.target) })));
    items.push(s("text", { x: 270, y: cy + 80, class: "svg-label svg-small" },
      lr.numbers.map((x, i) => `${name(ctx, i).slice(0, 9)} ${pad(x)}${lr.awards[i] ? ` +${lr.awards[i]}` : ""}`).join(", ")));
  }
  const pic = svg(W, cy + 92, { class: "eightyeight", style: `max-width: ${W}px` }, ...items);
  // The panels, each its own picture so that they wrap on a narrow screen.
  const pw = 220;
  const panels = h("div", { style: "display:flex;flex-wrap:wrap;gap:.5rem;justify-content:center" },
    ...v.players.map((p) => svg(pw + 4, 176, { class: "eightyeight-panel", style: `max-width:${pw + 4}px;flex:1 1 160px;margin:0` }, ...panel(v, ctx, p, 2, 2, pw))));
  const legend = svg(W, 16, { style: `max-width:${W}px` },
    s("path", { d: "M10 4 L10 12 L18 12", stroke: L_COL, "stroke-width": 4, fill: "none" }),
    s("text", { x: 24, y: 12, class: "svg-label svg-small" }, ui("l_piece", "L piece")),
    s("path", { d: "M160 4 L160 12", stroke: S_COL, "stroke-width": 4 }),
    s("text", { x: 168, y: 12, class: "svg-label svg-small" }, ui("straight_piece", "straight piece")),
    s("text", { x: 300, y: 12, class: "svg-label svg-small" }, `★ ${ui("setter", "setter")}`));
  const won = v.winner != null ? h("p", { style: "margin:0;font-weight:700;color:#ffd977;text-align:center" }, uif("wins", "{who} wins", { who: name(ctx, v.winner) })) : null;
  return h("div", { class: "eightyeight-wrap", style: "display:flex;flex-direction:column;gap:.5rem" }, pic, won, panels, legend, decisions(v, ctx, W));
}
