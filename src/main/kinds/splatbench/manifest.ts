// SplatBench's main manifest (src/main/kinds/manifests.ts; docs/ARCHITECTURE.md, "The composition
// root and task kinds"): its module (./kind.ts), its Inspect scorer (./study/scorer.ts) and its
// tools' reference page (docs/TOOLS.md). Its
// tables are the shared study tables and SplatBench's paper tables, so it has no study part; it
// has no LabApi rows or command of its own (authoring's are the lab's).
import type { MainKindManifest } from '../manifest';
import { splatbenchMain } from './kind';
import { splatScorer } from './study/scorer';
import { toolsMarkdown } from '../../../shared/kinds/splatbench/tools-doc';

export const splatbenchManifest: MainKindManifest = { module: splatbenchMain, scorer: splatScorer, toolsDoc: toolsMarkdown };
