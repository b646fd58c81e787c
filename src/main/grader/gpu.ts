// GPU grading backend (pending the WGSL rasterizer and GPU metrics).
import type { LpipsWeights } from '../../shared/metrics/lpips-weights';
import type { GradeBackend } from './types';

export async function createGpuBackend(_device: GPUDevice, _weights: LpipsWeights | null): Promise<GradeBackend> {
  throw new Error('GPU grading is not available yet');
}
