/**
 * The sentences the assistant's corpus holds for what the pages show as data: each is made from
 * the body the route serves, so a tool, a job or a release the data gains is in them.
 */
import { describe, expect, it } from 'vitest';
import { dataSentences, requestBodySentences, sentencesFor, type OpenApiDocument } from '../../src/build/data-sentences.ts';
import { staticBody } from '../../src/build/human-pages.ts';
import { siteDocuments } from '../../src/build/site-documents.ts';

const sentencesOf = (routeId: string) => dataSentences().find((entry) => entry.routeId === routeId)?.sentences ?? [];

describe('data said in sentences', () => {
  it('names every MCP tool and every action a policy profile can allow, from the served bodies', () => {
    const { tools } = staticBody<{ tools: Array<{ name: string }> }>('mcp-tools');
    const [toolsSentence] = sentencesOf('mcp-tools');
    expect(toolsSentence).toMatch(new RegExp(`^The MCP host exposes ${tools.length} tools: `));
    for (const { name } of tools) expect(toolsSentence).toContain(name);
    const { actions, policy_checks: checks } = staticBody<{ actions: Array<{ action: string }>; policy_checks: Array<{ order: number; check: string }> }>('wallet-agent');
    const [actionsSentence, checksSentence] = sentencesOf('wallet-agent');
    for (const { action } of actions) expect(actionsSentence).toContain(action);
    // The checks in their order, as the engine runs them.
    const inOrder = [...checks].sort((a, b) => a.order - b.order).map(({ check }) => check);
    expect(inOrder.map((check) => checksSentence!.indexOf(` ${check}`))).toEqual([...inOrder.map((check) => checksSentence!.indexOf(` ${check}`))].sort((a, b) => a - b));
    expect(checksSentence).toMatch(new RegExp(`^The policy check runs ${checks.length} checks in this order`));
  });

  it("gives each job its reward in ERG and nanoERG, the release its version, the boundary its chain id, the well-known documents their paths and each service its rails and listing", () => {
    const { jobs } = staticBody<{ jobs: Array<{ id: string; reward: { erg: string; nanoerg: string } }> }>('jobs');
    const jobSentences = sentencesOf('jobs');
    expect(jobSentences).toHaveLength(jobs.length);
    jobs.forEach((job, at) => expect(jobSentences[at]).toContain(`(${job.id}) pays a reward of ${job.reward.erg} ERG (${job.reward.nanoerg} nanoERG)`));
    const { release } = staticBody<{ release: { version: string } }>('release-current');
    expect(sentencesOf('release-current')[0]).toContain(`is version ${release.version},`);
    const { endpoints } = staticBody<{ endpoints: Array<{ url: string }> }>('discovery-well-known');
    const wellKnown = new Set(endpoints.map(({ url }) => new URL(url).pathname).filter((path) => path.startsWith('/.well-known/')));
    expect(sentencesOf('discovery-well-known')[0]).toMatch(new RegExp(`^The site publishes ${wellKnown.size} documents at well-known paths: `));
    for (const path of wellKnown) expect(sentencesOf('discovery-well-known')[0]).toContain(path);
    const { caip } = staticBody<{ caip: { chain_id: string } }>('wallet-boundary');
    expect(sentencesOf('wallet-boundary')[0]).toContain(`CAIP-2 chain id ${caip.chain_id}`);
    const { services } = staticBody<{ services: Array<{ id: string; accepted_payment_rails: string[]; listing: { status: string } }> }>('registry');
    services.forEach((service, at) => {
      const sentence = sentencesOf('registry')[at];
      expect(sentence).toContain(`(${service.id}) accepts `);
      for (const rail of service.accepted_payment_rails) expect(sentence).toContain(rail);
      expect(sentence).toContain(`is listed with status ${service.listing.status}`);
      // The hosted assistant's price is the running configuration's (its terms), not a registry figure.
      expect(sentence).not.toMatch(/costs|ERG/);
    });
  });

  it("gives each mainnet gate blocker its state and owner, the opening procedure whole, and the developer tools' actions and limits", () => {
    const gate = staticBody<{ blockers: Array<{ id: string; state: string; owner: string }>; opening_procedure: string[] }>('mainnet-gate');
    const gateSentences = sentencesOf('mainnet-gate');
    for (const blocker of gate.blockers) expect(gateSentences.join('\n')).toMatch(new RegExp(`blocker ${blocker.id} \\(.*\\) is ${blocker.state}; its owner: `));
    for (const blocker of gate.blockers) expect(gateSentences.join('\n')).toContain(`its owner: ${blocker.owner}`);
    const procedure = gateSentences.find((sentence) => sentence.startsWith('The procedure for opening the mainnet gate'))!;
    expect(procedure).toContain(`has ${gate.opening_procedure.length} steps`);
    for (const step of gate.opening_procedure) expect(procedure.toLowerCase()).toContain(step.slice(1).replace(/\.$/, '').toLowerCase());
    const tools = staticBody<{ actions: Array<{ action: string; label: string }>; limits: { max_input_characters: number } }>('dev-tools-catalogue');
    const [toolsSentence] = sentencesOf('dev-tools-catalogue');
    // Each action with what it does, as the page's table labels it.
    for (const { action, label } of tools.actions) expect(toolsSentence).toContain(`${action}: ${label.replace(/^[A-Z](?=[a-z])/, (first) => first.toLowerCase())}`);
    expect(toolsSentence).toContain(`at most ${tools.limits.max_input_characters} input characters`);
  });

  it("gives a manifest's and a job quote's validation checks with their codes, and a manifest's forbidden claims", () => {
    const guide = staticBody<{ checks: Array<{ label: string; codes: Array<{ code: string }> }>; forbidden_claims: { claims: Array<{ phrase: string }> } }>('publish-guide');
    const sentences = sentencesOf('publish-guide');
    for (const check of guide.checks) {
      const sentence = sentences.find((entry) => entry.startsWith(`The ${check.label} check of a service manifest (`));
      for (const { code } of check.codes) expect(sentence).toContain(code);
    }
    const quoteGuide = staticBody<{ checks: Array<{ label: string; codes: Array<{ code: string }> }> }>('jobs-quote-guide');
    for (const check of quoteGuide.checks) {
      const sentence = sentencesOf('jobs-quote-guide').find((entry) => entry.startsWith(`The ${check.label} check of a job quote request (`));
      for (const { code } of check.codes) expect(sentence).toContain(code);
    }
    const claims = sentences.at(-1)!;
    expect(claims).toMatch(new RegExp(`^A service manifest may not claim any of ${guide.forbidden_claims.claims.length} forbidden claims: `));
    for (const { phrase } of guide.forbidden_claims.claims) expect(claims).toContain(phrase);
  });

  it('reads well for one item and says nothing of an empty list, and keeps acronyms', () => {
    expect(sentencesFor('mcp-tools', { tools: [{ name: 'dev_box' }] })).toEqual(['The MCP host exposes 1 tool: dev_box.']);
    expect(sentencesFor('mcp-tools', { tools: [] })).toEqual([]);
    expect(sentencesFor('wallet-agent', { actions: [], policy_checks: [] })).toEqual([]);
    expect(sentencesFor('publish-guide', { checks: [], forbidden_claims: { claims: [] } })).toEqual([]);
    expect(sentencesFor('discovery-well-known', { endpoints: [{ url: 'http://x/api/jobs' }] })).toEqual([]);
    expect(sentencesFor('mainnet-gate', { blockers: [], opening_procedure: ['Publish it.', '', 'MCP host first.', 'Release it.'] })).toEqual([
      'The procedure for opening the mainnet gate has 3 steps: Publish it; then MCP host first; then release it.',
    ]);
  });

  it('says what each POST route takes as its body, from the OpenAPI document, and follows it', () => {
    const openapi = staticBody<OpenApiDocument>('openapi');
    const sentenceOf = (document: OpenApiDocument, routeId: string) => requestBodySentences(document).filter((entry) => entry.routeId === routeId).map(({ sentence }) => sentence);
    const [verifyPayment] = sentenceOf(openapi, 'assistant-verify-payment');
    expect(verifyPayment).toMatch(/^POST \/api\/assistant\/verify-payment takes a JSON body with the fields `quote`: /);
    // Two levels deep, each field with the first sentence of its description.
    expect(verifyPayment).toContain('`quote.quoteId`: Id of the premium quote being paid;');
    expect(verifyPayment).toContain('`noteBoxId`: Box id of the Note on the chain: 64 hexadecimal characters.');
    // Every operation with a request body has its sentence, and no other.
    const withBody = Object.values(openapi.paths).flatMap((item) => Object.values(item)).filter((operation) => operation.requestBody).length;
    expect(new Set(requestBodySentences(openapi).map(({ routeId }) => routeId)).size).toBe(withBody);
    // A body of several forms is said form by form; a field without a description says its type.
    const forms = sentenceOf(openapi, 'a2a');
    expect(forms).toHaveLength(7);
    for (const [index, method] of ['SendMessage', 'message/send', 'GetTask', 'tasks/get', 'ListTasks', 'CancelTask', 'tasks/cancel'].entries()) {
      expect(forms[index], method).toContain(`\`method\`: "${method}"`);
    }
    // The sentence follows the document: a field added (or described anew) is in it, with its first sentence.
    const changed = structuredClone(openapi);
    const request = changed.components.schemas.AssistantVerifyPaymentRequest!;
    request.properties = { ...request.properties, memo: { type: 'string', description: 'A note for the operator, kept with the receipt bundle. Never read by the server.' } };
    expect(sentenceOf(changed, 'assistant-verify-payment')[0]).toMatch(/; `memo` \(optional\): A note for the operator, kept with the receipt bundle\.$/);
    // More fields than one sentence should hold: the top level only, named without descriptions.
    const publish = sentenceOf(openapi, 'publish')[0]!;
    expect(publish).toMatch(/^POST \/api\/agents\/publish takes a JSON body with the fields `id`; `name`; /);
    expect(publish).not.toContain('pricing.amount');
  });

  it('puts them in the corpus, cited by the page that shows the data', () => {
    const document = siteDocuments().find((entry) => entry.id === 'data:/api/agents/mcp-tools');
    expect(document?.url).toMatch(/\/mcp-tools\/$/);
    expect(document?.text).toBe(sentencesOf('mcp-tools').join('\n'));
    // What a POST route takes is cited by its section of the API reference.
    const body = siteDocuments().find((entry) => entry.id === 'api:assistant-verify-payment');
    expect(body?.url).toMatch(/\/api-reference\/#op-assistant-verify-payment$/);
    expect(body?.text).toContain('`noteBoxId`');
  });
});
