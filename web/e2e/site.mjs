// Usage: node site.mjs BASE_URL SCREENSHOT.png
// Opens the built documentation site (served at BASE_URL) offline: the front
// page with the six games' pictures, the Cromwell rules page and the
// pictures page, checks that every picture loaded with a width, and takes a
// screenshot of the front page.
import { session, check } from "./browser.mjs";

const [base, shot] = process.argv.slice(2);
const root = base.endsWith("/") ? base : base + "/";
await session((u) => u.startsWith(root), async (page) => {
  // pictures returns every <img> of the page's article with whether it loaded.
  async function pictures() {
    await page.waitForLoadState("load");
    return page.evaluate(() =>
      [...document.querySelectorAll("article img")].map((img) => ({
        src: img.getAttribute("src"),
        loaded: img.complete && img.naturalWidth > 0,
        width: img.naturalWidth,
      })),
    );
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(root);
  check((await page.title()).includes("patience"), "the front page's title names patience");
  check(await page.locator("nav.md-nav").first().isVisible(), "the front page shows the navigation");
  let imgs = await pictures();
  check(imgs.length >= 6, `the front page shows ${imgs.length} pictures (the six games at least)`);
  for (const img of imgs) check(img.loaded, `front page: ${img.src} loaded (${img.width} px wide)`);
  const tables = await page.locator("article table").count();
  check(tables >= 3, `the front page shows its tables (${tables})`);
  await page.screenshot({ path: shot });
  check(true, "screenshot " + shot);

  await page.goto(root + "rules/cromwell/");
  check((await page.locator("article h1").textContent()).trim().startsWith("Cromwell"), "the Cromwell rules page has its title");
  const headings = await page.locator("article h2").allTextContents();
  for (const h of ["The deal", "Moves", "End of the game", "Playing it here"]) {
    check(headings.some((t) => t.includes(h)), `the Cromwell rules page has the section "${h}"`);
  }
  imgs = await pictures();
  for (const img of imgs) check(img.loaded, `rules page: ${img.src} loaded`);

  await page.goto(root + "pictures/");
  imgs = await pictures();
  check(imgs.length >= 8, `the pictures page shows ${imgs.length} pictures`);
  for (const img of imgs) check(img.loaded, `pictures page: ${img.src} loaded (${img.width} px wide)`);

  await page.goto(root + "reference/python/");
  const api = await page.locator("article .doc-heading").count();
  check(api > 20, `the Python API reference lists ${api} documented names`);

});
