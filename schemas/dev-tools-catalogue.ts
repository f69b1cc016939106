/**
 * `GET /api/dev/tools` (spec 4.4): the catalogue of the developer tools, each action with its
 * inputs, limits and a working example, and the content file it is built from.
 */
import { z } from 'zod';
import { MAX_BODY_BYTES } from '../src/config/limits.ts';
import { absoluteUrl, descriptorStatus, isoDate, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';
import { DEV_TOOL_ACTIONS, DEV_TOOL_ENCODINGS, DEV_TOOL_MAX_INPUT_CHARACTERS, devToolActionSchema, devToolRequestSchema } from './dev-tools.ts';

export const devToolCatalogueEntrySchema = z.object({
  action: devToolActionSchema,
  label: z.string().min(1).describe('What the action does, in a few words.'),
  description: z.string().min(1).describe('What the action reads, computes and reports.'),
  input: z
    .array(
      z.object({
        encoding: z.enum(DEV_TOOL_ENCODINGS).describe('Encoding of this input form.'),
        format: z.string().min(1).describe('What the input must be in this encoding.'),
      }),
    )
    .min(1)
    .describe('Accepted input forms.'),
  limits: z.array(z.string().min(1)).min(1).describe('Limits and refusals specific to the action (each refusal is a 400 naming the field).'),
  example_request: devToolRequestSchema.describe('A request body that works as is: POST it to `endpoint`.'),
  example_expected: z
    .record(z.string().regex(/^\//, 'must be a JSON Pointer'), z.union([z.string(), z.number(), z.boolean()]))
    .describe('Values the answer to `example_request` contains, keyed by JSON Pointer into the result body (a test vector).'),
  example_note: z.string().min(1).describe('Where the example input comes from.'),
});

export const devToolsCatalogueSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.dev_tools_catalogue.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    endpoint: absoluteUrl.describe('POST a request here.'),
    method: z.literal('POST').describe('HTTP method of `endpoint`.'),
    request_schema: absoluteUrl.describe('JSON Schema of the request body.'),
    result_schema: absoluteUrl.describe('JSON Schema of a 200 answer.'),
    limits: z
      .object({
        max_input_characters: z.literal(DEV_TOOL_MAX_INPUT_CHARACTERS).describe('Longest `input`.'),
        max_body_bytes: z.literal(MAX_BODY_BYTES).describe('Largest request body; a larger one answers 413.'),
        default_encoding: z.literal('utf8').describe('Encoding when `encoding` is omitted.'),
        default_network: z.literal('testnet').describe('Network when `network` is omitted.'),
      })
      .describe('Limits of every request.'),
    boundary: z
      .object({
        signs_transactions: z.literal(false).describe('No action signs.'),
        broadcasts: z.literal(false).describe('No action broadcasts.'),
        mutates_chain_state: z.literal(false).describe('No action changes chain state.'),
        stores_input: z.literal(false).describe('Inputs are not stored or logged.'),
        reads: z.string().min(1).describe('The only thing any action reads besides its input.'),
      })
      .describe('What the tools never do.'),
    errors: z
      .array(
        z.object({
          status: z.literal(400).describe('HTTP status.'),
          code: z.string().min(1).describe('Problem `code`.'),
          when: z.string().min(1).describe('What causes it.'),
        }),
      )
      .min(1)
      .describe('How a refused request answers (RFC 9457 problem, `errors[]` naming the field).'),
    actions: z.array(devToolCatalogueEntrySchema).length(DEV_TOOL_ACTIONS.length).describe('Every action, with a working example.'),
    posture: postureSchema,
  })
  .describe('Developer tools catalogue: the actions of POST /api/dev/tools with inputs, limits and working example bodies.');
export type DevToolsCatalogue = z.infer<typeof devToolsCatalogueSchema>;

/** `content/dev-tools.json`: the catalogue text and test vectors, checked when the catalogue is built. */
export const devToolsContentSchema = z.strictObject({
  reads: z.string().min(1),
  errors: z.array(z.strictObject({ status: z.literal(400), code: z.string().min(1), when: z.string().min(1) })).min(1),
  actions: z
    .array(
      z.strictObject({
        action: devToolActionSchema,
        label: z.string().min(1),
        description: z.string().min(1),
        input: devToolCatalogueEntrySchema.shape.input,
        limits: z.array(z.string().min(1)).min(1),
        example_request: devToolRequestSchema.optional(),
        example_expected: devToolCatalogueEntrySchema.shape.example_expected.optional(),
        example_note: z.string().min(1).optional(),
        /**
         * receipt only: the example bundle without `receiptId` and without the quote's namespaced
         * `type`; the catalogue adds both at build (the id by `computeReceiptId`) and checks the
         * result against the receipt schema, so the example holds under any configured namespace.
         */
        example_bundle_without_id: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .length(DEV_TOOL_ACTIONS.length),
});
export type DevToolsContent = z.infer<typeof devToolsContentSchema>;
