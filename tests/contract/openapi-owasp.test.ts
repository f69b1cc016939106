/**
 * The served OpenAPI documents (the site's, built; the MCP host's, as it serves it) through Spectral
 * with the OWASP API Security ruleset (@stoplight/spectral-owasp-ruleset), as an integrator runs it:
 * `npx spectral lint` with the project's `.spectral.yaml`, where a rule is turned off only with its
 * reason beside it. No error; the warnings are printed by the command, not failed here.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMcpHostOpenApiDocument } from '../../src/descriptors/openapi.ts';
import { DIST_DIR, ROOT } from '../helpers/built-server.ts';

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), 'spectral-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Finding {
  code: string;
  severity: number;
  path: string[];
  message: string;
}

/** Spectral's findings on the document in `file`, with the project's ruleset. */
async function lint(file: string): Promise<Finding[]> {
  // Exit 1 means findings at the fail severity: the JSON on stdout says which.
  const { stdout } = await run(join(ROOT, 'node_modules/.bin/spectral'), ['lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet', '--fail-severity', 'hint'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string; code?: number }) => {
    if (error.code === 1 && error.stdout) return { stdout: error.stdout };
    throw error;
  });
  return JSON.parse(stdout) as Finding[];
}

const errors = (findings: Finding[]) => findings.filter((finding) => finding.severity === 0).map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`);

describe('Spectral with the OWASP ruleset', () => {
  it('finds no error in the site\'s served document', async () => {
    const findings = await lint(join(DIST_DIR, 'client/openapi.json'));
    expect(errors(findings)).toEqual([]);
    // The ruleset ran: it warns about what it does not fail (401 and 500 answers no operation has).
    expect(findings.length).toBeGreaterThan(0);
  }, 120_000);

  it('finds no error in the MCP host\'s document', async () => {
    const file = join(folder, 'mcp-openapi.json');
    writeFileSync(file, JSON.stringify(buildMcpHostOpenApiDocument({ maxSessions: 100, maxSessionsPerClient: 8 })));
    expect(errors(await lint(file))).toEqual([]);
  }, 120_000);

  it('turns a rule off only with its reason written above it', () => {
    const lines = readFileSync(join(ROOT, '.spectral.yaml'), 'utf8').split('\n');
    const off = lines.flatMap((line, at) => (/^\s+[\w:-]+: off\s*$/.test(line) ? [at] : []));
    expect(off.length).toBeGreaterThan(0);
    for (const at of off) expect(lines[at - 1], lines[at]).toMatch(/^\s+# \S/);
  });

  it('fails a document that breaks a rule it keeps: an unbounded string', async () => {
    const document = JSON.parse(readFileSync(join(DIST_DIR, 'client/openapi.json'), 'utf8'));
    delete document.components.schemas.Problem.properties.detail.maxLength;
    const file = join(folder, 'unbounded.json');
    writeFileSync(file, JSON.stringify(document));
    expect(errors(await lint(file))).toEqual([expect.stringMatching(/^owasp:api4:2023-string-limit at components\.schemas\.Problem\.properties\.detail/)]);
  }, 120_000);
});
