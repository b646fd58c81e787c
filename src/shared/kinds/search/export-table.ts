// The search kind's table of a study's export archive (docs/STUDIES.md): one row per scored
// view-search episode with its answer, the accuracy and what gave it, and the search measures.
// Written by the kind's study part (src/main/kinds/search/study/export.ts) through tableCsv.
import type { Table } from '../../study/export-tables';
import type { SearchEpisodeRow } from './scores';

export const SEARCH_TABLE: Table<SearchEpisodeRow> = {
  file: 'data/table-search_data.csv',
  description: 'One row per scored view-search episode (humans and model runs): the answer, its score and what gave it, and the search measures. Empty for a study without search tasks.',
  columns: [
    { name: 'source', description: "'humans' for participants, else the model name", value: (r) => r.source },
    { name: 'answerer', description: 'participant id, or the model run (<model>#r<n>)', value: (r) => r.answerer },
    { name: 'task', description: 'task id (tasks/<task>.json)', value: (r) => r.taskId },
    { name: 'family', description: 'question family (color, shape, count, size, stack, search, where)', value: (r) => r.family },
    { name: 'answer_type', description: 'choice, yesno, number or text (free text is scored by raters or the LLM judge)', value: (r) => r.answerType },
    { name: 'answer', description: 'the answer given at stop; empty when the steps ran out', value: (r) => r.answer },
    { name: 'exact_correct', description: 'the exact checker of the answer type accepts the answer', value: (r) => r.correct },
    { name: 'accuracy', description: 'LLM-Match-style score: mean rater score, else the newest judge score, else 100 or 0 from the exact checker', unit: 'score 0-100', value: (r) => r.accuracy },
    { name: 'scored_by', description: 'what gave the accuracy: rater, judge, exact, or none (no answer, 0)', value: (r) => r.scoredBy },
    { name: 'success', description: 'stopped at a viewpoint that answers the question', value: (r) => r.success },
    { name: 'search_steps', description: 'steps used (every call costs one)', unit: 'steps', value: (r) => r.steps },
    { name: 'path_length', description: 'distance moved', unit: 'metres', value: (r) => r.path_length },
    { name: 'collision', description: '1 if any move of the episode collided, else 0', value: (r) => r.collision },
    { name: 'excluded', description: 'why the episode is out of the statistics (exclusion, withdrawal); empty when it counts', value: (r) => r.excluded },
    { name: 'log', description: 'trajectory file in this archive (rater and judge marks beside it as .rating.json / .judge.json)', value: (r) => r.ref },
  ],
};
