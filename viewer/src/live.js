// Live mode: the page was served by `pivot serve`; it shows the streamed frames and sends the operator's
// keys and sliders (docs/viewer.md, "Live protocol").
import { PLOT_SERIES, formatNumber } from './plots.js';

// Plots keep the last minute of frames (at 60 per second), redrawn four times a second: setData costs more
// than a frame's interval on a slow machine.
const WINDOW_POINTS = 3600;
const PLOT_PERIOD_MS = 250;

const KEY_NAMES = { ArrowLeft: '\u2190', ArrowRight: '\u2192', ArrowUp: '\u2191', ArrowDown: '\u2193', ' ': 'Space' };

export class Live {
  constructor(ui) {
    this.ui = ui;
    this.socket = null;
    this.header = null;
    this.controls = [];
    this.keyMap = new Map();
    this.held = new Set();
    this.paused = false;
    this.lastFrame = null;
    this.framesReceived = 0;
    this.errors = [];
    this.time = 0;
    this.resetSeries();
    this.plotTimer = null;
  }

  resetSeries() {
    this.series = { time: [] };
    for (const def of PLOT_SERIES) this.series[def.key] = [];
    this.seriesDirty = true;
  }

  start() {
    const { ui } = this;
    ui.livePanel.hidden = false;
    ui.pauseButton.addEventListener('click', () => {
      this.setPaused(!this.paused);
      this.send({ type: 'pause', paused: this.paused });
    });
    ui.resetButton.addEventListener('click', () => this.send({ type: 'reset' }));
    ui.reconnectButton.addEventListener('click', () => this.connect());
    // Capture phase: a focused slider must not also take the arrow keys for itself.
    window.addEventListener('keydown', (e) => this.onKey(e, true), true);
    window.addEventListener('keyup', (e) => this.onKey(e, false), true);
    // Keys released while the page had no focus never send their keyup: release them all, or a motor runs on.
    window.addEventListener('blur', () => this.releaseAll());
    document.addEventListener('visibilitychange', () => { if (document.hidden) this.releaseAll(); });
    this.plotTimer = setInterval(() => this.flushPlots(), PLOT_PERIOD_MS);

    if (!location.host) {
      ui.message('This page holds no replay and was not served by pivot serve: there is nothing to show.');
      ui.setStatus('no server');
      return;
    }
    this.connect();
  }

  connect() {
    const { ui } = this;
    ui.reconnectButton.hidden = true;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    this.socket = socket;
    ui.setStatus('connecting');
    socket.addEventListener('open', () => ui.setStatus('connected'));
    socket.addEventListener('message', (e) => this.onMessage(e.data));
    socket.addEventListener('close', (e) => {
      if (this.socket !== socket) return;
      this.held.clear();
      ui.setStatus(`disconnected (${e.code})`);
      // No automatic retries: each failed attempt is a console error, and a stopped server stays stopped.
      ui.reconnectButton.hidden = false;
    });
  }

  // The button says what a click does; the server's `paused` (scene and frames) has the last word.
  setPaused(paused) {
    this.paused = paused;
    this.ui.pauseButton.textContent = paused ? 'Resume' : 'Pause';
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  onMessage(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (err) {
      this.showError(`unreadable message from the server: ${err.message}`);
      return;
    }
    if (message.type === 'scene') this.onScene(message);
    else if (message.type === 'frame') this.onFrame(message);
    else if (message.type === 'error') this.showError(message.message || 'error');
  }

  showError(text) {
    this.errors.push(text);
    this.ui.liveError.hidden = false;
    this.ui.liveError.textContent = `Server: ${text}`;
  }

  onScene(header) {
    this.header = header;
    this.ui.setScene(header.scene);
    if (this.ui.view) this.ui.view.load(header, []);
    this.framed = false;
    this.lagging = false;
    if (typeof header.paused === 'boolean') this.setPaused(header.paused);
    this.resetSeries();
    this.buildControls(header.controls || []);
  }

  buildControls(controls) {
    this.controls = controls;
    this.keyMap.clear();
    const list = this.ui.controlsList;
    list.textContent = '';
    this.controlViews = controls.map((control, index) => {
      const keys = control.keys || [];
      keys.forEach((key, k) => {
        const entry = { index, sign: k === 0 ? -1 : 1, key };
        this.keyMap.set(key, entry);
        // A letter works with Shift or Caps Lock too ("W" for "w"); the server is sent the scene's spelling.
        if (key.length === 1) {
          for (const other of [key.toLowerCase(), key.toUpperCase()]) {
            if (!this.keyMap.has(other)) this.keyMap.set(other, entry);
          }
        }
      });
      const box = document.createElement('div');
      box.className = 'control';
      const head = document.createElement('div');
      head.className = 'head';
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = control.name;
      const hint = document.createElement('span');
      hint.className = 'keys';
      const kbds = keys.map((key) => {
        const kbd = document.createElement('kbd');
        kbd.textContent = KEY_NAMES[key] || key;
        kbd.title = key;
        hint.appendChild(kbd);
        return kbd;
      });
      head.append(name, hint);
      const speed = Number(control.speed) || 1;
      const slider = document.createElement('input');
      slider.type = 'range';
      slider.min = String(-speed);
      slider.max = String(speed);
      slider.step = String(speed / 100);
      slider.value = '0';
      slider.setAttribute('aria-label', control.name);
      const value = document.createElement('div');
      value.className = 'value';
      const what = control.target ? `${control.target} ${control.object || ''}`.trim() : '';
      value.textContent = `0 of \u00b1${formatNumber(speed)}${what ? ` (${what})` : ''}`;
      let dragging = false;
      // Released anywhere (outside the slider too) or cancelled: the slider follows the server again.
      slider.addEventListener('pointerdown', () => { dragging = true; });
      for (const end of ['pointerup', 'pointercancel']) window.addEventListener(end, () => { dragging = false; });
      slider.addEventListener('input', () => this.send({ type: 'control', index, value: Number(slider.value) }));
      box.append(head, slider, value);
      list.appendChild(box);
      return { slider, value, kbds, keys, speed, what, dragging: () => dragging };
    });
  }

  onKey(e, down) {
    // Ctrl+S and the like stay the browser's; a key up always counts, or a held key could stick.
    if (down && (e.ctrlKey || e.metaKey || e.altKey)) return;
    const target = this.keyMap.get(e.key);
    if (!target) {
      if (down && e.key === ' ' && !e.repeat && e.target === document.body) {
        e.preventDefault();
        this.ui.pauseButton.click();
      }
      return;
    }
    e.preventDefault();
    // The server keeps a key's state from down to up: auto-repeat would only say again what it knows.
    if (e.repeat) return;
    const { key } = target;
    if (down === this.held.has(key)) return;
    if (down) this.held.add(key);
    else this.held.delete(key);
    this.send({ type: 'key', key, down });
    this.markKeys();
  }

  releaseAll() {
    for (const key of [...this.held]) {
      this.held.delete(key);
      this.send({ type: 'key', key, down: false });
    }
    this.markKeys();
  }

  markKeys() {
    for (const view of this.controlViews || []) {
      view.keys.forEach((key, k) => view.kbds[k].classList.toggle('held', this.held.has(key)));
    }
  }

  onFrame(frame) {
    this.framesReceived += 1;
    // A reset starts the world's clock again: the plots start again with it.
    if (this.lastFrame && frame.t < this.lastFrame.t) this.resetSeries();
    this.lastFrame = frame;
    this.time = frame.t;
    const { view } = this.ui;
    if (view) {
      if (!this.framed) {
        // The first frame tells where the bodies are: the camera frames them once, then is the user's.
        view.load(this.header || {}, [frame]);
        this.framed = true;
      }
      let maxForce = 0;
      const c = frame.contacts || [];
      for (let o = 6; o < c.length; o += 7) maxForce = Math.max(maxForce, c[o]);
      if (maxForce > 0) view.noteForces(maxForce);
      view.setFrame(frame);
    }
    if (typeof frame.paused === 'boolean' && frame.paused !== this.paused) this.setPaused(frame.paused);
    const stats = frame.stats || {};
    // The server steps at most 0.1 s per frame when the world cannot keep up with real time: say so.
    const lagging = Boolean(stats.lagging);
    if (lagging !== this.lagging) {
      this.lagging = lagging;
      this.ui.setStatus(lagging ? 'connected, slower than real time' : 'connected');
    }
    this.series.time.push(frame.t);
    for (const def of PLOT_SERIES) this.series[def.key].push(stats[def.key] ?? null);
    if (this.series.time.length > 2 * WINDOW_POINTS) {
      for (const key of Object.keys(this.series)) this.series[key] = this.series[key].slice(-WINDOW_POINTS);
    }
    this.seriesDirty = true;

    (frame.controls || []).forEach((v, i) => {
      const cv = this.controlViews && this.controlViews[i];
      if (!cv || typeof v !== 'number') return;
      // The server's value, unless the user is moving this slider now.
      if (!cv.dragging()) cv.slider.value = String(v);
      cv.value.textContent = `${formatNumber(v)} of \u00b1${formatNumber(cv.speed)}${cv.what ? ` (${cv.what})` : ''}`;
    });
    this.ui.setTime(`t = ${frame.t.toFixed(3)} s  (frames ${this.framesReceived})`);
  }

  flushPlots() {
    if (!this.seriesDirty) return;
    this.seriesDirty = false;
    const n = this.series.time.length;
    const from = Math.max(0, n - WINDOW_POINTS);
    const ys = {};
    for (const def of PLOT_SERIES) ys[def.key] = this.series[def.key].slice(from);
    this.ui.plots.setData(this.series.time.slice(from), ys);
    this.ui.plots.setTime(this.time);
  }
}
