// The viewer page: a replay report when the marker element holds a run's JSON, the live view of
// `pivot serve` when it still holds the marker (docs/viewer.md).
import { SceneView, webglAvailable } from './scene3d.js';
import { Plots } from './plots.js';
import { Replay } from './replay.js';
import { Live } from './live.js';

const $ = (id) => document.getElementById(id);

function makeUi() {
  const ui = {
    scrub: $('scrub'),
    playButton: $('play-button'),
    speed: $('speed'),
    loop: $('loop'),
    livePanel: $('live-panel'),
    pauseButton: $('live-pause'),
    resetButton: $('live-reset'),
    reconnectButton: $('live-reconnect'),
    controlsList: $('controls-list'),
    liveError: $('live-error'),
    view: null,
    setTime: (text) => { $('time-readout').textContent = text; },
    setStatus: (text) => { $('status').textContent = text; },
    setScene: (name) => {
      $('scene-name').textContent = name || '';
      document.title = name ? `Pivot: ${name}` : 'Pivot viewer';
    },
    message: (text) => {
      const box = $('view-message');
      box.textContent = text;
      box.hidden = false;
    },
  };
  return ui;
}

// The replay, or null for a live page. The marker is not written here as a literal: the recorder replaces
// the page's one marker, and a second one in this script would be the one it finds.
function readReplay() {
  const element = $('pivot-replay');
  const text = element ? element.textContent.trim() : '';
  if (!text.startsWith('{')) return null;
  return JSON.parse(text);
}

function main() {
  const ui = makeUi();
  const hook = {
    mode: 'starting',
    ready: false,
    error: null,
    get frameIndex() { return app && app.frameIndex !== undefined ? app.frameIndex : -1; },
    get time() { return app ? app.time : 0; },
    get lastFrame() { return app ? (app.lastFrame || (app.frames && app.frames[app.frameIndex]) || null) : null; },
    get framesReceived() { return app && app.framesReceived !== undefined ? app.framesReceived : 0; },
    get socket() { return app ? app.socket || null : null; },
    get scene() { return app ? app.header || null : null; },
    get serverErrors() { return app && app.errors ? app.errors.slice() : []; },
    get playing() { return Boolean(app && app.playing); },
    get skippedShapes() { return ui.view ? ui.view.skippedShapes.slice() : []; },
    seek: (t) => app && app.seek && app.seek(t),
    play: () => app && app.play && app.play(),
    pause: () => app && app.pause && app.pause(),
    readPixels: () => (ui.view ? ui.view.readPixels() : null),
    plots: null,
    view: null,
  };
  window.pivotViewer = hook;
  let app = null;

  let replay = null;
  try {
    replay = readReplay();
  } catch (err) {
    ui.message(`The replay in this page cannot be read: ${err.message}`);
    hook.error = String(err.message);
    hook.mode = 'broken';
    return;
  }

  if (webglAvailable()) {
    ui.view = new SceneView($('canvas-host'));
    hook.view = ui.view;
  } else {
    ui.message('This browser cannot draw WebGL 2, so there is no 3-D view; the plots below still work.');
  }
  ui.plots = new Plots($('plots'), { onSeek: (t) => app && app.seek && app.seek(t) });
  hook.plots = ui.plots.charts;

  for (const [id, option] of [['show-contacts', 'contacts'], ['show-forces', 'forces'], ['show-grid', 'grid']]) {
    const box = $(id);
    box.addEventListener('change', () => ui.view && ui.view.setOptions({ [option]: box.checked }));
  }
  $('reset-camera').addEventListener('click', () => ui.view && ui.view.resetCamera());

  if (replay) {
    hook.mode = 'replay';
    ui.setScene(replay.scene);
    $('mode-badge').textContent = 'replay';
    $('transport').hidden = false;
    if (replay.summary && Object.keys(replay.summary).length) {
      $('summary-box').hidden = false;
      $('summary-text').textContent = JSON.stringify(replay.summary, null, 1);
    }
    app = new Replay(replay, ui);
    window.addEventListener('keydown', (e) => {
      // Space plays and pauses, unless a control of the page has the focus and wants it.
      if (e.key !== ' ' || e.repeat || (e.target !== document.body && e.target.tagName !== 'CANVAS')) return;
      e.preventDefault();
      app.toggle();
    });
    app.start();
  } else {
    hook.mode = 'live';
    $('mode-badge').textContent = 'live';
    app = new Live(ui);
    app.start();
  }
  hook.ready = true;
}

main();
