// Writes a replay report without the engine: the kinematic crane of fixture_crane.mjs as pivot-replay/1,
// inserted into the built page as `pivot run --html` inserts a run. Tests the page on its own, and shows
// the recorder's side of the contract in a few lines.
//
//   node make_replay_fixture.mjs --page share/pivot/viewer/viewer.html --out report.html
//        [--duration 3] [--json replay.json]
import fs from 'node:fs';
import { parseArgs, injectReplay } from './lib.mjs';
import { header, initialState, step, frame, stats } from './fixture_crane.mjs';

const args = parseArgs(process.argv.slice(2), { duration: '3' });
if (!args.page || !args.out) {
  console.error('usage: node make_replay_fixture.mjs --page VIEWER_HTML --out REPORT_HTML'
    + ' [--duration S] [--json FILE]');
  process.exit(2);
}

const replay = header('pivot-replay/1');
replay.frames = [];
replay.series = { time: [], energy: [], joint_error: [], penetration: [], solver_iterations: [],
  solver_residual: [], step_time_us: [] };
const state = initialState();
const dt = replay.timestep;
const steps = Math.round(Number(args.duration) / dt);
for (let k = 0; k <= steps; ++k) {
  if (k > 0) step(state, dt, [0.2, k * dt < 1.5 ? 0.5 : 0]);
  replay.frames.push(frame(state));
  const s = stats(state);
  replay.series.time.push(state.t);
  for (const key of Object.keys(s)) replay.series[key].push(s[key]);
}
// A "<" in a string (here, the summary's note) must reach the page as \u003c and come out again as "<".
replay.summary = { steps, duration: state.t, note: 'fixture </script> <b>not bold</b>' };

if (args.json) fs.writeFileSync(args.json, JSON.stringify(replay, null, 1));
fs.writeFileSync(args.out, injectReplay(fs.readFileSync(args.page, 'utf8'), replay));
console.log(`make_replay_fixture.mjs: wrote ${args.out} (${replay.frames.length} frames)`);
