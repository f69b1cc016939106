/**
 * The JSON forms of boxes and transactions that the developer tools read (spec 2.11): what the Ergo
 * node API, the Explorer API v1 and EIP-12 wallets return. These are input shapes, never published
 * as our own payloads: they are lenient where those APIs differ (amounts as numbers or decimal
 * strings, registers as hex or as explorer objects, proofs as objects or bare hex) and strict where
 * a wrong value would change an id (hex, integer ranges, register names).
 *
 * Integers beyond 2^53 arrive as BigInts: the tools parse JSON with the source text of every
 * number, so `value` and token amounts stay exact.
 */
import { z } from 'zod';

/** Largest value of a signed 64-bit integer: the range of box values and token amounts on Ergo. */
export const I64_MAX = 9_223_372_036_854_775_807n;

/** Largest transaction output index (a u16 on the wire). */
export const MAX_OUTPUT_INDEX = 65_535;

/** Largest block height an `Int` register or a creation height can hold (signed 32-bit). */
export const MAX_HEIGHT = 2_147_483_647;

export const REGISTER_NAMES = ['R4', 'R5', 'R6', 'R7', 'R8', 'R9'] as const;
export type RegisterName = (typeof REGISTER_NAMES)[number];

const hexBytes = z.string().regex(/^(?:[0-9a-fA-F]{2})*$/, 'must be hex of whole bytes');
const nonEmptyHex = z.string().regex(/^(?:[0-9a-fA-F]{2})+$/, 'must be non-empty hex of whole bytes');
const digest = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters');

/**
 * A positive i64 given as a JSON integer (a BigInt when beyond 2^53, as the exact parser reads it)
 * or a decimal string; normalized to the decimal string.
 */
const positiveI64 = z
  .union([z.string(), z.number(), z.bigint()])
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : String(value);
    if (!/^[0-9]{1,19}$/.test(text) || BigInt(text) < 1n || BigInt(text) > I64_MAX) {
      ctx.addIssue({ code: 'custom', input: value, message: `must be a whole number from 1 to ${I64_MAX}` });
      return z.NEVER;
    }
    return BigInt(text).toString();
  });

const registerValue = z
  .union([nonEmptyHex, z.looseObject({ serializedValue: nonEmptyHex })])
  .transform((value) => (typeof value === 'string' ? value : value.serializedValue).toLowerCase());

/**
 * Registers R4 to R9, densely packed (R5 needs R4, and so on), as the box serialization requires;
 * each value is the serialized constant in hex (node form) or an object with `serializedValue`
 * (explorer form).
 */
const registersSchema = z
  .record(z.string(), registerValue)
  .default({})
  .superRefine((registers, ctx) => {
    const names = Object.keys(registers);
    for (const name of names) {
      if (!(REGISTER_NAMES as readonly string[]).includes(name)) {
        ctx.addIssue({ code: 'custom', path: [name], input: name, message: 'only the non-mandatory registers R4 to R9 can be given' });
      }
    }
    const present = REGISTER_NAMES.filter((name) => name in registers);
    present.forEach((name, index) => {
      if (name !== REGISTER_NAMES[index]) {
        ctx.addIssue({ code: 'custom', path: [name], input: name, message: `registers must be densely packed from R4: ${name} is set but ${REGISTER_NAMES[index]} is not` });
      }
    });
  })
  .transform((registers) => Object.fromEntries(REGISTER_NAMES.filter((name) => name in registers).map((name) => [name, registers[name]!])) as Partial<Record<RegisterName, string>>);

const assetSchema = z.looseObject({ tokenId: digest, amount: positiveI64 });

/** What every box form carries: the candidate part that its id depends on. */
const candidateShape = {
  value: positiveI64,
  ergoTree: nonEmptyHex,
  creationHeight: z.int().min(0).max(MAX_HEIGHT),
  assets: z.array(assetSchema).default([]),
  additionalRegisters: registersSchema,
};

/**
 * A box as the node or explorer returns it; `boxId` is optional and compared, never trusted. The
 * older explorer names (`id`, `txId`) are read as `boxId` and `transactionId`.
 */
export const ergoBoxJsonSchema = z.preprocess(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const box = value as Record<string, unknown>;
    return { ...box, boxId: box.boxId ?? box.id, transactionId: box.transactionId ?? box.txId };
  },
  z.looseObject({
    boxId: digest.optional(),
    ...candidateShape,
    transactionId: digest,
    index: z.int().min(0).max(MAX_OUTPUT_INDEX),
  }),
);
export type ErgoBoxJson = z.output<typeof ergoBoxJsonSchema>;

const extensionSchema = z.record(z.string().regex(/^[0-9]{1,3}$/, 'must be a context variable id from 0 to 255'), nonEmptyHex);

/**
 * A transaction input: node form (`spendingProof: {proofBytes, extension}`), explorer form
 * (`spendingProof` as bare proof hex, with the box's `value`) or unsigned EIP-12 form (`extension`
 * and no proof).
 */
const inputSchema = z.looseObject({
  boxId: digest,
  spendingProof: z
    .union([z.looseObject({ proofBytes: hexBytes.nullable().optional(), extension: extensionSchema.optional() }), hexBytes, z.null()])
    .optional(),
  extension: extensionSchema.optional(),
  value: positiveI64.optional(),
});

/** A transaction as the node, the explorer or an EIP-12 wallet gives it; `id` is optional and compared. */
export const ergoTransactionJsonSchema = z.looseObject({
  id: digest.optional(),
  inputs: z.array(inputSchema).min(1, 'a transaction spends at least one input'),
  dataInputs: z.array(z.looseObject({ boxId: digest })).default([]),
  outputs: z
    .array(
      z.looseObject({
        boxId: digest.optional(),
        ...candidateShape,
        transactionId: digest.optional(),
        index: z.int().min(0).max(MAX_OUTPUT_INDEX).optional(),
      }),
    )
    .min(1, 'a transaction creates at least one output'),
});
export type ErgoTransactionJson = z.output<typeof ergoTransactionJsonSchema>;
