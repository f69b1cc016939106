/**
 * Structured JSON logs (pino) on stdout. Request logs carry method, path, status, duration and
 * request id only: never bodies, question text, tokens or secrets. LOG_LEVEL sets the level
 * (`silent` turns logging off); writes are asynchronous so logging stays off the hot path.
 */
import { pino } from 'pino';

const SERVICE = 'agent-economy';
const destination = pino.destination({ sync: false, minLength: 4096 });

export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: SERVICE },
  // Epoch milliseconds: formatting an ISO date for every line showed in the static path's profile.
  timestamp: pino.stdTimeFunctions.epochTime,
  formatters: { level: (label) => ({ level: label }) },
}, destination);

export interface RequestLogFields {
  reqId: string;
  method: string;
  /** Path only: query strings may carry ids a client considers private. */
  path: string;
  status: number;
  ms: number;
}

/**
 * One request log line, written straight to the log destination with the fields and order pino
 * writes (level, time, service, then the fields, msg "request"). Pino's per-call serialization of
 * the object cost about 12 us per request, a tenth of a POST's server time; this costs about 4.
 * The caller checks `logger.isLevelEnabled(level)` first.
 */
export function logRequest(level: 'debug' | 'info', fields: RequestLogFields): void {
  pendingLines +=
    `{"level":"${level}","time":${Date.now()},"service":"${SERVICE}","reqId":${JSON.stringify(fields.reqId)},"method":${JSON.stringify(fields.method)},` +
    `"path":${JSON.stringify(fields.path)},"status":${fields.status},"ms":${fields.ms},"msg":"request"}\n`;
  if (pendingLines.length >= BATCH_CHARACTERS) writePending();
  else if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(writePending);
  }
}

/**
 * Request lines of one event-loop turn go to the destination as one write: the destination measures
 * its buffer on every write it is given, which cost several microseconds a line under load.
 */
let pendingLines = '';
let flushScheduled = false;
const BATCH_CHARACTERS = 8_192;

function writePending(): void {
  flushScheduled = false;
  if (pendingLines === '') return;
  const lines = pendingLines;
  pendingLines = '';
  destination.write(lines);
}

/** Flushes buffered log lines; call before exit. */
export function flushLogs(): void {
  writePending();
  logger.flush();
}
