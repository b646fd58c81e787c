// Task schemas: what parses, what is refused with which message, and that the public summary
// carries nothing held out.
import { describe, expect, it } from 'vitest';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { AnchorsSchema, CamerasFileSchema, firstIssue, TaskSpecSchema, taskSummary, TaskSummarySchema } from '../../../src/shared/task/schema';

const spec = { task_id: 'table__sculpt', kind: 'sculpt', object: 'table', max_gaussians: 300, max_tool_calls: 40, max_renders: 16, init_npz: null };

describe('TaskSpecSchema', () => {
  it('accepts the seed example and the one-shot form', () => {
    expect(TaskSpecSchema.parse(spec)).toEqual(spec);
    expect(TaskSpecSchema.safeParse({ ...spec, kind: 'oneshot', max_tool_calls: 1, max_renders: 0 }).success).toBe(true);
  });

  it('refuses a reassembly task without init_npz and bad fields, naming the field', () => {
    const r = TaskSpecSchema.safeParse({ ...spec, kind: 'reassembly' });
    expect(r.success).toBe(false);
    if (!r.success) expect(firstIssue(r.error)).toBe('init_npz: a reassembly task needs init_npz');
    const bad = TaskSpecSchema.safeParse({ ...spec, max_renders: -1 });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(firstIssue(bad.error)).toMatch(/^max_renders: /);
    expect(TaskSpecSchema.safeParse({ ...spec, task_id: '../x' }).success).toBe(false);
  });
});

describe('cameras and anchors', () => {
  it('parse real cameras and reject a short matrix', () => {
    const camera = orbitCamera({ azimuth: 0, elevation: 20 });
    const ok = CamerasFileSchema.safeParse({ reference: [{ name: 'V0', azimuth: 0, elevation: 20, camera }], heldout: [{ name: 'H0', camera }] });
    expect(ok.success).toBe(true);
    const bad = CamerasFileSchema.safeParse({ reference: [{ name: 'V0', camera: { ...camera, world_to_camera: [1, 0, 0] } }], heldout: [] });
    expect(bad.success).toBe(false);
    expect(AnchorsSchema.safeParse({ empty: { psnr: 1, ssim: 1, lpips: null, iou: 0 }, fit: { psnr: 2, ssim: 1, lpips: null, iou: 1 }, lpips_model: null }).success).toBe(true);
  });
});

describe('taskSummary', () => {
  it('keeps budgets and reference angles only', () => {
    const s = taskSummary(TaskSpecSchema.parse(spec), [{ name: 'V0', azimuth: 0, elevation: 20 }, { name: 'R1' }]);
    expect(TaskSummarySchema.parse(s)).toEqual({
      id: 'table__sculpt',
      kind: 'sculpt',
      object: 'table',
      budgets: { maxGaussians: 300, maxToolCalls: 40, maxRenders: 16 },
      startsFromInit: false,
      referenceViews: [{ name: 'V0', azimuth: 0, elevation: 20 }, { name: 'R1' }],
    });
  });
});
