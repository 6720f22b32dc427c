import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README is the project's front door: at most 200 lines (what it is, the two commands, a request's way through
 * the code, adding a route, where to read on), the rest in the pages it sends a reader to (FRONT_DOOR_PAGES), and
 * every reference into them or out of them resolves. Checked here:
 * - every Markdown link of README.md and the repository's other Markdown files to `#anchor`
 *   (in the same file or another) matches a heading's GitHub slug in the target file;
 * - every relative link points at a file or folder that exists;
 * - README.md links to each of the pages that hold what moved out of it;
 * - every code comment or test title under shared/, functions/, infra/, bin/ and test/ that
 *   names a README section (the word README, then the section's name in double quotes)
 *   names a heading of README.md or of one of those pages (compared without `#`s, backticks or case): the sections
 *   moved out of README.md keep their names, so a comment's `README "Deploying"` still finds its section.
 * Each failure names the file, the line and the broken reference.
 */

const root = resolve(import.meta.dirname, '../..');
const README = join(root, 'README.md');
const MAX_README_LINES = 200;
/** Where the README's former sections live: the library's design, deploying and operating, what runs locally. */
const FRONT_DOOR_PAGES = ['shared/README.md', 'infra/README.md', 'bin/README.md'].map((page) => join(root, page));
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'cdk.out']);
const CODE_DIRECTORIES = ['shared', 'functions', 'infra', 'bin', 'test'];
const CODE_EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.mjs', '.cjs']);

/** Every file under `directory`, skipping dependencies, build output and dot-directories (.git, .local). */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory())
      return entry.name.startsWith('.') || SKIPPED_DIRECTORIES.has(entry.name) ? [] : filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

const markdownFiles = filesUnder(root).filter((path) => path.endsWith('.md'));
const show = (path: string) => relative(root, path);
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The text with fenced code blocks and inline code blanked out (same length, so indexes keep their lines). */
function withoutCode(markdown: string): string {
  const blank = (match: string) => match.replace(/[^\n]/g, ' ');
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, blank).replace(/`[^`\n]*`/g, blank);
}

/** The headings of a Markdown file (ATX `#` headings outside code blocks), as written, without the `#`s. */
function headingsOf(markdown: string): string[] {
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  return [...text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)].map((match) => match[1] ?? '');
}

/** GitHub's anchor of a heading: its text without markup, lower case, punctuation dropped, spaces as `-`. */
function slugOf(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a file's headings, with GitHub's `-1`, `-2` suffixes for repeated ones. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headingsOf(markdown)) {
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    anchors.add(count ? `${slug}-${count}` : slug);
    seen.set(slug, count + 1);
  }
  return anchors;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Inline links and images `[text](target)` and reference definitions `[name]: target`, outside code. */
function linksOf(file: string): Link[] {
  const markdown = readFileSync(file, 'utf8');
  const text = withoutCode(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const definitions = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)];
  return [...inline, ...definitions].map((match) => ({
    file,
    line: lineOf(text, match.index),
    target: match[1] ?? '',
  }));
}

const EXTERNAL = /^[a-z][a-z\d+.-]*:/i;

/** What is wrong with one link, or undefined when it resolves. */
function brokenLink({ file, target }: Link): string | undefined {
  if (EXTERNAL.test(target)) return undefined;
  const hashAt = target.indexOf('#');
  const pathPart = decodeURIComponent(hashAt === -1 ? target : target.slice(0, hashAt));
  const anchor = hashAt === -1 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
  const destination = pathPart ? resolve(dirname(file), pathPart) : file;
  if (!existsSync(destination)) return `points at ${show(destination)}, which does not exist`;
  if (anchor === undefined) return undefined;
  if (statSync(destination).isDirectory() || extname(destination) !== '.md')
    return `has an anchor #${anchor} into ${show(destination)}, which is not a Markdown file`;
  if (!anchorsOf(readFileSync(destination, 'utf8')).has(anchor))
    return `#${anchor} matches no heading of ${show(destination)}`;
  return undefined;
}

/** How a heading is compared with a section name: without `#`s, backticks and case, spaces collapsed. */
const sectionKey = (name: string) => name.replace(/`/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * `README "Section"` in code: the word README (or README's), an optional `,` or `:`, then a
 * double-quoted name, which may wrap onto the next comment line (its `*` or `//` dropped).
 */
const SECTION_REFERENCE = /\bREADME(?:'s)?[,:]?(?:\s|\*|\/\/)*"([^"\n]+(?:\n[ \t]*(?:\*|\/\/)?[ \t]*[^"\n]+)?)"/g;

/** The quoted name of a reference, one line again. */
const sectionName = (match: RegExpMatchArray) => (match[1] ?? '').replace(/\n[ \t]*(?:\*|\/\/)?[ \t]*/g, ' ');

interface SectionReference {
  file: string;
  line: number;
  section: string;
}

function sectionReferences(): SectionReference[] {
  const self = resolve(import.meta.filename);
  return CODE_DIRECTORIES.flatMap((directory) => filesUnder(join(root, directory)))
    .filter((file) => CODE_EXTENSIONS.has(extname(file)) && file !== self)
    .flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(SECTION_REFERENCE)].map((match) => ({
        file,
        line: lineOf(text, match.index),
        section: sectionName(match),
      }));
    });
}

describe('README.md', () => {
  it(`is a front door of at most ${MAX_README_LINES} lines`, () => {
    const lines = readFileSync(README, 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines, `README.md has ${lines} lines`).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('is among the Markdown files checked, with every other tracked one', () => {
    expect(markdownFiles).toContain(README);
    for (const page of FRONT_DOOR_PAGES) expect(markdownFiles).toContain(page);
  });

  it('sends a reader on to each page that holds what moved out of it', () => {
    const targets = new Set(linksOf(README).map(({ target }) => resolve(root, target.split('#')[0] ?? '')));
    for (const page of FRONT_DOOR_PAGES) expect(targets, show(page)).toContain(page);
  });

  it("links only to files that exist and to anchors that match a heading of the link's target", () => {
    const broken = markdownFiles
      .flatMap(linksOf)
      .map((link) => {
        const problem = brokenLink(link);
        return problem && `${show(link.file)}:${link.line}: link (${link.target}) ${problem}`;
      })
      .filter(Boolean);
    expect(broken).toEqual([]);
  });

  it('has a heading, of its own or of a page it sends a reader to, for every section that code comments and test titles name', () => {
    const headings = new Set(
      [README, ...FRONT_DOOR_PAGES].flatMap((page) => headingsOf(readFileSync(page, 'utf8')).map(sectionKey)),
    );
    const references = sectionReferences();
    // The pattern must keep finding the references (a wrong pattern would pass vacuously).
    expect(references.length).toBeGreaterThan(10);
    const broken = references
      .filter(({ section }) => !headings.has(sectionKey(section)))
      .map(
        ({ file, line, section }) =>
          `${show(file)}:${line}: README "${section}" is no heading of README.md or its pages`,
      );
    expect(broken).toEqual([]);
  });
});

describe('the link checks themselves', () => {
  it('slugs headings as GitHub does (backticks, punctuation and repeats)', () => {
    expect(slugOf('Older ticket routes (`/ticket`): for integrations')).toBe(
      'older-ticket-routes-ticket-for-integrations',
    );
    expect(slugOf('OWASP API Security Top 10 (2023)')).toBe('owasp-api-security-top-10-2023');
    expect(slugOf('The gate rush (`npm run load:gate`)')).toBe('the-gate-rush-npm-run-loadgate');
    expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n### B_c\n')]).toEqual(['a', 'a-1', 'b_c']);
  });

  it('finds a section name that wraps onto the next comment line', () => {
    const text = ' * the ticket (README "Sessions and\n * revocation"), and README: "Waivers"; README\'s "Storage".';
    const found = [...text.matchAll(SECTION_REFERENCE)].map(sectionName);
    expect(found).toEqual(['Sessions and revocation', 'Waivers', 'Storage']);
  });

  it('ignores links inside code', () => {
    expect(withoutCode('see `[x](#nowhere)` and\n```md\n[y](missing.md)\n```\n[z](#here)')).not.toMatch(
      /nowhere|missing/,
    );
  });
});
