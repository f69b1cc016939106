// Writes packages/client/schema.d.ts from the built OpenAPI document. `npm run client:generate`
// after `npm run build`.
import { readFileSync, writeFileSync } from 'node:fs';
import { clientTypes } from './client-types.mjs';

const root = new URL('..', import.meta.url);
const document = JSON.parse(readFileSync(new URL(`${process.env.DIST_DIR ?? 'dist'}/client/agent-economy/openapi.v0.json`, root), 'utf8'));
writeFileSync(new URL('packages/client/schema.d.ts', root), await clientTypes(document));
console.log('wrote packages/client/schema.d.ts');
