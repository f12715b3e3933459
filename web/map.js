// The SVG map: terrain, roads, hexsides, objectives, counters and overlays, with zoom and pan.
// It draws what it is given (a scenario's map, or a seat's view) and nothing else.

import { hexOf } from "./api.js";
import { Grid, SIZE, labelOf, parseLabel } from "./hex.js";

/** @typedef {import("./api.js").MapView} MapView */
/** @typedef {import("./api.js").UnitView} UnitView */
/** @typedef {import("./api.js").MarkerView} MarkerView */
/** @typedef {import("./api.js").ObjectiveView} ObjectiveView */
/** @typedef {import("./hex.js").Point} Point */

/**
 * An overlay on one hex: where a selected unit can go or strike.
 * @typedef {object} Mark
 * @property {"reach" | "move" | "fire" | "melee" | "other"} kind
 * @property {string} text  shown in the hex (a cost, a chance)
 */

const NS = "http://www.w3.org/2000/svg";
export const SIDE_COLOUR = { red: "#b5372b", blue: "#2d5a9a" };

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {Element} [parent]
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, parent) {
  const el = /** @type {SVGElement} */ (document.createElementNS(NS, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

/**
 * A terrain token (`W`, `.1`, `~`) as its code and elevation.
 * @param {string} token
 */
function cell(token) {
  return { code: token[0] ?? ".", elevation: Number(token.slice(1)) || 0 };
}

/** Base fills by terrain code. */
const FILL = {
  ".": "#ebe6c8",
  W: "url(#P-woods)",
  w: "url(#P-lightwoods)",
  T: "#e4dcc2",
  "~": "url(#P-water)",
  "=": "url(#P-water)",
  f: "url(#P-ford)",
  m: "url(#P-marsh)",
  r: "url(#P-rough)",
  M: "#b7a48a",
  F: "#ebe6c8",
};

/** Each terrain's colour as a flat swatch, for the legend (the map draws patterns over them). */
const SWATCH = {
  ".": "#ebe6c8",
  W: "#7fa866",
  w: "#c9d9a6",
  T: "#e4dcc2",
  "~": "#86b7e3",
  "=": "#86b7e3",
  f: "#a9cde9",
  m: "#cfd9b7",
  r: "#ddd1aa",
  M: "#b7a48a",
  F: "#ebe6c8",
};

/** Hill tints by elevation. */
const HILL = ["none", "rgba(168, 124, 62, 0.30)", "rgba(140, 96, 40, 0.48)", "rgba(110, 70, 25, 0.6)"];

let instances = 0;

/** One map on the page. */
export class MapCanvas {
  /**
   * @param {HTMLElement} host  the element the SVG fills
   * @param {MapView} map
   * @param {{labels?: boolean, interactive?: boolean}} [opts]
   */
  constructor(host, map, opts = {}) {
    this.grid = new Grid(map.grid, map.width, map.height);
    this.prefix = `m${++instances}-`;
    const { w, h } = this.grid.size;
    this.full = { x: -6, y: -6, w: w + 12, h: h + 12 };
    this.box = { ...this.full };
    this.root = /** @type {SVGSVGElement} */ (
      svg("svg", { class: "map", role: "img", "aria-label": "map" }, host)
    );
    this.applyBox();
    this.defs(this.root);
    this.terrain = svg("g", { class: "terrain" }, this.root);
    this.drawTerrain(map, opts.labels ?? true);
    this.overlay = svg("g", { class: "overlay" }, this.root);
    this.pieces = svg("g", { class: "pieces" }, this.root);
    this.top = svg("g", { class: "top" }, this.root);
    /** The rule system of the pieces drawn: counters read as its rules have them. */
    /** @type {(label: string, ev?: PointerEvent) => void} */
    this.onHex = () => {};
    /** @type {(id: string | null, ev: MouseEvent) => void} */
    this.onHover = () => {};
    if (opts.interactive) this.listen();
  }

  applyBox() {
    const b = this.box;
    this.root.setAttribute("viewBox", `${b.x} ${b.y} ${b.w} ${b.h}`);
  }

  /**
   * Patterns for textured terrain, with ids unique to this map.
   * @param {SVGSVGElement} root
   */
  defs(root) {
    const d = svg("defs", {}, root);
    const p = this.prefix;
    /**
     * @param {string} name
     * @param {number} size
     * @param {string} bg
     */
    const pattern = (name, size, bg) => {
      const el = svg(
        "pattern",
        { id: p + name, width: size, height: size, patternUnits: "userSpaceOnUse" },
        d,
      );
      svg("rect", { width: size, height: size, fill: bg }, el);
      return el;
    };
    // Woods: clumps of round tree crowns, each with a darker shadow.
    const woods = pattern("woods", 22, "#7fa866");
    for (const [x, y, r] of [
      [5, 6, 4.5],
      [15, 4, 4],
      [11, 14, 5],
      [20, 17, 3.5],
      [3, 18, 3.5],
    ]) {
      svg("circle", { cx: x + 0.8, cy: y + 1, r, fill: "#3d6b2c" }, woods);
      svg("circle", { cx: x, cy: y, r, fill: "#5d8f45" }, woods);
    }
    const light = pattern("lightwoods", 26, "#c9d9a6");
    for (const [x, y, r] of [
      [6, 7, 4],
      [19, 18, 4.2],
    ]) {
      svg("circle", { cx: x + 0.8, cy: y + 1, r, fill: "#4f7d3a" }, light);
      svg("circle", { cx: x, cy: y, r, fill: "#76a85a" }, light);
    }
    const water = pattern("water", 16, "#86b7e3");
    svg("path", { d: "M0 5 q4 -3 8 0 t8 0 M0 13 q4 -3 8 0 t8 0", stroke: "#5b93c9", fill: "none", "stroke-width": 1 }, water);
    const ford = pattern("ford", 12, "#a9cde9");
    svg("circle", { cx: 3, cy: 3, r: 1.6, fill: "#8c7b5c" }, ford);
    svg("circle", { cx: 9, cy: 9, r: 1.6, fill: "#8c7b5c" }, ford);
    const marsh = pattern("marsh", 18, "#cfd9b7");
    svg("path", { d: "M3 8 h6 M5 8 v-4 M7 8 l2 -3 M3 8 l-1 -3 M11 16 h6 M14 16 v-4 M12 16 l-1 -3 M16 16 l1 -3", stroke: "#4f7f88", "stroke-width": 1, fill: "none" }, marsh);
    const rough = pattern("rough", 14, "#ddd1aa");
    svg("path", { d: "M2 5 l2 -2 l2 2 z M9 12 l2 -2 l2 2 z", fill: "#9c8a62" }, rough);
    svg("circle", { cx: 10, cy: 4, r: 1, fill: "#8a7852" }, rough);
    svg("circle", { cx: 4, cy: 11, r: 1, fill: "#8a7852" }, rough);
  }

  /**
   * @param {MapView} map
   * @param {boolean} labels
   */
  drawTerrain(map, labels) {
    const g = this.grid;
    const t = this.terrain;
    /** @type {Map<string, {code: string, elevation: number}>} */
    const cells = new Map();
    map.rows.forEach((line, r) => {
      line.trim().split(/\s+/).forEach((token, c) => {
        cells.set(labelOf(c + 1, r + 1), cell(token));
      });
    });
    this.cells = cells;
    const base = svg("g", {}, t);
    const hills = svg("g", {}, t);
    const features = svg("g", {}, t);
    for (const { col, row, label } of g.cells()) {
      const c = g.centre(col, row);
      const k = cells.get(label) ?? { code: ".", elevation: 0 };
      const fill = (FILL[/** @type {keyof typeof FILL} */ (k.code)] ?? FILL["."]).replace("#P-", `#${this.prefix}`);
      svg("polygon", { points: g.outline(c), fill, "data-hex": label, class: `hex t-${terrainName(k.code)}` }, base);
      if (k.elevation > 0) {
        svg("polygon", { points: g.outline(c), fill: HILL[Math.min(k.elevation, 3)], "pointer-events": "none" }, hills);
      }
      this.drawFeature(features, k.code, c, label);
    }
    // Contours: a brown line wherever the ground rises or falls between neighbours.
    const contours = svg("g", { class: "contours", stroke: "#8a5a24", "stroke-width": 2.2, "stroke-linecap": "round", fill: "none" }, t);
    for (const { label } of g.cells()) {
      for (const other of this.neighbours(label)) {
        if (other < label) continue;
        const ea = cells.get(label)?.elevation ?? 0;
        const eb = cells.get(other)?.elevation ?? 0;
        if (ea === eb) continue;
        const e = g.edge(label, other);
        if (e) svg("line", { x1: e[0].x, y1: e[0].y, x2: e[1].x, y2: e[1].y }, contours);
      }
    }
    const lines = svg("g", { class: "gridlines", fill: "none", stroke: "rgba(60, 50, 30, 0.35)", "stroke-width": 0.8, "pointer-events": "none" }, t);
    for (const { col, row } of g.cells()) svg("polygon", { points: g.outline(g.centre(col, row)) }, lines);
    this.drawRoads(map, t);
    this.drawHexsides(map, t);
    if (labels) {
      const lab = svg("g", { class: "labels", "pointer-events": "none" }, t);
      for (const { col, row, label } of g.cells()) {
        const c = g.centre(col, row);
        const y = g.kind === "square" ? c.y - SIZE + 10 : c.y - (Math.sqrt(3) / 2) * SIZE + 9;
        const text = svg("text", { x: c.x, y, class: "hexlabel" }, lab);
        text.textContent = label;
      }
    }
  }

  /**
   * Labels of the cells that share an edge with this one.
   * @param {string} label
   * @returns {string[]}
   */
  neighbours(label) {
    const cr = parseLabel(label);
    if (!cr) return [];
    const out = [];
    for (let dc = -1; dc <= 1; dc++) {
      for (let dr = -1; dr <= 1; dr++) {
        const col = cr.col + dc;
        const row = cr.row + dr;
        if ((dc || dr) && col >= 1 && row >= 1 && col <= this.grid.width && row <= this.grid.height) {
          const other = labelOf(col, row);
          if (this.grid.edge(label, other)) out.push(other);
        }
      }
    }
    return out;
  }

  /**
   * Buildings, peaks, bridges and forts drawn on top of a hex's fill.
   * @param {SVGElement} g
   * @param {string} code
   * @param {Point} c
   * @param {string} label
   */
  drawFeature(g, code, c, label) {
    if (code === "T") {
      for (const [x, y, w, h] of [
        [-17, -14, 13, 9],
        [1, -17, 10, 12],
        [-12, 1, 9, 13],
        [4, 2, 14, 9],
        [-2, -4, 6, 6],
      ]) {
        svg("rect", { x: c.x + x + 1.2, y: c.y + y + 1.2, width: w, height: h, fill: "#6e5a4a" }, g);
        svg("rect", { x: c.x + x, y: c.y + y, width: w, height: h, fill: "#b0574a", stroke: "#5b3128", "stroke-width": 0.8 }, g);
      }
    } else if (code === "M") {
      for (const [x, y, s] of [
        [-10, 6, 13],
        [8, 10, 10],
        [2, -8, 11],
      ]) {
        svg("path", { d: `M${c.x + x - s} ${c.y + y} L${c.x + x} ${c.y + y - s * 1.2} L${c.x + x + s} ${c.y + y} Z`, fill: "#8d7a60", stroke: "#5c4a35", "stroke-width": 1 }, g);
        svg("path", { d: `M${c.x + x - s * 0.28} ${c.y + y - s * 0.86} L${c.x + x} ${c.y + y - s * 1.2} L${c.x + x + s * 0.28} ${c.y + y - s * 0.86} Z`, fill: "#f4f1ea" }, g);
      }
    } else if (code === "F") {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const r = i % 2 ? 13 : 25;
        const a = ((i * 36 - 90) * Math.PI) / 180;
        pts.push(`${(c.x + r * Math.cos(a)).toFixed(1)},${(c.y + r * Math.sin(a)).toFixed(1)}`);
      }
      svg("polygon", { points: pts.join(" "), fill: "#c9bfa3", stroke: "#4a4030", "stroke-width": 2 }, g);
    } else if (code === "=") {
      this.bridges = this.bridges ?? [];
      this.bridges.push(label);
    }
  }

  /**
   * Roads as lines between hex centres; bridges as planks along their road.
   * @param {MapView} map
   * @param {SVGElement} t
   */
  drawRoads(map, t) {
    const g = svg("g", { class: "roads", fill: "none", "stroke-linecap": "round", "pointer-events": "none" }, t);
    /** @type {Map<string, Point[]>} */
    const ends = new Map();
    const segs = [];
    for (const [a, b] of map.roads) {
      const pa = this.grid.at(a);
      const pb = this.grid.at(b);
      if (!pa || !pb) continue;
      segs.push([pa, pb]);
      ends.set(a, [...(ends.get(a) ?? []), pb]);
      ends.set(b, [...(ends.get(b) ?? []), pa]);
    }
    for (const [stroke, width] of [
      ["#6b5330", 7],
      ["#d6b77a", 4.5],
    ]) {
      for (const [pa, pb] of segs) {
        svg("line", { x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y, stroke, "stroke-width": width }, g);
      }
    }
    for (const label of this.bridges ?? []) {
      const c = this.grid.at(label);
      if (!c) continue;
      const towards = ends.get(label)?.[0];
      const angle = towards ? (Math.atan2(towards.y - c.y, towards.x - c.x) * 180) / Math.PI : 90;
      const b = svg("g", { transform: `translate(${c.x} ${c.y}) rotate(${angle})`, class: "bridge" }, g);
      svg("rect", { x: -30, y: -9, width: 60, height: 18, fill: "#9b7447", stroke: "#4d3519", "stroke-width": 1.5 }, b);
      for (let x = -24; x <= 24; x += 8) svg("line", { x1: x, y1: -9, x2: x, y2: 9, stroke: "#6d4f2c", "stroke-width": 1 }, b);
      svg("line", { x1: -30, y1: -9, x2: 30, y2: -9, stroke: "#3a2810", "stroke-width": 2.5 }, b);
      svg("line", { x1: -30, y1: 9, x2: 30, y2: 9, stroke: "#3a2810", "stroke-width": 2.5 }, b);
    }
  }

  /**
   * Walls, hedges, fences and streams along hexsides.
   * @param {MapView} map
   * @param {SVGElement} t
   */
  drawHexsides(map, t) {
    const g = svg("g", { class: "hexsides", fill: "none", "stroke-linecap": "round", "pointer-events": "none" }, t);
    /** @type {Record<string, [string, number, string][]>} */
    const styles = {
      wall: [
        ["#4b4b4b", 6, ""],
        ["#9a9a92", 3.5, "4 2"],
      ],
      hedge: [
        ["#2f5a23", 7, ""],
        ["#4f8a3a", 4, "2 3"],
      ],
      fence: [["#6b4a25", 2.5, "6 3"]],
      stream: [["#3f7fc0", 5, ""]],
    };
    for (const side of map.hexsides) {
      const e = this.grid.edge(side.between[0], side.between[1]);
      if (!e) continue;
      for (const [stroke, width, dash] of styles[side.kind] ?? [["#000", 3, ""]]) {
        const line = svg("line", { x1: e[0].x, y1: e[0].y, x2: e[1].x, y2: e[1].y, stroke, "stroke-width": width, class: `hexside ${side.kind}` }, g);
        if (dash) line.setAttribute("stroke-dasharray", dash);
      }
    }
  }

  /**
   * Draws the pieces of a view: objectives, counters, unidentified markers.
   * @param {UnitView[]} units
   * @param {MarkerView[]} markers
   * @param {ObjectiveView[]} objectives
   */
  setPieces(units, markers, objectives) {
    this.pieces.replaceChildren();
    const obj = svg("g", { class: "objectives", "pointer-events": "none" }, this.pieces);
    for (const o of objectives) {
      const c = this.grid.at(hexOf(o) ?? "");
      if (!c) continue;
      const colour = o.holder ? SIDE_COLOUR[o.holder] : "#d9a400";
      svg("circle", { cx: c.x, cy: c.y, r: SIZE * 0.8, fill: "none", stroke: colour, "stroke-width": 3, "stroke-dasharray": "7 4" }, obj);
      const star = svg("text", { x: c.x + SIZE * 0.62, y: c.y - SIZE * 0.38, class: "objstar", fill: colour }, obj);
      star.textContent = "★";
      const name = svg("text", { x: c.x, y: c.y + SIZE * 0.78, class: "objname" }, obj);
      name.textContent = `${o.name} (${o.points})`;
    }
    // Pieces sharing a hex are drawn side by side, shrunk to fit it.
    /** @type {Map<string, number>} */
    const count = new Map();
    for (const p of [...units, ...markers]) {
      const at = hexOf(p);
      if (at) count.set(at, (count.get(at) ?? 0) + 1);
    }
    /** @type {Map<string, number>} */
    const placed = new Map();
    /** @param {string} at @returns {{x: number, y: number, scale: number} | null} */
    const slot = (at) => {
      const c = this.grid.at(at);
      if (!c) return null;
      const n = count.get(at) ?? 1;
      const k = placed.get(at) ?? 0;
      placed.set(at, k + 1);
      if (n === 1) return { x: c.x, y: c.y, scale: 1 };
      const scale = n === 2 ? 0.62 : 0.48;
      const cols = 2;
      const row = Math.floor(k / cols);
      const rows = Math.ceil(n / cols);
      const step = 46 * scale;
      return { x: c.x + ((k % cols) - (cols - 1) / 2) * step, y: c.y + (row - (rows - 1) / 2) * step, scale };
    };
    for (const u of units) {
      const s = slot(hexOf(u) ?? "");
      if (s) this.counter(u, s, s.scale);
    }
    for (const m of markers) {
      const s = slot(hexOf(m) ?? "");
      if (!s) continue;
      const g = svg("g", { class: `counter marker ${m.side}`, transform: `translate(${s.x} ${s.y}) scale(${s.scale})`, "data-marker": m.id, "data-hex": hexOf(m) ?? "" }, this.pieces);
      svg("rect", { x: -20, y: -20, width: 40, height: 40, rx: 3, fill: SIDE_COLOUR[m.side], stroke: "#1d1d1d", "stroke-width": 1.5, opacity: 0.85 }, g);
      const q = svg("text", { x: 0, y: 10, class: "qmark" }, g);
      q.textContent = "?";
    }
  }

  /**
   * One unit's counter: side colour, NATO-style arm box, id, hit pips, markers and facing.
   * @param {UnitView} u
   * @param {Point} c
   * @param {number} [scale]  below 1 when the hex holds more than one piece
   */
  counter(u, c, scale = 1) {
    // Troops of stands in formations (a measured rule system played on hexes) are drawn as
    // such: their stands, formation and command value.
    if (u.elements?.kind === "stands" || u.formation || u.arm === "command") {
      this.standCounter(u, c, scale);
      return;
    }
    const routed = u.flags.includes("routed");
    const g = svg("g", { class: `counter unit ${u.side}${routed ? " routed" : ""}`, transform: `translate(${c.x} ${c.y}) scale(${scale})`, "data-unit": u.id, "data-hex": hexOf(u) ?? "" }, this.pieces);
    const squareSide = u.flags.find((f) => f.startsWith("facing "))?.slice(7);
    const d = u.facing
      ? this.grid.direction(u.facing)
      : squareSide
        ? { N: { x: 0, y: -1 }, E: { x: 1, y: 0 }, S: { x: 0, y: 1 }, W: { x: -1, y: 0 } }[squareSide] ?? null
        : null;
    if (d) {
      const px = -d.y;
      const py = d.x;
      const tip = 35;
      const base = 22;
      svg("polygon", {
        points: `${d.x * tip},${d.y * tip} ${d.x * base + px * 9},${d.y * base + py * 9} ${d.x * base - px * 9},${d.y * base - py * 9}`,
        fill: "#1d1d1d",
        stroke: "#fff",
        "stroke-width": 1,
        class: "facing",
      }, g);
    }
    svg("rect", { x: -22, y: -22, width: 44, height: 44, rx: 3, fill: SIDE_COLOUR[u.side], stroke: "#1d1d1d", "stroke-width": 1.5, class: "body" }, g);
    this.armSymbol(g, u.arm);
    const id = svg("text", { x: 0, y: 9.5, class: "unitid" }, g);
    id.textContent = u.class ? `${u.id}·${u.class}` : u.id;
    // Hit pips: filled for hits taken, open for what is left.
    const n = Math.min(u.max_hits, 8);
    for (let i = 0; i < n; i++) {
      const x = (i - (n - 1) / 2) * 6.5;
      svg("circle", { cx: x, cy: 16.5, r: 2.4, fill: i < u.hits ? "#111" : "#fff", stroke: "#111", "stroke-width": 0.8, class: i < u.hits ? "pip hit" : "pip" }, g);
    }
    if (u.elements) {
      // Figures or stands left, in the counter's lower corner.
      const fig = svg("text", { x: -19, y: 20, class: "figures" }, g);
      fig.textContent = String(u.elements.now);
    }
    if (u.te > 0) {
      svg("circle", { cx: 20, cy: -20, r: 7, fill: "#f2c12e", stroke: "#1d1d1d", "stroke-width": 1 }, g);
      const te = svg("text", { x: 20, y: -16.8, class: "badge" }, g);
      te.textContent = String(u.te);
    }
    if (u.commander) {
      const star = svg("text", { x: -19, y: -12, class: "cmdstar" }, g);
      star.textContent = "★";
    }
    const badges = u.flags.filter((f) => f !== "routed" && f !== "fatigued" && !f.startsWith("facing "));
    if (u.flags.includes("fatigued")) badges.unshift("fatigued");
    badges.forEach((flag, i) => {
      const y = -6 + i * 12;
      const damage = /^(C|D|M)\1?$/.test(flag);
      const b = badge(flag);
      svg("rect", { x: 17, y: y - 5.5, width: damage && flag.length > 1 ? 16 : 12, height: 11, rx: 2, fill: b.colour, stroke: "#1d1d1d", "stroke-width": 0.8 }, g);
      const t = svg("text", { x: damage && flag.length > 1 ? 25 : 23, y: y + 3.2, class: "badge light" }, g);
      t.textContent = b.letter;
    });
    if (routed) {
      svg("line", { x1: -22, y1: 22, x2: 22, y2: -22, stroke: "#fff", "stroke-width": 3, opacity: 0.9 }, g);
      const r = svg("text", { x: 0, y: -24, class: "routedtext" }, g);
      r.textContent = "ROUTED";
    }
  }

  /**
   * A counter of stands in a formation: the formation mark (L, XL, MC, AC, SQ, D) and
   * the stands now/full along the bottom, this turn's hits in the corner, a red ring round a
   * suppressed unit and a dashed outline round a disordered one; command units as command
   * counters showing their command value.
   * @param {UnitView} u
   * @param {Point} c
   * @param {number} scale
   */
  standCounter(u, c, scale) {
    const command = u.arm === "command";
    const suppressed = u.flags.includes("suppressed");
    const disordered = u.flags.includes("disordered") || u.formation === "disordered";
    const cls = `counter unit ${u.side}${command ? " command" : ""}${suppressed ? " suppressed" : ""}${disordered ? " disordered" : ""}`;
    const g = svg("g", { class: cls, transform: `translate(${c.x} ${c.y}) scale(${scale})`, "data-unit": u.id, "data-hex": hexOf(u) ?? "" }, this.pieces);
    if (suppressed) svg("circle", { cx: 0, cy: 0, r: 29, fill: "#c0181833", stroke: "#d01010", "stroke-width": 3.5, class: "suppressring" }, g);
    const d = u.facing ? this.grid.direction(u.facing) : null;
    if (d) {
      const px = -d.y;
      const py = d.x;
      svg("polygon", { points: `${d.x * 35},${d.y * 35} ${d.x * 22 + px * 9},${d.y * 22 + py * 9} ${d.x * 22 - px * 9},${d.y * 22 - py * 9}`, fill: "#1d1d1d", stroke: "#fff", "stroke-width": 1, class: "facing" }, g);
    }
    if (command) {
      // A command counter: a pennant, CO or HQ, and the command value large.
      svg("rect", { x: -17, y: -17, width: 34, height: 34, rx: 17, fill: SIDE_COLOUR[u.side], stroke: "#1d1d1d", "stroke-width": 1.5, class: "body" }, g);
      svg("circle", { cx: 0, cy: 1, r: 11, fill: "#f6f2e6", stroke: "#1d1d1d", "stroke-width": 1 }, g);
      svg("path", { d: "M-9 -21 V-9 M-9 -21 L3 -17.5 L-9 -14", fill: "#ffd23f", stroke: "#1d1d1d", "stroke-width": 1 }, g);
      const value = svg("text", { x: 0, y: 10.5, class: "cmdvalue" }, g);
      value.textContent = String(u.strength ?? "");
      const kind = svg("text", { x: 0, y: -2, class: "cmdkind" }, g);
      kind.textContent = u.class ?? "HQ";
      const id = svg("text", { x: 0, y: 24, class: "cmdid" }, g);
      id.textContent = u.id;
      return;
    }
    const body = svg("rect", { x: -22, y: -22, width: 44, height: 44, rx: 3, fill: SIDE_COLOUR[u.side], stroke: "#1d1d1d", "stroke-width": 1.5, class: "body" }, g);
    if (disordered) {
      body.setAttribute("stroke", "#fff");
      body.setAttribute("stroke-width", "2.5");
      body.setAttribute("stroke-dasharray", "5 3");
    }
    this.armSymbol(g, u.arm);
    const id = svg("text", { x: 0, y: 8.5, class: "unitid" }, g);
    id.textContent = u.id;
    if (u.elements) {
      const st = svg("text", { x: -20, y: 19.5, class: "stands" }, g);
      st.textContent = `${u.elements.now}/${u.elements.full}`;
    }
    const mark = formationMark(u.formation);
    if (mark) {
      const w = mark.length * 6 + 4;
      svg("rect", { x: 20 - w, y: 11.5, width: w, height: 10, rx: 1.5, fill: "#f6f2e6", stroke: "#1d1d1d", "stroke-width": 0.7, class: "formationbox" }, g);
      const f = svg("text", { x: 20 - w / 2, y: 19.3, class: "formation" }, g);
      f.textContent = mark;
    }
    if (u.hits > 0) {
      svg("circle", { cx: 20, cy: -20, r: 7, fill: "#a01818", stroke: "#1d1d1d", "stroke-width": 1 }, g);
      const hits = svg("text", { x: 20, y: -16.8, class: "badge light" }, g);
      hits.textContent = String(u.hits);
    }
    if (u.commander) {
      const star = svg("text", { x: -19, y: -12, class: "cmdstar" }, g);
      star.textContent = "★";
    }
    // Shown by the ring and the outline, or the normal state of a gun: no badge.
    const quiet = ["suppressed", "disordered", "unlimbered"];
    u.flags.filter((f) => !quiet.includes(f)).forEach((flag, i) => {
      const y = -6 + i * 12;
      const { letter, colour } = badge(flag);
      const w = letter.length > 1 ? 6 + letter.length * 5 : 12;
      svg("rect", { x: 17, y: y - 5.5, width: w, height: 11, rx: 2, fill: colour, stroke: "#1d1d1d", "stroke-width": 0.8 }, g);
      const t = svg("text", { x: 17 + w / 2, y: y + 3.2, class: "badge light" }, g);
      t.textContent = letter;
    });
  }

  /**
   * The NATO-style box with the arm's symbol.
   * @param {SVGElement} g
   * @param {string} arm
   */
  armSymbol(g, arm) {
    const a = arm.toLowerCase().replace(/[-_]/g, " ");
    const box = svg("rect", { x: -13, y: -17, width: 26, height: 16, fill: "#f6f2e6", stroke: "#1d1d1d", "stroke-width": 1.3 }, g);
    const sym = svg("g", { stroke: "#1d1d1d", "stroke-width": 1.3, fill: "none" }, g);
    /** @param {string} d */
    const path = (d) => svg("path", { d }, sym);
    const X = "M-13 -17 L13 -1 M13 -17 L-13 -1";
    if (a.includes("skirmish")) {
      box.setAttribute("stroke-dasharray", "3 2");
      path(X);
      for (const x of [-7, 0, 7]) svg("circle", { cx: x, cy: -4, r: 1.3, fill: "#1d1d1d", stroke: "none" }, sym);
    } else if (a.includes("light")) {
      path(X);
      path("M-13 -14.5 H13");
    } else if (a.includes("infantry") || a.includes("line") || a.includes("grenadier") || a.includes("guard")) {
      path(X);
    } else if (a.includes("armour") || a.includes("armor") || a.includes("tank")) {
      // NATO armour: a track (an oval) in the box.
      svg("rect", { x: -9, y: -13.5, width: 18, height: 9, rx: 4.5, fill: "none" }, sym);
    } else if (a.includes("cav") || a.includes("horse") || a.includes("dragoon") || a.includes("hussar") || a.includes("lancer")) {
      path("M-13 -1 L13 -17");
    } else if (a.includes("art") || a.includes("gun") || a.includes("batter")) {
      svg("circle", { cx: 0, cy: -9, r: 3.8, fill: "#1d1d1d", stroke: "none" }, sym);
    } else if (a.includes("wagon") || a.includes("train") || a.includes("supply")) {
      svg("circle", { cx: -6, cy: -6, r: 3, fill: "none" }, sym);
      svg("circle", { cx: 6, cy: -6, r: 3, fill: "none" }, sym);
      path("M-11 -11 H11");
    } else {
      const t = svg("text", { x: 0, y: -5, class: "armletter" }, g);
      t.textContent = a.slice(0, 1).toUpperCase();
    }
  }

  /**
   * Marks hexes (reach, targets) with a tint and a short text.
   * @param {Map<string, Mark>} marks
   * @param {string | null} selectedHex
   * @param {string | null} pendingHex
   * @param {string[]} [cone]  the hexes the selected unit's fire reaches, shaded beneath the marks
   */
  setOverlay(marks, selectedHex, pendingHex, cone = []) {
    this.overlay.replaceChildren();
    this.top.replaceChildren();
    for (const label of cone) {
      const c = this.grid.at(label);
      if (c) svg("polygon", { points: this.grid.outline(c, 0.98), class: "cone", "data-cone": label }, this.overlay);
    }
    for (const [label, m] of marks) {
      const c = this.grid.at(label);
      if (!c) continue;
      svg("polygon", { points: this.grid.outline(c, 0.94), class: `mark ${m.kind}`, "data-mark": label }, this.overlay);
      if (m.text) {
        const w = m.text.length * 6.2 + 6;
        const y = c.y + SIZE * (this.grid.kind === "square" ? 0.72 : 0.62);
        svg("rect", { x: c.x - w / 2, y: y - 8, width: w, height: 11, rx: 2, class: `marktag ${m.kind}` }, this.top);
        const t = svg("text", { x: c.x, y: y + 0.5, class: "marktext", "data-mark-text": label }, this.top);
        t.textContent = m.text;
      }
    }
    for (const [label, cls] of [
      [selectedHex, "selected"],
      [pendingHex, "pending"],
    ]) {
      const c = label ? this.grid.at(label) : null;
      if (c) svg("polygon", { points: this.grid.outline(c, 0.97), class: `ring ${cls}` }, this.top);
    }
  }

  /**
   * Marks the counters of the units that can act now.
   * @param {Set<string>} ids
   */
  setReady(ids) {
    for (const el of this.pieces.querySelectorAll(".counter.unit")) {
      el.classList.toggle("ready", ids.has(el.getAttribute("data-unit") ?? ""));
    }
  }

  /**
   * Marks the counters of a group the player gathered to move together.
   * @param {Set<string>} ids
   */
  setGrouped(ids) {
    for (const el of this.pieces.querySelectorAll(".counter.unit")) {
      el.classList.toggle("grouped", ids.has(el.getAttribute("data-unit") ?? ""));
    }
  }

  /**
   * What this map's legend needs: each kind of ground on it with its swatch, the hill levels
   * it has, the badges of the flags its counters carry (every flag the rule system's counters
   * can carry that this page knows), and the formation marks when its troops have formations.
   * @param {UnitView[]} [units]  the units on the map, for the flags and formations they show
   * @returns {{ground: {name: string, colour: string}[], hills: {level: number, colour: string}[], flags: {letter: string, name: string, colour: string}[], formations: {mark: string, name: string}[]}}
   */
  legend(units = []) {
    const codes = new Set([...(this.cells?.values() ?? [])].map((c) => c.code));
    const levels = new Set([...(this.cells?.values() ?? [])].map((c) => c.elevation).filter((e) => e > 0));
    return {
      ground: [...codes].map((code) => ({ name: terrainName(code), colour: SWATCH[/** @type {keyof typeof SWATCH} */ (code)] ?? SWATCH["."] })),
      hills: [...levels].sort().map((level) => ({ level, colour: HILL[Math.min(level, 3)] })),
      flags: legendFlags(units),
      formations: units.some((u) => u.formation) ? Object.entries(FORMATION_MARK).map(([name, mark]) => ({ mark, name })) : [],
    };
  }

  /**
   * A cell's ground in words: "woods, hill 2".
   * @param {string} label
   */
  groundOf(label) {
    const c = this.cells?.get(label);
    if (!c) return "";
    return `${terrainName(c.code)}${c.elevation ? `, hill ${c.elevation}` : ""}`;
  }

  /**
   * The cell whose centre is nearest a point of the map (SVG units).
   * @param {{x: number, y: number}} p
   * @returns {string | null}
   */
  nearestCell(p) {
    let best = null;
    let bestD = Infinity;
    for (const { col, row, label } of this.grid.cells()) {
      const c = this.grid.centre(col, row);
      const d = Math.hypot(c.x - p.x, c.y - p.y);
      if (d < bestD) {
        bestD = d;
        best = label;
      }
    }
    return best;
  }

  /**
   * Rings the counters of these units (from a log entry).
   * @param {string[]} ids
   */
  highlight(ids) {
    for (const el of this.pieces.querySelectorAll(".counter.unit")) {
      el.classList.toggle("highlight", ids.includes(el.getAttribute("data-unit") ?? ""));
    }
  }

  /**
   * Zoom by a factor about a point (SVG units); about the middle when none is given.
   * @param {number} factor  > 1 zooms in
   * @param {Point} [about]
   */
  zoom(factor, about) {
    const b = this.box;
    const p = about ?? { x: b.x + b.w / 2, y: b.y + b.h / 2 };
    const w = Math.min(Math.max(b.w / factor, this.full.w / 8), this.full.w * 2);
    const h = (w * b.h) / b.w;
    this.box = { x: p.x - ((p.x - b.x) * w) / b.w, y: p.y - ((p.y - b.y) * h) / b.h, w, h };
    this.applyBox();
  }

  /**
   * Pan by a fraction of the visible width and height.
   * @param {number} fx
   * @param {number} fy
   */
  pan(fx, fy) {
    this.box.x += fx * this.box.w;
    this.box.y += fy * this.box.h;
    this.applyBox();
  }

  /**
   * Where the whole map is drawn so small that a counter is narrower than a fingertip (a
   * phone), zooms in to `px` screen pixels a hex about the middle of these cells; the rest of
   * the map is a drag or a pinch away, and 0 shows it whole.
   * @param {string[]} cells
   * @param {number} [px]
   */
  readable(cells, px = 72) {
    const r = this.root.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const scale = Math.min(r.width / this.box.w, r.height / this.box.h);
    if (2 * SIZE * scale >= px) return;
    const points = cells.flatMap((c) => {
      const p = this.grid.at(c);
      return p ? [p] : [];
    });
    const mid = points.length
      ? { x: points.reduce((a, p) => a + p.x, 0) / points.length, y: points.reduce((a, p) => a + p.y, 0) / points.length }
      : { x: this.box.x + this.box.w / 2, y: this.box.y + this.box.h / 2 };
    const unit = px / (2 * SIZE);
    const w = r.width / unit;
    const h = r.height / unit;
    this.box = { x: mid.x - w / 2, y: mid.y - h / 2, w, h };
    this.applyBox();
  }

  /** Show the whole map. */
  reset() {
    this.box = { ...this.full };
    this.applyBox();
  }

  /**
   * Screen coordinates to SVG units.
   * @param {number} x
   * @param {number} y
   */
  toMap(x, y) {
    const m = this.root.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = new DOMPoint(x, y).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  /** Click a hex, hover a counter, wheel to zoom, drag to pan. */
  listen() {
    const root = this.root;
    root.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      this.zoom(ev.deltaY < 0 ? 1.15 : 1 / 1.15, this.toMap(ev.clientX, ev.clientY));
    }, { passive: false });
    /** @type {{x: number, y: number, box: {x: number, y: number, w: number, h: number}} | null} */
    let drag = null;
    let moved = false;
    /** @type {{label: string | null, at: number}} */
    let lastTap = { label: null, at: 0 };
    // Fingers on the map, for pinch zoom: two of them zoom about their midpoint.
    /** @type {Map<number, {x: number, y: number}>} */
    const fingers = new Map();
    let spread = 0;
    const span = () => {
      const [a, b] = [...fingers.values()];
      return { d: Math.hypot(a.x - b.x, a.y - b.y), mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
    };
    root.addEventListener("pointerdown", (ev) => {
      // The first finger of a gesture: any finger still counted was lifted where the map did
      // not hear it (off the map, a gesture the browser took), and must not make this tap a pinch.
      if (ev.pointerType === "touch" && ev.isPrimary) {
        fingers.clear();
        spread = 0;
      }
      if (ev.pointerType === "touch") fingers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (fingers.size === 2) {
        // A pinch, not a drag and not a tap.
        drag = null;
        moved = true;
        spread = span().d;
        return;
      }
      drag = { x: ev.clientX, y: ev.clientY, box: { ...this.box } };
      moved = false;
    });
    const lift = (/** @type {PointerEvent} */ ev) => {
      fingers.delete(ev.pointerId);
      if (fingers.size < 2) spread = 0;
    };
    root.addEventListener("pointercancel", lift);
    root.addEventListener("pointermove", (ev) => {
      if (fingers.has(ev.pointerId)) fingers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (fingers.size === 2 && spread > 0) {
        const { d, mid } = span();
        if (d > 0) this.zoom(d / spread, this.toMap(mid.x, mid.y));
        spread = d;
        return;
      }
      if (drag && (moved || Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) > 5)) {
        if (!moved) root.setPointerCapture(ev.pointerId);
        moved = true;
        const scale = drag.box.w / root.getBoundingClientRect().width;
        this.box = { ...drag.box, x: drag.box.x - (ev.clientX - drag.x) * scale, y: drag.box.y - (ev.clientY - drag.y) * scale };
        this.applyBox();
      }
      // A finger has no hover: a tap selects, and no card is left standing on the map.
      if (ev.pointerType === "touch") {
        this.onHover(null, ev);
        return;
      }
      const target = /** @type {Element} */ (ev.target);
      const counter = target.closest?.(".counter");
      this.onHover(counter ? counter.getAttribute("data-unit") ?? counter.getAttribute("data-marker") : null, ev);
    });
    root.addEventListener("pointerleave", (ev) => this.onHover(null, ev));
    root.addEventListener("pointerup", (ev) => {
      const pinching = fingers.size > 0 && (fingers.size > 1 || spread > 0);
      lift(ev);
      if (pinching || fingers.size > 0) {
        drag = null;
        return;
      }
      const wasDrag = moved;
      drag = null;
      moved = false;
      if (wasDrag) return;
      const label = this.hexAt(ev.clientX, ev.clientY);
      // One tap is one choice: a second report of the same tap (a touch screen may send its
      // pointer twice) must not confirm what the first only chose.
      const now = performance.now();
      if (ev.pointerType === "touch" && label && label === lastTap.label && now - lastTap.at < 350) return;
      lastTap = { label, at: now };
      if (label) this.onHex(label, ev);
    });
  }

  /**
   * The cell under a screen point, if any.
   * @param {number} x
   * @param {number} y
   * @returns {string | null}
   */
  hexAt(x, y) {
    const p = this.toMap(x, y);
    const best = this.nearestCell(p);
    const c = best ? this.grid.at(best) : null;
    return c && Math.hypot(c.x - p.x, c.y - p.y) <= SIZE * (this.grid.kind === "square" ? 1.42 : 1) ? best : null;
  }
}

/** @param {string} code */
export function terrainName(code) {
  return (
    {
      ".": "clear",
      W: "woods",
      w: "light-woods",
      T: "town",
      "~": "water",
      "=": "bridge",
      f: "ford",
      m: "marsh",
      r: "rough",
      M: "mountain",
      F: "fort",
    }[code] ?? "clear"
  );
}

/** @type {Record<string, string>} */
const FORMATION_MARK = { line: "L", "extended line": "XL", "march column": "MC", "attack column": "AC", square: "SQ", disordered: "D" };

/**
 * A formation's short mark on a counter: L, XL, MC, AC, SQ, D.
 * @param {string | undefined} formation
 */
export function formationMark(formation) {
  if (!formation) return "";
  return FORMATION_MARK[formation] ?? formation.slice(0, 2).toUpperCase();
}

/**
 * Every flag a counter may carry that has a badge of its own: its letter and colour. A flag
 * not listed shows its first letter on grey; a Mechanized damage block (C, CC, D, DD, M, MM)
 * reads whole, on red; "2 actions left" reads 2.
 * @type {Record<string, {letter: string, colour: string}>}
 */
const BADGES = {
  moved: { letter: "→", colour: "#4a4a4a" },
  fired: { letter: "F", colour: "#6b6b6b" },
  limbered: { letter: "L", colour: "#7a5326" },
  fatigued: { letter: "Z", colour: "#c98a00" },
  "in melee": { letter: "M", colour: "#8b1d1d" },
  standing: { letter: "S", colour: "#3c6e47" },
  exhausted: { letter: "E", colour: "#6b3fa0" },
  "dug in": { letter: "DI", colour: "#5b4a2a" },
  "refused left": { letter: "RL", colour: "#4a4a4a" },
  "refused right": { letter: "RR", colour: "#4a4a4a" },
  "acted on initiative": { letter: "I", colour: "#2f6f8f" },
  joined: { letter: "J", colour: "#3c6e47" },
  "opportunity fired": { letter: "OF", colour: "#8b1d1d" },
};

/**
 * A flag's badge: letter and colour.
 * @param {string} flag
 */
function badge(flag) {
  if (/^(C|D|M)\1?$/.test(flag)) return { letter: flag, colour: "#a01818" };
  const actions = flag.match(/^(\d+) actions? left$/);
  if (actions) return { letter: actions[1], colour: "#2d7a2d" };
  return BADGES[flag] ?? { letter: flag.slice(0, 1).toUpperCase(), colour: "#555" };
}

/**
 * The badges a legend explains: every badge the page draws with a letter of its own, and any
 * other flag the units carry now.
 * @param {UnitView[]} units
 */
function legendFlags(units) {
  const names = new Set(Object.keys(BADGES));
  for (const f of units.flatMap((u) => u.flags)) {
    if (!f.startsWith("facing ") && f !== "routed" && !/^(C|D|M)\1?$/.test(f)) names.add(/^\d+ actions? left$/.test(f) ? "1 action left" : f);
  }
  return [...names].map((name) => ({ name: name === "1 action left" ? "actions left from its order" : name, ...badge(name) }));
}
