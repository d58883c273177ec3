// A stand-in for `pivot serve`, speaking the live protocol of docs/viewer.md with the kinematic crane of
// fixture_crane.mjs: serves the page at / and a WebSocket at /ws, steps in real time, streams frames at
// 60 per second, answers refused messages with {"type":"error"} and closes a connection whose message
// exceeds 64 KiB (1009). Tests the page alone (viewer.page_live_mock) and the serve test's own logic.
//
//   node mock_serve.mjs --page VIEWER_HTML [--port 0] [--node-modules DIR]
import fs from 'node:fs';
import http from 'node:http';
import { parseArgs, requireFrom } from './lib.mjs';
import { CONTROLS, frame, header, initialState, stats, step } from './fixture_crane.mjs';

const args = parseArgs(process.argv.slice(2), { port: '0' });
if (!args.page) {
  console.error('usage: node mock_serve.mjs --page VIEWER_HTML [--port P] [--node-modules DIR]');
  process.exit(2);
}
const { WebSocketServer } = requireFrom(args.nodeModules)('ws');
const page = fs.readFileSync(args.page);
const MAX_MESSAGE = 64 * 1024;
const DT = 1 / 60;

let state = initialState();
let paused = false;
const held = new Set();
const heldBy = new Map();  // key -> the connection holding it: let go when that connection ends
const sliders = CONTROLS.map(() => 0);

// A control's value: its keys while one is held, else its slider (docs/viewer.md, "Controls").
function controlValues() {
  return CONTROLS.map((c, i) => {
    const minus = held.has(c.keys[0]);
    const plus = held.has(c.keys[1]);
    if (minus !== plus) return minus ? -c.speed : c.speed;
    return sliders[i];
  });
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && (req.url === '/' || req.url === '/index.html')) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(page);
    return;
  }
  res.writeHead(404, { 'Content-Type': 'text/plain' });
  res.end('not found\n');
});

const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE });
server.on('upgrade', (req, socket, head) => {
  if (req.url !== '/ws') {
    socket.destroy();
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
});

function refuse(ws, message) {
  ws.send(JSON.stringify({ type: 'error', message }));
}

function onMessage(ws, text) {
  let m;
  try {
    m = JSON.parse(text);
  } catch (err) {
    refuse(ws, `malformed JSON: ${err.message}`);
    return;
  }
  if (!m || typeof m !== 'object' || Array.isArray(m)) return refuse(ws, 'a message is a JSON object');
  switch (m.type) {
    case 'key': {
      if (typeof m.down !== 'boolean') return refuse(ws, 'key: "down" must be true or false');
      if (!CONTROLS.some((c) => c.keys.includes(m.key))) return refuse(ws, `key: no control has the key ${m.key}`);
      if (m.down) {
        held.add(m.key);
        heldBy.set(m.key, ws);
      } else {
        held.delete(m.key);
        heldBy.delete(m.key);
      }
      return undefined;
    }
    case 'control': {
      const c = CONTROLS[m.index];
      if (!Number.isInteger(m.index) || !c) return refuse(ws, `control: no control ${m.index}`);
      if (typeof m.value !== 'number' || !(Math.abs(m.value) <= c.speed)) {
        return refuse(ws, `control: value ${m.value} out of [-${c.speed}, ${c.speed}]`);
      }
      sliders[m.index] = m.value;
      return undefined;
    }
    case 'pause':
      if (typeof m.paused !== 'boolean') return refuse(ws, 'pause: "paused" must be true or false');
      paused = m.paused;
      return undefined;
    case 'reset':
      state = initialState();
      return undefined;
    default:
      return refuse(ws, `unknown message type ${JSON.stringify(m.type)}`);
  }
}

wss.on('connection', (ws) => {
  ws.send(JSON.stringify({ type: 'scene', ...header('pivot-live/1'), controls: CONTROLS, paused }));
  ws.on('message', (data, isBinary) => onMessage(ws, isBinary ? '' : data.toString('utf8')));
  ws.on('close', () => {
    for (const [key, holder] of heldBy) {
      if (holder !== ws) continue;
      held.delete(key);
      heldBy.delete(key);
    }
  });
  // A message over the limit: ws closes with 1009 by itself; the error event only says so here.
  ws.on('error', (err) => console.log(`mock_serve: a connection failed: ${err.message}`));
});

// Real time: as many steps as wall time asks for (at most a few, after a stall), one frame per tick.
let last = process.hrtime.bigint();
let owed = 0;
setInterval(() => {
  const now = process.hrtime.bigint();
  owed = Math.min(owed + Number(now - last) / 1e9, 5 * DT);
  last = now;
  if (!paused) {
    while (owed >= DT) {
      step(state, DT, controlValues());
      owed -= DT;
    }
  } else {
    owed = 0;
  }
  const message = JSON.stringify({ type: 'frame', ...frame(state), stats: { ...stats(state), lagging: false },
    paused, controls: controlValues() });
  for (const ws of wss.clients) if (ws.readyState === ws.OPEN) ws.send(message);
}, 1000 / 60);

server.listen(Number(args.port), '127.0.0.1', () => {
  // The line `pivot serve` prints when it listens; the tests read the port from it.
  console.log(`pivot serve: http://127.0.0.1:${server.address().port}/`);
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
