// Map geometry in SVG units: flat-topped hexes in columns, labelled CCRR from 0101 at the top
// left, even-numbered columns half a hex lower (as printed wargame maps); or square tiles.

/** @typedef {import("./api.js").Facing} Facing */
/** @typedef {{x: number, y: number}} Point */

/** Centre-to-corner radius of a hex (and half the side of a square tile). */
export const SIZE = 40;
const ROOT3 = Math.sqrt(3);
/** Height of a hex (flat to flat). */
export const HEX_H = ROOT3 * SIZE;

/** @type {Facing[]} */
export const FACINGS = ["N", "NE", "SE", "S", "SW", "NW"];

/** Angle in degrees (SVG: y down, clockwise) from a hex's centre to the middle of each hexside. */
const FACING_ANGLE = { N: -90, NE: -30, SE: 30, S: 90, SW: 150, NW: 210 };

/**
 * @param {string} label  `CCRR` (or `CCCRRR` on big maps)
 * @returns {{col: number, row: number} | null}
 */
export function parseLabel(label) {
  if (!/^(\d{4}|\d{6})$/.test(label)) return null;
  const half = label.length / 2;
  return { col: Number(label.slice(0, half)), row: Number(label.slice(half)) };
}

/**
 * @param {number} col
 * @param {number} row
 */
export function labelOf(col, row) {
  const w = col > 99 || row > 99 ? 3 : 2;
  return String(col).padStart(w, "0") + String(row).padStart(w, "0");
}

/** Grid geometry for one map. */
export class Grid {
  /**
   * @param {"hex" | "square"} kind
   * @param {number} width  columns
   * @param {number} height  rows
   */
  constructor(kind, width, height) {
    this.kind = kind;
    this.width = width;
    this.height = height;
  }

  /** Whole map size in SVG units. */
  get size() {
    if (this.kind === "square") {
      return { w: this.width * 2 * SIZE, h: this.height * 2 * SIZE };
    }
    return {
      w: SIZE * (2 + 1.5 * (this.width - 1)),
      h: HEX_H * (this.height + (this.width > 1 ? 0.5 : 0)),
    };
  }

  /**
   * The centre of a cell.
   * @param {number} col
   * @param {number} row
   * @returns {Point}
   */
  centre(col, row) {
    if (this.kind === "square") {
      return { x: (2 * col - 1) * SIZE, y: (2 * row - 1) * SIZE };
    }
    const lower = (col - 1) % 2 === 1 ? HEX_H / 2 : 0;
    return { x: SIZE + (col - 1) * 1.5 * SIZE, y: HEX_H / 2 + (row - 1) * HEX_H + lower };
  }

  /**
   * @param {string} label
   * @returns {Point | null}
   */
  at(label) {
    const cr = parseLabel(label);
    return cr ? this.centre(cr.col, cr.row) : null;
  }

  /**
   * The cell's outline as SVG points, scaled about its centre.
   * @param {Point} c
   * @param {number} [scale]
   */
  outline(c, scale = 1) {
    return this.corners(c, scale)
      .map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`)
      .join(" ");
  }

  /**
   * @param {Point} c
   * @param {number} [scale]
   * @returns {Point[]}
   */
  corners(c, scale = 1) {
    const r = SIZE * scale;
    if (this.kind === "square") {
      return [
        { x: c.x - r, y: c.y - r },
        { x: c.x + r, y: c.y - r },
        { x: c.x + r, y: c.y + r },
        { x: c.x - r, y: c.y + r },
      ];
    }
    return [0, 60, 120, 180, 240, 300].map((a) => ({
      x: c.x + r * Math.cos((a * Math.PI) / 180),
      y: c.y + r * Math.sin((a * Math.PI) / 180),
    }));
  }

  /**
   * The unit direction toward a facing's hexside (hexes) or the nearest side/corner (squares).
   * @param {Facing} facing
   * @returns {Point}
   */
  direction(facing) {
    let angle = FACING_ANGLE[facing];
    if (this.kind === "square") angle = { N: -90, NE: -45, SE: 45, S: 90, SW: 135, NW: 225 }[facing];
    const a = (angle * Math.PI) / 180;
    return { x: Math.cos(a), y: Math.sin(a) };
  }

  /**
   * The shared edge of two adjacent cells, as a segment; null when they do not touch.
   * @param {string} a
   * @param {string} b
   * @returns {[Point, Point] | null}
   */
  edge(a, b) {
    const pa = this.at(a);
    const pb = this.at(b);
    if (!pa || !pb) return null;
    const dx = pb.x - pa.x;
    const dy = pb.y - pa.y;
    const apart = Math.hypot(dx, dy);
    const step = this.kind === "square" ? 2 * SIZE : HEX_H;
    if (apart > step * 1.05) return null;
    const mid = { x: (pa.x + pb.x) / 2, y: (pa.y + pb.y) / 2 };
    // The edge is perpendicular to the line between centres, one side long.
    const half = this.kind === "square" ? SIZE : SIZE / 2;
    const ux = -dy / apart;
    const uy = dx / apart;
    return [
      { x: mid.x + ux * half, y: mid.y + uy * half },
      { x: mid.x - ux * half, y: mid.y - uy * half },
    ];
  }

  /** Every cell, row by row. */
  *cells() {
    for (let row = 1; row <= this.height; row++) {
      for (let col = 1; col <= this.width; col++) yield { col, row, label: labelOf(col, row) };
    }
  }
}
