// The seeds a report's header names, for the tests that check each is said with what it seeds.
const flat = (s: string) => s.replace(/\s+/g, ' ');

/** The seeds a header names, each with the word before it ("audit seed 5" → ['audit', 5]; "(seed 6)" → ['', 6]). */
export function namedSeeds(html: string): [string, number][] {
  const header = html.slice(html.indexOf('<header>'), html.indexOf('</header>')).replace(/<[^>]*>/g, ' ');
  const text = flat(header);
  // the qualifier is the word just before "seed": "(seed 6)" or "file, seed 0" has none
  return [...text.matchAll(/\bseed (\d+)/gi)].map((m) => [
    (/(\w+) $/.exec(text.slice(0, m.index))?.[1] ?? '').toLowerCase(),
    Number(m[1]),
  ]);
}
