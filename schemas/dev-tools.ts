/**
 * The stateless developer tools (spec 2.11, 4.4): `POST /api/dev/tools` inspects one Ergo object
 * (a hash, an address, a box, a transaction or a receipt bundle); this is its request. What it
 * answers is `dev-tool-results.ts`, the catalogue of `GET /api/dev/tools` is `dev-tools-catalogue.ts`.
 * The tools read what they are given and nothing else: they never sign, broadcast, mutate chain
 * state or store the input.
 */
import { z } from 'zod';

export const DEV_TOOL_ACTIONS = ['hash', 'address', 'box', 'tx', 'receipt'] as const;
export const DEV_TOOL_ENCODINGS = ['utf8', 'hex'] as const;
export const DEV_TOOL_NETWORKS = ['mainnet', 'testnet'] as const;

/**
 * Longest accepted `input`, in characters. Chosen so that a maximal input still fits in the
 * 65536-byte body limit with its JSON envelope; 60000 hex characters are 30000 bytes, far above the
 * 4096-byte Ergo box size limit and above any transaction a wallet builds by hand.
 */
export const DEV_TOOL_MAX_INPUT_CHARACTERS = 60_000;

/** Which encodings each action accepts; the request check rejects any other pair with a 400. */
export const DEV_TOOL_ENCODINGS_BY_ACTION: Readonly<Record<DevToolAction, readonly DevToolEncoding[]>> = Object.freeze({
  hash: ['utf8', 'hex'],
  address: ['utf8', 'hex'],
  box: ['utf8', 'hex'],
  tx: ['utf8', 'hex'],
  receipt: ['utf8'],
});

const HEX_BYTES = /^(?:[0-9a-fA-F]{2})*$/;

export const devToolActionSchema = z
  .enum(DEV_TOOL_ACTIONS)
  .describe(
    '`hash`: blake2b256 of the input bytes; `address`: decode a base58 Ergo address; `box`: parse a box and recompute its id; `tx`: parse a transaction and recompute its id; `receipt`: check offline that a full receipt bundle agrees with itself (id, hashes, parts), not that it was paid: no chain is read.',
  );
export type DevToolAction = z.infer<typeof devToolActionSchema>;
export type DevToolEncoding = (typeof DEV_TOOL_ENCODINGS)[number];

export const devToolInputSchema = z
  .string()
  .max(DEV_TOOL_MAX_INPUT_CHARACTERS)
  .describe(
    `What to inspect, at most ${DEV_TOOL_MAX_INPUT_CHARACTERS} characters; empty only for hash, whose digest of no bytes is defined. hash: the text (utf8) or bytes (hex); address: a base58 address (utf8) or a serialized ErgoTree (hex) to encode as an address; box: box JSON in Ergo node/explorer form (utf8) or serialized box bytes (hex); tx: transaction JSON in node, explorer or EIP-12 form (utf8) or serialized transaction bytes (hex); receipt: a full receipt bundle as JSON text.`,
  );

/** Spec 2.11. */
export const devToolRequestSchema = z
  .strictObject({
    action: devToolActionSchema,
    input: devToolInputSchema,
    encoding: z
      .enum(DEV_TOOL_ENCODINGS)
      .default('utf8')
      .describe('How to read `input`: `utf8` (text, the default) or `hex` (an even number of hexadecimal digits). receipt accepts only `utf8`; address reads `hex` as an ErgoTree.'),
    network: z
      .enum(DEV_TOOL_NETWORKS)
      .default('testnet')
      .describe('Network for address encoding and prefix checks; `testnet` by default. Inspection only: choosing `mainnet` reads mainnet encodings and acts on nothing.'),
  })
  .superRefine((request, ctx) => {
    if (request.input === '' && request.action !== 'hash') {
      ctx.addIssue({ code: 'too_small', origin: 'string', minimum: 1, inclusive: true, path: ['input'], input: request.input, message: `action "${request.action}" needs a non-empty input; only hash takes the empty input` });
    }
    const accepted = DEV_TOOL_ENCODINGS_BY_ACTION[request.action];
    if (!accepted.includes(request.encoding)) {
      ctx.addIssue({
        code: 'custom',
        path: ['encoding'],
        input: request.encoding,
        message: `action "${request.action}" accepts encoding ${accepted.map((encoding) => `"${encoding}"`).join(' or ')}, not "${request.encoding}"`,
      });
    }
    if (request.encoding === 'hex' && !HEX_BYTES.test(request.input)) {
      ctx.addIssue({
        code: 'custom',
        path: ['input'],
        input: request.input,
        message: 'with encoding "hex" the input must be an even number of hexadecimal digits (0-9, a-f), whole bytes, no 0x prefix',
      });
    }
  })
  .describe('Developer tool request: one action on one input. No keys besides action, input, encoding and network.');
export type DevToolRequest = z.input<typeof devToolRequestSchema>;
