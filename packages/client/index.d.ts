import type { Client, ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** A client for one deployment of the proof surface: every path, body and answer typed from its OpenAPI document. */
export type AgentEconomyClient = Client<paths>;

export function createAgentEconomyClient(options: { baseUrl: string } & Omit<ClientOptions, 'baseUrl'>): AgentEconomyClient;
