// Results store (Pinia setup store): a study's results table and summary, the trajectory being
// replayed, the chosen step and held-out view, and the rendered frame.
// Inputs: LabApi rows study.results / trajectory / replayFrame / exportCsv / importModel,
// study.analyses with its progress events and study.analysesCancel, study.paper (the paper's
// tables, as `splatlab paper` writes them), and the free-play rows
// (freeplay.results / trajectory / replayFrame: episodes played outside studies).
// Output: reactive state for ResultsView. Invariant: experimenter-only data; the app never shows
// this store during a participant session (main also refuses these rows then).
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { LabApi, LabResult } from '../../shared/api/lab';
import type { StudyExport, StudyResults, TrajectoryView } from '../../shared/api/study';
import type { AnalysisReport } from '../../shared/analysis/report';
import { useGuard } from './guard';

export const useResultsStore = defineStore('results', () => {
  const studyId = ref<string | null>(null);
  const results = ref<StudyResults | null>(null);
  const trajectory = ref<TrajectoryView | null>(null);
  const analyses = ref<{ report: AnalysisReport; episodes: number } | null>(null);
  /** A running study.analyses: its progress events (episodes read of all), or null. */
  const analysing = ref<{ done: number; total: number; message: string } | null>(null);
  /** One line about the last analyses run that did not finish (cancelled), or null. */
  const analysesNote = ref<string | null>(null);
  let analysesCancelled = false;
  /** The paper's tables of the study (study.paper), on request: they render every build for the mirror test. */
  const paper = ref<LabResult<'study.paper'> | null>(null);
  const stepIndex = ref(0);
  const view = ref('H0');
  const frame = ref<string | null>(null);
  const { busy, error, guarded } = useGuard();
  let frameRequest = 0;
  /** The scene at a moment of the process log seen from the person's recorded camera then. */
  const poseFrame = ref<{ image: string; step: number; at: number } | null>(null);
  let poseRequest = 0;

  const step = computed(() => trajectory.value?.steps[stepIndex.value] ?? null);
  /** Free-play episodes (outside studies) and whether the open trajectory is one of them. */
  const freePlay = ref<Pick<StudyResults, 'episodes' | 'summary' | 'bootstrap'> | null>(null);
  const replayingFree = ref(false);


  async function load(api: LabApi, id: string): Promise<void> {
    if (studyId.value !== id || replayingFree.value) {
      replayingFree.value = false;
      trajectory.value = null;
      analyses.value = null;
      paper.value = null;
      frame.value = null;
    }
    studyId.value = id;
    const r = await guarded(() => api.call('study.results', { studyId: id }));
    if (r) results.value = r;
  }

  async function loadFreePlay(api: LabApi): Promise<void> {
    const r = await guarded(() => api.call('freeplay.results', {}));
    if (r) freePlay.value = r;
  }

  async function openTrajectory(api: LabApi, log: string, free = false): Promise<void> {
    const id = studyId.value;
    if (!id && !free) return;
    const t = await guarded(() => (free || !id ? api.call('freeplay.trajectory', { log }) : api.call('study.trajectory', { studyId: id, log })));
    if (!t) return;
    replayingFree.value = free;
    trajectory.value = t;
    poseFrame.value = null;
    if (!t.heldoutViews.includes(view.value)) view.value = t.heldoutViews[0] ?? 'H0';
    await setStep(api, t.steps.length - 1);
  }

  /** Moves to a step and renders it (a later request wins over an earlier slow one). */
  async function setStep(api: LabApi, index: number): Promise<void> {
    const t = trajectory.value;
    const id = studyId.value;
    if (!t || (!id && !replayingFree.value) || t.steps.length === 0) return;
    stepIndex.value = Math.max(0, Math.min(t.steps.length - 1, index));
    const ticket = ++frameRequest;
    const at = { log: t.log, step: t.steps[stepIndex.value].step, view: view.value };
    const f = await guarded(() => (replayingFree.value || !id ? api.call('freeplay.replayFrame', at) : api.call('study.replayFrame', { studyId: id, ...at })));
    if (f && ticket === frameRequest) frame.value = f.image;
  }

  /**
   * The scene after call `index`, rendered from a camera pose of the process log recorded `at`
   * seconds into the episode (a later request wins over an earlier slow one).
   */
  async function showPose(api: LabApi, index: number, pose: { m: number[]; f: number }, at: number): Promise<void> {
    const t = trajectory.value;
    const id = studyId.value;
    const s = t?.steps[index];
    if (!t || !id || !s) return;
    const ticket = ++poseRequest;
    const f = await guarded(() => api.call('study.replayPose', { studyId: id, log: t.log, step: s.step, pose }));
    if (f && ticket === poseRequest) poseFrame.value = { image: f.image, step: s.step, at };
  }

  async function setView(api: LabApi, name: string): Promise<void> {
    view.value = name;
    await setStep(api, stepIndex.value);
  }

  /** The free-play episodes or summary as CSV (rejects with the lab's message on failure). */
  async function exportFreePlayCsv(api: LabApi, table: 'episodes' | 'summary'): Promise<{ filename: string; csv: string }> {
    return api.call('freeplay.exportCsv', { table });
  }

  async function exportCsv(api: LabApi, table: 'episodes' | 'summary'): Promise<{ filename: string; csv: string } | null> {
    const id = studyId.value;
    return id ? guarded(() => api.call('study.exportCsv', { studyId: id, table })) : null;
  }

  /** Progress of the archive export: phase and bytes fetched so far; null when idle. */
  const exporting = ref<{ phase: 'building' | 'downloading'; done: number; total: number } | null>(null);
  let exportCancelled = false;

  /**
   * Builds the study archive in main, then fetches it chunk by chunk (progress in `exporting`;
   * cancel() stops between chunks). Returns the archive's bytes and its info, or null.
   */
  async function exportArchive(api: LabApi): Promise<{ info: StudyExport; bytes: Uint8Array } | null> {
    const id = studyId.value;
    if (!id) return null;
    exportCancelled = false;
    exporting.value = { phase: 'building', done: 0, total: 0 };
    try {
      const info = await guarded(() => api.call('study.export', { studyId: id }));
      if (!info) return null;
      const bytes = new Uint8Array(info.bytes);
      let offset = 0;
      exporting.value = { phase: 'downloading', done: 0, total: info.bytes };
      while (offset < info.bytes) {
        if (exportCancelled) {
          error.value = 'export cancelled (the archive stays in the lab home folder)';
          return null;
        }
        const at = offset;
        const c = await guarded(() => api.call('study.exportChunk', { studyId: id, name: info.name, offset: at }));
        if (!c) return null;
        const chunk = Uint8Array.from(atob(c.data), (ch) => ch.charCodeAt(0));
        bytes.set(chunk, offset);
        offset += chunk.length;
        exporting.value = { phase: 'downloading', done: offset, total: info.bytes };
        if (c.done || chunk.length === 0) break;
      }
      return { info, bytes };
    } finally {
      exporting.value = null;
    }
  }

  function cancelExport(): void {
    exportCancelled = true;
  }

  async function importModel(api: LabApi, text: string, model?: string): Promise<string | null> {
    const id = studyId.value;
    if (!id) return null;
    const r = await guarded(() => api.call('study.importModel', { studyId: id, text, ...(model ? { model } : {}) }));
    if (r) await load(api, id);
    if (!r) return null;
    const claim = r.mismatch && r.fileScore !== null ? `; the file claimed ${r.fileScore.toFixed(1)}, which the lab's regrade does not confirm` : '';
    return `${r.model}: ${r.taskId} (${r.log.split('/').pop() ?? r.log}), regraded by the lab: ${r.score.toFixed(1)}${claim}`;
  }

  /** Applies the study's attention-check exclusion rule, then reloads; says whom it excluded. */
  async function applyAttentionRule(api: LabApi): Promise<string | null> {
    const id = studyId.value;
    if (!id) return null;
    const r = await guarded(() => api.call('study.applyAttentionRule', { studyId: id }));
    if (!r) return null;
    await load(api, id);
    return r.excluded.length ? `Excluded ${r.excluded.join(', ')} (more than ${r.rule} attention check(s) failed)` : 'No participant is over the exclusion rule';
  }

  /** The seed's analyses (renders every build for the mirror test, so on request only). */
  async function loadAnalyses(api: LabApi): Promise<void> {
    const id = studyId.value;
    if (!id) return;
    analysesCancelled = false;
    analysesNote.value = null;
    analysing.value = { done: 0, total: 0, message: 'starting' };
    const off = api.on('progress', (p) => {
      if (p.task === `analyses ${id}` && analysing.value) analysing.value = { done: p.done, total: p.total, message: p.message };
    });
    try {
      const r = await guarded(() => api.call('study.analyses', { studyId: id }));
      if (r && studyId.value === id) analyses.value = r;
      if (!r && analysesCancelled) {
        // A cancel the experimenter asked for is a note, not an error.
        error.value = null;
        analysesNote.value = 'Analyses cancelled; the figures shown (if any) are from the last finished run.';
      }
    } finally {
      off();
      analysing.value = null;
    }
  }

  /** The paper's tables and figures, as the archive's paper/ holds them. */
  async function loadPaper(api: LabApi): Promise<void> {
    const id = studyId.value;
    if (!id) return;
    const r = await guarded(() => api.call('study.paper', { studyId: id }));
    if (r && studyId.value === id) paper.value = r;
  }

  /** Stops the running analyses after the episode in flight (study.analysesCancel). */
  async function cancelAnalyses(api: LabApi): Promise<void> {
    const id = studyId.value;
    if (!id || !analysing.value) return;
    analysesCancelled = true;
    await api.call('study.analysesCancel', { studyId: id });
  }

  function close(): void {
    trajectory.value = null;
    frame.value = null;
    poseFrame.value = null;
  }

  return { freePlay, replayingFree, loadFreePlay, studyId, results, analyses, analysing, analysesNote, loadAnalyses, cancelAnalyses, paper, loadPaper, trajectory, stepIndex, step, view, frame, poseFrame, showPose, busy, error, exporting, load, openTrajectory, setStep, setView, exportCsv, exportFreePlayCsv, exportArchive, cancelExport, importModel, applyAttentionRule, close };
});
