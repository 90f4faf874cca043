// Small generated data for `lucid check` (test/audit/policy.test.ts, test/cli/check.test.ts): a label,
// predicted labels and two attributes, with confusion matrices chosen by hand so every figure is known.
//   sex M: 200 rows, tp 80 fp 20 tn 80 fn 20 (selection 50%, TPR 80%)
//   sex F: 200 rows, tp 50 fp 10 tn 110 fn 30 (selection 30%, TPR 62.5%): four-fifths 0.6, TPR diff −17.5 pp
//   sex X: 5 rows (small: fewer than 30)
// race alternates A, B within each block of equal outcomes.
import { cat, table } from './tables.js';
import type { Table } from '../../src/data/table.js';

const BLOCKS: [string, number, number, number, number][] = [
  ['M', 80, 20, 80, 20],
  ['F', 50, 10, 110, 30],
  ['X', 1, 1, 2, 1],
];

/** The rows: sex, race, y (label yes/no), pred (predicted yes/no). */
export function gateRows(blocks = BLOCKS): string[][] {
  const rows: string[][] = [];
  for (const [sex, tp, fp, tn, fn] of blocks) {
    const push = (k: number, y: string, p: string) => {
      for (let i = 0; i < k; i++) rows.push([sex, i % 2 ? 'B' : 'A', y, p]);
    };
    push(tp, 'yes', 'yes');
    push(fp, 'no', 'yes');
    push(tn, 'no', 'no');
    push(fn, 'yes', 'no');
  }
  return rows;
}

export const gateCsv = (blocks = BLOCKS): string =>
  ['sex,race,y,pred', ...gateRows(blocks).map((r) => r.join(','))].join('\n') + '\n';

export function gateTable(blocks = BLOCKS): Table {
  const rows = gateRows(blocks);
  return table(
    cat(
      'sex',
      rows.map((r) => r[0]),
    ),
    cat(
      'race',
      rows.map((r) => r[1]),
    ),
    cat(
      'y',
      rows.map((r) => r[2]),
    ),
    cat(
      'pred',
      rows.map((r) => r[3]),
    ),
  );
}

/** F's outcomes made worse: tp 40 (TPR 50%), selection 25%. */
export const WORSE: [string, number, number, number, number][] = [
  ['M', 80, 20, 80, 20],
  ['F', 40, 10, 110, 40],
  ['X', 1, 1, 2, 1],
];

/**
 * A small XML well-formedness check (enough for the JUnit file): one root, every tag closed in order,
 * attributes quoted, no bare & or <, only the five entities or character references.
 */
export function xmlWellFormed(xml: string): string | null {
  let s = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  const entity = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;
  const text = (t: string): string | null => {
    for (let i = 0; i < t.length; i++) {
      if (t[i] === '<') return `bare < in ${JSON.stringify(t.slice(0, 40))}`;
      if (t[i] === '&') {
        entity.lastIndex = i;
        if (!entity.test(t)) return `bad entity at ${JSON.stringify(t.slice(i, i + 12))}`;
      }
    }
    return null;
  };
  while (s.length) {
    const lt = s.indexOf('<');
    if (lt < 0) return text(s) ?? (s.trim() ? 'text after the root' : null);
    const before = s.slice(0, lt);
    if (stack.length === 0 && before.trim()) return 'text outside the root';
    const e = text(before);
    if (e) return e;
    s = s.slice(lt);
    const m = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/.exec(s);
    if (!m) return `malformed tag at ${JSON.stringify(s.slice(0, 60))}`;
    const [all, close, name, attrs, self] = m;
    for (const a of attrs.matchAll(/=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      const err = text(a[1] ?? a[2] ?? '');
      if (err) return `in an attribute of <${name}>: ${err}`;
    }
    if (close) {
      if (stack.pop() !== name) return `</${name}> closes nothing open`;
    } else if (!self) {
      if (stack.length === 0) roots++;
      stack.push(name);
    } else if (stack.length === 0) roots++;
    if (roots > 1) return 'more than one root element';
    s = s.slice(all.length);
  }
  return stack.length ? `<${stack.at(-1)}> is not closed` : roots === 1 ? null : 'no root element';
}
