export * from "three";
export { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
