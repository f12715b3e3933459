// The lobby as a new player meets it (issue 14, defect 9): options in plain words, only the
// choices a mode has, and no second game from one click too many.
import { expect, test } from "@playwright/test";
import { api, startGame, waitMyTurn } from "./helpers.js";

test("lobby: plain option names, choices by mode, one online game per click", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/");
  await page.locator('[data-scenario="hcm-village"]').click();
  const options = page.locator("fieldset.options");
  await expect(options).toContainText("Oblique steps");
  await expect(options).not.toContainText("arrival_test");
  const level = page.locator("label.botlevel");
  const side = page.locator("label.yourside");
  await expect(level).toBeVisible();
  await expect(side).toBeVisible();
  await page.locator('input[name="mode"][value="hotseat"]').check();
  await expect(level).toBeHidden();
  await expect(side).toBeHidden();
  await page.locator('input[name="mode"][value="online"]').check();
  await expect(level).toBeHidden();
  await expect(side).toBeVisible();
  const start = page.getByRole("button", { name: "Start game" });
  await start.click();
  await expect(page.locator("input.invite")).toBeVisible();
  await expect(page.locator("form button.primary")).toHaveText("Game created");
  await expect(page.locator("form button.primary")).toBeDisabled();
  expect(errors).toEqual([]);
});

test("table: E asks again while units can act, an unreachable hex is explained, the card hides on a click", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/");
  await page.locator('[data-scenario="hcm-village"]').click();
  await page.locator('input[name="mode"][value="hotseat"]').check();
  await page.getByRole("button", { name: "Start game" }).click();
  await expect(page).toHaveURL(/#\/game\/[^?]+\?red=/);
  const phase = page.locator(".phasebar");
  await expect(phase).toContainText("movement");
  const before = await phase.innerText();
  await page.keyboard.press("e");
  await expect(page.locator(".confirm .caution")).toContainText(/units? can still act .*End the phase anyway\?/);
  expect(await phase.innerText()).toBe(before);
  await page.keyboard.press("e");
  await expect(phase).not.toContainText("movement");
  // A new game for the click: select a unit of the side to move, click a far hex.
  await page.goto("/");
  await page.locator('[data-scenario="hcm-village"]').click();
  await page.locator('input[name="mode"][value="hotseat"]').check();
  await page.getByRole("button", { name: "Start game" }).click();
  await expect(page).toHaveURL(/#\/game\/[^?]+\?red=/);
  const seats = new URL(page.url()).hash.match(/^#\/game\/([^?]+)\?red=([^&]+)/);
  if (!seats) throw new Error(`not a hotseat address: ${page.url()}`);
  const res = await page.request.get(`/api/games/${seats[1]}/view`, { headers: { Authorization: `Bearer ${seats[2]}` } });
  const decides = (await res.json()).view.to_decide === "red" ? "r3" : "b3";
  const counter = page.locator(`svg.map .counter[data-unit="${decides}"]`);
  await counter.hover();
  await counter.click();
  const far = "0106";
  const box = await page.locator(`svg.map polygon.hex[data-hex="${far}"]`).boundingBox();
  if (!box) throw new Error("hex not on screen");
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  // Said with the unit's name, not its id, and the unit is put down.
  await expect(page.locator(".message")).toContainText(new RegExp(`^.+ cannot go to ${far} now, and is put down`));
  await expect(page.locator(".message")).not.toContainText(`${decides} cannot`);
  await expect(page.locator(".unitpanel")).not.toHaveAttribute("data-unit", /./);
  await expect(page.locator("div.unitcard")).toBeHidden();
  expect(errors).toEqual([]);
});

test("table: commanders show their value beside their name", async ({ page }) => {
  await page.goto("/");
  await page.locator('[data-scenario="hc-first-clash"]').click();
  await page.locator('input[name="mode"][value="hotseat"]').check();
  await page.getByRole("button", { name: "Start game" }).click();
  await expect(page).toHaveURL(/#\/game\/[^?]+\?red=/);
  await expect(page.locator(".cmds .cmd").first()).toContainText(/★ Colonel (Roth|Blau) \+1/);
});

test("square grid: units face N, E, S or W with arrows and buttons like hexes", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/");
  await page.locator('[data-scenario="grid-ridge"]').click();
  await page.locator('input[name="mode"][value="hotseat"]').check();
  await page.getByRole("button", { name: "Start game" }).click();
  await expect(page).toHaveURL(/#\/game\/[^?]+\?red=/);
  const m = new URL(page.url()).hash.match(/^#\/game\/([^?]+)\?red=([^&]+)&blue=([^&]+)/);
  if (!m) throw new Error(`not a hotseat address: ${page.url()}`);
  const tokens = { red: m[2], blue: m[3] };
  /** @param {string} what @param {"red" | "blue"} side @returns {Promise<any>} */
  const get = async (what, side) =>
    (await page.request.get(`/api/games/${m[1]}/${what}`, { headers: { Authorization: `Bearer ${tokens[side]}` } })).json();
  const side = (await get("view", "red")).view.to_decide;
  /** @type {string[]} */
  const actions = (await get("legal", side)).actions;
  const face = actions.find((a) => a.startsWith("face ") && a.endsWith(" E"));
  expect(face, "a unit may turn to face E").toBeTruthy();
  const unit = /** @type {string} */ (face).split(" ")[1];
  const counter = page.locator(`svg.map .counter[data-unit="${unit}"]`);
  // An arrow shows the facing, and no unexplained badge does.
  await expect(counter.locator("polygon.facing")).toHaveCount(1);
  await expect(counter.locator("text.badge")).toHaveCount(0);
  await counter.click();
  const buttons = page.locator(".facings button");
  await expect(buttons).toHaveText(["N", "E", "S", "W"]);
  await page.locator('.facings button[data-facing="E"]').click();
  await expect.poll(async () => (await get("view", side)).view.units.find((/** @type {any} */ u) => u.id === unit).flags).toContain("facing E");
  expect(errors).toEqual([]);
});

test("stand and die: counters show their figures, cards only what the ruleset counts", async ({ page }) => {
  await page.goto("/");
  await page.locator('[data-scenario="sad-river-crossing"]').click();
  await page.locator('input[name="mode"][value="hotseat"]').check();
  await page.getByRole("button", { name: "Start game" }).click();
  await expect(page).toHaveURL(/#\/game\/[^?]+\?red=/);
  const counter = page.locator("svg.map .counter.unit").first();
  await expect(counter.locator("text.figures")).toHaveText(/^\d+$/);
  await counter.hover();
  const card = page.locator("div.unitcard");
  await expect(card).toBeVisible();
  await expect(card).toContainText("Figures");
  await expect(card).not.toContainText("TE");
  await expect(card).not.toContainText("0/0");
});

test("stand and die: stand and fall-back orders are given with the troops they concern, not in the top bar", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "sad-river-crossing", "solo", { side: "red", level: "easy" });
  // Red's march: hexes may be marked Standing or to fall back (Stand and Die! marching).
  const sv = await waitMyTurn(page);
  /** @type {string[]} */
  const actions = (await api(page, "legal")).actions;
  const stand = actions.find((a) => /^stand \d{4}$/.test(a));
  expect(stand, "red may mark a hex Standing").toBeTruthy();
  const hex = /** @type {string} */ (stand).split(" ")[1];
  const orders = actions.filter((a) => a === `stand ${hex}` || a === `fall-back ${hex}`);
  await expect(page.locator(".phasebar")).not.toContainText(/stand \d{4}|fall-back \d{4}/);
  const unit = sv.view.units.find((/** @type {any} */ u) => u.side === "red" && u.place.hex === hex);
  await page.locator(`svg.map .counter[data-unit="${unit.id}"]`).click();
  for (const order of orders) {
    await expect(page.locator(`.unitpanel button[data-action="${order}"]`)).toContainText(`(the troops in ${hex})`);
  }
  await page.locator(`.unitpanel button[data-action="stand ${hex}"]`).click();
  await expect.poll(async () => (await api(page, "legal")).actions.includes(`stand ${hex}`)).toBe(false);
  expect(errors).toEqual([]);
});

test("the glossary explains the game's words and finds one as you type", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "hc-first-clash", "hotseat");
  await expect(page.locator(".phasebar")).toContainText("First Clash");
  await page.keyboard.press("g");
  const box = page.locator(".glossarybox");
  await expect(box).toBeVisible();
  await expect(box.locator("dt")).not.toHaveCount(0);
  await expect(box.locator('dt[data-term="TE"]')).toBeVisible();
  await box.locator("input").fill("zone of control");
  await expect(box.locator('dt[data-term="Zone of control"]')).toBeVisible();
  await expect(box.locator('dt[data-term="TE"]')).toBeHidden();
  await box.locator("input").press("Escape");
  await expect(box).toBeHidden();
  // The button opens it too.
  await page.getByRole("button", { name: "Glossary" }).click();
  await expect(box).toBeVisible();
  await box.locator("input").press("Escape");
  // A rule reference in the log opens it at that section's words.
  const rule = page.locator(".log .event .rule").first();
  const cited = /** @type {string} */ (await rule.textContent());
  await rule.click();
  await expect(box).toBeVisible();
  await expect(box.locator("input")).toHaveValue(cited.split(" ").slice(1).join(" "));
  expect(errors).toEqual([]);
});

test("the help has the map's legend: its ground, hills and the letters on counters", async ({ page }) => {
  await startGame(page, "hc-crossroads", "hotseat");
  await expect(page.locator(".phasebar")).toContainText("The Crossroads");
  await page.keyboard.press("?");
  const legend = page.locator(".help .legend");
  await expect(legend).toBeVisible();
  await expect(legend).toContainText("woods");
  await expect(legend).toContainText("hill, level 1");
  await expect(legend).toContainText("objective");
  await expect(legend).toContainText("fired");
});
