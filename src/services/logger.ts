/**
 * Structured JSON logs (pino) on stdout. Request logs carry method, path, status, duration and
 * request id only: never bodies, question text, tokens or secrets. LOG_LEVEL sets the level
 * (`silent` turns logging off); writes are asynchronous so logging stays off the hot path.
 */
import { pino } from 'pino';

export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: 'agent-economy' },
  // Epoch milliseconds: formatting an ISO date for every line showed in the static path's profile.
  timestamp: pino.stdTimeFunctions.epochTime,
  formatters: { level: (label) => ({ level: label }) },
}, pino.destination({ sync: false, minLength: 4096 }));

/** Flushes buffered log lines; call before exit. */
export function flushLogs(): void {
  logger.flush();
}
