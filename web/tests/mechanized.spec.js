// Hex Command: Mechanized at one screen: vehicles and squads on the map, two items sharing a
// hex side by side, and a squad moved by clicking.
import { expect, test } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { clickHex } from "./helpers.js";

const artifacts = path.join(import.meta.dirname, "artifacts");

test.setTimeout(180_000);

test("mechanized: two items share a hex legibly, vehicles show armour, a squad moves", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/");
  await page.locator('[data-scenario="hcm-breakthrough"]').click();
  await expect(page.locator(".setup h2")).toHaveText("Breakthrough at the Ridge (1944)");
  await page.locator('input[name="mode"][value="hotseat"]').check();
  await page.getByRole("button", { name: "Start game" }).click();
  await expect(page).toHaveURL(/#\/game\/[^?]+\?red=/);
  const m = new URL(page.url()).hash.match(/^#\/game\/([^?]+)\?red=([^&]+)&blue=([^&]+)/);
  if (!m) throw new Error(`not a hotseat address: ${page.url()}`);
  const [id, tokens] = [m[1], { red: m[2], blue: m[3] }];
  /** @param {string} what @param {"red" | "blue"} side @returns {Promise<any>} */
  const get = async (what, side) =>
    (await page.request.get(`/api/games/${id}/${what}`, { headers: { Authorization: `Bearer ${tokens[side]}` } })).json();

  // The Sherman r2 and the engineers r8 share 0814: both drawn, neither covering the other.
  const a = page.locator('svg.map .counter[data-unit="r2"]');
  const b = page.locator('svg.map .counter[data-unit="r8"]');
  await expect(a).toBeVisible();
  await expect(b).toBeVisible();
  const [ba, bb] = [await a.boundingBox(), await b.boundingBox()];
  if (!ba || !bb) throw new Error("counters not on screen");
  const overlap = Math.max(0, Math.min(ba.x + ba.width, bb.x + bb.width) - Math.max(ba.x, bb.x)) * Math.max(0, Math.min(ba.y + ba.height, bb.y + bb.height) - Math.max(ba.y, bb.y));
  expect(overlap, "the two counters of 0814 overlap").toBeLessThan(0.25 * ba.width * ba.height);
  // A tank counter carries the armour symbol (an oval); a squad the infantry cross.
  await expect(a.locator('rect[rx="4.5"]')).toHaveCount(1);
  await expect(page.locator('svg.map .counter[data-unit="r5"] path')).toHaveCount(1);

  // Whoever has the initiative moves a squad one hex ahead by clicking it and the hex.
  const side = (await get("view", "red")).view.to_decide;
  /** @type {string[]} */
  const actions = (await get("legal", side)).actions;
  const move = actions.find((x) => x.startsWith(`move ${side === "red" ? "r5" : "b1"} `));
  expect(move, `no move for the squad among ${actions.length} actions`).toBeTruthy();
  const [, unit, to] = /** @type {string} */ (move).split(" ");
  await page.locator(`svg.map .counter[data-unit="${unit}"]`).click();
  // The first click proposes the move; a second on the same hex confirms it.
  await clickHex(page, to);
  await clickHex(page, to);
  await expect(page.locator(`svg.map .counter[data-unit="${unit}"]`)).toHaveAttribute("data-hex", to);
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, "mechanized-desktop.png") });
  expect(errors).toEqual([]);
});
