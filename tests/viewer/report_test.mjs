// Opens a replay report in headless Chromium and checks it: the page loads with no console error or
// warning and fetches nothing, the 3-D canvas draws the bodies and its pixels change between two times,
// the six plots hold the run and the energy curve is drawn, the transport (scrub, play) works.
// Screenshots go to --artifacts.
//
//   node report_test.mjs --pivot BIN --scene SCENE [--duration 3] --out REPORT.html   (runs pivot run --html)
//   node report_test.mjs --fixture VIEWER.html --out REPORT.html                      (the engine-free fixture)
//   node report_test.mjs --html REPORT.html                                           (an existing report)
//   common: --name NAME --artifacts DIR --node-modules DIR --chromium PATH
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  Checks, artifactsDir, here, launchBrowser, parseArgs, requireFrom, screenshot, waitFor, watchPage,
} from './lib.mjs';

const args = parseArgs(process.argv.slice(2), { duration: '3', name: 'report', chromium: '/usr/bin/chromium' });
const checks = new Checks(`viewer report test ${args.name}`);
const artifacts = artifactsDir(args.artifacts);

function makeReport() {
  if (args.pivot) {
    if (!args.scene || !args.out) throw new Error('--pivot needs --scene and --out');
    const argv = ['run', args.scene, '--duration', String(args.duration), '--html', args.out];
    console.log(`running: ${args.pivot} ${argv.join(' ')}`);
    // The engine's run is deterministic and short (3 s of simulated time); a slow machine gets 100 s.
    const r = spawnSync(args.pivot, argv, { stdio: 'inherit', timeout: 100000 });
    if (r.status !== 0) throw new Error(`pivot run failed (status ${r.status}, signal ${r.signal}, ${r.error})`);
    return args.out;
  }
  if (args.fixture) {
    if (!args.out) throw new Error('--fixture needs --out');
    const r = spawnSync(process.execPath, [path.join(here, 'make_replay_fixture.mjs'), '--page', args.fixture,
      '--out', args.out, '--duration', String(args.duration)], { stdio: 'inherit', timeout: 60000 });
    if (r.status !== 0) throw new Error('make_replay_fixture.mjs failed');
    return args.out;
  }
  if (args.html) return args.html;
  throw new Error('give --pivot (with --scene, --out), --fixture (with --out) or --html');
}

// Runs in the page: the fraction of pixels that differ between two renders, and the bodies' footprint
// (pixels that change when the bodies are hidden) at each of two times.
function comparePixels([t0, t1]) {
  const v = window.pivotViewer;
  const differ = (a, b) => {
    let n = 0;
    for (let i = 0; i < a.length; i += 4) {
      if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 24) ++n;
    }
    return n / (a.length / 4);
  };
  const footprint = () => {
    const shown = v.readPixels().data;
    for (const g of v.view.bodies) g.userData.wasVisible = g.visible;
    for (const g of v.view.bodies) g.visible = false;
    const hidden = v.readPixels().data;
    for (const g of v.view.bodies) g.visible = g.userData.wasVisible;
    return { shown, fraction: differ(shown, hidden) };
  };
  v.pause();
  v.seek(t0);
  const a = footprint();
  v.seek(t1);
  const b = footprint();
  const size = v.readPixels();
  return { width: size.width, height: size.height, bodiesAt0: a.fraction, bodiesAt1: b.fraction,
    changed: differ(a.shown, b.shown) };
}

// Runs in the page: how many pixels of the energy chart have the curve's colour, and the data it holds.
function energyCurve() {
  const chart = window.pivotViewer.plots.energy;
  const ctx = chart.ctx;
  const { width, height } = ctx.canvas;
  const px = ctx.getImageData(0, 0, width, height).data;
  // The series' stroke, #2f6fdf, within a margin for antialiasing.
  let n = 0;
  for (let i = 0; i < px.length; i += 4) {
    if (Math.abs(px[i] - 0x2f) < 40 && Math.abs(px[i + 1] - 0x6f) < 40 && Math.abs(px[i + 2] - 0xdf) < 40
        && px[i + 3] > 128) ++n;
  }
  const data = chart.data;
  const finite = data[1].filter((y) => Number.isFinite(y)).length;
  return { curvePixels: n, points: data[0].length, finite, canvas: [width, height] };
}

async function main() {
  const report = path.resolve(makeReport());
  if (!fs.existsSync(report)) throw new Error(`no report at ${report}`);
  const replay = JSON.parse(
    fs.readFileSync(report, 'utf8').match(/<script id="pivot-replay" type="application\/json">([^]*?)<\/script>/)[1]);
  checks.check(replay.format === 'pivot-replay/1', 'the report carries pivot-replay/1', replay.format);
  const frames = replay.frames.length;
  checks.check(frames > 10, 'the report holds frames', `${frames}`);

  const require = requireFrom(args.nodeModules);
  const { browser, close } = await launchBrowser(require, { executablePath: args.chromium });
  try {
    const page = await browser.newPage();
    const { faults, log } = watchPage(page);
    const fetched = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) fetched.push(r.url());
    });
    await page.goto(pathToFileURL(report).href, { waitUntil: 'load', timeout: 90000 });
    const state = await waitFor(page, () => window.pivotViewer && window.pivotViewer.ready && {
      mode: window.pivotViewer.mode, error: window.pivotViewer.error, hasView: Boolean(window.pivotViewer.view),
      bodies: window.pivotViewer.view ? window.pivotViewer.view.bodies.length : -1,
      skipped: window.pivotViewer.skippedShapes }, { what: 'the page to start', timeout: 90000 });
    checks.check(state.mode === 'replay', 'the page is in replay mode', `${state.mode} ${state.error || ''}`);
    checks.check(state.hasView, 'the page has a WebGL 2 3-D view');
    checks.check(state.bodies === replay.bodies.length, 'one object per body',
      `${state.bodies} of ${replay.bodies.length}`);
    checks.check(state.skipped.length === 0, 'every shape is drawn', state.skipped.join(', '));

    // Played on opening: time moves on by itself.
    const moved = await waitFor(page, () => window.pivotViewer.playing && window.pivotViewer.time > 0.05
      && window.pivotViewer.time, { what: 'playback to advance', timeout: 30000 }).catch(() => false);
    checks.check(moved !== false, 'the report plays on opening', `t = ${moved}`);

    const t0 = replay.frames[0].t;
    const t1 = replay.frames[frames - 1].t;
    await page.evaluate((t) => { window.pivotViewer.pause(); window.pivotViewer.seek(t); }, t0);
    await screenshot(page, artifacts, `${args.name}-start`);
    const px = await page.evaluate(comparePixels, [t0, t1]);
    console.log(`pixels: ${JSON.stringify(px)}`);
    // The bodies take at least 0.5 % of the picture (the crane spans a third of it), and at least 0.5 % of
    // the pixels change from the first frame to the last (the boom slews or luffs, the hook swings).
    checks.check(px.width >= 300 && px.height >= 200, 'the canvas has a size', `${px.width}x${px.height}`);
    checks.check(px.bodiesAt0 > 0.005 && px.bodiesAt1 > 0.005, 'the bodies are drawn',
      `${(100 * px.bodiesAt0).toFixed(2)} % and ${(100 * px.bodiesAt1).toFixed(2)} % of the pixels`);
    checks.check(px.changed > 0.005, 'pixels differ between the first and the last frame',
      `${(100 * px.changed).toFixed(2)} %`);
    await screenshot(page, artifacts, `${args.name}-end`);

    const energy = await page.evaluate(energyCurve);
    console.log(`energy plot: ${JSON.stringify(energy)}`);
    checks.check(energy.points === frames, 'the energy plot holds every frame', `${energy.points} of ${frames}`);
    checks.check(energy.finite === frames, 'the energies are numbers', `${energy.finite} of ${frames}`);
    // A curve across the chart is hundreds of pixels of its colour; an empty chart has none.
    checks.check(energy.curvePixels > 100, 'the energy curve is drawn', `${energy.curvePixels} pixels`);
    const plots = await page.evaluate(() => Object.entries(window.pivotViewer.plots)
      .map(([key, chart]) => [key, chart.data[0].length]));
    for (const [key, n] of plots) checks.check(n === frames, `the ${key} plot holds every frame`, `${n}`);
    checks.check(plots.length === 6, 'six plots', `${plots.map((p) => p[0]).join(', ')}`);

    // The scrub bar seeks: its middle is the middle frame.
    const mid = await page.evaluate(() => {
      const scrub = document.getElementById('scrub');
      scrub.value = String(Math.floor(Number(scrub.max) / 2));
      scrub.dispatchEvent(new Event('input'));
      return [window.pivotViewer.frameIndex, Number(scrub.max)];
    });
    checks.check(mid[0] === Math.floor(mid[1] / 2), 'the scrub bar seeks', `frame ${mid[0]} of ${mid[1]}`);
    const readout = await page.$eval('#time-readout', (e) => e.textContent);
    checks.check(/t = \d+\.\d{3} s/.test(readout), 'the time readout shows the time', readout);

    // Contact points and force arrows on demand.
    await page.click('#show-contacts');
    await page.click('#show-forces');
    await page.evaluate((t) => window.pivotViewer.seek(t), t1);
    const arrows = await page.evaluate(() => window.pivotViewer.view.arrows.filter((a) => a.visible).length);
    const contactsAtEnd = (replay.frames[frames - 1].contacts || []).length / 7;
    checks.check(arrows === contactsAtEnd, 'one force arrow per contact of the frame',
      `${arrows} of ${contactsAtEnd}`);
    await screenshot(page, artifacts, `${args.name}-contacts`);

    // Play from the start at 4x: time advances by itself (polled, on any machine's frame rate).
    await page.select('#speed', '4');
    await page.evaluate((t) => { window.pivotViewer.seek(t); window.pivotViewer.play(); }, t0);
    const played = await waitFor(page, (t) => window.pivotViewer.time > t + 0.2 && window.pivotViewer.time,
      { arg: t0, what: 'playback at 4x', timeout: 30000 }).catch(() => false);
    checks.check(played !== false, 'play advances the time', `t = ${played}`);
    await page.evaluate(() => window.pivotViewer.pause());

    const outside = fetched.filter((u) => u !== pathToFileURL(report).href);
    checks.check(outside.length === 0, 'nothing is fetched from a network', outside.join(' '));
    checks.check(faults.length === 0, 'no console error or warning', faults.join(' | '));
    if (faults.length) console.log(log.join('\n'));
  } finally {
    await close();
  }
}

main().then(() => process.exit(checks.finish()), (err) => {
  console.error(err.stack || String(err));
  checks.check(false, 'the test ran to its end', err.message);
  process.exit(checks.finish() || 1);
});
