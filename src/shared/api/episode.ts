// LabApi rows for playing an episode (the human-baseline player and agents over LabApi).
// Owned by the episode UI work; merged into labMethods in ./lab.ts.
// Invariant: no row here may carry held-out views, anchors, fits or hidden scores.
export const episodeMethods = {} as const;
