// An online game on Night March in two browser contexts: each seat sees only its own side (the
// enemy as "?" markers), one seat's action reaches the other over the WebSocket, and so does
// a chat line.
import { expect, test } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { api, clickEnd, seatOf } from "./helpers.js";

/** @typedef {import("@playwright/test").Page} Page */

/**
 * The scenario's units, read from its file: id, side and name.
 * @returns {{id: string, side: string, name: string}[]}
 */
function scenarioUnits() {
  const text = fs.readFileSync(path.join(import.meta.dirname, "../../scenarios/hc-night-march.toml"), "utf8");
  return text
    .split("[[units]]")
    .slice(1)
    .map((block) => ({
      id: block.match(/^id\s*=\s*"([^"]+)"/m)?.[1] ?? "",
      side: block.match(/^side\s*=\s*"([^"]+)"/m)?.[1] ?? "",
      name: block.match(/^name\s*=\s*"([^"]+)"/m)?.[1] ?? "",
    }));
}

/**
 * Checks that the page draws nothing of the enemy that the seat's view does not hold: no
 * counter, no id, no name; unseen enemies only as "?" markers.
 * @param {Page} page
 * @param {"red" | "blue"} seat
 */
async function seesOnlyItsOwn(page, seat) {
  const sv = await api(page, "view");
  expect(sv.seat).toBe(seat);
  const units = scenarioUnits();
  const visible = new Set(sv.view.units.map((/** @type {any} */ u) => u.id));
  const hidden = units.filter((u) => u.side !== seat && !visible.has(u.id));
  expect(hidden.length, "some enemy units start unseen").toBeGreaterThan(0);
  const ownNames = new Set(units.filter((u) => u.side === seat).map((u) => u.name));
  await expect(page.locator("svg.map .counter.marker")).toHaveCount(sv.view.markers.length);
  expect(sv.view.markers.length).toBeGreaterThan(0);
  await expect(page.locator("svg.map .counter.marker .qmark").first()).toHaveText("?");
  const html = await page.content();
  const text = await page.locator("body").innerText();
  for (const u of hidden) {
    await expect(page.locator(`[data-unit="${u.id}"]`)).toHaveCount(0);
    expect(html).not.toMatch(new RegExp(`data-(unit|card)="${u.id}"`));
    expect(text).not.toMatch(new RegExp(`\\b${u.id}\\b`));
    if (!ownNames.has(u.name)) expect(text).not.toContain(u.name);
  }
  // Every own unit is drawn.
  for (const u of units.filter((x) => x.side === seat)) {
    if (visible.has(u.id)) await expect(page.locator(`svg.map .counter[data-unit="${u.id}"]`)).toHaveCount(1);
  }
}

test("online game: two seats, fog of war, live updates", async ({ browser }) => {
  const redContext = await browser.newContext();
  const blueContext = await browser.newContext();
  const red = await redContext.newPage();
  const blue = await blueContext.newPage();

  await red.goto("/");
  await red.locator('[data-scenario="hc-night-march"]').click();
  await red.locator('input[name="mode"][value="online"]').check();
  await red.locator('select[name="side"]').selectOption("red");
  await red.getByRole("button", { name: "Start game" }).click();
  const invite = red.locator("input.invite");
  // The invitation carries a one-time claim, never a seat's token.
  await expect(invite).toHaveValue(/#\/join\/[^?]+\?claim=/);
  const link = await invite.inputValue();
  await red.getByRole("link", { name: "Go to my game" }).click();
  // Nothing is rolled before the invited player takes the seat.
  await expect(red.locator(".waiting")).toContainText("Waiting for the player of blue");

  await blue.goto(link);
  await expect(blue.locator(".phasebar .seat")).toHaveText("You: blue");
  await expect(red.locator(".phasebar .seat")).toHaveText("You: red");
  expect(seatOf(blue).id).toBe(seatOf(red).id);
  expect(seatOf(blue).token).not.toBe(seatOf(red).token);
  const blueSeat = blue.url();
  // The invitation is spent: a third browser opening it gets no seat.
  const thirdContext = await browser.newContext();
  const third = await thirdContext.newPage();
  await third.goto(link);
  await expect(third.locator("body")).toContainText("That invitation cannot be used");
  await thirdContext.close();
  // The invited seat is kept in the other browser's "my games".
  await blue.goto("/");
  await expect(blue.locator(`.mygames tr[data-game="${seatOf(red).id}"]`)).toContainText("blue");
  await blue.goto(blueSeat);

  for (const [page, seat] of /** @type {const} */ ([[red, "red"], [blue, "blue"]])) {
    await expect(page.locator(".phasebar .live")).toHaveText("● live");
    await seesOnlyItsOwn(page, seat);
  }

  // The seat to decide ends its phase; the other sees it at once, without reloading.
  const sv = await api(red, "view");
  const [actor, watcher] = sv.view.to_decide === "red" ? [red, blue] : [blue, red];
  const before = await watcher.locator(".log .event").count();
  const phase = await watcher.locator(".phasebar .phase").textContent();
  await expect(actor.locator(".phasebar .decide")).toHaveText("Your decision");
  await clickEnd(actor);
  await expect(watcher.locator(".phasebar .phase")).not.toHaveText(phase ?? "");
  await expect.poll(() => watcher.locator(".log .event").count()).toBeGreaterThan(before);

  for (const [page, seat] of /** @type {const} */ ([[red, "red"], [blue, "blue"]])) {
    await seesOnlyItsOwn(page, seat);
  }

  // The two seats chat: a line typed by one reaches the other at once, and stays on a reload.
  await red.locator(".chatpanel input").fill("Your flank is in the air, sir.");
  await red.locator(".chatpanel input").press("Enter");
  await expect(red.locator(".chatline").last()).toHaveText("You: Your flank is in the air, sir.");
  await expect(blue.locator(".chatline").last()).toContainText("Your flank is in the air, sir.");
  await expect(blue.locator(".chatline").last().locator("strong")).not.toHaveText("You: ");
  await blue.reload();
  await expect(blue.locator(".chatline")).toHaveCount(1);

  // Red resigns and offers a rematch with the sides swapped: blue joins it from the chat.
  await red.getByRole("button", { name: "Resign" }).click();
  await red.getByRole("button", { name: "Really resign?" }).click();
  await expect(blue.locator(".phasebar .outcome")).toContainText("Red resigned");
  await red.getByRole("button", { name: "Rematch" }).click();
  await expect(red.locator(".waiting")).toContainText("Waiting for the player of red");
  await blue.locator(".chatline a.joinrematch").click();
  await expect(blue.locator(".phasebar .seat")).toHaveText("You: red");
  await expect(red.locator(".phasebar .seat")).toHaveText("You: blue");
  expect(seatOf(blue).id).toBe(seatOf(red).id);
  await redContext.close();
  await blueContext.close();
});
