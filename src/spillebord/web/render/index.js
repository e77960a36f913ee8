// The renderer of each game: render(view, ctx) -> Element. ctx: {seat, players, toAct, legal,
// selected(id), clickable(id), pick(id), act(text)}. Elements with data-id and class "clickable"
// are wired to ctx.pick by the table page. A game without its own renderer gets the generic one.
const MODULES = {
  kasino: "./kasino.js",
  metscri: "./metscri.js",
  "88": "./eightyeight.js",
  touche: "./touche.js",
  revir: "./revir.js",
  partners: "./partners.js",
  fuldrigger: "./fuldrigger.js",
};

export async function renderer(gameId) {
  const generic = (await import("./generic.js")).render;
  const path = MODULES[gameId];
  if (!path) return generic;
  try {
    const mod = await import(path);
    if (mod.setBoard) {
      // The printed board (map, price lists, card texts) comes from the engine, not a copy here.
      const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/board`);
      mod.setBoard(await r.json());
    }
    return (view, ctx) => {
      try { return mod.render(view, ctx); } catch (e) { console.error(e); return generic(view, ctx); }
    };
  } catch {
    return generic;
  }
}
