// Replay mode: the page carries a run (pivot-replay/1) and plays it back.
import { PLOT_SERIES } from './plots.js';

// The last frame at or before time t (frames are in time order).
function frameAt(frames, t) {
  let lo = 0;
  let hi = frames.length - 1;
  if (hi < 0 || t <= frames[0].t) return 0;
  if (t >= frames[hi].t) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (frames[mid].t <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

export class Replay {
  constructor(data, ui) {
    this.data = data;
    this.header = data;
    this.ui = ui;
    this.frames = Array.isArray(data.frames) ? data.frames : [];
    this.t0 = this.frames.length ? this.frames[0].t : 0;
    this.t1 = this.frames.length ? this.frames[this.frames.length - 1].t : 0;
    this.time = this.t0;
    this.frameIndex = -1;
    this.playing = false;
    this.speed = 1;
    this.lastTick = null;
  }

  start() {
    const { ui, data, frames } = this;
    if (ui.view) {
      // Some frames spread over the run are enough to find the extent the camera must take in.
      const step = Math.max(1, Math.floor(frames.length / 60));
      const sample = frames.filter((f, i) => i % step === 0 || i === frames.length - 1);
      ui.view.load(data, sample);
      let maxForce = 0;
      for (const f of frames) {
        const c = f.contacts || [];
        for (let o = 6; o < c.length; o += 7) maxForce = Math.max(maxForce, c[o]);
      }
      if (maxForce > 0) ui.view.noteForces(maxForce);
    }

    const series = data.series || {};
    const time = series.time || frames.map((f) => f.t);
    const ys = {};
    for (const def of PLOT_SERIES) ys[def.key] = series[def.key] || [];
    ui.plots.setData(time, ys);

    ui.scrub.max = String(Math.max(0, frames.length - 1));
    ui.scrub.addEventListener('input', () => {
      const k = Number(ui.scrub.value);
      if (frames[k]) this.seek(frames[k].t);
    });
    ui.playButton.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    ui.speed.addEventListener('change', () => { this.speed = Number(ui.speed.value) || 1; });
    this.speed = Number(ui.speed.value) || 1;

    this.show(0, true);
    requestAnimationFrame((now) => this.tick(now));
    // A report plays once it opens, as a video would; the tests pause it before they seek.
    if (frames.length > 1) this.play();
  }

  play() {
    if (this.frames.length < 2) return;
    if (this.time >= this.t1) this.time = this.t0;
    this.playing = true;
    this.lastTick = null;
    this.ui.playButton.textContent = 'Pause';
  }

  pause() {
    this.playing = false;
    this.ui.playButton.textContent = 'Play';
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  // Shows the frame at time t at once (not at the next animation frame): a test reads it right after.
  seek(t) {
    this.time = Math.min(this.t1, Math.max(this.t0, Number(t) || 0));
    this.show(frameAt(this.frames, this.time), false);
  }

  tick(now) {
    if (this.playing && this.lastTick !== null) {
      // At most a tenth of a second per animation frame: a page left in the background resumes, not jumps.
      const dt = Math.min(0.1, (now - this.lastTick) / 1000);
      this.time += dt * this.speed;
      if (this.time >= this.t1) {
        if (this.ui.loop.checked) {
          this.time = this.t0;
        } else {
          this.time = this.t1;
          this.pause();
        }
      }
      this.show(frameAt(this.frames, this.time), false);
    }
    this.lastTick = now;
    requestAnimationFrame((n) => this.tick(n));
  }

  show(k, force) {
    const frame = this.frames[k];
    if (!frame) return;
    if (k !== this.frameIndex || force) {
      this.frameIndex = k;
      if (this.ui.view) this.ui.view.setFrame(frame);
      this.ui.scrub.value = String(k);
      this.ui.plots.setTime(frame.t);
    }
    this.ui.setTime(`t = ${this.time.toFixed(3)} s / ${this.t1.toFixed(3)} s  (frame ${k + 1}/${this.frames.length})`);
  }
}
