/**
 * The MCP host's prompts: the two flows an agent most often gets wrong, written out step by step
 * over this host's own tools. A prompt's arguments are strings (MCP); a JSON argument that does not
 * parse or does not fit its schema is refused with InvalidParams naming the argument.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { proposedActionSchema, walletAgentPolicyProfileSchema } from '../../schemas/policy-check.ts';
import { pageUrl, routeUrl } from '../catalogue/lookup.ts';

export interface McpPrompt {
  name: string;
  title: string;
  description: string;
  args: z.ZodRawShape;
  messages: (args: Record<string, string | undefined>) => GetPromptResult['messages'];
}

const user = (text: string): GetPromptResult['messages'][number] => ({ role: 'user', content: { type: 'text', text } });

/** A JSON argument parsed and checked against its schema, or InvalidParams naming it. */
function jsonArgument<T>(name: string, text: string, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `${name}: not JSON; give the object as JSON text`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new McpError(ErrorCode.InvalidParams, `${[name, ...issue.path].join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export const MCP_PROMPTS: readonly McpPrompt[] = [
  {
    name: 'pay_for_premium_answer',
    title: 'Pay for a premium answer, step by step',
    description: 'Ask the hosted assistant a question, pay its premium quote with a testnet Note from your own wallet, and keep the receipt. Nothing here signs or holds a key.',
    args: { question: z.string().min(1).max(2_000).describe('The question for the hosted assistant.') },
    messages: ({ question }) => [
      user(
        [
          `Get a premium answer from the hosted assistant to this question, paying on the Ergo testnet only:\n\n${question}\n`,
          '1. Call the `ask_assistant` tool with the question. A free-tier question is answered at once: stop there.',
          "2. Otherwise the result is an error whose structured content is x402's PaymentRequired: a stored premium quote (amount in nanoERG, the receiver, the quote id, its expiry). Show the amount and expiry to the user and ask before paying.",
          '3. Have the host wallet (never this server, which holds no key and signs nothing) build, sign and submit one testnet Note paying exactly that quote, as the PaymentRequired describes; never send a seed phrase or a private key to any tool.',
          `4. Then either call \`ask_assistant\` again with the x402 payment payload in \`_meta["x402/payment"]\`, or POST the quote, the question and the Note's box id to ${routeUrl('assistant-verify-payment')} for a payment token and call \`ask_assistant\` with \`paymentToken\`. A payment is settled once: a retry with the same Idempotency-Key gets the same receipt.`,
          '5. Keep the receipt id from the answer: `get_receipt` reads the receipt bundle, and `check_receipt_inclusion` checks it against the signed receipt log.',
          `The paid turn is described at ${pageUrl('assistant-quote')}.`,
        ].join('\n'),
      ),
    ],
  },
  {
    name: 'check_wallet_action',
    title: 'Check a wallet action before signing',
    description: 'Check a proposed testnet wallet action against a spending policy with `policy_check` before the host wallet signs anything, and act on the verdict.',
    args: {
      proposed_action: z.string().min(2).max(8_192).describe('The proposed action, as the JSON object policy_check takes in `proposed_action`.'),
      profile: z.string().min(2).max(16_384).optional().describe('The policy profile as JSON; without it, start from the policy profile template.'),
    },
    messages: ({ proposed_action: action, profile }) => {
      const checkedAction = jsonArgument('proposed_action', action!, proposedActionSchema);
      const checkedProfile = profile === undefined ? undefined : jsonArgument('profile', profile, walletAgentPolicyProfileSchema);
      return [
        user(
          [
            'Before the host wallet signs anything, check this proposed testnet wallet action against a spending policy:',
            '',
            JSON.stringify(checkedAction, null, 2),
            '',
            checkedProfile === undefined
              ? `1. There is no policy profile yet: read the template at ${routeUrl('policy-profile-template')}, fill in the owner's limits, and show it to the owner.`
              : `1. The policy profile to use:\n\n${JSON.stringify(checkedProfile, null, 2)}\n`,
            '2. Call the `policy_check` tool with `{ "profile": ..., "proposed_action": ... }`.',
            '3. On `deny`: do not sign. Report every reason: its code, the field it points at and its message.',
            '4. On `allow`: it is advice to the wallet, never authority; the wallet still shows the owner what it signs. Mainnet stays closed: an action on mainnet is denied.',
            '5. Warnings name weak limits in the profile: pass them on to the owner.',
          ].join('\n'),
        ),
      ];
    },
  },
];

export function registerPrompts(server: McpServer): void {
  for (const prompt of MCP_PROMPTS) {
    server.registerPrompt(prompt.name, { title: prompt.title, description: prompt.description, argsSchema: prompt.args }, (args) => ({
      description: prompt.description,
      messages: prompt.messages(args as Record<string, string | undefined>),
    }));
  }
}
