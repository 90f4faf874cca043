// The CLI's summaries wrap long lines at 120 characters (wrapLine in src/report/format.ts): each
// continuation is indented 4 more than its line, where nesting is indented 2. Tests that match a whole
// line read it unwrapped.
export function unwrapSummary(text: string): string {
  const lines: string[] = [];
  const lead = (l: string) => /^ */.exec(l)![0].length;
  for (const l of text.split('\n')) {
    if (lines.length && l.trim() && lines[lines.length - 1].trim() && lead(l) === lead(lines[lines.length - 1]) + 4)
      lines[lines.length - 1] += ` ${l.trim()}`;
    else lines.push(l);
  }
  return lines.join('\n');
}
