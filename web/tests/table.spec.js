// What the game API tells the table beyond the units' hexes: several units in one hex are
// drawn side by side, the bar says what is being decided and by whom, and while the computer
// plays the bar counts its actions.
import { expect, test } from "@playwright/test";
import { api } from "./helpers.js";

test.setTimeout(300_000);

/**
 * Starts a game from the lobby.
 * @param {import("@playwright/test").Page} page
 * @param {string} scenario
 * @param {"solo" | "hotseat"} mode
 * @param {Record<string, string>} [solo]  side and level for a solo game
 */
async function startGame(page, scenario, mode, solo = {}) {
  await page.goto("/");
  await page.locator(`[data-scenario="${scenario}"]`).click();
  await page.locator(`input[name="mode"][value="${mode}"]`).check();
  for (const [name, value] of Object.entries(solo)) {
    await page.locator(`select[name="${name}"]`).selectOption(value);
  }
  await page.getByRole("button", { name: "Start game" }).click();
  await expect(page).toHaveURL(/#\/game\//);
}

test("units sharing a hex stand side by side, and the bar says who decides what", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "sad-river-crossing", "hotseat");
  await expect(page.locator(".phasebar .prompt")).toHaveText(/^(Red|Blue): march/);
  // Find a hex that holds more than one counter.
  const hexes = await page.locator("svg.map .counter.unit").evaluateAll((els) =>
    els.map((e) => /** @type {string} */ (e.getAttribute("data-hex"))),
  );
  const shared = hexes.find((h, i) => hexes.indexOf(h) !== i);
  expect(shared, "the river crossing puts several units in one hex").toBeTruthy();
  const counters = page.locator(`svg.map .counter.unit[data-hex="${shared}"]`);
  const boxes = await counters.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  expect(boxes.length).toBeGreaterThan(1);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const overlap =
        Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
        Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
      // The bodies may touch at their facing arrows, but no counter hides another.
      expect(overlap, `counters ${i} and ${j} in ${shared} overlap`).toBeLessThan(0.25 * a.width * a.height);
    }
  }
  expect(errors).toEqual([]);
});

test("while the computer plays, the bar counts its actions", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "hc-crossroads", "solo", { side: "red", level: "hard" });
  // Whoever moves first, the computer plays blue at some point: wait for its turn.
  const bar = page.locator(".phasebar .decide");
  await expect(async () => {
    const sv = await api(page, "view");
    if (sv.view.to_decide === "red") {
      const before = sv.seq;
      await page.getByRole("button", { name: "End phase" }).click();
      await expect.poll(async () => (await api(page, "view")).seq).toBeGreaterThan(before);
    }
    await expect(bar).toHaveText(/The computer \(hard\) is playing .*: \d+ actions? so far/, { timeout: 2_000 });
  }).toPass({ timeout: 240_000 });
  expect(errors).toEqual([]);
});
