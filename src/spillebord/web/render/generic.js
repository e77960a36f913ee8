// The generic renderer: any view as readable panels; lists of card ids drawn as cards, and any
// id that a legal action names made clickable. Games with their own renderer use its helpers.
import { h, svg } from "../dom.js";
import { cardRow, isCardId } from "../cards.js";

function isCardList(v) {
  return Array.isArray(v) && v.length > 0 && v.every((x) => isCardId(x));
}

function cards(ids, ctx) {
  const { g, width } = cardRow(4, 4, ids, { isClickable: ctx.clickable, isSelected: ctx.selected, gap: 54 });
  const el = svg(width + 8, 80, { class: "cards", style: `max-width:${width + 8}px` }, g);
  return el;
}

function value(v, ctx, depth) {
  if (isCardList(v)) return cards(v, ctx);
  if (typeof v === "string" && ctx.clickable(v)) {
    return h("button", { type: "button", class: `chip clickable${ctx.selected(v) ? " selected" : ""}`, "data-id": v }, v);
  }
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== "object")) return h("span", { class: "mono" }, v.map((x) => tokenOf(x, ctx)).reduce((a, b) => [...a, " ", b], []).slice(1));
    return h("ol", { start: 0, class: "vlist" }, ...v.map((x) => h("li", {}, value(x, ctx, depth + 1))));
  }
  if (v && typeof v === "object") {
    return h("dl", { class: `vmap depth${Math.min(depth, 3)}` },
      ...Object.entries(v).flatMap(([k, x]) => [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, value(x, ctx, depth + 1))]));
  }
  return h("span", { class: "mono" }, tokenOf(v, ctx));
}

function tokenOf(x, ctx) {
  if (typeof x === "string" && ctx.clickable(x)) {
    return h("button", { type: "button", class: `chip clickable${ctx.selected(x) ? " selected" : ""}`, "data-id": x }, x);
  }
  return x === null ? "—" : String(x);
}

export function render(view, ctx) {
  return h("div", { class: "generic" }, value(view, ctx, 0));
}

export { value as renderValue };
