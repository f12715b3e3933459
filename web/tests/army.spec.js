// The Black Powder army builder: pick a list and a total, add within the limits, see what is
// still compulsory, save the army, and fight it against the computer.
import { expect, test } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";

const artifacts = path.join(import.meta.dirname, "artifacts");

test("army builder: limits as you click, compulsory troops, save, and a battle against the computer", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/");
  await page.getByRole("link", { name: "Build a Black Powder army" }).click();
  await expect(page).toHaveURL(/#\/army$/);
  await page.getByLabel("Army list").selectOption("napoleonic-russian");
  await expect(page.locator('.troops button[data-troop="Line Infantry"]')).toBeEnabled();
  const total = page.locator(".total");
  await expect(total).toContainText("0 of 1500 points");
  const compulsory = page.locator(".compulsory");
  await expect(compulsory).toContainText("at least 4 infantry units");
  await expect(compulsory).toContainText("no command units");
  // The brigade HQ and four line battalions: 55 + 4 × 225.
  await page.locator('.commands button[data-command="brigade average"]').click();
  for (let i = 0; i < 4; i++) {
    await page.locator('.troops button[data-troop="Line Infantry"]').click();
    await expect(page.locator(".armyunits li.unit")).toHaveCount(i + 1);
  }
  await expect(total).toContainText("955 of 1500 points");
  await expect(total).toContainText("ready to fight");
  await expect(compulsory).toHaveCount(0);
  // Heavy cavalry -/1: once one is bought, the row is greyed out with the reason.
  const heavy = page.locator('.troops button[data-troop="Heavy Cavalry"]');
  await heavy.click();
  await expect(page.locator(".armyunits li.unit")).toHaveCount(5);
  await expect(heavy).toBeDisabled();
  await expect(heavy).toHaveAttribute("title", /at most 1 units of "Heavy Cavalry"/);
  // Rows never bought on their own say why.
  await expect(page.locator('.troops button[data-troop="Limbered Artillery"]')).toBeDisabled();
  // What would go over the total is greyed out too: a second Old Guard-sized purchase.
  await page.getByLabel("Points total").fill("1200");
  await page.getByLabel("Points total").dispatchEvent("change");
  await expect(total).toContainText("1195 of 1200 points");
  await expect(page.locator('.troops button[data-troop="Line Infantry"]')).toBeDisabled();
  await page.getByLabel("Points total").fill("1500");
  await page.getByLabel("Points total").dispatchEvent("change");
  await expect(page.locator('.troops button[data-troop="Line Infantry"]')).toBeEnabled();
  // Save it in the browser; it is offered as an opponent and to reopen.
  await page.getByLabel("Army name").fill("Bagration's brigade");
  await page.getByLabel("Army name").dispatchEvent("change");
  await page.getByRole("button", { name: "Save in this browser" }).click();
  await expect(page.getByLabel("Open an army", { exact: true })).toContainText("Bagration's brigade (saved)");
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, "army-builder.png"), fullPage: true });
  // Fight it against the computer on the creek.
  await page.getByLabel("Opponent's army").selectOption({ label: "Austrian division of Count Nadasdy (18th-century)" });
  await page.getByLabel("Field").selectOption("creek-crossing");
  await page.getByLabel("Computer").selectOption("easy");
  await page.getByRole("button", { name: "Fight" }).click();
  await expect(page).toHaveURL(/#\/game\/[^?]+\?token=/);
  await expect(page.locator(".phasebar")).toContainText("Bagration's brigade against");
  await expect(page.locator('svg.map .counter[data-unit="r1"]')).toBeVisible();
  expect(errors).toEqual([]);
});

test("army builder: a file that cannot be read is refused in words, the army on the page kept", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/#/army");
  await page.getByLabel("Army list").selectOption("napoleonic-russian");
  await page.locator('.commands button[data-command="brigade average"]').click();
  await expect(page.locator(".armyunits li.hq")).toHaveCount(1);
  await page.getByLabel("Open an army file").setInputFiles({ name: "bad.toml", mimeType: "text/plain", buffer: Buffer.from("list = napoleonic-russian\n") });
  await expect(page.locator(".mine .error")).toContainText("That army file cannot be read: the value of list (napoleonic-russian) is not a number, a string or true/false");
  await page.getByLabel("Open an army file").setInputFiles({ name: "odd.toml", mimeType: "text/plain", buffer: Buffer.from('list = "atlantis"\npoints = 1500\n') });
  await expect(page.locator(".mine .error")).toContainText('names no list this builder knows ("atlantis")');
  // Nothing was lost: the list and the army are still the ones being built.
  await expect(page.getByLabel("Army list")).toHaveValue("napoleonic-russian");
  expect(errors).toEqual([]);
});
