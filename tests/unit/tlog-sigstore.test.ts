/**
 * A verifier this project did not write checks what the receipt log writes: @sigstore/verify's
 * public Verifier, given a Sigstore bundle whose transparency-log entry is one of our entries, checks
 * our inclusion proof (RFC 6962, its own Merkle code) against the tree size and root of our signed
 * checkpoint, and the checkpoint's Ed25519 signature against our key, found by the signed-note key ID
 * its trusted root carries (computed here from the spec, not by note.ts). The rest of the bundle (a
 * hashedrekord of an ECDSA signature over an artifact) exists only because Sigstore's Verifier takes
 * nothing smaller; Sigstore's own timestamps and certificates are switched off.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { Verifier, VerificationError, toSignedEntity, toTrustMaterial } from '@sigstore/verify';
import { describe, expect, it } from 'vitest';
import { formatCheckpoint, generateNoteKey, signCheckpoint, type NoteKeyPair } from '../../src/domain/tlog/note.ts';
import { inclusionProof, inclusionProofIndexes } from '../../src/domain/tlog/proofs.ts';
import { leafHash, rootFromSubtrees, storedHashCount, treeHashIndexes } from '../../src/domain/tlog/tree.ts';
import { entry, reader, storedHashes } from './tlog-reference.ts';

type Bundle = Parameters<typeof toSignedEntity>[0];
type TrustedRoot = Parameters<typeof toTrustMaterial>[0];

const ORIGIN = 'receipts.example/log';
const LOG_KEY = generateNoteKey();
const ARTIFACT_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ARTIFACT = Buffer.from('a paid assistant turn, settled');
const DIGEST = createHash('sha256').update(ARTIFACT).digest();
const SIGNATURE = sign('sha256', ARTIFACT, ARTIFACT_KEY.privateKey);

// The log entry is the hashedrekord Sigstore's Verifier compares with the bundle's signature.
const BODY = Buffer.from(
  JSON.stringify({
    apiVersion: '0.0.1',
    kind: 'hashedrekord',
    spec: {
      data: { hash: { algorithm: 'sha256', value: DIGEST.toString('hex') } },
      signature: { content: SIGNATURE.toString('base64'), publicKey: { content: Buffer.from(ARTIFACT_KEY.publicKey.export({ format: 'pem', type: 'spki' })).toString('base64') } },
    },
  }),
);

/** signed-note's key ID, from the spec's formula, for Sigstore's trusted root. */
const specKeyId = (name: string, publicKey: Uint8Array) => createHash('sha256').update(name).update(Uint8Array.of(0x0a, 0x01)).update(publicKey).digest().subarray(0, 4);

/** The DER SubjectPublicKeyInfo of a raw Ed25519 public key (RFC 8410). */
const ed25519Spki = (publicKey: Uint8Array) => Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]);

function trustedRoot(logKey: NoteKeyPair): TrustedRoot {
  const keyId = specKeyId(ORIGIN, logKey.publicKey);
  return {
    mediaType: 'application/vnd.dev.sigstore.trustedroot.v0.2+json',
    tlogs: [
      {
        baseUrl: `https://${ORIGIN}`,
        hashAlgorithm: 1, // SHA2_256
        publicKey: { rawBytes: ed25519Spki(logKey.publicKey), keyDetails: 7, validFor: { start: new Date(0) } }, // PKIX_ED25519
        logId: { keyId },
        checkpointKeyId: { keyId },
        operator: 'receipts.example',
      },
    ],
    certificateAuthorities: [],
    ctlogs: [],
    timestampAuthorities: [],
  };
}

/** Our log of `size` entries with BODY at `index`: the Sigstore transparency-log entry for it. */
function logEntry(index: number, size: number, options: { logKey?: NoteKeyPair; tamper?: (proof: Buffer[]) => void; claimedIndex?: number } = {}) {
  const entries = Array.from({ length: size }, (_, i) => (i === index ? BODY : entry(i)));
  const stored = storedHashes(entries.map(leafHash));
  const read = reader(stored, storedHashCount(size));
  const root = rootFromSubtrees(read(treeHashIndexes(size)));
  const proof = inclusionProof(index, size, read(inclusionProofIndexes(index, size))).map((hash) => Buffer.from(hash));
  options.tamper?.(proof);
  const checkpoint = signCheckpoint(formatCheckpoint({ origin: ORIGIN, size, root }), (options.logKey ?? LOG_KEY).privateKey, ORIGIN);
  const logIndex = String(options.claimedIndex ?? index);
  return {
    logIndex,
    logId: { keyId: specKeyId(ORIGIN, LOG_KEY.publicKey) },
    kindVersion: { kind: 'hashedrekord', version: '0.0.1' },
    integratedTime: '0',
    inclusionPromise: undefined,
    inclusionProof: { logIndex, rootHash: Buffer.from(root), treeSize: String(size), hashes: proof, checkpoint: { envelope: checkpoint } },
    canonicalizedBody: BODY,
  };
}

function verifyWithSigstore(tlogEntry: ReturnType<typeof logEntry>): void {
  const bundle: Bundle = {
    mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
    verificationMaterial: { content: { $case: 'publicKey', publicKey: { hint: 'artifact' } }, tlogEntries: [tlogEntry], timestampVerificationData: undefined },
    content: { $case: 'messageSignature', messageSignature: { messageDigest: { algorithm: 1, digest: DIGEST }, signature: SIGNATURE } },
  };
  const trust = toTrustMaterial(trustedRoot(LOG_KEY), {
    artifact: { rawBytes: ARTIFACT_KEY.publicKey.export({ format: 'der', type: 'spki' }), keyDetails: 5, validFor: { start: new Date(0) } }, // PKIX_ECDSA_P256_SHA_256
  });
  new Verifier(trust, { tlogThreshold: 1, ctlogThreshold: 0, timestampThreshold: 0 }).verify(toSignedEntity(bundle, ARTIFACT));
}

describe('@sigstore/verify on the receipt log', () => {
  it('accepts our inclusion proofs and signed checkpoints', () => {
    for (const [index, size] of [
      [0, 1],
      [2, 5],
      [6, 7],
      [255, 256],
      [300, 1000],
      [999, 1000],
      [12345, 70000],
    ] as const) {
      expect(() => verifyWithSigstore(logEntry(index, size)), `record ${index} of ${size}`).not.toThrow();
    }
  });

  it('refuses them once tampered with, so it is really checking', () => {
    const refusal = (tlogEntry: ReturnType<typeof logEntry>) => {
      try {
        verifyWithSigstore(tlogEntry);
      } catch (error) {
        expect(error).toBeInstanceOf(VerificationError);
        return (error as VerificationError).code;
      }
      return 'accepted';
    };
    expect(refusal(logEntry(300, 1000, { tamper: (proof) => (proof[3]![0]! ^= 1) }))).toBe('TLOG_INCLUSION_PROOF_ERROR');
    expect(refusal(logEntry(300, 1000, { tamper: (proof) => proof.pop() }))).toBe('TLOG_INCLUSION_PROOF_ERROR');
    expect(refusal(logEntry(300, 1000, { claimedIndex: 301 }))).toBe('TLOG_INCLUSION_PROOF_ERROR');
    expect(refusal(logEntry(300, 1000, { logKey: generateNoteKey() }))).toBe('TLOG_INCLUSION_PROOF_ERROR');
  });
});
