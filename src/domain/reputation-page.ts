/**
 * The cursors that page the reputation graph and a subject's receipts: where the page before ended,
 * as base64url JSON. Opaque to clients; read back strictly, so a cursor that is not one of ours is a
 * clear refusal, never a query.
 */
import { SUBJECT_KINDS, type SubjectKind } from '../../schemas/reputation.ts';
import type { ReputationEvidence } from './reputation.ts';
import type { SubjectCursor } from './ports.ts';

const encode = (value: unknown[]): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

function decode(text: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const isInstant = (value: unknown): value is string => typeof value === 'string' && value.length <= 40 && !Number.isNaN(Date.parse(value));
const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 256;

export const subjectCursor = ({ receiptCount, lastSettledAt, subjectId, kind }: SubjectCursor): string => encode([receiptCount, lastSettledAt, subjectId, kind]);

export function readSubjectCursor(text: string): SubjectCursor | undefined {
  const [receiptCount, lastSettledAt, subjectId, kind, ...rest] = decode(text) ?? [];
  if (rest.length || !Number.isSafeInteger(receiptCount) || (receiptCount as number) < 1 || !isInstant(lastSettledAt) || !isId(subjectId) || !SUBJECT_KINDS.includes(kind as SubjectKind)) return undefined;
  return { receiptCount: receiptCount as number, lastSettledAt, subjectId, kind: kind as SubjectKind };
}

export const evidenceCursor = ({ settledAt, receiptId }: ReputationEvidence): string => encode([settledAt, receiptId]);

export function readEvidenceCursor(text: string): ReputationEvidence | undefined {
  const [settledAt, receiptId, ...rest] = decode(text) ?? [];
  if (rest.length || !isInstant(settledAt) || !isId(receiptId)) return undefined;
  return { settledAt, receiptId, settlementTxId: '' };
}
