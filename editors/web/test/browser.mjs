// The page served from dist/ on localhost and opened in Debian's headless
// Chromium through playwright-core: what the end-to-end test and the
// benchmark share.
import { chromium } from "playwright-core";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../scripts/serve.mjs";

export const web = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Serves dist/, starts Chromium, opens the page and waits until it is ready. */
export async function openPage({ viewport = { width: 1500, height: 950 } } = {}) {
  const server = await serve(join(web, "dist"));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
  });
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  const page = await context.newPage();
  const close = async () => {
    await browser.close();
    server.close();
  };
  return { origin, browser, context, page, close };
}

/** The page is ready: its engine answered and a document is open. */
export async function ready(page) {
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
}
