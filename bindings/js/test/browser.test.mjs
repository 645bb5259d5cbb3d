// The demo page in a real Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
// a success with character-level highlights and the hunk report, an ambiguity with its
// candidates, and a CRLF file whose terminators survive. Saves a screenshot to
// test-output/demo.png. Set V4A_SKIP_BROWSER=1 to skip (test.sh installs Chromium).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "./support/server.mjs";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const skip = process.env.V4A_SKIP_BROWSER === "1";

let server;
let browser;
let page;
const errors = [];

before(async () => {
  if (skip) return;
  assert.ok(existsSync(executablePath), `no Chromium at ${executablePath} (bindings/js/test.sh installs it)`);
  server = await serve(root);
  browser = await chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${server.url}/demo/index.html`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20000 });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function applyIn(source, patch, { file } = {}) {
  if (file) {
    await page.setInputFiles("#file", { name: file, mimeType: "text/plain", buffer: Buffer.from(source, "utf8") });
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Loaded"));
  } else {
    await page.setInputFiles("#file", []);
    await page.fill("#source", source);
  }
  await page.fill("#patch", patch);
  await page.click("#apply");
}

test("a patch applies: diff view with character highlights and the hunk report", { skip }, async () => {
  await applyIn(
    "function greet(name) {\n  return 'Hello, ' + name;\n}\n\nfunction main() {\n  greet('world');\n}\n",
    "*** Begin Patch\n*** Update File: greet.js\n@@ function greet(name) {\n-  return 'Hello, ' + name;\n+  return 'Hello, ' + name + '!';\n }\n*** End Patch\n",
  );
  assert.equal(await page.isHidden("#error"), true);
  assert.match(await page.textContent("#status"), /Applied 1 hunk \(fuzz 0\)/);
  assert.deepEqual(await page.$$eval("#diff tr.add span.seg-add", (s) => s.map((x) => x.textContent)), [" + '!'"]);
  assert.equal(await page.$$eval("#diff tr.delete", (r) => r.length), 1);
  assert.deepEqual(
    await page.$$eval("#hunks tbody tr td", (c) => c.map((x) => x.textContent)),
    ["1", "3", "2–3", "2–3", "exact", "0", "—"],
  );
  mkdirSync(new URL("../test-output/", import.meta.url), { recursive: true });
  await page.screenshot({ path: fileURLToPath(new URL("../test-output/demo.png", import.meta.url)), fullPage: true });
  assert.deepEqual(errors, []);
});

test("an ambiguous patch shows the error with every candidate, and no result", { skip }, async () => {
  await applyIn("x = 1\nprint(x)\nx = 1\nprint(x)\n", "@@\n-x = 1\n+x = 2\n");
  assert.equal(await page.isHidden("#result"), true);
  assert.equal(await page.textContent("#error-code"), "AMBIGUOUS");
  assert.equal(await page.textContent("#error-category"), "ambiguous match");
  assert.match(await page.textContent("#error-message"), /matches 2 places/);
  const details = await page.$$eval("#error-details dt, #error-details dd", (n) => n.map((x) => x.textContent));
  assert.deepEqual(details.slice(0, 4), ["patch line", "1", "candidates (file lines)", "1, 3"]);
  assert.ok(details.includes("suggestion"));
  assert.match(await page.textContent("#status"), /not applied/);
  await page.screenshot({ path: fileURLToPath(new URL("../test-output/demo-ambiguous.png", import.meta.url)), fullPage: true });
});

test("a loaded CRLF file keeps its CRLF terminators and its BOM", { skip }, async () => {
  await applyIn("\ufeffone\r\ntwo\r\nthree\r\n", "@@\n one\n-two\n+2\n three\n", { file: "crlf.txt" });
  assert.equal(await page.isHidden("#error"), true);
  assert.equal(await page.textContent("#result-summary"), "(line endings CRLF, BOM)");
  assert.equal(await page.evaluate(() => window.v4aLastText), "\ufeffone\r\n2\r\nthree\r\n");
  assert.deepEqual(await page.$$eval("#diff tr.add td.text", (c) => c.map((x) => x.textContent)), ["2"]);
  // Pasted text with the CRLF option is converted before the engine sees it.
  await page.setInputFiles("#file", []);
  await page.selectOption("#eol", "crlf");
  await applyIn("a\nb\n", "@@\n-b\n+c\n");
  assert.equal(await page.evaluate(() => window.v4aLastText), "a\r\nc\r\n");
  await page.selectOption("#eol", "lf");
  assert.deepEqual(errors, []);
});
