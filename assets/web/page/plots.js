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

  function buildPlots(take) {
    plotViews = take.plots.map((raw) => {
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
    const take = currentTake();
    if (!take) return;
    const limit = Math.min(plotLimit(), visibleEnd());
    for (const pv of plotViews) drawPlot(pv, state.time, limit, take.end);
  }

