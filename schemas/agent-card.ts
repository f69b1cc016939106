/**
 * The A2A agent card served at `/.well-known/agent-card.json` (Agent2Agent protocol 0.3, the
 * version that moved the card to that path). Agents that follow A2A discovery read it to learn
 * what this service does. Its A2A endpoint speaks JSON-RPC, A2A 1.0 and 0.3 alike, answered by the
 * assistant's free tier (schemas/a2a.ts); the card names it both ways (0.3: `url` and
 * `preferredTransport`; 1.0: `supportedInterfaces`). Everything else is plain HTTP+JSON described
 * by the OpenAPI document, which the card names through an extension. The card carries what the A2A
 * 1.0 AgentCard requires (`securitySchemes`, `securityRequirements`, `signatures`, extension `params`,
 * skill `securityRequirements`, interface `tenant`), so @a2a-js/sdk's `AgentCard` type takes it as it is.
 */
import { z } from 'zod';
import { absoluteUrl } from './common.ts';

export const A2A_PROTOCOL_VERSION = '0.3.0';

const mediaType = z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'must be a media type such as application/json');

export const agentSkillSchema = z
  .object({
    id: z.string().min(1).describe('Stable skill id (the capability id of the capability manifest).'),
    name: z.string().min(1).describe('Human-readable skill name.'),
    description: z.string().min(1).describe('What the skill does and what it never does.'),
    tags: z.array(z.string().min(1)).min(1).describe('Keywords: the OpenAPI tags of the endpoints that deliver the skill.'),
    examples: z.array(z.string().min(1)).describe('Example requests: the endpoints to call, method and URL.'),
    inputModes: z.array(mediaType).min(1).describe('Media types the skill accepts.'),
    outputModes: z.array(mediaType).min(1).describe('Media types the skill answers with.'),
    securityRequirements: z.array(z.never()).max(0).describe('None.'),
  })
  .describe('One skill of the agent card (A2A AgentSkill).');

export const agentExtensionSchema = z
  .object({
    uri: absoluteUrl.describe('Where the extension is described.'),
    description: z.string().min(1).describe('What a client must know.'),
    required: z.boolean().describe('Whether a client must understand the extension to use the service.'),
    params: z.record(z.string(), z.unknown()).describe('None.'),
  })
  .describe('A2A AgentExtension.');

export const agentCardSchema = z
  .object({
    protocolVersion: z.literal(A2A_PROTOCOL_VERSION).describe('A2A protocol version this card follows.'),
    name: z.string().min(1).describe('Service name.'),
    description: z.string().min(1).describe('What the service does, its posture, and how to talk to it.'),
    url: absoluteUrl.describe('The A2A endpoint: JSON-RPC `message/send`, answered by the assistant\'s free tier.'),
    preferredTransport: z.literal('JSONRPC').describe('The A2A JSON-RPC binding, the one served at `url`.'),
    supportedInterfaces: z
      .array(
        z.object({
          url: absoluteUrl.describe('The A2A endpoint.'),
          protocolBinding: z.literal('JSONRPC').describe('JSON-RPC 2.0 over HTTP.'),
          protocolVersion: z.enum(['1.0', '0.3']).describe('The A2A version spoken there: `SendMessage` for 1.0, `message/send` for 0.3.'),
          tenant: z.literal('').describe('None.'),
        }),
      )
      .min(1)
      .describe('A2A 1.0: the interfaces served, newest first (A2A 0.3 clients read `url` and `preferredTransport`).'),
    provider: z.object({ organization: z.string().min(1), url: absoluteUrl }).describe('Who runs the service.'),
    version: z.string().min(1).describe('Version of the API description (OpenAPI `info.version`).'),
    documentationUrl: absoluteUrl.describe('Human API reference generated from the OpenAPI document.'),
    capabilities: z
      .object({
        streaming: z.literal(false).describe('No streaming responses.'),
        pushNotifications: z.literal(false).describe('No push notifications or webhooks (the contract defines no events).'),
        stateTransitionHistory: z.literal(false).describe('No A2A task history.'),
        extensions: z.array(agentExtensionSchema).min(1).describe('How to use the service: its OpenAPI document and discovery descriptor.'),
      })
      .describe('A2A capabilities.'),
    defaultInputModes: z.array(mediaType).min(1),
    defaultOutputModes: z.array(mediaType).min(1),
    skills: z.array(agentSkillSchema).min(1).describe('One skill per capability of the capability manifest.'),
    securitySchemes: z.object({}).strict().describe('None: public.'),
    securityRequirements: z.array(z.never()).max(0).describe('None.'),
    signatures: z.array(z.never()).max(0).describe('Unsigned.'),
    supportsAuthenticatedExtendedCard: z.literal(false).describe('No extended card: every endpoint is public.'),
  })
  .describe('A2A agent card of the proof surface (testnet only; never signs, broadcasts or holds a key).');
export type AgentCard = z.infer<typeof agentCardSchema>;
