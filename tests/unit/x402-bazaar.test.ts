/**
 * The Bazaar discovery extension the chat's PAYMENT-REQUIRED carries is the object x402's own
 * `declareDiscoveryExtension` (@x402/extensions) builds for the same call, and its validator accepts it.
 */
import { declareDiscoveryExtension, validateDiscoveryExtension } from '@x402/extensions/bazaar';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { chatRequestSchema } from '../../schemas/assistant.ts';
import { bazaarDiscovery } from '../../src/domain/assistant/x402.ts';

describe('bazaar discovery', () => {
  it('is what @x402/extensions declares for a JSON POST, and valid by its validator', () => {
    const body = { messages: [{ role: 'user', content: 'Which registers must a Note carry?' }] };
    const bodySchema = z.toJSONSchema(chatRequestSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
    const outputExample = { tier: 'premium', answer: 'R4, R5 and R6.' };
    const outputSchema = { type: 'object', properties: { tier: { const: 'premium' } } };
    const ours = bazaarDiscovery({ body, bodySchema, outputExample, outputSchema });
    // `method` is what x402's server middleware fills in from the route ("POST /api/assistant/chat"); we serve it filled.
    const declared = { method: 'POST', bodyType: 'json', input: body, inputSchema: bodySchema, output: { example: outputExample, schema: outputSchema } } as Parameters<typeof declareDiscoveryExtension>[0];
    expect(ours).toEqual(declareDiscoveryExtension(declared));
    expect(validateDiscoveryExtension((ours as { bazaar: Parameters<typeof validateDiscoveryExtension>[0] }).bazaar)).toEqual({ valid: true });
  });
});
