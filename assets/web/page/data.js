  // ------------------------------------------------------------------ data
  // The data's shape is written once, in Rust: `web::page::Page` (src/web/page.rs) and
  // the types it holds (a take's `Recording` in record.rs, a step's `PageStep` in
  // steps.rs). This file reads it, checking each field, into the page's own objects.

  function readData() {
    try {
      return JSON.parse($("gyrolab-data").textContent);
    } catch (e) {
      console.error("gyrolab: the page's data cannot be read", e);
      return {};
    }
  }

  const data = readData();
  const steps = Array.isArray(data.steps) ? data.steps : [];
  const isLesson = data.kind === "lesson" && steps.length > 0;

  /** A take as the page uses it; its poses are decoded the first time they are needed. */
  function prepareTake(raw) {
    const times = (Array.isArray(raw.times) ? raw.times : []).map(Number);
    const lanes = Array.isArray(raw.lanes) && raw.lanes.length
      ? raw.lanes
      : [{ name: "", color: "#4d8cf2", offset: [0, 0, 0] }];
    const last = times.length ? times[times.length - 1] : 0;
    return {
      raw,
      lanes: lanes.map((l, i) => ({
        name: l.name || "lane " + (i + 1),
        color: l.color || "#4d8cf2",
        offset: vec3(l.offset, [0, 0, 0]),
      })),
      ghost: !!raw.ghost,
      bodies: Array.isArray(raw.bodies) ? raw.bodies : [],
      frames: Array.isArray(raw.frames) ? raw.frames : [],
      planes: Array.isArray(raw.planes) ? raw.planes : [],
      plots: Array.isArray(raw.plots) ? raw.plots : [],
      joints: Number.isInteger(raw.joints) && raw.joints > 0 ? raw.joints : 0,
      note: raw.note || null,
      times,
      end: last, // the last frame's time
      decoded: false,
    };
  }

  const takes = (Array.isArray(data.takes) ? data.takes : []).map(prepareTake);

  /** Decodes a take's poses, trimming frames the data does not hold and a ghost it lacks. */
  function decodeTake(take) {
    if (take.decoded) return take;
    take.decoded = true;
    const poses = decodeF32(take.raw.poses);
    const nb = take.bodies.length;
    const lanes = take.lanes.length;
    let frames = take.times.length;
    if (nb > 0) {
      const perFrame = (runs) => runs * nb * 7;
      if (take.ghost && poses.length < frames * perFrame(lanes + 1)) {
        console.warn("gyrolab: the ghost's poses are missing; drawn without it");
        take.ghost = false;
      }
      frames = Math.min(frames, Math.floor(poses.length / perFrame(lanes + (take.ghost ? 1 : 0))));
    }
    const framePoses = decodeF32(take.raw.frame_poses);
    if (take.frames.length > 0 && framePoses.length < frames * take.frames.length * 8) {
      console.warn("gyrolab: moving frames' poses are missing; frames not drawn");
      take.frames = [];
    }
    if (frames < take.times.length) {
      console.warn("gyrolab: the data holds " + frames + " of " + take.times.length + " frames");
      take.times = take.times.slice(0, frames);
      take.end = Math.min(take.end, frames ? take.times[frames - 1] : 0);
    }
    const jointEnds = decodeF32(take.raw.joint_ends);
    if (take.joints > 0 && jointEnds.length < frames * lanes * take.joints * 6) {
      console.warn("gyrolab: the joints' ends are missing; joints not drawn");
      take.joints = 0;
    }
    take.poses = poses;
    take.framePoses = framePoses;
    take.jointEnds = jointEnds;
    take.runs = lanes + (take.ghost ? 1 : 0);
    return take;
  }

  const qScratch = [0, 0, 0, 1]; // slerpFlat's output, reused every call

  const poseIndex = (take, frame, run, body) =>
    ((frame * take.runs + run) * take.bodies.length + body) * 7;

  /** Body `body` of run `run` at the moment `where` (from locate): position into `pos`,
   *  rotation into `quat` (THREE.Vector3, THREE.Quaternion). */
  function bodyPose(take, run, body, where, pos, quat) {
    const p = take.poses;
    const j0 = poseIndex(take, where.i0, run, body);
    const j1 = poseIndex(take, where.i1, run, body);
    lerpInto(p, j0, j1, where.a, pos);
    THREE.Quaternion.slerpFlat(qScratch, 0, p, j0 + 3, p, j1 + 3, where.a);
    quat.fromArray(qScratch);
  }

  /** Moving frame f at the moment `where`: position and rotation as bodyPose; returns its scale. */
  function framePose(take, f, where, pos, quat) {
    const p = take.framePoses;
    const n = take.frames.length;
    const j0 = (where.i0 * n + f) * 8;
    const j1 = (where.i1 * n + f) * 8;
    lerpInto(p, j0, j1, where.a, pos);
    THREE.Quaternion.slerpFlat(qScratch, 0, p, j0 + 3, p, j1 + 3, where.a);
    quat.fromArray(qScratch);
    return p[j0 + 7] + (p[j1 + 7] - p[j0 + 7]) * where.a;
  }

  function lerpInto(p, j0, j1, a, out) {
    out.x = p[j0] + (p[j1] - p[j0]) * a;
    out.y = p[j0 + 1] + (p[j1 + 1] - p[j0 + 1]) * a;
    out.z = p[j0 + 2] + (p[j1 + 2] - p[j0 + 2]) * a;
    return out;
  }

