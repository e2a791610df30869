import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './config-schemas';

/**
 * The docs a newcomer reads stay short, point at files that exist, and say
 * their reasons themselves rather than pointing at a tracker that is not in
 * the repository.
 *
 * README words are counted as prose: whitespace-separated words outside
 * fenced code blocks (the commands are read, not counted) at most 800, and the
 * whole file, code included, at most 1,000.
 */

const README_PROSE_WORDS = 800;
const README_ALL_WORDS = 1000;

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The text outside ``` / ~~~ fenced blocks. */
function prose(markdown: string): string {
  let fence: string | undefined;
  const kept: string[] = [];
  for (const line of markdown.split('\n')) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      continue;
    }
    if (opener) {
      fence = opener;
      continue;
    }
    kept.push(line);
  }
  return kept.join('\n');
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean);
}

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of prose(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Markdown link and image targets outside code: `[text](target)`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

const DOCS = ['README.md', ...fs.readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('the docs a newcomer reads', () => {
  it(`when the README is read, then its prose is at most ${README_PROSE_WORDS} words and the whole file at most ${README_ALL_WORDS}`, () => {
    const readme = read('README.md');
    expect({ proseWords: words(prose(readme)) <= README_PROSE_WORDS, allWords: words(readme) <= README_ALL_WORDS }).toEqual({ proseWords: true, allWords: true });
  });

  it('when the README is read, then it shows the console, the two commands, a first upload and the suite\'s time', () => {
    const readme = read('README.md');
    expect(readme).toContain('](docs/console.png)');
    expect(readme).toContain('npm run up');
    expect(readme).toContain('npm test');
    expect(readme).toContain('/api/apps/upload');
    expect(readme).toContain('hangar upload');
    expect(readme).toMatch(/^Test suite: /m);
  });

  it('when docs/ARCHITECTURE.md lists the folders, then each has one line of at most 40 words', () => {
    const folders = prose(read('docs/ARCHITECTURE.md'))
      .split('\n')
      .filter((line) => /^\| `/.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .map((cells) => ({ folder: cells[1], words: words(cells[2] ?? '') }));
    expect(folders.length).toBeGreaterThan(20);
    expect(folders.filter((f) => f.words > 40)).toEqual([]);
  });

  it.each(DOCS)('when %s links to a file or a heading, then it exists inside the repository', (doc) => {
    const markdown = read(doc);
    const broken: string[] = [];
    for (const target of linkTargets(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file ? path.resolve(path.dirname(path.join(REPO_ROOT, doc)), decodeURIComponent(file)) : path.join(REPO_ROOT, doc);
      const relative = path.relative(REPO_ROOT, resolved);
      if (relative.startsWith('..') || path.isAbsolute(relative)) {
        broken.push(`${target}: outside the repository`);
        continue;
      }
      if (!fs.existsSync(resolved)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it('when any tracked file is read, then none refers to a numbered issue of a tracker that is not in the repository', () => {
    // Built from parts, so this file does not match itself.
    const reference = new RegExp(['\\bissues?', '\\s?#?[0-9]+'].join(''), 'i');
    const found: string[] = [];
    for (const file of trackedFiles()) {
      if (file.startsWith('tests/fixtures/') || file.endsWith('package-lock.json')) continue;
      const full = path.join(REPO_ROOT, file);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(full);
      } catch {
        continue; // deleted in the working tree, not yet committed
      }
      if (!stat.isFile() || stat.size > 4 * 1024 * 1024) continue;
      const bytes = fs.readFileSync(full);
      if (bytes.subarray(0, 8000).includes(0)) continue; // binary
      bytes
        .toString('utf8')
        .split('\n')
        .forEach((line, i) => {
          const match = reference.exec(line);
          if (match) found.push(`${file}:${i + 1}: ${match[0]}`);
        });
    }
    expect(found).toEqual([]);
  });
});
