// gyrolab web page: plays back a scene's or a lesson's recorded runs in any browser.
// The data (see the JSON in #gyrolab-data) holds every lane's poses frame by frame; this
// script draws them with three.js (global THREE), interpolates between frames, draws the
// dock's plots on 2D canvases and, for a lesson, walks its steps as the desktop app does:
// nothing of a run is shown before its question is answered, and no time past the runs
// reached so far may be seen.
(function () {
  "use strict";

  const BACKGROUND = 0x1e1e24;
  const FRAME_GREY = 0x6b756b;
  const NO_WEBGL = "This browser cannot draw 3D (WebGL is off); the plots and the lesson still work.";
  const JOINT_COLOR = 0x8cd9ff; // the app's joints: sRGB (0.55, 0.85, 1.0)
  const GRID_COLOR = 0x8c99a6;
  const GHOST_OPACITY = 0.22;
  const LOOK_DOWN_DEG = 24;
  const EPS = 1e-6;
  const LETTERS = "abcdefghijklmnopqrstuvwxyz";

  // ------------------------------------------------------------------ helpers

  const $ = (id) => document.getElementById(id);

  /** An element with attributes (class, text, on*-handlers, data-*, others) and children. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
  const num = (x, fallback) => (typeof x === "number" && isFinite(x) ? x : fallback);
  const vec3 = (a, fallback) => (Array.isArray(a) && a.length >= 3 ? a.map(Number) : fallback);

  /** A number as the app shows a measurement: four decimals, or exponent form when tiny or huge. */
  function fmt(x) {
    if (typeof x !== "number" || !isFinite(x)) return "—";
    const ax = Math.abs(x);
    if (ax !== 0 && (ax < 1e-3 || ax >= 1e6)) return x.toExponential(3);
    return x.toFixed(4);
  }

  /** A number without trailing zeros, for values given by the lesson (3.7, not 3.7000). */
  function plain(x) {
    if (typeof x !== "number" || !isFinite(x)) return "—";
    return String(Number(x.toPrecision(6)));
  }

  /** A unit ready to follow a number: the app's units carry a leading space, the schema's do not. */
  function unitText(unit) {
    const u = String(unit || "").trim();
    return u ? " " + u : "";
  }

  function toleranceText(tol) {
    const t = String(tol === null || tol === undefined ? "" : tol).trim();
    if (!t) return "";
    return t.startsWith("±") ? t : "± " + t;
  }

  /** base64 of little-endian f32s; DataView reads them the same on any machine. */
  function decodeF32(b64) {
    if (typeof b64 !== "string" || b64.length === 0) return new Float32Array(0);
    let bin;
    try {
      bin = atob(b64);
    } catch (e) {
      console.warn("gyrolab: bad base64 in the data", e);
      return new Float32Array(0);
    }
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const view = new DataView(bytes.buffer);
    const out = new Float32Array(bytes.length >> 2);
    for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(4 * i, true);
    return out;
  }

  /** The recorded frames around time t: indices i0, i1 and the fraction a between them. */
  function locate(times, t) {
    const n = times.length;
    if (n <= 1 || t <= times[0]) return { i0: 0, i1: 0, a: 0 };
    if (t >= times[n - 1]) return { i0: n - 1, i1: n - 1, a: 0 };
    let lo = 0;
    let hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (times[mid] <= t) lo = mid;
      else hi = mid;
    }
    const span = times[hi] - times[lo];
    return { i0: lo, i1: hi, a: span > 0 ? (t - times[lo]) / span : 0 };
  }

  /** How many of the sorted times are at or before t; none while nothing has been seen. */
  function countUpTo(times, t, n) {
    if (!(t > 0)) return 0;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // ------------------------------------------------------------------ data

  function readData() {
    try {
      return JSON.parse($("gyrolab-data").textContent);
    } catch (e) {
      console.error("gyrolab: the page's data cannot be read", e);
      return {};
    }
  }

  const data = readData();
  const steps = Array.isArray(data.steps) ? data.steps : [];
  const isLesson = data.kind === "lesson" && steps.length > 0;

  /** A part as the page uses it; its poses are decoded the first time they are needed. */
  function preparePart(raw) {
    const times = (Array.isArray(raw.times) ? raw.times : []).map(Number);
    const lanes = Array.isArray(raw.lanes) && raw.lanes.length
      ? raw.lanes
      : [{ name: "", color: "#4d8cf2", offset: [0, 0, 0] }];
    const last = times.length ? times[times.length - 1] : 0;
    return {
      raw,
      lanes: lanes.map((l, i) => ({
        name: l.name || "lane " + (i + 1),
        color: l.color || "#4d8cf2",
        offset: vec3(l.offset, [0, 0, 0]),
      })),
      ghost: !!raw.ghost,
      bodies: Array.isArray(raw.bodies) ? raw.bodies : [],
      frames: Array.isArray(raw.frames) ? raw.frames : [],
      planes: Array.isArray(raw.planes) ? raw.planes : [],
      plots: Array.isArray(raw.plots) ? raw.plots : [],
      joints: Number.isInteger(raw.joints) && raw.joints > 0 ? raw.joints : 0,
      note: raw.note || null,
      times,
      end: last, // the last frame's time
      decoded: false,
    };
  }

  const parts = (Array.isArray(data.parts) ? data.parts : []).map(preparePart);

  /** Decodes a part's poses, trimming frames the data does not hold and a ghost it lacks. */
  function decodePart(part) {
    if (part.decoded) return part;
    part.decoded = true;
    const poses = decodeF32(part.raw.poses);
    const nb = part.bodies.length;
    const lanes = part.lanes.length;
    let frames = part.times.length;
    if (nb > 0) {
      const perFrame = (runs) => runs * nb * 7;
      if (part.ghost && poses.length < frames * perFrame(lanes + 1)) {
        console.warn("gyrolab: the ghost's poses are missing; drawn without it");
        part.ghost = false;
      }
      frames = Math.min(frames, Math.floor(poses.length / perFrame(lanes + (part.ghost ? 1 : 0))));
    }
    const framePoses = decodeF32(part.raw.frame_poses);
    if (part.frames.length > 0 && framePoses.length < frames * part.frames.length * 8) {
      console.warn("gyrolab: moving frames' poses are missing; frames not drawn");
      part.frames = [];
    }
    if (frames < part.times.length) {
      console.warn("gyrolab: the data holds " + frames + " of " + part.times.length + " frames");
      part.times = part.times.slice(0, frames);
      part.end = Math.min(part.end, frames ? part.times[frames - 1] : 0);
    }
    const jointEnds = decodeF32(part.raw.joint_ends);
    if (part.joints > 0 && jointEnds.length < frames * lanes * part.joints * 6) {
      console.warn("gyrolab: the joints' ends are missing; joints not drawn");
      part.joints = 0;
    }
    part.poses = poses;
    part.framePoses = framePoses;
    part.jointEnds = jointEnds;
    part.runs = lanes + (part.ghost ? 1 : 0);
    return part;
  }

  const qScratch = [0, 0, 0, 1]; // slerpFlat's output, reused every call

  const poseIndex = (part, frame, run, body) =>
    ((frame * part.runs + run) * part.bodies.length + body) * 7;

  /** Body `body` of run `run` at the moment `where` (from locate): position into `pos`,
   *  rotation into `quat` (THREE.Vector3, THREE.Quaternion). */
  function bodyPose(part, run, body, where, pos, quat) {
    const p = part.poses;
    const j0 = poseIndex(part, where.i0, run, body);
    const j1 = poseIndex(part, where.i1, run, body);
    lerpInto(p, j0, j1, where.a, pos);
    THREE.Quaternion.slerpFlat(qScratch, 0, p, j0 + 3, p, j1 + 3, where.a);
    quat.fromArray(qScratch);
  }

  /** Moving frame f at the moment `where`: position and rotation as bodyPose; returns its scale. */
  function framePose(part, f, where, pos, quat) {
    const p = part.framePoses;
    const n = part.frames.length;
    const j0 = (where.i0 * n + f) * 8;
    const j1 = (where.i1 * n + f) * 8;
    lerpInto(p, j0, j1, where.a, pos);
    THREE.Quaternion.slerpFlat(qScratch, 0, p, j0 + 3, p, j1 + 3, where.a);
    quat.fromArray(qScratch);
    return p[j0 + 7] + (p[j1 + 7] - p[j0 + 7]) * where.a;
  }

  function lerpInto(p, j0, j1, a, out) {
    out.x = p[j0] + (p[j1] - p[j0]) * a;
    out.y = p[j0 + 1] + (p[j1 + 1] - p[j0 + 1]) * a;
    out.z = p[j0 + 2] + (p[j1 + 2] - p[j0 + 2]) * a;
    return out;
  }

  // ------------------------------------------------------------------ state

  const state = {
    part: 0,
    time: 0,
    playing: false,
    speed: 1,
    ready: false,
    at: 0, // the lesson's step shown
    furthest: 0, // the furthest step reached
    answers: steps.map(() => null),
    timeOf: parts.map(() => 0), // each part's time, kept while another part is shown
    seen: parts.map(() => 0), // the furthest time each part has been shown at
  };

  const currentPart = () => parts[state.part];

  function stepPart(k) {
    const p = steps[k] && Number.isInteger(steps[k].part) ? steps[k].part : 0;
    return clamp(p, 0, Math.max(0, parts.length - 1));
  }

  /** How far the part shown may be seen: all of a scene; in a lesson, to the end of the
   *  furthest run reached in this part (0 while its first question is unanswered). */
  function visibleEnd() {
    const part = currentPart();
    if (!part) return 0;
    if (!isLesson) return part.end;
    let end = 0;
    for (let k = 0; k <= state.furthest && k < steps.length; k++) {
      const s = steps[k];
      if (s.kind === "run" && stepPart(k) === state.part) end = Math.max(end, num(s.end, num(s.until, 0)));
    }
    return Math.min(end, part.end);
  }

  /** How far the plots are drawn: a scene's whole recording; a lesson's only as far as seen. */
  function plotLimit() {
    return isLesson ? state.seen[state.part] : Infinity;
  }

  function runDone(k) {
    const s = steps[k];
    const p = stepPart(k);
    const end = Math.min(num(s.end, num(s.until, 0)), parts[p].end);
    return state.seen[p] >= end - EPS;
  }

  /** Whether the student may go on from the step shown: an answer given, a run seen to its end. */
  function canGoOn() {
    if (state.at + 1 >= steps.length) return false;
    const s = steps[state.at];
    if (s.kind === "question") return state.answers[state.at] !== null;
    if (s.kind === "run") return runDone(state.at);
    return true;
  }

  /** A question's answer may change only while the lesson has not gone past it. */
  const mayAnswer = (k) => k === state.furthest && steps[k] && steps[k].kind === "question";

  // ------------------------------------------------------------------ 3D view

  const viewBox = $("view");
  const labelsBox = $("labels");
  const three = make3D();

  /** The renderer, camera, lights and controls; null (with a message) where WebGL fails. */
  function make3D() {
    if (typeof THREE === "undefined" || !THREE.OrbitControls) {
      showViewMessage("The page's three.js is missing: nothing can be drawn in 3D.");
      return null;
    }
    let renderer;
    try {
      renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch (e) {
      console.error("gyrolab: WebGL is not available", e);
      showViewMessage(NO_WEBGL);
      return null;
    }
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    viewBox.prepend(renderer.domElement);
    const scene = new THREE.Scene();
    scene.background = new THREE.Color(BACKGROUND);
    scene.add(new THREE.HemisphereLight(0xe8eef8, 0x34343e, 1.7));
    const sun = new THREE.DirectionalLight(0xffffff, 2.0);
    sun.position.set(4, 10, 6);
    scene.add(sun);
    const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
    const controls = new THREE.OrbitControls(camera, renderer.domElement);
    controls.addEventListener("change", requestDraw);
    return { renderer, scene, camera, controls, views: [], shown: null, home: null };
  }

  function showViewMessage(text) {
    const box = $("view-message");
    box.hidden = !text;
    box.textContent = text || "";
  }

  const geometryCache = new Map();

  function shapeKey(s) {
    const r = num(s.radius, 0.1).toFixed(5);
    const l = num(s.length, 0).toFixed(5);
    switch (s.kind) {
      case "sphere": return "sphere:" + r;
      case "box": return "box:" + vec3(s.half_extents, [0.1, 0.1, 0.1]).map((x) => x.toFixed(5)).join(",");
      case "cylinder": return "cylinder:" + r + ":" + l;
      case "capsule": return "capsule:" + r + ":" + l;
      default: return null;
    }
  }

  /** A shape's geometry, shared by every body, lane and frame that has the same one. */
  function geometryFor(s) {
    const key = shapeKey(s);
    if (key === null) return null;
    if (!geometryCache.has(key)) {
      const r = num(s.radius, 0.1);
      const l = num(s.length, 0);
      let g;
      if (s.kind === "sphere") g = shaded(new THREE.SphereGeometry(r, 32, 16), true);
      else if (s.kind === "cylinder") g = shaded(new THREE.CylinderGeometry(r, r, l, 32), false);
      else if (s.kind === "capsule") g = shaded(new THREE.CapsuleGeometry(r, l, 8, 24), false);
      else {
        const h = vec3(s.half_extents, [0.1, 0.1, 0.1]);
        g = shaded(new THREE.BoxGeometry(2 * h[0], 2 * h[1], 2 * h[2]), null);
      }
      geometryCache.set(key, g);
    }
    return geometryCache.get(key);
  }

  /** Vertex colours that darken alternate quadrants about the local Y axis (octants for a
   *  sphere), so that a spinning round body is seen to spin; a box's faces show it anyway. */
  function shaded(geometry, octants) {
    const pos = geometry.attributes.position;
    const colors = new Float32Array(pos.count * 3);
    for (let i = 0; i < pos.count; i++) {
      let sign = (pos.getX(i) >= 0) === (pos.getZ(i) >= 0);
      if (octants) sign = sign === (pos.getY(i) >= 0);
      const shade = octants === null || sign ? 1 : 0.74;
      colors.fill(shade, 3 * i, 3 * i + 3);
    }
    geometry.setAttribute("color", new THREE.BufferAttribute(colors, 3));
    return geometry;
  }

  /** A shape's bounding radius about its body's origin, for framing. */
  function shapeReach(s) {
    const off = Math.hypot(...vec3(s.offset, [0, 0, 0]));
    const r = num(s.radius, 0);
    const l = num(s.length, 0);
    if (s.kind === "box") return off + Math.hypot(...vec3(s.half_extents, [0, 0, 0]));
    if (s.kind === "cylinder") return off + Math.hypot(r, l / 2);
    if (s.kind === "capsule") return off + r + l / 2;
    return off + r;
  }

  function localMatrix(s) {
    const q = Array.isArray(s.rotation) && s.rotation.length === 4 ? s.rotation : [0, 0, 0, 1];
    return new THREE.Matrix4().compose(
      new THREE.Vector3(...vec3(s.offset, [0, 0, 0])),
      new THREE.Quaternion(q[0], q[1], q[2], q[3]).normalize(),
      new THREE.Vector3(1, 1, 1),
    );
  }

  /** The bodies' shapes grouped by geometry: one InstancedMesh per group and lane. */
  function shapeGroups(part) {
    const groups = new Map();
    part.bodies.forEach((body, b) => {
      for (const s of body.parts || []) {
        const geometry = geometryFor(s);
        if (!geometry) continue;
        const key = shapeKey(s);
        if (!groups.has(key)) groups.set(key, { geometry, items: [] });
        groups.get(key).items.push({ body: b, local: localMatrix(s) });
      }
    });
    return [...groups.values()];
  }

  function instanced(groups, material, parent) {
    return groups.map((g) => {
      const mesh = new THREE.InstancedMesh(g.geometry, material, g.items.length);
      // The instances move every frame: a bounding sphere computed once would cull them.
      mesh.frustumCulled = false;
      mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      parent.add(mesh);
      return mesh;
    });
  }

  /** A moving frame's parts, grey, in a group posed every frame. */
  function frameGroup(frame, material) {
    const group = new THREE.Group();
    for (const s of frame.parts || []) {
      const geometry = geometryFor(s);
      if (!geometry) continue;
      const mesh = new THREE.Mesh(geometry, material);
      mesh.matrixAutoUpdate = false;
      mesh.matrix.copy(localMatrix(s));
      group.add(mesh);
    }
    return group;
  }

  /** Everything drawn for one part: the lanes (bodies, ghost, moving frames) and the ground. */
  function buildPartView(p) {
    const part = decodePart(parts[p]);
    const world = new THREE.Group();
    world.matrixAutoUpdate = false;
    const groups = shapeGroups(part);
    // Pushed back in depth: where a lane matches the exact solution its ghost is hidden
    // rather than flickering through the body; it shows where they part.
    const ghostMaterial = new THREE.MeshStandardMaterial({
      color: 0xffffff, roughness: 0.45, transparent: true, opacity: GHOST_OPACITY, depthWrite: false,
      polygonOffset: true, polygonOffsetFactor: 2, polygonOffsetUnits: 2,
    });
    const frameMaterial = new THREE.MeshStandardMaterial({ color: FRAME_GREY, roughness: 0.6, vertexColors: true });
    const lanes = part.lanes.map((lane, i) => {
      const group = new THREE.Group();
      group.position.fromArray(lane.offset);
      const material = new THREE.MeshStandardMaterial({
        color: new THREE.Color(lane.color), roughness: 0.45, metalness: 0.05, vertexColors: true,
      });
      world.add(group);
      return {
        group,
        run: i,
        bodies: instanced(groups, material, group),
        ghost: part.ghost ? instanced(groups, ghostMaterial, group) : null,
        frames: part.frames.map((f) => {
          const g = frameGroup(f, frameMaterial);
          group.add(g);
          return g;
        }),
        joints: jointLines(part, group),
      };
    });
    const pv = {
      part, world, groups, lanes,
      bodyMatrices: [...Array(part.runs)].map(() => part.bodies.map(() => new THREE.Matrix4())),
      // Each body's reach from its centre: room to frame it, and where its lane's label goes.
      reach: part.bodies.map((body) => Math.max(0.05, ...(body.parts || []).map(shapeReach))),
    };
    pv.box = sceneBox(pv);
    const travel = travelBox(part).union(pv.box);
    for (const plane of part.planes) world.add(groundFor(plane, travel));
    pv.labels = laneLabels(pv);
    return pv;
  }

  /** A lane's joints as line segments from the anchor on the first body to the anchor on
   *  the second (a rope, a rod, a spring's ends; a ball joint's two anchors meet). */
  function jointLines(part, group) {
    if (part.joints === 0) return null;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(part.joints * 6), 3));
    const lines = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: JOINT_COLOR }));
    lines.frustumCulled = false;
    group.add(lines);
    return lines;
  }

  /** Lane `lane`'s joint ends at the moment `where` into its lines; a broken joint (NaN)
   *  collapses to nothing. */
  function placeJoints(part, lane, where, lines) {
    const ends = part.jointEnds;
    const out = lines.geometry.attributes.position.array;
    const n = part.joints * 6;
    const j0 = (where.i0 * part.lanes.length + lane) * n;
    const j1 = (where.i1 * part.lanes.length + lane) * n;
    for (let k = 0; k < n; k++) {
      const v = ends[j0 + k] + (ends[j1 + k] - ends[j0 + k]) * where.a;
      out[k] = Number.isFinite(v) ? v : 0;
    }
    for (let k = 0; k < n; k += 6) {
      if (!Number.isFinite(ends[j0 + k]) || !Number.isFinite(ends[j1 + k])) out.fill(0, k, k + 6);
    }
    lines.geometry.attributes.position.needsUpdate = true;
  }

  /** The box holding shapes placed by matrix m (a body's or a moving frame's pose). */
  function shapesBox(shapes, m) {
    const box = new THREE.Box3();
    const placed = new THREE.Matrix4();
    for (const s of shapes || []) {
      const geometry = geometryFor(s);
      if (!geometry) continue;
      if (!geometry.boundingBox) geometry.computeBoundingBox();
      box.union(geometry.boundingBox.clone().applyMatrix4(placed.multiplyMatrices(m, localMatrix(s))));
    }
    return box;
  }

  /** The box to frame: every lane's bodies at the first frame, each with room to turn (a
   *  sphere 1.4 times its reach, as the app frames them), the moving frames, and a
   *  horizontal ground below them. */
  function sceneBox(pv) {
    const part = pv.part;
    const box = new THREE.Box3();
    const where = { i0: 0, i1: 0, a: 0 };
    const pos = new THREE.Vector3();
    const quat = new THREE.Quaternion();
    const m = new THREE.Matrix4();
    const lanes = part.times.length > 0 ? part.lanes : [];
    lanes.forEach((lane, i) => {
      const off = new THREE.Vector3().fromArray(lane.offset);
      part.bodies.forEach((body, b) => {
        bodyPose(part, i, b, where, pos, quat);
        pos.add(off);
        box.union(new THREE.Box3().setFromCenterAndSize(pos, new THREE.Vector3().setScalar(2.8 * pv.reach[b])));
      });
      part.frames.forEach((f, k) => {
        const scale = framePose(part, k, where, pos, quat);
        pos.add(off);
        box.union(shapesBox(f.parts, m.compose(pos, quat, new THREE.Vector3().setScalar(scale > 0 ? scale : 1))));
      });
    });
    if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
    pv.bodyBox = box.clone();
    for (const plane of part.planes) {
      const n = new THREE.Vector3(...vec3(plane.normal, [0, 1, 0])).normalize();
      const y = num(plane.offset, 0) / n.y;
      if (n.y > 0.9 && y < box.min.y) box.min.y = y;
    }
    return box;
  }

  /** Where the bodies and moving frames go over the whole recording (every lane), for the
   *  ground's extent: a van that drives off keeps a floor under it. */
  function travelBox(part) {
    const box = new THREE.Box3();
    const p = new THREE.Vector3();
    const add = (values, j, off) => {
      p.set(values[j] + off[0], values[j + 1] + off[1], values[j + 2] + off[2]);
      if (isFinite(p.x) && isFinite(p.y) && isFinite(p.z)) box.expandByPoint(p);
    };
    // About a hundred frames, the last among them, are enough to see where things go.
    const n = part.times.length;
    const stride = Math.max(1, Math.ceil(n / 100));
    const sampled = [];
    for (let f = 0; f < n; f += stride) sampled.push(f);
    if (n > 1 && sampled[sampled.length - 1] !== n - 1) sampled.push(n - 1);
    for (const f of sampled) {
      part.lanes.forEach((lane, i) => {
        for (let b = 0; b < part.bodies.length; b++) add(part.poses, poseIndex(part, f, i, b), lane.offset);
        for (let k = 0; k < part.frames.length; k++) add(part.framePoses, (f * part.frames.length + k) * 8, lane.offset);
      });
    }
    return box;
  }

  /** A ground plane: a 1 m grid and a faint sheet, centred under where the bodies go. */
  function groundFor(plane, box) {
    const n = new THREE.Vector3(...vec3(plane.normal, [0, 1, 0]));
    if (n.lengthSq() === 0) n.set(0, 1, 0);
    n.normalize();
    const d = num(plane.offset, 0);
    const size3 = box.getSize(new THREE.Vector3());
    const size = clamp(2 * Math.ceil((Math.max(size3.x, size3.z) + 10) / 2), 10, 200);
    const c = box.getCenter(new THREE.Vector3());
    // Lines on whole metres of the world: the centre rounded, then put on the plane.
    c.set(Math.round(c.x), Math.round(c.y), Math.round(c.z));
    c.addScaledVector(n, d - n.dot(c));
    const group = new THREE.Group();
    group.position.copy(c);
    group.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), n);
    const grid = new THREE.LineSegments(
      gridGeometry(size),
      new THREE.LineBasicMaterial({ color: GRID_COLOR, transparent: true, opacity: 0.6, depthWrite: false }),
    );
    const sheet = new THREE.Mesh(
      new THREE.PlaneGeometry(size, size),
      new THREE.MeshBasicMaterial({ color: GRID_COLOR, transparent: true, opacity: 0.07, side: THREE.DoubleSide, depthWrite: false }),
    );
    sheet.rotation.x = -Math.PI / 2;
    sheet.position.y = -0.002;
    group.add(sheet, grid);
    return group;
  }

  /** A size × size grid of 1 m squares in the XZ plane, each line cut into 1 m pieces: a
   *  long line that passes behind the camera is dropped whole by some WebGL clippers. */
  function gridGeometry(size) {
    const half = size / 2;
    const points = [];
    for (let i = 0; i <= size; i++) {
      for (let j = 0; j < size; j++) {
        const a = i - half;
        const b = j - half;
        points.push(a, 0, b, a, 0, b + 1, b, 0, a, b + 1, 0, a);
      }
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.Float32BufferAttribute(points, 3));
    return geometry;
  }

  /** Each lane's name, in an HTML label placed each frame by placeLabels. */
  function laneLabels(pv) {
    return pv.part.lanes.map((info) => {
      const node = el("div", { class: "lane-label", text: info.name });
      node.style.color = info.color;
      return node;
    });
  }

  /** Where lane i's label goes, in its lane's coordinates: over the middle of its bodies as
   *  they are now, clear of them whichever way they turn (the CSS lifts it a few pixels more). */
  function labelPoint(pv, i, out) {
    const matrices = pv.bodyMatrices[pv.lanes[i].run];
    out.set(0, 0, 0);
    if (matrices.length === 0) return out;
    let top = -Infinity;
    matrices.forEach((m, b) => {
      const e = m.elements;
      out.x += e[12];
      out.z += e[14];
      top = Math.max(top, e[13] + pv.reach[b]);
    });
    return out.set(out.x / matrices.length, top, out.z / matrices.length);
  }

  /** Poses every body, ghost and moving frame of the part shown at time t. */
  function poseAt(pv, t) {
    const part = pv.part;
    if (part.times.length === 0) return;
    const where = locate(part.times, t);
    const pos = new THREE.Vector3();
    const quat = new THREE.Quaternion();
    const one = new THREE.Vector3(1, 1, 1);
    for (let r = 0; r < part.runs; r++) {
      for (let b = 0; b < part.bodies.length; b++) {
        bodyPose(part, r, b, where, pos, quat);
        pv.bodyMatrices[r][b].compose(pos, quat, one);
      }
    }
    const m = new THREE.Matrix4();
    const place = (meshes, run) => {
      pv.groups.forEach((g, k) => {
        g.items.forEach((item, j) => {
          meshes[k].setMatrixAt(j, m.multiplyMatrices(pv.bodyMatrices[run][item.body], item.local));
        });
        meshes[k].instanceMatrix.needsUpdate = true;
      });
    };
    const ghostRun = part.lanes.length;
    for (const lane of pv.lanes) {
      place(lane.bodies, lane.run);
      if (lane.ghost) place(lane.ghost, ghostRun);
      lane.frames.forEach((g, f) => {
        const scale = framePose(part, f, where, g.position, g.quaternion);
        g.scale.setScalar(scale > 0 ? scale : 1);
      });
      if (lane.joints) placeJoints(part, lane.run, where, lane.joints);
    }
    pv.world.matrix.copy(viewMatrix(part, where));
    pv.world.matrixWorldNeedsUpdate = true;
  }

  /** The matrix from world to the view's coordinates at a moment: with a followed frame,
   *  the inverse of that frame's pose (the world drawn in its coordinates); else identity. */
  function viewMatrix(part, where) {
    const f = data.camera ? data.camera.follow : null;
    const m = new THREE.Matrix4();
    if (Number.isInteger(f) && f >= 0 && f < part.frames.length && part.times.length > 0) {
      const pos = new THREE.Vector3();
      const quat = new THREE.Quaternion();
      framePose(part, f, where, pos, quat);
      m.compose(pos, quat, new THREE.Vector3(1, 1, 1)).invert();
    }
    return m;
  }

  /** Shows part p's view (built the first time) and puts the camera where it starts. */
  function showPartView(p) {
    if (!three || !parts[p]) return;
    if (three.shown) three.scene.remove(three.shown.world);
    if (!three.views[p]) three.views[p] = buildPartView(p);
    const pv = three.views[p];
    three.shown = pv;
    three.scene.add(pv.world);
    labelsBox.replaceChildren(...pv.labels);
    $("view-legend").hidden = !pv.part.ghost;
    resize();
    frameCamera(pv);
  }

  /** Distance from `focus` at which every corner of `box` fits the view, looking along `turn`. */
  function fitDistance(box, focus, turn, fov, aspect) {
    const tanV = 0.9 * Math.tan((fov * Math.PI) / 360); // the app's margin
    const tanH = tanV * aspect;
    const inv = turn.clone().invert();
    let d = 0;
    for (let k = 0; k < 8; k++) {
      const corner = new THREE.Vector3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z);
      const v = corner.sub(focus).applyQuaternion(inv);
      d = Math.max(d, v.z + Math.abs(v.x) / tanH, v.z + Math.abs(v.y) / tanV);
    }
    return d;
  }

  /** The camera as the app places it: the scene's own (moved back as far as the row of lanes
   *  needs), or looking down 24° at the middle of everything, from as near as shows it whole. */
  function frameCamera(pv) {
    const cam = data.camera;
    const { camera, controls } = three;
    let focus;
    let pitch;
    let distance;
    if (cam && Array.isArray(cam.focus)) {
      focus = new THREE.Vector3(...vec3(cam.focus, [0, 0, 0]));
      pitch = (num(cam.pitch_deg, LOOK_DOWN_DEG) * Math.PI) / 180;
      distance = num(cam.distance, 10);
      if (pv.lanes.length > 1) {
        const row = new THREE.Box3(
          new THREE.Vector3(pv.bodyBox.min.x, focus.y, focus.z),
          new THREE.Vector3(pv.bodyBox.max.x, focus.y, focus.z),
        );
        const turn = new THREE.Quaternion().setFromEuler(new THREE.Euler(-pitch, 0, 0, "YXZ"));
        distance = Math.max(distance, fitDistance(row, focus, turn, camera.fov, camera.aspect));
      }
    } else {
      focus = pv.box.getCenter(new THREE.Vector3());
      pitch = (LOOK_DOWN_DEG * Math.PI) / 180;
      const turn = new THREE.Quaternion().setFromEuler(new THREE.Euler(-pitch, 0, 0, "YXZ"));
      distance = fitDistance(pv.box, focus, turn, camera.fov, camera.aspect);
    }
    distance = Math.max(distance, 0.05);
    const eye = new THREE.Vector3(0, 0, distance).applyEuler(new THREE.Euler(-pitch, 0, 0, "YXZ")).add(focus);
    three.home = { eye, focus };
    const size = pv.box.getSize(new THREE.Vector3()).length();
    camera.near = Math.max(0.005, distance / 500);
    camera.far = 20 * (distance + size) + 100;
    camera.updateProjectionMatrix();
    resetView();
  }

  function resetView() {
    if (!three || !three.home) return;
    three.camera.position.copy(three.home.eye);
    three.controls.target.copy(three.home.focus);
    three.controls.update();
    requestDraw();
  }

  function resize() {
    if (!three) return;
    const w = Math.max(1, viewBox.clientWidth);
    const h = Math.max(1, viewBox.clientHeight);
    three.renderer.setSize(w, h, false);
    three.camera.aspect = w / h;
    three.camera.updateProjectionMatrix();
    requestDraw();
  }

  function placeLabels(pv) {
    const w = viewBox.clientWidth;
    const h = viewBox.clientHeight;
    const v = new THREE.Vector3();
    pv.labels.forEach((node, i) => {
      labelPoint(pv, i, v);
      pv.lanes[i].group.localToWorld(v).project(three.camera);
      const visible = v.z < 1 && Math.abs(v.x) < 1.2 && Math.abs(v.y) < 1.2;
      node.style.display = visible ? "" : "none";
      node.style.left = ((v.x + 1) / 2) * w + "px";
      node.style.top = ((1 - v.y) / 2) * h + "px";
    });
  }

  function draw3D() {
    if (!three || !three.shown) return;
    poseAt(three.shown, state.time);
    three.shown.world.updateMatrixWorld(true);
    three.renderer.render(three.scene, three.camera);
    placeLabels(three.shown);
  }

  // ------------------------------------------------------------------ plots

  const plotsBox = $("plots");
  let plotViews = [];

  /** A plot's series, decoded, their values on the plot's scale (log10|y| when log). */
  function preparePlot(plot) {
    const log = !!plot.log;
    const series = (Array.isArray(plot.series) ? plot.series : []).map((s) => {
      const t = decodeF32(s.t);
      const yRaw = decodeF32(s.y);
      const n = Math.min(t.length, yRaw.length);
      const y = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        const v = yRaw[i];
        y[i] = log ? (v !== 0 && isFinite(v) ? Math.log10(Math.abs(v)) : NaN) : v;
      }
      return { name: s.name || "", color: s.color || "#cccccc", dashed: !!s.dashed, t, y, n };
    });
    return { title: plot.title || "", unit: plot.unit || "", log, series };
  }

  function buildPlots(part) {
    plotViews = part.plots.map((raw) => {
      const plot = preparePlot(raw);
      const canvas = el("canvas", { role: "img", "aria-label": plot.title });
      const box = el("div", { class: "plot" }, canvas);
      return { plot, canvas, box };
    });
    plotsBox.replaceChildren(...plotViews.map((v) => v.box));
  }

  /** Tick values in [lo, hi] at 1, 2 or 5 times a power of ten: the widest spacing that
   *  still gives at least `count` of them. */
  function niceTicks(lo, hi, count) {
    const span = hi - lo;
    if (!(span > 0)) return [lo];
    const mag = Math.pow(10, Math.floor(Math.log10(span)));
    const steps = [5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01].map((k) => k * mag);
    const ticksFor = (step) => {
      const ticks = [];
      for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
        ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
      }
      return ticks;
    };
    for (const step of steps) {
      const ticks = ticksFor(step);
      if (ticks.length >= count) return ticks;
    }
    return ticksFor(steps[steps.length - 1]);
  }

  const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

  /** A tick's label, with as many digits as the spacing of the ticks needs. */
  function tickLabel(v, step, log) {
    if (log) return "10" + String(Math.round(v)).replace(/./g, (c) => SUPERSCRIPT[c] || c);
    if (v === 0) return "0";
    const a = Math.abs(v);
    const spacing = Math.floor(Math.log10(step > 0 ? step : a));
    if (a < 1e-3 || a >= 1e6) {
      return v.toExponential(clamp(Math.floor(Math.log10(a)) - spacing, 0, 6)).replace("e+", "e");
    }
    return v.toFixed(clamp(-spacing, 0, 10));
  }


  /** The y range of what is drawn (samples at or before `limit`), padded; null if nothing. */
  function yRange(plot, limit) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of plot.series) {
      const n = countUpTo(s.t, limit, s.n);
      for (let i = 0; i < n; i++) {
        const y = s.y[i];
        if (y < lo) lo = y;
        if (y > hi) hi = y;
      }
    }
    if (!(lo <= hi)) return null;
    if (plot.log) return [Math.floor(lo), Math.max(Math.ceil(hi), Math.floor(lo) + 1)];
    if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) {
      const pad = Math.abs(hi) > 0 ? Math.abs(hi) * 0.1 : 1;
      return [lo - pad, hi + pad];
    }
    const pad = 0.06 * (hi - lo);
    return [lo - pad, hi + pad];
  }

  /** A series' line, one vertical stroke per pixel column where samples crowd, broken at
   *  gaps (a zero on a log scale); returns how many samples it drew. */
  function traceSeries(ctx, s, n, X, Y) {
    ctx.beginPath();
    let col = null;
    let first = 0;
    let lo = 0;
    let hi = 0;
    let last = 0;
    let pen = false;
    const flush = () => {
      if (col === null) return;
      if (pen) ctx.lineTo(col, Y(first));
      else ctx.moveTo(col, Y(first));
      ctx.lineTo(col, Y(lo));
      ctx.lineTo(col, Y(hi));
      ctx.lineTo(col, Y(last));
      pen = true;
      col = null;
    };
    let finite = 0;
    for (let i = 0; i < n; i++) {
      const y = s.y[i];
      if (!isFinite(y)) {
        flush();
        pen = false;
        continue;
      }
      finite += 1;
      const px = Math.round(X(s.t[i]) * 2) / 2;
      if (px !== col) {
        flush();
        col = px;
        first = lo = hi = y;
      } else {
        lo = Math.min(lo, y);
        hi = Math.max(hi, y);
      }
      last = y;
    }
    flush();
    ctx.stroke();
    return finite;
  }

  function drawPlot(pv, cursor, limit, end) {
    const { canvas, plot } = pv;
    const dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    if (w === 0 || h === 0) return;
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
    }
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.font = "600 12px system-ui, sans-serif";
    const title = plot.title + (plot.unit ? " (" + plot.unit + ")" : "") + (plot.log ? "  log₁₀|y|" : "");
    ctx.fillStyle = "#e4e4ea";
    ctx.textBaseline = "top";
    ctx.textAlign = "left";
    ctx.fillText(title, 8, 6);
    const legendRows = drawLegend(ctx, plot, w, 8 + ctx.measureText(title).width + 16);
    const box = { left: 50, right: w - 10, top: 28 + 14 * legendRows, bottom: h - 20 };
    if (box.right - box.left < 20 || box.bottom - box.top < 20) return;
    const range = yRange(plot, limit) || (plot.log ? [-3, 0] : [0, 1]);
    const xEnd = end > 0 ? end : 1;
    const X = (t) => box.left + (t / xEnd) * (box.right - box.left);
    const Y = (y) => box.bottom - ((y - range[0]) / (range[1] - range[0])) * (box.bottom - box.top);
    drawAxes(ctx, box, range, xEnd, plot.log, X, Y);
    ctx.save();
    ctx.beginPath();
    ctx.rect(box.left, box.top - 1, box.right - box.left, box.bottom - box.top + 2);
    ctx.clip();
    ctx.lineWidth = 1.6;
    ctx.lineJoin = "round";
    let samples = 0;
    let drawn = 0;
    for (const s of plot.series) {
      const n = countUpTo(s.t, limit, s.n);
      samples += n;
      ctx.strokeStyle = s.color;
      ctx.setLineDash(s.dashed ? [6, 4] : []);
      drawn += traceSeries(ctx, s, n, X, Y);
    }
    ctx.restore();
    ctx.setLineDash([]);
    if (drawn === 0) {
      ctx.fillStyle = "#9a9aa8";
      ctx.font = "12px system-ui, sans-serif";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      const why = samples === 0 ? "nothing run yet" : plot.log ? "zero so far (nothing to draw on a log scale)" : "no values";
      ctx.fillText(why, (box.left + box.right) / 2, (box.top + box.bottom) / 2);
    }
    const cx = X(clamp(cursor, 0, xEnd));
    ctx.strokeStyle = "rgba(255,255,255,0.75)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(Math.round(cx) + 0.5, box.top);
    ctx.lineTo(Math.round(cx) + 0.5, box.bottom);
    ctx.stroke();
  }

  /** The series' names and colours at the top right, in order, in as many rows as they
   *  need (the first row shares its line with the title). Returns the extra rows used. */
  function drawLegend(ctx, plot, w, titleEnd) {
    ctx.font = "11px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    const rows = [[]];
    let room = w - 8 - titleEnd;
    for (const s of plot.series) {
      const width = 20 + ctx.measureText(s.name).width + 12;
      const row = rows[rows.length - 1];
      if (width > room && (row.length > 0 || rows.length === 1)) {
        rows.push([]);
        room = w - 16;
      }
      rows[rows.length - 1].push({ s, width });
      room -= width;
    }
    rows.forEach((row, r) => {
      let x = w - 8 - row.reduce((sum, item) => sum + item.width, 0) + 12;
      const y = 12 + 14 * r;
      for (const { s, width } of row) {
        ctx.strokeStyle = s.color;
        ctx.lineWidth = 2;
        ctx.setLineDash(s.dashed ? [4, 3] : []);
        ctx.beginPath();
        ctx.moveTo(x, y);
        ctx.lineTo(x + 16, y);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.fillStyle = "#c8c8d2";
        ctx.fillText(s.name, x + 20, y);
        x += width;
      }
    });
    return rows.length - 1;
  }

  function drawAxes(ctx, box, range, xEnd, log, X, Y) {
    ctx.font = "10.5px system-ui, sans-serif";
    ctx.lineWidth = 1;
    ctx.fillStyle = "#9a9aa8";
    const yTicks = log
      ? niceTicks(range[0], range[1], 2).filter((v) => Math.abs(v - Math.round(v)) < 1e-9)
      : niceTicks(range[0], range[1], 3);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (const v of yTicks) {
      const y = Math.round(Y(v)) + 0.5;
      ctx.strokeStyle = "rgba(255,255,255,0.07)";
      ctx.beginPath();
      ctx.moveTo(box.left, y);
      ctx.lineTo(box.right, y);
      ctx.stroke();
      ctx.fillText(tickLabel(v, yTicks[1] - yTicks[0], log), box.left - 5, y);
    }
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    const xTicks = niceTicks(0, xEnd, Math.max(2, Math.floor((box.right - box.left) / 60)));
    for (const v of xTicks) {
      const x = Math.round(X(v)) + 0.5;
      ctx.strokeStyle = "rgba(255,255,255,0.07)";
      ctx.beginPath();
      ctx.moveTo(x, box.top);
      ctx.lineTo(x, box.bottom);
      ctx.stroke();
      ctx.fillText(tickLabel(v, xTicks[1] - xTicks[0], false), x, box.bottom + 4);
    }
    ctx.textAlign = "right";
    ctx.fillText("t (s)", box.left - 8, box.bottom + 4);
    ctx.strokeStyle = "rgba(255,255,255,0.28)";
    ctx.beginPath();
    ctx.moveTo(box.left + 0.5, box.top);
    ctx.lineTo(box.left + 0.5, box.bottom + 0.5);
    ctx.lineTo(box.right, box.bottom + 0.5);
    ctx.stroke();
  }

  function drawPlots() {
    const part = currentPart();
    if (!part) return;
    const limit = Math.min(plotLimit(), visibleEnd());
    for (const pv of plotViews) drawPlot(pv, state.time, limit, part.end);
  }

  // ------------------------------------------------------------------ drawing and playback

  let dirty = true;
  let lastTick = null;

  function requestDraw() {
    dirty = true;
  }

  function tick(now) {
    requestAnimationFrame(tick);
    if (state.playing && lastTick !== null) {
      const dt = Math.min(0.1, (now - lastTick) / 1000);
      advance(dt * state.speed);
    }
    lastTick = now;
    if (!dirty) return;
    dirty = false;
    draw3D();
    drawPlots();
    state.ready = true;
  }

  function advance(dt) {
    const end = visibleEnd();
    const t = state.time + dt;
    if (t >= end) {
      setTime(end);
      setPlaying(false);
    } else {
      setTime(t);
    }
  }

  /** Shows time t, kept within what may be seen; remembers how far the part has been seen. */
  function setTime(t) {
    const end = visibleEnd();
    state.time = clamp(num(t, 0), 0, end);
    state.timeOf[state.part] = state.time;
    state.seen[state.part] = Math.max(state.seen[state.part], state.time);
    requestDraw();
    updateLive();
  }

  function setPlaying(on) {
    const end = visibleEnd();
    if (on && end <= 0) on = false;
    if (on && state.time >= end - EPS) setTime(0);
    state.playing = on;
    lastTick = null;
    updateLive();
  }

  /** How far the slider shades what may be seen: the end, but for a run to an event not
   *  yet watched its limit, as its text says, so the shading does not tell when the
   *  event comes. */
  function shadedEnd(end, full) {
    const s = isLesson ? steps[state.at] : null;
    if (!s || s.kind !== "run" || !s.event || runDone(state.at)) return end;
    return clamp(num(s.until, end), end, full);
  }

  /** What follows the time: the transport, the run's progress, the next button, and
   *  document.body.dataset (time, step) for tests. */
  function updateLive() {
    const part = currentPart();
    const end = visibleEnd();
    const full = part && part.end > 0 ? part.end : 1;
    const slider = $("time");
    slider.max = String(full);
    slider.value = String(state.time);
    slider.style.setProperty("--seen-pct", (100 * Math.min(state.seen[state.part] || 0, end)) / full + "%");
    slider.style.setProperty("--avail-pct", (100 * shadedEnd(end, full)) / full + "%");
    slider.disabled = end <= 0;
    $("time-label").textContent = "t = " + state.time.toFixed(3) + " s";
    const play = $("play");
    play.disabled = end <= 0;
    const label = state.playing ? "❚❚ Pause" : "▶ Play";
    if (play.textContent !== label) play.textContent = label;
    document.body.dataset.time = String(Math.round(state.time * 1e6) / 1e6);
    document.body.dataset.step = String(state.at);
    if (isLesson) updateLessonLive();
  }

  // ------------------------------------------------------------------ lesson panel

  const lessonBox = $("lesson");
  let live = {}; // the panel's elements that follow the time
  let copied = false; // the teacher asked for the answers: their text stays shown

  function runText(s) {
    const until = plain(num(s.until, num(s.end, 0)));
    return s.event ? "Run until " + s.event + " (at most " + until + " s)" : "Run to t = " + until + " s";
  }

  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  function runDoneText(s) {
    const until = num(s.until, num(s.end, 0));
    const end = num(s.end, until);
    if (s.event && end < until - EPS) return capital(s.event) + ": at t = " + end.toFixed(3) + " s. Go on.";
    if (s.event) return "Ran to t = " + plain(until) + " s: not " + s.event + ". Go on.";
    return "Ran to t = " + plain(until) + " s. Go on to the measurement.";
  }

  function questionBody(k, s) {
    const chosen = state.answers[k];
    const choices = Array.isArray(s.choices) ? s.choices : [];
    const open = mayAnswer(k);
    return [
      el("div", { class: "kind", text: "Predict" }),
      el("p", { class: "text", text: s.text || "" }),
      chosen === null ? el("p", { class: "weak", text: "Predict before you run: nothing runs until you choose." }) : null,
      el("div", { class: "choices" }, choices.map((c, j) => el("button", {
        type: "button",
        class: "choice" + (chosen === j ? " chosen" : ""),
        "data-choice": String(j),
        "aria-pressed": chosen === j ? "true" : "false",
        disabled: !open,
        onclick: () => answer(k, j),
      }, el("span", { class: "letter", text: LETTERS[j] + ")" }), el("span", { text: c })))),
      chosen !== null ? el("p", { class: "your-answer", text: "Your answer: " + LETTERS[chosen] }) : null,
      chosen !== null && open ? el("p", { class: "hint", text: "You may change it until you go on." }) : null,
    ];
  }

  function runBody(k, s) {
    const bar = el("div");
    const progress = el("div", { class: "progress" }, bar);
    const status = el("p", { class: "weak" });
    live = { k, bar, status };
    return [
      el("div", { class: "kind", text: "Run" }),
      el("p", { class: "text", text: runText(s) }),
      progress,
      status,
    ];
  }

  /** A measured or theory value: the page's data gives it as the app shows it (text with
   *  its unit), or as a bare number. */
  function valueText(x, unit, none) {
    if (typeof x === "string" && x.trim()) return x;
    if (typeof x === "number") return fmt(x) + unit;
    return none;
  }

  function readoutBody(s) {
    const unit = unitText(s.unit);
    const rows = [
      ["measured", valueText(s.measured, unit, "nothing measured")],
      ["stated", plain(s.stated) + unit + " " + toleranceText(s.tolerance)],
    ];
    const theory = valueText(s.theory_value, unit, null);
    if (theory) rows.push(["theory", theory]);
    const agrees = !!s.agrees;
    return el("div", { class: "readout" },
      el("div", { class: "kind", text: "Measurement at t = " + num(s.time, 0).toFixed(3) + " s" }),
      el("p", { class: "text quantity", text: s.quantity || "" }),
      el("table", {}, rows.map(([k, v]) => el("tr", {}, el("th", { text: k }), el("td", { text: v })))),
      s.stated_measured ? el("p", { class: "stated-note", text: "the stated value is this build's own measurement" }) : null,
      el("p", { class: "verdict " + (agrees ? "agrees" : "disagrees"), text: agrees ? "✓ agrees" : "✗ disagrees" }),
      s.theory ? el("p", { class: "theory", text: s.theory }) : null,
    );
  }

  function stepBody(k) {
    const s = steps[k];
    switch (s.kind) {
      case "question": return questionBody(k, s);
      case "run": return runBody(k, s);
      case "readout": return readoutBody(s);
      case "explain": return [el("div", { class: "kind", text: "Why" }), el("p", { id: "explain-text", class: "explain", text: s.text || "" })];
      case "try": return [
        el("div", { class: "kind", text: "Now try" }),
        el("p", { class: "text", text: "Now try: " + (s.text || "") }),
        el("p", { class: "weak", text: "The setting is changed, and the run starts again from the beginning." }),
      ];
      default: return [el("p", { class: "weak", text: "(a step this page does not know: " + s.kind + ")" })];
    }
  }

  /** Whether question k's result has been seen: the lesson has gone past the run after it. */
  function revealed(k) {
    for (let j = k + 1; j < steps.length; j++) {
      if (steps[j].kind === "run") return state.furthest > j;
    }
    return state.answers[k] !== null;
  }

  /** Each question, the answer given and the right one, once no run is left ahead (a
   *  summary between runs would give the answer away before its run is seen). */
  function summary() {
    if (steps.slice(state.at).some((s) => s.kind === "run")) return null;
    const items = [];
    steps.forEach((s, k) => {
      if (s.kind !== "question" || k > state.furthest) return;
      const choices = s.choices || [];
      const right = choices[s.answer];
      const given = state.answers[k];
      const rightText = LETTERS[s.answer] + ") " + right;
      if (given === null) items.push(el("li", { class: "weak", text: "No prediction made; it is " + rightText + "." }));
      else if (given === s.answer) items.push(el("li", { class: "right", text: "You predicted " + rightText + ": right." }));
      else items.push(el("li", { class: "wrong", text: "You predicted " + LETTERS[given] + ") " + choices[given] + "; it is " + rightText + "." }));
    });
    return items.length ? [el("h2", { text: "Your predictions" }), el("ul", { class: "summary" }, items)] : null;
  }

  function stepDots() {
    return el("span", { class: "dots", "aria-hidden": "true" }, steps.map((_, k) =>
      el("span", { class: k === state.at ? "here" : k <= state.furthest ? "done" : "" })));
  }

  /** The teacher's section: the copy button, and the text once there is an answer. */
  function renderTeacher() {
    const box = $("teacher");
    const any = state.answers.some((a) => a !== null);
    const status = el("span", { class: "copy-status", id: "copy-status" });
    box.hidden = false;
    box.replaceChildren(
      el("h2", { text: "For the teacher" }),
      el("button", { id: "copy-answers", type: "button", onclick: () => copyAnswers(status) }, "Copy answers"),
      status,
      any || copied ? el("textarea", { id: "answers-text", readonly: true, rows: 8, text: answersText() }) : null,
    );
  }

  function renderLesson() {
    const n = steps.length;
    const last = state.at + 1 >= n;
    live = {};
    const children = [
      el("div", { class: "step-count" }, el("span", { id: "step-count", text: "step " + (state.at + 1) + " of " + n }), stepDots()),
      el("div", { class: "step step-" + steps[state.at].kind }, stepBody(state.at)),
      el("div", { class: "nav" },
        el("button", { id: "back", type: "button", disabled: state.at === 0, onclick: back }, "◀ Back"),
        el("button", { id: "next", type: "button", disabled: !canGoOn(), onclick: next }, "Next ▶")),
      last ? el("p", { class: "weak", text: "End of the lesson." }) : el("p", { class: "hint", text: "Page Up / Page Down walk the lesson; Space plays." }),
      summary(),
    ];
    lessonBox.replaceChildren(...children.flat().filter(Boolean));
    renderTeacher();
    renderNote();
    updateLive();
  }

  /** The parts of the panel that follow the time: the run's progress, next, the view's hint. */
  function updateLessonLive() {
    const next = $("next");
    if (next) next.disabled = !canGoOn();
    const s = steps[state.at];
    if (live.bar && s.kind === "run") {
      const end = Math.min(num(s.end, num(s.until, 0)), currentPart().end);
      const seen = Math.min(state.seen[state.part], end);
      // A run to an event shows its limit, not its end, until it is over: the end would
      // tell when the event comes before the student has watched for it.
      const hidden = s.event && !runDone(state.at);
      const span = hidden ? num(s.until, end) : end;
      live.bar.style.width = (span > 0 ? (100 * seen) / span : 100) + "%";
      const of = hidden ? "at most " + plain(span) : end.toFixed(2);
      live.status.textContent = runDone(state.at)
        ? runDoneText(s)
        : "t = " + seen.toFixed(2) + " of " + of + " s. Press ▶ Play (or Space) and watch.";
    }
    $("play").classList.toggle("primary", s.kind === "run" && !runDone(state.at));
    if (!three) {
      showViewMessage(NO_WEBGL); // the lesson's prompts are no use without a view
    } else if (s.kind === "question" && state.answers[state.at] === null && visibleEnd() <= 0) {
      showViewMessage("Answer the question to start the run.");
    } else if (s.kind === "run" && state.seen[state.part] <= 0 && !state.playing) {
      showViewMessage("Press ▶ Play to run.");
    } else {
      showViewMessage("");
    }
  }

  function answer(k, choice) {
    if (!mayAnswer(k) || k !== state.at) return;
    state.answers[k] = choice;
    renderLesson();
  }

  function next() {
    if (!canGoOn()) return;
    goTo(state.at + 1);
  }

  function back() {
    if (state.at > 0) goTo(state.at - 1);
  }

  /** Shows step k: its part (at the time it was left), a readout's time. */
  function goTo(k) {
    setPlaying(false);
    state.at = k;
    state.furthest = Math.max(state.furthest, k);
    const p = stepPart(k);
    if (p !== state.part) showPart(p);
    const s = steps[k];
    if (s.kind === "readout") setTime(num(s.time, state.time));
    renderLesson();
  }

  // ------------------------------------------------------------------ the teacher's text

  function answersText() {
    const lines = [
      (data.title || "gyrolab lesson") + (data.scene ? "  (scene: " + data.scene + ")" : ""),
      "Set-up code (open it with gyrolab --setup CODE): " + (data.setup || "—"),
      "",
    ];
    steps.forEach((s, k) => {
      if (s.kind === "question") {
        const choices = s.choices || [];
        const given = state.answers[k];
        lines.push("step " + (k + 1) + ", question: " + (s.text || ""));
        if (given === null) lines.push("  no answer given");
        else {
          const verdict = revealed(k)
            ? (given === s.answer ? "right" : "wrong; the lesson's answer: " + LETTERS[s.answer] + ") " + choices[s.answer])
            : "run not seen yet";
          lines.push("  answer: " + LETTERS[given] + ") " + choices[given] + ": " + verdict);
        }
      } else if (s.kind === "readout" && k <= state.furthest) {
        lines.push(s.line ? s.line : readoutLine(k, s));
      }
    });
    return lines.join("\n");
  }

  function readoutLine(k, s) {
    const unit = unitText(s.unit);
    const measured = valueText(s.measured, unit, "nothing");
    return "step " + (k + 1) + ", " + (s.quantity || "readout") + ": measured " + measured +
      ", stated " + plain(s.stated) + unit + " " + toleranceText(s.tolerance) + ": " + (s.agrees ? "agrees" : "DISAGREES");
  }

  function copyAnswers(status) {
    copied = true;
    const text = answersText();
    let area = $("answers-text");
    if (!area) {
      area = el("textarea", { id: "answers-text", readonly: true, rows: 8 });
      $("teacher").append(area);
    }
    area.value = text;
    area.focus();
    area.select();
    status.textContent = "Selected: copy it with Ctrl+C if the browser refused.";
    const clip = navigator.clipboard;
    if (clip && clip.writeText) {
      // Copied, the keys (Space, Page Up/Down) go back to the lesson.
      clip.writeText(text).then(() => { status.textContent = "Copied."; area.blur(); }, () => {});
    }
  }

  // ------------------------------------------------------------------ side panel, parts

  function renderNote() {
    const note = $("note");
    const part = currentPart();
    note.hidden = !(part && part.note);
    note.textContent = part && part.note ? part.note : "";
  }

  function legendList(part) {
    return el("ul", { class: "legend" },
      part.lanes.map((l) => {
        const swatch = el("span", { class: "swatch" });
        swatch.style.background = l.color;
        return el("li", {}, swatch, el("span", { text: l.name }));
      }),
      part.ghost ? el("li", {}, el("span", { class: "swatch ghost" }), el("span", { text: "the exact solution (translucent)" })) : null,
    );
  }

  function renderSceneInfo() {
    const box = $("scene-info");
    const part = currentPart();
    box.hidden = false;
    box.replaceChildren(
      data.description ? el("p", { text: data.description }) : null,
      part ? el("h2", { text: "Lanes" }) : null,
      part ? legendList(part) : null,
    );
    renderNote();
  }

  /** Shows part p: its 3D view, its plots, at the time it was left. */
  function showPart(p) {
    state.part = p;
    buildPlots(decodePart(parts[p]));
    showPartView(p);
    setTime(state.timeOf[p]);
  }

  function renderFrame() {
    document.title = data.title || document.title;
    $("title").textContent = data.title || data.scene || "gyrolab";
    const code = data.setup || "";
    $("setup-code").textContent = code || "—";
    $("setup-line").replaceChildren(...(code
      ? ["Open the same " + (isLesson ? "lesson" : "scene") + " in gyrolab: ", el("code", { text: "gyrolab --setup " + code })]
      : []));
    $("generator").textContent = data.generator ? "Recorded by " + data.generator + "." : "";
  }

  // ------------------------------------------------------------------ controls

  function bindControls() {
    $("play").addEventListener("click", () => setPlaying(!state.playing));
    $("time").addEventListener("input", (e) => {
      const t = parseFloat(e.target.value); // before pausing puts the slider back
      setPlaying(false);
      setTime(t);
    });
    $("speed").addEventListener("change", (e) => {
      state.speed = num(parseFloat(e.target.value), 1);
    });
    $("reset-view").addEventListener("click", resetView);
    document.addEventListener("keydown", onKey);
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(resize).observe(viewBox);
      new ResizeObserver(requestDraw).observe(plotsBox);
    } else {
      window.addEventListener("resize", () => { resize(); requestDraw(); });
    }
  }

  /** Space plays and pauses, Page Down and Page Up walk the lesson, as in the app. */
  function onKey(e) {
    const tag = e.target && e.target.tagName;
    const typing = tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && e.target.type !== "range");
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === " " && tag !== "BUTTON") {
      e.preventDefault();
      setPlaying(!state.playing);
    } else if (isLesson && e.key === "PageDown") {
      e.preventDefault();
      next();
    } else if (isLesson && e.key === "PageUp") {
      e.preventDefault();
      back();
    }
  }

  // ------------------------------------------------------------------ test hooks

  window.gyrolab = {
    state: () => ({
      step: state.at,
      part: state.part,
      time: state.time,
      playing: state.playing,
      visibleEnd: visibleEnd(),
      ready: state.ready,
    }),
    pose: (p, frame, run, body) => {
      const part = parts[p];
      if (!part) return null;
      decodePart(part);
      if (frame < 0 || frame >= part.times.length || run < 0 || run >= part.runs || body < 0 || body >= part.bodies.length) return null;
      const j = poseIndex(part, frame, run, body);
      return Array.from(part.poses.subarray(j, j + 7));
    },
    frames: (p) => (parts[p] ? decodePart(parts[p]).times.length : 0),
    times: (p) => (parts[p] ? decodePart(parts[p]).times.slice() : []),
    seek: (t) => {
      setPlaying(false);
      setTime(t);
      if (three && three.shown) draw3D();
      drawPlots();
      return state.time;
    },
  };

  // ------------------------------------------------------------------ start

  function start() {
    renderFrame();
    bindControls();
    if (parts.length === 0) {
      showViewMessage("This recording holds no runs.");
      updateLive();
      state.ready = true;
      return;
    }
    if (isLesson) {
      lessonBox.hidden = false;
      showPart(stepPart(0));
      renderLesson();
    } else {
      showPart(0);
      renderSceneInfo();
    }
    requestAnimationFrame(tick);
  }

  start();
})();
