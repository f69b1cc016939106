/**
 * Live status over time: each probe run is kept as one state per gate (up, degraded, down) with the
 * probe's latency, so the live page can say since when the service has been healthy.
 */

/** `up`: the probe passed; `degraded`: an optional probe failed; `down`: a required probe failed. */
export type GateState = 'up' | 'degraded' | 'down';

export interface GateResult {
  gate: string;
  state: GateState;
  /** Time the probe took, when it made a call. */
  latencyMs: number | null;
}

export interface ProbeRun {
  at: Date;
  results: GateResult[];
}

/** A probe's state as the timeline draws it. */
export function gateState(probe: { ok: boolean; required: boolean }): GateState {
  if (probe.ok) return 'up';
  return probe.required ? 'down' : 'degraded';
}

/** One run of the live status's probes, as history keeps it. */
export function probeRunOf(checkedAt: string, probes: Readonly<Record<string, { ok: boolean; required: boolean; latency_ms?: number }>>): ProbeRun {
  return {
    at: new Date(checkedAt),
    results: Object.entries(probes).map(([gate, probe]) => ({ gate, state: gateState(probe), latencyMs: probe.latency_ms ?? null })),
  };
}
