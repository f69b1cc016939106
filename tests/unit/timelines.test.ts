/**
 * The live proof's pictures: well-formed SVG (a strict XML parser reads every one), drawn from the
 * data they are given (a gate going down, a receipt settling, each moves the picture and its words),
 * bounded in size whatever the history holds, and accessible (role img, a title and a description).
 */
import sax from 'sax';
import { describe, expect, it } from 'vitest';
import { liveStatusSchema } from '../../schemas/live.ts';
import { RECEIPT_TIMELINE_DAYS } from '../../src/config/limits.ts';
import type { GateState, ProbeRun } from '../../src/domain/probe-history.ts';
import { probeTimelineSvg, receiptTimelineSvg } from '../../src/descriptors/timelines.ts';

const GATES = Object.keys(liveStatusSchema.shape.probes.shape);
const NOW = new Date('2026-11-25T12:00:00Z');

interface Parsed {
  root: { name: string; attributes: Record<string, string> };
  elements: Array<{ name: string; attributes: Record<string, string> }>;
  title: string;
  desc: string;
}

/** Parses `svg` strictly (any XML error, a repeated attribute included, throws) and collects its elements and its title and desc text. */
function parse(svg: string): Parsed {
  const parser = sax.parser(true);
  const elements: Parsed['elements'] = [];
  const open: string[] = [];
  const texts: Record<string, string> = { title: '', desc: '' };
  parser.onerror = (error) => {
    throw error;
  };
  // XML forbids an attribute twice on one element, which sax drops silently: checked on the text.
  for (const tag of svg.match(/<[a-z][^>]*>/g) ?? []) {
    const names = [...tag.matchAll(/\s([\w:-]+)="/g)].map((match) => match[1]);
    expect(new Set(names).size, `an attribute written twice in ${tag}`).toBe(names.length);
  }
  parser.onopentag = (node) => {
    elements.push({ name: node.name, attributes: node.attributes as Record<string, string> });
    open.push(node.name);
  };
  parser.onclosetag = () => void open.pop();
  parser.ontext = (text) => {
    const current = open.at(-1);
    if (current === 'title' || current === 'desc') texts[current] += text;
  };
  parser.write(svg).close();
  return { root: elements[0]!, elements, title: texts.title!, desc: texts.desc! };
}

function runs(count: number, stateOf: (run: number, gate: string) => GateState = () => 'up', minutesApart = 1): ProbeRun[] {
  return Array.from({ length: count }, (_, index) => ({
    at: new Date(NOW.getTime() - (count - index) * minutesApart * 60_000),
    results: GATES.map((gate) => ({ gate, state: stateOf(index, gate), latencyMs: gate === 'payment_widget' ? null : 10 + index })),
  }));
}

const bars = (parsed: Parsed, colour: string) => parsed.elements.filter((element) => element.name === 'rect' && element.attributes.fill === colour && element.attributes.width !== '10').length;

describe('probe timeline', () => {
  it('is an accessible image that says in words that nothing is kept yet', () => {
    const parsed = parse(probeTimelineSvg([], GATES, NOW));
    expect(parsed.root.name).toBe('svg');
    expect(parsed.root.attributes.role).toBe('img');
    expect(parsed.root.attributes['aria-labelledby']).toBe('probe-timeline-title probe-timeline-desc');
    expect(parsed.title).toMatch(/Live status over time/);
    expect(parsed.desc).toMatch(/No probe run has been kept yet/);
  });

  it('draws a row per gate in the live status order and says since when each is in its state', () => {
    const history = runs(30, (run, gate) => (gate === 'chain' && run >= 20 ? 'down' : gate === 'signer' && run === 5 ? 'degraded' : 'up'));
    const parsed = parse(probeTimelineSvg(history, GATES, NOW));
    const labels = parsed.elements.filter((element) => element.name === 'text');
    expect(labels.length).toBeGreaterThan(GATES.length);
    expect(bars(parsed, '#cf222e')).toBe(10);
    expect(bars(parsed, '#9a6700')).toBe(1);
    expect(bars(parsed, '#1a7f37')).toBe(30 * GATES.length - 11);
    const downSince = history[20]!.at.toISOString();
    expect(parsed.desc).toContain(`chain: down since ${downSince.slice(0, 10)} ${downSince.slice(11, 16)} UTC, up in 20 of 30 runs, down in 10`);
    expect(parsed.desc).toContain('signer: up since');
    expect(parsed.desc).toContain('degraded in 1');
    expect(parsed.desc).toContain('median latency 25 ms');
    expect(parsed.desc.indexOf('assistant:')).toBeLessThan(parsed.desc.indexOf('mainnet_gate:'));
  });

  it('moves when the data moves: one more run with a gate down changes the picture and its words', () => {
    const before = probeTimelineSvg(runs(5), GATES, NOW);
    const after = probeTimelineSvg(
      [...runs(5), { at: NOW, results: GATES.map((gate) => ({ gate, state: gate === 'receipt_storage' ? 'down' : 'up', latencyMs: 3 })) }],
      GATES,
      NOW,
    );
    expect(bars(parse(before), '#cf222e')).toBe(0);
    expect(bars(parse(after), '#cf222e')).toBe(1);
    expect(parse(before).desc).toContain('receipt_storage: up since');
    expect(parse(after).desc).toContain('receipt_storage: down since 2026-11-25 12:00 UTC');
  });

  it('stays small however long the history: runs fold into at most 120 columns, the worst state winning', () => {
    const history = runs(1_440, (run, gate) => (gate === 'chain' && run === 700 ? 'down' : 'up'));
    const svg = probeTimelineSvg(history, GATES, NOW);
    const parsed = parse(svg);
    expect(bars(parsed, '#1a7f37') + bars(parsed, '#cf222e')).toBeLessThanOrEqual(120 * GATES.length);
    expect(bars(parsed, '#cf222e')).toBe(1);
    expect(svg.length).toBeLessThan(120 * GATES.length * 100);
    expect(parsed.desc).toContain('down in 1');
  });

  it('escapes what it writes and draws a gate it does not know after the known ones', () => {
    const history: ProbeRun[] = [{ at: NOW, results: [{ gate: 'odd <&> "gate"', state: 'up', latencyMs: 1 }, { gate: 'chain', state: 'up', latencyMs: 2 }] }];
    const parsed = parse(probeTimelineSvg(history, GATES, NOW));
    expect(parsed.desc).toContain('odd <&> "gate": up since');
    expect(parsed.desc.indexOf('chain:')).toBeLessThan(parsed.desc.indexOf('odd'));
  });
});

describe('receipt timeline', () => {
  const day = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * 86_400_000).toISOString();
  /** Receipts counted per settlement day and chain, as the store keeps them. */
  const perDay = (receipts: ReadonlyArray<{ chain: 'testnet' | 'sandbox'; settledAt: string }>) => {
    const days = new Map<string, { day: string; chain: 'testnet' | 'sandbox'; count: number }>();
    for (const { chain, settledAt } of receipts) {
      const entry = days.get(`${settledAt.slice(0, 10)} ${chain}`) ?? { day: settledAt.slice(0, 10), chain, count: 0 };
      entry.count += 1;
      days.set(`${entry.day} ${chain}`, entry);
    }
    return [...days.values()];
  };

  it('counts receipts per day, testnet and sandbox apart, and those older than the window as earlier', () => {
    const receipts = [
      { chain: 'testnet' as const, settledAt: day(0) },
      { chain: 'testnet' as const, settledAt: day(0) },
      { chain: 'testnet' as const, settledAt: day(3) },
      { chain: 'sandbox' as const, settledAt: day(1) },
      { chain: 'sandbox' as const, settledAt: day(RECEIPT_TIMELINE_DAYS + 5) },
    ];
    const parsed = parse(receiptTimelineSvg(perDay(receipts), NOW));
    expect(parsed.root.attributes.role).toBe('img');
    expect(bars(parsed, '#0969da')).toBe(2);
    expect(bars(parsed, '#57606a')).toBe(1);
    expect(parsed.desc).toContain(`testnet: 3 receipts in the last ${RECEIPT_TIMELINE_DAYS} days, most on 2026-11-25 (2).`);
    expect(parsed.desc).toContain(`sandbox: 1 receipt in the last ${RECEIPT_TIMELINE_DAYS} days, most on 2026-11-24 (1), 1 earlier.`);
  });

  it('moves when a receipt settles', () => {
    const before = parse(receiptTimelineSvg([], NOW));
    const after = parse(receiptTimelineSvg(perDay([{ chain: 'testnet', settledAt: day(0) }]), NOW));
    expect(bars(before, '#0969da')).toBe(0);
    expect(before.desc).toContain('testnet: 0 receipts');
    expect(bars(after, '#0969da')).toBe(1);
    expect(after.desc).toContain('testnet: 1 receipt in the last');
  });

  it('says how many receipts have no settlement date', () => {
    expect(parse(receiptTimelineSvg([{ day: '', chain: 'sandbox', count: 2 }], NOW)).desc).toContain('2 without a settlement date');
  });
});
