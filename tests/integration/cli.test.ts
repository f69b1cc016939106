/**
 * The built `agent-economy` command run as a process against the built server and the sandbox
 * chain: receipts verified by id, transaction id and file (a tampered file fails), the proof
 * explorer reconciled, the policy check gating with its exit status, a sandbox quote paid, `--help`
 * everywhere, and every failure one line on stderr with a non-zero exit.
 */
import { ErgoAddress, Network } from '@fleet-sdk/core';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplePolicyCheckRequest } from '../../src/domain/policy-examples.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';
import { ERGO_EXPLORER_URL_DEFAULT } from '../../src/config/chain.ts';
import { DIST_DIR, ROOT } from '../helpers/built-server.ts';
import { runCli, type CliRun as Run } from '../helpers/cli.ts';
import { startFakeServer } from '../helpers/fake-http.ts';
import { startTestnetStandIn } from '../helpers/testnet-stand-in.ts';
import { verifyChallengeToken } from '../../src/domain/faucet/proof-of-work.ts';
import { type PaidTurn, payForTurn, postJson, RECEIVER, type Stack, startStack, uniquePremiumQuestion } from '../helpers/paid-turn.ts';
import { closedPort } from '../helpers/services.ts';
import { paidOverX402 } from '../helpers/offer-receipt.ts';
import { formatVerifierKey, generateNoteKey } from '../../src/domain/tlog/note.ts';



/**
 * Runs the built command. ERGO_EXPLORER_URL is the verifier's own chain setting: taken from `env`
 * only, never from the shell running the tests, so no run reaches the public explorer by accident.
 */

/** A failure is one line on stderr, prefixed with the command name, without a stack trace. */
function expectOneLineError(run: Run, code: number, containing: string): void {
  expect(run.code, run.stderr).toBe(code);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^agent-economy: /);
  expect(lines[0]).toContain(containing);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe('agent-economy against the built server and the sandbox chain', () => {
  let stack: Stack;
  let turn: PaidTurn;
  let dir: string;
  beforeAll(async () => {
    stack = await startStack({ env: { LOG_CHECKPOINT_INTERVAL_SECONDS: '1' } });
    turn = await payForTurn(stack);
    dir = mkdtempSync(join(tmpdir(), 'issue7-cli-'));
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('verifies a receipt fetched by receipt id and by settlement transaction id, Note re-read on the chain', async () => {
    for (const id of [turn.receiptId, turn.settlementTxId]) {
      const run = await runCli(['verify-receipt', id, '--base', stack.server.url, '--explorer', stack.sandbox.url]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain(`receipt ${turn.receiptId}`);
      expect(run.stdout).toMatch(/PASS\s+receipt_id/);
      expect(run.stdout).toMatch(/PASS\s+settlement_tx .*created by transaction/);
      expect(run.stdout).not.toContain('FAIL');
      expect(run.stdout).toContain('verified: all');
    }
  });

  it('verifies a receipt file, and fails a tampered one on the hash and the chain with exit 1', async () => {
    const bundle = (await (await fetch(`${stack.server.url}/api/assistant/receipt/${turn.receiptId}`)).json()) as Record<string, any>;
    const good = join(dir, 'receipt.json');
    writeFileSync(good, JSON.stringify(bundle));
    const ok = await runCli(['verify-receipt', good, '--json', '--base', stack.server.url, '--explorer', stack.sandbox.url]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ receiptId: turn.receiptId, ok: true });

    const tampered = join(dir, 'tampered.json');
    writeFileSync(tampered, JSON.stringify({ ...bundle, settlement_receipt: { ...bundle.settlement_receipt, valueNanoErg: '999999999' } }));
    const bad = await runCli(['verify-receipt', tampered], { env: { ERGO_EXPLORER_URL: stack.sandbox.url } });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/FAIL\s+receipt_id/);
    expect(bad.stdout).toMatch(/FAIL\s+settlement_tx .*holds 10000000 nanoERG, not the recorded 999999999/);
    expect(bad.stdout).toContain('NOT verified');
  });

  /** The receipt's tlog-proof once a checkpoint includes it (checkpoints come every second here). */
  async function proofOf(receiptId: string): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const response = await fetch(`${stack.server.url}/api/assistant/receipt/${receiptId}/proof`);
      if (response.status === 200) return response.text();
      await response.body?.cancel();
      if (Date.now() > deadline) throw new Error(`no proof of ${receiptId} within 15 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  type LogAnswer = { ok: boolean; explorer: string | null; log: { status: string; index?: number; keySource?: string }; checks: Array<{ id: string; ok: boolean; detail: string }> };
  const logChecks = (answer: LogAnswer) => answer.checks.filter((check) => check.id.startsWith('log_'));

  it("checks the receipt's log proof online: the site's key trusted on first use, or the key given", async () => {
    await proofOf(turn.receiptId);
    const key = (await (await fetch(`${stack.server.url}/api/transparency/receipts/key`)).text()).trim();
    const firstUse = await runCli(['verify-receipt', turn.receiptId, '--base', stack.server.url, '--explorer', stack.sandbox.url, '--json']);
    expect(firstUse.code, firstUse.stdout + firstUse.stderr).toBe(0);
    const answer = JSON.parse(firstUse.stdout) as LogAnswer;
    expect(answer.log).toMatchObject({ status: 'included', keySource: 'site (trusted on first use)' });
    expect(logChecks(answer).map((check) => [check.id, check.ok])).toEqual([['log_key', true], ['log_checkpoint', true], ['log_inclusion', true]]);
    expect(logChecks(answer)[0]!.detail).toContain('trusted on first use');

    const pinned = await runCli(['verify-receipt', turn.receiptId, '--base', stack.server.url, '--explorer', stack.sandbox.url, '--log-key', key]);
    expect(pinned.code, pinned.stdout + pinned.stderr).toBe(0);
    expect(pinned.stdout).toMatch(/PASS\s+log_inclusion .*entry \d+ of the \d+-entry tree/);
    expect(pinned.stdout).not.toContain('trusted on first use');
  });

  it('verifies the log proof offline from the bundle, the proof and the key alone, and names why a tampered proof, another key or another receipt fails', async () => {
    // A second receipt, so the first one's inclusion path has a hash to tamper with.
    const second = await payForTurn(stack, uniquePremiumQuestion());
    await proofOf(second.receiptId);
    const proof = await proofOf(turn.receiptId);
    const key = (await (await fetch(`${stack.server.url}/api/transparency/receipts/key`)).text()).trim();
    const bundleFile = join(dir, 'logged.json');
    writeFileSync(bundleFile, await (await fetch(`${stack.server.url}/api/assistant/receipt/${turn.receiptId}`)).text());
    const proofFile = join(dir, 'logged.tlog-proof');
    writeFileSync(proofFile, proof);
    // Nothing is reachable: offline must need nothing but its three inputs.
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const offline = (bundle: string, proofPath: string, logKey = key) =>
      runCli(['verify-receipt', bundle, '--offline', '--proof', proofPath, '--log-key', logKey, '--base', nowhere, '--explorer', nowhere, '--json']);

    const good = await offline(bundleFile, proofFile);
    expect(good.code, good.stdout + good.stderr).toBe(0);
    const answer = JSON.parse(good.stdout) as LogAnswer;
    expect(answer).toMatchObject({ ok: true, explorer: null, log: { status: 'included', keySource: 'given' } });
    expect(answer.checks.some((check) => check.id === 'settlement_tx')).toBe(false);

    const failure = async (run: Promise<Run>) => {
      const result = await run;
      expect(result.code, result.stdout + result.stderr).toBe(1);
      const failed = (JSON.parse(result.stdout) as LogAnswer).checks.filter((check) => !check.ok);
      return failed;
    };
    // A hash of the inclusion path flipped.
    const lines = proof.split('\n');
    const hashLine = lines.findIndex((line, i) => i > 1 && line.length === 44);
    expect(hashLine).toBe(2);
    const flipped = [...lines];
    flipped[hashLine] = `${flipped[hashLine]![0] === 'A' ? 'B' : 'A'}${flipped[hashLine]!.slice(1)}`;
    writeFileSync(join(dir, 'flipped.tlog-proof'), flipped.join('\n'));
    const failed = await failure(offline(bundleFile, join(dir, 'flipped.tlog-proof')));
    expect(failed.map((check) => check.id)).toEqual(['log_inclusion']);
    expect(failed[0]!.detail).toContain('is not entry');
    // The checkpoint's root changed: its signature no longer verifies.
    const rootLine = proof.slice(proof.indexOf('\n\n') + 2).split('\n')[2]!;
    writeFileSync(join(dir, 'reroot.tlog-proof'), proof.replace(`\n${rootLine}\n`, `\n${rootLine[0] === 'A' ? 'B' : 'A'}${rootLine.slice(1)}\n`));
    const rerooted = await failure(offline(bundleFile, join(dir, 'reroot.tlog-proof')));
    expect(rerooted.map((check) => check.id)).toEqual(['log_checkpoint']);
    expect(rerooted[0]!.detail).toMatch(/checkpoint is refused: .*signature/);
    // Another key, named for the same log: no signature of it.
    const other = formatVerifierKey(key.slice(0, key.indexOf('+')), generateNoteKey().publicKey);
    const otherKey = await failure(offline(bundleFile, proofFile, other));
    expect(otherKey.map((check) => check.id)).toEqual(['log_checkpoint']);
    expect(otherKey[0]!.detail).toContain(`no signature by`);
    // Another receipt's bytes against this proof.
    const secondFile = join(dir, 'second.json');
    writeFileSync(secondFile, await (await fetch(`${stack.server.url}/api/assistant/receipt/${second.receiptId}`)).text());
    const wrongEntry = await failure(offline(secondFile, proofFile));
    expect(wrongEntry.map((check) => check.id)).toEqual(['log_inclusion']);
    expect(wrongEntry[0]!.detail).toMatch(/canonical JSON is not entry \d+ of that tree/);

    // The review's attack: the same bundle with `"chain":"testnet"` placed first, which JSON.parse drops and another parser keeps.
    const duplicated = join(dir, 'duplicated.json');
    writeFileSync(duplicated, `{"chain":"testnet",${readFileSync(bundleFile, 'utf8').trimStart().slice(1)}`);
    const refused = await runCli(['verify-receipt', duplicated, '--offline', '--proof', proofFile, '--log-key', key, '--base', nowhere, '--explorer', nowhere]);
    expectOneLineError(refused, 1, 'names the member at /chain twice');

    const usage = await runCli(['verify-receipt', bundleFile, '--offline', '--log-key', key]);
    expectOneLineError(usage, 2, '--offline needs --proof FILE and --log-key KEY');
  });

  it("checks a paid answer's signed x402 receipt: the site's did:web key trusted on first use or the key given, and fails a bad signature, another key and another receipt's", async () => {
    const x402Turn = await paidOverX402(stack, uniquePremiumQuestion());
    const verify = (signed: string, ...more: string[]) =>
      runCli(['verify-receipt', x402Turn.receiptId, '--base', stack.server.url, '--explorer', stack.sandbox.url, '--signed-receipt', signed, ...more]);
    const signedLine = (run: Run) => run.stdout.split('\n').find((line) => line.includes('signed_receipt')) ?? run.stdout;

    // The PAYMENT-RESPONSE header value as the client got it.
    const firstUse = await verify(x402Turn.paymentResponse);
    expect(firstUse.code, firstUse.stdout + firstUse.stderr).toBe(0);
    expect(signedLine(firstUse)).toMatch(/PASS\s+signed_receipt .*trusted on first use.*names this receipt, its settlement transaction and quote/);
    const did = (await (await fetch(`${stack.server.url}/.well-known/did.json`)).json()) as { verificationMethod: Array<{ publicKeyJwk: { x: string } }> };
    const key = did.verificationMethod[0]!.publicKeyJwk.x;
    const pinned = await verify(x402Turn.paymentResponse, '--x402-key', key);
    expect(pinned.code, pinned.stdout + pinned.stderr).toBe(0);
    expect(signedLine(pinned)).not.toContain('trusted on first use');

    // The receipt's JWS with another payload under its signature: a bad signature, exit 1.
    const settled = JSON.parse(Buffer.from(x402Turn.paymentResponse, 'base64').toString('utf8')) as { extensions: Record<string, { info: { receipt: { signature: string } } }> };
    const [header, payload, signature] = settled.extensions['offer-receipt']!.info.receipt.signature.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = [header, Buffer.from(JSON.stringify({ ...claims, payer: 'someone else' })).toString('base64url'), signature].join('.');
    const bad = await verify(forged);
    expect(bad.code, bad.stdout + bad.stderr).toBe(1);
    expect(signedLine(bad)).toMatch(/FAIL\s+signed_receipt .*signature does not verify/);
    expect(bad.stdout).toContain('NOT verified');
    const otherKey = await verify(x402Turn.paymentResponse, '--x402-key', 'A'.repeat(43));
    expect(otherKey.code).toBe(1);
    expect(signedLine(otherKey)).toMatch(/FAIL\s+signed_receipt .*does not verify with the key you gave/);
    // A good signature of another receipt is not this one's.
    const elsewhere = await runCli(['verify-receipt', turn.receiptId, '--base', stack.server.url, '--explorer', stack.sandbox.url, '--signed-receipt', x402Turn.paymentResponse]);
    expect(elsewhere.code).toBe(1);
    expect(signedLine(elsewhere)).toMatch(/FAIL\s+signed_receipt .*verifies, but is not this bundle's: it names receipt/);
  });

  it('reports a receipt no checkpoint includes yet as pending, and fails it with --require-log', async () => {
    const site = await startFakeServer();
    try {
      const bundle = await (await fetch(`${stack.server.url}/api/assistant/receipt/${turn.receiptId}`)).text();
      const key = await (await fetch(`${stack.server.url}/api/transparency/receipts/key`)).text();
      site.set(`/api/assistant/receipt/${turn.receiptId}`, { status: 200, body: bundle });
      site.set('/api/transparency/receipts/key', { status: 200, body: key, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      site.set(`/api/assistant/receipt/${turn.receiptId}/proof`, {
        status: 409,
        body: JSON.stringify({ code: 'receipt_log_pending', detail: 'no checkpoint yet' }),
        headers: { 'content-type': 'application/problem+json', 'retry-after': '5' },
      });
      const pending = await runCli(['verify-receipt', turn.receiptId, '--base', site.url, '--explorer', stack.sandbox.url]);
      expect(pending.code, pending.stdout + pending.stderr).toBe(0);
      expect(pending.stdout).toMatch(/WAIT\s+log_inclusion .*Pending.*ask again in 5 s/);
      expect(pending.stdout).toContain('(the log proof is pending)');
      const required = await runCli(['verify-receipt', turn.receiptId, '--base', site.url, '--explorer', stack.sandbox.url, '--require-log']);
      expect(required.code).toBe(1);
      expect(required.stdout).toMatch(/FAIL\s+log_inclusion .*--require-log/);
    } finally {
      await site.close();
    }
  });

  it('says, when the site is still folding its log into the reputation, how far it is and to run again', async () => {
    const site = await startFakeServer();
    try {
      site.set('/api/agents/reputation', {
        status: 503,
        body: JSON.stringify({ code: 'reputation_catching_up', folded: 1200, log_size: 900000 }),
        headers: { 'content-type': 'application/problem+json', 'retry-after': '5' },
      });
      const run = await runCli(['reputation', '--from-log', '--base', site.url, '--explorer', stack.sandbox.url]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('the site is still folding its receipt log into the reputation (1200 of 900000 entries); run this again in a few seconds');
    } finally {
      await site.close();
    }
  });

  it('fails the settlement check when the chain source cannot be read', async () => {
    const run = await runCli(['verify-receipt', turn.receiptId, '--base', stack.server.url, '--explorer', `http://127.0.0.1:${await closedPort()}`]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL\s+settlement_tx .*could not be read/);
  });

  it("refuses a forged receipt: a sandbox bundle rewritten to claim testnet and resealed is checked on the verifier's chain source, never the explorer the bundle names", async () => {
    const bundle = (await (await fetch(`${stack.server.url}/api/assistant/receipt/${turn.receiptId}`)).json()) as Record<string, any>;
    // The attacker's explorer answers the real Note's data, without the sandbox marker.
    const attacker = await startFakeServer();
    try {
      const box = await fetch(`${stack.sandbox.url}/api/v1/boxes/${bundle.noteBoxId}`);
      attacker.set(`/api/v1/boxes/${bundle.noteBoxId}`, { status: 200, body: await box.text() });
      attacker.set('/api/v1/networkState', { status: 200, body: '{"height":3001}' });
      const { receiptId: _real, ...rest } = bundle;
      const claimed = { ...rest, chain: 'testnet', verification_receipt: { ...rest.verification_receipt, chain: { ...rest.verification_receipt.chain, source: 'testnet', explorer: attacker.url } } };
      const forged = join(dir, 'forged.json');
      writeFileSync(forged, JSON.stringify({ receiptId: computeReceiptId(claimed), ...claimed }));

      // The verifier's own setting names the sandbox, which is no testnet: a mismatch, said as one.
      const run = await runCli(['verify-receipt', forged], { env: { ERGO_EXPLORER_URL: stack.sandbox.url } });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/PASS\s+receipt_id/);
      expect(run.stdout).toMatch(/FAIL\s+settlement_tx .*says testnet.*is the local sandbox chain/);
      expect(run.stdout).toContain('NOT verified');
      expect(attacker.requests()).toBe(0);
    } finally {
      await attacker.close();
    }
  });

  it('fails a sandbox receipt verified against a testnet chain source, and says the chains differ', async () => {
    const standIn = await startTestnetStandIn(stack.sandbox.url);
    try {
      const run = await runCli(['verify-receipt', turn.receiptId, '--base', stack.server.url, '--explorer', standIn.url, '--json']);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const answer = JSON.parse(run.stdout) as { ok: boolean; checks: Array<{ id: string; ok: boolean; detail: string }> };
      expect(answer.ok).toBe(false);
      expect(answer.checks.find((check) => check.id === 'settlement_tx')).toMatchObject({ ok: false, detail: expect.stringMatching(/says sandbox.*is the testnet/) });
      expect(answer.checks.filter((check) => !check.ok).map((check) => check.id)).toEqual(['settlement_tx']);

      // reconcile reads its chain source the same way: ERGO_EXPLORER_URL here, never the bundles' explorers.
      const reconciled = await runCli(['reconcile', '--base', stack.server.url, '--json', '--sandbox'], { env: { ERGO_EXPLORER_URL: standIn.url } });
      expect(reconciled.code).toBe(1);
      const receiptLine = reconciled.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string; ok: boolean; checks: Array<{ id: string; detail: string }> }).find((line) => line.id === turn.receiptId);
      expect(receiptLine).toMatchObject({ ok: false, checks: expect.arrayContaining([expect.objectContaining({ id: 'settlement_tx', detail: expect.stringMatching(/says sandbox.*is the testnet/) })]) });
    } finally {
      await standIn.close();
    }
  });

  it('reconciles every proof of the proof explorer, one JSON line per proof with --json', async () => {
    const run = await runCli(['reconcile', '--base', stack.server.url, '--json', '--sandbox', '--explorer', stack.sandbox.url]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string; kind: string; ok: boolean; site_reported_ok: boolean; checks: unknown[] });
    // The proofs, then every stored receipt (the log tests above paid a second turn).
    expect(lines.slice(0, 2).map((line) => line.id)).toEqual(['policy-engine-verdicts', 'published-schemas-validate-descriptors']);
    expect(lines.slice(2).map((line) => line.id)).toContain(turn.receiptId);
    for (const line of lines) expect(line, line.id).toMatchObject({ ok: true, site_reported_ok: true });
    expect(lines[1]!.checks.length).toBeGreaterThan(20);
    const human = await runCli(['reconcile', '--base', stack.server.url]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('PASS conformance policy-engine-verdicts');
    expect(human.stdout).toContain('all 2 proofs reconcile');
  });

  it('gates on the policy check: exit 0 allowed, 1 denied with its reason, 2 for a request that is not one', async () => {
    const allowedFile = join(dir, 'allowed.json');
    writeFileSync(allowedFile, JSON.stringify(examplePolicyCheckRequest));
    const allowed = await runCli(['policy-check', allowedFile]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('ALLOWED  policy_allows_exact_testnet_action');

    const deniedFile = join(dir, 'denied.json');
    writeFileSync(deniedFile, JSON.stringify({ ...examplePolicyCheckRequest, proposed_action: { ...examplePolicyCheckRequest.proposed_action, receipt_expected: false } }));
    const denied = await runCli(['policy-check', deniedFile, '--json']);
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.stdout)).toMatchObject({ allowed: false, reasons: [expect.objectContaining({ code: 'receipt_expectation_missing' })] });

    const invalidFile = join(dir, 'invalid.json');
    writeFileSync(invalidFile, JSON.stringify({ profile: examplePolicyCheckRequest.profile }));
    expectOneLineError(await runCli(['policy-check', invalidFile]), 2, '/proposed_action');
  });

  it('pays a premium quote by its id on the sandbox and prints the Note box id for verify-payment', async () => {
    const question = uniquePremiumQuestion();
    const quote = await postJson(`${stack.server.url}/api/assistant/quote`, { question });
    const quoteId = String(quote.body.quoteId);
    const paid = await runCli(['sandbox', 'pay', quoteId, '--base', stack.server.url, '--sandbox-url', stack.sandbox.url]);
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stderr).toContain(`paid quote ${quoteId}`);
    const noteBoxId = paid.stdout.trim();
    expect(noteBoxId).toMatch(/^[0-9a-f]{64}$/);
    const verified = await postJson(`${stack.server.url}/api/assistant/verify-payment`, { quote: { quoteId }, question, noteBoxId });
    expect(verified.status).toBe(200);

    // The quote body itself pays without asking the service: from a file and from stdin.
    const quoteFile = join(dir, 'quote.json');
    writeFileSync(quoteFile, JSON.stringify((await postJson(`${stack.server.url}/api/assistant/quote`, { question: `${question}?` })).body));
    const fromFile = await runCli(['sandbox', 'pay', quoteFile, '--sandbox-url', stack.sandbox.url]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const fromStdin = await runCli(['sandbox', 'pay', '-', '--sandbox-url', stack.sandbox.url, '--json'], { input: JSON.stringify((await postJson(`${stack.server.url}/api/assistant/quote`, { question: `${question}!` })).body) });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ noteBoxId: expect.stringMatching(/^[0-9a-f]{64}$/) });

    expectOneLineError(await runCli(['sandbox', 'pay', 'no-such-quote', '--base', stack.server.url, '--sandbox-url', stack.sandbox.url]), 1, 'HTTP 404');
    expectOneLineError(await runCli(['sandbox', 'pay', 'not a quote!', '--base', stack.server.url]), 2, 'neither a quote id nor a file');
    expectOneLineError(await runCli(['sandbox', 'pay', quoteFile, '--sandbox-url', stack.server.url]), 1, 'not the sandbox');
  });

  it("solves the faucet's proof of work at the difficulty and epoch the server's descriptor names", async () => {
    const descriptor = (await (await fetch(`${stack.server.url}/api/dev/faucet`)).json()) as { anti_abuse: { difficulty_bits: number; challenge: { epoch_seconds: number } } };
    const run = await runCli(['faucet-solve', RECEIVER, '--base', stack.server.url, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const solved = JSON.parse(run.stdout) as { challengeToken: string; bits: number; epoch: number };
    expect(solved.bits).toBe(descriptor.anti_abuse.difficulty_bits);
    const verdict = verifyChallengeToken(
      RECEIVER,
      solved.challengeToken,
      { bits: solved.bits, epochSeconds: descriptor.anti_abuse.challenge.epoch_seconds },
      new Date(),
    );
    expect(verdict).toMatchObject({ ok: true });
    const mainnet = ErgoAddress.fromPublicKey('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', Network.Mainnet).encode(Network.Mainnet);
    expectOneLineError(await runCli(['faucet-solve', mainnet, '--bits', '4']), 2, 'testnet addresses only');
    expectOneLineError(await runCli(['faucet-solve', RECEIVER, '--bits', '99']), 2, '--bits');
  }, 60_000);

  it('answers --help on every command and fails wrong usage in one line', async () => {
    const commands = [['verify-receipt'], ['reconcile'], ['inspect'], ['policy-check'], ['faucet-solve'], ['sandbox', 'pay'], ['monitor'], ['reputation']];
    const [general, ...helps] = await Promise.all([runCli(['--help']), ...commands.map((command) => runCli([...command, '--help']))]);
    expect(general!.code).toBe(0);
    commands.forEach((command, index) => {
      const help = helps[index]!;
      expect(help.code, command.join(' ')).toBe(0);
      expect(help.stdout).toContain(`agent-economy ${command.join(' ')}`);
      expect(help.stdout).toContain('Exit status');
      expect(general!.stdout).toContain(`agent-economy ${command.join(' ')}`);
    });
    // Both receipt commands name the chain source they read when none is given, and it is the public testnet's.
    for (const help of [helps[0]!, helps[1]!]) expect(help.stdout).toContain(`--explorer URL   Explorer API to re-read Notes from (default ERGO_EXPLORER_URL, else ${ERGO_EXPLORER_URL_DEFAULT})`);
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    const failures: Array<[string[], number, string]> = [
      [['frobnicate'], 2, 'unknown command "frobnicate"'],
      [['verify-receipt'], 2, 'takes <receiptId|txId|file>'],
      [['reconcile', '--bogus'], 2, "Unknown option '--bogus'"],
      [['reconcile', '--base', 'ftp://x'], 2, '--base must be an absolute http(s) URL'],
      [['verify-receipt', 'f'.repeat(64), '--base', stack.server.url], 1, 'no receipt'],
      [['reconcile', '--base', unreachable], 1, 'cannot reach'],
      [['monitor'], 2, 'monitor needs --state FILE'],
      [['reputation'], 2, 'reputation needs --from-log'],
      [['reputation', '--from-log', '--explorer', 'nope'], 2, '--explorer must be an absolute http(s) URL'],
    ];
    const runs = await Promise.all(failures.map(([args]) => runCli(args)));
    failures.forEach(([, code, text], index) => expectOneLineError(runs[index]!, code, text));
  }, 60_000);

  it('inspects offline with the same code as POST /api/dev/tools: the same body with --json, exit 1 for what is not the object named', async () => {
    const vectors = JSON.parse(readFileSync(join(ROOT, 'tests/vectors/transactions.json'), 'utf8')) as { vectors: Array<{ bytes?: string; tx_id: string; asserted_tx_id?: string }> };
    const longExtension = vectors.vectors.find((vector) => vector.bytes && vector.tx_id === 'd5c0a7908bbb8eefe72ad70a9f668dd47b748239fd34378d3588d5625dd75c82')!;
    const file = join(dir, 'tx.hex');
    writeFileSync(file, longExtension.bytes!);
    const [viaCli, viaStdin, viaHttp] = await Promise.all([
      runCli(['inspect', 'tx', file, '--hex', '--network', 'mainnet', '--json']),
      runCli(['inspect', 'tx', '-', '--hex'], { input: longExtension.bytes }),
      fetch(`${stack.server.url}/api/dev/tools`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'tx', input: longExtension.bytes, encoding: 'hex', network: 'mainnet' }) }),
    ]);
    expect(viaCli.code, viaCli.stderr).toBe(0);
    expect(JSON.parse(viaCli.stdout)).toEqual(await viaHttp.json());
    expect(viaStdin.stdout).toMatch(/^tx d5c0a7908bbb8eefe72ad70a9f668dd47b748239fd34378d3588d5625dd75c82 {2}\(entries as given: 314641065c532406b68ff6b590280a18ce239811439b054624e60d40d7d55008\)/);
    expect(viaStdin.stderr).toContain('extension_order_differs');

    const hashed = await runCli(['inspect', 'hash', '', '--json']);
    expect(JSON.parse(hashed.stdout).result.digest).toBe('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
    const invalid = await runCli(['inspect', 'address', '3Wx6cHkTaAvysMMXSqqvoCL1n273NmcH3auiHymFwTSpKDFzQfW3']);
    expect([invalid.code, invalid.stdout.trim()]).toEqual([1, 'INVALID (checksum) the checksum does not match: a character is wrong, missing or swapped']);
    expectOneLineError(await runCli(['inspect', 'box', 'zz', '--hex']), 2, 'not a dev tools request: /input');
    expectOneLineError(await runCli(['inspect', 'box', '80', '--hex']), 1, 'truncated_bytes');
  }, 60_000);

  it('runs through the package bin when the default build exists', async () => {
    if (DIST_DIR !== `${ROOT}dist` || !existsSync(`${ROOT}dist/cli/agent-economy.mjs`)) return;
    const run = await new Promise<Run>((resolve) => {
      const child = spawn(process.execPath, [`${ROOT}bin/agent-economy.mjs`, '--version'], { cwd: ROOT });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr: '' }));
    });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
