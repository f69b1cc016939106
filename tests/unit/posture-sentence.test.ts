/**
 * The sentence a descriptor page opens with (src/components/posture-sentence.ts): it reads the
 * posture the body states, nested or spread at its top level and never a body's own `network`, and
 * says what it means from those values and the mainnet gate's blockers, so it changes with the data.
 */
import { describe, expect, it } from 'vitest';
import { postureOf, postureSentence } from '../../src/components/posture-sentence.ts';
import { MAINNET_BLOCKERS, POSTURE } from '../../src/descriptors/common.ts';

describe('postureOf', () => {
  it('reads the posture object, or the same fields spread at the top level', () => {
    expect(postureOf({ type: 'x', posture: POSTURE })).toEqual({ mainnet_ready: false, network: 'ergo_testnet', production_custody: false });
    expect(postureOf({ network: 'ergo_testnet', mainnet_ready: false })).toEqual({ mainnet_ready: false, network: 'ergo_testnet' });
  });

  it('finds none in a body that states no mainnet readiness, even with a network of its own', () => {
    expect(postureOf({ network: 'testnet', expiry_height_limit: 720 })).toBeUndefined();
    expect(postureOf({ posture: 'testnet' })).toBeUndefined();
  });
});

describe('postureSentence', () => {
  it('says the closed gate waits for every blocker the gate names, and quotes each value', () => {
    const { headline, text } = postureSentence(postureOf({ posture: POSTURE })!);
    expect(headline).toBe('Mainnet: not ready');
    for (const { label } of MAINNET_BLOCKERS) expect(text).toContain(label.slice(1));
    expect(text).toContain('`mainnet_ready: false`');
    expect(text).toContain('acts on the Ergo testnet only (`network: ergo_testnet`)');
    expect(text).toContain('holds no production custody (`production_custody: false`)');
  });

  it('follows the data: other blockers, a ready service, custody held', () => {
    expect(postureSentence({ mainnet_ready: false }, [{ label: 'A signed review' }]).text).toBe('(`mainnet_ready: false`) — the mainnet gate is closed until these exist: a signed review.');
    const ready = postureSentence({ mainnet_ready: true, production_custody: true });
    expect(ready).toEqual({ headline: 'Mainnet: ready', text: '(`mainnet_ready: true`). It holds production custody (`production_custody: true`).' });
  });
});
