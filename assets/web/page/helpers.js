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

