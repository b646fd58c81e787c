// The job kinds the lab's worker pool runs: each name maps to a handler that runs inside a worker
// thread (pool-worker.ts imports this table; the main thread imports only its types). To add a
// kind, add its handler here: its input and output types follow from the handler.
// Invariant: handlers take and return structured-clone data (no functions, no class instances
// whose methods are needed on the other side) and never touch main-thread state.
import { drawGradients, drawPixel, drawView } from '../debug/draw';
import { turnJob } from '../debug/frame';
import { measureJob, renderJob, viewsJob } from '../grader/cpu-views';
import * as probe from './jobs/probe';
import { raycastJob } from './jobs/raycast';
import { parseTrajectoryJob } from './jobs/trajectory';

export const jobHandlers = {
  'debug.view': drawView,
  'debug.gradients': drawGradients,
  'debug.pixel': drawPixel,
  'debug.turn': turnJob,
  'grade.render': renderJob,
  'grade.views': viewsJob,
  'grade.measure': measureJob,
  'author.raycast': raycastJob,
  'trajectory.parse': parseTrajectoryJob,
  'probe.echo': probe.echo,
  'probe.spin': probe.spin,
  'probe.fail': probe.fail,
  'probe.crash': probe.crash,
  'probe.resident': probe.readResident,
};

export type JobKind = keyof typeof jobHandlers;
export type JobInput<K extends JobKind> = Parameters<(typeof jobHandlers)[K]>[0];
export type JobOutput<K extends JobKind> = Awaited<ReturnType<(typeof jobHandlers)[K]>>;
