// The end screen's breakdown: the game's own summary (games/<id>/summary.py), rows of per-seat
// figures under translated labels; the row the game counts is marked.
import { h } from "./dom.js";
import { summaryLabel } from "./gametext.js";

function fmt(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
}

export async function fetchSummary(tableId) {
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/summary`);
    if (!r.ok) return null;
    return (await r.json()).summary || null;
  } catch { return null; }
}

export function summaryTable(summary, names) {
  if (!summary || !summary.rows || !summary.rows.length) return "";
  const n = summary.rows[0].values.length;
  return h("table", { class: "scores summary", id: "summary" },
    h("tr", {}, h("th", {}, ""), ...[...Array(n).keys()].map((i) => h("th", { class: "num", scope: "col" }, names(i)))),
    ...summary.rows.map((r) => h("tr", { class: r.key === summary.total ? "total" : "", "data-key": r.key },
      h("th", { scope: "row" }, summaryLabel(r.key)),
      ...r.values.map((v) => h("td", { class: "num" }, fmt(v))))));
}
