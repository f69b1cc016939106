/**
 * `agent-economy reconcile`: re-verifies every proof the proof explorer lists, from the outside. A
 * receipt proof is re-checked from its bundle and the reader's own chain source (as `verify-receipt`
 * does: never an explorer the site or the bundle names, since the site wrote the bundle); the policy
 * proof by asking the site's policy check about the published example and each unsafe variant; the
 * schema proof by validating every served descriptor against its served JSON Schema with ajv. A
 * progress bar on a terminal, one JSON line per proof with `--json`; non-zero exit when any fails.
 */
import { z } from 'zod';
import { judgePolicyCase, policyConformanceCases } from '../domain/policy-conformance.ts';
import type { ProofCheck } from '../domain/receipt-proof.ts';
import { routePath } from '../catalogue/lookup.ts';
import { checkLine, CliError, EXIT_FAILED, fetchJson, progressBar, type Output } from './output.ts';
import { receiptChecks, type VerifierChain } from './verify-receipt.ts';
import { receiptLogChecks, type WitnessPolicy } from './receipt-log-proof.ts';

/** Only what reconciling reads of the proof explorer, so a deployment with another namespace still reads. */
const listedProofSchema = z.looseObject({
  id: z.string(),
  kind: z.string(),
  checks: z.array(z.looseObject({ id: z.string(), ok: z.boolean() })),
});
const proofBoardSchema = z.looseObject({ proofs: z.array(listedProofSchema), sandbox_receipts: z.array(listedProofSchema) });
type ListedProof = z.infer<typeof listedProofSchema>;

export interface ReconcileOptions {
  base: string;
  json: boolean;
  /** Also re-verify the sandbox receipts listed apart (never proofs, but useful in a demo). */
  sandbox: boolean;
  /**
   * Also check each receipt's log proof (as `verify-receipt` does): against this verifier key, and
   * with `witnesses`, their quorum of cosignatures on its checkpoint. Absent, the log is not read.
   */
  log?: { logKey?: string; witnesses?: WitnessPolicy };
}

export interface ReconcileDeps {
  /** The chain source the reader chose, for every receipt proof. */
  chain: VerifierChain;
  /** Validates `data` against a JSON Schema document; resolves to the error text, or null when valid. */
  validateJsonSchema: (schema: object, data: unknown) => Promise<string | null>;
}

/** ajv (JSON Schema 2020-12), loaded only when the schema proof is reconciled. */
export async function ajvValidator(): Promise<ReconcileDeps['validateJsonSchema']> {
  const [{ Ajv2020 }, formats] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  const addFormats = formats.default as unknown as (ajv: InstanceType<typeof Ajv2020>) => void;
  return async (schema, data) => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    return validate(data) ? null : (validate.errors ?? []).slice(0, 3).map((error) => `${error.instancePath || '(root)'} ${error.message}`).join('; ');
  };
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

async function reconcileReceipt(proof: ListedProof, options: ReconcileOptions, deps: ReconcileDeps): Promise<ProofCheck[]> {
  const url = `${options.base}/api/assistant/receipt/${encodeURIComponent(proof.id)}`;
  const answer = await fetchJson(url, { allowNotFound: true });
  if (!answer || answer.status !== 200) return [{ id: 'receipt_fetched', ok: false, detail: `${url} answered ${answer ? `HTTP ${answer.status}` : '404'}.` }];
  const checks = await receiptChecks(answer.text, answer.body, deps.chain);
  if (options.log) {
    const { logKey, witnesses } = options.log;
    const logged = await receiptLogChecks(answer.body, proof.id, { base: options.base, ...(logKey ? { logKey } : {}), ...(witnesses ? { witnesses } : {}) });
    checks.push(...logged.checks);
  }
  const declared = (answer.body as { receiptId?: unknown }).receiptId;
  if (declared !== proof.id) checks.unshift({ id: 'receipt_fetched', ok: false, detail: `The proof names receipt ${proof.id} but the site returned ${String(declared)}.` });
  return checks;
}

/** Asks the site's own policy check about the example request it publishes and each unsafe variant. */
async function reconcilePolicy(options: ReconcileOptions): Promise<ProofCheck[]> {
  const endpoint = `${options.base}${routePath('policy-check')}`;
  const contract = await fetchJson(`${options.base}${routePath('policy-check-contract')}`);
  const example = (contract?.body as { example_request?: unknown } | undefined)?.example_request;
  if (!example) return [{ id: 'example_published', ok: false, detail: 'The policy-check contract publishes no example_request.' }];
  const checks: ProofCheck[] = [];
  for (const testCase of policyConformanceCases(example as never)) {
    const answer = await fetchJson(endpoint, { method: 'POST', body: testCase.request });
    const verdict = answer?.body as { allowed?: boolean; summary?: string; reasons?: Array<{ code: string }> } | undefined;
    checks.push(
      answer?.status === 200 && verdict && typeof verdict.allowed === 'boolean'
        ? judgePolicyCase(testCase, { allowed: verdict.allowed, summary: verdict.summary ?? '', reasons: verdict.reasons ?? [] })
        : { id: testCase.id, ok: false, detail: `${endpoint} answered HTTP ${answer?.status} for ${testCase.label}.` },
    );
  }
  return checks;
}

/**
 * Every static descriptor the developer services index lists with a schema, fetched from the site
 * and validated against that schema as the site serves it.
 */
async function reconcileSchemas(proof: ListedProof, options: ReconcileOptions, deps: ReconcileDeps): Promise<ProofCheck[]> {
  const index = await fetchJson(`${options.base}${routePath('dev-services')}`);
  const services = ((index?.body as { services?: unknown[] } | undefined)?.services ?? []) as Array<{
    id: string;
    method: string;
    host: string;
    delivery: string;
    url: string;
    machine_readable?: { schema?: string | null };
  }>;
  const claimed = new Set(proof.checks.map((check) => check.id));
  const targets = services.filter((service) => service.method === 'GET' && service.host === 'site' && service.delivery === 'static' && service.machine_readable?.schema && claimed.has(service.id));
  const checks: ProofCheck[] = [];
  for (const id of claimed) {
    const service = targets.find((candidate) => candidate.id === id);
    if (!service) {
      checks.push({ id, ok: false, detail: `The developer services index lists no static descriptor "${id}" with a schema.` });
      continue;
    }
    const documentPath = pathOf(service.url);
    const schemaPath = pathOf(service.machine_readable!.schema!);
    const [document, schema] = await Promise.all([fetchJson(`${options.base}${documentPath}`), fetchJson(`${options.base}${schemaPath}`)]);
    if (document?.status !== 200 || schema?.status !== 200) {
      checks.push({ id, ok: false, detail: `${documentPath} answered ${document?.status}, ${schemaPath} answered ${schema?.status}.` });
      continue;
    }
    const errors = await deps.validateJsonSchema(schema.body as object, document.body);
    checks.push(errors === null ? { id, ok: true, detail: `${documentPath} validates against ${schemaPath}.` } : { id, ok: false, detail: `${documentPath} against ${schemaPath}: ${errors}.` });
  }
  return checks;
}

async function reconcileProof(proof: ListedProof, options: ReconcileOptions, deps: ReconcileDeps): Promise<ProofCheck[]> {
  if (proof.kind === 'testnet_receipt' || proof.kind === 'sandbox_receipt') return reconcileReceipt(proof, options, deps);
  if (proof.id === 'policy-engine-verdicts') return reconcilePolicy(options);
  if (proof.id === 'published-schemas-validate-descriptors') return reconcileSchemas(proof, options, deps);
  return [{ id: 'known_proof', ok: false, detail: `This command does not know how to re-verify a ${proof.kind} proof named "${proof.id}"; update agent-economy.` }];
}

export async function reconcile(options: ReconcileOptions, deps: ReconcileDeps, output: Output): Promise<number> {
  const url = `${options.base}${routePath('proofs')}`;
  const answer = await fetchJson(url);
  if (answer?.status !== 200) throw new CliError(`${url} answered HTTP ${answer?.status}; the proof explorer is not available there`, EXIT_FAILED);
  const board = proofBoardSchema.safeParse(answer.body);
  if (!board.success) throw new CliError(`${url} did not answer a proof explorer body (${board.error.issues[0]!.path.join('.')}: ${board.error.issues[0]!.message})`, EXIT_FAILED);
  const proofs = [...board.data.proofs, ...(options.sandbox ? board.data.sandbox_receipts : [])];

  const bar = progressBar(output, proofs.length, 'proofs');
  let failed = 0;
  for (const [index, proof] of proofs.entries()) {
    const checks = await reconcileProof(proof, options, deps);
    const ok = checks.length > 0 && checks.every((check) => check.ok);
    if (!ok) failed++;
    // The site said every check passed but reconciling found otherwise (or the reverse): worth saying.
    const siteSaid = proof.checks.every((check) => check.ok);
    if (options.json) {
      output.out(JSON.stringify({ id: proof.id, kind: proof.kind, ok, site_reported_ok: siteSaid, checks }));
    } else {
      if (output.isTty) process.stderr.write('\r\x1b[2K');
      output.out(`${ok ? 'PASS' : 'FAIL'} ${proof.kind} ${proof.id}${ok === siteSaid ? '' : ` (the site reported ${siteSaid ? 'pass' : 'fail'})`}`);
      if (!ok) for (const check of checks.filter((item) => !item.ok)) output.out(`  ${checkLine(check)}`);
    }
    bar.tick(index + 1, proof.id);
  }
  bar.end();
  if (!options.json) output.out(failed ? `${failed} of ${proofs.length} proofs FAIL` : `all ${proofs.length} proofs reconcile`);
  return failed ? EXIT_FAILED : 0;
}
