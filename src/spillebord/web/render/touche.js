// Touché: the octagonal board of card spaces (kortplasser) and free spaces (fri plasser), the
// markers (markører) of each colour, crowned markers (svarte kroner), the last marker placed and
// the patterns waiting to be crowned; the hand (dead cards marked), the piles and discards, and
// each side's crowned patterns against the grade's target. Click a hand card and then one of its
// spaces (or a space first); in a crown choice click the cells of the pattern to crown.
import { h, s, svg } from "../dom.js";
import { card, backs, cardLabel, CARD_W, CARD_H } from "../cards.js";
import { t as tx } from "../i18n.js";
import { ui, uif, actionLabel, term } from "../gametext.js";

const SIDE = { purple: "#8e44ad", blue: "#2e6fd1", yellow: "#f1c40f" };
const SIDE_INK = { purple: "#fff", blue: "#fff", yellow: "#111" };
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const CELL = 48;

function name(ctx, i) {
  if (ctx.name) return ctx.name(i);
  const p = ctx.players[i];
  return (p && (p.name || (p.bot ? `${p.bot} bot` : null))) || uif("seat", "seat {n}", { n: i });
}

function crown(x, y, size, fill = "#111") {
  const w = size, hh = size * 0.7;
  return s("path", {
    d: `M${x - w / 2} ${y + hh / 2} L${x - w / 2} ${y - hh / 2} L${x - w / 4} ${y} L${x} ${y - hh / 2} L${x + w / 4} ${y} L${x + w / 2} ${y - hh / 2} L${x + w / 2} ${y + hh / 2} Z`,
    fill, stroke: "#fff", "stroke-width": 0.8,
  });
}

function board(v, ctx) {
  const n = v.layout.length;
  const X0 = 10, Y0 = 30;
  const W = X0 * 2 + n * CELL;
  const H = Y0 + n * CELL + 10;
  const items = [];
  const colours = v.colours;
  // The octagon behind the cross of spaces.
  const c = 3 * CELL;
  const L = X0 - 4, T = Y0 - 4, R = X0 + n * CELL + 4, B = Y0 + n * CELL + 4;
  items.push(s("polygon", { points: [[L + c, T], [R - c, T], [R, T + c], [R, B - c], [R - c, B], [L + c, B], [L, B - c], [L, T + c]].map((p) => p.join(",")).join(" "),
    fill: "#14432c", stroke: "#0b2a1b", "stroke-width": 3 }));
  const m = v.match;
  items.push(s("text", { x: 8, y: 18, class: "panel-title", "font-size": 12 },
    `Touché · ${ui("game", "game")} ${m.game_no}/${m.games} · ${ui("grade", "grade")} ${v.grade || "?"}` +
    ` · ${ui("target", "target")} ${v.grade ? v.target : "?"}`));
  const markers = Object.fromEntries(v.markers.map((mk) => [mk.cell, mk]));
  const pending = new Set(v.pending.flat());
  for (let r = 0; r < n; r++) {
    for (let col = 0; col < n; col++) {
      const code = v.layout[r][col];
      if (!code) continue;
      const id = `r${r}c${col}`;
      const x = X0 + col * CELL + 2, y = Y0 + r * CELL + 2, w = CELL - 4;
      const click = ctx.clickable(id);
      const mk = markers[id];
      const g = s("g", { class: `space${click ? " clickable" : ""}${ctx.selected(id) ? " selected" : ""}`,
        "data-id": click ? id : null, "data-ref": id, tabindex: click ? 0 : null, role: click ? "button" : null,
        "aria-label": `${id} ${code === "FREE" ? ui("free_space", "free space") : cardLabel(code)}${mk ? ` ${ui(`side_${colours[mk.side]}`, colours[mk.side])}${mk.crowned ? ` ${ui("crowned", "crowned")}` : ""}` : ""}` });
      g.append(s("title", {}, `${id}: ${code === "FREE" ? ui("free_space", "free space") : cardLabel(code)}${mk ? ` · ${ui(`side_${colours[mk.side]}`, colours[mk.side])}${mk.crowned ? ` · ${ui("crowned", "crowned")}` : ""}` : ""}`));
      if (code === "FREE") {
        g.append(s("rect", { x, y, width: w, height: w, rx: 5, class: "cell", fill: "#cfe8c4", stroke: "#3c7a2f" }));
        g.append(s("text", { x: x + w / 2, y: y + w / 2 + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#2d6b22" }, "FRI"));
      } else {
        const red = code[1] === "H" || code[1] === "D";
        const rank = code[0] === "T" ? "10" : code[0];
        g.append(s("rect", { x, y, width: w, height: w, rx: 5, class: "cell", fill: "#fffdf7", stroke: "#555" }));
        g.append(s("text", { x: x + 4, y: y + 14, "font-size": 13, "font-weight": 700, fill: red ? "#c0392b" : "#111", "font-family": "DejaVu Serif, Georgia, serif" }, rank));
        g.append(s("text", { x: x + w - 4, y: y + w - 5, "text-anchor": "end", "font-size": 20, fill: red ? "#c0392b" : "#111" }, SUIT[code[1]]));
      }
      if (pending.has(id)) {
        g.append(s("rect", { x: x + 1, y: y + 1, width: w - 2, height: w - 2, rx: 5, fill: "none", stroke: "#ffb300", "stroke-width": 3, "stroke-dasharray": "5 3" }));
      }
      if (mk) {
        const col = SIDE[colours[mk.side]] || "#888";
        g.append(s("circle", { cx: x + w / 2 + 4, cy: y + w / 2 + 1, r: 14, fill: col, stroke: mk.crowned ? "#000" : "#fff", "stroke-width": mk.crowned ? 3 : 1.5, opacity: 0.95 }));
        if (mk.crowned) g.append(crown(x + w / 2 + 4, y + w / 2 + 1, 16));
      }
      if (v.last === id) {
        g.append(s("rect", { x: x - 1, y: y - 1, width: w + 2, height: w + 2, rx: 6, fill: "none", stroke: "#ff3b3b", "stroke-width": 2.5 }));
      }
      items.push(g);
    }
  }
  return svg(W, H, { class: "touche-board", style: "max-width: 640px" }, ...items);
}

function handPanel(v, ctx) {
  const me = v.seat;
  const items = [];
  const dead = new Set(v.dead || []);
  const hand = v.hand || [];
  const W = Math.max(420, 20 + hand.length * (CARD_W + 10) + 150);
  items.push(s("text", { x: 6, y: 16, class: "svg-label" },
    me == null ? ui("spectating", "spectating: hands are hidden")
      : `${ui("your_hand", "Your hand")} · ${ui("pile", "pile")} ${v.pile_sizes[me]}`));
  hand.forEach((c, j) => {
    const x = 6 + j * (CARD_W + 10);
    items.push(card(x, 26, c, { clickable: ctx.clickable(c), selected: ctx.selected(c) }));
    if (dead.has(c)) {
      items.push(s("text", { x: x + CARD_W / 2, y: 26 + CARD_H + 13, "text-anchor": "middle", fill: "#ffb3a7", "font-size": 10 }, ui("dead", "dead")));
    }
  });
  // My discard pile's top card.
  if (me != null) {
    const d = v.discards[me];
    const x = 20 + hand.length * (CARD_W + 10);
    items.push(s("text", { x, y: 16, class: "svg-label svg-small" }, `${ui("discards", "discards")} ${d.length}`));
    if (d.length) items.push(card(x, 26, d[d.length - 1], {}));
  }
  let y = me == null ? 24 : 26 + CARD_H + 22;
  // The dealer's grade choice as buttons.
  const grades = ctx.legal.filter((a) => /^grade \d+$/.test(a.text));
  if (grades.length) {
    items.push(s("text", { x: 6, y: y + 4, fill: "#ffd977", "font-size": 12, "font-weight": 700 }, `${ui("choose_the_grade", "Choose the grade")}:`));
    y += 12;
    grades.forEach((a, j) => {
      const gy = y + j * 28;
      items.push(s("g", { class: "clickable", tabindex: 0, role: "button", "aria-label": actionLabel(a), onclick: () => ctx.act(a.text),
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.act(a.text); } } },
        s("rect", { x: 6, y: gy, width: W - 12, height: 24, rx: 5, class: "cell", fill: "#fffdf7", stroke: "#444" }),
        s("text", { x: 14, y: gy + 16, "font-size": 12, fill: "#222" }, actionLabel(a))));
    });
    y += grades.length * 28;
  }
  return svg(W, y, { class: "touche-hand", style: `max-width:${W}px` }, ...items);
}

function sidesTable(v, ctx) {
  const colours = v.colours;
  const rows = colours.map((c, side) => {
    const seats = v.side_of.map((sd, i) => (sd === side ? i : -1)).filter((i) => i >= 0);
    const crowns = Array.from({ length: Math.max(v.target || 0, v.counts[side]) }, (_, j) =>
      h("span", { style: `color:${j < v.counts[side] ? "#111" : "#ffffff55"};font-size:1rem` }, "♛"));
    const types = v.crowned_types[side].map((t) => term("pattern", t)).join(", ");
    const m = v.match;
    return h("tr", {},
      h("td", {}, h("span", { style: `display:inline-block;width:.9rem;height:.9rem;border-radius:50%;background:${SIDE[c]};border:1px solid #fff;margin-right:.3rem;vertical-align:middle` }),
        ui(`side_${c}`, c)),
      h("td", {}, ...seats.map((i) => h("div", { style: i === v.to_act ? "font-weight:700" : "" },
        `${i === v.to_act ? "▶ " : ""}${name(ctx, i)}${i === v.seat ? ` (${tx("you")})` : ""}${i === v.dealer ? ` · ${ui("dealer", "dealer")}` : ""}`,
        h("div", { style: "font-size:.75rem;font-weight:400;opacity:.85" }, `${ui("hand", "hand")} ${v.hand_sizes[i]} · ${ui("pile", "pile")} ${v.pile_sizes[i]} · ${ui("discards", "discards")} ${v.discards[i].length}`)))),
      h("td", { style: "white-space:nowrap", title: types }, ...crowns, h("div", { class: "svg-small", style: "font-size:.75rem" }, types)),
      h("td", { class: "num" }, v.supply[side] == null ? "∞" : String(v.supply[side])),
      h("td", { class: "num" }, m.mode === "points" ? String(m.points[side]) : String(m.wins[side])));
  });
  const head = h("tr", {}, h("th", {}, ui("colour", "colour")), h("th", {}, ui("players", "players")),
    h("th", {}, `${ui("crowned", "crowned")} / ${v.target ?? "?"}`), h("th", { title: ui("markers_left", "markers left") }, ui("left", "left")),
    h("th", {}, v.match.mode === "points" ? ui("points", "points") : ui("won", "won")));
  return h("div", {}, h("table", { class: "scores touche-sides", style: "font-size:.85rem" }, head, ...rows),
    h("p", { style: "margin:.2rem 0;font-size:.8rem;opacity:.85" }, `${ui("round", "round")} ${v.round} · ${ui("turn", "turn")} ${v.turn}`));
}

export function render(v, ctx) {
  const parts = [board(v, ctx)];
  if (v.pending && v.pending.length) {
    parts.push(h("p", { style: "margin:.3rem 0;color:#ffd977;font-weight:600" },
      `Touché! ${ui("choose_the_pattern_to_cr", "Choose the pattern to crown")}: ${ui("click_spaces", "click its spaces (dashed).")}`));
  }
  parts.push(h("div", { style: "display:flex;flex-wrap:wrap;gap:.8rem;align-items:flex-start" }, handPanel(v, ctx), sidesTable(v, ctx)));
  if (v.match.winner != null) {
    parts.push(h("p", { style: "font-weight:700" }, `${ui("match_winner", "Match winner")}: ${ui(`side_${v.colours[v.match.winner]}`, v.colours[v.match.winner])}`));
  }
  return h("div", { class: "touche-wrap" }, ...parts);
}
