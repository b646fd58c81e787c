// Writes docs/TOOLS.md from the tool schemas (wired to an npm script by the lead).
import { writeFileSync } from 'node:fs';
import { toolsMarkdown } from '../../../shared/kinds/splatbench/tools-doc';

export const TOOLS_DOC_PATH = 'docs/TOOLS.md';

export function writeToolsDoc(path = TOOLS_DOC_PATH): void {
  writeFileSync(path, toolsMarkdown());
}
