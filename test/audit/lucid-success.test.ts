// LUCID's success in an audit is the model's decision under the audit's rule, for either favourable outcome.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lucidSuccess } from '../../src/audit/stages/lucid.js';
import { decisionRule } from '../../src/methods/metrics/decision.js';

describe("LUCID's success", () => {
  it('counts the samples the threshold decides favourable; a score on the threshold is the negative decision', () => {
    const rule = decisionRule(0.7, 'test');
    // P(preferred) = P(positive): above 0.7 is success, 0.7 itself is not
    assert.equal(lucidSuccess([0.9, 0.7, 0.6, 0.95], 'positive', rule), 2 / 4);
    // P(preferred) = P(negative): success when P(positive) = 1 − p is at or below 0.7
    assert.equal(lucidSuccess([0.9, 0.5, 0.35, 0.2], 'negative', rule), 3 / 4);
    // at the default threshold, the old ≥ 0.5 count on P(preferred) except exactly at 0.5 for the positive side
    const half = decisionRule(undefined, 'test');
    assert.equal(lucidSuccess([0.5, 0.51, 0.49], 'positive', half), 1 / 3);
    assert.equal(lucidSuccess([0.5, 0.51, 0.49], 'negative', half), 2 / 3);
  });
});
