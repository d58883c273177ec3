// Helpers shared by the viewer's browser tests: arguments, headless Chromium, polling, pixels, screenshots.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));

// --name value pairs and bare --flags; repeated names keep the last value.
export function parseArgs(argv, defaults = {}) {
  const args = { ...defaults };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const name = a.slice(2).replace(/-([a-z])/g, (m, c) => c.toUpperCase());
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) args[name] = true;
    else {
      args[name] = next;
      ++i;
    }
  }
  return args;
}

// The npm packages live in the build tree (viewer/CMakeLists.txt runs npm ci there), not beside the tests.
export function requireFrom(nodeModules) {
  const dir = path.resolve(nodeModules || path.join(here, '..', '..', 'viewer', 'node_modules'));
  if (!fs.existsSync(path.join(dir, 'puppeteer-core'))) {
    throw new Error(`no puppeteer-core in ${dir}: pass --node-modules (the build tree's viewer/node_modules)`);
  }
  return createRequire(path.join(dir, 'noop.js'));
}

// The flags that give headless Chromium 156 a WebGL 2 context with no GPU: ANGLE on SwiftShader (software
// Vulkan). Without --enable-unsafe-swiftshader Chromium still falls back to it but logs a deprecation
// warning into the page's console, which the tests count as a fault. No --disable-gpu: with it the
// compositor is software and reads every WebGL frame back, and ANGLE logs "GPU stall due to ReadPixels"
// warnings into the console; without it the GPU process composites on SwiftShader too, quietly.
export const CHROMIUM_FLAGS = [
  '--headless=new', '--no-sandbox', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  // A page in the background keeps its timers and animation frames: the tests poll it.
  '--disable-background-timer-throttling', '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

export async function launchBrowser(require, { executablePath = '/usr/bin/chromium' } = {}) {
  const puppeteer = require('puppeteer-core');
  if (!fs.existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath} (Debian: apt-get install chromium)`);
  }
  // A fresh profile each run: nothing from an earlier run (caches, crash state) changes this one.
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pivot-viewer-chromium-'));
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    userDataDir,
    args: CHROMIUM_FLAGS,
    defaultViewport: { width: 1280, height: 900 },
    // Generous: a loaded two-core machine can take long to start Chromium and to answer the protocol.
    timeout: 90000,
    protocolTimeout: 90000,
  });
  const close = async () => {
    try {
      await browser.close();
    } finally {
      fs.rmSync(userDataDir, { recursive: true, force: true });
    }
  };
  return { browser, close };
}

// Records what the page says: console errors and warnings, uncaught exceptions, failed requests.
export function watchPage(page) {
  const faults = [];
  const log = [];
  page.on('console', (m) => {
    const line = `console.${m.type()}: ${m.text()}`;
    log.push(line);
    if (m.type() === 'error' || m.type() === 'warn' || m.type() === 'warning') faults.push(line);
  });
  page.on('pageerror', (err) => faults.push(`page error: ${err.message}`));
  page.on('requestfailed', (r) => faults.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  return { faults, log };
}

// Polls `check` (a function run in the page, or in node when `inNode`) until it returns a truthy value.
// Conditions, not sleeps: a slow machine only makes the wait longer, up to `timeout`.
export async function waitFor(page, check, { timeout = 60000, interval = 100, arg, what = 'a condition' } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = page ? await page.evaluate(check, arg) : await check(arg);
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

export function artifactsDir(dir) {
  const d = path.resolve(dir || path.join(process.cwd(), 'artifacts'));
  fs.mkdirSync(d, { recursive: true });
  return d;
}

export async function screenshot(page, dir, name) {
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`screenshot: ${file}`);
  return file;
}

// Checks that report PASS/FAIL lines and count them, so that one run shows every failure, not the first.
export class Checks {
  constructor(name) {
    this.name = name;
    this.passed = 0;
    this.failed = 0;
  }

  check(ok, what, detail = '') {
    if (ok) this.passed += 1;
    else this.failed += 1;
    console.log(`${ok ? 'PASS' : 'FAIL'}: ${what}${detail ? ` (${detail})` : ''}`);
    return ok;
  }

  // The closing line in the form CI reads: "N passed, N failed".
  finish() {
    console.log(`${this.name}: ${this.passed} passed, ${this.failed} failed`);
    return this.failed === 0 ? 0 : 1;
  }
}

// Inserts a replay into the page the way `pivot run --html` does: every "<" as \u003c, so nothing in the
// JSON can end the script element it sits in.
export function injectReplay(pageHtml, replay) {
  const json = JSON.stringify(replay).replace(/</g, '\\u003c');
  const marker = '__PIVOT_REPLAY__';
  const at = pageHtml.indexOf(marker);
  if (at < 0) throw new Error('the page has no marker');
  return pageHtml.slice(0, at) + json + pageHtml.slice(at + marker.length);
}
