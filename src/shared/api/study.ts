// LabApi rows for the experimenter: studies, participants, replay and results.
// Owned by the study UI work; merged into labMethods in ./lab.ts. Rows that return hidden scores
// are refused by main while a participant episode is running.
export const studyMethods = {} as const;
