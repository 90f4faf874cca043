// Why a group is flagged: Cramér's V, separation, the carriers' ranking and the path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  attributionText,
  carriersOf,
  codesOf,
  cramersV,
  pathOf,
  separation,
  type Attribution,
} from '../../src/audit/attribution.js';
import { cat, num, table } from '../helpers/tables.js';

test("Cramér's V: 1 for a copy, 0 for independence; separation: TV between the decided sides", () => {
  const a = Int32Array.from([0, 0, 1, 1, 0, 1, 0, 1]);
  assert.ok(Math.abs(cramersV(a, 2, a, 2) - 1) < 1e-12);
  const b = Int32Array.from([1, 1, 1, 1, 0, 0, 0, 0]); // independent of a by construction (each cell 2)
  assert.ok(Math.abs(cramersV(a, 2, b, 2)) < 1e-12);
  assert.equal(cramersV(a, 2, Int32Array.from([0, 0, 0, 0, 0, 0, 0, 0]), 1), 0);
  const yhat = Uint8Array.from([1, 1, 0, 0, 1, 0, 1, 0]);
  // a = 0 on every yhat-1 row, 1 on every yhat-0 row: disjoint sides
  assert.ok(Math.abs(separation(a, 2, yhat) - 1) < 1e-12);
  assert.ok(Math.abs(separation(b, 2, yhat)) < 1e-12);
});

test('carriersOf: the feature that differs by group AND drives the decision ranks first', () => {
  // group B is mostly "low" on x; decisions follow x; z differs by group but decisions ignore it; w drives decisions
  // but not group
  const n = 400;
  const g: string[] = [];
  const x: number[] = [];
  const z: string[] = [];
  const w: string[] = [];
  const yhat = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const B = i % 2 === 1;
    g.push(B ? 'B' : 'A');
    x.push(B ? (i % 10 < 8 ? 10 + (i % 7) : 50 + (i % 7)) : i % 10 < 8 ? 50 + (i % 7) : 10 + (i % 7));
    z.push(B ? 'z1' : 'z0');
    w.push(i % 4 < 2 ? 'w1' : 'w0');
    yhat[i] = x[i] > 30 ? 1 : 0;
  }
  const t = table(cat('group', g), num('x', x), cat('z', z), cat('w', w));
  const carriers = carriersOf(t, codesOf(t.columns[0], 10), yhat, ['x', 'z', 'w'], 3);
  assert.equal(carriers[0].feature, 'x');
  assert.ok(carriers[0].carried > 0.3, JSON.stringify(carriers));
  // z: association 1 but separation only through its link with x; w: separation ~0
  assert.ok(carriers.find((c) => c.feature === 'w')!.carried < 0.05);
});

test(
  'pathOf and attributionText: not read → correlated ' + 'features; little effect → correlated features; read → direct',
  () => {
    assert.equal(pathOf(false, null), 'correlated features');
    assert.equal(pathOf(true, 0.004), 'correlated features');
    assert.equal(pathOf(true, 0.2), 'direct');
    assert.equal(pathOf(true, null), 'direct');
    assert.equal(pathOf(null, null), 'unknown');
    const at: Attribution[] = [
      {
        attribute: 'sex',
        groupColumn: 'sex',
        readByModel: false,
        flipShare: null,
        carriers: [{ feature: 'hours', association: 0.3, separation: 0.4, carried: 0.12 }],
        path: 'correlated features',
      },
      { attribute: 'group', groupColumn: 'group', readByModel: true, flipShare: 0.15, carriers: [], path: 'direct' },
    ];
    assert.match(
      attributionText(at, 'sex'),
      /^The model does not read sex: the disparity runs through correlated features; the features that carry most of it: hours \(association 0\.30 × separation 0\.40\)\.$/,
    );
    assert.match(
      attributionText(at, 'group'),
      /^The model reads group: setting it to the reference changes 15\.0% of the decisions\.$/,
    );
    assert.equal(attributionText(at, 'sex × group'), '');
  },
);
