// The columns offered as protected attributes (the browser page's list): protectedCandidates leaves
// out the label, the predictions, an identifier and a column of numbers with a few text cells, by the
// rules the reader and the CLI already apply.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { protectedCandidates } from '../../src/audit/stages/context.js';
import { readDataBytes } from '../../src/data/csv-read.js';

/**
 * 40 rows: an id distinct on every row, sex, group, an age with two text cells, income, the label and the predictions.
 */
function csv(): string {
  const lines = ['id;sex;group;age;income;approved;score'];
  for (let i = 0; i < 40; i++) {
    const age = i === 7 ? 'unknown' : i === 21 ? 'n/a' : String(20 + i);
    lines.push(
      [
        `C-${1000 + i}`,
        i % 2 ? 'F' : 'M',
        'ABC'[i % 3],
        age,
        `${30 + i},5`,
        i % 3 ? 'yes' : 'no',
        `0,${(i * 7) % 10}`,
      ].join(';'),
    );
  }
  return lines.join('\n') + '\n';
}

describe('protected candidates', () => {
  it('not the label, not the predictions, not an identifier, not numbers with a few text cells', async () => {
    const parsed = await readDataBytes(new TextEncoder().encode(csv()), 'people.csv');
    const id = parsed.table.columns.find((c) => c.name === 'id');
    assert.ok(id?.kind === 'categorical' && id.identifier, 'the reader marks id as an identifier');
    assert.deepEqual(parsed.mostlyNumeric, ['age'], 'the reader marks age as numbers with a few text cells');
    assert.deepEqual(
      protectedCandidates(parsed.table, { label: 'approved', pred: 'score', mostlyNumeric: parsed.mostlyNumeric }),
      ['sex', 'group', 'income'],
    );
    // another label and predictions: the list follows them
    assert.deepEqual(
      protectedCandidates(parsed.table, { label: 'sex', pred: null, mostlyNumeric: parsed.mostlyNumeric }),
      ['group', 'income', 'approved', 'score'],
    );
    assert.deepEqual(
      protectedCandidates(parsed.table, { label: 'approved', pred: 'score' }),
      ['sex', 'group', 'age', 'income'],
      "without the reader's list, age is offered",
    );
  });
});
