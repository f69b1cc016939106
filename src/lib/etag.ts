/** Strong ETags of bodies held in memory (static files, kept receipts): one spelling for both. */
import { createHash } from 'node:crypto';

/** 27 base64url characters of the body's SHA-256, quoted. */
export const strongEtag = (body: Uint8Array): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
