// Shared steps for the browser tests: reading the seat from the page's address, asking the
// server what is legal, and clicking hexes and counters on the SVG map.
import { expect } from "@playwright/test";

/** @typedef {import("@playwright/test").Page} Page */

/**
 * The game id and seat token in the page's address (`#/game/ID?token=TOKEN`).
 * @param {Page} page
 */
export function seatOf(page) {
  const m = new URL(page.url()).hash.match(/^#\/game\/([^?]+)\?token=([^&]+)/);
  if (!m) throw new Error(`not a game address: ${page.url()}`);
  return { id: decodeURIComponent(m[1]), token: decodeURIComponent(m[2]) };
}

/**
 * A GET (or, with a body, POST) on the API with the page's seat token.
 * @param {Page} page
 * @param {string} path  after /api/games/ID/
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(page, path, body) {
  const { id, token } = seatOf(page);
  const url = `/api/games/${id}/${path}`;
  const headers = { Authorization: `Bearer ${token}` };
  const res = body === undefined ? await page.request.get(url, { headers }) : await page.request.post(url, { headers, data: body });
  expect(res.ok(), `${url}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return res.json();
}

/**
 * Waits until it is this seat's decision (the bot has moved), returning the seat's view.
 * @param {Page} page
 */
export async function waitMyTurn(page) {
  /** @type {any} */
  let sv = null;
  await expect
    .poll(async () => {
      sv = await api(page, "view");
      return sv.view.outcome !== null || sv.view.to_decide === sv.seat;
    }, { timeout: 60_000, intervals: [200, 500, 1000] })
    .toBe(true);
  return sv;
}

/**
 * Clicks the middle of a hex (counters on it included: the map finds the hex by position).
 * @param {Page} page
 * @param {string} label
 */
export async function clickHex(page, label) {
  const box = await page.locator(`svg.map polygon.hex[data-hex="${label}"]`).boundingBox();
  if (!box) throw new Error(`hex ${label} is not on screen`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * Starts a game from the lobby.
 * @param {import("@playwright/test").Page} page
 * @param {string} scenario
 * @param {"solo" | "hotseat"} mode
 * @param {Record<string, string>} [solo]  side and level for a solo game
 */
export async function startGame(page, scenario, mode, solo = {}) {
  await page.goto("/");
  await page.locator(`[data-scenario="${scenario}"]`).click();
  await page.locator(`input[name="mode"][value="${mode}"]`).check();
  for (const [name, value] of Object.entries(solo)) {
    await page.locator(`select[name="${name}"]`).selectOption(value);
  }
  await page.getByRole("button", { name: "Start game" }).click();
  await expect(page).toHaveURL(/#\/game\//);
}

/**
 * In a hotseat game: the token of the seat to decide, and a GET on the API with any token.
 * @param {Page} page
 */
export async function hotseatDecider(page) {
  const seats = new URL(page.url()).hash.match(/^#\/game\/([^?]+)\?red=([^&]+)&blue=([^&]+)/);
  if (!seats) throw new Error(`not a hotseat address: ${page.url()}`);
  const [, id, red, blue] = seats;
  const get = async (/** @type {string} */ path, /** @type {string} */ token) =>
    (await page.request.get(`/api/games/${id}/${path}`, { headers: { Authorization: `Bearer ${token}` } })).json();
  const side = (await get("view", red)).view.to_decide;
  return { get, token: side === "red" ? red : blue };
}

/**
 * Ends this seat's phase with the page's button, or, where the decision put to the seat cannot
 * be ended (a retreat or an advance after combat to choose), takes its first answer through the
 * API: a test that only wants the turn to move on must not wait for a button that is not there.
 * @param {Page} page
 */
export async function endPhase(page) {
  /** @type {string[]} */
  const actions = (await api(page, "legal")).actions;
  if (actions.includes("end")) await clickEnd(page);
  else if (actions.length) await api(page, "actions", { action: actions[0] });
}

/**
 * Clicks the button that ends the phase and, when the page asks because units can still act,
 * says yes.
 * @param {Page} page
 */
export async function clickEnd(page) {
  await page.locator("button.endphase").click();
  const caution = page.locator(".confirm .caution");
  if (await caution.isVisible({ timeout: 1000 }).catch(() => false)) await page.locator(".confirm .confirmbtn").first().click();
}
