// Fuldrigger: the world map (lanes of sea squares, hazards, ports, fortresses, ships with their
// loads), the companies (cash, wealth, fortresses, reefs), the fleet, the trade panel (price lists
// of the ports where the seat's ships lie, the supply), the chance cards and the offers. Click a
// ship, then a square to sail it or a good to buy; ports, offers and reef letters are clickable too.
import { h, s, svg } from "../dom.js";
import { t } from "../i18n.js";
import { ui, uif } from "../gametext.js";

// ---------------------------------------------------------------------------- board data
// The printed board, from the engine (Game.board_data(), served at /api/games/fuldrigger/board):
// the view names squares, ports, goods and cards by code only.
let LANES = {}, PORTS = {}, HAZARDS = {}, REEFS = {}, GOODS = {}, PRICES = {}, CARDS = {}, HAZARD_DA = {};
export function setBoard(b) {
  LANES = b.lanes || {};
  PORTS = b.ports || {};
  HAZARDS = b.hazards || {};
  REEFS = b.reefs || {};
  GOODS = b.goods || {};
  PRICES = b.prices || {};
  CARDS = b.cards || {};
  HAZARD_DA = b.hazard_da || {};
  GEO = null; // the map geometry is derived from the lanes
}
// ---------------------------------------------------------------------------- map geometry
// A hand-drawn layout (the engine's map is a graph without coordinates): junction squares and
// ports at rough longitude/latitude, warped so that crowded Europe and the Caribbean get room;
// the squares of a lane are spaced evenly along the lane's path (its ends and bend points).
const MAP_W = 1000;
const MAP_H = 560;
const WARP_LON = [[-135, 0], [-85, 100], [-60, 205], [-15, 345], [-8, 385], [16, 555], [32, 640], [60, 718], [120, 882], [195, 1000]];
const WARP_LAT = [[63, 0], [58, 28], [48, 122], [44, 142], [30, 218], [10, 307], [-20, 412], [-62, 560]];

function warp(tab, v) {
  const asc = tab[0][0] < tab[tab.length - 1][0];
  for (let i = 0; i < tab.length - 1; i++) {
    const [a, pa] = tab[i];
    const [b, pb] = tab[i + 1];
    const inside = asc ? v <= b : v >= b;
    if (inside || i === tab.length - 2) return pa + ((v - a) / (b - a)) * (pb - pa);
  }
  return 0;
}
const P = ([lon, lat]) => [warp(WARP_LON, lon), warp(WARP_LAT, lat)];

// Junction squares (and lane ends) at [lon, lat].
const ANCHOR = {
  KAT1: [11.6, 57.0], NORD: [4.0, 55.6], DOVR: [1.9, 50.8], KANW: [-6.8, 48.9], FINI: [-10.6, 43.2],
  LISB: [-10.6, 38.5], GIBR: [-5.6, 35.7], MEDC: [5.5, 41.7], ALXS: [29.5, 32.4], AZOR: [-27, 38.5],
  NEWF: [-50, 45.5], NYCS: [-72, 39.6], FLOR: [-80.2, 24.6], KAPV: [-23.5, 15], GULD: [0, 3.2],
  ANTS: [-64.5, 18.9], CARC: [-74, 15], PBLS: [-79.3, 11.7], SATL: [-31, -7], RIOS: [-41.5, -24.5],
  HORN: [-67, -58], CALS: [-80, -12.3], PANS: [-80.5, 5.6], KAPH: [18.2, -36.5], ZANS: [41.5, -6.5],
  ADEN: [46.5, 11.9], SUZS: [33.6, 27.4], BOMS: [71, 18.7], MAUR: [57.5, -20], CEYL: [82.5, 9.5],
  MALK: [97.5, 6.2], SCS: [110, 11], SUND: [105.2, -8.2], CANS: [114.5, 20.5], PMID: [165, 24],
};
// Bend points of lanes, in order from the lane's first square to its last.
const VIA = {
  L01: [[9, 58.3]], L04: [[-7.5, 46.5]], L07: [[-1, 36.4], [3, 38.6]], L08: [[10, 38.4], [18, 34.7]],
  L09: [[-17, 45.5]], L10: [[-18, 37.5]], L11: [[-38, 42.5]], L12: [[-20, 53], [-38, 52]],
  L13: [[-63, 43]], L14: [[-74.8, 33.5], [-79.3, 29]], L15: [[-50, 31], [-70, 27]],
  L16: [[-15.5, 29]], L17: [[-17.5, 6.5], [-8, 2.8]], L18: [[-45, 14]], L21: [[-83, 17.5], [-85.8, 21.5]],
  L22: [[-27, 1]], L23: [[-34.5, -16]], L24: [[-49, -33], [-59, -42], [-64, -50]],
  L25: [[-77.7, -51], [-76.5, -38], [-73.8, -24]], L26: [[-84.5, -4]], L27: [[-10, -24]],
  L28: [[6, -4], [10, -15], [12.6, -27]], L29: [[35.5, -30], [42, -17]], L30: [[52.5, 4.5]],
  L31: [[41, 16.5], [37.2, 22]], L32: [[58, 17.5]], L33: [[34, -40], [48, -33]], L34: [[70, -6]],
  L35: [[80, -19], [96, -15]], L36: [[73.8, 11]], L37: [[89, 12.5]], L38: [[103.5, 2.5]], L39: [[109, -4]],
  L41: [[130, 21], [148, 28]],
};
// Ports at [lon, lat] (on the coast, beside their roadstead).
const PORT_AT = {
  KBH: [14.2, 55.6], AMS: [6.2, 52.6], LON: [-1.6, 51.8], LIS: [-8.4, 39.9], CAD: [-5.6, 37.4],
  MAR: [5.6, 43.9], ALX: [27.3, 31.0], GUL: [-0.6, 5.8], KAP: [21.5, -34.2], ZAN: [38.7, -8.5],
  SUE: [33.2, 30.0], BOM: [74.5, 20.5], TRA: [78.8, 11.7], BAT: [108.3, -7.0], CAN: [112.3, 23.3],
  NYK: [-74.8, 41.5], HAV: [-81.6, 22.2], STT: [-64.0, 16.8], POB: [-80.5, 10.0], RIO: [-44.2, -22.0],
  PAN: [-78.2, 7.1], CAL: [-76.5, -12.0],
};

// The Pacific lane from mid-Pacific to Panama leaves the right edge and comes in on the left.
const WRAP = { L42: { right: [[180, 20], [197, 17]], left: [[-137, 14], [-112, 11]] } };

function along(points, n) {
  // n points strictly inside the polyline, evenly spaced by length.
  const seg = [];
  let total = 0;
  for (let i = 0; i < points.length - 1; i++) {
    const l = Math.hypot(points[i + 1][0] - points[i][0], points[i + 1][1] - points[i][1]);
    seg.push(l);
    total += l;
  }
  const out = [];
  for (let k = 1; k <= n; k++) {
    let d = (total * k) / (n + 1);
    let i = 0;
    while (i < seg.length - 1 && d > seg[i]) { d -= seg[i]; i++; }
    const t = seg[i] ? d / seg[i] : 0;
    out.push([points[i][0] + t * (points[i + 1][0] - points[i][0]), points[i][1] + t * (points[i + 1][1] - points[i][1])]);
  }
  return out;
}

let GEO = null;
function geometry() {
  if (GEO) return GEO;
  const pos = {};
  const lanes = [];
  for (const [code, ll] of Object.entries(ANCHOR)) pos[code] = P(ll);
  for (const [id, chain] of Object.entries(LANES)) {
    const inner = chain.slice(1, -1);
    const a = pos[chain[0]];
    const b = pos[chain[chain.length - 1]];
    if (WRAP[id]) {
      // Squares spread over both halves in proportion to their lengths.
      const r = [a, ...WRAP[id].right.map(P)];
      const l = [...WRAP[id].left.map(P), b];
      const len = (pts) => pts.slice(1).reduce((acc, p, i) => acc + Math.hypot(p[0] - pts[i][0], p[1] - pts[i][1]), 0);
      const nr = Math.round((inner.length * len(r)) / (len(r) + len(l)));
      const rr = along(r, nr);
      const ll = along(l, inner.length - nr);
      inner.forEach((c, k) => { pos[c] = k < nr ? rr[k] : ll[k - nr]; });
      lanes.push({ id, pts: [a, ...inner.slice(0, nr).map((c) => pos[c]), r[r.length - 1]], wrap: "right" });
      lanes.push({ id, pts: [l[0], ...inner.slice(nr).map((c) => pos[c]), b], wrap: "left" });
      continue;
    }
    const pts = [a, ...(VIA[id] || []).map(P), b];
    along(pts, inner.length).forEach((p, k) => { pos[inner[k]] = p; });
    lanes.push({ id, pts: chain.map((c) => pos[c]) });
  }
  for (const [code, ll] of Object.entries(PORT_AT)) pos[code] = P(ll);
  GEO = { pos, lanes };
  return GEO;
}

// Coastlines at [lon, lat], rough: enough to know where one is.
const LAND = [
  // Europe and Asia
  [[-5.6, 36.1], [-8.9, 37], [-9.5, 38.8], [-8.8, 42], [-9.3, 43.2], [-1.5, 43.4], [-1.2, 46], [-4.6, 47.9], [-1.5, 48.7],
    [1.5, 50.1], [3.5, 51.3], [4.6, 52.8], [7, 53.5], [8.6, 53.9], [8.2, 55.5], [8.1, 56.8], [10.5, 57.6], [10.3, 56.3],
    [10.8, 55], [12.5, 54.4], [14.2, 53.9], [19, 54.5], [21, 55.5], [21, 57], [24, 57.2], [23.5, 59.3], [30, 60], [30, 66],
    [141, 66], [141, 52], [135, 43], [129, 35], [122, 40], [121, 31], [117, 24], [113.5, 22.2], [110, 21], [108.5, 21.5],
    [106.5, 18], [109, 12], [105, 8.6], [103, 10.5], [100.5, 13.5], [100, 8], [103.5, 1.3], [100.5, 3], [98, 8], [98.5, 16],
    [94.5, 16.5], [92, 21.5], [89, 21.8], [87, 21.5], [80.2, 15.5], [80.1, 12], [79.8, 10.3], [77.5, 8.1], [76, 10],
    [74.5, 14.5], [72.8, 19], [72.7, 21.5], [70, 22.5], [68, 23.8], [66.5, 25.3], [61.6, 25.2], [57.3, 25.8], [59.8, 22.5],
    [57.8, 19], [55, 17], [52, 16], [48, 14], [45, 12.7], [43.3, 12.7], [42.7, 15.6], [39, 21.5], [35, 28], [34.2, 31.3],
    [35, 33], [36, 36], [32, 36.5], [29, 36.5], [27, 37.5], [26.2, 39.5], [26, 40.8], [23, 40.3], [22.8, 37.5], [21.7, 36.8],
    [20, 39.7], [19.4, 41.8], [16, 43.5], [13.6, 45.6], [12.3, 45.3], [12.6, 44], [14, 42], [16, 41.3], [18.5, 40.2], [17, 39],
    [16.6, 38.4], [15.7, 38], [15.6, 40], [14, 41], [12, 41.8], [10.5, 43], [8.8, 44.4], [7.5, 43.8], [5, 43.3], [3, 43.2],
    [3.2, 41.9], [0.8, 41], [-0.3, 39.5], [0, 38.7], [-0.7, 37.6], [-2.1, 36.7], [-4.4, 36.7]],
  // Scandinavia
  [[5, 58.5], [4.8, 66], [25, 66], [21, 64], [17.5, 62], [17, 60.5], [18.8, 60], [16.5, 57.5], [16, 56.2], [14.2, 55.4],
    [12.9, 55.5], [12.7, 56.5], [11.2, 58.8], [10.5, 59.2], [8, 58.1], [6, 58]],
  // Zealand
  [[11, 55.2], [12.6, 55.6], [12.2, 56.1], [11.1, 55.9]],
  // Britain and Ireland
  [[-5.7, 50], [-3, 50.6], [1.3, 51.2], [1.7, 52.6], [0.3, 53.5], [-0.1, 54.5], [-1.8, 55.7], [-2.1, 57.6], [-4, 58.6],
    [-5, 58.6], [-6.2, 56.5], [-4.9, 55], [-3, 54], [-4.4, 53.3], [-4.2, 52.2], [-5.2, 51.7], [-3.2, 51.4], [-4.5, 51.1]],
  [[-6, 52.2], [-6, 54], [-7.5, 55.2], [-10, 54.2], [-10, 51.7], [-8, 51.6]],
  // Africa
  [[-5.9, 35.8], [-10, 30], [-13, 27.5], [-17, 21], [-17.4, 14.7], [-16.5, 12], [-13, 8], [-8, 4.5], [-4, 5.2], [1, 6],
    [4.5, 6.3], [8.5, 4.5], [9.6, 3], [9.5, -1], [12, -5], [13.3, -9], [12, -16], [14.5, -22.7], [16.5, -28.6], [18.4, -34.2],
    [20, -34.8], [25.6, -34], [30, -31], [32.6, -26], [35.5, -24], [35.5, -21], [39.5, -16.5], [40.5, -11], [39.3, -6.5],
    [40, -3], [43, 1.5], [48, 5], [51.2, 11.8], [45, 10.5], [43.3, 11.5], [41.6, 14.8], [38.6, 18], [37.2, 21.5], [35.5, 24],
    [33.6, 27.3], [32.6, 29.9], [32.3, 31.3], [29.9, 31.3], [25.2, 31.6], [20.1, 32], [19.5, 30.3], [15.5, 31.8],
    [11.2, 33.3], [10.2, 36.9], [3, 36.8], [-2, 35.2]],
  [[49.4, -12], [50.5, -15.5], [47.1, -24.9], [45.1, -25.3], [43.5, -22], [44.4, -16.3], [47, -15.5]],
  [[80, 6], [81.9, 7.5], [80.2, 9.8], [79.8, 8]],
  [[95.3, 5.6], [98, 4], [103.8, -1], [106, -5.9], [104.5, -5.9], [101, -2.5], [97.5, 2]],
  [[105.2, -6.8], [106, -5.9], [110.5, -6.5], [114.5, -7.7], [114.4, -8.7], [108, -7.8]],
  [[109, 1.8], [111, -3], [116, -4], [118.8, 1], [117.5, 7], [116, 6], [113, 3.2], [110, 1.7]],
  [[114, -22], [113.5, -26], [115, -34], [123, -34], [131, -31.5], [138, -35], [143, -38.6], [150, -37.5], [153.6, -28],
    [153, -25], [146, -19], [142.5, -10.7], [141.5, -17], [136, -12], [130.8, -11.5], [129, -15], [125, -14.5], [122, -18]],
  [[130, 31], [134, 33.5], [140, 35], [141.5, 40], [140.5, 43], [145, 43.5], [142, 45.5], [139.5, 40], [136, 35.5], [131, 34.5]],
  [[120, 18.5], [122.3, 18.3], [124, 13], [126, 7], [125.5, 6], [122, 7], [120, 14]],
  [[131, -1], [141, -2.6], [150, -6], [147, -10], [141, -9], [137, -5], [132, -4]],
  // The Americas
  [[-137, 66], [-60, 66], [-61, 56], [-57, 51.8], [-60, 50.2], [-66.5, 50], [-64.5, 48.8], [-64, 46], [-61, 45.5],
    [-63.5, 44.6], [-66, 43.8], [-67, 44.6], [-70.2, 43.6], [-70.6, 41.8], [-74, 40.5], [-74.2, 39.3], [-76, 38],
    [-75.5, 35.3], [-77.9, 34], [-81, 31.5], [-80.1, 27], [-80.4, 25.2], [-81.2, 25.1], [-82.8, 27.8], [-83, 29.5],
    [-85, 29.7], [-89, 30.2], [-90, 29], [-94, 29.5], [-97.5, 26], [-97.5, 22], [-95.8, 18.7], [-94.4, 18.2], [-91, 18.7],
    [-90.4, 21], [-87, 21.5], [-87.7, 18.5], [-88.2, 16], [-83.5, 15.2], [-83.6, 11], [-81.6, 9], [-79.5, 9.4], [-77.4, 8.6],
    [-75.5, 10.6], [-72, 11.9], [-71.4, 10.9], [-68, 10.5], [-62, 10.7], [-60, 8.5], [-57, 6], [-52, 5], [-50, 1.5],
    [-48, -1], [-44, -2.5], [-39, -3.5], [-35, -5.5], [-35, -9], [-37.5, -12.5], [-39, -17.5], [-40.5, -21.5], [-42, -23],
    [-44.5, -23.3], [-48.5, -26], [-48.8, -28.6], [-51.5, -31.5], [-53.5, -34], [-56, -34.8], [-58.3, -34.5], [-57.5, -38],
    [-62.3, -38.8], [-65, -41], [-65, -45], [-67.6, -46.5], [-65.8, -48], [-69, -51.5], [-68.5, -54], [-72, -54.6],
    [-75, -51], [-74, -45], [-73.5, -41.5], [-73.6, -37], [-71.5, -32.5], [-71.3, -26], [-70.3, -18.5], [-71.5, -17.5],
    [-75.3, -15], [-77, -12], [-79.4, -7.2], [-81.2, -5.8], [-80.3, -3.4], [-80.9, -1], [-80.2, 0.9], [-78.9, 1.5],
    [-77.4, 4], [-77.5, 7], [-78.5, 8.3], [-80, 7.4], [-81.5, 7.7], [-85.7, 10], [-87.5, 13], [-91.5, 14], [-94.5, 16],
    [-96.5, 15.7], [-101, 17.2], [-105.5, 20.5], [-105.7, 22.6], [-112, 29], [-117, 32.5], [-120.6, 34.6], [-122.5, 37.8],
    [-124, 40.4], [-124.5, 43], [-124, 46.3], [-124.7, 48.4], [-127.5, 50.5], [-130.5, 54.5], [-137, 57.5]],
  [[-52.7, 47.5], [-53.5, 49.5], [-55.8, 51.6], [-59.3, 48.4], [-57.5, 47.6]],
  [[-85, 21.8], [-84, 22.7], [-82, 23.2], [-80, 23.1], [-77.5, 21.8], [-74.2, 20.2], [-77.5, 19.9], [-78.5, 21.5], [-81, 21.8]],
  [[-74.4, 18.5], [-72.8, 19.9], [-70, 19.7], [-68.4, 18.6], [-71.4, 17.6], [-74.4, 18.1]],
  [[-67.2, 18.0], [-65.6, 18.4], [-65.6, 18.0], [-67.2, 17.9]],
  [[-55, 63], [-48, 60.8], [-43, 59.9], [-40, 63]],
];

// ---------------------------------------------------------------------------- drawing
const SEAT_COLOURS = ["#d64541", "#3b6fd1", "#2e9e52", "#e0b81a"];
const SEAT_EN = ["red", "blue", "green", "yellow"];
const GOOD_COLOURS = {
  Kr: "#b5651d", Te: "#3f7f3f", Si: "#d86fb0", Po: "#e9eef5", Ka: "#5a3a22", Su: "#f5f1e3",
  To: "#a88b3d", Bo: "#cfd8dc", El: "#fff4c2", "Sø": "#b0b7bd", Pe: "#7b5b45", Ma: "#4a6fa5",
};
const HAZARD_STYLE = {
  tailwind: { fill: "#bfe8c3", glyph: "»", en: "tail wind" },
  headwind: { fill: "#f7d2a8", glyph: "«", en: "head wind" },
  storm: { fill: "#c9b8ec", glyph: "ϟ", en: "storm" },
  iceberg: { fill: "#ffffff", glyph: "▲", en: "iceberg" },
  calm: { fill: "#d6d6d6", glyph: "≈", en: "calm" },
  reef: { fill: "#e8b08a", glyph: "✱", en: "dangerous reef" },
  pirates: { fill: "#555555", glyph: "☠", en: "pirate waters" },
};

const hazardName = (k) => ui(`hz_${k}`, HAZARD_STYLE[k].en);

function who(ctx, i) {
  const p = ctx.players[i];
  const n = ctx.name ? ctx.name(i) : (p && (p.name || (p.bot ? `${p.bot} bot` : null))) || uif("seat", "seat {n}", { n: i });
  return ctx.seat === i ? `${n} (${t("you")})` : n;
}

function clickAttrs(ctx, id, base = "") {
  const c = ctx.clickable(id);
  const sel = ctx.selected(id);
  return {
    class: `${base}${c ? " clickable" : ""}${sel ? " selected" : ""}`.trim() || null,
    "data-id": c ? id : null, "data-ref": id,
    tabindex: c ? 0 : null,
    role: c ? "button" : null,
  };
}

function goodCube(x, y, g, size = 7) {
  return s("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: 1.2,
    fill: GOOD_COLOURS[g] || "#999", stroke: "#222", "stroke-width": 0.8 });
}

// A ship at (x, y): hull in the owner's colour, a white (merchant) or black (privateer) sail,
// its load as a cube on deck.
function shipIcon(x, y, ship, scale = 1) {
  const col = SEAT_COLOURS[ship.owner % 4];
  const g = s("g", { transform: `translate(${x},${y}) scale(${scale})` });
  g.append(s("path", { d: "M-7,1 L7,1 L4.5,5 L-4.5,5 Z", fill: col, stroke: "#111", "stroke-width": 0.8 }));
  g.append(s("line", { x1: 0, y1: 1, x2: 0, y2: -9, stroke: "#111", "stroke-width": 0.9 }));
  g.append(s("path", { d: "M0.8,-8.5 L6,0 L0.8,0 Z", fill: ship.privateer ? "#111" : "#fdfbf3", stroke: "#111", "stroke-width": 0.6 }));
  g.append(s("path", { d: "M-0.8,-7 L-5,0 L-0.8,0 Z", fill: ship.privateer ? "#111" : "#fdfbf3", stroke: "#111", "stroke-width": 0.6 }));
  if (ship.privateer) g.append(s("text", { x: 3, y: -2, "font-size": 4.5, fill: "#fff", "text-anchor": "middle" }, "☠"));
  if (ship.cargo) g.append(goodCube(-3.2, -1.8, ship.cargo.good, 4));
  if (ship.becalmed) g.append(s("text", { x: 8, y: 0, "font-size": 7, fill: "#1c5f8c" }, "≈"));
  return g;
}

function fortIcon(x, y, owner) {
  const col = SEAT_COLOURS[owner % 4];
  return s("path", {
    d: `M${x - 5},${y + 4} L${x - 5},${y - 3} L${x - 3},${y - 3} L${x - 3},${y - 1} L${x - 1},${y - 1} L${x - 1},${y - 3} ` +
      `L${x + 1},${y - 3} L${x + 1},${y - 1} L${x + 3},${y - 1} L${x + 3},${y - 3} L${x + 5},${y - 3} L${x + 5},${y + 4} Z`,
    fill: col, stroke: "#111", "stroke-width": 0.8,
  });
}

function landPath(poly) {
  return poly.map((ll, i) => `${i ? "L" : "M"}${P(ll).map((v) => v.toFixed(1)).join(",")}`).join(" ") + " Z";
}

function drawMap(v, ctx) {
  const { pos, lanes } = geometry();
  const items = [];
  items.push(s("rect", { x: 0, y: 0, width: MAP_W, height: MAP_H, fill: "#a9cbe0" }));
  for (const poly of LAND) items.push(s("path", { d: landPath(poly), fill: "#e6dcbc", stroke: "#9b8c63", "stroke-width": 0.8 }));
  // Lanes and port links.
  for (const ln of lanes) {
    items.push(s("polyline", { points: ln.pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#5d86a3",
      "stroke-width": 1.2, "stroke-dasharray": ln.wrap ? "3 2" : null }));
  }
  items.push(s("text", { x: MAP_W - 4, y: pos.PE1[1] - 10, "text-anchor": "end", "font-size": 8, fill: "#2c4f69" }, "→ Panamá"));
  items.push(s("text", { x: 4, y: pos.PE9[1] - 30, "font-size": 8, fill: "#2c4f69" }, "Canton →"));
  for (const [code, p] of Object.entries(PORTS)) {
    const a = pos[code];
    const b = pos[p[1]];
    items.push(s("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#5d86a3", "stroke-width": 1.2 }));
  }
  const path = new Set(v.path || []);
  // Clickable squares and ports are drawn after (above) the ships, so that a ship lying on
  // or beside a legal square never takes its click; ships that cannot be clicked let clicks
  // through (pointer-events: none).
  const top = [];
  const myReefs = new Set(v.seat != null && v.players[v.seat] ? v.players[v.seat].reefs : []);
  // Sea squares.
  for (const [code, [x, y]] of Object.entries(pos)) {
    if (PORTS[code]) continue;
    const hz = HAZARDS[code];
    const st = hz ? HAZARD_STYLE[hz] : null;
    const junction = ANCHOR[code] !== undefined;
    // In a chart phase the reef's letter is what the action names.
    const idHere = hz === "reef" && ctx.clickable(REEFS[code]) ? REEFS[code] : code;
    const at = clickAttrs(ctx, idHere, "sq");
    const g = s("g", at);
    const r = junction ? 5.5 : 4.5;
    const click = ctx.clickable(idHere);
    g.append(s("circle", { cx: x, cy: y, r: click ? r + (idHere === code ? 1.5 : 4) : r, fill: ctx.selected(idHere) ? "#ffd977" : st ? st.fill : junction ? "#eef5fa" : "#dcebf4",
      stroke: click ? "#d98e04" : path.has(code) ? "#c0392b" : "#46708d",
      "stroke-width": click ? 2.5 : path.has(code) ? 2 : 0.8, class: "cell" }));
    if (st) {
      const glyph = hz === "reef" ? REEFS[code] : st.glyph;
      g.append(s("text", { x, y: y + 2.6, "text-anchor": "middle", "font-size": hz === "reef" ? 7 : 7.5, "font-weight": 700,
        fill: hz === "pirates" ? "#fff" : "#222", "pointer-events": "none" }, glyph));
      if (hz === "reef" && myReefs.has(REEFS[code])) {
        g.append(s("text", { x: x + 5, y: y - 4, "font-size": 7, fill: "#1b7a2e", "font-weight": 700 }, "✓"));
      }
    }
    const name = hz ? `${code}: ${hazardName(hz)}${hz === "reef" ? " " + REEFS[code] : ""}` : code;
    g.append(s("title", {}, name));
    (click ? top : items).push(g);
  }
  // Ports, fortresses, race bonuses.
  const races = {};
  for (const n of v.chance.races || []) for (const c of (CARDS[n] && CARDS[n][3]) || []) races[c] = CARDS[n][4];
  for (const [code, p] of Object.entries(PORTS)) {
    const [x, y] = pos[code];
    const g = s("g", clickAttrs(ctx, code, "port"));
    const home = v.players.find((pl) => pl.home === code);
    g.append(s("rect", { x: x - 12, y: y - 6, width: 24, height: 12, rx: 3, class: "cell",
      fill: ctx.selected(code) ? "#ffd977" : "#fffaf0", stroke: ctx.clickable(code) ? "#d98e04" : home ? SEAT_COLOURS[home.seat % 4] : "#6d5a2e",
      "stroke-width": ctx.clickable(code) ? 2.5 : home ? 2 : 1 }));
    g.append(s("text", { x, y: y + 3.2, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: "#3a2c10" }, code));
    g.append(s("title", {}, `${p[0]}${home ? ` — ${uif("home_of", "home of {who}", { who: who(ctx, home.seat) })}` : ""}`));
    (ctx.clickable(code) ? top : items).push(g);
    const owner = v.fortresses[code];
    if (owner !== undefined) items.push(s("g", { "pointer-events": "none" }, fortIcon(x - 17, y - 1, owner)));
    if (races[code]) {
      items.push(s("circle", { cx: x + 15, cy: y - 6, r: 6, fill: "#f1c40f", stroke: "#8a6d00", "pointer-events": "none" }));
      items.push(s("text", { x: x + 15, y: y - 3.5, "text-anchor": "middle", "font-size": 7, "font-weight": 700, fill: "#3a2c10", "pointer-events": "none" }, "$"));
    }
  }
  const marks = [];
  if (v.attack && pos[v.attack.square]) {
    const [x, y] = pos[v.attack.square];
    marks.push(s("circle", { cx: x, cy: y, r: 13, fill: "rgba(192,57,43,.25)", stroke: "#c0392b", "stroke-width": 2, "pointer-events": "none" }));
    marks.push(s("text", { x: x + 12, y: y + 14, "font-size": 12, fill: "#7a1f1a", "pointer-events": "none" }, "⚔"));
  }
  // Ships, in a row over their square (two rows in a crowded port).
  const byNode = {};
  for (const sh of v.ships) (byNode[sh.at] = byNode[sh.at] || []).push(sh);
  for (const [code, ships] of Object.entries(byNode)) {
    const [x, y] = pos[code] || [0, 0];
    const perRow = 4;
    ships.forEach((sh, k) => {
      const row = Math.floor(k / perRow);
      const inRow = Math.min(perRow, ships.length - row * perRow);
      const col = k % perRow;
      const sx = x + (col - (inRow - 1) / 2) * 13;
      // In port, the ships lie on the side away from the roadstead (clear of the lane).
      const below = PORTS[code] && pos[PORTS[code][1]][1] < y;
      const sy = below ? y + 18 + row * 13 : y - (PORTS[code] ? 12 : 9) - row * 13;
      const at = clickAttrs(ctx, sh.id, "ship");
      const g = s("g", ctx.clickable(sh.id) ? at : { ...at, "pointer-events": "none" });
      if (ctx.clickable(sh.id) || ctx.selected(sh.id) || v.moving === sh.id) {
        g.append(s("circle", { cx: sx, cy: sy - 2, r: 9, fill: ctx.selected(sh.id) ? "#ffd977" : "none",
          stroke: v.moving === sh.id ? "#c0392b" : "#d98e04", "stroke-width": 2 }));
      }
      g.append(shipIcon(sx, sy, sh));
      g.append(s("title", {}, shipTitle(sh, ctx)));
      items.push(g);
    });
  }
  items.push(...top, ...marks);
  return svg(MAP_W, MAP_H, { class: "fuldrigger-map", style: "min-width: 600px; border-radius: 6px" }, ...items);
}

function goodName(g) {
  const x = GOODS[g];
  return x ? ui(`good_${g}`, x[1].toLowerCase()) : g;
}

function cargoText(c) {
  return c ? uif("cargo_text", "{good} bought {price} in {from}, {n} sq.", { good: c.good, price: c.price, from: c.from, n: c.odometer }) : "";
}

function shipTitle(sh, ctx) {
  const bits = [uif("ship_of", "{id} of {who} at {at}", { id: sh.id, who: who(ctx, sh.owner), at: sh.at })];
  if (sh.privateer) bits.push(ui("privateer", "privateer"));
  if (sh.cargo) bits.push(`${ui("cargo", "cargo")} ${goodName(sh.cargo.good)}: ${cargoText(sh.cargo)}`);
  if (sh.becalmed) bits.push(ui("becalmed", "becalmed"));
  if (sh.moved) bits.push(ui("has_moved", "has moved"));
  return bits.join(" · ");
}

function chip(ctx, id, content, extra = {}) {
  const c = ctx.clickable(id);
  const style = "font-size:.78rem;white-space:nowrap;padding:.05rem .3rem;margin:.05rem .1rem .05rem 0;border-radius:5px;display:inline-block;" +
    (c ? "background:#fff;color:#111;border:2px solid #d98e04;cursor:pointer" : "background:rgba(255,255,255,.12);color:#fff;border:1px solid rgba(255,255,255,.3)");
  return h(c ? "button" : "span", { type: c ? "button" : null, class: `chip${c ? " clickable" : ""}${ctx.selected(id) ? " selected" : ""}`,
    "data-id": c ? id : null, style: ctx.selected(id) ? style + ";background:#ffd977;color:#111" : style, ...extra }, content);
}

function swatch(colour, size = 10) {
  return h("span", { style: `display:inline-block;width:${size}px;height:${size}px;border-radius:2px;background:${colour};border:1px solid #222;vertical-align:middle;margin-right:3px` });
}

function panel(title, ...body) {
  return h("div", { class: "fd-panel", style: "background:rgba(0,0,0,.18);border-radius:8px;padding:.4rem .6rem;min-width:0;flex:1 1 250px;max-width:100%;overflow-x:auto" },
    h("h3", { style: "margin:.1rem 0 .3rem;color:#fff" }, title), ...body);
}

const TD = "padding:.1rem .35rem;border-bottom:1px solid rgba(255,255,255,.15)";
const td = (...c) => h("td", { style: TD }, ...c);
const th = (...c) => h("th", { style: TD + ";text-align:left;font-weight:600;opacity:.8" }, ...c);
const tbl = (...rows) => h("table", { style: "border-collapse:collapse;font-size:.85rem;width:100%;color:#fff" }, ...rows);

function companies(v, ctx) {
  const rows = [h("tr", {}, th(""), th(ui("cash", "cash")), th(ui("wealth", "wealth")), th(ui("ships", "ships")))];
  for (const p of v.players) {
    const turn = v.to_act === p.seat;
    const extra = [];
    if (p.fortresses.length) extra.push(h("div", {}, `${ui("fortresses", "fortresses")}: `, p.fortresses.map((c) => chip(ctx, c, c))));
    if (p.reefs.length) extra.push(h("div", {}, `${ui("reefs_known", "reefs known")}: ${p.reefs.join(" ")}`));
    for (const [port, loads] of Object.entries(p.depots || {})) {
      if (loads.length) extra.push(h("div", {}, `${ui("depot", "depot")} ${port}: `, loads.map((ld) => h("span", {}, swatch(GOOD_COLOURS[ld.good]), `${ld.good} `))));
    }
    rows.push(h("tr", { style: turn ? "font-weight:700;background:rgba(255,217,119,.18)" : "" },
      td(swatch(SEAT_COLOURS[p.seat % 4]), `${turn ? "▶ " : ""}${who(ctx, p.seat)}`,
        h("div", { style: "font-size:.75rem;opacity:.85;font-weight:400" }, ui(SEAT_EN[p.seat % 4], SEAT_EN[p.seat % 4]),
          p.home ? ` · ${ui("home", "home")} ${PORTS[p.home][0]}` : "", p.seat === v.banker ? ` · ${ui("banker", "banker")}` : "", p.eliminated ? ` · ${ui("out", "out")}` : "", ...extra)),
      td(h("b", {}, `${p.cash}`)), td(String(p.wealth)), td(String(p.ships))));
  }
  return panel(ui("players", "Players"), tbl(...rows));
}

function fleet(v, ctx) {
  const rows = [h("tr", {}, th(ui("ship", "ship")), th(ui("at", "at")), th(ui("load", "load")), th(""))];
  const ships = [...v.ships].sort((a, b) => (a.owner === v.seat ? -1 : 0) - (b.owner === v.seat ? -1 : 0) || a.owner - b.owner);
  for (const sh of ships) {
    const flags = [];
    if (sh.privateer) flags.push(ui("privateer", "privateer"));
    if (sh.becalmed) flags.push(ui("becalmed", "becalmed"));
    if (sh.moved) flags.push(ui("moved", "moved"));
    if (sh.frozen) flags.push(ui("captured", "captured"));
    if (v.moving === sh.id) flags.push(uif("sailing_left", "sailing, {n} left", { n: v.mp }));
    const icon = svg(22, 16, { width: 22, height: 16, style: "display:inline-block;vertical-align:middle;margin:0" }, shipIcon(11, 10, sh, 1));
    rows.push(h("tr", { style: v.moving === sh.id ? "background:rgba(255,217,119,.25)" : "" },
      td(chip(ctx, sh.id, [icon, " ", sh.id], { title: `${who(ctx, sh.owner)} · ${ui("value", "value")} ${sh.value}` })),
      td(sh.at),
      td(sh.cargo ? [swatch(GOOD_COLOURS[sh.cargo.good]), h("span", { title: cargoText(sh.cargo) },
        `${sh.cargo.good} ${sh.cargo.price} · ${sh.cargo.odometer}/10`)] : h("span", { style: "opacity:.6" }, "—")),
      td(h("span", { style: "font-size:.78rem" }, flags.join(", ")))));
  }
  return panel(ui("ships_panel", "Ships"), tbl(...rows));
}

// The price lists of the ports where the seat's ships lie (or the selected ship's port):
// goods as coloured cubes, K = buy here, S = sell here, and the bank's supply of each good.
function trade(v, ctx) {
  const who0 = v.seat ?? v.turn; // a spectator sees the ports of the player whose turn it is
  const mine = v.ships.filter((sh) => sh.owner === who0 && sh.in_port);
  const sel = v.ships.find((sh) => ctx.selected(sh.id));
  const ports = [...new Set((sel && sel.in_port ? [sel] : mine).map((sh) => sh.at))];
  const sold = {};
  for (const [c, g, n] of v.sales || []) sold[`${c}:${g}`] = n;
  const body = [];
  for (const code of ports) {
    const rows = [h("tr", {}, th(ui("good", "good")), th(ui("price", "price")), th(""), th(ui("supply", "supply")))];
    for (const [g, price, k, sl] of PRICES[code] || []) {
      const mark = `${k ? "K" : ""}${sl ? "S" : ""}`;
      rows.push(h("tr", {},
        td(chip(ctx, g, [swatch(GOOD_COLOURS[g]), g]), " ", h("span", { style: "font-size:.75rem" }, goodName(g))),
        td(String(price), sold[`${code}:${g}`] ? h("span", { style: "font-size:.75rem;opacity:.8" }, ` (${uif("sold", "sold {n}×", { n: sold[`${code}:${g}`] })})`) : ""),
        td(h("span", { title: k && sl ? ui("buy_sell", "buy and sell here") : k ? ui("buy_here", "buy here (køb)") : ui("sell_here", "sell here (salg)") }, mark)),
        td(String(v.supply[g] ?? ""))));
    }
    const owner = v.fortresses[code];
    body.push(h("div", { style: "margin-bottom:.4rem" },
      h("div", { style: "font-weight:600" }, `${PORTS[code][0]} (${code})`,
        owner !== undefined ? h("span", { style: "font-weight:400;font-size:.8rem" }, " · ", swatch(SEAT_COLOURS[owner % 4]), uif("fortress_of", "fortress of {who}", { who: who(ctx, owner) })) : ""),
      tbl(...rows)));
  }
  if (!ports.length) {
    body.push(h("div", { style: "font-size:.85rem;opacity:.85" }, v.seat == null ? ui("no_ship_them", "No ship of this player lies in port. The bank's supply:") : ui("no_ship_you", "No ship of yours lies in port. The bank's supply:")));
  }
  body.push(h("div", { style: "display:flex;flex-wrap:wrap;gap:.3rem;font-size:.8rem;margin-top:.2rem" },
    Object.keys(GOODS).map((g) => h("span", { title: `${goodName(g)}: ${uif("in_supply", "{n} of {m} in the supply", { n: v.supply[g], m: GOODS[g][2] })}` },
      swatch(GOOD_COLOURS[g]), `${g} ${v.supply[g]}`))));
  body.push(h("div", { style: "font-size:.72rem;opacity:.75;margin-top:.2rem" }, ui("ks_legend", "K = buy here (køb), S = sell here (salg); a load must be carried 10 squares")));
  return panel(ui("trade_panel", "Trade"), ...body);
}

function chance(v) {
  const ch = v.chance;
  const items = [];
  const cardBox = (n, note) => {
    const c = CARDS[n];
    if (!c) return h("div", {}, `${ui("card", "card")} ${n}`);
    return h("div", { style: "background:#fdf6e3;color:#222;border-radius:6px;padding:.3rem .45rem;margin:.2rem 0;border-left:5px solid #c0392b" },
      h("div", { style: "font-weight:700" }, `${c[0]}`, h("span", { style: "font-weight:400;font-size:.75rem" }, ` · ${note}`)),
      h("div", { style: "font-size:.8rem" }, ui(`chance_${n}`, c[2])));
  };
  if (ch.round_card) items.push(cardBox(ch.round_card, ui("this_round", "this round")));
  for (const n of ch.races || []) items.push(cardBox(n, ui("race_bonus_map", "race bonus ($ on the map)")));
  if (!items.length) items.push(h("div", { style: "font-size:.85rem;opacity:.85" }, ui("no_card", "No card in force.")));
  items.push(h("div", { style: "font-size:.78rem;opacity:.8" }, uif("deck_count", "{n} cards in the deck, {m} discarded", { n: ch.deck, m: ch.discard.length })));
  return panel(ui("chance_panel", "Chance cards"), ...items);
}

function sideText(g) {
  const parts = [];
  if (g.cash) parts.push(`${g.cash} ${ui("ducats", "ducats")}`);
  for (const c of g.fortresses) parts.push(`${ui("fortress", "fortress")} ${c}`);
  for (const sh of g.ships) parts.push(`${ui("ship", "ship")} ${sh}`);
  for (const ld of g.loads || []) parts.push(`${ui("load", "load")} ${ld.replace(":", " ")} (${ui("depot", "depot")})`);
  return parts.join(", ") || ui("nothing", "nothing");
}

function offerBox(o, ctx, title) {
  const c = ctx.clickable(o.id);
  return h("div", { class: `${c ? "clickable" : ""}${ctx.selected(o.id) ? " selected" : ""}`, "data-id": c ? o.id : null,
    tabindex: c ? 0 : null, role: c ? "button" : null,
    style: `background:#fdf6e3;color:#222;border-radius:6px;padding:.3rem .45rem;margin:.2rem 0;border:2px solid ${c ? "#d98e04" : "transparent"}` },
    h("div", { style: "font-weight:700" }, title || `${ui("offer", "Offer")} ${o.id}`, h("span", { style: "font-weight:400;font-size:.75rem" },
      ` · ${o.label === "peace" ? ui("peace", "peace") : ui("trade", "trade")}${o.expires ? ` · ${uif("open_until", "open until round {n}", { n: o.expires })}` : ""}` +
      `${o.counter_of ? ` · ${uif("counter_to", "counter to {n}", { n: o.counter_of })}` : ""}`)),
    h("div", { style: "font-size:.82rem" }, swatch(SEAT_COLOURS[o.from % 4]), `${uif("gives", "{who} gives:", { who: who(ctx, o.from) })} ${sideText(o.from_gives)}`),
    h("div", { style: "font-size:.82rem" }, swatch(SEAT_COLOURS[o.to % 4]), `${uif("gives", "{who} gives:", { who: who(ctx, o.to) })} ${sideText(o.to_gives)}`),
    o.truce_rounds ? h("div", { style: "font-size:.82rem" }, `${ui("truce", "truce")}: ${uif("rounds", "{n} rounds", { n: o.truce_rounds })}`) : "");
}

// Cash of any whole sum (rule 11.1): the engine takes a sum digit by digit from the left
// (137 = "give cash 100", "give cash 30", "give cash 7"), so the box sends the digits of the
// number typed one after another, each once the server has taken the one before.
let cashQueue = [];

function digitSteps(verb, n) {
  const digits = String(n);
  const out = [];
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[i]);
    if (d) out.push(`${verb} cash ${d * 10 ** (digits.length - 1 - i)}`);
  }
  return out;
}

function sendQueued(v, ctx) {
  if (!cashQueue.length) return;
  if (!v.draft || v.to_act !== v.seat || document.body.dataset.pending === "true") return;
  const next = cashQueue[0];
  if (!ctx.legal.some((a) => a.text === next)) { cashQueue = []; return; }
  cashQueue = cashQueue.slice(1);
  setTimeout(() => ctx.act(next), 0);
}

function cashBox(v, ctx) {
  const dr = v.draft;
  const row = (verb, label, current, payer) => {
    const input = h("input", { type: "number", min: 1, step: 1, max: v.players[payer].cash - current, class: `fd-cash-${verb}`,
      placeholder: ui("ducats", "ducats"), style: "width:6.5rem;margin:0 .3rem" });
    const go = () => {
      const n = Math.floor(Number(input.value));
      if (!(n > 0)) return;
      cashQueue = digitSteps(verb, n);
      sendQueued(v, ctx);
    };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); go(); } });
    return h("div", { style: "font-size:.82rem;margin:.15rem 0" }, `${label} (${uif("now_has", "now {n}, {who} has {m}", { n: current, who: who(ctx, payer), m: v.players[payer].cash })}): `, input,
      h("button", { type: "button", class: `fd-cash-add-${verb}`, onclick: go }, ui("add", "add")));
  };
  return h("div", {}, row("give", ui("you_give", "you give ducats"), dr.from_gives.cash, dr.from),
    row("ask", ui("you_ask", "you ask for ducats"), dr.to_gives.cash, dr.to));
}

function dealings(v, ctx) {
  const items = [];
  if (v.attack) {
    const a = v.attack;
    items.push(h("div", { style: "background:#3b1f1f;border-radius:6px;padding:.3rem .45rem;margin:.2rem 0" },
      h("div", { style: "font-weight:700" }, `⚔ ${ui("trade_war", "Trade war")}: ${uif("attacks", "{who} attacks {them} at {at}", { who: who(ctx, v.turn), them: who(ctx, a.defender), at: a.square })}`),
      h("div", { style: "font-size:.82rem" }, uif("needs", "needs {n} privateer(s); sent so far: {sent}", { n: a.units, sent: a.joined.join(", ") || ui("none", "none") })),
      ctx.clickable("fort") ? h("div", {}, chip(ctx, "fort", ui("take_fortress", "take the fortress"))) : ""));
  }
  if (v.draft) items.push(offerBox(v.draft, ctx, `${ui("draft", "Draft")} ${v.draft.id}`));
  for (const o of v.offers) items.push(offerBox(o, ctx));
  if (v.draft && v.to_act === v.seat && v.seat != null) {
    items.push(cashBox(v, ctx));
    const what = ["fort", "ship", "load"].filter((x) => ctx.clickable(x));
    const loads = [];
    for (const p of v.players) for (const [port, lds] of Object.entries(p.depots || {})) {
      for (const g of new Set(lds.map((ld) => ld.good))) if (ctx.clickable(`${port}:${g}`)) loads.push(`${port}:${g}`);
    }
    if (what.length || loads.length) {
      items.push(h("div", { style: "font-size:.82rem;margin-top:.2rem" }, `${ui("clauses", "clauses")}: `, what.map((x) => chip(ctx, x, x)),
        loads.length ? [` ${ui("depot_loads", "depot loads")}: `, loads.map((x) => chip(ctx, x, x.replace(":", " ")))] : "", ` — ${ui("or_click", "or click a ship or a fortress")}`));
    }
  }
  for (const [a, b, r] of v.truces || []) {
    items.push(h("div", { style: "font-size:.82rem" }, `☮ ${ui("truce", "truce")}: ${uif("truce_until", "{a} and {b} until round {n}", { a: who(ctx, a), b: who(ctx, b), n: r })}`));
  }
  const reefs = "ABCDEFGHIJ".split("").filter((x) => ctx.clickable(x));
  if (reefs.length) items.push(h("div", { style: "font-size:.85rem" }, `${ui("new_charts", "New charts")}: ${ui("learn_reef", "learn a reef")} `, reefs.map((x) => chip(ctx, x, x))));
  if (!items.length) return null;
  return panel(`${ui("offers", "Offers")} · ${ui("trade_war_l", "trade war")}`, ...items);
}

function status(v, ctx) {
  const bits = [];
  bits.push(h("b", {}, `${ui("round", "Round")} ${v.round}/${v.rounds_limit}`));
  const over = v.to_act == null;
  if (!over && v.turn != null && v.phase !== "home") bits.push(` · ${ui("turn_of", "turn of")} `, swatch(SEAT_COLOURS[v.turn % 4]), who(ctx, v.turn));
  bits.push(over ? ` · ${ui("game_over", "game over")}` : ` · ${ui("phase", "phase")} ${ui(`phase_${v.phase}`, v.phase)}`);
  if (v.M && !over) {
    bits.push(" · ", h("span", { title: ui("dice_help", "the three movement dice: every ship may sail this many squares this turn"),
      style: "display:inline-block;background:#fff;color:#111;border-radius:4px;padding:0 .35rem;font-weight:700;border:1px solid #333" }, `⚄ ${v.M}`),
    ` ${ui("squares", "squares")}`);
  }
  if (v.moving) bits.push(` · ${v.moving} ${uif("sailing_left", "sailing, {n} left", { n: v.mp })}`);
  if (v.winners && v.winners.length) bits.push(h("b", {}, ` · ${ui("winner", "winner")}: ${v.winners.map((w) => who(ctx, w)).join(", ")}`));
  return h("div", { style: "margin:.1rem 0 .4rem;font-size:.9rem" }, ...bits);
}

function legend() {
  const items = Object.entries(HAZARD_STYLE).map(([k, st]) => h("span", { style: "white-space:nowrap" },
    h("span", { style: `display:inline-block;width:12px;height:12px;border-radius:50%;background:${st.fill};color:${k === "pirates" ? "#fff" : "#222"};font-size:9px;text-align:center;line-height:12px;border:1px solid #46708d;margin-right:2px` }, k === "reef" ? "A" : st.glyph),
    hazardName(k)));
  items.push(h("span", {}, `▙ ${ui("fortress", "fortress")} · $ ${ui("race_bonus", "race bonus")}`));
  return h("div", { style: "display:flex;flex-wrap:wrap;gap:.25rem .7rem;font-size:.75rem;margin:.3rem 0;opacity:.9" }, ...items);
}

export function render(v, ctx) {
  sendQueued(v, ctx);
  const map = h("div", { style: "overflow-x:auto" }, drawMap(v, ctx));
  const panels = [companies(v, ctx), trade(v, ctx), fleet(v, ctx), chance(v), dealings(v, ctx)].filter(Boolean);
  return h("div", { class: "fuldrigger-wrap" }, status(v, ctx), map, legend(),
    h("div", { style: "display:flex;flex-wrap:wrap;gap:.5rem" }, ...panels));
}
