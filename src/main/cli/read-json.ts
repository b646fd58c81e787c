// A JSON file named on the command line (a scene, a camera), read for a CLI command. Its own small
// module so that commands needing only this (`splatlab grade`) do not load another command's
// machinery (render.ts: Dawn, the GPU rasterizer) at start (issue 40 item 3).
// Input: a path and what it is. Output: the parsed JSON. Invariant: a missing or unreadable file
// or bad JSON is one CliError line naming the file.
import { readFileSync } from 'node:fs';
import { CliError } from './command';

export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new CliError(`cannot read the ${what} ${path}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${path} is not valid JSON (${(error as Error).message}); NaN and Infinity are not JSON numbers`);
  }
}
