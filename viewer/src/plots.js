// The plots against time (uPlot): one small chart per quantity, their cursors synced, a line at the
// playback time, and a click on a chart seeks there.
import uPlot from 'uplot';

export const PLOT_SERIES = [
  { key: 'energy', title: 'Energy', unit: 'J', colour: '#2f6fdf' },
  { key: 'joint_error', title: 'Largest joint error', unit: 'm', colour: '#c9493f' },
  { key: 'penetration', title: 'Largest penetration', unit: 'm', colour: '#e0803a' },
  { key: 'solver_iterations', title: 'Solver iterations', unit: '', colour: '#4aa564' },
  { key: 'solver_residual', title: 'Solver residual', unit: '', colour: '#8a63c7' },
  { key: 'step_time_us', title: 'Step time', unit: 'us', colour: '#2fa7a7' },
];

// Compact numbers for axes and legends: residuals near 1e-12 and energies near 1e5 both stay short.
export function formatNumber(v, digits = 4) {
  if (v === null || v === undefined || Number.isNaN(v)) return '-';
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a < 1e-3 || a >= 1e7) return v.toExponential(digits - 1);
  return String(Number(v.toPrecision(digits)));
}

// An axis's ticks with as many digits as it takes to tell them apart (1.4406e+5 beside 1.4401e+5).
function formatTicks(values) {
  for (let digits = 3; digits < 12; ++digits) {
    const labels = values.map((v) => formatNumber(v, digits));
    if (new Set(labels).size === new Set(values).size) return labels;
  }
  return values.map((v) => String(v));
}

// Round ticks (1, 2 or 5 times a power of ten) across [min, max]. uPlot's own stop at 1e-16 and show a
// lone "0" on a residual near 1e-16; these go as fine as doubles do.
export function niceTicks(min, max, count = 4) {
  const span = max - min;
  if (!(span > 0) || !Number.isFinite(span)) return [min];
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw * (1 - 1e-9)) || 10 * power;
  const ticks = [];
  // The tolerances keep a tick that sits on an end despite rounding (1e-10 / 5e-11 is 2.0000000000000004).
  for (let k = Math.ceil(min / step - 1e-9); k * step <= max + step * 1e-9; ++k) {
    ticks.push(Number((k * step).toPrecision(12)));
  }
  return ticks;
}

const SYNC_KEY = 'pivot-time';

export class Plots {
  constructor(host, { onSeek } = {}) {
    this.host = host;
    this.onSeek = onSeek;
    this.charts = {};
    this.lines = {};
    this.time = 0;
    this.host.textContent = '';
    for (const def of PLOT_SERIES) {
      const box = document.createElement('div');
      box.className = 'plot';
      box.id = `plot-${def.key}`;
      this.host.appendChild(box);
      const chart = new uPlot(this.options(def, box), [[], []], box);
      this.charts[def.key] = chart;
      const line = document.createElement('div');
      line.className = 'time-line';
      chart.over.appendChild(line);
      this.lines[def.key] = line;
      this.listenForSeek(chart);
    }
    new ResizeObserver(() => this.resize()).observe(this.host);
  }

  options(def, box) {
    const label = def.unit ? `${def.title} (${def.unit})` : def.title;
    return {
      title: label,
      width: this.widthOf(box),
      height: 170,
      scales: { x: { time: false } },
      cursor: { sync: { key: SYNC_KEY } },
      legend: { show: true, live: true },
      series: [
        { label: 't (s)', value: (u, v) => formatNumber(v) },
        { label: def.title, stroke: def.colour, width: 1.5, points: { show: false },
          value: (u, v) => formatNumber(v) },
      ],
      axes: [
        { size: 30, values: (u, vals) => formatTicks(vals) },
        { size: 72, values: (u, vals) => formatTicks(vals), splits: (u, axis, min, max) => niceTicks(min, max) },
      ],
      hooks: {
        // uPlot moves its plot area on a resize or a new scale: the time line must follow.
        setScale: [() => this.placeLines()],
        setSize: [() => this.placeLines()],
      },
    };
  }

  widthOf(box) {
    return Math.max(200, Math.floor((box || this.host).clientWidth) - 8);
  }

  listenForSeek(chart) {
    let downX = null;
    chart.over.addEventListener('mousedown', (e) => { downX = e.clientX; });
    // A click seeks; the end of a drag (uPlot's zoom on x) does not.
    chart.over.addEventListener('click', (e) => {
      if (downX === null || Math.abs(e.clientX - downX) > 3 || !this.onSeek) return;
      const t = chart.posToVal(chart.cursor.left, 'x');
      if (Number.isFinite(t)) this.onSeek(t);
    });
  }

  resize() {
    for (const def of PLOT_SERIES) {
      const chart = this.charts[def.key];
      const width = this.widthOf(chart.root.parentElement);
      if (Math.abs(width - chart.width) > 1) chart.setSize({ width, height: 170 });
    }
  }

  // `time`: the x values; `series`: by key, the y values (missing keys plot nothing).
  setData(time, series) {
    for (const def of PLOT_SERIES) {
      const y = series[def.key] || [];
      this.charts[def.key].setData([time, y]);
    }
    this.placeLines();
  }

  setTime(t) {
    this.time = t;
    this.placeLines();
  }

  placeLines() {
    for (const def of PLOT_SERIES) {
      const chart = this.charts[def.key];
      const line = this.lines[def.key];
      if (!chart || !line) continue;
      const { min, max } = chart.scales.x;
      if (min === null || max === null || min === undefined || this.time < min || this.time > max) {
        line.style.display = 'none';
        continue;
      }
      line.style.display = '';
      line.style.left = `${chart.valToPos(this.time, 'x')}px`;
    }
  }
}
