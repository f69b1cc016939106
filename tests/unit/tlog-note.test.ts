/**
 * Signed notes and checkpoints of the receipt log (src/domain/tlog/note.ts): golang.org/x/mod's
 * note package known answers (its PeterNeumann key, verifier key and signature, byte for byte, and
 * each mangling of the verifier key and the note it refuses), then checkpoints signed and opened,
 * and each change that must be refused: a byte of the text, of the signature, of the key; another
 * origin; the same key under another name; malformed checkpoint lines.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../src/domain/tlog/base64.ts';
import {
  formatCheckpoint,
  formatPrivateKeyFile,
  formatVerifierKey,
  generateNoteKey,
  isValidKeyName,
  keyId,
  openCheckpoint,
  openNote,
  openOwnCheckpoint,
  parseCheckpoint,
  parsePrivateKeyFile,
  parseVerifierKey,
  rawPublicKey,
  signCheckpoint,
  signNote,
  type NoteVerifier,
} from '../../src/domain/tlog/note.ts';
import { parseVerifierKeyText } from '../../src/domain/tlog/note-text.ts';
import { leafHash } from '../../src/domain/tlog/tree.ts';
import { hex } from './tlog-reference.ts';

// golang.org/x/mod/sumdb/note/note_test.go. Its signer key is "PRIVATE+KEY+PeterNeumann+c74f20a3+"
// followed by base64(0x01 || Ed25519 seed); the seed is wrapped here in PKCS#8 as a key file would be.
const PETER_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const PETER_SEED = decodeBase64('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz')!.subarray(1);
const PETER_KEY = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), PETER_SEED]), format: 'der', type: 'pkcs8' });
const ENOCH_VKEY = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG = '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
const ENOCH_SIG = '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n';

const verifierOf = (key: string): NoteVerifier => {
  const parsed = parseVerifierKey(key);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.verifier;
};

const ORIGIN = 'receipts.example/log';
const KEY = generateNoteKey();
const VKEY = formatVerifierKey(ORIGIN, KEY.publicKey);
const ROOT = leafHash(Uint8Array.of(1, 2, 3));
const BODY = formatCheckpoint({ origin: ORIGIN, size: 70000, root: ROOT });
const SIGNED = signCheckpoint(BODY, KEY.privateKey, ORIGIN);

const reasonOf = (result: { ok: boolean; reason?: string }) => (result.ok ? 'accepted' : result.reason);

describe('golang.org/x/mod/sumdb/note known answers', () => {
  it('gives the verifier key and the signature of the PeterNeumann key', () => {
    expect(formatVerifierKey('PeterNeumann', rawPublicKey(PETER_KEY))).toBe(PETER_VKEY);
    expect(hex(keyId('PeterNeumann', rawPublicKey(PETER_KEY)))).toBe('c74f20a3');
    expect(signNote(TEXT, PETER_KEY, 'PeterNeumann')).toBe(`${TEXT}\n${PETER_SIG}`);
  });

  it('opens the note by either of its signers, ignoring the other', () => {
    expect(openNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, verifierOf(PETER_VKEY))).toEqual({ ok: true, text: TEXT });
    expect(openNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, verifierOf(ENOCH_VKEY))).toEqual({ ok: true, text: TEXT });
    expect(openNote(new TextEncoder().encode(`${TEXT}\n${PETER_SIG}`), verifierOf(PETER_VKEY))).toEqual({ ok: true, text: TEXT });
    expect(reasonOf(openNote(`${TEXT}\n${ENOCH_SIG}`, verifierOf(PETER_VKEY)))).toBe('the note has no signature by PeterNeumann+c74f20a3; it is signed by EnochRoot+af0cfe78');
  });

  it('refuses every substring and every one-byte change of a verifier key', () => {
    const bytes = Buffer.from(PETER_VKEY);
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i + 1; j <= bytes.length; j++) {
        if (i !== 0 || j !== bytes.length) expect(parseVerifierKey(bytes.subarray(i, j).toString()).ok, bytes.subarray(i, j).toString()).toBe(false);
      }
    }
    for (let i = 0; i < bytes.length; i++) {
      const changed = Buffer.from(bytes);
      changed[i]!++;
      expect(parseVerifierKey(changed.toString()).ok, changed.toString()).toBe(false);
    }
    // Go's decoder takes BADKEY== (its last character has stray bits) and then refuses the length.
    expect(reasonOf(parseVerifierKey('PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY=='))).toMatch(/is not standard base64$/);
    const key37 = Buffer.concat([Buffer.from([1]), rawPublicKey(PETER_KEY), Buffer.from([1, 2, 3, 4])]);
    expect(reasonOf(parseVerifierKey(`PeterNeumann+${hex(keyId('PeterNeumann', key37.subarray(1)))}+${key37.toString('base64')}`))).toBe('the Ed25519 public key is 36 bytes, not 32');
    expect(reasonOf(parseVerifierKey('PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'))).toBe('the key is of signature type 0x65, not Ed25519 (0x01)');
  });

  it('says why it refuses a malformed verifier key', () => {
    expect(reasonOf(parseVerifierKey('PeterNeumann+c74f20a3'))).toMatch(/fewer than two plus signs/);
    expect(reasonOf(parseVerifierKey('+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'))).toBe("'' is not a key name (non-empty, no spaces, no '+')");
    expect(reasonOf(parseVerifierKey('Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'))).toMatch(/is not a key name/);
    expect(reasonOf(parseVerifierKey('PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'))).toBe("key ID 'C74F20A3' is not 8 lowercase hexadecimal digits");
    expect(reasonOf(parseVerifierKey('PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10T'))).toMatch(/is not standard base64/);
    expect(reasonOf(parseVerifierKey('PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'))).toBe("key ID c74f20a4 is not the ID of PeterNeumann's key (c74f20a3)");
  });

  it.each([
    ['no signatures', TEXT, 'the note has no empty line before its signatures'],
    ['an empty line and nothing after it', `${TEXT}\n`, 'the note has no signature lines'],
    ['a last signature line without its newline', `${TEXT}\n${PETER_SIG.slice(0, -1)}`, 'the last signature line does not end with a newline'],
    ['a control character', `\u0001${TEXT}\n${PETER_SIG}`, 'the note holds control character U+0001 at character 0'],
    ['a tab', `${TEXT.replace(' ', '\t')}\n${PETER_SIG}`, /control character U\+0009/],
    ['a name with a space', `${TEXT}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`, /signature line 1 \(Bad\) does not carry standard base64/],
    ['a line after the signatures', `${TEXT}\n${PETER_SIG}Unexpected line.\n`, 'signature line 2 does not start with an em dash (U+2014) and a space'],
    ['a hyphen for the em dash', `${TEXT}\n${PETER_SIG.replace('—', '-')}`, /signature line 1 does not start with an em dash/],
    ['a signature 4 characters longer', `${TEXT}\n${PETER_SIG.slice(0, 60)}ABCD${PETER_SIG.slice(60)}`, 'the signature by PeterNeumann+c74f20a3 (signature line 1) does not verify over the note text'],
    ['a signature too short for a key ID', `${TEXT}\n— PeterNeumann AAAA\n`, /signature line 1 \(PeterNeumann\) does not carry standard base64 of a key ID and a signature/],
    ['101 signatures', `${TEXT}\n${PETER_SIG.repeat(101)}`, 'the note has 101 signatures, more than 100'],
  ])('refuses a note with %s', (_, note, reason) => {
    expect(reasonOf(openNote(note, verifierOf(PETER_VKEY)))).toMatch(reason);
  });

  it('refuses a note that is not UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from([0xff]), Buffer.from(`${TEXT}\n${PETER_SIG}`)]);
    expect(reasonOf(openNote(bytes, verifierOf(PETER_VKEY)))).toBe('the note is not valid UTF-8');
    expect(reasonOf(openNote(`\uD800${TEXT}\n${PETER_SIG}`, verifierOf(PETER_VKEY)))).toBe('the note is not valid UTF-8');
  });
});

describe('checkpoints', () => {
  it('writes the body and the signature line the specs give', () => {
    expect(BODY).toBe(`${ORIGIN}\n70000\n${Buffer.from(ROOT).toString('base64')}\n`);
    expect(SIGNED.startsWith(`${BODY}\n— ${ORIGIN} `)).toBe(true);
    const signature = decodeBase64(SIGNED.slice(`${BODY}\n— ${ORIGIN} `.length, -1))!;
    expect(signature.length).toBe(68);
    expect(hex(signature.subarray(0, 4))).toBe(VKEY.split('+')[1]);
    expect(formatCheckpoint({ origin: ORIGIN, size: 0, root: ROOT, extensions: ['ext one', 'ext two'] })).toBe(`${ORIGIN}\n0\n${Buffer.from(ROOT).toString('base64')}\next one\next two\n`);
  });

  it('opens what it signed, for any size, root and extension lines', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.array(fc.stringMatching(/^[a-z0-9 ./:-]{1,20}$/), { maxLength: 3 }), (size, root, extensions) => {
        const signed = signCheckpoint(formatCheckpoint({ origin: ORIGIN, size, root, extensions }), KEY.privateKey, ORIGIN);
        const opened = openCheckpoint(signed, VKEY, ORIGIN);
        expect(opened.ok && opened.checkpoint).toEqual({ origin: ORIGIN, size, root, extensions });
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a note with any byte changed', () => {
    const bytes = new TextEncoder().encode(SIGNED);
    for (let i = 0; i < bytes.length; i++) {
      const changed = bytes.slice();
      changed[i]! ^= 0x01;
      expect(openCheckpoint(changed, VKEY, ORIGIN).ok, `byte ${i}`).toBe(false);
    }
  });

  it('says which signature does not verify, and refuses another key, another name, another origin', () => {
    const flippedBody = SIGNED.replace('\n70000\n', '\n70001\n');
    expect(reasonOf(openCheckpoint(flippedBody, VKEY, ORIGIN))).toBe(`the signature by ${ORIGIN}+${VKEY.split('+')[1]} (signature line 1) does not verify over the note text`);

    const other = generateNoteKey();
    expect(reasonOf(openCheckpoint(SIGNED, formatVerifierKey(ORIGIN, other.publicKey), ORIGIN))).toMatch(/^the note has no signature by receipts\.example\/log\+[0-9a-f]{8}; it is signed by receipts\.example\/log\+[0-9a-f]{8}$/);

    const renamed = formatVerifierKey('other.example/log', KEY.publicKey);
    expect(reasonOf(openCheckpoint(SIGNED, renamed, 'other.example/log'))).toMatch(/^the note has no signature by other\.example\/log\+/);

    const foreign = signCheckpoint(formatCheckpoint({ origin: 'other.example/log', size: 1, root: ROOT }), KEY.privateKey, ORIGIN);
    expect(reasonOf(openCheckpoint(foreign, VKEY, ORIGIN))).toBe("the checkpoint's origin is 'other.example/log', not 'receipts.example/log'");
    expect(reasonOf(openCheckpoint(SIGNED, VKEY, 'other.example/log'))).toBe("the checkpoint's origin is 'receipts.example/log', not 'other.example/log'");

    // A second signature by the same key over other text is a signature by the known key that fails.
    const twice = SIGNED + signNote(formatCheckpoint({ origin: ORIGIN, size: 1, root: ROOT }), KEY.privateKey, ORIGIN).split('\n\n')[1];
    expect(reasonOf(openCheckpoint(twice, VKEY, ORIGIN))).toMatch(/\(signature line 2\) does not verify/);
    // A cosignature by another key is ignored.
    const cosigned = SIGNED + signNote(BODY, other.privateKey, 'witness.example').split('\n\n')[1];
    expect(openCheckpoint(cosigned, VKEY, ORIGIN).ok).toBe(true);
    expect(reasonOf(openCheckpoint(SIGNED, 'not a key', ORIGIN))).toMatch(/^the verifier key: /);
  });

  it.each([
    ['two lines', `${ORIGIN}\n1\n`, 'the checkpoint has 2 lines; it needs the origin, the tree size and the root hash'],
    ['no final newline', `${ORIGIN}\n1\n${Buffer.from(ROOT).toString('base64')}`, 'the checkpoint does not end with a newline'],
    ['an empty origin', `\n1\n${Buffer.from(ROOT).toString('base64')}\n`, "the checkpoint's origin line is empty"],
    ['a size with a leading zero', `${ORIGIN}\n012\n${Buffer.from(ROOT).toString('base64')}\n`, "the checkpoint's tree size '012' is not a decimal number without leading zeros"],
    ['a negative size', `${ORIGIN}\n-1\n${Buffer.from(ROOT).toString('base64')}\n`, "the checkpoint's tree size '-1' is not a decimal number without leading zeros"],
    ['a size beyond 2^53', `${ORIGIN}\n9007199254740993\n${Buffer.from(ROOT).toString('base64')}\n`, "the checkpoint's tree size 9007199254740993 is beyond 2^53"],
    ['a root in base64url', `${ORIGIN}\n1\n${Buffer.from(ROOT).toString('base64url')}\n`, /^the checkpoint's root hash '.*' is not standard base64$/],
    ['a short root', `${ORIGIN}\n1\n${Buffer.from(ROOT.subarray(1)).toString('base64')}\n`, "the checkpoint's root hash is 31 bytes, not 32"],
    ['an empty extension line', `${ORIGIN}\n1\n${Buffer.from(ROOT).toString('base64')}\next\n\n`, "the checkpoint's extension line 2 is empty"],
  ])('refuses a checkpoint with %s, and will not sign it', (_, body, reason) => {
    expect(reasonOf(parseCheckpoint(body))).toMatch(reason);
    expect(() => signCheckpoint(body, KEY.privateKey, ORIGIN)).toThrow(RangeError);
  });
});

describe('key files', () => {
  it('writes the key as PKCS#8 PEM and reads it back', () => {
    const pem = formatPrivateKeyFile(KEY.privateKey);
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END PRIVATE KEY-----\n$/);
    const parsed = parsePrivateKeyFile(pem);
    expect(parsed.ok && hex(parsed.publicKey)).toBe(hex(KEY.publicKey));
    if (parsed.ok) expect(openCheckpoint(signCheckpoint(BODY, parsed.privateKey, ORIGIN), VKEY, ORIGIN).ok).toBe(true);
  });

  it('refuses a key file that is not an Ed25519 PKCS#8 private key', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(reasonOf(parsePrivateKeyFile(ec))).toBe('the key file holds a ec key, not Ed25519');
    expect(reasonOf(parsePrivateKeyFile('hello'))).toMatch(/^the key file is not a PKCS#8 PEM private key/);
    expect(reasonOf(parsePrivateKeyFile('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'))).toMatch(/^the key file does not parse/);
    expect(() => formatPrivateKeyFile(createPrivateKey(ec))).toThrow(RangeError);
    // An Ed25519 key, but its public half: no key file holds it.
    expect(() => formatPrivateKeyFile(createPublicKey(KEY.privateKey))).toThrow(RangeError);
  });

  it('reads a key file that starts with blank lines, and refuses one whose first text is not the PEM header', () => {
    const pem = formatPrivateKeyFile(KEY.privateKey);
    const parsed = parsePrivateKeyFile(`\n  \n${pem}`);
    expect(parsed.ok && hex(parsed.publicKey)).toBe(hex(KEY.publicKey));
    expect(reasonOf(parsePrivateKeyFile(`# the log's key\n${pem}`))).toMatch(/^the key file is not a PKCS#8 PEM private key/);
  });
});

describe('the signing side refuses what it must not sign', () => {
  const root64 = Buffer.from(ROOT).toString('base64');

  it('writes no checkpoint with a bad origin, size, root or extension line', () => {
    const good = { origin: ORIGIN, size: 1, root: ROOT };
    expect(formatCheckpoint(good)).toBe(`${ORIGIN}\n1\n${root64}\n`);
    expect(formatCheckpoint({ ...good, size: 0 })).toBe(`${ORIGIN}\n0\n${root64}\n`);
    expect(formatCheckpoint({ ...good, size: Number.MAX_SAFE_INTEGER })).toContain(`\n${Number.MAX_SAFE_INTEGER}\n`);
    expect(formatCheckpoint({ ...good, extensions: ['witness note'] })).toBe(`${ORIGIN}\n1\n${root64}\nwitness note\n`);
    for (const [label, checkpoint] of [
      ['an empty origin', { ...good, origin: '' }],
      ['an origin of two lines', { ...good, origin: `${ORIGIN}\nx` }],
      ['an origin with a control character', { ...good, origin: `${ORIGIN}\u0007` }],
      ['a negative size', { ...good, size: -1 }],
      ['a fractional size', { ...good, size: 1.5 }],
      ['a size beyond 2^53', { ...good, size: Number.MAX_SAFE_INTEGER + 2 }],
      ['a short root', { ...good, root: ROOT.subarray(1) }],
      ['a long root', { ...good, root: Uint8Array.of(...ROOT, 0) }],
      ['an empty extension line', { ...good, extensions: [''] }],
      ['an extension of two lines', { ...good, extensions: ['a\nb'] }],
    ] as const) {
      expect(() => formatCheckpoint(checkpoint), label).toThrow(RangeError);
    }
  });

  it('signs no note text with a control character, without a final newline, or under a name that is no key name', () => {
    expect(() => signNote('text\u0000\n', KEY.privateKey, ORIGIN)).toThrow(/control character U\+0000/);
    expect(() => signNote('text\ttab\n', KEY.privateKey, ORIGIN)).toThrow(/control character U\+0009/);
    expect(() => signNote('no final newline', KEY.privateKey, ORIGIN)).toThrow(/does not end with a newline/);
    for (const name of ['', 'with space', 'plus+sign', 'tab\tname']) expect(() => signNote('text\n', KEY.privateKey, name), JSON.stringify(name)).toThrow(/is not a key name/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect(() => signNote('text\n', ec, ORIGIN)).toThrow(/not Ed25519/);
    // The same text under a good name signs and opens.
    expect(openNote(signNote('text\n', KEY.privateKey, ORIGIN), verifierOf(VKEY))).toEqual({ ok: true, text: 'text\n' });
  });

  it('signs as a checkpoint only what parses as one', () => {
    expect(() => signCheckpoint('just a note\n', KEY.privateKey, ORIGIN)).toThrow(/the checkpoint has 1 lines/);
    expect(() => signCheckpoint(`${ORIGIN}\n1\n${root64}\n\n`, KEY.privateKey, ORIGIN)).toThrow(/extension line 1 is empty/);
  });

  it('writes no verifier key for a name that is no key name, or a public key of the wrong size', () => {
    expect(() => formatVerifierKey('a b', KEY.publicKey)).toThrow(RangeError);
    expect(() => formatVerifierKey(ORIGIN, KEY.publicKey.subarray(1))).toThrow(/32 bytes, not 31/);
    expect(() => formatVerifierKey(ORIGIN, Uint8Array.of(...KEY.publicKey, 0))).toThrow(/32 bytes, not 33/);
  });
});

describe('opening a note, at the edges of the format', () => {
  const verifier = verifierOf(VKEY);

  it('refuses, never throws, when the verifier it is handed holds a key that is not 32 bytes', () => {
    expect(openNote(SIGNED, verifier).ok).toBe(true);
    for (const publicKey of [verifier.publicKey.subarray(1), Uint8Array.of(...verifier.publicKey, 0)]) {
      expect(reasonOf(openNote(SIGNED, { ...verifier, publicKey }))).toMatch(/signature/);
    }
  });
  const signatureLine = SIGNED.split('\n\n')[1]!;
  const otherLine = signNote(BODY, generateNoteKey().privateKey, 'witness.example').split('\n\n')[1]!;

  it('accepts exactly 100 signature lines and refuses 101', () => {
    const withLines = (count: number) => `${BODY}\n${signatureLine}${otherLine.repeat(count - 1)}`;
    expect(openNote(withLines(100), verifier)).toEqual({ ok: true, text: BODY });
    expect(reasonOf(openNote(withLines(101), verifier))).toBe('the note has 101 signatures, more than 100');
  });

  it('refuses an empty first extension line, at its number', () => {
    expect(reasonOf(parseCheckpoint(`${ORIGIN}\n1\n${Buffer.from(ROOT).toString('base64')}\n\nmore\n`))).toBe("the checkpoint's extension line 1 is empty");
  });

  it('keeps a byte-order mark as part of the text, so a note that gained one no longer opens', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SIGNED, 'utf8')]);
    expect(reasonOf(openNote(new Uint8Array(bytes), verifier))).toBe(`the signature by ${ORIGIN}+${VKEY.split('+')[1]} (signature line 1) does not verify over the note text`);
    expect(openNote(new Uint8Array(Buffer.from(SIGNED, 'utf8')), verifier).ok).toBe(true);
  });

  it('refuses a signature line whose key name is no key name, even beside a good signature', () => {
    for (const [label, line] of [
      ['a plus sign', `\u2014 bad+name ${signatureLine.split(' ')[2]}`],
      ['no em dash', `- ${ORIGIN} ${signatureLine.split(' ')[2]}`],
      // Base64 of its own, so that read as a name and a signature it would pass for another key's.
      ['no space after the name', `\u2014 AAAAAAAA\n`],
      ['a short signature', `\u2014 ${ORIGIN} AAAA\n`],
    ] as const) {
      const note = `${BODY}\n${signatureLine}${line.endsWith('\n') ? line : `${line}`}`;
      expect(openNote(note, verifier).ok, label).toBe(false);
    }
    expect(reasonOf(openNote(`${BODY}\n${signatureLine}\u2014 bad+name AAAAAAAA\n`, verifier))).toBe("signature line 2 names 'bad+name', which is not a key name");
  });

  it("ignores another key's signature of 5 bytes (a key ID and one byte) and refuses one of 4", () => {
    expect(openNote(`${BODY}\n${signatureLine}\u2014 witness.example AAAAAAA=\n`, verifier)).toEqual({ ok: true, text: BODY });
    expect(reasonOf(openNote(`${BODY}\n${signatureLine}\u2014 witness.example AAAAAA==\n`, verifier))).toMatch(/^signature line 2 \(witness.example\) does not carry standard base64/);
  });

  it('opens a note whose text is one empty line, its blank line then the first of the note', () => {
    expect(openNote(signNote('\n', KEY.privateKey, ORIGIN), verifier)).toEqual({ ok: true, text: '\n' });
  });

  it('takes a surrogate pair as the character it spells, and refuses a lone surrogate anywhere', () => {
    const text = 'receipt \u{1F9FE} of a paid turn\n';
    expect(openNote(signNote(text, KEY.privateKey, ORIGIN), verifier)).toEqual({ ok: true, text });
    for (const lone of ['\uDC00 first', 'a\uDC00 after a letter', 'a\uD83D before a letter', 'at the end \uD83D']) {
      expect(() => signNote(`${lone}\n`, KEY.privateKey, ORIGIN), JSON.stringify(lone)).toThrow(/not valid UTF-8/);
      expect(isValidKeyName(`name${lone.replace(/ /g, '')}`), JSON.stringify(lone)).toBe(false);
    }
    expect(isValidKeyName('name\u{1F9FE}')).toBe(true);
  });
});

describe('verifier key text', () => {
  const [name, id, key64] = VKEY.split('+') as [string, string, string];

  it('reads the key ID only as exactly 8 lowercase hexadecimal digits', () => {
    expect(parseVerifierKeyText(VKEY).ok).toBe(true);
    for (const idHex of [`x${id}`, `${id}x`, `0${id}`, id.slice(1), id.toUpperCase().replace(/^[0-9]*/, 'A')]) {
      expect(reasonOf(parseVerifierKeyText(`${name}+${idHex}+${key64}`)), idHex).toMatch(/^key ID '.*' is not 8 lowercase hexadecimal digits$/);
    }
  });

  it('needs two plus signs, the key itself may hold more', () => {
    expect(reasonOf(parseVerifierKeyText(name))).toMatch(/fewer than two plus signs/);
    expect(reasonOf(parseVerifierKeyText(`${name}+${id}`))).toMatch(/fewer than two plus signs/);
    const plusKey = `A${'+'.repeat(43)}`;
    expect(reasonOf(parseVerifierKeyText(`${name}+${id}+${plusKey}`))).toMatch(/^the key is of signature type 0x03/);
  });

  it('says an empty key is no base64 key, not a key of some signature type', () => {
    expect(reasonOf(parseVerifierKeyText(`${name}+${id}+`))).toBe("the key '' is not standard base64");
  });
});

describe('a note signed by the log key that is not a checkpoint', () => {
  it('is refused by openCheckpoint as a checkpoint, not opened and not thrown on', () => {
    const note = signNote('not a checkpoint\n', KEY.privateKey, ORIGIN);
    expect(openNote(note, verifierOf(VKEY)).ok).toBe(true);
    const opened = openCheckpoint(note, VKEY, ORIGIN);
    expect(opened.ok).toBe(false);
    expect(reasonOf(opened)).toMatch(/checkpoint/);
  });
});

describe('a checkpoint of the log\'s own key, under its origin or another (the site moved)', () => {
  const OLD = 'old.example/api/transparency/receipts';
  const signedUnder = (origin: string, key = KEY) => signCheckpoint(formatCheckpoint({ origin, size: 3, root: leafHash(new Uint8Array([3])) }), key.privateKey, origin);

  it('opens one signed under the origin as openCheckpoint does, and one the same key signed under another, naming it', () => {
    const here = openOwnCheckpoint(signedUnder(ORIGIN), KEY.publicKey, ORIGIN);
    expect(here).toMatchObject({ ok: true, checkpoint: { origin: ORIGIN, size: 3 } });
    expect(here.ok && here.otherOrigin).toBeUndefined();
    expect(openOwnCheckpoint(signedUnder(OLD), KEY.publicKey, ORIGIN)).toMatchObject({ ok: true, otherOrigin: OLD, checkpoint: { origin: OLD, size: 3 } });
  });

  it('refuses another key under either origin, with the reason for its own origin', () => {
    const stranger = generateNoteKey();
    for (const origin of [ORIGIN, OLD]) {
      const refused = openOwnCheckpoint(signedUnder(origin, stranger), KEY.publicKey, ORIGIN);
      expect(refused.ok, origin).toBe(false);
      expect(reasonOf(refused)).toContain(`no signature by ${ORIGIN}+`);
    }
    // A note signed by the key under one name but claiming another origin in its text opens under neither.
    const lying = signCheckpoint(formatCheckpoint({ origin: OLD, size: 3, root: leafHash(new Uint8Array([3])) }), KEY.privateKey, 'third.example/log');
    expect(openOwnCheckpoint(lying, KEY.publicKey, ORIGIN).ok).toBe(false);
    // A note whose first line is no key name is refused, not thrown on (it can name no verifier key).
    for (const first of ['not a name', 'a+b', '']) {
      const odd = signNote(`${first}\n3\n${Buffer.from(leafHash(new Uint8Array([3]))).toString('base64')}\n`, KEY.privateKey, ORIGIN);
      expect(openOwnCheckpoint(odd, KEY.publicKey, ORIGIN).ok, JSON.stringify(first)).toBe(false);
    }
  });
});
