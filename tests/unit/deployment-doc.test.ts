/**
 * docs/deployment.md tells a CDN operator which GETs to send to the origin: every runtime GET of
 * this site's route catalogue must match one of the paths it lists (a `*` ends a path's beginning),
 * so a new runtime route cannot be left out of the list (it missed `/api/agents/reputation/evidence`
 * and `/api/x402/facilitator/supported` before), and no static file is listed as runtime.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.ts';

const doc = readFileSync(new URL('../../docs/deployment.md', import.meta.url), 'utf8');
const bullet = doc.slice(doc.indexOf('- Route to the origin, never to the CDN cache'), doc.indexOf('\n- ', doc.indexOf('- Route to the origin, never to the CDN cache') + 1));
const listed = [...bullet.matchAll(/`(\/[^`]*)`/g)].map(([, path]) => path!);
const covers = (pattern: string, path: string) => (pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern);

describe('docs/deployment.md', () => {
  it('lists every runtime GET of the site among the paths a CDN sends to the origin, and no static file', () => {
    expect(listed.length).toBeGreaterThan(3);
    const entries = catalogue().filter((entry) => (entry.host ?? 'site') === 'site' && entry.method === 'GET');
    for (const entry of entries.filter((route) => route.kind === 'dynamic')) {
      expect(listed.some((pattern) => covers(pattern, entry.path)), `${entry.id} ${entry.path}`).toBe(true);
    }
    for (const entry of entries.filter((route) => route.kind === 'static')) {
      expect(listed.some((pattern) => covers(pattern, entry.path)), `static ${entry.id} ${entry.path}`).toBe(false);
    }
  });
});
