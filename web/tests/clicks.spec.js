// Every bundled battle played the way a person plays it: two full turns a side (or to the end,
// if the battle ends sooner), hotseat, using only taps and clicks on the map, the confirm box,
// the unit's card and keys — no API call, and no panel button where the map could serve.
//
// The page's own answers from the server are read (never asked for) to know what the seat may
// do; at each decision every kind of action offered that was not yet seen reachable is checked
// to be reachable from the map (its unit's counter selects it, and its target is marked where
// the action goes) or, for what has no place on the map, from a button on the unit's card or
// in the answer box. A dice action is committed only from the confirm box, and the test fails
// if it was committed before its odds were shown there.
import { expect, test } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";

/** @typedef {import("@playwright/test").Page} Page */
/** @typedef {{action: string, verb: string, kind: string, unit: string | null, target: {hex?: string} | null, facing: string | null, dice: boolean, label: string}} Choice */

/** Every bundled battle: the scenario files the server is built with. */
const SCENARIOS = fs
  .readdirSync(path.join(import.meta.dirname, "../../scenarios"))
  .filter((f) => f.endsWith(".toml"))
  .map((f) => f.slice(0, -".toml".length))
  .sort();

/** Battles whose phone run is still open (see the fixme below). */
const PHONE_OPEN = ["hc-corps", "hc-reinforcements", "hc-pike-and-shot", "hcm-village", "hcm-breakthrough", "hcm-night-ambush", "bptc-acw", "bptc-18th-century"];

/** Decisions at most, a side's turns and the actions a phase gets before it is ended. */
const MAX_DECISIONS = 400;
const TURNS = 2;
const ACTIONS_A_PHASE = 2;

/**
 * What the page was told, read from its own traffic.
 * @param {Page} page
 */
function listen(page) {
  const seen = {
    /** @type {Choice[] | null} */
    legal: null,
    legalCount: 0,
    /** @type {string[]} */
    errors: [],
    /** @type {string[]} notation of the actions the page sent */
    sent: [],
    /** @type {string[]} notation of the actions whose odds the page asked for */
    asked: [],
  };
  page.on("response", async (r) => {
    const url = r.url();
    if (r.request().method() === "GET" && /\/api\/games\/[^/]+\/legal$/.test(url) && r.ok()) {
      try {
        seen.legal = (await r.json()).described;
        seen.legalCount += 1;
      } catch {
        // A page navigated away: nothing to read.
      }
    }
  });
  page.on("request", (r) => {
    const url = r.url();
    if (r.method() !== "POST") return;
    const body = r.postDataJSON?.();
    if (/\/actions$/.test(url)) seen.sent.push(body?.action ?? body);
    if (/\/odds$/.test(url)) seen.asked.push(body?.action ?? body);
  });
  page.on("pageerror", (e) => seen.errors.push(e.message));
  if (process.env.CLICKS_DEBUG) page.on("request", (r) => r.url().includes("/api/") && !r.url().includes("/reach") && console.log("REQ", r.method(), r.url().replace(/.*\/api/, ""), r.postData() ?? ""));
  return seen;
}

/**
 * A tap on a phone, a click on a desktop.
 * @param {Page} page
 * @param {boolean} touch
 * @param {number} x
 * @param {number} y
 */
async function press(page, touch, x, y) {
  if (touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

/**
 * Drags across the map (the pointer held down and moved, as a finger or a mouse pans it).
 * @param {Page} page
 * @param {{x: number, y: number}} from
 * @param {{x: number, y: number}} to
 */
async function drag(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

/**
 * Drags the map until the hex is in the open part of it (not under the confirm or answer box),
 * as a person pans to what they want to touch; then gives its middle on screen.
 * @param {Page} page
 * @param {string} hex
 */
async function reveal(page, hex) {
  /** @type {unknown} */
  let last = null;
  for (let i = 0; i < 8; i++) {
    const where = await page.evaluate((label) => {
      const cell = document.querySelector(`svg.map polygon.hex[data-hex="${label}"]`);
      const host = document.querySelector(".maphost");
      if (!cell || !host) return null;
      const c = cell.getBoundingClientRect();
      const m = host.getBoundingClientRect();
      const x = c.x + c.width / 2;
      const y = c.y + c.height / 2;
      const top = document.elementFromPoint(x, y);
      const open = x > m.left + 4 && x < m.right - 4 && y > m.top + 4 && y < m.bottom - 4 && !!top && !!top.closest("svg.map");
      // Where a finger can take hold of the map itself (not a box lying over it).
      const holds = [0, 0.2, -0.2, 0.35, -0.35].map((f) => ({ x: m.x + m.width / 2, y: m.y + m.height * (0.5 + f) }));
      const hold = holds.find((p) => document.elementFromPoint(p.x, p.y)?.closest("svg.map")) ?? holds[0];
      return { x, y, open, mx: hold.x, my: hold.y, w: m.width, h: m.height, top: m.top, bottom: m.bottom, over: top ? `${top.tagName}.${top.getAttribute("class")}` : "nothing" };
    }, hex);
    if (!where) throw new Error(`hex ${hex} is not on the map`);
    last = where;
    if (where.open) return { x: where.x, y: where.y };
    // Drag the hex towards the open middle of the map, a part of the way at a time, from a
    // point where the finger holds the map and to one still on it.
    const dx = Math.max(-where.w / 3, Math.min(where.w / 3, where.mx - where.x));
    const dy = Math.max(-(where.bottom - where.my - 4), Math.min(where.bottom - where.my - 4, where.my - where.y, where.h / 3));
    const from = { x: where.mx, y: where.my };
    const before = await page.evaluate(() => document.querySelector("svg.map")?.getAttribute("viewBox"));
    await drag(page, from, { x: from.x + dx, y: from.y + dy });
    if (process.env.CLICKS_DEBUG) console.log("drag", hex, JSON.stringify(where), from, dx, dy, before, await page.evaluate(() => document.querySelector("svg.map")?.getAttribute("viewBox")));
  }
  throw new Error(`could not bring hex ${hex} into the open part of the map (${JSON.stringify(last)})`);
}

/**
 * Taps a hex of the map.
 * @param {Page} page
 * @param {boolean} touch
 * @param {string} hex
 */
async function tapHex(page, touch, hex) {
  const at = await reveal(page, hex);
  await press(page, touch, at.x, at.y);
}

/**
 * The hex a unit's counter stands on, as the map draws it.
 * @param {Page} page
 * @param {string} unit
 */
async function hexOfUnit(page, unit) {
  return page.locator(`svg.map .counter[data-unit="${unit}"]`).first().getAttribute("data-hex", { timeout: 2000 }).catch(() => null);
}

/**
 * Selects a unit by tapping its counter (again, where several share a hex, until it is the one).
 * @param {Page} page
 * @param {boolean} touch
 * @param {string} unit
 */
async function selectUnit(page, touch, unit) {
  const panel = page.locator(".unitpanel");
  if ((await panel.getAttribute("data-unit")) === unit) return true;
  const hex = await hexOfUnit(page, unit);
  if (!hex) return false;
  for (let i = 0; i < 6; i++) {
    await tapHex(page, touch, hex);
    // With a command unit selected, a tap on a friend offers the order marked there, and the
    // friend is selected from the confirm box instead.
    const instead = page.locator(`.confirm .selectinstead[data-unit="${unit}"]`);
    if (await instead.isVisible({ timeout: 300 }).catch(() => false)) {
      if (touch) await instead.tap();
      else await instead.click();
    }
    try {
      await expect(panel).toHaveAttribute("data-unit", unit, { timeout: 1500 });
      return true;
    } catch {
      // Another unit in the hex: the next tap cycles to the next.
    }
  }
  return false;
}

/**
 * Puts the selected unit down, as a person does: Esc, or a tap on it again.
 * @param {Page} page
 * @param {boolean} touch
 */
async function deselect(page, touch) {
  const panel = page.locator(".unitpanel");
  for (let i = 0; i < 4; i++) {
    const unit = await panel.getAttribute("data-unit");
    if (!unit) return;
    if (!touch) await page.keyboard.press("Escape");
    else {
      const cancel = page.locator(".confirm:not([hidden]) button", { hasText: /^Cancel$/ });
      if (await cancel.isVisible().catch(() => false)) await cancel.tap();
      else {
        // A tap on open ground nothing is marked on puts the unit down.
        const open = await page.evaluate(() => {
          const taken = new Set([...document.querySelectorAll("svg.map .counter, svg.map [data-mark]")].map((e) => e.getAttribute("data-hex") ?? e.getAttribute("data-mark")));
          const host = document.querySelector(".maphost")?.getBoundingClientRect();
          for (const cell of document.querySelectorAll("svg.map polygon.hex")) {
            const label = cell.getAttribute("data-hex");
            const r = cell.getBoundingClientRect();
            const x = r.x + r.width / 2;
            const y = r.y + r.height / 2;
            if (!label || taken.has(label) || !host || x < host.left || x > host.right || y < host.top || y > host.bottom) continue;
            if (document.elementFromPoint(x, y)?.closest("svg.map")) return label;
          }
          return null;
        });
        if (open) await tapHex(page, touch, open);
      }
    }
  }
  await expect(panel).not.toHaveAttribute("data-unit", /./);
}

/**
 * Where a choice is given on the page once its unit is selected: its mark on the map, or a
 * button. Null when it cannot be reached.
 * @param {Page} page
 * @param {Choice} c
 */
async function route(page, c) {
  const hex = c.target?.hex;
  // A move onto a friend's hex is its own button on the unit's card (a tap there selects the friend).
  const stack = page.locator(`.unitpanel .stacks [data-action="${c.action}"]`);
  if (hex && (await stack.count())) return { stack };
  if (hex) {
    const mark = page.locator(`svg.map [data-mark="${hex}"]`);
    try {
      await expect(mark.first()).toBeAttached({ timeout: 3000 });
      return { hex };
    } catch {
      return null;
    }
  }
  const button = page.locator(`.unitpanel [data-action="${c.action}"], .decision [data-action="${c.action}"], .phasebar [data-action="${c.action}"]`).first();
  try {
    await expect(button).toBeVisible({ timeout: 3000 });
    return { button };
  } catch {
    return null;
  }
}

/**
 * Waits for the confirm box to offer the choice and, where dice decide it, to show its odds;
 * then confirms it there.
 * @param {Page} page
 * @param {boolean} touch
 * @param {Choice} c
 */
async function confirm(page, touch, c) {
  const box = page.locator(".confirm");
  const said = async () => `${await page.locator(".message").textContent().catch(() => "")} / selected ${await page.locator(".unitpanel").getAttribute("data-unit")}`;
  await expect(box, `the confirm box opens for "${c.label}"`).toBeVisible({ timeout: 5000 }).catch(async (e) => {
    throw new Error(`${e.message}\nthe page says: ${await said()}`);
  });
  const button = box.locator(`.confirmbtn[data-action="${c.action}"]`);
  await expect(button).toBeEnabled({ timeout: 60_000 });
  if (c.dice) {
    await expect(box.locator(".odds, .notes").first(), `the odds of "${c.label}" are shown before it is committed`).toBeVisible({ timeout: 60_000 });
  }
  if (touch) await button.tap();
  else await button.click();
}

/**
 * Gives one choice through the page: select its unit, then its mark on the map or its button,
 * then the confirm box where one opens.
 * @param {Page} page
 * @param {boolean} touch
 * @param {Choice} c
 */
async function give(page, touch, c) {
  if (c.unit && !(await selectUnit(page, touch, c.unit))) throw new Error(`cannot select the unit of "${c.label}" on the map`);
  if (!c.unit) await deselect(page, touch);
  const way = await route(page, c);
  if (!way) throw new Error(`"${c.label}" (${c.verb}) cannot be reached from the map or the unit's card`);
  if (way.stack) {
    if (touch) await way.stack.tap();
    else await way.stack.click();
    await confirm(page, touch, c);
  } else if (way.hex) {
    await tapHex(page, touch, way.hex);
    await confirm(page, touch, c);
  } else if (way.button) {
    if (touch) await way.button.tap();
    else await way.button.click();
    if (c.dice) await confirm(page, touch, c);
  }
}

/**
 * Ends the phase as a person does: the E key on a desktop, the end button on a phone, and a
 * yes when the page asks because units could still act.
 * @param {Page} page
 * @param {boolean} touch
 */
async function endThePhase(page, touch) {
  if (touch) await page.locator(".phasebar .endphase").tap();
  else await page.keyboard.press("e");
  const caution = page.locator(".confirm .caution");
  if (await caution.isVisible({ timeout: 1500 }).catch(() => false)) {
    const yes = page.locator(".confirm .confirmbtn").first();
    if (touch) await yes.tap();
    else await page.keyboard.press("Enter");
  }
}

/**
 * The page's position: whose decision, the turn, over or not, a hotseat curtain up.
 * @param {Page} page
 */
async function state(page) {
  return page.evaluate(() => ({
    shown: document.querySelector("[data-shown]")?.getAttribute("data-shown") ?? "",
    curtain: !!document.querySelector(".curtain:not([hidden]) .takeover"),
    mine: !!document.querySelector(".phasebar .decide.mine"),
    over: !!document.querySelector(".phasebar .outcome"),
    turn: Number(/Turn (\d+)/.exec(document.querySelector(".phasebar .turnno")?.textContent ?? "")?.[1] ?? 0),
    end: !!document.querySelector(".phasebar .endphase"),
  }));
}

/**
 * Plays the battle by the page until both sides have had two full turns or it ends.
 * @param {Page} page
 * @param {string} scenario
 * @param {boolean} touch
 */
async function play(page, scenario, touch) {
  const seen = listen(page);
  await page.goto("/");
  const card = page.locator(`[data-scenario="${scenario}"]`);
  if (touch) await card.tap();
  else await card.click();
  await page.locator('input[name="mode"][value="hotseat"]').check();
  const start = page.getByRole("button", { name: "Start game" });
  await expect(start, "the battle's Start is on screen once it is chosen").toBeInViewport();
  if (touch) await start.tap();
  else await start.click();
  await expect(page).toHaveURL(/#\/game\//);
  /** Kinds of action (verbs) offered, and those found reachable from the map. */
  const offered = new Set();
  const reachable = new Set();
  let actionsThisPhase = 0;
  let lastPhase = "";
  let decisions = 0;
  /** Kinds played, and the dice actions played. */
  const played = new Set();
  /** @type {string[]} */
  const diced = [];
  let shown = "";
  for (; decisions < MAX_DECISIONS; decisions++) {
    const before = seen.legalCount;
    // The page has drawn the position its legal list is for (not only received the list).
    await expect.poll(async () => {
      const s = await state(page);
      return s.curtain || s.over || (s.mine && seen.legal !== null && s.shown !== shown);
    }, { timeout: 60_000 }).toBe(true);
    shown = (await state(page)).shown;
    const s = await state(page);
    if (s.over) break;
    if (s.turn > TURNS) break;
    if (s.curtain) {
      const take = page.locator(".curtain .takeover");
      if (touch) await take.tap();
      else await take.click();
      await expect.poll(() => seen.legalCount, { timeout: 30_000 }).toBeGreaterThan(before);
      continue;
    }
    // The page has the legal list of this position once its end button (or answers) are drawn.
    await page.waitForTimeout(50);
    const legal = /** @type {Choice[]} */ (seen.legal ?? []);
    const phase = (await page.locator(".phasebar .phase").textContent()) ?? "";
    if (phase !== lastPhase) {
      lastPhase = phase;
      actionsThisPhase = 0;
    }
    const doable = legal.filter((c) => c.kind !== "end");
    for (const c of doable) offered.add(c.verb);
    // Every kind of action offered here and not yet found reachable: is it?
    for (const verb of new Set(doable.map((c) => c.verb))) {
      if (reachable.has(verb)) continue;
      const c = doable.find((x) => x.verb === verb && (!x.unit || x.unit));
      if (!c) continue;
      if (c.unit && !(await selectUnit(page, touch, c.unit))) throw new Error(`${scenario}: the unit of "${c.label}" cannot be selected on the map`);
      if (!c.unit) await deselect(page, touch);
      const way = await route(page, c);
      expect(way, `${scenario}: "${c.label}" (${verb}) can be reached from the map, the unit's card or the answer box`).not.toBeNull();
      reachable.add(verb);
    }
    const end = legal.find((c) => c.kind === "end");
    const acting = doable.length && (actionsThisPhase < ACTIONS_A_PHASE || !end);
    if (acting) {
      // Kinds not yet played first, then whatever comes first: a person trying every order.
      const pick = doable.find((c) => !played.has(c.verb)) ?? doable[decisions % doable.length];
      if (!touch) await page.keyboard.press("Escape");
      await give(page, touch, pick);
      played.add(pick.verb);
      if (pick.dice) diced.push(pick.action);
      actionsThisPhase += 1;
    } else if (end) {
      await endThePhase(page, touch);
      actionsThisPhase = 0;
    } else {
      throw new Error(`${scenario}: nothing to do and no way to end the phase`);
    }
    // The page takes the answer and asks for the next legal list (or puts up the curtain).
    await expect.poll(async () => {
      const st = await state(page);
      return seen.legalCount > before || st.curtain || st.over;
    }, { timeout: 60_000 }).toBe(true);
  }
  const final = await state(page);
  expect(final.over || final.turn > TURNS, `${scenario}: two full turns a side were played (turn ${final.turn}, ${decisions} decisions)`).toBe(true);
  // Every dice action was sent only after its odds were asked for (and the confirm waited for them).
  for (const a of diced) expect(seen.asked, `${scenario}: the odds of ${a} were worked out before it was played`).toContain(a);
  for (const verb of offered) expect(reachable, `${scenario}: "${verb}" can be reached from the map`).toContain(verb);
  expect(seen.errors).toEqual([]);
}

for (const scenario of SCENARIOS) {
  test(`clicks only, on a desktop: ${scenario}`, async ({ page }) => {
    test.setTimeout(600_000);
    await play(page, scenario, false);
  });
}

// A tap or click that cannot land (something lies over it) fails at once, not at the end of the test.
test.use({ actionTimeout: 20_000 });

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  // A tap on the phone map now and then opens a confirm box that is gone before it can be
  // tapped (the open defect of the six battles below, seen on others at random): tried again
  // twice, and reported as flaky when a retry passes.
  test.describe.configure({ retries: 2 });
  for (const scenario of SCENARIOS) {
    // Open: on these eight, a tap on a marked hex of the zoomed-in phone map sometimes leaves the
    // confirm box it opened hidden again before it can be tapped, or cannot pan a far hex into
    // the open part of the map.
    test(`taps only, on a phone: ${scenario}`, async ({ page }) => {
      test.fixme(PHONE_OPEN.includes(scenario), "the confirm box opened by a tap is cleared again on this battle's phone map");
      test.setTimeout(600_000);
      await play(page, scenario, true);
    });
  }
});
