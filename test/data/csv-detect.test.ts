// Dialect detection from the start of a file: delimiter, header, BOM, line ends, quoting.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { detectCsv, looksLikeHeader, parseDelimiter, splitRecords } from '../../src/data/csv-detect.js';
import { QuoteScanner, WhitespaceCollapser, findInvalidUtf8, utf8CutTail } from '../../src/data/csv-scan.js';

const detect = (text: string, opts = {}) => {
  const d = detectCsv(text, opts);
  return { delimiter: d.delimiter, header: d.header, bom: d.bom, lineEnding: d.lineEnding, width: d.sample[0]?.length };
};

describe('delimiter detection', () => {
  it('comma, semicolon, tab and whitespace runs', () => {
    assert.equal(detect('a,b,c\n1,2,3\n4,5,6\n').delimiter, ',');
    assert.equal(detect('a;b;c\n1;2;3\n4;5;6\n').delimiter, ';');
    assert.equal(detect('a\tb\tc\n1\t2\t3\n').delimiter, '\t');
    const statlog = detect('A11  6 A34 A43   1169\n  A12 48 A32 A43 5951  \nA14\t12 A34 A46 2096\n');
    assert.deepEqual([statlog.delimiter, statlog.width, statlog.header], ['whitespace', 5, false]);
  });

  it('prefers the delimiter less likely inside values when several split evenly', () => {
    // decimal commas inside a semicolon file
    assert.equal(detect('x;y\n1,5;2,5\n3,5;4,5\n').delimiter, ';');
    // spaces inside a comma file's values
    assert.equal(detect('name,city\nAnn Lee,New York\nBo Li,Los Angeles\n').delimiter, ',');
    // a tab file whose values hold commas
    assert.equal(detect('a\tb\n1,2\t3\n4,5\t6\n').delimiter, '\t');
  });

  it('respects quotes: embedded delimiters and newlines do not change the field count', () => {
    const d = detectCsv('id,note,score\n1,"a, b",2\n2,"line one\nline two, and more",3\n3,"say ""hi""",4\n');
    assert.equal(d.delimiter, ',');
    assert.deepEqual(d.sample[2], ['2', 'line one\nline two, and more', '3']);
    assert.deepEqual(d.sample[3], ['3', 'say "hi"', '4']);
  });

  it('a ragged file still gets the delimiter most lines agree on; a one-column file is comma', () => {
    assert.equal(detect('a;b;c\n1;2;3\n4;5\n6;7;8\n').delimiter, ';');
    assert.equal(detect('x\n1\n2\n').delimiter, ',');
    assert.deepEqual(detectCsv('name\nAnn Lee\nBo Li\n').sample, [['name'], ['Ann Lee'], ['Bo Li']]);
  });

  it('the given delimiter is used as it is', () => {
    const d = detectCsv('a,b;c\n1,2;3\n', { delimiter: ';' });
    assert.deepEqual([d.delimiter, d.detected.delimiter, d.sample[0]], [';', false, ['a,b', 'c']]);
  });

  it('parses user spellings of delimiters', () => {
    assert.equal(parseDelimiter(','), ',');
    assert.equal(parseDelimiter('semicolon'), ';');
    assert.equal(parseDelimiter('\\t'), '\t');
    assert.equal(parseDelimiter('\t'), '\t');
    assert.equal(parseDelimiter('TAB'), '\t');
    assert.equal(parseDelimiter('whitespace'), 'whitespace');
    assert.equal(parseDelimiter('|'), undefined);
  });
});

describe('BOM, line ends, cut samples', () => {
  it('notes a BOM and reads past it', () => {
    const d = detect('\uFEFFa,b\n1,2\n');
    assert.deepEqual([d.bom, d.header], [true, true]);
    assert.deepEqual(detectCsv('\uFEFFa,b\n1,2\n').sample[0], ['a', 'b']);
  });

  it('LF, CRLF and CR line ends', () => {
    assert.equal(detect('a,b\n1,2\n').lineEnding, 'LF');
    assert.equal(detect('a,b\r\n1,2\r\n').lineEnding, 'CRLF');
    assert.equal(detect('a,b\r1,2\r').lineEnding, 'CR');
    assert.deepEqual(detectCsv('a,b\r\n1,2\r\n3,4').sample, [
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('drops the last line of an incomplete sample, which may be cut', () => {
    assert.equal(detectCsv('a,b\n1,2\n3,4', { complete: false }).sample.length, 2);
    assert.equal(detectCsv('a,b\n1,2\n3,4\n', { complete: false }).sample.length, 3);
    assert.equal(detectCsv('a,b\n1,"open\nquote', { complete: false }).sample.length, 1);
  });

  it('blank lines give no records', () => {
    assert.deepEqual(splitRecords('\na,b\n\n  \n1,2\n\n', ','), [
      ['a', 'b'],
      ['1', '2'],
    ]);
    assert.deepEqual(splitRecords('a,\n,b\n', ','), [
      ['a', ''],
      ['', 'b'],
    ]);
  });
});

describe('header detection', () => {
  it('a text line above a numeric column is a header', () => {
    assert.equal(detect('age,sex\n39,Male\n41,Female\n').header, true);
    assert.equal(detect('age,sex\n?,Male\n41,Female\n').header, true);
  });

  it('a number in line 1 means data', () => {
    assert.equal(detect('39,Male\n41,Female\n').header, false);
    assert.equal(detect('39, State-gov, 77516\n50, Self-emp, 83311\n').header, false);
  });

  it('all-text files: distinct names that never reappear below are a header', () => {
    assert.equal(detect('color,size\nred,big\nblue,small\nred,small\n').header, true);
    assert.equal(detect('red,big\nblue,small\nred,small\n').header, false);
    assert.equal(
      looksLikeHeader([
        ['a', 'a'],
        ['x', 'y'],
      ]),
      false,
    );
  });

  it('a given header setting wins', () => {
    const d = detectCsv('age,sex\n39,Male\n', { header: false });
    assert.deepEqual([d.header, d.detected.header], [false, false]);
  });
});

describe('byte-level checks', () => {
  const enc = (s: string) => new TextEncoder().encode(s);

  it('finds invalid UTF-8 (stray, overlong, surrogate, cut) and accepts valid text', () => {
    assert.equal(findInvalidUtf8(enc('héllo €𝄞')), -1);
    assert.equal(findInvalidUtf8(new Uint8Array([0x61, 0xfc, 0x62])), 1);
    assert.equal(findInvalidUtf8(new Uint8Array([0xc0, 0xaf])), 0);
    assert.equal(findInvalidUtf8(new Uint8Array([0x61, 0xed, 0xa0, 0x80])), 1);
    assert.equal(findInvalidUtf8(new Uint8Array([0x61, 0xe2, 0x82])), 1);
    assert.equal(utf8CutTail(new Uint8Array([0x61, 0xe2, 0x82])), 2);
    assert.equal(utf8CutTail(enc('a€')), 0);
  });

  it('QuoteScanner counts lines through quoted newlines and CRLF, across chunks', () => {
    const s = new QuoteScanner('f', ',');
    const text = enc('a,b\r\n"x\r\ny",2\r\n3,"4"\r\n');
    s.feed(text.subarray(0, 7));
    s.feed(text.subarray(7));
    s.end();
    assert.equal(s.line, 5);
  });

  it(
    'QuoteScanner: a value over 1 MiB is refused as a size cap; a quoted one that swallowed lines as a missing ' +
      'closing quote',
    () => {
      // one huge quoted value on one line, properly closed later: a size cap, not a syntax error
      const s = new QuoteScanner('f', ',');
      const big = new Uint8Array((1 << 20) + 10).fill(0x61);
      big[0] = 0x22;
      assert.throws(
        () => s.feed(big),
        (e: Error) =>
          /f: line 1: a value longer than 1 MiB, the most a cell may hold \(a size cap\)/.test(e.message) &&
          !/closing quote/.test(e.message),
      );
      // the same size reached across many lines: a closing quote is probably missing
      const lines = new Uint8Array((1 << 20) + 10).fill(0x61);
      lines[0] = 0x22;
      for (let i = 100; i < lines.length; i += 100) lines[i] = 0x0a;
      assert.throws(
        () => new QuoteScanner('f', ',').feed(lines),
        /f: line 1: the quoted value that opens here runs on over \d+ line breaks and is a value longer than 1 MiB.*a closing quote is probably missing/,
      );
      // an unquoted 5 MB field: the same cap (it used to pass and flood the output)
      const plain = new Uint8Array(5 << 20).fill(0x62);
      assert.throws(
        () => new QuoteScanner('f', ',').feed(plain),
        /f: line 1: a value longer than 1 MiB, the most a cell may hold \(a size cap\)/,
      );
    },
  );

  it('WhitespaceCollapser turns runs of blanks into one tab, keeping quoted blanks', () => {
    const c = new WhitespaceCollapser();
    const out = new TextDecoder().decode(c.push(enc('  a   b\t"c  d"  \n e  f\n')));
    assert.equal(out, 'a\tb\t"c  d"\ne\tf\n');
  });
});
