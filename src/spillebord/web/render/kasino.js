// Kasino: the opponents (hidden hands as backs, trick piles, sweeps), the table with loose cards
// and builds (value, simple/multiple, owner), and this seat's hand. Click a hand card, then the
// table cards or builds to take or build on; the action list narrows with every click.
import { h, s, svg } from "../dom.js";
import { card, backs, CARD_W, CARD_H } from "../cards.js";
import { ui, uif } from "../gametext.js";
import { t } from "../i18n.js";

const W = 760;

function name(ctx, i) {
  if (ctx.name) return ctx.name(i);
  const p = ctx.players[i];
  return (p && (p.name || (p.bot ? `${p.bot} bot` : null))) || uif("seat", "seat {n}", { n: i });
}

function pileText(p) {
  const bits = [`${p.count} ${ui("cards", "cards")}`, `${p.spades}♠`];
  if (p.aces) bits.push(`${p.aces}A`);
  if (p.big_casino) bits.push("10♦");
  if (p.little_casino) bits.push("2♠");
  if (p.sweeps) bits.push(`${p.sweeps} ${ui("sweep", "sweep (svup)")}`);
  return bits.join(" · ");
}

export function render(v, ctx) {
  const n = v.seats;
  const me = v.seat;
  const others = [...Array(n).keys()].filter((i) => i !== me);
  const items = [];
  // Opponents along the top.
  const colW = W / Math.max(others.length, 1);
  others.forEach((i, k) => {
    const x = k * colW + 10;
    items.push(s("text", { x, y: 16, class: `svg-label${v.to_act === i ? " bold" : ""}` },
      `${v.to_act === i ? "▶ " : ""}${name(ctx, i)}${i === v.dealer ? ` (${ui("dealer", "dealer")})` : ""} — ${v.totals[i]} ${ui("pts", "pts")}`));
    items.push(backs(x, 24, v.hand_sizes[i], { small: true, gap: 12, max: 4 }));
    items.push(s("text", { x, y: 92, class: "svg-label svg-small" }, pileText(v.piles[i])));
  });
  // The table.
  const ty = 110;
  items.push(s("rect", { x: 4, y: ty, width: W - 8, height: 190, rx: 14, fill: "#2d7a53", stroke: "#174a31" }));
  items.push(s("text", { x: 14, y: ty + 18, class: "svg-label" },
    `${ui("table", "Table")} · ${ui("round", "round")} ${v.round}, ${ui("hand", "hand")} ${v.hand_no}/${v.hands_per_round}${v.last_hand ? ` (${ui("last_hand", "last hand")})` : ""} · ${ui("stock", "stock")} ${v.stock}`));
  let x = 14;
  let y = ty + 30;
  const place = (w) => { if (x + w > W - 10) { x = 14; y += CARD_H + 40; } const at = [x, y]; x += w + 10; return at; };
  for (const b of v.table.builds) {
    const cards = b.groups.flat();
    const w = CARD_W + (cards.length - 1) * 14;
    const [bx, by] = place(w);
    const g = s("g", { class: `build${ctx.clickable(b.id) ? " clickable" : ""}${ctx.selected(b.id) ? " selected" : ""}`,
      "data-id": ctx.clickable(b.id) ? b.id : null, "data-ref": b.id, tabindex: ctx.clickable(b.id) ? 0 : null,
      "aria-label": `${ui("build", "build")} ${b.value}` });
    cards.forEach((c, j) => g.append(card(bx + j * 14, by + j * 3, c, { small: false })));
    // The outline's whole area takes the click (fill "none" alone is not hit-tested, and a click
    // between the cards and the label would land on the felt below).
    g.append(s("rect", { x: bx - 3, y: by - 3, width: w + 6, height: CARD_H + cards.length * 3 + 6, rx: 6, fill: "none",
      "pointer-events": "all", class: "cell", stroke: ctx.selected(b.id) ? "#ffd977" : ctx.clickable(b.id) ? "#d98e04" : "#f1c40f", "stroke-width": 2.5 }));
    g.append(s("text", { x: bx, y: by + CARD_H + cards.length * 3 + 16, class: "svg-label svg-small" },
      `${ui("build", "build")} ${b.value}${b.kind === "multiple" ? " ×" : ""} · ${name(ctx, b.owner)}`));
    items.push(g);
  }
  for (const c of v.table.loose) {
    const [cx, cy] = place(CARD_W);
    items.push(card(cx, cy, c, { clickable: ctx.clickable(c), selected: ctx.selected(c) }));
  }
  if (!v.table.loose.length && !v.table.builds.length) {
    items.push(s("text", { x: W / 2, y: ty + 110, "text-anchor": "middle", class: "svg-label" }, ui("empty", "the table is empty")));
  }
  // My hand, or the spectator's note.
  const hy = ty + 210;
  if (me != null) {
    items.push(s("text", { x: 10, y: hy, class: "svg-label" },
      `${v.to_act === me ? "▶ " : ""}${name(ctx, me)} (${t("you")}) — ${v.totals[me]} ${ui("pts", "pts")} · ${pileText(v.piles[me])}` +
      (v.must_capture && v.must_capture[me] ? ` · ${ui("must_capture", "must capture")}` : "")));
    (v.hand || []).forEach((c, j) => {
      items.push(card(10 + j * (CARD_W + 12), hy + 10, c, { clickable: ctx.clickable(c), selected: ctx.selected(c) }));
    });
  } else {
    items.push(s("text", { x: 10, y: hy, class: "svg-label" }, ui("spectating", "spectating: hands are hidden")));
  }
  const pic = svg(W, hy + CARD_H + 20, { class: "kasino", style: "max-width: 900px" }, ...items);
  const scores = h("table", { class: "scores" }, h("tr", {}, h("th", {}, ui("player", "player")), h("th", {}, ui("points", "points")), h("th", {}, `${ui("target", "target")} ${v.target}`)),
    ...[...Array(n).keys()].map((i) => h("tr", {}, h("td", {}, name(ctx, i)), h("td", { class: "num" }, String(v.totals[i])), h("td", {}, ""))));
  return h("div", { class: "kasino-wrap" }, pic, scores);
}
