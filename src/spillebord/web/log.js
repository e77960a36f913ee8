// The game log: every action's events as lines in the reader's language, numbered by action,
// newest first. After a reload it comes whole from the server (/api/tables/{id}/log); then each
// state message adds its action (a gap, e.g. after a lost connection, fetches it whole again).
import { h, clear } from "./dom.js";
import { eventLine } from "./gametext.js";

const MAX = 400;

export function createLog(el, tableId, { token, name }) {
  let entries = [];   // {seq, seat, action, events}
  let lastSeq = null;
  let loading = null;

  async function load() {
    const headers = token ? { "x-seat-token": token } : {};
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/log`, { headers });
    if (!r.ok) throw new Error(`log: ${r.status}`);
    entries = (await r.json()).slice(-MAX);
    lastSeq = entries.length ? entries[entries.length - 1].seq : 0;
  }

  function lines(e) {
    const out = (e.events || []).map(eventLine).filter(Boolean);
    if (!out.length && e.action) out.push(`${name(e.seat)}: ${e.action}`);
    return out;
  }

  function render() {
    clear(el);
    for (let k = entries.length - 1; k >= 0; k--) {
      const e = entries[k];
      lines(e).forEach((text, j) => {
        el.append(h("li", { "data-seq": e.seq }, h("span", { class: "seq", "aria-hidden": "true" }, j === 0 ? String(e.seq) : ""), h("span", { class: "line" }, text)));
      });
    }
  }

  return {
    // A state message arrived: add its action (or fetch the whole log once).
    async update(m) {
      if (lastSeq === null || m.seq > lastSeq + 1) {
        loading = loading || load().finally(() => { loading = null; });
        try { await loading; } finally { render(); }
        return;
      }
      if (m.seq === lastSeq + 1) {
        entries.push({ seq: m.seq, seat: m.last ? m.last.seat : null, action: m.last ? m.last.action : null, events: m.events || [] });
        if (entries.length > MAX) entries.shift();
        lastSeq = m.seq;
      }
      render();
    },
    render,
    lastLine() {
      for (let k = entries.length - 1; k >= 0; k--) { const l = lines(entries[k]); if (l.length) return l[0]; }
      return "";
    },
  };
}
