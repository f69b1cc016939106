/** Listening, with the usual refusals said in one line that names the variable to change. */
import type { Server } from 'node:net';

export function listen(server: Server, host: string, port: number, portVariable: 'PORT' | 'MCP_PORT'): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new Error(`${host}:${port} is already in use: stop the process listening there, or set ${portVariable} (and HOST) to a free address`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new Error(`cannot listen on ${host}: no such address on this machine; set HOST to one of its addresses`));
      else if (error.code === 'EACCES') reject(new Error(`not allowed to listen on ${host}:${port}: ports below 1024 need privileges; set ${portVariable} above 1023`));
      else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
}
