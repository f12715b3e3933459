// The Black Powder army builder: pick a list and a total, add within the limits, see what is
// still compulsory, save the army, and fight it against the computer: against an army the
// computer builds to the same points, or an example or saved army whose points are said when
// they differ.
import { expect, test } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";

const artifacts = path.join(import.meta.dirname, "artifacts");

test("army builder: limits as you click, compulsory troops, save, and a battle against the computer", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/");
  await page.getByRole("link", { name: "Build a Black Powder Tactical Commander army" }).click();
  await expect(page).toHaveURL(/#\/army$/);
  await page.getByLabel("Army list").selectOption("napoleonic-russian");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  await expect(page.locator('.troops button[data-troop="Line Infantry"]')).toBeEnabled();
  const total = page.locator(".total");
  await expect(total).toContainText("0 of 1500 points");
  const compulsory = page.locator(".compulsory");
  await expect(compulsory).toContainText("at least 4 infantry units");
  await expect(compulsory).toContainText("no command units");
  // The brigade HQ and four line battalions: 55 + 4 × 225.
  await page.locator('.commands button[data-command="brigade average"]').click();
  await expect(page.locator(".armyunits li.hq")).toHaveCount(1);
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
  // Cavalry may go out as scouts: the check takes it, the points do not change.
  const before = await total.textContent();
  await page.getByLabel("Heavy Cavalry as scouts").check();
  await expect(total).toContainText("ready to fight");
  await expect(total).toHaveText(/** @type {string} */ (before));
  await page.getByLabel("Heavy Cavalry as scouts").uncheck();
  // Rows never bought on their own say why.
  await expect(page.locator('.troops button[data-troop="Limbered Artillery"]')).toBeDisabled();
  // What would go over the total is greyed out too: a second Old Guard-sized purchase.
  await page.getByLabel("Points total").fill("1200");
  await page.getByLabel("Points total").dispatchEvent("change");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  await expect(total).toContainText("1195 of 1200 points");
  await expect(page.locator('.troops button[data-troop="Line Infantry"]')).toBeDisabled();
  await page.getByLabel("Points total").fill("1500");
  await page.getByLabel("Points total").dispatchEvent("change");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  await expect(page.locator('.troops button[data-troop="Line Infantry"]')).toBeEnabled();
  // Save it in the browser; it is offered as an opponent and to reopen.
  await page.getByLabel("Army name").fill("Bagration's brigade");
  await page.getByLabel("Army name").dispatchEvent("change");
  await page.getByRole("button", { name: "Save in this browser" }).click();
  await expect(page.getByLabel("Open an army", { exact: true })).toContainText("Bagration's brigade (saved)");
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, "army-builder.png"), fullPage: true });
  // Fight it against the computer on the creek, against an example of twice its points: the
  // difference is said, and the battle waits for the player's word.
  await page.getByLabel("Opponent's army").selectOption({ label: "Austrian division of Count Nadasdy (example, 18th Century Army, 3000 points)" });
  await page.getByLabel("Field").selectOption("creek-crossing");
  await page.getByLabel("Computer").selectOption("easy");
  await page.getByRole("button", { name: "Fight", exact: true }).click();
  await page.getByRole("button", { name: "Fight anyway" }).click();
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
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
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

test("army builder: a hasty defence's works, a Field Artillery Officer and regimental guns, in the total and the file", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/#/army");
  await page.getByLabel("Army list").selectOption("napoleonic-russian");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  await page.getByLabel("Points total").fill("2500");
  await page.getByLabel("Points total").dispatchEvent("change");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  const total = page.locator(".total");
  await expect(total).toContainText("0 of 2500 points");
  await page.locator('.commands button[data-command="brigade average"]').click();
  await expect(page.locator(".armyunits li.hq")).toHaveCount(1);
  const line = page.locator('.troops button[data-troop="Line Infantry"]');
  for (let i = 0; i < 4; i++) {
    await line.click();
    await expect(page.locator(".armyunits li.unit")).toHaveCount(i + 1);
  }
  await expect(total).toContainText("955 of 2500 points");
  // No FAO without six artillery units: greyed out with the limit.
  const fao = page.locator('.commands button[data-command="fao"]');
  await expect(fao).toBeDisabled();
  await expect(fao).toHaveAttribute("title", "at most one Field Artillery Officer for every 6 artillery units: 0 artillery units allow 0");
  // Six mortar batteries of 2 sections (6 × 140) allow one.
  const mortar = page.locator('.troops button[data-troop="Mortar"]');
  for (let i = 0; i < 6; i++) {
    await mortar.click();
    await expect(page.locator(".armyunits li.unit")).toHaveCount(5 + i);
  }
  await expect(total).toContainText("1795 of 2500 points");
  await expect(fao).toBeEnabled();
  await fao.click();
  await expect(page.locator(".armyunits li.hq")).toHaveCount(2);
  await expect(page.locator(".armyunits li.hq").nth(1)).toContainText("Field Artillery Officer");
  await expect(fao).toBeDisabled();
  await expect(fao).toHaveAttribute("title", /6 artillery units allow 1$/);
  await expect(total).toContainText("1850 of 2500 points");
  // Two regimental guns with the first line battalion, at the howitzer row's 75 each; guns
  // take none.
  await expect(page.getByLabel("Regimental guns of Mortar")).toHaveCount(0);
  await page.getByLabel("Regimental guns of Line Infantry").first().selectOption("2");
  await expect(total).toContainText("2000 of 2500 points");
  await expect(page.locator(".armyunits li.unit").first().locator(".cost")).toHaveText("375");
  // Field defences need a defence; a hasty one takes trenches, stakes and breastworks.
  const trench = page.locator('.works button[data-work="trench"]');
  await expect(trench).toBeDisabled();
  await expect(trench).toHaveAttribute("title", /field defences need the army in defence/);
  await page.getByLabel("Defence").selectOption("hasty");
  await expect(page.locator(".budget")).toHaveText("0 of 250 points on field defences");
  await expect(page.locator('.works button[data-work="fortification"]')).toHaveAttribute("title", /fortification need a fixed defence/);
  await trench.click();
  await expect(page.locator(".armyunits li.work")).toHaveCount(1);
  await trench.click();
  await expect(page.getByLabel("Count of trench")).toHaveValue("2");
  await page.locator('.works button[data-work="stakes"]').click();
  await expect(page.locator(".armyunits li.work")).toHaveCount(2);
  await expect(page.locator(".budget")).toHaveText("35 of 250 points on field defences");
  await expect(total).toContainText("2035 of 2500 points");
  await expect(total).toContainText("ready to fight");
  await expect(page.locator(".compulsory")).toHaveCount(0);
  // The file carries all three, and opens again as it was.
  await page.getByLabel("Army name").fill("Tuchkov's redoubts");
  await page.getByLabel("Army name").dispatchEvent("change");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download .toml" }).click()]);
  const file = fs.readFileSync(/** @type {string} */ (await download.path()), "utf8");
  expect(file).toContain('points = 2500\ndefence = "hasty"\n');
  expect(file).toContain("[[command]]\nfao = true\n");
  expect(file).toContain('troop = "Line Infantry"\nstands = 5\nregimental_guns = 2\n');
  expect(file).toContain('[[work]]\nkind = "trench"\ncount = 2\n');
  expect(file).toContain('[[work]]\nkind = "stakes"\ncount = 1\n');
  await page.getByRole("button", { name: "Save in this browser" }).click();
  // Another list starts a new army (the defence and its works stay, as the points do).
  await page.getByLabel("Army list").selectOption("napoleonic-french");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  await expect(total).toContainText("35 of 2500 points");
  await page.getByLabel("Open an army", { exact: true }).selectOption("saved:Tuchkov's redoubts");
  await expect(total).toContainText("2035 of 2500 points");
  await expect(total).toContainText("ready to fight");
  await expect(page.getByLabel("Defence")).toHaveValue("hasty");
  await expect(page.locator(".armyunits li.work")).toHaveCount(2);
  await expect(page.getByLabel("Regimental guns of Line Infantry").first()).toHaveValue("2");
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, "army-builder-defence.png"), fullPage: true });
  expect(errors).toEqual([]);
});

test("army builder: a redraw that changes nothing keeps its buttons, and a list that fails to load says so", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/#/army");
  await page.getByLabel("Army list").selectOption("napoleonic-russian");
  const chart = page.locator(".chart");
  await expect(chart).toHaveAttribute("aria-busy", "false");
  // Mark the button and the download button as nodes (not attributes, which would change the
  // HTML compared); a new name asks the server again, and the answer redraws nothing.
  const add = page.locator('.commands button[data-command="brigade average"]');
  const download = page.getByRole("button", { name: "Download .toml" });
  await add.evaluate((b) => Object.assign(b, { kept: true }));
  await download.evaluate((b) => Object.assign(b, { kept: true }));
  await page.getByLabel("Army name").fill("Raevsky's corps");
  await page.getByLabel("Army name").dispatchEvent("change");
  await expect(chart).toHaveAttribute("aria-busy", "false");
  expect(await add.evaluate((b) => /** @type {any} */ (b).kept)).toBe(true);
  expect(await download.evaluate((b) => /** @type {any} */ (b).kept)).toBe(true);
  // A redraw that changes something replaces them: the HQ bought, its row is new.
  await add.click();
  await expect(page.locator(".armyunits li.hq")).toHaveCount(1);
  await expect(chart).toHaveAttribute("aria-busy", "false");
  expect(await download.evaluate((b) => /** @type {any} */ (b).kept)).toBeUndefined();
  // The list cannot be fetched: the chart says so in words and is not left busy.
  await page.route("**/api/armies/lists/napoleonic-french", (route) => route.abort());
  await page.getByLabel("Army list").selectOption("napoleonic-french");
  await expect(chart.locator(".error")).toContainText("Could not load the army list napoleonic-french");
  await expect(chart).toHaveAttribute("aria-busy", "false");
  // Another list still loads.
  await page.getByLabel("Army list").selectOption("napoleonic-russian");
  await expect(chart).toHaveAttribute("aria-busy", "false");
  await expect(page.locator('.commands button[data-command="brigade average"]')).toBeEnabled();
  expect(errors).toEqual([]);
});

/**
 * Opens the builder on the Russian list at `points` and buys a brigade HQ and four line
 * battalions (955 points), named `name`.
 * @param {import("@playwright/test").Page} page
 * @param {number} points
 * @param {string} name
 */
async function russianBrigade(page, points, name) {
  await page.goto("/#/army");
  await page.getByLabel("Army list").selectOption("napoleonic-russian");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  if (points !== 1500) {
    await page.getByLabel("Points total").fill(String(points));
    await page.getByLabel("Points total").dispatchEvent("change");
    await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  }
  await page.locator('.commands button[data-command="brigade average"]').click();
  await expect(page.locator(".armyunits li.hq")).toHaveCount(1);
  for (let i = 0; i < 4; i++) {
    await page.locator('.troops button[data-troop="Line Infantry"]').click();
    await expect(page.locator(".armyunits li.unit")).toHaveCount(i + 1);
  }
  await page.getByLabel("Army name").fill(name);
  await page.getByLabel("Army name").dispatchEvent("change");
  await expect(page.locator(".total")).toContainText(`955 of ${points} points`);
  await expect(page.locator(".total")).toContainText("ready to fight");
}

test("army builder: by default the computer builds an army of the same points from a chosen list, and the battle starts", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await russianBrigade(page, 2000, "Platov's rearguard");
  const enemy = page.getByLabel("Opponent's army");
  await expect(enemy).toHaveValue("computer");
  await expect(enemy.locator("option:checked")).toHaveText("The computer builds an army of the same points");
  // Every list is offered by name; the player's own list to begin with.
  const from = page.getByLabel("Opponent's list");
  await expect(from).toHaveValue("napoleonic-russian");
  await expect(from.locator("option")).toHaveCount(12);
  await expect(from.locator("option").first()).toHaveText(/^[A-Z0-9][^()]*$/);
  await from.selectOption({ label: "Napoleonic Austrian Army" });
  await expect(page.locator(".fight .mismatch")).toBeHidden();
  // The choice outlives a redraw of the panel (a change to the army checks it again).
  await page.getByLabel("Army name").fill("Platov's rearguard!");
  await page.getByLabel("Army name").dispatchEvent("change");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  await expect(page.getByLabel("Opponent's list")).toHaveValue("napoleonic-austrian");
  await page.getByLabel("Field").selectOption("rolling-farmland");
  await page.getByLabel("Computer").selectOption("easy");
  const built = page.waitForResponse((r) => r.url().endsWith("/api/armies/generate"));
  await page.getByRole("button", { name: "Fight", exact: true }).click();
  const army = await (await built).json();
  expect(army.points).toBe(2000);
  expect(army.cost).toBeLessThanOrEqual(2000);
  expect(army.cost).toBeGreaterThan(1900);
  await expect(page).toHaveURL(/#\/game\/[^?]+\?token=/);
  // The battle is the player's 2000 points against the computer's 2000.
  await expect(page.locator(".phasebar")).toContainText("Platov's rearguard! against Napoleonic Austrian Army of 2000 points");
  await expect(page.locator('svg.map .counter[data-unit="r1"]')).toBeVisible();
  await expect(page.locator('svg.map .counter[data-unit="b1"]')).toBeVisible();
  expect(errors).toEqual([]);
});

test("army builder: an example or saved army of other points is said to differ, and nothing starts until the player says so", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await russianBrigade(page, 1500, "Dokhturov's brigade");
  const mismatch = page.locator(".fight .mismatch");
  await expect(mismatch).toBeHidden();
  // An example of 3000 points.
  await page.getByLabel("Opponent's army").selectOption({ label: "Austrian division of Count Nadasdy (example, 18th Century Army, 3000 points)" });
  await expect(mismatch).toHaveText("Your army is 1500 points; the example Austrian division of Count Nadasdy is 3000 points — a mismatch of 1500.");
  await expect(page.getByLabel("Opponent's list")).toBeHidden();
  await page.getByRole("button", { name: "Fight", exact: true }).click();
  const asked = page.getByRole("alertdialog", { name: "Points mismatch" });
  await expect(asked).toContainText("Your army is 1500 points; the example Austrian division of Count Nadasdy is 3000 points — a mismatch of 1500. Fight all the same?");
  await asked.getByRole("button", { name: "Choose another opponent" }).click();
  await expect(asked).toHaveCount(0);
  await expect(page).toHaveURL(/#\/army$/);
  // A saved army of 1200 points says so too; one of the same points says nothing.
  await page.getByLabel("Points total").fill("1200");
  await page.getByLabel("Points total").dispatchEvent("change");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  await page.getByRole("button", { name: "Save in this browser" }).click();
  await page.getByLabel("Points total").fill("1500");
  await page.getByLabel("Points total").dispatchEvent("change");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  await page.getByLabel("Opponent's army").selectOption({ label: "Dokhturov's brigade (saved, 1200 points)" });
  await expect(mismatch).toHaveText("Your army is 1500 points; your saved army Dokhturov's brigade is 1200 points — a mismatch of 300.");
  await page.getByLabel("Points total").fill("1200");
  await page.getByLabel("Points total").dispatchEvent("change");
  await expect(page.locator(".chart")).toHaveAttribute("aria-busy", "false");
  await expect(page.getByLabel("Opponent's army")).toHaveValue("saved:Dokhturov's brigade");
  await expect(mismatch).toBeHidden();
  // The computer's army is of the same points: nothing to say.
  await page.getByLabel("Opponent's army").selectOption("computer");
  await expect(mismatch).toBeHidden();
  await expect(page.getByLabel("Opponent's list")).toBeVisible();
  expect(errors).toEqual([]);
});
