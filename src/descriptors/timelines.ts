/**
 * The two pictures of the live proof, drawn on the server as SVG from stored data: the probe history
 * per gate (live status over time) and the settled receipts per day, testnet and sandbox apart. Each
 * is an image whose `<title>` and `<desc>` say in words what it draws (the pages show that text too),
 * small whatever the history holds: a row is cut into at most MAX_COLUMNS slices of time.
 */
import type { ReceiptDay } from '../domain/ports.ts';
import { RECEIPT_TIMELINE_DAYS } from '../config/limits.ts';
import type { GateState, ProbeRun } from '../domain/probe-history.ts';

/** Slices of time drawn per row: a column is the worst state and the longest latency of the runs in its slice. */
const MAX_COLUMNS = 120;

const WIDTH = 760;
const LABEL_WIDTH = 150;
const SUMMARY_WIDTH = 150;
const PLOT_WIDTH = WIDTH - LABEL_WIDTH - SUMMARY_WIDTH;
const ROW_HEIGHT = 28;
const TOP = 34;
/** Colours with at least 4.5:1 contrast on white; the state is also written beside each row. */
const STATE_COLOURS: Record<GateState, string> = { up: '#1a7f37', degraded: '#9a6700', down: '#cf222e' };
const STATE_RANK: Record<GateState, number> = { up: 0, degraded: 1, down: 2 };

const escapeXml = (text: string): string => text.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);
/** `2026-11-25 14:05 UTC`. */
const minuteOf = (at: Date): string => `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 16)} UTC`;
const round = (value: number): number => Math.round(value * 10) / 10;

function svgDocument(id: string, height: number, title: string, description: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${id}-title ${id}-desc" font-family="system-ui, sans-serif" font-size="12">`,
    `<title id="${id}-title">${escapeXml(title)}</title>`,
    `<desc id="${id}-desc">${escapeXml(description)}</desc>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

function text(x: number, y: number, content: string, { fill = '#1f2328', attributes = '' } = {}): string {
  return `<text x="${round(x)}" y="${round(y)}" fill="${fill}"${attributes ? ` ${attributes}` : ''}>${escapeXml(content)}</text>`;
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

interface GateSeries {
  gate: string;
  /** One entry per run, in run order; undefined where the run did not probe this gate. */
  results: Array<{ at: Date; state: GateState; latencyMs: number | null } | undefined>;
}

/** Gates in `order` first (the live status's own order), then any other gate a run recorded. */
function seriesOf(runs: readonly ProbeRun[], order: readonly string[]): GateSeries[] {
  const gates = [...order];
  for (const run of runs) for (const { gate } of run.results) if (!gates.includes(gate)) gates.push(gate);
  return gates
    .map((gate) => ({ gate, results: runs.map((run) => { const found = run.results.find((result) => result.gate === gate); return found && { at: run.at, state: found.state, latencyMs: found.latencyMs }; }) }))
    .filter((series) => series.results.some(Boolean));
}

/** Since when a gate has been in its latest state: the first run of its current streak. */
function currentStreak(series: GateSeries): { state: GateState; since: Date } | undefined {
  const results = series.results.filter((result) => result !== undefined);
  const last = results.at(-1);
  if (!last) return undefined;
  let since = last.at;
  for (let index = results.length - 1; index >= 0 && results[index]!.state === last.state; index--) since = results[index]!.at;
  return { state: last.state, since };
}

function gateSentence(series: GateSeries): string {
  const results = series.results.filter((result) => result !== undefined);
  const counts = { up: 0, degraded: 0, down: 0 };
  for (const result of results) counts[result.state]++;
  const streak = currentStreak(series)!;
  const latency = median(results.flatMap((result) => (result.latencyMs === null ? [] : [result.latencyMs])));
  const parts = [`${series.gate}: ${streak.state} since ${minuteOf(streak.since)}`, `up in ${counts.up} of ${results.length} runs`];
  if (counts.degraded) parts.push(`degraded in ${counts.degraded}`);
  if (counts.down) parts.push(`down in ${counts.down}`);
  if (latency !== undefined) parts.push(`median latency ${latency} ms`);
  return parts.join(', ') + '.';
}

function legend(y: number): string[] {
  const out: string[] = [];
  let x = LABEL_WIDTH;
  for (const state of ['up', 'degraded', 'down'] as const) {
    out.push(`<rect x="${x}" y="${y - 9}" width="10" height="10" fill="${STATE_COLOURS[state]}"/>`, text(x + 14, y, state));
    x += 80;
  }
  out.push(text(x, y, 'bar height: latency'));
  return out;
}

/**
 * The probe history as a timeline: a row per gate, its time cut into MAX_COLUMNS slices, each slice
 * with a run drawn as a bar coloured by state, its height the probe's latency; beside each row, the
 * gate's state now and since when.
 */
export function probeTimelineSvg(runs: readonly ProbeRun[], gateOrder: readonly string[], now: Date): string {
  const title = 'Live status over time: each gate\'s probe results';
  if (runs.length === 0) {
    const description = 'No probe run has been kept yet. Reading the live status runs the probes, and a run is kept at most once a minute.';
    return svgDocument('probe-timeline', 70, title, description, [text(16, 40, description)]);
  }
  const series = seriesOf(runs, gateOrder);
  const start = runs[0]!.at.getTime();
  const end = Math.max(now.getTime(), runs.at(-1)!.at.getTime(), start + 60_000);
  // Columns are slices of time, not runs: a gap between kept runs stays a gap, a lone run a narrow bar.
  const columns = MAX_COLUMNS;
  const columnWidth = PLOT_WIDTH / columns;
  const columnOf = (at: Date) => Math.min(columns - 1, Math.floor(((at.getTime() - start) / (end - start)) * columns));
  const height = TOP + series.length * ROW_HEIGHT + 46;
  const body: string[] = [text(16, 20, `${runs.length} kept ${runs.length === 1 ? 'run' : 'runs'}, ${minuteOf(new Date(start))} to ${minuteOf(new Date(end))}`, { attributes: 'font-weight="600"' })];
  series.forEach((gateSeries, row) => {
    const top = TOP + row * ROW_HEIGHT;
    const baseline = top + ROW_HEIGHT - 6;
    body.push(text(16, baseline - 4, gateSeries.gate));
    const folded = new Map<number, { state: GateState; latencyMs: number | null }>();
    for (const result of gateSeries.results) {
      if (!result) continue;
      const column = columnOf(result.at);
      const seen = folded.get(column);
      const latencyMs = Math.max(seen?.latencyMs ?? -1, result.latencyMs ?? -1);
      folded.set(column, {
        state: seen && STATE_RANK[seen.state] > STATE_RANK[result.state] ? seen.state : result.state,
        latencyMs: latencyMs < 0 ? null : latencyMs,
      });
    }
    const longest = Math.max(1, ...[...folded.values()].map((column) => column.latencyMs ?? 0));
    body.push(`<g aria-hidden="true">`);
    for (const [column, { state, latencyMs }] of folded) {
      const barHeight = 4 + (ROW_HEIGHT - 12) * ((latencyMs ?? 0) / longest);
      const x = LABEL_WIDTH + column * columnWidth;
      body.push(`<rect x="${round(x)}" y="${round(baseline - barHeight)}" width="${round(Math.max(1, columnWidth - 1))}" height="${round(barHeight)}" fill="${STATE_COLOURS[state]}"/>`);
    }
    body.push('</g>');
    const streak = currentStreak(gateSeries)!;
    // The time alone when the streak began on the axis's last day, else the day too.
    const sameDay = streak.since.toISOString().slice(0, 10) === new Date(end).toISOString().slice(0, 10);
    const since = streak.since.toISOString().slice(sameDay ? 11 : 5, 16).replace('T', ' ');
    body.push(text(LABEL_WIDTH + PLOT_WIDTH + 10, baseline - 4, `${streak.state} since ${since}`, { fill: STATE_COLOURS[streak.state] }));
  });
  const axis = TOP + series.length * ROW_HEIGHT + 14;
  body.push(`<line x1="${LABEL_WIDTH}" y1="${axis - 10}" x2="${LABEL_WIDTH + PLOT_WIDTH}" y2="${axis - 10}" stroke="#57606a"/>`);
  body.push(text(LABEL_WIDTH, axis + 4, minuteOf(new Date(start))), text(LABEL_WIDTH + PLOT_WIDTH, axis + 4, minuteOf(new Date(end)), { attributes: 'text-anchor="end"' }));
  body.push(...legend(axis + 26));
  const description = [`Probe results of ${runs.length} kept ${runs.length === 1 ? 'run' : 'runs'} from ${minuteOf(new Date(start))} to ${minuteOf(new Date(runs.at(-1)!.at))}.`, ...series.map(gateSentence)].join(' ');
  return svgDocument('probe-timeline', height, title, description, body);
}

/** Settled receipts per UTC day over the last RECEIPT_TIMELINE_DAYS days, a row per chain, from the receipts counted per day. */
export function receiptTimelineSvg(receiptDays: readonly ReceiptDay[], now: Date): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const firstDay = today - (RECEIPT_TIMELINE_DAYS - 1) * 86_400_000;
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const chains = ['testnet', 'sandbox'] as const;
  const counts = { testnet: new Array<number>(RECEIPT_TIMELINE_DAYS).fill(0), sandbox: new Array<number>(RECEIPT_TIMELINE_DAYS).fill(0) };
  const earlier = { testnet: 0, sandbox: 0 };
  const undated = { testnet: 0, sandbox: 0 };
  for (const { day, chain, count } of receiptDays) {
    const settled = Date.parse(`${day}T00:00:00.000Z`);
    if (!Number.isFinite(settled)) {
      undated[chain] += count;
      continue;
    }
    // A receipt dated after today (another host's clock ahead) is drawn today, not dropped.
    const index = Math.min(RECEIPT_TIMELINE_DAYS - 1, Math.floor((settled - firstDay) / 86_400_000));
    if (index < 0) earlier[chain] += count;
    else counts[chain][index]! += count;
  }
  const title = 'Settled receipts per day, testnet and sandbox apart';
  const rowHeight = 56;
  const height = TOP + chains.length * rowHeight + 40;
  const dayWidth = PLOT_WIDTH / RECEIPT_TIMELINE_DAYS;
  const body: string[] = [text(16, 20, `Receipts settled per UTC day, ${dayOf(firstDay)} to ${dayOf(today)}`, { attributes: 'font-weight="600"' })];
  const sentences: string[] = [];
  chains.forEach((chain, row) => {
    const top = TOP + row * rowHeight;
    const baseline = top + rowHeight - 8;
    const days = counts[chain];
    const total = days.reduce((sum, count) => sum + count, 0);
    const busiest = Math.max(...days);
    body.push(text(16, baseline - 18, chain), text(16, baseline - 4, chain === 'testnet' ? 'proofs' : 'never proofs', { fill: '#57606a', attributes: 'font-size="11"' }));
    body.push(`<line x1="${LABEL_WIDTH}" y1="${baseline}" x2="${LABEL_WIDTH + PLOT_WIDTH}" y2="${baseline}" stroke="#57606a"/>`);
    body.push('<g aria-hidden="true">');
    days.forEach((count, index) => {
      if (count === 0) return;
      const barHeight = 3 + (rowHeight - 16) * (count / busiest);
      body.push(`<rect x="${round(LABEL_WIDTH + index * dayWidth + 1)}" y="${round(baseline - barHeight)}" width="${round(dayWidth - 2)}" height="${round(barHeight)}" fill="${chain === 'testnet' ? '#0969da' : '#57606a'}"/>`);
    });
    body.push('</g>');
    body.push(text(LABEL_WIDTH + PLOT_WIDTH + 10, baseline - 4, `${total} in ${RECEIPT_TIMELINE_DAYS} days`));
    const busiestDay = days.indexOf(busiest);
    const parts = [`${chain}: ${total} ${total === 1 ? 'receipt' : 'receipts'} in the last ${RECEIPT_TIMELINE_DAYS} days`];
    if (total > 0) parts.push(`most on ${dayOf(firstDay + busiestDay * 86_400_000)} (${busiest})`);
    if (earlier[chain]) parts.push(`${earlier[chain]} earlier`);
    if (undated[chain]) parts.push(`${undated[chain]} without a settlement date`);
    sentences.push(parts.join(', ') + '.');
  });
  const axis = TOP + chains.length * rowHeight + 16;
  body.push(text(LABEL_WIDTH, axis, dayOf(firstDay)), text(LABEL_WIDTH + PLOT_WIDTH, axis, dayOf(today), { attributes: 'text-anchor="end"' }));
  const description = [`Receipts settled per UTC day from ${dayOf(firstDay)} to ${dayOf(today)}; sandbox receipts are never proofs.`, ...sentences].join(' ');
  return svgDocument('receipt-timeline', height, title, description, body);
}
