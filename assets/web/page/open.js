// gyrolab web page: plays back a scene's or a lesson's recorded runs in any browser.
// The data (see the JSON in #gyrolab-data) holds every lane's poses frame by frame; this
// script draws them with three.js (global THREE), interpolates between frames, draws the
// dock's plots on 2D canvases and, for a lesson, walks its steps as the desktop app does:
// nothing of a run is shown before its question is answered, and no time past the runs
// reached so far may be seen.
(function () {
  "use strict";

  const BACKGROUND = 0x1e1e24;
  const FRAME_GREY = 0x6b756b;
  const NO_WEBGL = "This browser cannot draw 3D (WebGL is off); the plots and the lesson still work.";
  const JOINT_COLOR = 0x8cd9ff; // the app's joints: sRGB (0.55, 0.85, 1.0)
  const GRID_COLOR = 0x8c99a6;
  const GHOST_OPACITY = 0.22;
  const LOOK_DOWN_DEG = 24;
  const EPS = 1e-6;
  const LETTERS = "abcdefghijklmnopqrstuvwxyz";

