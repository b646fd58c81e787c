// The job kinds the lab's worker pool runs: each name maps to a handler that runs inside a worker
// thread (pool-worker.ts imports this table; the main thread sees only its types, through
// src/main/workers/job-table.ts, which this file fills by declaration merging). To add a
// kind, add its handler here: its input and output types follow from the handler. Kinds run as
// split jobs (WorkerPool.runSplit: 'raster.tiles', 'probe.share') take their work from a shared
// counter in their input, so any number of parts finishes them.
// Invariant: handlers take and return structured-clone data (no functions, no class instances
// whose methods are needed on the other side) and never touch main-thread state.
import { drawGradients, drawPixel, drawView } from '../debug/draw';
import { turnJob } from '../debug/frame';
import { measureJob, renderJob, viewsJob } from '../grader/cpu-views';
import { tileBinJob, tileStageJob } from '../raster/tile-jobs';
import { kindJobHandlers } from '../kinds/jobs';
import { fitJob } from './jobs/fit';
import { fitBandsJob } from './jobs/fit-bands';
import { nerfReadJob } from './jobs/nerf-read';
import { lossPlotJob } from './jobs/loss-plot';
import * as probe from './jobs/probe';
import { raycastJob } from './jobs/raycast';
import { readSplatJob } from './jobs/read-splat';
import { scrambleJob } from './jobs/scramble';
import { splatPreviewJob } from './jobs/splat-preview';
import { pngJob } from './jobs/sheets';
import { parseTrajectoryJob } from './jobs/trajectory';
import { readViewsJob, writeViewsJob } from './jobs/views';
import { zipJob } from './jobs/zip';

export const jobHandlers = {
  'debug.view': drawView,
  'debug.gradients': drawGradients,
  'debug.pixel': drawPixel,
  'debug.turn': turnJob,
  'grade.render': renderJob,
  'grade.views': viewsJob,
  'grade.measure': measureJob,
  'author.raycast': raycastJob,
  'author.fit': fitJob,
  'author.fit.bands': fitBandsJob,
  'nerf.read': nerfReadJob,
  'views.read': readViewsJob,
  'views.write': writeViewsJob,
  'trajectory.parse': parseTrajectoryJob,
  'archive.zip': zipJob,
  'format.read': readSplatJob,
  'author.splatPreview': splatPreviewJob,
  'image.png': pngJob,
  'author.lossPlot': lossPlotJob,
  'author.scramble': scrambleJob,
  'raster.tiles': tileStageJob,
  'raster.bin': tileBinJob,
  'probe.echo': probe.echo,
  'probe.spin': probe.spin,
  'probe.fail': probe.fail,
  'probe.crash': probe.crash,
  'probe.resident': probe.readResident,
  'probe.share': probe.share,
  'probe.hog': probe.hog,
  'probe.thread': probe.thread,
  'probe.priority': probe.priority,
  // The task kinds' own jobs (src/main/kinds/jobs.ts).
  ...kindJobHandlers,
};

type Handlers = typeof jobHandlers;

declare module '../workers/job-table' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the table is the handlers' types
  interface JobTable extends Handlers {}
}

export type { JobInput, JobKind, JobOutput } from '../workers/job-table';
