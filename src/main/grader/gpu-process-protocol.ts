// Messages between the GPU grader's parent (gpu-process.ts, the process that owns the grader)
// and its child process (src/main/threads/gpu-grader.ts, its own Dawn device): issue 29 item 1,
// docs/ARCHITECTURE.md "GPU grading in a child process". Input/output: plain data carried by
// Node's 'advanced' IPC serialization (typed arrays included; no SharedArrayBuffer).
// Invariant: every 'call' gets exactly one 'result' or 'error' with its id, or the child ends,
// which fails every call in flight; a view is sent once per child by key and kept until 'release'.
import type { ShaderLibrary } from '../../shared/gpu/compose';
import type { GpuStatus } from '../../shared/api/schemas';
import type { Camera, RenderOutput, Splats } from '../../shared/raster/types';
import type { GradeView } from './cpu-views';
import type { ViewScores } from './types';

/** What the child is started with (its first message). */
export interface GpuChildInit {
  type: 'init';
  /** LPIPS weights: null for none, else the folder option the parent's grader loaded them with. */
  lpips: { dir?: string } | null;
  shaders: ShaderLibrary;
}

export type GpuCall =
  | { op: 'render'; splats: Splats; cameras: Camera[] }
  | { op: 'measure'; renders: RenderOutput[]; keys: string[]; withLpips: boolean }
  | { op: 'renderAndMeasure'; splats: Splats; keys: string[]; withLpips: boolean };

export interface GpuCallResults {
  render: RenderOutput[];
  measure: ViewScores[];
  renderAndMeasure: { renders: RenderOutput[]; scores: ViewScores[] };
}

export type ToGpuChild =
  | GpuChildInit
  | { type: 'view'; key: string; view: GradeView }
  | { type: 'release'; keys: string[] }
  | { type: 'call'; id: number; call: GpuCall };

export type FromGpuChild =
  | { type: 'ready'; status: GpuStatus }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; message: string };
