// What the game API tells the table beyond the units' hexes: several units in one hex are
// drawn side by side, the bar says what is being decided and by whom, and while the computer
// plays the bar counts its actions.
import { expect, test } from "@playwright/test";
import { api, clickHex, endPhase, hotseatDecider, startGame, waitMyTurn } from "./helpers.js";

test.setTimeout(300_000);

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
  // Every level now plays a turn in a blink; a bot that thinks 300 ms a decision gives the
  // page a turn long enough to watch the count (the lobby's request is rewritten on its way).
  await page.route("**/api/games", async (route) => {
    const body = route.request().method() === "POST" ? JSON.parse(route.request().postData() || "{}") : null;
    if (body?.blue === "hard") await route.continue({ postData: JSON.stringify({ ...body, blue: "mcts:ms=300" }) });
    else await route.continue();
  });
  await startGame(page, "hc-crossroads", "solo", { side: "red", level: "hard" });
  // Whoever moves first, the computer plays blue at some point: wait for its turn.
  const bar = page.locator(".phasebar .decide");
  await expect(async () => {
    const sv = await api(page, "view");
    if (sv.view.to_decide === "red") {
      const before = sv.seq;
      await endPhase(page);
      await expect.poll(async () => (await api(page, "view")).seq).toBeGreaterThan(before);
    }
    await expect(bar).toHaveText(/The computer \(mcts:ms=300\) is playing .*: \d+ actions? so far/, { timeout: 2_000 });
  }).toPass({ timeout: 240_000 });
  expect(errors).toEqual([]);
});

test("a move of three hexes completes as one order (issue 14, defect 1)", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "hc-crossroads", "hotseat");
  const { get, token } = await hotseatDecider(page);
  /** @type {string[]} */
  const actions = (await get("legal", token)).actions;
  const units = [...new Set(actions.filter((a) => a.startsWith("move ")).map((a) => a.split(" ")[1]))];
  // The first unit with a hex three steps away: the page moves it hex by hex.
  let done = false;
  for (const unit of units) {
    /** @type {{hex: string, cost: number}[]} */
    const reach = await get(`reach?unit=${unit}`, token);
    const far = reach.find((r) => r.cost === 3);
    if (!far) continue;
    const counter = page.locator(`svg.map .counter[data-unit="${unit}"]`);
    const from = await counter.getAttribute("data-hex");
    await counter.click();
    await expect(page.locator(`svg.map .mark.reach[data-mark="${far.hex}"]`)).toBeVisible();
    await expect(page.locator(".unitpanel .unitnow")).toContainText(/Can still move: \d+ hexes within reach/);
    await clickHex(page, far.hex);
    await expect(page.locator(".confirm")).toBeVisible();
    await page.locator(".confirm .confirmbtn").first().click();
    await expect(counter).toHaveAttribute("data-hex", far.hex);
    await expect(page.locator(".message")).not.toContainText("Stopped short");
    expect(from).not.toBe(far.hex);
    done = true;
    break;
  }
  expect(done, "some unit could move three hexes").toBe(true);
  expect(errors).toEqual([]);
});

test("the dice commitment stays on show after the computer moves and after a reload (issue 14, defect 4)", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "hc-first-clash", "solo", { side: "red", level: "easy" });
  const dice = page.locator(".sides .dice");
  const m = new URL(page.url()).hash.match(/^#\/game\/([^?]+)\?token=([^&]+)/);
  if (!m) throw new Error(`not a game address: ${page.url()}`);
  const view = async () =>
    (await page.request.get(`/api/games/${m[1]}/view`, { headers: { Authorization: `Bearer ${m[2]}` } })).json();
  const { commitment } = await view();
  await expect(dice).toContainText(`Dice commitment ${commitment.slice(0, 16)}`);
  // Hand the turn to the computer until it has moved at least once, then look again.
  const before = (await view()).seq;
  for (let i = 0; i < 20 && (await view()).seq <= before + 3; i++) {
    const sv = await view();
    if (sv.view.to_decide === "red") {
      await endPhase(page);
    }
    await expect.poll(async () => (await view()).seq, { timeout: 30_000 }).toBeGreaterThan(sv.seq);
  }
  await expect(dice).toContainText(`Dice commitment ${commitment.slice(0, 16)}`);
  await page.reload();
  await expect(dice).toContainText(`Dice commitment ${commitment.slice(0, 16)}`);
  expect(errors).toEqual([]);
});

test("undo takes back a move: the counter and the log are as they were", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "hc-crossroads", "hotseat");
  const { get, token } = await hotseatDecider(page);
  /** @type {string[]} */
  const actions = (await get("legal", token)).actions;
  const move = /** @type {string} */ (actions.find((a) => a.startsWith("move ")));
  const [, unit, to] = move.split(" ");
  const counter = page.locator(`svg.map .counter[data-unit="${unit}"]`);
  const from = /** @type {string} */ (await counter.getAttribute("data-hex"));
  const logged = await page.locator(".log .event").count();
  await expect(page.getByRole("button", { name: "Undo" })).toBeHidden();
  await counter.click();
  await clickHex(page, to);
  await page.locator(".confirm .confirmbtn").first().click();
  await expect(counter).toHaveAttribute("data-hex", to);
  await expect.poll(() => page.locator(".log .event").count()).toBeGreaterThan(logged);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(counter).toHaveAttribute("data-hex", from);
  await expect(page.locator(".message")).toContainText(`Took back`);
  await expect.poll(() => page.locator(".log .event").count()).toBe(logged);
  expect((await get("view", token)).seq).toBe(0);
  // Nothing left to take back: the key says why.
  await page.keyboard.press("u");
  await expect(page.locator(".message")).toContainText("Cannot undo: there is nothing to take back");
  expect(errors).toEqual([]);
});

test("resign asks twice, ends the battle for the other side and reveals the dice seed", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "hc-first-clash", "solo", { side: "red", level: "easy" });
  await page.getByRole("button", { name: "Resign", exact: true }).click();
  await expect(page.locator(".phasebar .outcome")).toHaveCount(0);
  await page.getByRole("button", { name: "Really resign?" }).click();
  await expect(page.locator(".phasebar .outcome")).toHaveText(/^Blue.* wins: Red resigned$/);
  await expect(page.locator(".log .event").last()).toContainText("Red resigns: Blue wins the battle");
  await expect(page.locator(".sides .dice")).toContainText("seed ");
  await expect(page.getByRole("button", { name: "Resign", exact: true })).toHaveCount(0);
  // A rematch: the same battle, the sides swapped.
  const first = page.url();
  await page.getByRole("button", { name: "Rematch" }).click();
  await expect.poll(() => page.url()).not.toBe(first);
  await expect(page.locator(".phasebar .seat")).toHaveText("You: blue");
  await expect(page.locator(".phasebar .title")).toHaveText("First Clash");
  // "My games" in the lobby says how the first ended.
  await page.goto("/");
  await expect(page.locator(".mygames .status", { hasText: "won (Red resigned)" })).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("replay: jump to a turn, the log in step, autoplay", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "hc-first-clash", "solo", { side: "red", level: "easy" });
  // Red ends its phases (the computer plays blue) until turn 3 has begun, then resigns.
  for (let i = 0; i < 200; i++) {
    const sv = await waitMyTurn(page);
    if (sv.view.turn >= 3 || sv.view.outcome) break;
    await api(page, "actions", { action: "end" });
  }
  // The computer's doings while red waited are summed up when the decision comes back.
  await expect(page.locator(".log .logsummary").first()).toContainText(/^While you waited, .+ (moved \d+ units?|fired|fought|gave|scored|made no move)/);
  await page.getByRole("button", { name: "Resign", exact: true }).click();
  await page.getByRole("button", { name: "Really resign?" }).click();
  await expect(page.locator(".phasebar .outcome")).toBeVisible();
  await page.getByRole("button", { name: "Replay" }).click();
  await expect(page.locator(".replaybar .stepno")).toHaveText(/^Step 0\/\d+$/);
  await page.locator(".replaybar select").selectOption("2");
  await expect(page.locator(".phasebar .turnno")).toHaveText(/^Turn 2\//);
  const step = Number((await page.locator(".replaybar .stepno").innerText()).match(/^Step (\d+)/)?.[1]);
  expect(step).toBeGreaterThan(0);
  // The log runs up to this step; its own events are marked, and the last one is of turn 2.
  await expect(page.locator(".log .event.active").first()).toBeVisible();
  await expect(page.locator(".log .event").last().locator(".turn")).toHaveText("T2");
  await page.getByRole("button", { name: "⏵ Play" }).click();
  await expect.poll(async () => Number((await page.locator(".replaybar .stepno").innerText()).match(/^Step (\d+)/)?.[1])).toBeGreaterThan(step);
  await page.getByRole("button", { name: "⏸ Pause" }).click();
  await page.keyboard.press("End");
  await expect(page.locator(".replaybar .stepno")).toHaveText(/^Step (\d+)\/\1$/);
  expect(errors).toEqual([]);
});

test("a group moves in one order: shift-click gathers, a click on an empty hex moves them all", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "hc-crossroads", "hotseat");
  const { get, token } = await hotseatDecider(page);
  /** @type {string[]} */
  const actions = (await get("legal", token)).actions;
  const [a, b] = [...new Set(actions.filter((x) => x.startsWith("move ")).map((x) => x.split(" ")[1]))];
  expect(b, "two units can move").toBeTruthy();
  const counter = (/** @type {string} */ id) => page.locator(`svg.map .counter[data-unit="${id}"]`);
  const [fromA, fromB] = [await counter(a).getAttribute("data-hex"), await counter(b).getAttribute("data-hex")];
  // A one-step move for the lead, away from the other unit so that it does not block.
  /** @type {{hex: string, cost: number}[]} */
  const reach = await get(`reach?unit=${a}`, token);
  const centre = async (/** @type {string} */ hex) => {
    const box = await page.locator(`svg.map polygon.hex[data-hex="${hex}"]`).boundingBox();
    return box ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : { x: 0, y: 0 };
  };
  const pb = await centre(/** @type {string} */ (fromB));
  let target = "";
  let far = -1;
  for (const r of reach.filter((x) => x.cost === 1)) {
    const p = await centre(r.hex);
    const d = Math.hypot(p.x - pb.x, p.y - pb.y);
    if (d > far) [target, far] = [r.hex, d];
  }
  await counter(a).click();
  await counter(b).click({ modifiers: ["Shift"] });
  await expect(counter(a)).toHaveClass(/grouped/);
  await expect(counter(b)).toHaveClass(/grouped/);
  await clickHex(page, target);
  await expect(page.locator(".message")).toContainText("Group moved: 2 of 2 in place");
  await expect(counter(a)).toHaveAttribute("data-hex", target);
  expect(await counter(b).getAttribute("data-hex")).not.toBe(fromB);
  expect(fromA).not.toBe(target);
  expect(errors).toEqual([]);
});

test("the keyboard alone plays a move, and a move of several hexes is one log line", async ({ page }) => {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await startGame(page, "hc-crossroads", "hotseat");
  const { get, token } = await hotseatDecider(page);
  const before = (await get("view", token)).seq;
  await expect(page.locator("svg.map .counter.ready").first()).toBeVisible();
  await page.keyboard.press("n");
  await expect(page.locator("svg.map .ring.selected")).toHaveCount(1);
  await page.keyboard.press("t");
  await expect(page.locator("svg.map .ring.pending")).toHaveCount(1);
  await expect(page.locator(".confirm")).toBeVisible();
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await get("view", token)).seq).toBeGreaterThan(before);
  // Now a unit that has not moved goes two hexes: the log shows one line for it.
  /** @type {{units?: string[]}[]} */
  const events = (await get("log", token)).events;
  const movedByKeys = events[events.length - 1].units?.[0];
  /** @type {string[]} */
  const actions = (await get("legal", token)).actions;
  for (const unit of new Set(actions.filter((a) => a.startsWith("move ")).map((a) => a.split(" ")[1]))) {
    if (unit === movedByKeys) continue;
    /** @type {{hex: string, cost: number}[]} */
    const reach = await get(`reach?unit=${unit}`, token);
    const far = reach.find((r) => r.cost === 2);
    if (!far) continue;
    const lines = await page.locator(".log .event").count();
    await page.locator(`svg.map .counter[data-unit="${unit}"]`).click();
    await clickHex(page, far.hex);
    await page.locator(".confirm .confirmbtn").first().click();
    await expect(page.locator(`svg.map .counter[data-unit="${unit}"]`)).toHaveAttribute("data-hex", far.hex);
    await expect(page.locator(".log .event")).toHaveCount(lines + 1);
    await expect(page.locator(".log .event").last().locator(".text")).toHaveText(/ moves from \d{4} to \d{4} \(2 steps\)\.$/);
    break;
  }
  expect(errors).toEqual([]);
});
