// The 3-D view: three.js objects made from a replay (or live scene) header, moved by frames.
// Only the classes used are imported, so the bundler keeps the rest of three out of the page.
import {
  ArrowHelper, BoxGeometry, BufferAttribute, BufferGeometry, CapsuleGeometry, CatmullRomCurve3, Color,
  CylinderGeometry, DirectionalLight, DoubleSide, EdgesGeometry, GridHelper, Group, HemisphereLight, Line,
  LineBasicMaterial, LineSegments, Mesh, MeshLambertMaterial, PerspectiveCamera, PlaneGeometry, Points,
  PointsMaterial, Quaternion, Scene, SphereGeometry, TubeGeometry, Vector3, WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import WebGL from 'three/examples/jsm/capabilities/WebGL.js';

const BODY_COLOURS = [0x3d7fd9, 0xe0803a, 0x4aa564, 0xc9493f, 0x8a63c7, 0x2fa7a7, 0xc7a23a, 0x7d8590];
const STATIC_COLOUR = 0x9aa3ad;
const CABLE_COLOUR = 0x2a2f3a;
const CONTACT_COLOUR = 0xd62a2a;
const FORCE_COLOUR = 0xe8590c;

// The replay's quaternions are [w, x, y, z]; three's are (x, y, z, w).
function quat(q) {
  return q ? new Quaternion(q[1], q[2], q[3], q[0]) : new Quaternion();
}

function vec(p) {
  return p ? new Vector3(p[0], p[1], p[2]) : new Vector3();
}

// A shape's geometry in its own frame, or null for a type the page does not draw.
// three's cylinders and capsules run along y; Pivot's along the shape's local z, hence the turn about x.
function shapeGeometry(shape) {
  switch (shape.type) {
    case 'box': {
      const s = shape.size || [1, 1, 1];
      return new BoxGeometry(s[0], s[1], s[2]);
    }
    case 'sphere':
      return new SphereGeometry(shape.radius, 24, 16);
    case 'capsule':
      // Pivot's capsule: a segment of `length` plus `radius` all round, as three's (radius, length).
      return new CapsuleGeometry(shape.radius, shape.length, 6, 20).rotateX(Math.PI / 2);
    case 'cylinder':
      return new CylinderGeometry(shape.radius, shape.radius, shape.length, 24).rotateX(Math.PI / 2);
    default:
      return null;
  }
}

// A buffer that grows (doubling) when a frame brings more points than it holds: ropes and contacts vary.
class GrowingPoints {
  constructor(object) {
    this.object = object;
    this.capacity = 0;
    this.grow(16);
    // Bounds go stale as the points move; culling them against the old ones would hide them.
    this.object.frustumCulled = false;
  }

  grow(capacity) {
    this.capacity = capacity;
    this.object.geometry.setAttribute('position', new BufferAttribute(new Float32Array(3 * capacity), 3));
  }

  set(flat, stride, count) {
    const geometry = this.object.geometry;
    if (count > this.capacity) this.grow(2 * count);
    const array = geometry.attributes.position.array;
    for (let i = 0; i < count; ++i) {
      array[3 * i] = flat[stride * i];
      array[3 * i + 1] = flat[stride * i + 1];
      array[3 * i + 2] = flat[stride * i + 2];
    }
    if (count > 0) geometry.attributes.position.needsUpdate = true;
    geometry.setDrawRange(0, count);
  }
}

export function webglAvailable() {
  return WebGL.isWebGL2Available();
}

export class SceneView {
  constructor(host) {
    this.host = host;
    this.renderer = new WebGLRenderer({ antialias: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(new Color(0xdfe4ea));
    host.appendChild(this.renderer.domElement);
    this.renderer.domElement.tabIndex = 0;

    this.scene = new Scene();
    this.camera = new PerspectiveCamera(45, 1, 0.05, 1000);
    // The light rides with the camera so that faces stay readable from every side the user orbits to.
    this.scene.add(this.camera);
    const key = new DirectionalLight(0xffffff, 1.8);
    key.position.set(1, 2, 3);
    this.camera.add(key);
    this.hemisphere = new HemisphereLight(0xffffff, 0x6b6b6b, 1.6);
    this.scene.add(this.hemisphere);

    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener('change', () => { this.dirty = true; });

    this.world = new Group();
    this.scene.add(this.world);
    this.bodies = [];
    this.cables = [];
    this.ropes = [];
    this.grids = [];
    this.arrows = [];
    this.forceScale = 0;
    this.maxForce = 0;
    this.showContacts = false;
    this.showForces = false;
    this.lastFrame = null;
    this.skippedShapes = [];
    this.dirty = true;

    const resize = () => {
      const w = Math.max(1, host.clientWidth);
      const h = Math.max(1, host.clientHeight);
      this.renderer.setSize(w, h, false);
      this.camera.aspect = w / h;
      this.camera.updateProjectionMatrix();
      this.dirty = true;
    };
    new ResizeObserver(resize).observe(host);
    resize();

    // Drawn only when something changed: a paused report then costs no GPU (or CPU, in software GL) at all.
    const loop = () => {
      if (this.dirty) this.render();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  render() {
    this.dirty = false;
    this.renderer.render(this.scene, this.camera);
  }

  // Builds the objects of a header (replay or live `scene` message); `sampleFrames` give the extent to frame.
  load(header, sampleFrames) {
    this.world.clear();
    this.bodies = [];
    this.cables = [];
    this.ropes = [];
    this.grids = [];
    this.arrows = [];
    this.skippedShapes = [];
    this.up = vec(header.up || [0, 0, 1]).normalize();
    this.camera.up.copy(this.up);

    (header.bodies || []).forEach((body, index) => {
      const group = new Group();
      group.name = body.name || `body ${index}`;
      const colour = BODY_COLOURS[index % BODY_COLOURS.length];
      for (const shape of body.shapes || []) this.addShape(group, shape, colour);
      this.world.add(group);
      this.bodies.push(group);
    });

    const bounds = new Bounds();
    const planes = [];
    for (const shape of header.static_shapes || []) {
      if (shape.type === 'plane') {
        planes.push(shape);
        continue;
      }
      this.addShape(this.world, shape, STATIC_COLOUR);
      bounds.add(vec(shape.position));
    }

    for (const cable of header.cables || []) {
      const material = new MeshLambertMaterial({ color: CABLE_COLOUR });
      // The tube has the cable's true radius; the line over it keeps a thin cable visible from afar.
      const line = new Line(new BufferGeometry(), new LineBasicMaterial({ color: CABLE_COLOUR }));
      this.world.add(line);
      this.cables.push({ radius: cable.radius || 0.01, material, mesh: null, line: new GrowingPoints(line) });
    }
    for (let r = 0; r < (header.ropes || []).length; ++r) {
      const line = new Line(new BufferGeometry(), new LineBasicMaterial({ color: 0x5a3d1e }));
      this.world.add(line);
      this.ropes.push(new GrowingPoints(line));
    }

    const contactPoints = new Points(new BufferGeometry(),
      new PointsMaterial({ color: CONTACT_COLOUR, size: 7, sizeAttenuation: false, depthTest: false }));
    contactPoints.renderOrder = 2;
    this.world.add(contactPoints);
    this.contacts = new GrowingPoints(contactPoints);
    this.contacts.set([], 7, 0);
    this.forceGroup = new Group();
    this.world.add(this.forceGroup);

    for (const frame of sampleFrames || []) bounds.addFrame(frame);
    this.center = bounds.center();
    this.radius = Math.max(1, bounds.radius(this.center));

    const gridSize = Math.max(20, 10 * Math.ceil((4 * this.radius) / 10));
    for (const plane of planes) this.addPlane(plane, gridSize);
    this.resetCamera();
    this.applyVisibility();
    this.dirty = true;
  }

  addShape(parent, shape, colour) {
    const geometry = shapeGeometry(shape);
    if (!geometry) {
      this.skippedShapes.push(shape.type);
      return;
    }
    const mesh = new Mesh(geometry, new MeshLambertMaterial({ color: colour }));
    mesh.position.copy(vec(shape.position));
    mesh.quaternion.copy(quat(shape.orientation));
    // Outlines of the sharp edges: boxes read as boxes even where two faces get the same light.
    const edges = new LineSegments(new EdgesGeometry(geometry, 30),
      new LineBasicMaterial({ color: new Color(colour).multiplyScalar(0.45) }));
    mesh.add(edges);
    parent.add(mesh);
  }

  // A plane as a ground square and a 1 m grid on it (three's GridHelper lies in x-z, normal +y).
  addPlane(plane, size) {
    const normal = vec(plane.normal || [0, 0, 1]).normalize();
    const origin = normal.clone().multiplyScalar(plane.offset || 0);
    const ground = new Mesh(new PlaneGeometry(size, size),
      new MeshLambertMaterial({ color: 0xdde2e8, side: DoubleSide, polygonOffset: true,
        polygonOffsetFactor: 1, polygonOffsetUnits: 1 }));
    ground.quaternion.setFromUnitVectors(new Vector3(0, 0, 1), normal);
    ground.position.copy(origin);
    this.world.add(ground);
    const divisions = Math.min(200, size);
    const grid = new GridHelper(size, divisions, 0x4f5968, 0x7d8796);
    grid.quaternion.setFromUnitVectors(new Vector3(0, 1, 0), normal);
    grid.position.copy(origin);
    this.world.add(grid);
    this.grids.push(grid);
  }

  resetCamera() {
    const up = this.up;
    // Two directions across `up`, to look at the scene from the front, a little to the side and above.
    const across = Math.abs(up.x) < 0.9 ? new Vector3(1, 0, 0) : new Vector3(0, 1, 0);
    const h1 = across.sub(up.clone().multiplyScalar(across.dot(up))).normalize();
    const h2 = new Vector3().crossVectors(up, h1);
    const direction = h1.multiplyScalar(0.55).add(h2.multiplyScalar(-0.75)).add(up.clone().multiplyScalar(0.45))
      .normalize();
    const distance = (0.9 * this.radius) / Math.sin((this.camera.fov * Math.PI) / 360);
    this.camera.position.copy(this.center).add(direction.multiplyScalar(distance));
    this.camera.near = Math.max(0.01, this.radius / 200);
    this.camera.far = distance * 20 + 100 * this.radius;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(this.center);
    this.controls.update();
    this.dirty = true;
  }

  // Arrows are scaled so that the largest force seen (over the replay, or so far live) is a fifth of the scene.
  noteForces(maxForce) {
    if (maxForce > this.maxForce) {
      this.maxForce = maxForce;
      this.forceScale = (0.4 * this.radius) / maxForce;
    }
  }

  setOptions({ contacts, forces, grid }) {
    if (contacts !== undefined) this.showContacts = contacts;
    if (forces !== undefined) this.showForces = forces;
    if (grid !== undefined) for (const g of this.grids) g.visible = grid;
    this.applyVisibility();
    if (this.lastFrame) this.setFrame(this.lastFrame);
    this.dirty = true;
  }

  applyVisibility() {
    if (this.contacts) this.contacts.object.visible = this.showContacts;
    if (this.forceGroup) this.forceGroup.visible = this.showForces;
  }

  setFrame(frame) {
    this.lastFrame = frame;
    const poses = frame.bodies || [];
    this.bodies.forEach((group, i) => {
      const o = 7 * i;
      if (poses[o] === null || poses[o] === undefined) {
        group.visible = false;
        return;
      }
      group.visible = true;
      group.position.set(poses[o], poses[o + 1], poses[o + 2]);
      group.quaternion.set(poses[o + 4], poses[o + 5], poses[o + 6], poses[o + 3]);
    });

    this.cables.forEach((cable, c) => {
      const nodes = frame.cables ? frame.cables[c] : null;
      if (cable.mesh) {
        this.world.remove(cable.mesh);
        cable.mesh.geometry.dispose();
        cable.mesh = null;
      }
      if (!nodes || nodes.length < 6) {
        cable.line.set([], 3, 0);
        return;
      }
      const points = [];
      for (let i = 0; i + 2 < nodes.length; i += 3) points.push(new Vector3(nodes[i], nodes[i + 1], nodes[i + 2]));
      const curve = new CatmullRomCurve3(points);
      cable.mesh = new Mesh(new TubeGeometry(curve, 4 * points.length, cable.radius, 8, false), cable.material);
      this.world.add(cable.mesh);
      cable.line.set(nodes, 3, points.length);
    });

    this.ropes.forEach((rope, r) => {
      const path = frame.ropes ? frame.ropes[r] : null;
      rope.set(path || [], 3, path ? Math.floor(path.length / 3) : 0);
    });

    const contacts = frame.contacts || [];
    const count = Math.floor(contacts.length / 7);
    if (this.showContacts) this.contacts.set(contacts, 7, count);
    if (this.showForces) this.setArrows(contacts, count);
    this.dirty = true;
  }

  setArrows(contacts, count) {
    while (this.arrows.length < count) {
      const arrow = new ArrowHelper(new Vector3(0, 0, 1), new Vector3(), 1, FORCE_COLOUR);
      this.forceGroup.add(arrow);
      this.arrows.push(arrow);
    }
    const direction = new Vector3();
    this.arrows.forEach((arrow, i) => {
      if (i >= count) {
        arrow.visible = false;
        return;
      }
      const o = 7 * i;
      const length = contacts[o + 6] * this.forceScale;
      if (!(length > 1e-6)) {
        arrow.visible = false;
        return;
      }
      arrow.visible = true;
      arrow.position.set(contacts[o], contacts[o + 1], contacts[o + 2]);
      arrow.setDirection(direction.set(contacts[o + 3], contacts[o + 4], contacts[o + 5]).normalize());
      const head = Math.min(0.3 * length, 0.08 * this.radius);
      arrow.setLength(length, head, 0.5 * head);
    });
  }

  // The drawn pixels, read straight after drawing (the canvas keeps no copy): for the tests.
  readPixels() {
    this.render();
    const gl = this.renderer.getContext();
    const width = gl.drawingBufferWidth;
    const height = gl.drawingBufferHeight;
    const data = new Uint8Array(4 * width * height);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, data);
    return { width, height, data };
  }
}

// The extent of what moves: body positions and cable nodes of some frames, plus the static shapes.
class Bounds {
  constructor() {
    this.points = [];
  }

  add(p) {
    if (Number.isFinite(p.x) && Number.isFinite(p.y) && Number.isFinite(p.z)) this.points.push(p);
  }

  addFrame(frame) {
    const poses = frame.bodies || [];
    for (let o = 0; o + 2 < poses.length; o += 7) {
      if (poses[o] !== null) this.add(new Vector3(poses[o], poses[o + 1], poses[o + 2]));
    }
    for (const nodes of frame.cables || []) {
      if (!nodes) continue;
      for (let o = 0; o + 2 < nodes.length; o += 3) this.add(new Vector3(nodes[o], nodes[o + 1], nodes[o + 2]));
    }
  }

  center() {
    if (this.points.length === 0) return new Vector3();
    const min = this.points[0].clone();
    const max = this.points[0].clone();
    for (const p of this.points) {
      min.min(p);
      max.max(p);
    }
    return min.add(max).multiplyScalar(0.5);
  }

  radius(center) {
    let r = 0;
    for (const p of this.points) r = Math.max(r, p.distanceTo(center));
    // Bodies have size: half a metre more than their centres keeps the largest of them in the picture.
    return r + 0.5;
  }
}
