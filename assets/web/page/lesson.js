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
    // replaceChildren writes a null child as the text "null": the textarea only when shown.
    const answers = any || copied ? [el("textarea", { id: "answers-text", readonly: true, rows: 8, text: answersText() })] : [];
    box.replaceChildren(
      el("h2", { text: "For the teacher" }),
      el("button", { id: "copy-answers", type: "button", onclick: () => copyAnswers(status) }, "Copy answers"),
      status,
      ...answers,
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
      const end = Math.min(num(s.end, num(s.until, 0)), currentTake().end);
      const seen = Math.min(state.seen[state.take], end);
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
    } else if (s.kind === "run" && state.seen[state.take] <= 0 && !state.playing) {
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

  /** Shows step k: its take (at the time it was left), a readout's time. */
  function goTo(k) {
    setPlaying(false);
    state.at = k;
    state.furthest = Math.max(state.furthest, k);
    const p = stepTake(k);
    if (p !== state.take) showTake(p);
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

