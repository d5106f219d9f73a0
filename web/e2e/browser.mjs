// Launches Debian's Chromium headless through playwright-core, offline:
// every request that is not for the page under test is refused and
// reported.
import { chromium } from "playwright-core";

export const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";

export async function open(allowed) {
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1100, height: 640 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (allowed(url)) return route.continue();
    problems.push("network request refused: " + url);
    return route.abort();
  });
  page.on("pageerror", (err) => problems.push("page error: " + err.message));
  page.on("console", (msg) => {
    if (msg.type() === "error" && !/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) {
      problems.push("console error: " + msg.text());
    }
  });
  return { browser, page, problems };
}

export function check(cond, what) {
  if (!cond) throw new Error("FAILED: " + what);
  console.log("ok   " + what);
}

// session opens the browser with open(allowed), runs body with its page,
// checks that no request was refused and nothing went wrong on the page,
// closes the browser and ends the process: exit code 0 when every check
// passed, 1 at the first that failed (its message on standard error).
export async function session(allowed, body) {
  const { browser, page, problems } = await open(allowed);
  let code = 0;
  try {
    await body(page);
    check(problems.length === 0, "no network request outside the page under test and no error: " + problems.join("; "));
  } catch (err) {
    console.error(err.message);
    code = 1;
  } finally {
    await browser.close();
  }
  process.exit(code);
}
