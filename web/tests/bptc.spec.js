// Black Powder Tactical Commander against the computer: the counters read at a glance
// (formation marks, stands, command counters), a selected unit's fire cone is shaded, an order
// shows its command roll above the map, and the game goes to blue's turn and back.
import { expect, test } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { api, clickEnd, clickHex, startGame, waitMyTurn } from "./helpers.js";

const artifacts = path.join(import.meta.dirname, "artifacts");

test.setTimeout(120_000);

test("bpt-commander: formation marks, stands, fire cone, the command roll, blue's turn and back", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "bptc-first-lesson", "solo", { side: "red", level: "easy" });
  const first = await waitMyTurn(page);
  expect(first.view.ruleset).toBe("bpt-commander");
  // Beside the turn, who would win if the battle ended now (nobody holds anything yet).
  await expect(page.locator(".phasebar .standing")).toContainText("As it stands: a draw (no objective held");

  // Battalions show their formation (line: L; the one on the road in march column: MC) and
  // stands now/full; the brigadier is a command counter with his command value.
  const fr1 = page.locator('svg.map .counter[data-unit="fr1"]');
  await expect(fr1.locator("text.formation")).toHaveText("L");
  await expect(page.locator('svg.map .counter[data-unit="fr5"] text.formation')).toHaveText("MC");
  await expect(fr1.locator("text.stands")).toHaveText("6/6");
  const hq = page.locator('svg.map .counter.command[data-unit="fr-hq"]');
  await expect(hq.locator("text.cmdvalue")).toHaveText(String(first.view.units.find((/** @type {any} */ u) => u.id === "fr-hq").strength));
  await expect(page.locator("svg.map .counter text.formation")).toHaveCount(10);

  // Selecting a battalion shades its fire cone, hex for hex as the view gives it; the card
  // names its formation in words.
  await fr1.click();
  const cone = first.view.units.find((/** @type {any} */ u) => u.id === "fr1").cone.map((/** @type {any} */ p) => p.hex);
  expect(cone.length).toBeGreaterThan(0);
  await expect(page.locator("svg.map polygon.cone")).toHaveCount(cone.length);
  await expect(page.locator(`svg.map polygon.cone[data-cone="${cone[0]}"]`)).toHaveCount(1);
  await expect(page.locator('.unitpanel table.card[data-card="fr1"]')).toContainText("line (L)");

  // Moving it puts an order to the dice: the command roll is shown above the map, whatever
  // it rolled.
  const legal = /** @type {string[]} */ ((await api(page, "legal")).actions);
  const move = legal.find((a) => a.startsWith("move fr1 "));
  expect(move, "fr1 can be ordered to move").toBeTruthy();
  const to = /** @type {string} */ (move).split(" ")[2];
  await clickHex(page, to);
  // The confirm box gives the command roll's chance, with what counts towards it, first.
  await expect(page.locator(".confirm .notes")).toContainText(/Command roll: Gen\. Brun needs \d+ or less on two dice \(command 8.*\): \d+% it passes/);
  await clickHex(page, to);
  const roll = page.locator(".orderroll");
  await expect(roll).toBeVisible();
  await expect(roll).toContainText(/Order to 1st Bn 12e Ligne \(Gen\. Brun\): needs \d+, rolled \d\+\d — (issued|failed|bonus|blunder)/);
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, "bptc-order.png") });

  // End red's phases until the computer has played blue's turn and the next turn is red's. A
  // decision put to red in blue's turn is answered from the decision box.
  await expect
    .poll(
      async () => {
        const v = (await api(page, "view")).view;
        if (v.outcome) return "over";
        if (v.turn > first.view.turn && v.phasing === "red" && v.to_decide === "red") return "back";
        if (v.to_decide !== "red") return "waiting";
        const box = page.locator(".decision:not([hidden]) button.primary");
        if (v.phasing === "blue" && (await box.count())) await box.click();
        else if (v.phasing === "red") await clickEnd(page).catch(() => {});
        return "acting";
      },
      { timeout: 90_000, intervals: [300, 500, 800] },
    )
    .toMatch(/^(back|over)$/);
  // Blue's turn came between: the log has the computer's doings.
  const events = /** @type {any[]} */ ((await api(page, "log")).events);
  expect(events.some((e) => e.side === "blue"), "blue acted in its turn").toBe(true);
  // The village is a minor objective: taking it does not end the battle, and no brigade can
  // lose three of its five battalions in the first turn, so the bar is red's again, a turn on.
  const after = (await api(page, "view")).view;
  expect(after.outcome).toBeFalsy();
  await expect(page.locator(".phasebar .turnno")).toHaveText(`Turn ${first.view.turn + 1}/${first.view.turn_limit}`);
  await expect(page.locator(".phasebar .phase.red")).toBeVisible();
  expect(errors).toEqual([]);
});
