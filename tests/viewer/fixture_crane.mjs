// A hand-made stand-in for the engine, for testing the page alone: a crane like scenes/crane.json moved by
// kinematics (a slewing turret, a hoisted hook on a rope, a hanging cable, a load resting on the ground),
// written in the forms of docs/viewer.md. Used by make_replay_fixture.mjs (pivot-replay/1) and by
// mock_serve.mjs (the live protocol).

export const CONTROLS = [
  { name: 'slew', target: 'joint', object: 'slew', keys: ['ArrowLeft', 'ArrowRight'], speed: 0.25 },
  { name: 'hoist', target: 'joint', object: 'hoist', keys: ['ArrowDown', 'ArrowUp'], speed: 0.5 },
];

const CABLE_NODES = 9;

export function header(format, scene = 'tests/viewer/fixture_crane') {
  return {
    format,
    scene,
    timestep: 1 / 60,
    up: [0, 0, 1],
    bodies: [
      { name: 'turret', shapes: [
        { type: 'box', size: [2, 2, 0.5], position: [-0.05, 0, -0.31], orientation: [1, 0, 0, 0] },
        { type: 'box', size: [8, 0.4, 0.4], position: [3.95, 0, 0.14], orientation: [1, 0, 0, 0] },
        { type: 'box', size: [1, 1.2, 0.8], position: [-1.25, 0, 0.34], orientation: [1, 0, 0, 0] },
      ] },
      { name: 'hook', shapes: [
        { type: 'cylinder', radius: 0.2, length: 0.4, position: [0, 0, 0], orientation: [1, 0, 0, 0] },
        { type: 'sphere', radius: 0.12, position: [0, 0, -0.3], orientation: [1, 0, 0, 0] },
      ] },
      { name: 'load', shapes: [
        { type: 'box', size: [1.2, 1.2, 0.8], position: [0, 0, 0], orientation: [1, 0, 0, 0] },
        { type: 'capsule', radius: 0.1, length: 0.8, position: [0, 0, 0.5],
          orientation: [Math.SQRT1_2, Math.SQRT1_2, 0, 0] },
      ] },
    ],
    static_shapes: [
      { type: 'plane', normal: [0, 0, 1], offset: 0 },
      { type: 'box', size: [1, 1, 3.9], position: [0, 0, 1.95], orientation: [1, 0, 0, 0] },
    ],
    cables: [{ name: 'pendant', radius: 0.03, nodes: CABLE_NODES }],
    ropes: [{ name: 'hoist_rope' }],
    joints: [{ name: 'slew' }, { name: 'hoist' }, { name: 'ball' }],
  };
}

// The state the mock steps: the two joint coordinates and their speeds.
export function initialState() {
  return { t: 0, slew: 0, hoist: 0, slewSpeed: 0, hoistSpeed: 0 };
}

// Velocity motors with a bounded acceleration, as the engine's motors with a largest force behave.
export function step(state, dt, targets) {
  const accel = [0.5, 1.0];
  const move = (v, target, a) => v + Math.max(-a * dt, Math.min(a * dt, target - v));
  state.slewSpeed = move(state.slewSpeed, targets[0], accel[0]);
  state.hoistSpeed = move(state.hoistSpeed, targets[1], accel[1]);
  state.slew += state.slewSpeed * dt;
  state.hoist = Math.max(-0.5, Math.min(2.4, state.hoist + state.hoistSpeed * dt));
  state.t += dt;
}

// A frame (the fields of a replay frame) of the state.
export function frame(state) {
  const c = Math.cos(state.slew);
  const s = Math.sin(state.slew);
  const half = state.slew / 2;
  const turretQ = [Math.cos(half), 0, 0, Math.sin(half)];
  const tip = [7.5 * c, 7.5 * s, 4.7];
  const hookZ = 3.5 - state.hoist;
  const hook = [tip[0], tip[1], hookZ];
  const sway = 0.3 * Math.sin(2 * state.t);
  const bodies = [
    0.05 * c, 0.05 * s, 4.56, ...turretQ,
    ...hook, Math.cos(sway / 2), Math.sin(sway / 2), 0, 0,
    0, 7.5, 0.4, 1, 0, 0, 0,
  ];
  // A pendant cable hanging from the boom's middle, sagging and swinging a little.
  const nodes = [];
  const root = [4 * c, 4 * s, 4.5];
  for (let i = 0; i < CABLE_NODES; ++i) {
    const u = i / (CABLE_NODES - 1);
    const swing = 0.4 * u * u * Math.sin(1.5 * state.t);
    nodes.push(root[0] - s * swing, root[1] + c * swing, root[2] - 2.5 * u);
  }
  const rope = [...tip, hook[0], hook[1], hookZ + 0.2];
  // The load rests on the ground: four contacts at its corners carry its weight (500 kg).
  const contacts = [];
  for (const [dx, dy] of [[-0.6, -0.6], [0.6, -0.6], [0.6, 0.6], [-0.6, 0.6]]) {
    contacts.push(dx, 7.5 + dy, 0, 0, 0, 1, (500 * 9.81) / 4);
  }
  return {
    t: state.t,
    bodies,
    cables: [nodes],
    ropes: [rope],
    contacts,
    joints: [state.slew, state.hoist, null],
  };
}

export function stats(state) {
  const kinetic = 0.5 * 11502 * state.slewSpeed ** 2 + 0.5 * 100 * state.hoistSpeed ** 2;
  const potential = 100 * 9.81 * (3.5 - state.hoist);
  return {
    energy: kinetic + potential,
    joint_error: 1e-6 * (1 + Math.abs(Math.sin(state.t))),
    penetration: 1e-4 * (1 + Math.cos(3 * state.t)),
    solver_iterations: 4 + Math.round(2 * Math.abs(Math.sin(state.t))),
    solver_residual: 1e-10 * (1 + Math.abs(Math.sin(5 * state.t))),
    step_time_us: 80 + 10 * Math.sin(7 * state.t),
  };
}
