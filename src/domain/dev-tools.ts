/**
 * `POST /api/dev/tools`: one action on one input, answered with the tool result of spec 2.11. Each
 * action lives in its own module under `ergo/`; this one only picks it and wraps its answer with the
 * fields every result carries. Nothing here signs, broadcasts, stores or reads anything but the
 * input: the tools are pure functions of the request.
 */
import type { z } from 'zod';
import type { devToolRequestSchema } from '../../schemas/dev-tools.ts';
import type { DevToolResult } from '../../schemas/dev-tool-results.ts';
import { typeName } from '../config/site.ts';
import { addressOfErgoTree, decodeAddress, encodeErgoTreeAddress, type AddressCheck, type ErgoNetwork } from './ergo/address.ts';
import { inspectBox, type ToolWarning } from './ergo/box.ts';
import { hashInput } from './ergo/hash.ts';
import { checkReceiptBundle } from './ergo/receipt-check.ts';
import { inspectTransaction } from './ergo/transaction.ts';

/** A request as the dispatcher hands it over: validated, with encoding and network defaulted. */
export type ParsedDevToolRequest = z.output<typeof devToolRequestSchema>;

function addressResult(check: AddressCheck, inputForm: 'address' | 'ergo_tree', requested: ErgoNetwork, warnings: ToolWarning[]) {
  if (!check.valid) return { valid: false as const, input_form: inputForm, invalid_reason: check.reason, message: check.message, network: check.network };
  const matches = check.network === requested;
  if (!matches) {
    warnings.push({
      code: 'network_mismatch',
      message: `This is a ${check.network} address (its prefix byte says so), not a ${requested} one; on ${requested} the same ErgoTree is the address ${encodeErgoTreeAddress(check.ergoTree, requested)}.`,
    });
  }
  if (check.note) warnings.push({ code: 'ergo_tree_version_unparsed', message: check.note });
  return {
    valid: true as const,
    input_form: inputForm,
    address: check.address,
    network: check.network,
    network_matches: matches,
    address_type: check.type,
    ergo_tree: check.ergoTree,
    ergo_tree_header: check.ergoTreeHeader,
    public_key: check.publicKey,
    script_hash: check.scriptHash,
  };
}

/** Runs one tool. Throws InspectionInputError when the input cannot be read as the action's object. */
export function runDevTool(request: ParsedDevToolRequest): DevToolResult {
  const { action, input, encoding, network } = request;
  const common = {
    ok: true as const,
    type: typeName('agent_economy.dev_tool_result.v0'),
    version: 'v0' as const,
    network,
    signs_transactions: false as const,
    broadcasts: false as const,
  };
  switch (action) {
    case 'hash':
      return { ...common, action, result: hashInput(input, encoding), warnings: [] };
    case 'address': {
      const warnings: ToolWarning[] = [];
      const check = encoding === 'hex' ? addressOfErgoTree(input, network) : decodeAddress(input);
      return { ...common, action, result: addressResult(check, encoding === 'hex' ? 'ergo_tree' : 'address', network, warnings), warnings };
    }
    case 'box': {
      const { result, warnings } = inspectBox(input, encoding, network);
      return { ...common, action, result, warnings };
    }
    case 'tx': {
      const { result, warnings } = inspectTransaction(input, encoding, network);
      return { ...common, action, result, warnings };
    }
    case 'receipt': {
      const { result, warnings } = checkReceiptBundle(input);
      return { ...common, action, result, warnings };
    }
  }
}
