// 2-D FALE: a hand-computed 2×2 grid (JS model, every cell effect and the final grid by hand), a
// 3×3 grid with an empty and an undefined cell filled from their nearest defined cell, and
// `lucid fale --pair` JSON.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { NumericColumn } from '../../src/data/table.js';
import { moduleBlackBox, type BlackBox, type Row } from '../../src/models/blackbox.js';
import { fale2d, percentileEdges, type Fale2dResult } from '../../src/methods/fale/index.js';
import { cat, num, table } from '../helpers/tables.js';
import { lucidCli, simFaleArgs, simModelDir } from '../helpers/sim-model.js';

const jsModel = (features: string[], f: (r: Row) => number): BlackBox =>
  moduleBlackBox({ features, predict: (rows) => rows.map(f) }, 'test model');
const closeGrid = (a: (number | null)[][], b: number[][], what: string, tol = 1e-12) => {
  assert.equal(a.length, b.length, `${what}: rows`);
  b.forEach((row, i) =>
    row.forEach((v, j) =>
      assert.ok(
        a[i][j] !== null && Math.abs((a[i][j] as number) - v) <= tol,
        `${what}[${i}][${j}]: ${a[i][j]}, expected ${v}`,
      ),
    ),
  );
};
const sex = { label: 'y', protected: [{ column: 'sex', value: 'F' }] };

describe('2-D FALE, by hand (2×2)', () => {
  // Edges 0, 1, 2 on both features. Model: a woman is positive when 2·x1 + x2 ≥ 3; a man when x1 ≥ 1
  // (a main effect of x1 only, which cancels in every cell effect). SPD = PR_F − PR_M.
  // PR_F at the corners (rows x1 = 0, 1, 2; columns x2 = 0, 1, 2): [0 0 0; 0 1 1; 1 1 1].
  // Cell effect (F22 − F21) − (F12 − F11), i.e. PR_F(hi,hi) − PR_F(hi,lo) − PR_F(lo,hi) + PR_F(lo,lo):
  //   (0,0): 1 − 0 − 0 + 0 = 1   (0,1): 1 − 1 − 0 + 0 = 0
  //   (1,0): 1 − 1 − 1 + 0 = −1  (1,1): 1 − 1 − 1 + 1 = 0
  // Cells' rows (F/M): (0,0) 1/1, (0,1) 2/2, (1,0) 1/2, (1,1) 2/1: n = [2 4; 3 3].
  // Double cumsum A = [0 0 0; 0 1 1; 0 0 0].
  // Main effect of x1: bin 0: row diffs [0 1 1], moving averages ½, 1, weighted (2·½ + 4·1)/6 = 5/6;
  //   bin 1: [0 −1 −1] → −½, −1 → (3·−½ + 3·−1)/6 = −¾. f1 = 0, 5/6, 1/12.
  // Main effect of x2: column diffs [0 0; 1 0; 0 0], averaged over adjacent rows [½ 0; ½ 0];
  //   bin 0: (2·½ + 3·½)/5 = ½; bin 1: 0. f2 = 0, ½, ½.
  // A − f1 − f2 = [0 −½ −½; −5/6 −⅓ −⅓; −1/12 −7/12 −7/12].
  // 4-corner means: (0,0) −5/12 ×2, (0,1) −5/12 ×4, (1,0) −11/24 ×3, (1,1) −11/24 ×3:
  //   Σ = −10/12 − 20/12 − 33/24 − 33/24 = −21/4, over 12 rows: −7/16. Add 7/16.
  const cells: [number, number, string][] = [
    [0.5, 0.5, 'F'],
    [0.5, 0.5, 'M'],
    [0.5, 1.5, 'F'],
    [0.5, 1.5, 'F'],
    [0.5, 1.5, 'M'],
    [0.5, 1.5, 'M'],
    [1.5, 0.5, 'F'],
    [1.5, 0.5, 'M'],
    [1.5, 0.5, 'M'],
    [1.5, 1.5, 'F'],
    [1.5, 1.5, 'F'],
    [1.5, 1.5, 'M'],
  ];
  const t = table(
    num(
      'x1',
      cells.map((c) => c[0]),
    ),
    num(
      'x2',
      cells.map((c) => c[1]),
    ),
    cat(
      'sex',
      cells.map((c) => c[2]),
    ),
    cat(
      'y',
      cells.map((_, i) => (i % 2 ? 'yes' : 'no')),
    ),
  );
  const model = jsModel(['x1', 'x2', 'sex'], (r) => {
    const x1 = r.x1 as number;
    const x2 = r.x2 as number;
    return r.sex === 'F' ? (2 * x1 + x2 >= 3 ? 1 : 0) : x1 >= 1 ? 1 : 0;
  });
  it('cell effects, counts, and the centred grid', async () => {
    const r = await fale2d(t, model, { ...sex, pair: ['x1', 'x2'], edges: { x1: [0, 1, 2], x2: [0, 1, 2] } });
    assert.deepEqual(r.features, ['x1', 'x2']);
    assert.deepEqual(r.edges, [
      [0, 1, 2],
      [0, 1, 2],
    ]);
    assert.deepEqual(r.deltas, [
      [1, 0],
      [-1, 0],
    ]);
    assert.deepEqual(r.cells, {
      n: [
        [2, 4],
        [3, 3],
      ],
      unprivileged: [
        [1, 2],
        [1, 2],
      ],
      privileged: [
        [1, 2],
        [2, 1],
      ],
    });
    assert.deepEqual(r.filled, []);
    const c = 7 / 16;
    closeGrid(
      r.values,
      [
        [0, -1 / 2, -1 / 2],
        [-5 / 6, -1 / 3, -1 / 3],
        [-1 / 12, -7 / 12, -7 / 12],
      ].map((row) => row.map((v) => v + c)),
      'values',
    );
  });
  it('swapping the pair transposes the cell effects', async () => {
    const r = await fale2d(t, model, { ...sex, pair: ['x2', 'x1'], edges: { x1: [0, 1, 2], x2: [0, 1, 2] } });
    assert.deepEqual(r.deltas, [
      [1, -1],
      [0, 0],
    ]);
  });
});

describe('2-D FALE: empty and undefined cells (3×3)', () => {
  // Edges x1: 0, 1, 2, 3 (centres ⅙, ½, ⅚ after dividing by the range 3); x2: 0, 1, 2, 6 (centres
  // 1/12, ¼, ⅔ after dividing by 6). Cell (2,2) has no row; cell (0,0) only men (SPD undefined).
  // Nearest defined cell of (2,2): (1,2) at ⅓ (not (2,1) at 5/12); of (0,0): (0,1) at ⅙ (not (1,0) at ⅓).
  // Model: a woman is positive when x1 ≥ 1 and x2 ≥ 1 (x1·x2 > 0 at a corner); men never.
  // PR_F at corners x1 ∈ {0,1,2,3} × x2 ∈ {0,1,2,6}: 0 on the first row and column, 1 elsewhere, so
  // the cell effect is 1 in (0,0) (undefined here) and 0 elsewhere.
  const rows: [number, number, string][] = [];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      if (i === 2 && j === 2) continue;
      const x1 = i + 0.5;
      const x2 = [0.5, 1.5, 4][j];
      if (!(i === 0 && j === 0)) rows.push([x1, x2, 'F']);
      rows.push([x1, x2, 'M']);
    }
  }
  const t = table(
    num(
      'x1',
      rows.map((r) => r[0]),
    ),
    num(
      'x2',
      rows.map((r) => r[1]),
    ),
    cat(
      'sex',
      rows.map((r) => r[2]),
    ),
    cat(
      'y',
      rows.map((_, i) => (i % 2 ? 'yes' : 'no')),
    ),
  );
  const model = jsModel(['x1', 'x2', 'sex'], (r) =>
    r.sex === 'F' && (r.x1 as number) >= 1 && (r.x2 as number) >= 1 ? 1 : 0,
  );
  const opts = { ...sex, pair: ['x1', 'x2'] as [string, string], edges: { x1: [0, 1, 2, 3], x2: [0, 1, 2, 6] } };
  let r: Fale2dResult;
  before(async () => {
    r = await fale2d(t, model, opts);
  });
  it('the undefined and the empty cell are null and filled from their nearest defined cell', () => {
    assert.deepEqual(r.deltas, [
      [null, 0, 0],
      [0, 0, 0],
      [0, 0, null],
    ]);
    assert.deepEqual(r.filled, [
      { cell: [0, 0], from: [0, 1], reason: 'undefined' },
      { cell: [2, 2], from: [1, 2], reason: 'empty' },
    ]);
    assert.deepEqual(r.cells.n, [
      [1, 2, 2],
      [2, 2, 2],
      [2, 2, 0],
    ]);
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0], /1 empty and 1 undefined cell/);
  });
  it("a filled cell takes its source's effect", async () => {
    // a woman is positive only at the corner (x1, x2) = (2, 6): the (hi, hi) corner of cell (1,2), so
    // its effect is +1 and every other defined cell's 0; the empty (2,2) copies (1,2)'s +1.
    const m2 = jsModel(['x1', 'x2', 'sex'], (r) =>
      r.sex === 'F' && (r.x1 as number) === 2 && (r.x2 as number) === 6 ? 1 : 0,
    );
    const r2 = await fale2d(t, m2, opts);
    assert.deepEqual(r2.deltas, [
      [null, 0, 0],
      [0, 0, 1],
      [0, 0, null],
    ]);
    assert.deepEqual(r2.filledDeltas, [
      [0, 0, 0],
      [0, 0, 1],
      [0, 0, 1],
    ]);
    // centred: the size-weighted 4-corner mean of the grid is 0
    let s = 0;
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        s +=
          (r2.cells.n[i][j] * (r2.values[i][j] + r2.values[i + 1][j] + r2.values[i][j + 1] + r2.values[i + 1][j + 1])) /
          4;
    assert.ok(Math.abs(s) < 1e-12, `centred: ${s}`);
    assert.ok(r2.values.flat().every(Number.isFinite));
  });
  it('with all effects 0 after filling, the grid is 0', () => {
    assert.deepEqual(r.filledDeltas, [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    closeGrid(
      r.values,
      [
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
      ],
      'values',
    );
  });
  it('a categorical feature is refused', async () => {
    await assert.rejects(fale2d(t, model, { ...sex, pair: ['x1', 'sex'] }), /categorical/);
  });
});

describe('lucid fale --pair (CLI)', () => {
  const lucid = lucidCli('fale');
  const fx = simModelDir('lucid-fale2d-');
  const base = () => simFaleArgs(fx);
  it('JSON: edges of both features, the grid, cell counts, filled cells', () => {
    const r = lucid(...base(), '--pair', 'age,hours_per_week');
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Fale2dResult;
    assert.deepEqual(out.features, ['age', 'hours_per_week']);
    const [e1, e2] = out.edges;
    assert.deepEqual(e1, percentileEdges((fx.table.columns.find((c) => c.name === 'age') as NumericColumn).values));
    assert.deepEqual(
      e2,
      percentileEdges((fx.table.columns.find((c) => c.name === 'hours_per_week') as NumericColumn).values),
    );
    assert.equal(out.values.length, e1.length);
    assert.ok(out.values.every((row) => row.length === e2.length && row.every(Number.isFinite)));
    assert.equal(out.cells.n.length, e1.length - 1);
    assert.equal(
      out.cells.n.flat().reduce((s, x) => s + x, 0),
      1200,
    );
    assert.ok(Array.isArray(out.filled));
    for (const f of out.filled) assert.equal(out.deltas[f.cell[0]][f.cell[1]], null);
    assert.equal(out.deltas.flat().filter((d) => d === null).length, out.filled.length);
  });
  it('usage errors: --pair with --format csv, one name', () => {
    const a = lucid(...base(), '--pair', 'age,hours_per_week', '--format', 'csv');
    assert.equal(a.status, 2);
    assert.match(a.stderr, /--pair writes JSON only/);
    const b = lucid(...base(), '--pair', 'age');
    assert.equal(b.status, 2);
    assert.match(b.stderr, /expected two comma-separated feature names/);
  });
});
