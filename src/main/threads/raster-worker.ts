// Entry of a worker thread that runs only the tile rasterizer's jobs ('raster.tiles',
// 'raster.bin': raster/tile-jobs.ts), for the pools TileRasterPool.create() owns (`splatlab
// render`, benches): it loads the kernels and the message loop alone, not the whole handler table
// of jobs.ts with the lab's schemas and decoders, so each such thread costs about a third of the
// memory of a pool-worker.ts thread (docs/PERFORMANCE.md, "Memory, 1.5M SH3 on screen").
// Invariant: the handlers are the very ones jobs.ts names for these kinds.
import { tileBinJob, tileStageJob } from '../raster/tile-jobs';
import { serveJobs } from '../workers/serve-jobs';

serveJobs({ 'raster.tiles': tileStageJob, 'raster.bin': tileBinJob }, 'raster-worker.ts');
