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

  function localMatrix(s) {
    const q = Array.isArray(s.rotation) && s.rotation.length === 4 ? s.rotation : [0, 0, 0, 1];
    return new THREE.Matrix4().compose(
      new THREE.Vector3(...vec3(s.offset, [0, 0, 0])),
      new THREE.Quaternion(q[0], q[1], q[2], q[3]).normalize(),
      new THREE.Vector3(1, 1, 1),
    );
  }

  /** The bodies' shapes grouped by geometry: one InstancedMesh per group and lane. */
  function shapeGroups(take) {
    const groups = new Map();
    take.bodies.forEach((body, b) => {
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

  /** Everything drawn for one take: the lanes (bodies, ghost, moving frames) and the ground. */
  function buildTakeView(p) {
    const take = decodeTake(takes[p]);
    const world = new THREE.Group();
    world.matrixAutoUpdate = false;
    const groups = shapeGroups(take);
    // Pushed back in depth: where a lane matches the exact solution its ghost is hidden
    // rather than flickering through the body; it shows where they diverge.
    const ghostMaterial = new THREE.MeshStandardMaterial({
      color: 0xffffff, roughness: 0.45, transparent: true, opacity: GHOST_OPACITY, depthWrite: false,
      polygonOffset: true, polygonOffsetFactor: 2, polygonOffsetUnits: 2,
    });
    const frameMaterial = new THREE.MeshStandardMaterial({ color: FRAME_GREY, roughness: 0.6, vertexColors: true });
    const lanes = take.lanes.map((lane, i) => {
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
        ghost: take.ghost ? instanced(groups, ghostMaterial, group) : null,
        frames: take.frames.map((f) => {
          const g = frameGroup(f, frameMaterial);
          group.add(g);
          return g;
        }),
        joints: jointLines(take, group),
      };
    });
    const pv = {
      take, world, groups, lanes,
      bodyMatrices: [...Array(take.runs)].map(() => take.bodies.map(() => new THREE.Matrix4())),
      // Each body's reach from its centre: room to frame it, and where its lane's label goes.
      reach: take.bodies.map((body) => Math.max(0.05, ...(body.parts || []).map(sharedShapes.reach))),
    };
    pv.box = sceneBox(pv);
    const travel = travelBox(take).union(pv.box);
    for (const plane of take.planes) world.add(groundFor(plane, travel));
    pv.labels = laneLabels(pv);
    return pv;
  }

  /** A lane's joints as line segments from the anchor on the first body to the anchor on
   *  the second (a rope, a rod, a spring's ends; a ball joint's two anchors meet). */
  function jointLines(take, group) {
    if (take.joints === 0) return null;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(take.joints * 6), 3));
    const lines = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: JOINT_COLOR }));
    lines.frustumCulled = false;
    group.add(lines);
    return lines;
  }

  /** Lane `lane`'s joint ends at the moment `where` into its lines; a broken joint (NaN)
   *  collapses to nothing. */
  function placeJoints(take, lane, where, lines) {
    const ends = take.jointEnds;
    const out = lines.geometry.attributes.position.array;
    const n = take.joints * 6;
    const j0 = (where.i0 * take.lanes.length + lane) * n;
    const j1 = (where.i1 * take.lanes.length + lane) * n;
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
    const take = pv.take;
    const box = new THREE.Box3();
    const where = { i0: 0, i1: 0, a: 0 };
    const pos = new THREE.Vector3();
    const quat = new THREE.Quaternion();
    const m = new THREE.Matrix4();
    const lanes = take.times.length > 0 ? take.lanes : [];
    lanes.forEach((lane, i) => {
      const off = new THREE.Vector3().fromArray(lane.offset);
      take.bodies.forEach((body, b) => {
        bodyPose(take, i, b, where, pos, quat);
        pos.add(off);
        box.union(new THREE.Box3().setFromCenterAndSize(pos, new THREE.Vector3().setScalar(2.8 * pv.reach[b])));
      });
      take.frames.forEach((f, k) => {
        const scale = framePose(take, k, where, pos, quat);
        pos.add(off);
        box.union(shapesBox(f.parts, m.compose(pos, quat, new THREE.Vector3().setScalar(scale > 0 ? scale : 1))));
      });
    });
    if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
    pv.bodyBox = box.clone();
    for (const plane of take.planes) {
      const n = new THREE.Vector3(...vec3(plane.normal, [0, 1, 0])).normalize();
      const y = num(plane.offset, 0) / n.y;
      if (n.y > 0.9 && y < box.min.y) box.min.y = y;
    }
    return box;
  }

  /** Where the bodies and moving frames go over the whole recording (every lane), for the
   *  ground's extent: a van that drives off keeps a floor under it. */
  function travelBox(take) {
    const box = new THREE.Box3();
    const p = new THREE.Vector3();
    const add = (values, j, off) => {
      p.set(values[j] + off[0], values[j + 1] + off[1], values[j + 2] + off[2]);
      if (isFinite(p.x) && isFinite(p.y) && isFinite(p.z)) box.expandByPoint(p);
    };
    // About a hundred frames, the last among them, are enough to see where things go.
    const n = take.times.length;
    const stride = Math.max(1, Math.ceil(n / 100));
    const sampled = [];
    for (let f = 0; f < n; f += stride) sampled.push(f);
    if (n > 1 && sampled[sampled.length - 1] !== n - 1) sampled.push(n - 1);
    for (const f of sampled) {
      take.lanes.forEach((lane, i) => {
        for (let b = 0; b < take.bodies.length; b++) add(take.poses, poseIndex(take, f, i, b), lane.offset);
        for (let k = 0; k < take.frames.length; k++) add(take.framePoses, (f * take.frames.length + k) * 8, lane.offset);
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
      sharedShapes.gridGeometry(size),
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

  /** Each lane's name, in an HTML label placed each frame by placeLabels. */
  function laneLabels(pv) {
    return pv.take.lanes.map((info) => {
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

  /** Poses every body, ghost and moving frame of the take shown at time t. */
  function poseAt(pv, t) {
    const take = pv.take;
    if (take.times.length === 0) return;
    const where = locate(take.times, t);
    const pos = new THREE.Vector3();
    const quat = new THREE.Quaternion();
    const one = new THREE.Vector3(1, 1, 1);
    for (let r = 0; r < take.runs; r++) {
      for (let b = 0; b < take.bodies.length; b++) {
        bodyPose(take, r, b, where, pos, quat);
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
    const ghostRun = take.lanes.length;
    for (const lane of pv.lanes) {
      place(lane.bodies, lane.run);
      if (lane.ghost) place(lane.ghost, ghostRun);
      lane.frames.forEach((g, f) => {
        const scale = framePose(take, f, where, g.position, g.quaternion);
        g.scale.setScalar(scale > 0 ? scale : 1);
      });
      if (lane.joints) placeJoints(take, lane.run, where, lane.joints);
    }
    pv.world.matrix.copy(viewMatrix(take, where));
    pv.world.matrixWorldNeedsUpdate = true;
  }

  /** The matrix from world to the view's coordinates at a moment: with a followed frame,
   *  the inverse of that frame's pose (the world drawn in its coordinates); else identity. */
  function viewMatrix(take, where) {
    const f = data.camera ? data.camera.follow : null;
    const m = new THREE.Matrix4();
    if (Number.isInteger(f) && f >= 0 && f < take.frames.length && take.times.length > 0) {
      const pos = new THREE.Vector3();
      const quat = new THREE.Quaternion();
      framePose(take, f, where, pos, quat);
      m.compose(pos, quat, new THREE.Vector3(1, 1, 1)).invert();
    }
    return m;
  }

  /** Shows take p's view (built the first time) and puts the camera where it starts. */
  function showTakeView(p) {
    if (!three || !takes[p]) return;
    if (three.shown) three.scene.remove(three.shown.world);
    if (!three.views[p]) three.views[p] = buildTakeView(p);
    const pv = three.views[p];
    three.shown = pv;
    three.scene.add(pv.world);
    labelsBox.replaceChildren(...pv.labels);
    $("view-legend").hidden = !pv.take.ghost;
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

