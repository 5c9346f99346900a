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

  /** Shows time t, kept within what may be seen; remembers how far the take has been seen. */
  function setTime(t) {
    const end = visibleEnd();
    state.time = clamp(num(t, 0), 0, end);
    state.timeOf[state.take] = state.time;
    state.seen[state.take] = Math.max(state.seen[state.take], state.time);
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
    const take = currentTake();
    const end = visibleEnd();
    const full = take && take.end > 0 ? take.end : 1;
    const slider = $("time");
    slider.max = String(full);
    slider.value = String(state.time);
    slider.style.setProperty("--seen-pct", (100 * Math.min(state.seen[state.take] || 0, end)) / full + "%");
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

