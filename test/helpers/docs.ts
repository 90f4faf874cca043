// The repository's documents, for the tests that read them all (links, repeated sentences).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** The markdown files of the repository: README.md and every .md under docs/, as paths from `root`. */
export function docFiles(root: string): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.md')) out.push(rel);
    }
  };
  if (existsSync(path.join(root, 'docs'))) walk('docs');
  return out;
}
