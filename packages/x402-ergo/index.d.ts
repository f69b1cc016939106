import type { PaymentPayload, PaymentRequirements, SchemeNetworkClient, SchemeNetworkFacilitator, SettleResponse, VerifyResponse } from '@x402/core/types';

export declare const SCHEME: 'exact';
export declare const NETWORK: 'ergo:testnet';
/** The proof surface's local sandbox chain: its Notes are worth nothing and pay nothing elsewhere. */
export declare const SANDBOX_NETWORK: 'ergo:sandbox';
export type ErgoNetwork = typeof NETWORK | typeof SANDBOX_NETWORK;
export declare const ASSET: 'ERG';

/** What a wallet must put on chain to pay one requirement. */
export interface NoteTerms {
  /** The network the requirement names, whose chain the Note goes on. */
  network: ErgoNetwork;
  quoteId: string | undefined;
  /** The price: the Note holds at least this many nanoERG. */
  amountNanoErg: bigint;
  /** The receiver address. */
  payTo: string;
  /** R4, `Coll[Byte]`. */
  reserveBoxId: string;
  /** R6, `Coll[Byte]`. */
  taskHash: string;
  /** R5, `Int`, is at least this height. */
  noteExpiryMinHeight: number;
  minConfirmations: number;
}

/** Pays the Note (a wallet: it signs and broadcasts, this package never does) and names its box. */
export type PayNote = (terms: NoteTerms) => Promise<{ noteBoxId: string; transactionId?: string }>;

export declare function noteTerms(requirements: PaymentRequirements): NoteTerms;

/** Client part, for @x402/core's x402Client (register it on `ergo:testnet`, or `ergo:sandbox` with `sandboxWallet`). */
export declare class ExactErgoScheme implements SchemeNetworkClient {
  readonly scheme: 'exact';
  constructor(options: { payNote: PayNote });
  createPaymentPayload(
    x402Version: number,
    requirements: PaymentRequirements,
    context?: { extensions?: Record<string, unknown> },
  ): Promise<{ x402Version: number; payload: { noteBoxId: string }; extensions?: Record<string, unknown> }>;
}

/** The a2a-x402 extension (v0.2) an A2A client activates to pay premium turns on a task. */
export declare const A2A_X402_EXTENSION: 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2';

/**
 * A2A (a2a-x402 v0.2): pays the Note a waiting task's status metadata asks for and returns the
 * metadata of the message to send on that task (`x402.payment.status` and `x402.payment.payload`).
 */
export declare function a2aPaymentMetadata(
  taskMetadata: Record<string, unknown> | undefined,
  options: { payNote: PayNote },
): Promise<{ 'x402.payment.status': 'payment-submitted'; 'x402.payment.payload': PaymentPayload }>;

/** A PayNote minting on the proof surface's local sandbox chain (never the testnet). */
export declare function sandboxWallet(sandboxUrl: string): PayNote;

/** Server part: the requirements that pay a premium quote. */
export declare function ergoNoteRequirements(
  quote: { quoteId: string; priceNanoErg: string | bigint; receiverAddress: string; taskHash: string; reserveBoxId: string; noteExpiryMinHeight: number; minConfirmations: number },
  options: { maxTimeoutSeconds: number; network?: ErgoNetwork },
): PaymentRequirements;

/** Facilitator part: verifies through the Explorer API v1 and claims each Note once. */
export declare class ExactErgoFacilitator implements SchemeNetworkFacilitator {
  readonly scheme: 'exact';
  readonly caipFamily: 'ergo:*';
  readonly network: ErgoNetwork;
  /** `network` is the one whose explorer `explorerUrl` is (`ergo:testnet` unless told). */
  constructor(options: { explorerUrl: string; network?: ErgoNetwork; claimNote?: (replayKey: string) => Promise<boolean> });
  getExtra(): undefined;
  getSigners(): string[];
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}
