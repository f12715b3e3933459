// Solo against the computer on First Clash: move, fire with the odds shown, read the log entry
// with its rule reference, reload and carry on.
import { expect, test } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { api, clickHex, endPhase, waitMyTurn } from "./helpers.js";

const artifacts = path.join(import.meta.dirname, "artifacts");

test.setTimeout(300_000);

test("solo game against the computer: move, fire with odds, log, reload", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Every odds answer the page receives, by action. The page may ask before the test looks
  // (a unit still selected from the last phase has its targets' odds fetched as soon as its
  // fire phase begins) and then serves them from its cache, so record them all from the start.
  /** @type {Map<string, any>} */
  const oddsSeen = new Map();
  page.on("response", async (r) => {
    if (!r.url().endsWith("/odds") || !r.ok()) return;
    const action = r.request().postDataJSON()?.action;
    // An answer still arriving as the test ends has nobody to read it.
    if (typeof action === "string") oddsSeen.set(action, await r.json().catch(() => null));
  });

  await page.goto("/");
  await page.locator('[data-scenario="hc-first-clash"]').click();
  await expect(page.locator(".setup h2")).toHaveText("First Clash");
  await page.locator('input[name="mode"][value="solo"]').check();
  await page.locator('select[name="side"]').selectOption("red");
  await page.locator('select[name="level"]').selectOption("easy");
  await page.getByRole("button", { name: "Start game" }).click();
  await expect(page).toHaveURL(/#\/game\/[^?]+\?token=/);
  await expect(page.locator(".phasebar")).toContainText("First Clash");
  await expect(page.locator('svg.map .counter[data-unit="r1"]')).toBeVisible();

  let moved = false;
  /** @type {{action: string, target: string} | null} */
  let fired = null;
  for (let round = 0; round < 60 && !fired; round++) {
    const sv = await waitMyTurn(page);
    expect(sv.view.outcome, "the game ended before red could fire").toBeNull();
    /** @type {string[]} */
    const actions = (await api(page, "legal")).actions;
    await expect(page.locator(".phasebar .decide")).toHaveText("Your decision");
    const fires = actions.filter((a) => a.startsWith("fire "));
    // Fire once a unit has moved (so the move step is tested first), or as soon as it can
    // when no move came up: a red that only waits may be overrun before it fires.
    if (fires.length && (moved || round >= 2)) {
      // Prefer a musket volley (section 7) to a cannonade (section 3), and a unit with one
      // target: the page asks the odds of each of its targets, and odds take a while.
      const targets = (/** @type {string} */ a) => fires.filter((b) => b.split(" ")[1] === a.split(" ")[1]).length;
      const action = [...fires].sort((a, b) => Number(a.startsWith("fire r4 ")) - Number(b.startsWith("fire r4 ")) || targets(a) - targets(b))[0];
      const [, unit, target] = action.split(" ");
      await page.locator(`svg.map .counter[data-unit="${unit}"]`).click();
      await expect(page.locator(`svg.map .mark.fire[data-mark="${target}"]`)).toBeVisible();
      // The mark shows the chance of any effect from the odds the server gave (the latest
      // answer for this action: an earlier phase may have asked too, from another position).
      const shown = page.locator(`svg.map [data-mark-text="${target}"]`);
      const expected = () => {
        const odds = oddsSeen.get(action);
        if (!odds) return null;
        // Where the dice cannot change the result (one outcome), the mark names the order only.
        if (odds.outcomes.length < 2) return "fire";
        const none = odds.outcomes.find((/** @type {any} */ o) => o.outcome === "no effect")?.probability ?? 0;
        return `hit ${Math.round((1 - none) * 100)}%`;
      };
      await expect
        .poll(async () => expected() !== null && (await shown.textContent()) === expected(), {
          message: `the page shows the odds the server gave for ${action}`,
          timeout: 120_000,
        })
        .toBe(true);
      await clickHex(page, target);
      await expect(page.locator(".confirm")).toBeVisible();
      await expect(page.locator(".confirm .odds")).toContainText("%");
      await page.keyboard.press("Enter");
      fired = { action, target };
      break;
    }
    const moves = actions.filter((a) => a.startsWith("move r1 ") || a.startsWith("move r2 "));
    if (moves.length && (!moved || round < 20)) {
      // Step towards the enemy: the smallest row number.
      const action = moves.sort((a, b) => Number(a.slice(-2)) - Number(b.slice(-2)))[0];
      const [, unit, to] = action.split(" ");
      await page.locator(`svg.map .counter[data-unit="${unit}"]`).click();
      await expect(page.locator(`svg.map .mark.move[data-mark="${to}"]`)).toBeVisible();
      await expect(page.locator(`svg.map [data-mark-text="${to}"]`)).toHaveText(/^\d+$/);
      await clickHex(page, to);
      // The confirm box says the move in plain words: the unit's name, not its id.
      await expect(page.locator(".confirm")).toContainText(`Move`);
      await expect(page.locator(".confirm")).toContainText(to);
      await expect(page.locator(".confirm")).not.toContainText(action);
      await page.locator(".confirm .confirmbtn").first().click();
      await expect(page.locator(`svg.map .counter[data-unit="${unit}"]`)).toHaveAttribute("data-hex", to);
      moved = true;
      continue;
    }
    const before = (await api(page, "view")).seq;
    await endPhase(page);
    await expect.poll(async () => (await api(page, "view")).seq).toBeGreaterThan(before);
  }
  expect(moved || fired, "red moved a unit or fired").toBeTruthy();
  expect(fired, "red found something to fire at").not.toBeNull();

  // The rule is a quiet tag at the end of the line: its section, without the ruleset's id.
  const fireEntry = page.locator(".log .event.k-fire").filter({ has: page.locator(".rule", { hasText: /^§ (7|3)\b/ }) }).first();
  await expect(fireEntry).toBeVisible();
  await expect(fireEntry.locator(".rule")).toHaveText(/^§ (7|3)$/);
  await expect(fireEntry).not.toContainText("hex-command");
  await fireEntry.click();
  await expect(page.locator("svg.map .counter.highlight").first()).toBeVisible();
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, "game.png") });

  // Reload: the same game, its log and position, and play goes on.
  const logged = await page.locator(".log .event").count();
  await page.reload();
  await expect(page.locator(".log .event.k-fire").filter({ has: page.locator(".rule", { hasText: /^§ (7|3)\b/ }) }).first()).toBeVisible();
  expect(await page.locator(".log .event").count()).toBeGreaterThanOrEqual(logged);
  const sv = await waitMyTurn(page);
  await expect(page.locator(".phasebar .phase")).toHaveText(sv.view.phase);
  if (!sv.view.outcome) {
    await expect(page.locator(".phasebar .decide")).toHaveText("Your decision");
    const shown = await page.locator(".log .event").count();
    await endPhase(page);
    await expect.poll(async () => (await api(page, "view")).seq).toBeGreaterThan(sv.seq);
    await expect.poll(() => page.locator(".log .event").count()).toBeGreaterThan(shown);
  }
  expect(errors).toEqual([]);
});
