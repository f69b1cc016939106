/**
 * Issue 52, "derive, don't write": a static descriptor's `last_updated` is the day its own sources
 * last changed, read from git, never a date written in content. The history is a real repository
 * made here, so a commit to a source moves the date and a commit elsewhere does not.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastChanged, projectHistory, type SourceHistory } from '../../src/config/source-dates.ts';
import { staticDocuments } from '../../src/build/static-documents.ts';
import { typeName } from '../../src/config/site.ts';
import { DESCRIPTOR_SOURCES, descriptorLastUpdated } from '../../src/descriptors/sources.ts';

describe('a date read from the sources history', () => {
  let root: string;
  let history: SourceHistory;
  const git = (args: string[], date?: string) =>
    execFileSync('git', args, {
      cwd: root,
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org' },
      stdio: 'pipe',
    });
  const commit = (file: string, text: string, date: string) => {
    writeFileSync(join(root, file), text);
    git(['add', file]);
    git(['commit', '-q', '-m', `${file} on ${date}`], date);
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'source-dates-'));
    git(['init', '-q']);
    commit('roadmap.json', '{}', '2026-11-23T23:30:00+00:00');
    commit('other.json', '{}', '2026-11-25T10:00:00+00:00');
    history = { ...projectHistory(root), now: () => new Date('2026-12-31T08:00:00Z') };
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is the day of the newest commit to a source, in UTC, and moves when one of them changes', () => {
    expect(lastChanged(['roadmap.json'], history)).toBe('2026-11-23');
    // A commit to a file that is not a source leaves the date where it was.
    commit('other.json', '{"a":1}', '2026-11-28T10:00:00+00:00');
    expect(lastChanged(['roadmap.json'], history)).toBe('2026-11-23');
    // Late on the 4th in New York is the 5th in UTC.
    commit('roadmap.json', '{"phase":"next"}', '2026-12-04T22:00:00-05:00');
    expect(lastChanged(['roadmap.json'], history)).toBe('2026-12-05');
    expect(lastChanged(['roadmap.json', 'other.json'], history)).toBe('2026-12-05');
  });

  it('is today when a source has changes not yet committed: the build publishes them', () => {
    writeFileSync(join(root, 'other.json'), '{"a":2}');
    expect(lastChanged(['other.json'], history)).toBe('2026-12-31');
    expect(lastChanged(['roadmap.json'], history)).toBe('2026-12-05');
    git(['checkout', '--', 'other.json']);
    expect(lastChanged(['other.json'], history)).toBe('2026-11-28');
  });

  it('names a source that does not exist, and dates one git keeps no history of by its file', () => {
    expect(() => lastChanged(['roadmap.jsn'], history)).toThrow(/roadmap\.jsn does not exist/);
    expect(() => lastChanged([], history)).toThrow(/at least one source/);
    // A copy inside another repository's ignored folder (Stryker's sandbox): no status, no log.
    utimesSync(join(root, 'roadmap.json'), new Date('2026-09-09T12:00:00Z'), new Date('2026-09-09T12:00:00Z'));
    const untracked: SourceHistory = { ...history, git: (args) => (args[0] === 'log' ? '' : history.git(args)) };
    expect(lastChanged(['roadmap.json'], untracked)).toBe('2026-09-09');
  });

  it('falls back to the files modification times where there is no repository', () => {
    const bare = mkdtempSync(join(tmpdir(), 'source-dates-tarball-'));
    try {
      writeFileSync(join(bare, 'a.json'), '{}');
      writeFileSync(join(bare, 'b.json'), '{}');
      utimesSync(join(bare, 'a.json'), new Date('2026-10-01T12:00:00Z'), new Date('2026-10-01T12:00:00Z'));
      utimesSync(join(bare, 'b.json'), new Date('2026-10-03T12:00:00Z'), new Date('2026-10-03T12:00:00Z'));
      const tarball = projectHistory(bare);
      expect(lastChanged(['a.json'], tarball)).toBe('2026-10-01');
      expect(lastChanged(['a.json', 'b.json'], tarball)).toBe('2026-10-03');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});

describe('every static descriptor is dated by its sources', () => {
  const dated = staticDocuments()
    .filter((document) => document.contentType.includes('json') && !document.path.endsWith('.schema.json'))
    .map((document) => ({ path: document.path, body: JSON.parse(document.body) as Record<string, unknown> }))
    .filter(({ body }) => typeof body.last_updated === 'string' && typeof body.type === 'string');
  const byType = new Map(Object.keys(DESCRIPTOR_SOURCES).map((name) => [typeName(name), name]));

  it('carries the day its sources last changed, and every entry of the table dates a published descriptor', () => {
    expect(dated.length).toBeGreaterThanOrEqual(20);
    for (const { path, body } of dated) {
      const name = byType.get(body.type as string);
      expect(name, `${path} (${body.type}) has sources in src/descriptors/sources.ts`).toBeDefined();
      expect(body.last_updated, path).toBe(descriptorLastUpdated(name!));
    }
    const published = new Set(dated.map(({ body }) => body.type));
    for (const name of Object.keys(DESCRIPTOR_SOURCES)) expect(published.has(typeName(name)), `${name} is published`).toBe(true);
  });

  it('names every content file and schema its builder imports', () => {
    const directory = 'src/descriptors';
    for (const file of readdirSync(directory).filter((name) => name.endsWith('.ts'))) {
      const text = readFileSync(join(directory, file), 'utf8');
      // Documents made at request time pass the day they are made and are not in the table.
      const names = [...text.matchAll(/(?:descriptorHeader|descriptorLastUpdated)\('([^']+)'\)/g)].map((match) => match[1]!);
      if (names.length === 0) continue;
      const declared = new Set(names.flatMap((name) => DESCRIPTOR_SOURCES[name] ?? []));
      expect(declared.has(`${directory}/${file}`), `${file} is a source of what it builds`).toBe(true);
      for (const [, imported] of text.matchAll(/from '\.\.\/\.\.\/((?:content|schemas)\/[^']+)'/g)) {
        expect(declared.has(imported!), `${file} imports ${imported}: a source of ${names.join(', ')}`).toBe(true);
      }
    }
  });

  it('writes no date by hand in content', () => {
    for (const file of readdirSync('content').filter((name) => name.endsWith('.json'))) {
      expect(Object.keys(JSON.parse(readFileSync(join('content', file), 'utf8'))), file).not.toContain('last_updated');
    }
  });
});
