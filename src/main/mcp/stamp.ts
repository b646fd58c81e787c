// File-name time stamps for logs written by the agent harness: `20250131T120501Z`, sortable and
// free of characters a file system dislikes.
export function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}
