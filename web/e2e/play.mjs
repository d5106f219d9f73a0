// Usage: node play.mjs URL SCREENSHOT.png
// Plays the hand-built Cromwell ending of web/webtest by clicks: a short
// winning line, with illegal clicks on the way that the server refuses.
import { session, check } from "./browser.mjs";

const [url, shot] = process.argv.slice(2);
const origin = new URL(url).origin;
await session((u) => u.startsWith(origin + "/"), async (page) => {
  const card = (place, pos) => `#board g.pl[data-place="${place}"][data-pos="${pos}"]`;
  // Click a card near its top left corner: the index stays visible there
  // when later cards of its fan cover the rest.
  const click = (place, pos) => page.click(card(place, pos), { position: { x: 8, y: 6 } });
  const body = (key) => page.evaluate((k) => document.body.dataset[k], key);
  const lit = (place, pos) => page.evaluate((s) => document.querySelector(s).classList.contains("target"), card(place, pos));
  const version = async (v) => page.waitForFunction((w) => document.body.dataset.version === w, String(v), { timeout: 10000 });
  const refusedCount = async (n) => page.waitForFunction((w) => document.body.dataset.refused === w, String(n), { timeout: 10000 });
  const message = () => page.evaluate(() => document.getElementById("message").textContent);

  await page.goto(url);
  await version(0);
  check((await page.locator("#board g.pl").count()) > 0, "the table is drawn with clickable cards");

  await click("1", 0);
  check(await lit("F", 7), "J♠ of fan 1 selected: the spade foundation lights up");
  check(await lit("2", 1), "… and fan 2 (J♠ onto Q♠)");
  check(!(await lit("3", 0)), "… but not fan 3");
  await click("F", 7);
  await version(1);
  check(await body("outcome") === "running", "J♠ went home");

  await click("2", 1);
  check(await lit("F", 7) && await lit("3", 0), "Q♠ selected: the foundation and fan 3 light up");
  await click("1", -1);
  await refusedCount(1);
  check((await message()).includes("never refilled"), "a click on the emptied fan 1 is refused: " + await message());
  check(await body("version") === "1", "… and the game is unchanged");

  await click("3", 0);
  check(await lit("2", 1), "K♠ clicked first: Q♠, the card that can go onto it, lights up");
  await click("F", 0);
  await refusedCount(2);
  check((await message()).length > 0 && await body("version") === "1", "a click from the clubs foundation onto fan 3 is refused: " + await message());

  await click("2", 1);
  await click("F", 7);
  await version(2);
  await click("2", 0);
  check(await lit("F", 5), "K♥ selected: its foundation lights up");
  await click("F", 5);
  await version(3);
  await click("3", 0);
  await click("F", 7);
  await version(4);
  check(await body("outcome") === "won", "the four moves win the game");
  const end = await page.evaluate(() => document.getElementById("end").textContent);
  check(end === "You won in 4 moves!", "the end is announced: " + end);
  await page.screenshot({ path: shot, fullPage: true });
  check(true, "screenshot " + shot);

  await page.click("#undo");
  await version(5);
  check(await body("outcome") === "running", "Undo takes the last move back");
  await page.click("#restart");
  await version(6);
  check((await page.evaluate(() => document.getElementById("status").textContent)).includes("step 0"), "Restart goes back to the start");
  await page.click('#moves button.move[data-id="0"]');
  await version(7);
  check(true, "a move played from the list of legal moves");
});
