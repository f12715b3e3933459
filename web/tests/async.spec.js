// Play at your own pace: an online game created with a pace of days per move, the lobby's
// games list sorted by whose turn it is, and a spectator link that shows what both sides
// have seen, says it is spectating, cannot act or chat, and is counted on the players' bar.
import { expect, test } from "@playwright/test";
import { api, clickEnd, seatOf } from "./helpers.js";

test("a paced online game: the games list by whose turn, and a spectator", async ({ browser }) => {
  const redContext = await browser.newContext();
  const blueContext = await browser.newContext();
  const watchContext = await browser.newContext();
  const red = await redContext.newPage();
  const blue = await blueContext.newPage();
  const watcher = await watchContext.newPage();

  // Red creates the game at three days a move (the pace is offered for online games only).
  await red.goto("/");
  await red.locator('[data-scenario="hc-night-march"]').click();
  await expect(red.locator("label.pace")).toBeHidden();
  await red.locator('input[name="mode"][value="online"]').check();
  await red.locator('select[name="side"]').selectOption("red");
  await red.locator('select[name="pace"]').selectOption("3d");
  await red.getByRole("button", { name: "Start game" }).click();
  const link = await red.locator("input.invite").inputValue();
  await red.getByRole("link", { name: "Go to my game" }).click();
  await blue.goto(link);
  await expect(blue.locator(".phasebar .seat")).toHaveText("You: blue");
  await expect(red.locator(".phasebar .seat")).toHaveText("You: red");
  const { id } = seatOf(red);
  const redSeat = red.url();
  const blueSeat = blue.url();

  const sv = await api(red, "view");
  expect(sv.pace).toBe(3 * 86_400);
  // Blue asks to be told by e-mail when it is its turn; a bad address is refused in words.
  await blue.locator(".notifybox summary").click();
  await blue.locator('input[name="notify-email"]').fill("not an address");
  await blue.locator(".notifybox").getByRole("button", { name: "Save" }).click();
  await expect(blue.locator(".message")).toContainText("is not an e-mail address");
  await blue.locator('input[name="notify-email"]').fill("blue@example.org");
  await blue.locator(".notifybox").getByRole("button", { name: "Save" }).click();
  await expect(blue.locator(".message")).toContainText("You will be told");
  expect((await api(blue, "notify")).email).toBe("blue@example.org");
  await expect(red.locator(".phasebar .deadline")).toContainText("Move by");

  // A second game of red's waits for its invited player: it is listed after the game in play,
  // though it is newer.
  await red.goto("/");
  await red.locator('[data-scenario="hc-night-march"]').click();
  await red.locator('input[name="mode"][value="online"]').check();
  await red.locator('select[name="pace"]').selectOption("1d");
  await red.getByRole("button", { name: "Start game" }).click();
  await expect(red.locator("input.invite")).toHaveValue(/#\/join\//);
  await red.goto("/");
  const rows = red.locator(".mygames tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1).locator(".status")).toHaveText("Waiting for the invited player");
  await expect(rows.first()).toHaveAttribute("data-game", id);
  const redTurn = sv.view.to_decide === "red";
  await expect(rows.first().locator(".status")).toContainText(redTurn ? "Your turn" : "blue to play");
  await expect(rows.first().locator(".status")).toContainText("move by");
  await blue.goto("/");
  await expect(blue.locator(".mygames tbody tr").first().locator(".status")).toContainText(redTurn ? "red to play" : "Your turn");
  await blue.goto(blueSeat);
  await expect(blue.locator(".phasebar .seat")).toHaveText("You: blue");

  // The spectator link: spectating, no seat, no chat, nothing to resign; the players see one
  // watcher.
  await red.goto(redSeat);
  await expect(red.locator(".phasebar .seat")).toHaveText("You: red");
  await watcher.goto(`/#/watch/${id}?token=${encodeURIComponent(sv.spectate)}`);
  await expect(watcher.locator(".phasebar .spectating")).toHaveText("Spectating");
  await expect(watcher.locator(".phasebar .live")).toHaveText("● live");
  await expect(watcher.locator(".phasebar .seat")).toHaveCount(0);
  await expect(watcher.getByRole("button", { name: "Resign" })).toHaveCount(0);
  await expect(watcher.locator(".chatpanel")).toBeHidden();
  await expect(red.locator(".phasebar .watchers")).toHaveText("1 watching");

  // It draws only the units both sides have seen: the watch view's, and no other.
  const watched = await (await watcher.request.get(`/api/games/${id}/watch`, { headers: { Authorization: `Bearer ${sv.spectate}` } })).json();
  const redView = sv.view.units.map((/** @type {any} */ u) => u.id);
  const shown = new Set(watched.view.units.map((/** @type {any} */ u) => u.id));
  expect(redView.some((/** @type {string} */ u) => !shown.has(u)), "a red unit blue has not seen is not shown").toBe(true);
  await expect(watcher.locator("svg.map .counter:not(.marker)")).toHaveCount(shown.size);
  for (const unit of redView.filter((/** @type {string} */ u) => !shown.has(u))) {
    await expect(watcher.locator(`[data-unit="${unit}"]`)).toHaveCount(0);
  }
  // Its link acts for nobody.
  const acted = await watcher.request.post(`/api/games/${id}/actions`, { headers: { Authorization: `Bearer ${sv.spectate}` }, data: { action: "end" } });
  expect(acted.status()).toBe(403);

  // A move reaches the spectator at once.
  const actor = redTurn ? red : blue;
  const phase = await watcher.locator(".phasebar .phase").textContent();
  await clickEnd(actor);
  await expect(watcher.locator(".phasebar .phase")).not.toHaveText(phase ?? "");

  // The spectator leaves: the count goes.
  await watchContext.close();
  await expect(red.locator(".phasebar .watchers")).toHaveCount(0);
  await redContext.close();
  await blueContext.close();
});
