/**
 * The A2A agent card served at `/.well-known/agent-card.json`, in A2A 1.0's shape (ProtoJSON of the
 * AgentCard message): its interfaces in `supportedInterfaces`, newest version first, the extended
 * card flag under `capabilities`, and the owner credential of a task as an HTTP bearer security
 * scheme. Agents that follow A2A discovery read it to learn what this service does. Its A2A
 * endpoint speaks JSON-RPC, A2A 1.0 and 0.3 alike (schemas/a2a.ts); everything else is plain
 * HTTP+JSON described by the OpenAPI document, which the card names through an extension.
 *
 * A2A 0.3 clients find the endpoint in the top-level `url`, `preferredTransport` and
 * `protocolVersion` that 1.0 moved into `supportedInterfaces`: the card keeps those three, as 0.3
 * writes them, because 1.0 readers ignore fields they do not know (A2A 1.0, 5.7) while a 0.3 client
 * without them has no endpoint at all (@a2a-js/sdk 1.3.0 reads them only when `supportedInterfaces`
 * is missing). For the same reason the one security scheme also carries its 0.3 form beside its
 * 1.0 one: both versions name the map `securitySchemes`, 1.0 writes a scheme as the field of its
 * kind (`httpAuthSecurityScheme`) and 0.3 as `type` and its members, and a 0.3 reader refuses a
 * scheme without `type` (the SDK's own 0.3 reader: "Unsupported v0.3 security scheme type"), so the
 * whole card. Every other 0.3-only field is gone (`supportsAuthenticatedExtendedCard`,
 * `capabilities.stateTransitionHistory`). Empty lists and maps are written out.
 */
import { z } from 'zod';
import { absoluteUrl } from './common.ts';

/** The version the top-level 0.3 fields speak for: Major.Minor, as A2A 1.0 writes versions in a card (3.6). */
export const A2A_LEGACY_PROTOCOL_VERSION = '0.3';

/** The card's name for the owner credential of an A2A task (src/domain/assistant/a2a-task-owner.ts). */
export const A2A_TASK_OWNER_SCHEME = 'a2aTaskOwner';

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

const securityRequirementSchema = z
  .object({
    schemes: z.record(z.string(), z.object({ list: z.array(z.string()).describe('Scopes: none.') })).describe('Scheme names, each with its scopes; none: no credential.'),
  })
  .describe('A2A 1.0 SecurityRequirement.');

export const agentCardSchema = z
  .object({
    protocolVersion: z.literal(A2A_LEGACY_PROTOCOL_VERSION).describe('A2A 0.3 only (1.0 names the version per interface): the version `url` speaks for 0.3 clients.'),
    name: z.string().min(1).describe('Service name.'),
    description: z.string().min(1).describe('What the service does, its posture, and how to talk to it.'),
    url: absoluteUrl.describe('A2A 0.3 only (1.0 reads `supportedInterfaces`): the JSON-RPC endpoint, `message/send` for 0.3 clients.'),
    preferredTransport: z.literal('JSONRPC').describe('A2A 0.3 only (1.0 reads `supportedInterfaces`): the binding served at `url`.'),
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
      .describe('The interfaces served, the preferred (newest) first.'),
    provider: z.object({ organization: z.string().min(1), url: absoluteUrl }).describe('Who runs the service.'),
    version: z.string().min(1).describe('Version of the API description (OpenAPI `info.version`).'),
    documentationUrl: absoluteUrl.describe('Human API reference generated from the OpenAPI document.'),
    capabilities: z
      .object({
        streaming: z.literal(false).describe('No streaming: SendStreamingMessage and SubscribeToTask answer UnsupportedOperationError.'),
        pushNotifications: z.literal(false).describe('No push notifications or webhooks: their config methods answer PushNotificationNotSupportedError.'),
        extendedAgentCard: z.literal(false).describe('No extended card: this card is the whole card (GetExtendedAgentCard answers UnsupportedOperationError).'),
        extensions: z.array(agentExtensionSchema).min(1).describe('How to use the service: its OpenAPI document, a2a-x402 and the discovery descriptor.'),
      })
      .describe('A2A capabilities.'),
    defaultInputModes: z.array(mediaType).min(1),
    defaultOutputModes: z.array(mediaType).min(1),
    skills: z.array(agentSkillSchema).min(1).describe('One skill per capability of the capability manifest.'),
    securitySchemes: z
      .strictObject({
        [A2A_TASK_OWNER_SCHEME]: z
          .strictObject({
            httpAuthSecurityScheme: z
              .strictObject({
                scheme: z.literal('Bearer').describe('RFC 6750 bearer credential in `Authorization`.'),
                bearerFormat: z.string().min(1).describe('What the credential is: a secret the client picks.'),
                description: z.string().min(1).describe('Which operations read it and what it proves.'),
              })
              .describe('A2A 1.0 HTTPAuthSecurityScheme.'),
            type: z.literal('http').describe('A2A 0.3 only: the same scheme as 0.3 writes it (1.0 readers ignore these four members).'),
            scheme: z.literal('bearer').describe('A2A 0.3 only: the HTTP authentication scheme.'),
            bearerFormat: z.string().min(1).describe('A2A 0.3 only: as in `httpAuthSecurityScheme`.'),
            description: z.string().min(1).describe('A2A 0.3 only: as in `httpAuthSecurityScheme`.'),
          })
          .describe('The owner credential of an a2a-x402 task: optional, never needed for the free tier.'),
      })
      .describe('A2A 1.0 SecurityScheme by name (the oneof as its field), each with its 0.3 form beside it.'),
    securityRequirements: z
      .array(securityRequirementSchema)
      .length(2)
      .describe('Alternatives, as in OpenAPI: none (the free tier, reading and paying a task), or the task owner credential (to own a task).'),
    signatures: z.array(z.never()).max(0).describe('Unsigned.'),
  })
  .describe('A2A agent card of the proof surface (testnet only; never signs, broadcasts or holds a key).');
export type AgentCard = z.infer<typeof agentCardSchema>;
