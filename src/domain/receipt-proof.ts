/**
 * Re-verifying a receipt bundle from nothing but the bundle and the chain: the proof explorer and
 * the `agent-economy verify-receipt` and `reconcile` commands run these same checks, so a proof
 * listed on the site is exactly what anyone can recompute. The offline checks are the developer
 * tools' receipt check (`checkReceiptBundle`: shape, receipt id, every agreement between the parts,
 * the registers as serialized, Note binding, amount, confirmations); the settlement check adds the
 * Note box as a chain source reports it now.
 */
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import type { ChainBox } from './ports.ts';
import { InspectionInputError } from './ergo/inspection-error.ts';
import { checkReceiptBundle } from './ergo/receipt-check.ts';

export interface ProofCheck {
  id: string;
  ok: boolean;
  detail: string;
}

export const SETTLEMENT_CHECK = 'settlement_tx';

const pass = (id: string, detail: string): ProofCheck => ({ id, ok: true, detail });
const fail = (id: string, detail: string): ProofCheck => ({ id, ok: false, detail });

/** Runs one check; a bundle missing the parts it reads fails that check instead of throwing. */
function guarded(id: string, run: () => ProofCheck): ProofCheck {
  try {
    return run();
  } catch (error) {
    return fail(id, `cannot be checked: ${(error as Error).message}`);
  }
}

/**
 * The offline checks of a bundle given as JSON text (as stored or served: the receipt id is over
 * exactly these values). Text that is not a JSON object fails the `schema` check.
 */
export function receiptOfflineChecks(json: string): ProofCheck[] {
  try {
    return checkReceiptBundle(json).result.checks;
  } catch (error) {
    if (error instanceof InspectionInputError) return [fail('schema', error.message)];
    throw error;
  }
}

/**
 * The settlement re-checked on the chain: the Note box exists, was created by the settlement
 * transaction, pays the agreed address, holds the recorded value and registers, and sits in the
 * recorded block. `box` is what the chain source answered (undefined: it does not know the box).
 * That source must be the verifier's own, serving the chain the bundle claims: a source named by the
 * bundle would let its author pick who confirms it.
 */
export function settlementCheck(bundle: ReceiptBundle, box: ChainBox | undefined, source: { name: string; explorerUrl: string }): ProofCheck {
  return guarded(SETTLEMENT_CHECK, () => {
    const where = `${source.name} chain source ${source.explorerUrl}`;
    if (!box) return fail(SETTLEMENT_CHECK, `The ${where} does not know Note ${bundle.noteBoxId}.`);
    const recorded = bundle.settlement_receipt;
    const problems: string[] = [];
    if (box.boxId !== bundle.noteBoxId) problems.push(`the box id is ${box.boxId}`);
    if (box.transactionId !== bundle.settlementTxId) problems.push(`it was created by transaction ${box.transactionId}, not ${bundle.settlementTxId}`);
    if (box.address !== undefined && box.address !== bundle.agreement.receiverAddress) problems.push(`it pays ${box.address}, not ${bundle.agreement.receiverAddress}`);
    if (box.value !== BigInt(recorded.valueNanoErg)) problems.push(`it holds ${box.value} nanoERG, not the recorded ${recorded.valueNanoErg}`);
    for (const register of ['R4', 'R5', 'R6'] as const) {
      const onChain = box.registers[register]?.toLowerCase();
      if (onChain !== recorded.registers[register].serializedValue) problems.push(`${register} is ${onChain ?? 'absent'} on chain, not ${recorded.registers[register].serializedValue}`);
    }
    if (box.inclusionHeight === undefined) problems.push('it is not in a block (unconfirmed)');
    else if (box.inclusionHeight !== recorded.inclusionHeight) problems.push(`it is in block ${box.inclusionHeight}, not ${recorded.inclusionHeight}`);
    return problems.length
      ? fail(SETTLEMENT_CHECK, `On the ${where}, Note ${bundle.noteBoxId}: ${problems.join('; ')}.`)
      : pass(
          SETTLEMENT_CHECK,
          `On the ${where}, Note ${bundle.noteBoxId} was created by transaction ${bundle.settlementTxId} in block ${recorded.inclusionHeight}, paying ${recorded.valueNanoErg} nanoERG with the recorded registers.`,
        );
  });
}
