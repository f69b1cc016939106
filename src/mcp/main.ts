/**
 * Entry of `npm run mcp` (bundled to `dist/server/mcp.mjs`): the standalone MCP host. Kept apart from
 * server.ts so that the site's bundle, which can start the host in process (MCP_WITH_SITE), never
 * starts a second one when it is itself the entry.
 */
import { main } from './server.ts';

main().catch((error: unknown) => {
  console.error(`mcp: ${(error as Error)?.message ?? error}`);
  process.exit(1);
});
