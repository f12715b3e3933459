// The lobby as a new player meets it (issue 14, defect 9): options in plain words, only the
// choices a mode has, and no second game from one click too many.
import { expect, test } from "@playwright/test";

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
