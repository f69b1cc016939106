// `npm start`: serve the site on HOST:PORT and the MCP host on MCP_PORT (MCP_WITH_SITE=false for the
// site alone) with embedded defaults (no outside service needed), building first when there is no
// build, when the sources are newer than it, or when it was made for another origin
// (src/build/start-plan.ts). Without SITE_BASE_URL the base URL is the origin the server listens on.
// Both ports are tried before anything is built, so a start that cannot listen leaves dist/ as it was.
//
// The server runs in this process, and the npm script `exec`s it (no shell in between), so a stop
// signal sent to npm reaches the server and nothing is left running. Its V8 flags
// (docs/performance.md, "Memory") are on the npm script that starts it, as on `npm run serve`.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const fail = (error) => {
  // A malformed variable, a store this build cannot use, a port in use: one line that says what.
  console.error(`server: ${error?.message ?? error}`);
  process.exit(1);
};

process.env.MCP_WITH_SITE ??= 'true';
let plan;
let addresses;
try {
  const { planStart, startAddresses } = await import('../src/build/start-plan.ts');
  plan = planStart(root, process.env);
  addresses = startAddresses(process.env);
  const { listen } = await import('../src/lib/listen.ts');
  for (const { host, port, variable } of addresses) {
    const probe = createServer();
    await listen(probe, host, port, variable);
    await new Promise((resolve) => probe.close(resolve));
  }
} catch (error) {
  fail(error);
}
Object.assign(process.env, plan.env);
try {
  // The receipt log's key is made now rather than by the server, so the build publishes its verifier key in the discovery descriptor.
  const { loadReceiptLogConfig, receiptLogOrigin } = await import('../src/config/receipt-log.ts');
  const { verifierKeyOf } = await import('../src/services/log-signing-key.ts');
  process.env.LOG_VERIFIER_KEY ||= verifierKeyOf({ ...loadReceiptLogConfig(process.env), origin: receiptLogOrigin(plan.target.base_url) });
  // The x402 signing key likewise, so the descriptor names the key offers and receipts are signed with.
  const { loadX402SigningConfig } = await import('../src/config/x402-signing.ts');
  const { loadX402SigningKey, publicJwkOf } = await import('../src/services/x402-signing-key.ts');
  process.env.X402_SIGNING_PUBLIC_KEY ||= publicJwkOf(loadX402SigningKey(loadX402SigningConfig(process.env))).x;
} catch (error) {
  fail(error);
}
if (plan.rebuild) {
  console.log(`${plan.rebuild}: building for ${plan.target.base_url}`);
  const result = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const { main } = await import(join(root, 'dist/server/fast-entry.mjs'));
await main().catch(fail);
// The addresses as a person copies them (port 0 is known only to the listening lines above).
const { localOrigin } = await import('../src/config/build-origin.ts');
const siteAddress = addresses.find((address) => address.variable === 'PORT');
const mcpAddress = addresses.find((address) => address.variable === 'MCP_PORT');
const served = [
  siteAddress && `the site at ${localOrigin(siteAddress.host, siteAddress.port)}/`,
  mcpAddress && `the MCP host at ${localOrigin(mcpAddress.host, mcpAddress.port)}/mcp`,
].filter(Boolean);
if (served.length) console.log(`serving ${served.join(' and ')}; Ctrl-C stops ${served.length > 1 ? 'both' : 'it'}`);
