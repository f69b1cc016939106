/**
 * What `POST /api/dev/tools` answers (spec 2.11): the per-action results (hash, address, box,
 * transaction, receipt) and their warnings.
 */
import { z } from 'zod';
import { hex64, nanoErgString, typeLiteral, versionV0 } from './common.ts';
import { DEV_TOOL_ENCODINGS, DEV_TOOL_NETWORKS } from './dev-tools.ts';

const hexBytes = z.string().regex(/^(?:[0-9a-f]{2})*$/, 'must be lower-case hex of whole bytes');
const ergoTreeHex = hexBytes.describe('ErgoTree, serialized, lower-case hex.');
const addressText = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]+$/).describe('Base58 Ergo address.');
const erg = z.string().regex(/^(0|[1-9][0-9]*)\.[0-9]{9}$/).describe('The same value in ERG, nine fraction digits.');

export const devToolWarningSchema = z.object({
  code: z.string().regex(/^[a-z][a-z0-9_]*$/).describe('Stable warning code, e.g. `network_mismatch`, `declared_id_mismatch`.'),
  message: z.string().min(1).describe('What is unusual, with the values involved.'),
});

export const devToolWarningsSchema = z
  .array(devToolWarningSchema)
  .describe('Findings that are not errors: a declared id that does not match, a network mismatch, an unsigned transaction.');

/**
 * The fields every action's result has. Exported so the OpenAPI document writes each field once as
 * a component (`DevToolResultCommonBroadcasts`, ...) rather than once per action.
 */
export const devToolResultCommonSchema = z.object({
  ok: z.literal(true).describe('Constant true: the input was inspected.'),
  type: typeLiteral('agent_economy.dev_tool_result.v0'),
  version: versionV0,
  network: z.enum(DEV_TOOL_NETWORKS).describe('The network of the request.'),
  warnings: devToolWarningsSchema,
  signs_transactions: z.literal(false).describe('Constant false: the tools never sign.'),
  broadcasts: z.literal(false).describe('Constant false: the tools never broadcast or mutate chain state.'),
});
const resultCommon = devToolResultCommonSchema.shape;

const tokenAmount = z.object({
  token_id: hex64.describe('Token id.'),
  amount: nanoErgString.describe('Token amount in its smallest unit, as an integer string.'),
});

const registerSchema = z.object({
  serialized: hexBytes.describe('The register constant as serialized on chain.'),
  sigma_type: z
    .string()
    .min(1)
    .nullable()
    .describe('ErgoScript type of the constant, e.g. `Coll[Byte]`, `Int`, `SigmaProp`, decoded with the Fleet SDK serializer; null when it cannot decode the constant (a `register_not_decoded` warning says so).'),
  rendered: z
    .string()
    .nullable()
    .describe('The decoded value as text: hex for byte collections and points, decimal for numbers, `ProveDlog(<public key>)` for a P2PK SigmaProp; null when not decoded.'),
});

export const ergoTreeHeaderSchema = z
  .object({
    header: z.string().regex(/^[0-9a-f]{2}$/).describe('The header byte, hex.'),
    version: z.int().min(0).max(7).describe('ErgoTree version (header bits 0-2).'),
    size_flag: z.boolean().describe('Header bit 3: the body size follows the header (required from version 1).'),
    constant_segregation: z.boolean().describe('Header bit 4: constants are stored apart from the expression.'),
    body_parsed: z
      .boolean()
      .describe('Whether the body was parsed and so checked; false for a version newer than the parser here knows (0 and 1), whose header and declared size are still checked.'),
  })
  .describe('The ErgoTree header and what was checked of the tree.');

export const boxRegistersSchema = z
  .partialRecord(z.enum(['R4', 'R5', 'R6', 'R7', 'R8', 'R9']), registerSchema)
  .describe('Non-mandatory registers R4 to R9 that are present.');

/** The tokens of a box, as the box tool and each output of the transaction tool report them. */
export const boxAssetsSchema = z.array(tokenAmount).describe('Tokens in the box, in order.');

const boxSummarySchema = z.object({
  box_id: hex64.describe('Box id recomputed as blake2b256 of the serialized box.'),
  value_nanoerg: nanoErgString.describe('Box value in nanoERG.'),
  value_erg: erg,
  ergo_tree: ergoTreeHex,
  ergo_tree_header: ergoTreeHeaderSchema,
  address: addressText.describe('Address of the ErgoTree, encoded for the request network.'),
  creation_height: z.int().min(0).describe('Creation height written in the box.'),
  assets: boxAssetsSchema,
  registers: boxRegistersSchema,
});

export const hashResultSchema = z.object({
  algorithm: z.literal('blake2b256').describe('The hash Ergo uses for box ids, transaction ids and task hashes.'),
  input_encoding: z.enum(DEV_TOOL_ENCODINGS).describe('How the input was read.'),
  input_bytes: z.int().min(0).describe('Number of bytes hashed.'),
  digest: hex64.describe('The 32-byte digest, lower-case hex.'),
});

export const ADDRESS_INVALID_REASONS = ['encoding', 'length', 'checksum', 'prefix', 'public_key', 'ergo_tree'] as const;

const addressInputForm = z
  .enum(['address', 'ergo_tree'])
  .describe('`address`: a base58 address was decoded (encoding utf8); `ergo_tree`: an ErgoTree was encoded as an address (encoding hex).');

export const addressResultSchema = z
  .discriminatedUnion('valid', [
    z
      .object({
        valid: z.literal(true).describe('The address (or ErgoTree) is valid.'),
        input_form: addressInputForm,
        address: addressText.describe('The address: as given, or the ErgoTree encoded for the request network.'),
        network: z.enum(DEV_TOOL_NETWORKS).describe('Network encoded in the address prefix byte (0x00 mainnet, 0x10 testnet); for an ErgoTree, the request network.'),
        network_matches: z.boolean().describe('Whether that network is the request network; false comes with a `network_mismatch` warning.'),
        address_type: z.enum(['P2PK', 'P2SH', 'P2S']).describe('Address type from the prefix byte (or the form of the ErgoTree).'),
        ergo_tree: ergoTreeHex.describe('ErgoTree the address stands for.'),
        ergo_tree_header: ergoTreeHeaderSchema,
        public_key: z
          .string()
          .regex(/^[0-9a-f]{66}$/)
          .nullable()
          .describe('P2PK only: the compressed secp256k1 public key (33 bytes); null otherwise.'),
        script_hash: z
          .string()
          .regex(/^[0-9a-f]{48}$/)
          .nullable()
          .describe('P2SH only: the 24-byte prefix of blake2b256 of the script; null otherwise.'),
      })
      .describe('A valid address.'),
    z
      .object({
        valid: z.literal(false).describe('The address (or ErgoTree) is not valid.'),
        input_form: addressInputForm,
        invalid_reason: z
          .enum(ADDRESS_INVALID_REASONS)
          .describe(
            'The first rule it breaks: `encoding` (a character outside base58), `length` (too short, or content of the wrong size for its type), `checksum` (the 4-byte blake2b256 checksum does not match: a typo), `prefix` (the prefix byte names no network or address type), `public_key` (a P2PK key that is not a secp256k1 point), `ergo_tree` (the script is not an ErgoTree: reserved header bits, a version above 0 without the size flag, a declared size that does not match, or a body of version 0 or 1 that does not parse). A tree of a newer version is valid, its body reported unparsed.',
          ),
        message: z.string().min(1).describe('The rule broken, with the values involved.'),
        network: z.enum(DEV_TOOL_NETWORKS).nullable().describe('Network of the prefix byte when it was readable, else null.'),
      })
      .describe('An invalid address, with the reason.'),
  ])
  .describe('Address decoding and validation: valid with its parts, or invalid with the exact reason.');

export const boxResultSchema = boxSummarySchema.extend({
  declared_box_id: hex64.nullable().describe('`boxId` found in box JSON, or null for hex input.'),
  box_id_matches: z.boolean().nullable().describe('Whether the declared box id equals the recomputed one; null when none was declared.'),
  transaction_id: hex64.describe('Id of the transaction that created the box.'),
  index: z.int().min(0).describe('Output index in that transaction.'),
  size_bytes: z.int().min(1).describe('Size of the serialized box (at most 4096 on Ergo).'),
});

export const txResultSchema = z.object({
  tx_id: hex64.describe(
    'The id the Ergo node computes: blake2b256 of the bytes to sign (the transaction without spending proofs, context extensions included), each extension of more than four entries written in the order the node writes it.',
  ),
  tx_id_given_order: hex64
    .nullable()
    .describe('blake2b256 of the same bytes with every extension in the order given, when that differs from `tx_id` (an `extension_order_differs` warning says why); null when they agree.'),
  declared_tx_id: hex64.nullable().describe('`id` found in transaction JSON, or null for hex input.'),
  tx_id_matches: z.boolean().nullable().describe('Whether the declared id equals the recomputed one; null when none was declared.'),
  signed: z.boolean().describe('Whether every input carries a non-empty spending proof.'),
  inputs: z
    .array(
      z.object({
        box_id: hex64.describe('Spent box id.'),
        has_proof: z.boolean().describe('Whether the input carries a non-empty spending proof.'),
        value_nanoerg: nanoErgString.nullable().describe('Value of the spent box when the input JSON carries it (explorer and EIP-12 forms); null otherwise.'),
      }),
    )
    .describe('Inputs, in order.'),
  data_inputs: z.array(z.object({ box_id: hex64.describe('Read-only box id.') })).describe('Data inputs, in order.'),
  outputs: z
    .array(
      boxSummarySchema.extend({
        index: z.int().min(0).describe('Output index.'),
        box_id_given_order: hex64.nullable().describe('The box id under `tx_id_given_order` when that differs; null otherwise. `box_id` is always the one under `tx_id`.'),
      }),
    )
    .describe('Outputs, in order, with their recomputed box ids.'),
  total_input_nanoerg: nanoErgString
    .nullable()
    .describe('Sum of input values in nanoERG when every input carries its value; null otherwise (a transaction names its inputs by box id only).'),
  total_output_nanoerg: nanoErgString.describe('Sum of output values in nanoERG.'),
  fee_nanoerg: nanoErgString.nullable().describe('Sum of outputs locked by the standard miner-fee contract, or null when there is none.'),
  size_bytes: z.int().min(1).describe('Size of the serialized transaction.'),
});

/** The receipt checks, in the order they run and are reported. */
export const RECEIPT_CHECK_IDS = [
  'schema',
  'receipt_id',
  'task_hash_agrees',
  'quote_agrees',
  'note_box_id_agrees',
  'settlement_tx_id_agrees',
  'chain_agrees',
  'registers_decode',
  'note_binding',
  'value_covers_price',
  'confirmations',
  'verification_checks_passed',
] as const;
export type ReceiptCheckId = (typeof RECEIPT_CHECK_IDS)[number];

/** A check of the receipt tool, named in its list of checks and among the failed ones. */
export const receiptCheckIdSchema = z
  .enum(RECEIPT_CHECK_IDS)
  .describe('Which check: the shape, the receipt id, then each agreement between the parts of the bundle.');

export const receiptCheckSchema = z.object({
  id: receiptCheckIdSchema,
  ok: z.boolean().describe('Whether the check passed.'),
  detail: z.string().min(1).describe('The values compared.'),
});

export const receiptResultSchema = z.object({
  verified: z.boolean().describe('True only when every check passed: the bundle agrees with itself (id, hashes, parts). Not a sign that its Note exists on chain; no chain is read.'),
  failed_checks: z.array(receiptCheckIdSchema).describe('Ids of the checks that failed, in order; empty when verified.'),
  receipt_id: hex64.nullable().describe('`receiptId` declared in the bundle (null when missing or not 64 lower-case hex).'),
  computed_receipt_id: hex64.describe('blake2b256 of the RFC 8785 canonical JSON of the bundle without `receiptId`.'),
  receipt_id_matches: z.boolean().nullable().describe('Whether the two ids are equal; null when the bundle declares none.'),
  receipt_type: z.string().nullable().describe('`receipt_type` of the bundle (a full bundle says `full_receipt_bundle`).'),
  status: z.string().nullable().describe('`status` of the bundle (`settled_on_chain` for a settled one).'),
  chain: z.enum(['testnet', 'sandbox']).nullable().describe('Chain the bundle was settled on; `sandbox` bundles are never testnet proofs.'),
  settlement_tx_id: hex64.nullable().describe('Settlement transaction id of the bundle.'),
  note_box_id: hex64.nullable().describe('Note box id of the bundle.'),
  task_hash: hex64.nullable().describe('Task hash of the bundle.'),
  quote_id: z.string().nullable().describe('Quote id of the agreement.'),
  checks: z
    .array(receiptCheckSchema)
    .describe(
      `Every check run, in order: schema, receipt_id, then (when the shape holds) ${RECEIPT_CHECK_IDS.slice(2).join(', ')}. All offline: no chain and no store is read.`,
    ),
});

export const devToolResultSchema = z
  .discriminatedUnion('action', [
    z.object({ ...resultCommon, action: z.literal('hash').describe('The action run.'), result: hashResultSchema.describe('What `hash` found.') }).describe('Result of `hash`.'),
    z.object({ ...resultCommon, action: z.literal('address').describe('The action run.'), result: addressResultSchema.describe('What `address` found.') }).describe('Result of `address`.'),
    z.object({ ...resultCommon, action: z.literal('box').describe('The action run.'), result: boxResultSchema.describe('What `box` found.') }).describe('Result of `box`.'),
    z.object({ ...resultCommon, action: z.literal('tx').describe('The action run.'), result: txResultSchema.describe('What `tx` found.') }).describe('Result of `tx`.'),
    z.object({ ...resultCommon, action: z.literal('receipt').describe('The action run.'), result: receiptResultSchema.describe('What `receipt` found.') }).describe('Result of `receipt`.'),
  ])
  .describe('Developer tool result: the action, its per-action result and warnings. Nothing was signed, broadcast or stored.');
export type DevToolResult = z.infer<typeof devToolResultSchema>;
