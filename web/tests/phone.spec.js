// The table on a phone (issue 14, defect 3): at 390×844 the lobby reads in one column, the map
// takes the width of the screen with the panel under it (or hidden), and the buttons are big
// enough for a finger. Screenshots of a game in progress at phone and desktop size are kept.
import { expect, test } from "@playwright/test";
import { startGame } from "./helpers.js";
import fs from "node:fs";
import path from "node:path";

const artifacts = path.join(import.meta.dirname, "artifacts");

/**
 * The rectangles of the elements a selector finds.
 * @param {import("@playwright/test").Page} page
 * @param {string} selector
 */
async function boxes(page, selector) {
  return page.locator(selector).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the lobby in one column, the map the width of the screen, the panel folds away", async ({ page }) => {
    /** @type {string[]} */
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/");
    await page.locator('[data-scenario="hc-first-clash"]').click();
    // No two lobby panels overlap, and none runs off the screen.
    const panels = await boxes(page, ".lobby > *");
    expect(panels.length).toBeGreaterThan(1);
    for (let i = 0; i < panels.length; i++) {
      expect(panels[i].right, `lobby panel ${i} fits the screen`).toBeLessThanOrEqual(391);
      for (let j = i + 1; j < panels.length; j++) {
        const [a, b] = [panels[i], panels[j]];
        const overlap = Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
        expect(overlap, `lobby panels ${i} and ${j} overlap`).toBe(0);
      }
    }
    await page.locator('input[name="mode"][value="hotseat"]').check();
    await page.getByRole("button", { name: "Start game" }).click();
    await expect(page).toHaveURL(/#\/game\//);
    const map = page.locator(".maphost svg.map");
    await expect(map).toBeVisible();
    const m = await map.boundingBox();
    if (!m) throw new Error("no map");
    expect(m.width, "the map is at least 300 px wide").toBeGreaterThanOrEqual(300);
    expect(m.height, "the map is at least 300 px high").toBeGreaterThanOrEqual(300);
    // The panel is under the map, not beside it.
    const side = await page.locator("aside.side").boundingBox();
    if (!side) throw new Error("no panel");
    expect(side.y).toBeGreaterThanOrEqual(m.y + m.height - 1);
    // Tap a unit of the side to decide: its card opens in the panel.
    const counter = page.locator("svg.map .counter.ready").first();
    await counter.tap();
    await expect(page.locator(".unitpanel h2")).not.toHaveText("Unit");
    // Buttons are big enough for a finger, and the top bar leaves the screen to the map.
    for (const b of await boxes(page, ".phasebar button:visible")) expect(b.height).toBeGreaterThanOrEqual(40);
    const bar = await page.locator(".phasebar").boundingBox();
    expect(bar?.height ?? 999, "the top bar is at most about 120 px high").toBeLessThanOrEqual(124);
    // The map starts zoomed in to one's troops: a counter is at least a fingertip wide.
    await expect.poll(async () => (await page.locator("svg.map .counter.unit").first().boundingBox())?.width ?? 0, { message: "a counter is a finger's width" }).toBeGreaterThanOrEqual(40);
    // A tap leaves no hover card on the map.
    await expect(page.locator(".unitcard")).toBeHidden();
    fs.mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, "game-phone.png") });
    // The Panel button gives the map the whole screen, and brings the panel back.
    // The rest of the bar is behind ⋯.
    await page.getByRole("button", { name: "⋯" }).tap();
    await page.getByRole("button", { name: "Panel" }).tap();
    await expect(page.locator("aside.side")).toBeHidden();
    const full = await map.boundingBox();
    expect(full?.height ?? 0).toBeGreaterThan(m.height);
    await page.getByRole("button", { name: "Panel" }).tap();
    await expect(page.locator("aside.side")).toBeVisible();
    expect(errors).toEqual([]);
  });
});

test("a game in progress at desktop size, for the record", async ({ page }) => {
  await startGame(page, "hc-crossroads", "hotseat");
  await page.locator("svg.map .counter.ready").first().click();
  await expect(page.locator(".unitpanel h2")).not.toHaveText("Unit");
  // The panel button is for phones only.
  await expect(page.getByRole("button", { name: "Panel" })).toBeHidden();
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, "game-desktop.png") });
});
