// Every committed task conforms, half 1 of 2 (committed-tasks.ts; the other half is
// conformance-committed-b.test.ts, so the two run on both workers at once).
import { describe } from 'vitest';
import { checkCommittedHalf } from './committed-tasks';

describe('every task in tasks/ conforms', () => checkCommittedHalf(0));
