// Job 'author.splatPreview': the import dialog's preview of a splat-file upload (the file decoded,
// placed and drawn twice on the CPU, src/main/authoring/session/splat-preview.ts) on a worker
// thread run with the decoders' heap limits, so a large or hostile upload never holds the event
// loop (issue 38 item 1). Input: the staged file, the up choice and yaw. Output: UploadPreview.
// Invariant: the same preview as previewSplatUpload in-process.
import type { UploadPreview } from '../../../shared/api/author';
import { previewSplatUpload } from '../../authoring/session/splat-preview';
import type { UpChoice } from '../../formats/import';

export function splatPreviewJob(input: { path: string; up: UpChoice; yawDeg: number }): Promise<UploadPreview> {
  return previewSplatUpload(input.path, input.up, input.yawDeg);
}
