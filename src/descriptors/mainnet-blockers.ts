/**
 * The two things that must exist before mainnet, named once (spec section 1, posture fact 3). A module
 * of its own, importing nothing, so the pages' browser scripts can name them too.
 */
export const MAINNET_BLOCKERS = Object.freeze([
  {
    id: 'external-review',
    label: 'External audit or review report of the contracts, the policy engine and the receipt flow',
  },
  {
    id: 'mainnet-script-identity',
    label: 'Audit-bound mainnet script identity manifest (ErgoTree hashes the audit covered)',
  },
] as const);
