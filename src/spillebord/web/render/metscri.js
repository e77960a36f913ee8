// Metscri: the 7x7 board without corners, shaded by ring (points ring + 1), with the stacks on
// it (height, face-up top card, face-down cards as backs; face-down cards this seat knows carry
// their identity), the dice rolled this turn as dice, the action points, the phase track
// (M E T S C R I), the buy pile (købekort-bunken) and the matched pile (parringkort-bunken),
// scores against the target and this seat's hand. Click squares (and a hand card) to compose
// a Move, Enter, Turn, Spy, Reveal or Collect; click the die to roll, the buy pile to invest.
import { h, s, svg } from "../dom.js";
import { card, CARD_W, CARD_H } from "../cards.js";
import { t as tx } from "../i18n.js";
import { ui, uif } from "../gametext.js";

const CELL = 84;
const RING_FILL = ["#c9b48a", "#b59d6e", "#9c8456", "#80693f"];
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const PHASES = [
  ["move", "M", "Move", "Flytte"],
  ["enter", "E", "Enter", "Indsætte"],
  ["turn", "T", "Turn", "Vende"],
  ["spy", "S", "Spy", "Smugkigge"],
  ["collect", "C", "Collect", "Indsamle"],
  ["return", "R", "Return", "Vende igen"],
  ["invest", "I", "Invest", "Købe"],
];

function name(ctx, i) {
  if (ctx.name) return ctx.name(i);
  const p = ctx.players[i];
  return (p && (p.name || (p.bot ? `${p.bot} bot` : null))) || uif("seat", "seat {n}", { n: i });
}

// "10Cb" -> {face: "10C", deck: "b"}
function split(id) {
  return { face: id.slice(0, -1), deck: id.slice(-1) };
}

function faceText(id) {
  const f = split(id).face;
  return `${f.slice(0, -1)}${SUIT[f.slice(-1)] || f.slice(-1)}`;
}

function act(ctx, text) {
  return ctx.legal.some((a) => a.text === text) ? () => ctx.act(text) : null;
}

function button(el, fn, label) {
  if (!fn) return el;
  return s("g", { class: "clickable", tabindex: 0, role: "button", "aria-label": label, onclick: fn,
    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(); } } }, s("title", {}, label), el);
}

function die(x, y, n, size = 30, opts = {}) {
  const g = s("g", {});
  g.append(s("rect", { x, y, width: size, height: size, rx: size * 0.18, class: opts.cell ? "cell" : null, fill: opts.fill || "#fffdf7", stroke: "#222", "stroke-width": 1.5 }));
  const P = { 1: [[0.5, 0.5]], 2: [[0.27, 0.27], [0.73, 0.73]], 3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
    4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
    5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
    6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]] };
  for (const [px, py] of P[n] || []) g.append(s("circle", { cx: x + px * size, cy: y + py * size, r: size * 0.09, fill: opts.pip || "#222" }));
  if (!P[n]) g.append(s("text", { x: x + size / 2, y: y + size * 0.66, "text-anchor": "middle", "font-size": size * 0.5, fill: "#222", "font-weight": 700 }, "?"));
  return g;
}

function boardPic(v, ctx) {
  const X0 = 8, Y0 = 8;
  const W = X0 * 2 + 7 * CELL, H = Y0 * 2 + 7 * CELL;
  const items = [];
  const cw = CARD_W * 0.72, ch = CARD_H * 0.72;
  for (const [id, sq] of Object.entries(v.board)) {
    const m = /^r(\d+)c(\d+)$/.exec(id);
    if (!m) continue;
    const r = Number(m[1]), c = Number(m[2]);
    const x = X0 + c * CELL, y = Y0 + r * CELL;
    const click = ctx.clickable(id);
    const g = s("g", { class: `square${click ? " clickable" : ""}${ctx.selected(id) ? " selected" : ""}`,
      "data-id": click ? id : null, "data-ref": id, tabindex: click ? 0 : null, role: click ? "button" : null, "aria-label": uif("sq_label", "{id}, ring {r}, {n} cards", { id, r: sq.ring, n: sq.height }) });
    const levels = sq.cards.map((cd, k) => `${k + 1}: ${cd.card ? faceText(cd.card) : "?"}${cd.up ? ` (${ui("face_up", "face up")})` : ""}`).join(", ");
    g.append(s("title", {}, `${uif("sq_title", "{id} · ring {r} ({p} points per card)", { id, r: sq.ring, p: sq.ring + 1 })}${sq.height ? ` · ${uif("n_cards", "{n} card(s)", { n: sq.height })}: ${levels}` : ""}`));
    g.append(s("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 4, class: "cell", fill: RING_FILL[sq.ring] || "#888", stroke: "#5a4526" }));
    if (v.spied === id) g.append(s("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 4, fill: "none", stroke: "#e056fd", "stroke-width": 3, "stroke-dasharray": "6 3" }));
    g.append(s("text", { x: x + 4, y: y + 11, "font-size": 8, fill: "#3d2f18" }, id));
    const n = sq.cards.length;
    if (n) {
      // The stack: lower levels as edges, the top card whole.
      const shown = Math.min(n, 4);
      const bx = x + (CELL - cw) / 2 - (shown - 1) * 1.5, by = y + (CELL - ch) / 2 + 4 + (shown - 1) * 1.5;
      for (let k = 0; k < shown - 1; k++) {
        g.append(s("rect", { x: bx + k * 3, y: by - k * 3, width: cw, height: ch, rx: 4, class: "card-back", stroke: "#222" }));
      }
      const top = sq.cards[n - 1];
      const tx = bx + (shown - 1) * 3, ty = by - (shown - 1) * 3;
      if (top.up && top.card) {
        g.append(card(tx, ty, split(top.card).face, { small: true }));
      } else {
        g.append(card(tx, ty, null, { faceDown: true, small: true }));
        if (top.card) {
          // A face-down card this seat knows: its identity on the back.
          g.append(s("rect", { x: tx + 3, y: ty + ch / 2 - 9, width: cw - 6, height: 16, rx: 3, fill: "#fffdf7", opacity: 0.85 }));
          const red = /[HD]$/.test(split(top.card).face);
          g.append(s("text", { x: tx + cw / 2, y: ty + ch / 2 + 3, "text-anchor": "middle", "font-size": 11, "font-weight": 700, "font-style": "italic", fill: red ? "#c0392b" : "#111" }, faceText(top.card)));
        }
      }
      if (n > 1) {
        g.append(s("circle", { cx: x + CELL - 11, cy: y + 11, r: 8, fill: "#1d2327", stroke: "#fff" }));
        g.append(s("text", { x: x + CELL - 11, y: y + 14.5, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#fff" }, String(n)));
      }
      // Known cards below the top, as a tiny list.
      const below = sq.cards.slice(0, -1).map((cd) => (cd.card ? faceText(cd.card) : "·")).join(" ");
      if (n > 1 && sq.cards.slice(0, -1).some((cd) => cd.card)) {
        g.append(s("text", { x: x + 4, y: y + CELL - 4, "font-size": 8, fill: "#2a1f0f" }, below));
      }
    } else {
      g.append(s("text", { x: x + CELL / 2, y: y + CELL / 2 + 5, "text-anchor": "middle", "font-size": 14, fill: "#00000030", "font-weight": 700 }, String(sq.ring + 1)));
    }
    items.push(g);
  }
  return svg(W, H, { class: "metscri-board", style: "max-width: 600px" }, ...items);
}

function sidePic(v, ctx) {
  const W = 300;
  const items = [];
  let y = 4;
  const me = v.seat;
  // The phase track.
  items.push(s("text", { x: 4, y: y + 12, class: "panel-title" }, `${ui("round", "Round")} ${v.round}${v.max_rounds ? `/${v.max_rounds}` : ""}`));
  y += 20;
  const cur = v.phase;
  PHASES.forEach(([key, letter, en], i) => {
    const on = key === cur;
    items.push(s("g", {}, s("title", {}, ui(`phase_${key}`, en)),
      s("rect", { x: 4 + i * 41, y, width: 37, height: 26, rx: 4, fill: on ? "#ffd977" : "#ffffff22", stroke: on ? "#b36b00" : "#ffffff55" }),
      s("text", { x: 4 + i * 41 + 18.5, y: y + 18, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: on ? "#222" : "#fff" }, letter)));
  });
  y += 32;
  const ph = PHASES.find((p) => p[0] === cur);
  items.push(s("text", { x: 4, y: y + 10, class: "svg-label" },
    cur === "roll" ? ui("roll_for_action_points", "Roll for action points")
      : ph ? ui(`phase_${ph[0]}`, ph[2]) : cur));
  y += 20;
  // The dice: this turn's rolls; the last die is the button to roll again.
  const rollFn = act(ctx, "roll");
  const rolls = v.rolls || [];
  rolls.forEach((n, i) => items.push(die(4 + i * 36, y, n, 30)));
  const nx = 4 + rolls.length * 36;
  if (rollFn) {
    items.push(button(s("g", {}, die(nx, y, 0, 30, { cell: true, fill: "#fff4d9" })), rollFn, ui("roll_the_die", "roll the die")));
  }
  const stopFn = act(ctx, "stop");
  if (stopFn) {
    const sx = nx + (rollFn ? 40 : 0);
    items.push(button(s("g", {}, s("rect", { x: sx, y, width: 54, height: 30, rx: 5, class: "cell", fill: "#fffdf7", stroke: "#444" }),
      s("text", { x: sx + 27, y: y + 19, "text-anchor": "middle", "font-size": 12, fill: "#222" }, ui("stop", "stop"))), stopFn, ui("stop_rolling", "stop rolling")));
  }
  y += 40;
  items.push(s("text", { x: 4, y: y + 10, class: "svg-label" },
    `${ui("action_points", "action points")}: ${uif("n_of_m", "{n} of {m}", { n: v.ap ?? 0, m: v.ap_earned ?? 0 })}` + (v.next_turn_cost ? ` · ${uif("next_cost", "next turn costs {n}", { n: v.next_turn_cost })}` : "")));
  y += 22;
  // The piles.
  const investFn = act(ctx, "invest");
  const pile = s("g", {});
  for (let k = 2; k >= 0; k--) pile.append(s("rect", { x: 4 + k * 2, y: y + (2 - k) * 2, width: CARD_W, height: CARD_H, rx: 5, class: k === 0 ? "card-back cell" : "card-back" }));
  pile.append(s("text", { x: 4 + CARD_W / 2 + 2, y: y + CARD_H / 2 + 6, "text-anchor": "middle", fill: "#fff", "font-size": 14, "font-weight": 700 }, String(v.buy_size)));
  items.push(button(pile, investFn, ui("invest_buy_a_card_2_ap", "invest: buy a card (2 AP)")));
  items.push(s("text", { x: 4, y: y + CARD_H + 18, class: "svg-label svg-small" }, ui("buy_pile", "buy pile")));
  const mx = 160;
  if (v.matched.length) items.push(card(mx, y, split(v.matched[v.matched.length - 1]).face, {}));
  else items.push(s("rect", { x: mx, y, width: CARD_W, height: CARD_H, rx: 5, fill: "none", stroke: "#ffffff66", "stroke-dasharray": "3 3" }));
  items.push(s("text", { x: mx + CARD_W + 6, y: y + 40, class: "svg-label" }, `×${v.matched.length}`));
  items.push(s("text", { x: mx, y: y + CARD_H + 18, class: "svg-label svg-small" }, ui("matched", "matched")));
  y += CARD_H + 30;
  return svg(W, y, { class: "metscri-side", style: "max-width: 320px" }, ...items);
}

function handPic(v, ctx) {
  const hand = v.hand || [];
  const gap = CARD_W + 6;
  const W = Math.max(300, 12 + hand.length * gap);
  const items = [s("text", { x: 4, y: 14, class: "svg-label" },
    v.seat == null ? ui("spectating", "spectating: hands are hidden") : `${ui("your_hand", "Your hand")} (${hand.length})`)];
  hand.forEach((id, i) => {
    const click = ctx.clickable(id);
    items.push(card(4 + i * gap, 22, split(id).face, { clickable: click, selected: ctx.selected(id), dataId: click ? id : undefined }));
  });
  return svg(W, 22 + CARD_H + 6, { class: "metscri-hand", style: `max-width:${W}px` }, ...items);
}

function scores(v, ctx) {
  const rows = v.scores.map((sc, i) => h("tr", { class: i === v.to_act ? "winner" : "" },
    h("td", {}, `${i === v.to_act ? "▶ " : ""}${name(ctx, i)}${i === v.seat ? ` (${tx("you")})` : ""}${v.winners && v.winners.includes(i) ? ` ★ ${ui("winner", "winner")}` : ""}`),
    h("td", { class: "num" }, String(sc)),
    h("td", { style: "min-width:4rem" }, h("div", { style: "background:#ffffff33;height:.5rem;border-radius:3px;overflow:hidden" },
      h("div", { style: `background:#ffd977;height:100%;width:${Math.min(100, (100 * sc) / Math.max(1, v.target))}%` }))),
    h("td", { class: "num", title: ui("cards_in_hand", "cards in hand") }, String(v.hand_sizes[i])),
    h("td", { class: "num", title: ui("banked_ap", "banked action points") }, v.bank[i] ? `+${v.bank[i]} ${ui("ap", "AP")}` : "")));
  return h("table", { class: "scores metscri-scores", style: "font-size:.85rem" },
    h("tr", {}, h("th", {}, ""), h("th", {}, ui("m_points", "M-points")), h("th", {}, `→ ${v.target}`), h("th", {}, ui("hand", "hand")), h("th", {}, "")), ...rows);
}

export function render(v, ctx) {
  return h("div", { class: "metscri-wrap", style: "display:flex;flex-direction:column;gap:.5rem" },
    h("div", { style: "display:flex;flex-wrap:wrap;gap:.8rem;align-items:flex-start;justify-content:center" },
      boardPic(v, ctx),
      h("div", { style: "display:flex;flex-direction:column;gap:.5rem;flex:1;min-width:260px;max-width:340px" }, sidePic(v, ctx), scores(v, ctx))),
    handPic(v, ctx));
}
