// The probe accuracies SpaRRTa reports for visual foundation models (Kargin et al. 2026,
// arXiv:2601.11729), as its project's results page prints them (repository gmum/SpaRRTa, the
// page "More Results" of its docs folder, commit 72a6656: "Egocentric Task Results" per environment and the
// "Allocentric Performance Summary", averages over the five environments), for four of its 13
// models: the two best, DINOv3 and the worst (CLIP). Percent, test accuracy of probes trained per
// triple, averaged over 3 triples and 2 seeds. Not lab results: cited figures shown beside the
// lab's people and models (who answer the same kind of question without a trained probe).
import type { RelationTask } from './labels';

export const PAPER_SOURCE = 'SpaRRTa (Kargin et al. 2026, arXiv:2601.11729), probe test accuracy as reported on its results page ("More Results", gmum/SpaRRTa @72a6656)';

export const PAPER_PROBES = ['linear', 'abmilp', 'efficient'] as const;
export type PaperProbe = (typeof PAPER_PROBES)[number];

export interface PaperFigure {
  model: string;
  task: RelationTask;
  /** An environment, or 'mean' (the allocentric summary is an average over environments). */
  environment: string;
  probe: PaperProbe;
  accuracy: number; // percent
}

/** [linear, abmilp, efficient] per model and environment (egocentric). */
const EGO: Record<string, Record<string, [number, number, number]>> = {
  'VGGT ViT-L/14': { forest: [52.10, 89.90, 96.18], desert: [63.42, 90.03, 98.78], winter_town: [59.24, 87.24, 95.53], bridge: [58.92, 88.49, 96.11], city: [46.08, 83.99, 94.47] },
  'DINO-v2 reg ViT-L/14': { forest: [65.37, 86.59, 93.92], desert: [79.68, 89.03, 96.70], winter_town: [69.02, 85.15, 94.92], bridge: [69.59, 89.40, 96.11], city: [64.79, 82.38, 94.27] },
  DINOv3: { forest: [62.41, 84.71, 93.93], desert: [65.34, 86.96, 97.47], winter_town: [66.14, 83.56, 93.18], bridge: [67.29, 87.11, 94.82], city: [56.93, 81.63, 92.40] },
  CLIP: { forest: [36.66, 55.85, 56.33], desert: [37.65, 56.29, 68.44], winter_town: [44.09, 61.57, 63.21], bridge: [45.35, 61.13, 64.71], city: [42.92, 62.58, 64.67] },
};

/** [linear, abmilp, efficient] per model, allocentric, averaged over environments. */
const ALLO: Record<string, [number, number, number]> = {
  'VGGT ViT-L/14': [42.70, 65.71, 76.65],
  'DINO-v2 reg ViT-L/14': [51.68, 66.86, 76.10],
  DINOv3: [49.51, 60.87, 72.05],
  CLIP: [36.77, 51.40, 54.36],
};

export const PAPER_FIGURES: readonly PaperFigure[] = Object.freeze([
  ...Object.entries(EGO).flatMap(([model, envs]) => Object.entries(envs).flatMap(([environment, v]) =>
    PAPER_PROBES.map((probe, i) => ({ model, task: 'ego' as const, environment, probe, accuracy: v[i] })))),
  ...Object.entries(ALLO).flatMap(([model, v]) => PAPER_PROBES.map((probe, i) => ({ model, task: 'allo' as const, environment: 'mean', probe, accuracy: v[i] }))),
]);
