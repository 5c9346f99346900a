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
    showMenus(request);
    return true;
  }

  /** Applies one of the lab's inputs; false, and the reason said, when refused. The
   *  set-up code is made again unless `withCode` is false (a drag's many moves). */
  function apply(input, withCode = true) {
    const [status, text] = withText(gl.gl_apply, JSON.stringify(input), lab.handle);
    if (status !== 0) {
      say(text);
      return false;
    }
    say("");
    changed();
    refresh();
    if (withCode) showCode();
    return true;
  }

  /** Counts changes, so the plots are drawn again after one. */
  function changed() {
    lab.changes = (lab.changes || 0) + 1;
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
    view.dirty = true;
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

  const view = { renderer: null, scene: null, camera: null, controls: null, lanes: [], labels: [] };

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
    view.controls.addEventListener("change", () => (view.dirty = true));
    resize();
    window.addEventListener("resize", resize);
  }

  function resize() {
    if (!view.renderer) return;
    const box = $("view").getBoundingClientRect();
    view.renderer.setSize(box.width, box.height);
    view.camera.aspect = box.width / Math.max(box.height, 1);
    view.camera.updateProjectionMatrix();
    view.dirty = true;
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

  /** Each lane's integrator named over its bodies in the lane's colour, as the app and the
   *  recorded page name them: side by side, the lanes are told apart by these. */
  function buildLabels() {
    view.labels = lab.drawing.lanes.map((l) => {
      const node = document.createElement("div");
      node.className = "lane-label";
      node.textContent = l.name;
      node.style.color = l.color;
      return node;
    });
    $("labels").replaceChildren(...view.labels);
  }

  /** Puts each lane's label over the middle of its bodies at poses `p`, clear of them. */
  function placeLabels(p) {
    const bodies = lab.drawing.bodies.length;
    const canvas = view.renderer.domElement;
    view.labels.forEach((node, lane) => {
      const offset = lab.drawing.lanes[lane].offset;
      let x = 0, z = 0, top = -Infinity, n = 0;
      for (let b = 0; b < bodies; b++) {
        const j = 7 * (lane * bodies + b);
        if (j + 6 >= p.length) break;
        x += p[j];
        z += p[j + 2];
        top = Math.max(top, p[j + 1] + view.reach[b]);
        n += 1;
      }
      const v = scratch.label.set(x / n + offset[0], top + offset[1], z / n + offset[2]);
      v.project(view.camera);
      const visible = n > 0 && v.z < 1 && Math.abs(v.x) < 1.2 && Math.abs(v.y) < 1.2;
      node.style.display = visible ? "" : "none";
      node.style.left = ((v.x + 1) / 2) * canvas.clientWidth + "px";
      node.style.top = ((1 - v.y) / 2) * canvas.clientHeight + "px";
    });
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
    view.dirty = true;
    for (const lane of view.lanes) {
      lane.meshes.forEach((m) => {
        view.scene.remove(m);
        m.geometry.dispose();
        m.material.dispose();
      });
    }
    for (const extra of view.extras || []) view.scene.remove(extra);
    const d = lab.drawing;
    view.lanes = d.lanes.map((l) => ({ offset: l.offset, meshes: laneMeshes(l.color, 1) }));
    if (d.ghost) {
      d.lanes.forEach((l) =>
        view.lanes.push({ offset: l.offset, ghostOf: true, meshes: laneMeshes(0xffffff, GHOST_OPACITY) }));
    }
    view.extras = d.planes.map(groundOf);
    view.joints = jointLines();
    view.extras.push(view.joints);
    // Each body's reach from its centre: room to frame it, and where its lane's label goes.
    view.reach = lab.drawing.bodies.map((b) => Math.max(0.05, ...b.parts.map(sharedShapes.reach)));
    buildLabels();
    view.extras.forEach((g) => view.scene.add(g));
    // The camera is framed for a scene opened, not again when lanes or bodies change.
    const framed = lab.handle + ":" + lab.state.scene;
    if (framed !== view.framed) {
      view.framed = framed;
      frameCamera();
    }
  }

  /** Rods, ropes, springs and sliders as lines between their anchors, every lane. */
  function jointLines() {
    const n = Math.max(gl.gl_joint_ends(lab.handle), 0);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(n), 3));
    return new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: 0x8cd9ff }));
  }

  /** The joints' anchors now, each lane's moved to where the lane stands. */
  function placeJoints() {
    const n = gl.gl_joint_ends(lab.handle);
    if (!(n > 0) || !view.joints) return;
    const ends = new Float64Array(gl.memory.buffer, gl.gl_poses_ptr(), n);
    const position = view.joints.geometry.attributes.position;
    if (position.array.length !== n) return;
    const perLane = n / lab.drawing.lanes.length;
    for (let i = 0; i < n; i++) {
      const lane = lab.drawing.lanes[Math.floor(i / perLane)];
      position.array[i] = ends[i] + lane.offset[i % 3];
    }
    position.needsUpdate = true;
    view.joints.frustumCulled = false;
  }

  function groundOf(plane) {
    const grid = new THREE.LineSegments(sharedShapes.gridGeometry(40), new THREE.LineBasicMaterial({ color: 0x555d66 }));
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
        const centre = new THREE.Vector3(p[j] + lane.offset[0], p[j + 1] + lane.offset[1], p[j + 2] + lane.offset[2]);
        // The body whole, whichever way it turns.
        const reach = 2 * (view.reach[b] || 0);
        box.union(new THREE.Box3().setFromCenterAndSize(centre, new THREE.Vector3(reach, reach, reach)));
      }
    });
    // With the ground under them, as the app frames a scene: the floor a ball bounces on.
    if (!box.isEmpty()) {
      const middle = box.getCenter(new THREE.Vector3());
      for (const plane of lab.drawing.planes) {
        const n = new THREE.Vector3(...plane.normal);
        if (Math.abs(n.y) < 0.9) continue; // a wall or a ramp, not the ground
        box.expandByPoint(middle.clone().addScaledVector(n, plane.offset - n.dot(middle)));
      }
    }
    const centre = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
    const size = box.isEmpty() ? 1 : Math.max(box.getSize(new THREE.Vector3()).length(), 0.5);
    // The scene's own camera where it has one (the app's), else one that takes it all in.
    const own = lab.state.camera;
    const focus = lab.drawing.lanes.length === 1 && own ? new THREE.Vector3(...own[0]) : centre;
    // Far enough to take in every lane and a body's reach about its centre, but never
    // farther than the scene's own camera for a single lane.
    const fit = (0.5 * size + 0.3) / Math.tan((view.camera.fov * Math.PI) / 360);
    const distance = own && lab.drawing.lanes.length === 1 ? own[1] : fit;
    const pitch = ((own ? own[2] : 20) * Math.PI) / 180;
    view.controls.target.copy(focus);
    view.camera.position.copy(focus).add(new THREE.Vector3(0, Math.sin(pitch), Math.cos(pitch)).multiplyScalar(distance));
    view.controls.update();
  }

  const scratch = { m: new THREE.Matrix4(), p: new THREE.Vector3(), q: new THREE.Quaternion(), one: new THREE.Vector3(1, 1, 1), label: new THREE.Vector3() };

  /** Places every lane's bodies at the poses the lab computed. */
  function draw() {
    if (!view.renderer || !lab.drawing) return;
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
    placeJoints();
    view.renderer.render(view.scene, view.camera);
    // After the render, which brings the camera's matrices up to date.
    placeLabels(p);
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
      if (scenes.value.startsWith("file:")) return;
      if (open({ scene: scenes.value })) {
        location.hash = "";
        $("lesson").value = "";
      }
    });
  }

  /** The menus show what was opened: a lesson by its name, or its title where it came
   *  from a file or a set-up code. */
  function showMenus(request) {
    const menu = $("lesson");
    const title = lesson ? lesson.title : null;
    const byTitle = [...menu.options].find((o) => title && o.textContent === title);
    menu.value = request.lesson || (byTitle ? byTitle.value : "");
  }

  /** Single-body scenes compare integrators side by side; others switch one live. */
  function buildControls() {
    const box = $("lanes");
    box.replaceChildren();
    const inUse = lab.state.lanes.map((l) => l[0]);
    $("scene").value = lab.state.scene;
    // The lab's own word for it, as the app asks: a single body with contacts (a ball on
    // the ground) has no exact ghost, but its lanes are side by side all the same.
    if (lab.state.side_by_side) {
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
      select.addEventListener("change", () => {
        if (!apply({ SwitchIntegrator: select.value })) select.value = lab.state.lanes[0][0];
      });
      box.append(select);
    }
  }

  function showState() {
    const s = lab.state;
    setIfIdle("dt", s.dt);
    setIfIdle("steps-per-dt", s.steps_per_dt);
    $("about").textContent = s.about;
    const line = $("timeline");
    line.min = s.first_step;
    line.max = s.last_step;
    if (document.activeElement !== line) line.value = s.step;
    $("back").disabled = s.step <= s.first_step;
    showLesson();
    showStart(s);
    showSolver(s);
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
    $("replay").addEventListener("click", () => {
      setPlaying(!clock.replaying, !clock.replaying);
    });
    $("back").addEventListener("click", () => {
      setPlaying(false);
      gl.gl_step_back(lab.handle);
      refresh();
    });
    $("timeline").addEventListener("input", (e) => {
      setPlaying(false);
      gl.gl_seek(lab.handle, Number(e.target.value));
      refresh();
    });
    wireLesson();
    wireStartAndSolver();
    wireGrab();
    window.addEventListener("hashchange", () => openCode(location.hash.slice(1)));
  }

  function openCode(code) {
    code = decoded(code || "");
    if (code) open({ setup: code });
  }

  /** A code as given in the address; a malformed escape is kept as it is (and refused
   *  as a code, in one line). */
  function decoded(text) {
    try {
      return decodeURIComponent(text).trim();
    } catch (_) {
      return text.trim();
    }
  }

  /** A field shows the lab's value unless the student is typing in it. */
  function setIfIdle(id, value) {
    if (document.activeElement !== $(id)) $(id).value = value;
  }

  // ---- start conditions and the solver --------------------------------------------------

  function showStart(s) {
    $("start-panel").hidden = !s.side_by_side || hidden("start");
    setIfIdle("spin", s.start.spin);
    setIfIdle("perturbation", s.start.perturbation);
    if (document.activeElement !== $("inertia")) {
      const principal = s.start.preset === "Custom" ? s.start.custom : null;
      $("inertia").value = principal ? principal.join(", ") : "";
      $("inertia").placeholder = "the scene's body";
    }
  }

  function showSolver(s) {
    $("solver-panel").hidden = !s.solver || hidden("solver");
    if (!s.solver) return;
    setIfIdle("solver-kind", s.solver.solver);
    setIfIdle("substeps", s.solver.substeps);
    setIfIdle("iterations", s.solver.solver === "Soft" ? s.solver.substep_iterations : s.solver.iterations);
    if (s.friction !== null) setIfIdle("friction", s.friction);
    showMotors(s.motors);
  }

  /** A speed field for each hinge motor (rad/s), its torque kept. */
  function showMotors(motors) {
    const box = $("motors");
    const key = motors.map(([k]) => k).join(",");
    if (box.dataset.key !== key) {
      box.dataset.key = key;
      box.replaceChildren(...motors.map(([k]) => {
        const label = document.createElement("label");
        label.className = "row";
        const input = document.createElement("input");
        input.type = "number";
        input.step = "any";
        input.id = "motor-" + k;
        input.addEventListener("change", () => {
          const motor = lab.state.motors.find(([j]) => j === k)[1];
          apply({ SetMotor: { joint: k, motor: { ...motor, speed: Number(input.value) } } }) || showState();
        });
        label.append("motor " + k + " (rad/s) ", input);
        return label;
      }));
    }
    for (const [k, m] of motors) setIfIdle("motor-" + k, m.speed);
  }

  /** New start conditions: the lab's own, with what the student changed. */
  function changeStart() {
    const start = structuredClone(lab.state.start);
    start.spin = Number($("spin").value);
    start.perturbation = Number($("perturbation").value);
    const typed = $("inertia").value.trim();
    if (typed) {
      start.preset = "Custom";
      start.custom = typed.split(/[\s,]+/).map(Number);
    }
    apply({ SetStart: start });
  }

  function changeSolver() {
    const solver = structuredClone(lab.state.solver);
    solver.solver = $("solver-kind").value;
    solver.substeps = Number($("substeps").value);
    // The soft step's iterations are its sub-steps'; PGS's are its own.
    if (solver.solver === "Soft") solver.substep_iterations = Number($("iterations").value);
    else solver.iterations = Number($("iterations").value);
    apply({ SetSolverSettings: solver }) || showState();
  }

  function wireStartAndSolver() {
    for (const id of ["spin", "perturbation", "inertia"]) $(id).addEventListener("change", changeStart);
    for (const id of ["solver-kind", "substeps", "iterations"]) $(id).addEventListener("change", changeSolver);
    $("friction").addEventListener("change", (e) => apply({ SetFriction: Number(e.target.value) }) || showState());
  }

  // ---- a lesson --------------------------------------------------------------------------

  let lesson = null;

  function hidden(control) {
    return !!lesson && lesson.hidden.includes(control);
  }

  const CONTROLS = {
    scene: ["scene"], integrators: ["integrators-panel"], dt: ["dt-panel"],
    solver: ["solver-panel"], start: ["start-panel"],
  };

  /** The reason a lesson locks a panel, shown under its heading as the app shows it. */
  function lockNote(section, why) {
    let note = section.querySelector(":scope > .lock-note");
    if (!note) {
      note = document.createElement("p");
      note.className = "hint lock-note";
      section.querySelector("h2").after(note);
    }
    note.hidden = !why;
    note.textContent = why ? "locked by the lesson: " + why : "";
  }

  /** Locks and hides what the lesson locks and hides, saying why on the control. */
  function applyLocks() {
    for (const [control, ids] of Object.entries(CONTROLS)) {
      const why = lesson && (lesson.locked.find(([c]) => c === control) || [])[1];
      for (const id of ids) {
        const e = $(id);
        e.toggleAttribute("inert", !!why);
        e.title = why || "";
        if (e.tagName === "SECTION") lockNote(e, why);
        if (control !== "solver" && control !== "start") (e.closest("label") || e).hidden = hidden(control);
      }
    }
  }

  function showLesson() {
    lesson = gl.gl_lesson(lab.handle) === 0 ? JSON.parse(out()) : null;
    $("lesson-panel").hidden = !lesson;
    applyLocks();
    if (!lesson) return;
    $("lesson-title").textContent = lesson.title;
    $("lesson-at").textContent = "step " + (lesson.at + 1) + " of " + lesson.count;
    const key = JSON.stringify(lesson.step) + lesson.at;
    if (key !== showLesson.shown) {
      showLesson.shown = key;
      $("lesson-step").replaceChildren(...stepBody(lesson.step));
    }
    $("lesson-next").disabled = !lesson.can_go_on;
    $("lesson-back").disabled = lesson.at === 0;
  }

  function para(text, cls) {
    const p = document.createElement("p");
    p.textContent = text;
    if (cls) p.className = cls;
    return p;
  }

  /** What a step shows: a question's choices as buttons, a run's end, a readout. */
  function stepBody(step) {
    switch (step.kind) {
      case "question": return questionBody(step);
      case "run": return [para(step.ended ? "The run is over: go on." : "Press Play: the run goes to " + step.until + " s" + (step.event ? " or until " + step.event : "") + ".")];
      case "readout": return readoutBody(step);
      case "explain": return [para(step.text)];
      case "try": return [para("Now try: " + step.text)];
      default: return [para("The lesson is over.")];
    }
  }

  function questionBody(step) {
    const out = [para(step.text)];
    step.choices.forEach((choice, k) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "choice";
      b.dataset.choice = k;
      b.textContent = "abcdefghij"[k] + ") " + choice;
      b.disabled = step.chosen !== null;
      if (step.chosen === k) b.classList.add(step.right ? "right" : "wrong");
      b.addEventListener("click", () => answer(k));
      out.push(b);
    });
    if (step.chosen !== null) out.push(para(step.right ? "Right." : "Not quite: run it and see."));
    return out;
  }

  function readoutBody(step) {
    const again = document.createElement("button");
    again.type = "button";
    again.id = "measure-again";
    again.textContent = "Measure this run";
    again.title = "Changed something and ran again (Back, Restart, Play)? Measure what this run gives.";
    again.addEventListener("click", measureAgain);
    return [
      para("Measured: " + step.measured, "measured"),
      para("The lesson states " + step.stated + " ± " + step.tolerance + ": " + (step.agrees ? "agrees" : "DISAGREES"), step.agrees ? "agrees" : "disagrees"),
      para("Theory: " + step.theory + (step.theory_value ? " (" + step.theory_value + ")" : "")),
      again,
    ];
  }

  function measureAgain() {
    if (gl.gl_measure_again(lab.handle) !== 0) say(out());
    showLesson.shown = null;
    refresh();
    showCode();
  }

  function answer(k) {
    const status = gl.gl_answer(lab.handle, k);
    if (status !== 0) say(out());
    refresh();
    showCode();
  }

  function wireLesson() {
    const menu = $("lesson");
    for (const l of catalog.lessons) menu.append(option(l.name, l.about, false));
    menu.addEventListener("change", () => {
      if (menu.value.startsWith("file:")) return;
      if (menu.value) open({ lesson: menu.value });
      else open({ scene: lab.state.scene });
    });
    $("lesson-next").addEventListener("click", next);
    $("lesson-back").addEventListener("click", () => {
      gl.gl_back(lab.handle);
      refresh();
      showCode();
    });
    $("copy-answers").addEventListener("click", () => {
      const text = $("answers");
      text.value = lesson.answers_text + "set-up code: " + setupCode() + "\n";
      text.hidden = false;
      text.select();
      if (navigator.clipboard) navigator.clipboard.writeText(text.value).catch(() => {});
    });
  }

  /** The lesson's next step; a "now try" may change the lanes, which are drawn again. */
  function next() {
    const status = gl.gl_next(lab.handle);
    if (status !== 0) say(out());
    changed();
    refresh();
    showCode();
    return status === 0;
  }

  // ---- grabbing and throwing -------------------------------------------------------------

  const grab = { lane: -1, depth: 0, plane: null };

  function ray(event) {
    const box = view.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(
      ((event.clientX - box.left) / box.width) * 2 - 1,
      -((event.clientY - box.top) / box.height) * 2 + 1,
    );
    const caster = new THREE.Raycaster();
    caster.setFromCamera(ndc, view.camera);
    return caster.ray;
  }

  /** Holds the body under the pointer in the nearest lane it hits. */
  function pick(event) {
    if (!view.renderer || !lab.state.solver) return false;
    const r = ray(event);
    let best = null;
    lab.drawing.lanes.forEach((l, lane) => {
      const o = r.origin.clone().sub(new THREE.Vector3(...l.offset));
      const status = gl.gl_pick(lab.handle, lane, o.x, o.y, o.z, r.direction.x, r.direction.y, r.direction.z);
      if (status !== 0) return;
      const hit = JSON.parse(out());
      if (!best || hit.t < best.t) best = { lane, ...hit };
    });
    if (!best || !apply({ Hold: { lane: best.lane, grab: best.grab } }, false)) return false;
    grab.lane = best.lane;
    const point = r.origin.clone().addScaledVector(r.direction, best.t);
    const normal = view.camera.getWorldDirection(new THREE.Vector3());
    grab.plane = new THREE.Plane().setFromNormalAndCoplanarPoint(normal, point);
    return true;
  }

  function drag(event) {
    const point = ray(event).intersectPlane(grab.plane, new THREE.Vector3());
    if (!point) return;
    point.sub(new THREE.Vector3(...lab.drawing.lanes[grab.lane].offset));
    apply({ DragTo: [point.x, point.y, point.z] }, false);
  }

  function wireGrab() {
    if (!view.renderer) return;
    const canvas = view.renderer.domElement;
    canvas.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || !pick(e)) return;
      view.controls.enabled = false;
      try {
        canvas.setPointerCapture(e.pointerId);
      } catch (_) {
        // A pointer the browser does not track (a synthetic one) is followed uncaptured.
      }
    });
    canvas.addEventListener("pointermove", (e) => {
      if (grab.lane >= 0) drag(e);
    });
    const release = () => {
      if (grab.lane < 0) return;
      grab.lane = -1;
      view.controls.enabled = true;
      apply("Release", false);
    };
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    canvas.addEventListener("lostpointercapture", release);
  }

  /** The scene and lesson files `gyrolab web` was given, in the menus after the
   *  built-in ones. */
  function addFiles(files) {
    files.forEach((f, k) => {
      const menu = $(f.kind === "lesson" ? "lesson" : "scene");
      menu.append(option("file:" + k, f.name, false));
    });
    const openFile = (e) => {
      const k = e.target.value.startsWith("file:") ? Number(e.target.value.slice(5)) : -1;
      if (k >= 0) open(files[k].request);
    };
    $("scene").addEventListener("change", openFile);
    $("lesson").addEventListener("change", openFile);
  }

  // ---- the dock's plots --------------------------------------------------------------------

  const PLOT_BYTES = 200000;
  /** The log plots' floor: f64 round-off, so an exact zero does not flatten the rest. */
  const LOG_FLOOR = 1e-17;

  function decodeF32(text) {
    const bytes = decodeBase64(text);
    return new Float32Array(bytes.buffer, 0, bytes.length / 4);
  }

  /** The dock's plots of the run so far, drawn as they are computed; the cursor marks the
   *  moment shown. */
  function drawPlots() {
    if (gl.gl_plots(lab.handle, PLOT_BYTES) !== 0) return;
    const plots = JSON.parse(out());
    const box = $("plots");
    while (box.children.length < plots.length) box.append(document.createElement("canvas"));
    while (box.children.length > plots.length) box.lastChild.remove();
    plots.forEach((plot, k) => drawPlot(box.children[k], plot));
  }

  function drawPlot(canvas, plot) {
    const w = (canvas.width = canvas.clientWidth);
    const h = (canvas.height = canvas.clientHeight);
    const ctx = canvas.getContext("2d");
    const lines = plot.series.map((s) => ({ s, t: decodeF32(s.t), y: Array.from(decodeF32(s.y), (v) => (plot.log ? Math.log10(Math.max(Math.abs(v), LOG_FLOOR)) : v)) }));
    let [t0, t1, y0, y1] = [0, Math.max(lab.state.time, 1e-9), Infinity, -Infinity];
    for (const l of lines) for (const v of l.y) if (Number.isFinite(v)) [y0, y1] = [Math.min(y0, v), Math.max(y1, v)];
    if (!(y1 > y0)) [y0, y1] = [Number.isFinite(y0) ? y0 - 1 : 0, Number.isFinite(y1) ? y1 + 1 : 1];
    for (const l of lines) t1 = Math.max(t1, l.t[l.t.length - 1] || 0);
    const X = (t) => 40 + ((t - t0) / (t1 - t0)) * (w - 48);
    const Y = (v) => h - 16 - ((v - y0) / (y1 - y0)) * (h - 36);
    ctx.fillStyle = "#cfd3da";
    ctx.font = "11px system-ui, sans-serif";
    ctx.fillText(plot.title, 40, 12);
    ctx.fillText(t1.toFixed(1) + " s", w - 40, h - 3);
    if (!lines.some((l) => l.t.length > 1)) {
      // The start's sample alone: no line and no value scale yet, as the recorded page says.
      ctx.fillStyle = "#9a9aa8";
      ctx.textAlign = "center";
      ctx.fillText("nothing run yet", w / 2, h / 2);
      ctx.textAlign = "start";
      return;
    }
    ctx.fillText(fmt(y1, plot.log), 2, 24);
    ctx.fillText(fmt(y0, plot.log), 2, h - 16);
    for (const l of lines) {
      ctx.strokeStyle = l.s.color;
      ctx.setLineDash(l.s.dashed ? [4, 3] : []);
      ctx.beginPath();
      l.t.forEach((t, i) => (i ? ctx.lineTo(X(t), Y(l.y[i])) : ctx.moveTo(X(t), Y(l.y[i]))));
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.strokeStyle = "#ffffff66";
    ctx.beginPath();
    ctx.moveTo(X(lab.state.time), 16);
    ctx.lineTo(X(lab.state.time), h - 16);
    ctx.stroke();
  }

  function fmt(v, log) {
    return log ? "1e" + v.toFixed(0) : Math.abs(v) >= 1000 || (Math.abs(v) < 0.01 && v !== 0) ? v.toExponential(1) : v.toFixed(2);
  }

  // ---- real time -----------------------------------------------------------------------

  const clock = { playing: false, last: 0, owed: 0, physicsMs: 0, slowed: false, frames: 0, plotted: "" };

  /** Plays (or, `replaying`, replays the recording from the moment shown) or pauses. */
  function setPlaying(on, replaying = false) {
    clock.playing = on;
    clock.replaying = on && replaying;
    clock.owed = 0;
    $("play").textContent = on && !replaying ? "❚❚ Pause" : "▶ Play";
    $("replay").textContent = clock.replaying ? "❚❚ Replay" : "Replay";
  }

  /** Steps as many physics steps as real time times the time scale owes, never skipping
   *  one: when the physics cannot keep up, the run slows down and the page says so. */
  function tick(now) {
    try {
      onAnimationFrame(now);
    } finally {
      requestAnimationFrame(tick);
    }
  }

  function onAnimationFrame(now) {
    const elapsed = (now - (clock.last || now)) / 1000;
    // A frame over 0.1 s late (a slow machine, a hidden tab) is owed 0.1 s at most.
    const wall = Math.min(elapsed, 0.1);
    clock.last = now;
    if (clock.playing && lab.handle >= 0) {
      const dt = lab.state.dt;
      clock.owed += wall * Number($("time-scale").value);
      let n = Math.floor(clock.owed / dt + 1e-9);
      const capped = n > MAX_STEPS_A_FRAME;
      n = Math.min(n, MAX_STEPS_A_FRAME);
      const start = performance.now();
      const taken = clock.replaying ? Math.max(gl.gl_replay(lab.handle, n), 0) : step(n);
      clock.physicsMs = performance.now() - start;
      clock.owed = capped ? 0 : clock.owed - n * dt;
      clock.slowed = capped || elapsed > 0.1 || clock.physicsMs > 30;
      if (taken < n) setPlaying(false);
      refresh();
    }
    $("slow").hidden = !(clock.playing && clock.slowed);
    // Drawn again only when the lab, the view or the camera changed.
    if (view.dirty) {
      view.dirty = false;
      draw();
    }
    // The plots every few frames, and whenever the moment shown moved.
    const shown = lab.state ? [lab.handle, lab.changes, lab.state.step, lab.state.last_step].join(":") : "";
    if (shown !== clock.plotted && (++clock.frames % 6 === 0 || !clock.playing)) {
      clock.plotted = shown;
      drawPlots();
    }
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
    const opening = JSON.parse($("gyrolab-open").textContent);
    addFiles(opening.files);
    const code = decoded(location.hash.slice(1));
    if (!(code && open({ setup: code }))) {
      // A damaged code in the address is said, and the page opens as it would without.
      const why = lab.error;
      open(opening.open);
      if (why) say(why);
    }
    const stepped = (n) => {
      const taken = step(n);
      refresh();
      return taken;
    };
    window.gyrolab = {
      plots: () => (gl.gl_plots(lab.handle, PLOT_BYTES) === 0 ? JSON.parse(out()).length : -1),
      apply, step: stepped, poses, open, state: () => lab.state, code: setupCode,
      error: () => lab.error, draw, setPlaying, lesson: () => lesson, answer, next, measureAgain,
      replay: (n) => {
        const taken = gl.gl_replay(lab.handle, n);
        refresh();
        return taken;
      },
      back: () => {
        gl.gl_back(lab.handle);
        refresh();
      },
    };
    requestAnimationFrame((now) => {
      tick(now);
      // The first frame is drawn: how long after the page began to load.
      window.gyrolab.firstFrameMs = performance.now();
      document.body.dataset.ready = "yes";
    });
  }

  start().catch((e) => {
    say("The lab could not start: " + e.message);
    document.body.dataset.ready = "failed";
  });
})();
