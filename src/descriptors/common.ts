/**
 * What every descriptor shares: the one posture constant (spec 2.1) and the fixed header of typed
 * payloads. Descriptors spread these instead of restating them, so no body can drift from the posture.
 */
import type { Posture } from '../../schemas/common.ts';
import { typeName } from '../config/site.ts';
import { descriptorLastUpdated } from './sources.ts';

/** Spec 2.1. The only place the posture values are written. */
export const POSTURE: Posture = Object.freeze({
  status: 'testnet_live_proof_not_mainnet_ready',
  network: 'ergo_testnet',
  mainnet_ready: false,
  production_custody: false,
  audit_gate: 'external_review_and_audit_bound_mainnet_script_identity_required',
});

export { MAINNET_BLOCKERS } from './mainnet-blockers.ts';

/**
 * `type`, `version`, `status`, `last_updated` of a typed v0 descriptor. A static descriptor is dated
 * by its sources (sources.ts); one made at request time passes the day it was made.
 */
export function descriptorHeader(name: string, lastUpdated: string = descriptorLastUpdated(name)) {
  return {
    type: typeName(name),
    version: 'v0' as const,
    status: 'testnet_live_proof' as const,
    last_updated: lastUpdated,
  };
}
