// Near-exact arithmetic relations (src/data/relations.ts): found in real rows as people would write
// them, not found where they do not hold, and written into generated rows with the exact dependencies.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkRelations,
  derive,
  findRelations,
  planDerivations,
  relationBreaks,
  relationText,
  RELATION_LIMITS,
  type Relation,
} from '../../src/data/relations.js';
import { findDependencies } from '../../src/data/dependencies.js';
import type { NumericColumn, Table } from '../../src/data/table.js';
import { hostRng } from '../helpers/engine.js';
import { cat, num, table } from '../helpers/tables.js';

/** 534 rows: age = education + experience + 6 on all but `broken` of them, a wage, and noise columns. */
function wages(broken: number, seed = 3): Table {
  const rnd = hostRng(seed);
  const n = 534;
  const edu: number[] = [];
  const exp: number[] = [];
  const age: number[] = [];
  const wage: number[] = [];
  const z: number[] = [];
  for (let i = 0; i < n; i++) {
    edu.push(6 + Math.floor(13 * rnd()));
    exp.push(Math.floor(40 * rnd()));
    age.push(edu[i] + exp[i] + 6 + (i < broken ? 1 + Math.floor(5 * rnd()) : 0));
    wage.push(Math.round(2000 * rnd()) / 100);
    z.push(Math.floor(100 * rnd()));
  }
  return table(num('education', edu), num('experience', exp), num('age', age), num('wage', wage), num('noise', z));
}

const col = (t: Table, name: string) => t.columns.find((c) => c.name === name) as NumericColumn;

describe('findRelations', () => {
  it('finds an identity holding on 533 of 534 rows, written as people write it, and nothing else', () => {
    const t = wages(1);
    const rs = findRelations(t);
    assert.deepEqual(rs.map(relationText), ['age = education + experience + 6']);
    assert.equal(rs[0].rows, 534);
    assert.equal(rs[0].holds, 533);
    assert.equal(rs[0].decimals, 0);
    assert.deepEqual(relationBreaks(rs[0], t), { rows: 534, breaks: 1 });
  });

  it('does not keep one that holds on fewer than 99% of the rows', () => {
    assert.deepEqual(findRelations(wages(8)).map(relationText), [], '8 of 534 rows break it: 98.5%');
    assert.ok(RELATION_LIMITS.minShare === 0.99);
  });

  it('finds a scaled column rounded to its decimals, and a difference', () => {
    const t = wages(0);
    const w = col(t, 'wage').values;
    const half = num(
      'half',
      Array.from(w, (x) => Math.round(x * 50) / 100),
    );
    const gap = num(
      'gap',
      Array.from(col(t, 'experience').values, (x, i) => x - col(t, 'noise').values[i] - 2),
    );
    const rs = findRelations(table(...t.columns, half, gap)).map(relationText);
    assert.ok(rs.includes('half = 0.5 × wage'), rs.join('; '));
    assert.ok(
      rs.some((x) => /gap|experience|noise/.test(x) && /− 2|\+ 2/.test(x)),
      rs.join('; '),
    );
    assert.ok(rs.includes('age = education + experience + 6'), rs.join('; '));
  });

  it('two columns that are both 0 on nearly every row are no relation', () => {
    const rnd = hostRng(9);
    const n = 2000;
    const a = Array.from({ length: n }, () => (rnd() < 0.995 ? 0 : 1 + Math.floor(99 * rnd())));
    const b = Array.from({ length: n }, () => (rnd() < 0.995 ? 0 : 1 + Math.floor(99 * rnd())));
    const c = Array.from({ length: n }, () => Math.floor(50 * rnd()));
    assert.deepEqual(findRelations(table(num('a', a), num('b', b), num('c', c))), []);
  });

  it('skips rows with a missing cell, and ignores categorical columns', () => {
    const t = wages(0);
    const ages = col(t, 'age').values;
    for (let i = 0; i < 40; i++) ages[i * 7] = NaN;
    const rs = findRelations(
      table(
        ...t.columns,
        cat(
          'group',
          Array.from({ length: t.rows }, (_, i) => (i % 2 ? 'x' : 'y')),
        ),
      ),
    );
    assert.deepEqual(
      rs.map((r) => [relationText(r), r.rows, r.holds]),
      [['age = education + experience + 6', 494, 494]],
    );
  });
});

describe('derivations', () => {
  const rel: Relation = {
    target: 'age',
    terms: [
      { column: 'education', coef: 1 },
      { column: 'experience', coef: 1 },
    ],
    intercept: 6,
    decimals: 0,
    rows: 10,
    holds: 10,
  };

  it('writes the target from its terms, rounded to its decimals, and flags values outside the range', () => {
    const g = table(
      num('education', [10, 12, 20, NaN]),
      num('experience', [5, 30.4, 45, 1]),
      num('age', [99, 99, 99, 41]),
    );
    const { table: d, outOfRange } = derive([{ kind: 'relation', relation: rel }], g, { age: [18, 65] });
    assert.deepEqual(Array.from(col(d, 'age').values), [21, 48, 71, 41], 'a missing input keeps the generated cell');
    assert.deepEqual(Array.from(outOfRange), [0, 0, 1, 0]);
    assert.deepEqual(Array.from(col(g, 'age').values), [99, 99, 99, 41], 'the drawn table is not changed in place');
    assert.deepEqual(relationBreaks(rel, d), { rows: 3, breaks: 0 }, 'a row with a missing cell is not counted');
  });

  it("writes a dependency's column from its determinant; plans each column once, never a fixed one", () => {
    const edu = Array.from({ length: 60 }, (_, i) => 'abc'[i % 3]);
    const real = table(
      cat('edu', edu),
      num(
        'years',
        edu.map((e) => ({ a: 10, b: 13, c: 16 })[e]!),
      ),
      num(
        'x',
        edu.map((_, i) => i),
      ),
    );
    const deps = findDependencies(real);
    assert.deepEqual(deps.map((d) => `${d.from}>${d.to}`).sort(), ['edu>years', 'years>edu']);
    const plan = planDerivations(deps, [], real);
    assert.deepEqual(
      plan.map((p) => (p.kind === 'dependency' ? `${p.dependency.from}>${p.dependency.to}` : '')),
      ['edu>years'],
      'read from the categorical column; the reverse is not also derived',
    );
    const g = table(cat('edu', ['c', 'a', 'b'], ['a', 'b', 'c']), num('years', [10, 10, 10]), num('x', [1, 2, 3]));
    const { table: d } = derive(plan, g);
    assert.deepEqual(Array.from(col(d, 'years').values), [16, 10, 13]);
    assert.deepEqual(
      checkRelations(deps, [], plan, real, { positive: d, negative: g }).map((c) => [
        c.text,
        c.kept,
        c.positive.breaks,
        c.negative.breaks,
      ]),
      [
        ['years follows from edu', 'derived', 0, 2],
        ['edu follows from years', 'rejection', 0, 2],
      ],
    );
    // a fixed column is never written over: the other direction is derived instead
    const fixed = planDerivations(deps, [], real, new Set(['years']));
    assert.deepEqual(
      fixed.map((p) => (p.kind === 'dependency' ? `${p.dependency.from}>${p.dependency.to}` : '')),
      ['years>edu'],
    );
    // a protected column is written only when nothing else keeps the dependency
    const prot = planDerivations(deps, [], real, new Set(), new Set(['years']));
    assert.deepEqual(
      prot.map((p) => (p.kind === 'dependency' ? p.dependency.to : '')),
      ['years'],
      'a categorical determinant still wins',
    );
  });

  it('never derives a column from a derived one, nor into a column another derivation reads', () => {
    const r2: Relation = {
      target: 'total',
      terms: [
        { column: 'age', coef: 1 },
        { column: 'x', coef: 1 },
      ],
      intercept: 0,
      decimals: 0,
      rows: 10,
      holds: 10,
    };
    const r3: Relation = {
      target: 'experience',
      terms: [{ column: 'x', coef: 2 }],
      intercept: 0,
      decimals: 0,
      rows: 10,
      holds: 10,
    };
    const t = table(num('education', [1]), num('experience', [1]), num('age', [1]), num('x', [1]), num('total', [1]));
    const plan = planDerivations([], [rel, r2, r3], t);
    assert.deepEqual(
      plan.map((p) => (p.kind === 'relation' ? p.relation.target : '')),
      ['age'],
      'total reads the derived age; experience is read by age',
    );
    assert.equal(relationText(r3), 'experience = 2 × x');
    assert.equal(
      relationText({
        target: 'y',
        terms: [
          { column: 'a', coef: -1 },
          { column: 'b', coef: 0.5 },
        ],
        intercept: -3,
      }),
      'y = − a + 0.5 × b − 3',
    );
  });
});
