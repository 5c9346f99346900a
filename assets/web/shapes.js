// What both pages draw alike, joined before each page's own script (src/web/page.rs and
// src/web/live.rs): a shape's reach and the ground's grid. Uses three.js (global THREE).
const sharedShapes = (() => {
  const num = (x) => (typeof x === "number" && isFinite(x) ? x : 0);
  const vec3 = (a) => (Array.isArray(a) && a.length >= 3 ? a.map(Number) : [0, 0, 0]);

  /** A shape's bounding radius about its body's origin: for framing, and for placing a
   *  lane's label clear of its bodies. */
  function reach(s) {
    const off = Math.hypot(...vec3(s.offset));
    const r = num(s.radius);
    const l = num(s.length);
    if (s.kind === "box") return off + Math.hypot(...vec3(s.half_extents));
    if (s.kind === "cylinder") return off + Math.hypot(r, l / 2);
    if (s.kind === "capsule") return off + r + l / 2;
    return off + r;
  }

  /** A size × size grid of 1 m squares in the XZ plane, each line cut into 1 m pieces: a
   *  long line that passes behind the camera is dropped whole by some WebGL clippers
   *  (Chromium's software one among them), which left only the lines across the view. */
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

  return Object.freeze({ reach, gridGeometry });
})();
