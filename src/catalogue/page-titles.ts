/**
 * The title and description of a human page of the route catalogue: its first route's summary and
 * description, except where those name an endpoint rather than the page (the assistant page starts
 * with the quote endpoint, the API reference with the OpenAPI document). The site and llms.txt both
 * head their pages through here.
 */
import type { Entry } from './types.ts';

const PAGE_HEADINGS: Record<string, { title: string; description?: string }> = {
  '/agents/': { title: 'Agents and capabilities' },
  '/api-reference/': {
    title: 'API reference',
    description: 'Every operation of the OpenAPI document: method and path, request and response schemas, every status code and a working curl command.',
  },
  '/assistant/': {
    title: 'Assistant',
    description:
      'Ask the hosted assistant: short questions are answered free; any other gets a premium quote paid with a Note box on the Ergo testnet, verified, answered and left as a receipt anyone can re-check.',
  },
  '/developers/faucet/': { title: 'Testnet faucet' },
};

export function pageHeading(page: string, firstRoute: Entry): { title: string; description: string } {
  const heading = PAGE_HEADINGS[page];
  return {
    title: heading?.title ?? firstRoute.summary.replace(/ \(.*\)$/, ''),
    description: heading?.description ?? firstRoute.description,
  };
}
