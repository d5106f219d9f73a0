// Usage: node viewer.mjs FILE.html SCREENSHOT.png
// Opens the HTML viewer offline, visits every step with the slider, tries
// the arrow keys and play/pause, and takes a screenshot.
import { pathToFileURL } from "node:url";
import { session, check } from "./browser.mjs";

const [file, shot] = process.argv.slice(2);
const url = pathToFileURL(file).href;
await session((u) => u === url, async (page) => {
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.step === "0", null, { timeout: 20000 });
  const count = await page.evaluate(() => window.viewer.count);
  check(count > 1, `the viewer holds ${count} steps`);
  const steps = [];
  for (let i = 0; i < count; i++) {
    await page.locator("#slider").fill(String(i));
    const got = await page.evaluate(() => ({
      step: document.body.dataset.step,
      cards: document.querySelectorAll("#board svg use").length,
      move: document.getElementById("move").textContent,
    }));
    if (got.step !== String(i) || got.cards === 0) throw new Error(`step ${i}: shows step ${got.step} with ${got.cards} cards`);
    steps.push(got.move);
  }
  check(steps.length === count, `the slider visited all ${count} steps, each with a table`);
  check(steps[count - 1].includes("the end"), "the last step is the end");
  await page.locator("#slider").fill("0");
  await page.keyboard.press("ArrowRight");
  check(await page.evaluate(() => document.body.dataset.step) === "1", "ArrowRight goes to step 1");
  await page.keyboard.press("ArrowLeft");
  check(await page.evaluate(() => document.body.dataset.step) === "0", "ArrowLeft goes back to step 0");
  await page.click("#play");
  await page.waitForFunction(() => Number(document.body.dataset.step) >= 2, null, { timeout: 10000 });
  await page.click("#play");
  const paused = await page.evaluate(() => document.body.dataset.step);
  await page.waitForTimeout(1300);
  check(await page.evaluate(() => document.body.dataset.step) === paused, `play advances and pause stops (at step ${paused})`);
  await page.locator("#slider").fill(String(Math.min(count - 1, 12)));
  await page.screenshot({ path: shot, fullPage: true });
  check(true, "screenshot " + shot);
});
