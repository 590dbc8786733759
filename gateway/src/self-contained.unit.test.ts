import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands alone: no tracked file (code, test, doc) cites a document that is not in it. A comment states
 * the rule it relies on in our words, or points into docs/. This file is not scanned: it holds examples of what it
 * forbids.
 */

const root = path.resolve(import.meta.dirname, '../..');
const SELF = path
  .relative(root, import.meta.filename)
  .split(path.sep)
  .join('/');

/**
 * Files allowed to cite an outside document while they are being rewritten: none today. A file listed here must
 * leave the list as soon as its citations are gone (the last test checks), so the list can only shrink.
 */
const KNOWN_EXCEPTIONS: readonly string[] = [];

type Citation = { file: string; line: number; text: string };

/** The product's two requirement documents, by number, with or without the word 'spec'. */
const NUMBERED_SPEC = /spec 00[01]|\b00[01]\s*§/i;
/** The architecture page that lived outside the repository, by section. */
const OUTSIDE_ARCHITECTURE = /ARCHITECTURE\s*§|shared\/(?:ARCHITECTURE|spec)\b/i;
/** A section sign before a number: a citation by section of a document (Markdown may number its own sections). */
const SECTION_NUMBER = /§\s*\d/;
/** A relative path that climbs to a `shared` folder; it is a citation when it leaves the repository. */
const SHARED_PATH = /(?:\.\.\/)+shared\b[\w./-]*/g;

function trackedTextFiles(): { file: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter((f) => f && f !== SELF && !f.split('/').includes('node_modules'));
  const out: { file: string; text: string }[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(root, file));
    } catch {
      continue; // deleted in the working tree, not yet committed
    }
    if (bytes.includes(0)) continue; // binary (pictures, fonts)
    out.push({ file, text: bytes.toString('utf8') });
  }
  return out;
}

function leavesRepository(file: string, relative: string): boolean {
  const target = path.resolve(root, path.dirname(file), relative);
  return path.relative(root, target).startsWith('..');
}

function outsideCitations(file: string, text: string): Citation[] {
  const found: Citation[] = [];
  text.split('\n').forEach((lineText, i) => {
    const outsidePath = [...lineText.matchAll(SHARED_PATH)].some((m) => leavesRepository(file, m[0]));
    if (
      NUMBERED_SPEC.test(lineText) ||
      OUTSIDE_ARCHITECTURE.test(lineText) ||
      (!file.endsWith('.md') && SECTION_NUMBER.test(lineText)) ||
      outsidePath
    ) {
      found.push({ file, line: i + 1, text: lineText.trim() });
    }
  });
  return found;
}

describe('the repository stands alone', () => {
  const files = trackedTextFiles();
  const citations = files.flatMap(({ file, text }) => outsideCitations(file, text));

  it('reads the tracked files', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.file === 'gateway/src/app.ts')).toBe(true);
  });

  it('recognises a citation of an outside document, and not an import of our own shared folder', () => {
    const at = (file: string, line: string) => outsideCitations(file, line).length;
    expect(at('frontend/src/x.ts', '/** Toasts last 3 s (spec 001 §9). */')).toBe(1);
    expect(at('frontend/src/x.ts', '/** The route table (000 §2, 001 §2). */')).toBe(1);
    expect(at('gateway/src/x.ts', '// reads go to query-api (ARCHITECTURE §1)')).toBe(1);
    expect(at('README.md', 'see `../shared/ARCHITECTURE.md`')).toBe(1);
    expect(at('frontend/src/x.ts', "/** The spec's path (§7: GET /faqRoutes). */")).toBe(1);
    expect(at('frontend/src/accounts/x.ts', "import { api } from '../shared/api';")).toBe(0);
    expect(at('frontend/src/shared/ui/x.ts', "import { api } from '../../shared/api';")).toBe(0);
    expect(at('docs/architecture.md', 'As §2 says, the gateway routes by method.')).toBe(0);
  });

  it('has no citation of a document outside the repository, except in the files listed as known exceptions', () => {
    const unexpected = citations.filter((c) => !KNOWN_EXCEPTIONS.includes(c.file));
    expect(unexpected.map((c) => `${c.file}:${c.line}: ${c.text}`)).toEqual([]);
  });

  it('lists as exceptions only files that still cite an outside document', () => {
    const citing = new Set(citations.map((c) => c.file));
    expect(KNOWN_EXCEPTIONS.filter((file) => !citing.has(file))).toEqual([]);
  });
});
