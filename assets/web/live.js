// gyrolab's lab, live: the lab's own code (wasm, inlined) computes every step in the page,
// and three.js draws it. Every change is one of the lab's inputs, given to the same
// `Lab::apply` as in the app (docs/wasm.md). The page reaches no network.
(function () {
  "use strict";

  const BACKGROUND = 0x1e1e24;
  const GHOST_OPACITY = 0.22;
  const MAX_STEPS_A_FRAME = 240;
  const $ = (id) => document.getElementById(id);

  // ---- the module ----------------------------------------------------------------------

  let gl = null;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  function decodeBase64(text) {
    const raw = atob(text.trim());
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  /** The last call's text output. */
  function out() {
    return decoder.decode(new Uint8Array(gl.memory.buffer, gl.gl_out_ptr(), gl.gl_out_len()));
  }

  /** Calls `fn(ptr, len, ...)` with `text` in the module's memory: [status, output]. */
  function withText(fn, text, ...rest) {
    const bytes = encoder.encode(text);
    const ptr = gl.gl_alloc(bytes.length);
    new Uint8Array(gl.memory.buffer, ptr, bytes.length).set(bytes);
    const status = fn(...rest, ptr, bytes.length);
    gl.gl_free(ptr, bytes.length);
    return [status, out()];
  }

  // ---- the lab shown ---------------------------------------------------------------------

  const lab = {
    handle: -1,
    drawing: null,
    state: null,
    error: "",
  };

  function json(status) {
    if (status !== 0) throw new Error(out());
    return JSON.parse(out());
  }

  /** Opens a lab from a request ({scene}, {setup}...); the old one stays on refusal. */
  function open(request) {
    const [handle, text] = withText(gl.gl_lab_new, JSON.stringify(request));
    if (handle < 0) {
      say(text);
      return false;
    }
    if (lab.handle >= 0) gl.gl_lab_free(lab.handle);
    lab.handle = handle;
    say("");
    rebuild();
    return true;
  }

  /** Applies one of the lab's inputs; false, and the reason said, when refused. */
  function apply(input) {
    const [status, text] = withText(gl.gl_apply, JSON.stringify(input), lab.handle);
    if (status !== 0) {
      say(text);
      return false;
    }
    say("");
    refresh();
    showCode();
    return true;
  }

  /** Up to `n` physics steps; how many the lab took. */
  function step(n) {
    const taken = gl.gl_step(lab.handle, n);
    return Math.max(taken, 0);
  }

  /** Every lane's bodies' poses, then the ghost's: 7 numbers a body (f64, as computed). */
  function poses() {
    const n = gl.gl_poses(lab.handle);
    return n > 0 ? new Float64Array(gl.memory.buffer, gl.gl_poses_ptr(), n).slice() : new Float64Array(0);
  }

  function refresh() {
    lab.state = json(gl.gl_state(lab.handle));
    if (!lab.drawing || lanesOf(lab.state) !== lab.lanesShown) rebuild();
    showState();
  }

  /** The lanes and their body counts: when they change, what is drawn is built again. */
  function lanesOf(state) {
    return state.lanes.map((l) => l[0] + ":" + l[1]).join(",");
  }

  function rebuild() {
    lab.drawing = json(gl.gl_drawing(lab.handle));
    lab.state = json(gl.gl_state(lab.handle));
    lab.lanesShown = lanesOf(lab.state);
    buildView();
    buildControls();
    showState();
    showCode();
  }

  function say(text) {
    lab.error = text;
    const line = $("message");
    line.hidden = !text;
    line.textContent = text;
  }

  // ---- the view ------------------------------------------------------------------------

  const view = { renderer: null, scene: null, camera: null, controls: null, lanes: [] };

  function make3D() {
    try {
      view.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch (e) {
      say("This browser cannot draw 3D (WebGL is off); the lab still runs.");
      return;
    }
    $("view").prepend(view.renderer.domElement);
    view.scene = new THREE.Scene();
    view.scene.background = new THREE.Color(BACKGROUND);
    view.scene.add(new THREE.HemisphereLight(0xe8eef8, 0x34343e, 1.7));
    const sun = new THREE.DirectionalLight(0xffffff, 2.0);
    sun.position.set(4, 10, 6);
    view.scene.add(sun);
    view.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
    view.controls = new THREE.OrbitControls(view.camera, view.renderer.domElement);
    resize();
    window.addEventListener("resize", resize);
  }

  function resize() {
    if (!view.renderer) return;
    const box = $("view").getBoundingClientRect();
    view.renderer.setSize(box.width, box.height);
    view.camera.aspect = box.width / Math.max(box.height, 1);
    view.camera.updateProjectionMatrix();
  }

  function geometryOf(s) {
    const r = s.radius || 0.1;
    const l = s.length || 0;
    if (s.kind === "sphere") return new THREE.SphereGeometry(r, 24, 12);
    if (s.kind === "cylinder") return new THREE.CylinderGeometry(r, r, l, 24);
    if (s.kind === "capsule") return new THREE.CapsuleGeometry(r, l, 6, 16);
    const h = s.half_extents || [0.1, 0.1, 0.1];
    return new THREE.BoxGeometry(2 * h[0], 2 * h[1], 2 * h[2]);
  }

  function localMatrix(s) {
    const q = s.rotation;
    return new THREE.Matrix4().compose(
      new THREE.Vector3(...s.offset),
      new THREE.Quaternion(q[0], q[1], q[2], q[3]),
      new THREE.Vector3(1, 1, 1),
    );
  }

  function shapeKey(s) {
    return [s.kind, s.radius, s.length, s.half_extents].join(":");
  }

  /** The bodies' shapes grouped by geometry: one instanced mesh a group, per lane (and
   *  the ghost), so a heap of a thousand boxes is one draw. */
  function laneMeshes(color, opacity) {
    const material = new THREE.MeshStandardMaterial({
      color, roughness: 0.6, transparent: opacity < 1, opacity, depthWrite: opacity === 1,
    });
    const groups = new Map();
    lab.drawing.bodies.forEach((b, body) => b.parts.forEach((s) => {
      const key = shapeKey(s);
      if (!groups.has(key)) groups.set(key, { s, items: [] });
      groups.get(key).items.push({ body, local: localMatrix(s) });
    }));
    return [...groups.values()].map(({ s, items }) => {
      const mesh = new THREE.InstancedMesh(geometryOf(s), material, items.length);
      mesh.userData = { items };
      mesh.frustumCulled = false;
      view.scene.add(mesh);
      return mesh;
    });
  }

  function buildView() {
    if (!view.scene) return;
    for (const lane of view.lanes) lane.meshes.forEach((m) => view.scene.remove(m));
    for (const extra of view.extras || []) view.scene.remove(extra);
    const d = lab.drawing;
    view.lanes = d.lanes.map((l) => ({ offset: l.offset, meshes: laneMeshes(l.color, 1) }));
    if (d.ghost) {
      d.lanes.forEach((l) =>
        view.lanes.push({ offset: l.offset, ghostOf: true, meshes: laneMeshes(0xffffff, GHOST_OPACITY) }));
    }
    view.extras = d.planes.map(groundOf);
    view.extras.forEach((g) => view.scene.add(g));
    frameCamera();
  }

  function groundOf(plane) {
    const grid = new THREE.GridHelper(40, 40, 0x8c99a6, 0x555d66);
    const n = new THREE.Vector3(...plane.normal).normalize();
    grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), n);
    grid.position.copy(n.multiplyScalar(plane.offset));
    return grid;
  }

  function frameCamera() {
    const p = poses();
    const box = new THREE.Box3();
    const bodies = lab.drawing.bodies.length;
    view.lanes.filter((lane) => !lane.ghostOf).forEach((lane, run) => {
      for (let b = 0; b < bodies && 7 * (run * bodies + b) < p.length; b++) {
        const j = 7 * (run * bodies + b);
        box.expandByPoint(new THREE.Vector3(p[j] + lane.offset[0], p[j + 1] + lane.offset[1], p[j + 2] + lane.offset[2]));
      }
    });
    const centre = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
    const size = box.isEmpty() ? 1 : Math.max(box.getSize(new THREE.Vector3()).length(), 0.5);
    view.controls.target.copy(centre);
    view.camera.position.copy(centre).add(new THREE.Vector3(0, 0.45 * size, 1.6 * size + 0.6));
    view.controls.update();
  }

  const scratch = { m: new THREE.Matrix4(), p: new THREE.Vector3(), q: new THREE.Quaternion(), one: new THREE.Vector3(1, 1, 1) };

  /** Places every lane's bodies at the poses the lab computed. */
  function draw() {
    if (!view.renderer) return;
    const p = poses();
    const bodies = lab.drawing.bodies.length;
    const lanes = lab.drawing.lanes.length;
    view.lanes.forEach((lane, i) => {
      // The ghost's run is the last: drawn over every lane.
      const run = lane.ghostOf ? lanes : i;
      for (const mesh of lane.meshes) {
        mesh.userData.items.forEach(({ body, local }, k) => {
          const j = 7 * (run * bodies + body);
          if (j + 6 >= p.length) return;
          scratch.p.set(p[j] + lane.offset[0], p[j + 1] + lane.offset[1], p[j + 2] + lane.offset[2]);
          scratch.q.set(p[j + 3], p[j + 4], p[j + 5], p[j + 6]);
          scratch.m.compose(scratch.p, scratch.q, scratch.one).multiply(local);
          mesh.setMatrixAt(k, scratch.m);
        });
        mesh.instanceMatrix.needsUpdate = true;
      }
    });
    view.renderer.render(view.scene, view.camera);
  }

  // ---- the controls --------------------------------------------------------------------

  let catalog = null;

  function option(value, text, selected) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    o.selected = selected;
    return o;
  }

  function buildMenus() {
    const scenes = $("scene");
    for (const s of catalog.scenes) scenes.append(option(s.name, s.name, false));
    scenes.title = "the scene";
    scenes.addEventListener("change", () => {
      if (open({ scene: scenes.value })) location.hash = "";
    });
  }

  /** Single-body scenes compare integrators side by side; others switch one live. */
  function buildControls() {
    const box = $("lanes");
    box.replaceChildren();
    const inUse = lab.state.lanes.map((l) => l[0]);
    $("scene").value = lab.state.scene;
    if (lab.drawing.ghost) {
      for (const i of catalog.integrators.filter((i) => i.name !== "analytic")) {
        const label = document.createElement("label");
        const check = document.createElement("input");
        check.type = "checkbox";
        check.dataset.integrator = i.name;
        check.checked = inUse.includes(i.name);
        check.addEventListener("change", () => {
          if (!apply({ Compare: { integrator: i.name, on: check.checked } })) check.checked = !check.checked;
        });
        label.append(check, " " + i.about);
        box.append(label);
      }
    } else {
      const select = document.createElement("select");
      select.id = "integrator";
      for (const i of catalog.integrators) select.append(option(i.name, i.about, i.name === inUse[0]));
      select.addEventListener("change", () => apply({ SwitchIntegrator: select.value }));
      box.append(select);
    }
  }

  function showState() {
    const s = lab.state;
    $("dt").value = s.dt;
    $("steps-per-dt").value = s.steps_per_dt;
    $("time-label").textContent = "t = " + s.time.toFixed(3) + " s";
    const stopped = s.lanes.filter((l) => l[2]).map((l) => l[0] + ": " + l[2]);
    $("stopped").textContent = stopped.join("; ");
  }

  /** The set-up code shown: made again after each change, not each frame. */
  function showCode() {
    $("setup-code").textContent = setupCode();
  }

  function setupCode() {
    return gl.gl_setup_code(lab.handle) === 0 ? out() : "";
  }

  function wireControls() {
    $("play").addEventListener("click", () => setPlaying(!clock.playing));
    $("step").addEventListener("click", () => {
      setPlaying(false);
      step(1);
      refresh();
      draw();
    });
    $("restart").addEventListener("click", () => apply("Restart") && draw());
    $("dt").addEventListener("change", (e) => apply({ SetDt: Number(e.target.value) }) || showState());
    $("steps-per-dt").addEventListener("change", (e) => apply({ SetStepsPerDt: Number(e.target.value) }) || showState());
    $("open-code").addEventListener("click", () => openCode($("paste").value));
    window.addEventListener("hashchange", () => openCode(location.hash.slice(1)));
  }

  function openCode(code) {
    code = decodeURIComponent(code || "").trim();
    if (code) open({ setup: code });
  }

  // ---- real time -----------------------------------------------------------------------

  const clock = { playing: false, last: 0, owed: 0, physicsMs: 0, slowed: false };

  function setPlaying(on) {
    clock.playing = on;
    clock.owed = 0;
    $("play").textContent = on ? "❚❚ Pause" : "▶ Play";
  }

  /** Steps as many physics steps as real time times the time scale owes, never skipping
   *  one: when the physics cannot keep up, the run slows down and the page says so. */
  function tick(now) {
    const wall = Math.min((now - (clock.last || now)) / 1000, 0.1);
    clock.last = now;
    if (clock.playing && lab.handle >= 0) {
      const dt = lab.state.dt;
      clock.owed += wall * Number($("time-scale").value);
      let n = Math.floor(clock.owed / dt + 1e-9);
      const capped = n > MAX_STEPS_A_FRAME;
      n = Math.min(n, MAX_STEPS_A_FRAME);
      const start = performance.now();
      const taken = step(n);
      clock.physicsMs = performance.now() - start;
      clock.owed = capped ? 0 : clock.owed - n * dt;
      clock.slowed = capped || clock.physicsMs > 30;
      if (taken < n) setPlaying(false);
      refresh();
    }
    $("slow").hidden = !(clock.playing && clock.slowed);
    draw();
    requestAnimationFrame(tick);
  }

  // ---- start ---------------------------------------------------------------------------

  async function start() {
    const bytes = decodeBase64($("gyrolab-wasm").textContent);
    const { instance } = await WebAssembly.instantiate(bytes, {});
    gl = instance.exports;
    catalog = json(gl.gl_catalog());
    make3D();
    buildMenus();
    wireControls();
    const first = $("gyrolab-open").textContent.trim();
    const code = decodeURIComponent(location.hash.slice(1)).trim();
    if (!(code && open({ setup: code }))) {
      // A damaged code in the address is said, and the page opens as it would without.
      const why = lab.error;
      open(first ? JSON.parse(first) : { scene: catalog.default_scene });
      if (why) say(why);
    }
    const stepped = (n) => {
      const taken = step(n);
      refresh();
      return taken;
    };
    window.gyrolab = {
      apply, step: stepped, poses, open, state: () => lab.state, code: setupCode,
      error: () => lab.error, draw, setPlaying,
    };
    document.body.dataset.ready = "yes";
    requestAnimationFrame(tick);
  }

  start().catch((e) => {
    say("The lab could not start: " + e.message);
    document.body.dataset.ready = "failed";
  });
})();
