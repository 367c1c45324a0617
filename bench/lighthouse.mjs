// Lighthouse on the match page, seated (not part of the test suite): opens a match against the
// computer on a running server, puts its seat in the browser's storage, and prints
// `lighthouse_<form>_<figure> value` lines for the mobile (default) and desktop configurations.
//
//   npm install --prefix /tmp/lh lighthouse@12       # once, outside the project
//   LIGHTHOUSE_DIR=/tmp/lh CHROME_PATH=/usr/bin/chromium node bench/lighthouse.mjs http://127.0.0.1:8000 [nations [players]]
// (players: a Nations table of 2-5 seats, every other seat the computer; contract v1.2)
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.env.LIGHTHOUSE_DIR || process.cwd();
const need = createRequire(join(dir, "package.json"));
const load = async (name) => (await import(pathToFileURL(need.resolve(name)).href)).default;
const lighthouse = await load("lighthouse/core/index.js");
const desktopConfig = await load("lighthouse/core/config/desktop-config.js");
const { launch } = await import(pathToFileURL(need.resolve("chrome-launcher")).href);
const puppeteer = await load("puppeteer-core");

const base = process.argv[2] || "http://127.0.0.1:8000";
const game = process.argv[3] || "watergate";  // each game's table has its own page
const players = Number(process.argv[4] || 2);
const [role, page_] = game === "nations" ? ["p1", "/nations/match"] : ["editor", "/match"];
const made = await (await fetch(`${base}/api/matches`, {
  method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ game, role, opponent: "bot", ...(players !== 2 ? { players } : {}) }),
})).json();
const chrome = await launch({ chromePath: process.env.CHROME_PATH || "/usr/bin/chromium", chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
try {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  await page.evaluate((m) => localStorage.setItem(`wg.seat.${m.match_id}`, JSON.stringify({ role: m.role, token: m.seat_token })), made);
  await page.close();
  const flags = { port: chrome.port, output: "json", disableStorageReset: true, onlyCategories: ["performance", "accessibility"] };
  for (const [form, config] of [["mobile", undefined], ["desktop", desktopConfig]]) {
    const { lhr } = await lighthouse(`${base}${page_}/${made.match_id}`, flags, config);
    if (lhr.runtimeError) { console.error(form, lhr.runtimeError.message); continue; }
    console.log(`lighthouse_${form}_performance ${Math.round(lhr.categories.performance.score * 100)}`);
    console.log(`lighthouse_${form}_accessibility ${Math.round(lhr.categories.accessibility.score * 100)}`);
    console.log(`lighthouse_${form}_cls ${lhr.audits["cumulative-layout-shift"].numericValue.toFixed(3)}`);
    console.log(`lighthouse_${form}_tbt_ms ${Math.round(lhr.audits["total-blocking-time"].numericValue)}`);
    console.log(`lighthouse_${form}_fcp_ms ${Math.round(lhr.audits["first-contentful-paint"].numericValue)}`);
    console.log(`lighthouse_${form}_lcp_ms ${Math.round(lhr.audits["largest-contentful-paint"].numericValue)}`);
  }
  await browser.disconnect();
} finally {
  await chrome.kill();
}
