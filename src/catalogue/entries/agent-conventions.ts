/**
 * Discovery through conventions outside the contract: `llms.txt`, `llms-full.txt` and the A2A agent
 * card. Static like every descriptor, built from the same route table and manifests.
 */
import { agentCardSchema } from '../../../schemas/agent-card.ts';
import { publish } from '../published.ts';
import type { Entry } from '../types.ts';

const agentCardPublished = publish('a2a-agent-card.schema.v0.json', 'A2aAgentCard', 'A2A agent card', agentCardSchema);

/** llms.txt is Markdown; served as text/plain so every client shows it as written. */
const MARKDOWN_TEXT = 'text/plain; charset=utf-8';

export const AGENT_CONVENTION_ENTRIES: readonly Entry[] = [
    {
      id: 'llms',
      kind: 'static',
      method: 'GET',
      path: '/llms.txt',
      tag: 'Discovery',
      summary: 'llms.txt index',
      description: 'Markdown index for language models (llmstxt.org): the posture, where to start, every surface with its JSON, and the five-minute path.',
      contentType: MARKDOWN_TEXT,
    },
    {
      id: 'llms-full',
      kind: 'static',
      method: 'GET',
      path: '/llms-full.txt',
      tag: 'Discovery',
      summary: 'llms-full.txt',
      description: 'The llms.txt index followed by the capabilities, guardrails, policy reason codes and every endpoint with its statuses and a working command.',
      contentType: MARKDOWN_TEXT,
    },
    {
      id: 'agent-card',
      kind: 'static',
      method: 'GET',
      path: '/.well-known/agent-card.json',
      tag: 'Discovery',
      summary: 'A2A agent card',
      description:
        'Agent2Agent agent card in A2A 1.0\'s shape, read by 0.3 clients too: one skill per capability, the JSON-RPC endpoint `/a2a` where A2A clients ask the assistant\'s free tier (SendMessage, message/send), the optional bearer credential that owns an a2a-x402 task, and an extension pointing at the OpenAPI document for every other skill.',
      schema: agentCardPublished,
      describedBy: true,
      page: '/agents/',
    },
];

