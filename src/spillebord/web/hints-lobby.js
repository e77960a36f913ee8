// The lobby's hint setting: a new table gives hints unless its creator switches them off
// (added to what window.sbCreateExtras() puts in the new table's request).
import { h } from "./dom.js";
import { ht } from "./hint-texts.js";

const allow = h("input", { id: "hints", type: "checkbox", checked: true });
const form = document.getElementById("create");
if (form) {
  const row = form.querySelector(".row");
  const label = h("label", { class: "check", title: ht("hint_title") }, allow, ` ${ht("hints_setting")}`);
  if (row) row.append(label); else form.prepend(label);
}
const before = window.sbCreateExtras;
window.sbCreateExtras = () => ({ ...(before ? before() : {}), hints: allow.checked });
