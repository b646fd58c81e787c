// CPU reference rasterizer (docs/DESIGN.md section 3): the truth every GPU stage is tested against.
// Stages mirror the WGSL pipeline: project_forward, rasterize_forward, rasterize_backward,
// project_backward; trace replays one pixel for the debugger.
export { projectForward, projectGaussian, exactRadii, type ProjectedGaussian } from './project-forward';
export {
  rasterizeForward,
  rasterizeForwardDense,
  rasterizeForwardState,
  depthOrder,
  BACKGROUND,
  finish,
  toOutput,
  type ForwardState,
} from './rasterize-forward';
export { undecidablePixels, F32_EPS, F32_SAFETY, ORDER_TOLERANCE, type DecisionReport, type DecisionReason, type DecisionOptions } from './decidable';
export { traceContributors, tracePixel, type Contributor, type PixelTrace } from './trace';
export {
  NEAR_PLANE,
  COV2D_DILATION,
  ALPHA_THRESHOLD,
  ALPHA_MAX,
  T_STOP,
  cameraMath,
  pixelRange,
  type CameraMath,
} from './camera-math';
export { rasterizeBackward, rasterizeBackwardPixels, type ProjectionGrads } from './rasterize-backward';
export { projectBackward, type ProjectBackwardGrads } from './project-backward';
export {
  SH_C0,
  shRestCount,
  shBasis,
  shBasisGrad,
  cameraPosition,
  effectiveDegree,
  viewColors,
  viewColorsBackward,
  type ShGrads,
  type ShOptions,
} from './sh';
