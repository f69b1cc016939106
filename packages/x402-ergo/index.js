/**
 * x402 v2 on the Ergo testnet: scheme `exact`, network `ergo:testnet` (`ergo:sandbox` for the proof
 * surface's local sandbox chain, never a testnet payment), asset ERG in nanoERG, paid
 * upfront with a Note whose registers bind it to one quote (R4 reserve box id, R5 expiry height,
 * R6 task hash). The specification is docs/x402-ergo.md of the Agent Economy proof surface.
 *
 * - client: `ExactErgoScheme`, a SchemeNetworkClient for @x402/core's x402Client; it pays through
 *   a wallet callback (`payNote`) and sends the Note's box id. `sandboxWallet` is such a callback
 *   for the local sandbox chain.
 * - server: `ergoNoteRequirements`, the PaymentRequirements a server offers for a premium quote.
 * - facilitator: `ExactErgoFacilitator`, a SchemeNetworkFacilitator that verifies a Note through
 *   the Explorer API v1 and claims it once (`claimNote`, in memory unless you give one).
 *
 * Nothing here signs, broadcasts or holds a key: the wallet behind `payNote` does.
 */
import { decode, SByteType, SCollType, SIntType } from '@fleet-sdk/serializer';

export const SCHEME = 'exact';
export const NETWORK = 'ergo:testnet';
/** The local sandbox chain (`npm run sandbox`): its Notes are worth nothing and pay nothing elsewhere. */
export const SANDBOX_NETWORK = 'ergo:sandbox';
const NETWORKS = [NETWORK, SANDBOX_NETWORK];

/** `network`, when it is one of this scheme's; throws otherwise. */
function ergoNetwork(network) {
  if (!NETWORKS.includes(network)) throw new Error(`network must be ${NETWORKS.join(' or ')}, not ${network}`);
  return network;
}
export const ASSET = 'ERG';
const HEX64 = /^[0-9a-f]{64}$/;
const PAYMENT_IDENTIFIER = 'payment-identifier';

/** 128 random bits as `pay_` and 32 hex digits, the form of @x402/extensions' generatePaymentId. */
function newPaymentId() {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return `pay_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The Note binding of a requirement, read strictly: what `payNote` must put on chain. */
export function noteTerms(requirements) {
  if (requirements.scheme !== SCHEME || !NETWORKS.includes(requirements.network) || requirements.asset !== ASSET) {
    throw new Error(`not an Ergo Note requirement: scheme ${requirements.scheme}, network ${requirements.network}, asset ${requirements.asset}`);
  }
  const extra = requirements.extra ?? {};
  if (!/^[1-9][0-9]*$/.test(String(requirements.amount))) throw new Error('amount must be a positive integer count of nanoERG');
  for (const key of ['taskHash', 'reserveBoxId']) if (!HEX64.test(String(extra[key]))) throw new Error(`extra.${key} must be 64 lower-case hex`);
  for (const key of ['noteExpiryMinHeight', 'minConfirmations']) if (!Number.isInteger(extra[key]) || extra[key] < 1) throw new Error(`extra.${key} must be a positive integer`);
  return {
    network: requirements.network,
    quoteId: extra.quoteId,
    amountNanoErg: BigInt(requirements.amount),
    payTo: requirements.payTo,
    reserveBoxId: extra.reserveBoxId,
    taskHash: extra.taskHash,
    noteExpiryMinHeight: extra.noteExpiryMinHeight,
    minConfirmations: extra.minConfirmations,
  };
}

/** Client part: pays the Note through `payNote(terms)` (a wallet), then names it. */
export class ExactErgoScheme {
  scheme = SCHEME;

  constructor({ payNote }) {
    if (typeof payNote !== 'function') throw new TypeError('ExactErgoScheme needs a payNote(terms) wallet callback');
    this.payNote = payNote;
  }

  /**
   * Where the server declares x402's `payment-identifier` (this scheme's servers do), the payload
   * carries a fresh random id: the secret that lets this client, and only it, get a settled turn
   * back by sending the same payload again after a lost answer. Keep the payload private.
   */
  async createPaymentPayload(x402Version, requirements, context) {
    const { noteBoxId } = await this.payNote(noteTerms(requirements));
    if (!HEX64.test(String(noteBoxId))) throw new Error('payNote must resolve to { noteBoxId } (64 lower-case hex)');
    const declared = context?.extensions?.[PAYMENT_IDENTIFIER];
    return { x402Version, payload: { noteBoxId }, ...(declared ? { extensions: { [PAYMENT_IDENTIFIER]: { info: { ...declared.info, id: newPaymentId() } } } } : {}) };
  }
}

/** The a2a-x402 extension (v0.2) an A2A client activates to pay premium turns on a task. */
export const A2A_X402_EXTENSION = 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2';

/**
 * A2A (a2a-x402 v0.2, standalone flow): given the status metadata of a task waiting for payment,
 * pays the Note its `exact` offer on an Ergo network asks for through `payNote` and returns the
 * metadata of the message to send on that task (`taskId`). Throws when the task asks for no
 * payment this scheme makes.
 */
export async function a2aPaymentMetadata(taskMetadata, { payNote }) {
  const required = taskMetadata?.['x402.payment.required'];
  const accepted = required?.accepts?.find((offer) => offer?.scheme === SCHEME && NETWORKS.includes(offer?.network));
  if (taskMetadata?.['x402.payment.status'] !== 'payment-required' || !accepted) {
    throw new Error(`the task asks for no ${SCHEME} payment on ${NETWORKS.join(' or ')} (x402.payment.status ${JSON.stringify(taskMetadata?.['x402.payment.status'])})`);
  }
  const { payload } = await new ExactErgoScheme({ payNote }).createPaymentPayload(required.x402Version ?? 2, accepted);
  return { 'x402.payment.status': 'payment-submitted', 'x402.payment.payload': { x402Version: required.x402Version ?? 2, accepted, payload } };
}

/** Header every answer of the proof surface's sandbox chain carries, so it is never read as the testnet. */
const SANDBOX_MARKER_HEADER = 'x-ergo-sandbox';

async function getJson(url, init) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return { json: JSON.parse(text), text, sandbox: response.headers.has(SANDBOX_MARKER_HEADER) };
}

/**
 * A `payNote` for the local sandbox chain (`npm run sandbox` of the proof surface): mints the Note
 * with R5 far enough above the tip to be verified, and waits for its confirmations. It pays only
 * `ergo:sandbox` requirements; a real wallet takes its place for the Ergo testnet.
 */
export function sandboxWallet(sandboxUrl) {
  const base = sandboxUrl.replace(/\/+$/, '');
  return async (terms) => {
    if (terms.network !== SANDBOX_NETWORK) throw new Error(`the sandbox wallet pays ${SANDBOX_NETWORK} requirements only, not ${terms.network}`);
    const { json: state } = await getJson(`${base}/api/v1/networkState`);
    const expiryHeight = Math.max(terms.noteExpiryMinHeight, state.height + terms.minConfirmations + 30);
    const { json: minted } = await getJson(`${base}/sandbox/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        value: terms.amountNanoErg.toString(),
        receiver: terms.payTo,
        reserveBoxId: terms.reserveBoxId,
        expiryHeight,
        taskHash: terms.taskHash,
        confirmations: terms.minConfirmations,
      }),
    });
    return { noteBoxId: minted.boxId, transactionId: minted.transactionId };
  };
}

/**
 * Server part: the one way to pay a premium quote (as POST /api/assistant/quote answers it), on the
 * network whose chain the server reads (`ergo:sandbox` for the sandbox chain).
 */
export function ergoNoteRequirements(quote, { maxTimeoutSeconds, network = NETWORK }) {
  return {
    scheme: SCHEME,
    network: ergoNetwork(network),
    asset: ASSET,
    amount: String(quote.priceNanoErg),
    payTo: quote.receiverAddress,
    maxTimeoutSeconds,
    extra: {
      paymentFlow: 'upfront',
      quoteId: quote.quoteId,
      taskHash: quote.taskHash,
      reserveBoxId: quote.reserveBoxId,
      noteExpiryMinHeight: quote.noteExpiryMinHeight,
      minConfirmations: quote.minConfirmations,
    },
  };
}

function decodeRegister(serialized) {
  try {
    const constant = decode(String(serialized).toLowerCase());
    return constant && constant.toHex() === String(serialized).toLowerCase() ? constant : undefined;
  } catch {
    return undefined;
  }
}

const bytesHex = (constant) =>
  constant?.type instanceof SCollType && constant.type.elementsType instanceof SByteType ? Buffer.from(constant.data).toString('hex') : undefined;
const intValue = (constant) => (constant?.type instanceof SIntType ? constant.data : undefined);
const registerText = (register) => (typeof register === 'string' ? register : register?.serializedValue);

/** In-memory single claim per replay key; give a shared store's claim for several instances. */
function memoryClaims() {
  const claimed = new Set();
  return async (key) => {
    if (claimed.has(key)) return false;
    claimed.add(key);
    return true;
  };
}

/**
 * Facilitator part: verifies a Note against the requirements through the Explorer API v1 (the
 * box's value, receiver, R4/R5/R6, confirmations and expiry) and, on settle, claims it once under
 * the replay key `<network>:<noteBoxId>`. It settles on the one network whose explorer it reads
 * (`network`, `ergo:testnet` unless told `ergo:sandbox`): a Note read from a sandbox explorer (its
 * answers carry `x-ergo-sandbox`) never settles a testnet requirement (`network_mismatch`). Other
 * failure reasons are the proof surface's codes.
 */
export class ExactErgoFacilitator {
  scheme = SCHEME;
  caipFamily = 'ergo:*';

  constructor({ explorerUrl, network = NETWORK, claimNote = memoryClaims() }) {
    this.explorerUrl = explorerUrl.replace(/\/+$/, '');
    this.network = ergoNetwork(network);
    this.claimNote = claimNote;
  }

  getExtra() {
    return undefined;
  }

  getSigners() {
    return [];
  }

  async #check(payload, requirements) {
    let terms;
    try {
      terms = noteTerms(requirements);
    } catch (error) {
      return { reason: 'unsupported_scheme', message: error.message };
    }
    if (terms.network !== this.network) {
      return { reason: 'unsupported_scheme', message: `this facilitator reads ${this.network}, and the requirements are on ${terms.network}` };
    }
    const noteBoxId = String(payload?.payload?.noteBoxId ?? '').toLowerCase();
    if (!HEX64.test(noteBoxId)) return { reason: 'invalid_payload', message: 'payload.noteBoxId must be 64 hexadecimal characters' };
    const [{ json: state, sandbox }, box] = await Promise.all([
      getJson(`${this.explorerUrl}/api/v1/networkState`),
      fetch(`${this.explorerUrl}/api/v1/boxes/${noteBoxId}`, { signal: AbortSignal.timeout(10_000) }).then(async (response) => {
        if (response.status === 404) return undefined;
        const text = await response.text();
        if (!response.ok) throw new Error(`the explorer answered ${response.status}`);
        // The value as written: a JSON number above 2^53 would lose digits through JSON.parse.
        const value = /"value"\s*:\s*"?(\d+)/.exec(text)?.[1];
        return { ...JSON.parse(text), exactValue: value === undefined ? undefined : BigInt(value) };
      }),
    ]);
    if (sandbox !== (this.network === SANDBOX_NETWORK)) {
      return { reason: 'network_mismatch', message: `the explorer at ${this.explorerUrl} is ${sandbox ? 'the sandbox chain' : 'not the sandbox chain'}, and this facilitator settles ${this.network}` };
    }
    if (!box) return { reason: 'note_not_found', message: `the explorer knows no box ${noteBoxId}` };
    const confirmations = state.height - box.settlementHeight + 1;
    const registers = box.additionalRegisters ?? {};
    const expiry = intValue(decodeRegister(registerText(registers.R5)));
    const checks = [
      [confirmations >= terms.minConfirmations, 'note_unconfirmed', `${confirmations} confirmations, ${terms.minConfirmations} needed`],
      [box.exactValue !== undefined && box.exactValue >= terms.amountNanoErg, 'insufficient_value', `the Note holds ${box.exactValue} nanoERG, ${terms.amountNanoErg} needed`],
      [box.address === terms.payTo, 'receiver_mismatch', `the Note pays ${box.address}, not ${terms.payTo}`],
      [bytesHex(decodeRegister(registerText(registers.R4))) === terms.reserveBoxId, 'reserve_mismatch', 'R4 is not the reserve box id'],
      [expiry !== undefined && expiry >= terms.noteExpiryMinHeight && expiry > state.height, 'note_expired', `R5 ${expiry} is below ${terms.noteExpiryMinHeight} or the height ${state.height}`],
      [bytesHex(decodeRegister(registerText(registers.R6))) === terms.taskHash, 'task_hash_mismatch', 'R6 is not the task hash'],
    ];
    const failed = checks.find(([ok]) => !ok);
    if (failed) return { reason: failed[1], message: failed[2] };
    return { noteBoxId, transactionId: box.transactionId };
  }

  async verify(payload, requirements) {
    const checked = await this.#check(payload, requirements);
    return checked.reason ? { isValid: false, invalidReason: checked.reason, invalidMessage: checked.message } : { isValid: true };
  }

  async settle(payload, requirements) {
    const checked = await this.#check(payload, requirements);
    const network = this.network;
    if (checked.reason) return { success: false, errorReason: checked.reason, errorMessage: checked.message, transaction: '', network };
    if (!(await this.claimNote(`${network}:${checked.noteBoxId}`))) {
      return { success: false, errorReason: 'note_already_used', errorMessage: `Note ${checked.noteBoxId} has already paid`, transaction: '', network };
    }
    return { success: true, transaction: checked.transactionId, network };
  }
}
