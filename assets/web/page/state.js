  // ------------------------------------------------------------------ state

  const state = {
    take: 0,
    time: 0,
    playing: false,
    speed: 1,
    ready: false,
    at: 0, // the lesson's step shown
    furthest: 0, // the furthest step reached
    answers: steps.map(() => null),
    timeOf: takes.map(() => 0), // each take's time, kept while another take is shown
    seen: takes.map(() => 0), // the furthest time each take has been shown at
  };

  const currentTake = () => takes[state.take];

  function stepTake(k) {
    const p = steps[k] && Number.isInteger(steps[k].take) ? steps[k].take : 0;
    return clamp(p, 0, Math.max(0, takes.length - 1));
  }

  /** How far the take shown may be seen: all of a scene; in a lesson, to the end of the
   *  furthest run reached in this take (0 while its first question is unanswered). */
  function visibleEnd() {
    const take = currentTake();
    if (!take) return 0;
    if (!isLesson) return take.end;
    let end = 0;
    for (let k = 0; k <= state.furthest && k < steps.length; k++) {
      const s = steps[k];
      if (s.kind === "run" && stepTake(k) === state.take) end = Math.max(end, num(s.end, num(s.until, 0)));
    }
    return Math.min(end, take.end);
  }

  /** How far the plots are drawn: a scene's whole recording; a lesson's only as far as seen. */
  function plotLimit() {
    return isLesson ? state.seen[state.take] : Infinity;
  }

  function runDone(k) {
    const s = steps[k];
    const p = stepTake(k);
    const end = Math.min(num(s.end, num(s.until, 0)), takes[p].end);
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

