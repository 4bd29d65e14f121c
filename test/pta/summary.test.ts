import { describe, expect, it } from 'vitest';
import { buildPta, formatPtaSummary, summarisePta } from '../../src/core/pta/index.js';
import { makeState } from '../equivalence/state-factory.js';

describe('summarisePta / formatPtaSummary', () => {
  const A = makeState({ stage: 'E', hash: 'A', kind: 'read', file: 'src/a.py' });
  const B = makeState({ stage: 'I', hash: 'B', kind: 'edit', file: 'src/a.py' });
  const C = makeState({ stage: 'V', hash: 'C', kind: 'run_test' });
  const D = makeState({ stage: 'O', hash: 'D', kind: 'think' });
  const pta = buildPta('astropy__astropy-12907', [
    [A, B, C],
    [A, D, C],
  ]);

  it('counts references, nodes and paths, with per-path stage strings', () => {
    const s = summarisePta(pta);
    expect(s).toMatchObject({ task: 'astropy__astropy-12907', version: 1, references: 2, nodes: 5, paths: 2 });
    expect(s.pathDetails).toEqual([
      { nodes: [1, 2, 3], length: 3, stages: 'EIV' },
      { nodes: [1, 4, 5], length: 3, stages: 'EOV' },
    ]);
    expect(s.nodeDetails.map((n) => [n.id, n.depth, n.stage, n.refs])).toEqual([
      [1, 1, 'E', 2],
      [2, 2, 'I', 1],
      [3, 3, 'V', 1],
      [4, 2, 'O', 1],
      [5, 3, 'V', 1],
    ]);
    expect(s.nodeDetails[0]).toEqual({ id: 1, parent: 0, depth: 1, stage: 'E', refs: 2, kind: 'read', file: 'src/a.py' });
    expect(s.nodeDetails[2]).not.toHaveProperty('file');
  });

  it('renders a readable tree', () => {
    const text = formatPtaSummary(summarisePta(pta));
    expect(text.split('\n')).toEqual([
      'PTA astropy__astropy-12907 v1: 2 references, 5 nodes, 2 paths',
      '  path 1 (3): EIV',
      '  path 2 (3): EOV',
      '  tree:',
      '    #1 E read src/a.py (refs 2)',
      '    ├ #2 I edit src/a.py (refs 1)',
      '    │ #3 V run_test (refs 1)',
      '    └ #4 O think (refs 1)',
      '      #5 V run_test (refs 1)',
      '',
    ]);
  });
});
