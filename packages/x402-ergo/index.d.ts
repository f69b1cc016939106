import type { PaymentPayload, PaymentRequirements, SchemeNetworkClient, SchemeNetworkFacilitator, SettleResponse, VerifyResponse } from '@x402/core/types';

export declare const SCHEME: 'exact';
export declare const NETWORK: 'ergo:testnet';
export declare const ASSET: 'ERG';

/** What a wallet must put on chain to pay one requirement. */
export interface NoteTerms {
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

/** Client part, for @x402/core's x402Client (register it on `ergo:testnet`). */
export declare class ExactErgoScheme implements SchemeNetworkClient {
  readonly scheme: 'exact';
  constructor(options: { payNote: PayNote });
  createPaymentPayload(
    x402Version: number,
    requirements: PaymentRequirements,
    context?: { extensions?: Record<string, unknown> },
  ): Promise<{ x402Version: number; payload: { noteBoxId: string }; extensions?: Record<string, unknown> }>;
}

/** A PayNote minting on the proof surface's local sandbox chain (never the testnet). */
export declare function sandboxWallet(sandboxUrl: string): PayNote;

/** Server part: the requirements that pay a premium quote. */
export declare function ergoNoteRequirements(
  quote: { quoteId: string; priceNanoErg: string | bigint; receiverAddress: string; taskHash: string; reserveBoxId: string; noteExpiryMinHeight: number; minConfirmations: number },
  options: { maxTimeoutSeconds: number },
): PaymentRequirements;

/** Facilitator part: verifies through the Explorer API v1 and claims each Note once. */
export declare class ExactErgoFacilitator implements SchemeNetworkFacilitator {
  readonly scheme: 'exact';
  readonly caipFamily: 'ergo:*';
  constructor(options: { explorerUrl: string; claimNote?: (replayKey: string) => Promise<boolean> });
  getExtra(): undefined;
  getSigners(): string[];
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}
