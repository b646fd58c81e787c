// The main manifest of a task kind (docs/DESIGN.md section 13; docs/ARCHITECTURE.md, "The
// composition root and task kinds"): the one object a kind exports in main
// (src/main/kinds/<kind>/manifest.ts, or a SPLATLAB_KINDS folder's main/manifest.ts) carrying
// everything it supplies there. Its parts sit in several tiers (the module in the kinds tier, the
// study part in the studies tier, the handlers in the services tier, the commands in the CLI's),
// so the manifest and its registry (./manifests.ts) stand at the top.
import type { CommandEntry } from '../cli/command';
import type { KindHandlers } from '../services/kind-handlers';
import type { KindStudyPart } from '../study/kind-part';
import type { MainKindModule } from './kind';
import type { KindScorer } from './scorer';

/** Everything a kind supplies in main (docs/DESIGN.md section 13). */
export interface MainKindManifest {
  /** Load, summary, live episode, pure rules, optional analyses (`report`) and regrading. */
  readonly module: MainKindModule;
  /** Its Inspect scorer: required, since an export of its runs must say how they score. */
  readonly scorer: KindScorer;
  /** Its export and paper tables; default none (its episodes are in the shared tables). */
  readonly studyPart?: KindStudyPart;
  /** The handlers of its own LabApi rows (src/shared/kinds/api.ts); default none. */
  readonly handlers?: KindHandlers;
  /** Its own `splatlab` commands, loaded lazily; default none. */
  readonly commands?: Readonly<Record<string, CommandEntry>>;
  /** Its tools' reference page in Markdown (`splatlab tools --markdown`; docs/TOOLS.md is the lab's default kind's); default none. */
  readonly toolsDoc?: () => string;
}
