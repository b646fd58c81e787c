// The task-kind interface, renderer half (docs/DESIGN.md section 9): each kind family's play view
// and Results panel (./kind.ts). The app shell, the participant session and Results open a kind's
// parts through this registry only, so a new kind adds one line to RENDERER_KINDS (or is bundled
// from `SPLATLAB_KINDS`, src/main/kinds/vite-kinds.ts) and nothing else in the shell changes.
// Invariant: every family of src/shared/kinds/registry.ts has a play view.
import type { Component } from 'vue';
import bundledKinds from 'virtual:splatlab-kinds';
import { kindModule, registerKind } from '../../shared/kinds/registry';
import type { TaskKind } from '../../shared/task/schema';
import type { RendererKindModule } from './kind';
import { splatbenchRenderer } from './splatbench/kind';
import { relationRenderer } from './relation/kind';
import { searchRenderer } from './search/kind';

const RENDERER_KINDS: RendererKindModule[] = [splatbenchRenderer, searchRenderer, relationRenderer];
for (const k of bundledKinds) {
  registerKind(k.shared);
  RENDERER_KINDS.push(k.renderer);
}

export function playViewFor(kind: TaskKind): Component {
  const family = kindModule(kind).family;
  const view = RENDERER_KINDS.find((k) => k.family === family)?.playView;
  if (!view) throw new Error(`no play view for task kind '${kind}'`);
  return view;
}

/** The top-level views the kinds add (by nav name); a name two kinds add is refused with one line. */
export function kindViews(): Record<string, Component> {
  const views: Record<string, Component> = {};
  for (const k of RENDERER_KINDS) {
    for (const [name, view] of Object.entries(k.views ?? {})) {
      if (views[name]) throw new Error(`kind '${k.family}': a view named '${name}' is already added by another kind`);
      views[name] = view;
    }
  }
  return views;
}

/** The Results panels of the kinds that have one, in registry order. */
export function resultsPanels(): { family: string; panel: Component }[] {
  return RENDERER_KINDS.flatMap((k) => (k.resultsPanel ? [{ family: k.family, panel: k.resultsPanel }] : []));
}
