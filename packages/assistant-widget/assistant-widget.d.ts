/** Types of <agent-economy-assistant>; see README.md. The element never signs: `pay` is the host wallet's. */
export interface NoteRequirement {
  type: 'Coll[Byte]' | 'Int';
  meaning: string;
  value: string | number;
}

export interface PremiumQuote {
  tier: 'premium';
  quoteId: string;
  taskHash: string;
  price: string;
  priceNanoErg: string;
  receiverAddress: string;
  reserveBoxId: string;
  noteExpiryMinHeight: number;
  minConfirmations: number;
  issuedHeight: number;
  expiresAt: string;
  noteRequirements: { R4: NoteRequirement; R5: NoteRequirement; R6: NoteRequirement };
  /** What the answer will answer, said before anyone pays: the whole question, or which of its parts. */
  reason?: string;
  [key: string]: unknown;
}

/** An answer's Markdown as the element shows it: built as DOM nodes, never parsed as HTML. */
export declare function renderAnswer(markdown: string): HTMLDivElement;

/** Creates the Note box that pays `quote` with the host's wallet and resolves to its box id. */
export type PayHook = (quote: PremiumQuote, question: string) => Promise<string>;

export declare class AgentEconomyAssistant extends HTMLElement {
  pay?: PayHook;
  readonly apiBase: string;
  readonly receiptBase: string;
  ask(question: string, button?: HTMLButtonElement): Promise<void>;
  verify(quote: PremiumQuote, question: string, noteBoxId: string, button?: HTMLButtonElement): Promise<void>;
}

declare global {
  interface HTMLElementTagNameMap {
    'agent-economy-assistant': AgentEconomyAssistant;
  }
}
