  // ------------------------------------------------------------------ side panel, takes

  function renderNote() {
    const note = $("note");
    const take = currentTake();
    note.hidden = !(take && take.note);
    note.textContent = take && take.note ? take.note : "";
  }

  function legendList(take) {
    return el("ul", { class: "legend" },
      take.lanes.map((l) => {
        const swatch = el("span", { class: "swatch" });
        swatch.style.background = l.color;
        return el("li", {}, swatch, el("span", { text: l.name }));
      }),
      take.ghost ? el("li", {}, el("span", { class: "swatch ghost" }), el("span", { text: "the exact solution (translucent)" })) : null,
    );
  }

  function renderSceneInfo() {
    const box = $("scene-info");
    const take = currentTake();
    box.hidden = false;
    box.replaceChildren(
      data.description ? el("p", { text: data.description }) : null,
      take ? el("h2", { text: "Lanes" }) : null,
      take ? legendList(take) : null,
    );
    renderNote();
  }

  /** Shows take p: its 3D view, its plots, at the time it was left. */
  function showTake(p) {
    state.take = p;
    buildPlots(decodeTake(takes[p]));
    showTakeView(p);
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
      take: state.take,
      time: state.time,
      playing: state.playing,
      visibleEnd: visibleEnd(),
      ready: state.ready,
    }),
    pose: (p, frame, run, body) => {
      const take = takes[p];
      if (!take) return null;
      decodeTake(take);
      if (frame < 0 || frame >= take.times.length || run < 0 || run >= take.runs || body < 0 || body >= take.bodies.length) return null;
      const j = poseIndex(take, frame, run, body);
      return Array.from(take.poses.subarray(j, j + 7));
    },
    frames: (p) => (takes[p] ? decodeTake(takes[p]).times.length : 0),
    times: (p) => (takes[p] ? decodeTake(takes[p]).times.slice() : []),
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
    if (takes.length === 0) {
      showViewMessage("This recording holds no runs.");
      updateLive();
      state.ready = true;
      return;
    }
    if (isLesson) {
      lessonBox.hidden = false;
      showTake(stepTake(0));
      renderLesson();
    } else {
      showTake(0);
      renderSceneInfo();
    }
    requestAnimationFrame(tick);
  }

  start();
