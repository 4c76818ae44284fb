import { relayDataDir } from './pglite-template.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { deviceRegistration, readSubscription, relayWatches } from '../../src/domain/relay/relay-device.ts';
import type { RunningRelay } from '../../src/relay/relay.ts';
import type { tempDir } from './harness.ts';
import { call, random, relayInProcess } from './harness.ts';

/**
 * The relay's OpenAPI document, checked by an independent JSON Schema validator (Ajv, draft 2020-12 as OpenAPI 3.1
 * uses) against requests built by the app's own builder, and against requests the relay refuses for their shape.
 */
let devnet: RunningDevnet;
let relay: RunningRelay;
let dir: Awaited<ReturnType<typeof tempDir>>;
let document: Record<string, unknown>;

const browserSubscription = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/dXf3k',
  expirationTime: null,
  keys: {
    p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
  },
};

beforeAll(async () => {
  dir = await relayDataDir('relay-openapi-');
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  relay = await relayInProcess(devnet.url, dir.path, ['--rate', '1000']);
  const answer = await call(`${relay.url}/openapi.json`);
  expect(answer.status).toBe(200);
  document = answer.body as Record<string, unknown>;
});

afterAll(async () => {
  await relay?.close();
  await devnet?.close();
  await dir?.remove();
});

function requestValidator() {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  const components = document['components'] as { schemas: Record<string, object> };
  const put = (document['paths'] as Record<string, Record<string, Record<string, unknown>>>)['/v1/devices/{id}']![
    'put'
  ]!;
  const body = put['requestBody'] as { content: Record<string, { schema: { $ref: string } }> };
  const ref = body.content['application/json']!.schema.$ref;
  expect(ref).toMatch(/^#\/components\/schemas\//);
  return ajv.compile(components.schemas[ref.slice('#/components/schemas/'.length)]!);
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 describing the routes, with the device request schema', () => {
    expect(document['openapi']).toBe('3.1.0');
    expect(Object.keys(document['paths'] as object)).toEqual(
      expect.arrayContaining(['/v1/vapid-public-key', '/v1/devices/{id}', '/v1/devices/{id}/alerts', '/openapi.json']),
    );
    expect(JSON.stringify(document)).toContain('"maxItems":1000');
  });

  it("accepts what the app's own builder sends, and the relay registers it", async () => {
    const accounts = devnet.node.chain.accounts.all;
    const subscription = readSubscription(browserSubscription);
    const rules = { ...DEFAULT_RULES, pending: false, minimums: { STX: 2n ** 70n } };
    const watches = relayWatches(
      [
        { network: 'testnet', principal: accounts[0]!.address },
        { network: 'testnet', principal: `${accounts[1]!.address}.demo-vault` },
        { network: 'mainnet', principal: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7' },
      ],
      () => rules,
    );
    if (!subscription.ok || !watches.ok) throw new Error('the builder refused its own input');
    const built = deviceRegistration(subscription.value, watches.value);
    if (!built.ok) throw new Error(built.error);
    const validate = requestValidator();
    expect(validate(JSON.parse(JSON.stringify(built.value))), JSON.stringify(validate.errors)).toBe(true);
    const put = await call(`${relay.url}/v1/devices/${random(24)}`, {
      method: 'PUT',
      secret: random(43),
      body: built.value,
    });
    expect(put.status).toBe(201);
  });

  it.each([
    ['more than 1,000 watches', { watches: Array.from({ length: 1001 }, () => ({ network: 'testnet' })) }],
    ['an endpoint that is not a string', { subscription: { ...browserSubscription, endpoint: 5 } }],
    ['an unknown network', { watches: [{ network: 'devnet', principal: 'ST000000000000000000002AMW42H' }] }],
    [
      'an unknown alert rule',
      { watches: [{ network: 'testnet', principal: 'ST000000000000000000002AMW42H', rules: { loud: true } }] },
    ],
    [
      'a minimum that is a number',
      {
        watches: [{ network: 'testnet', principal: 'ST000000000000000000002AMW42H', rules: { minimums: { STX: 5 } } }],
      },
    ],
    ['no subscription keys', { subscription: { endpoint: browserSubscription.endpoint } }],
  ])('refuses %s, as the relay does', async (_what, change) => {
    const body = { subscription: browserSubscription, watches: [], ...change };
    expect(requestValidator()(body)).toBe(false);
    const put = await call(`${relay.url}/v1/devices/${random(24)}`, { method: 'PUT', secret: random(43), body });
    expect(put.status).toBe(400);
    expect(put.body?.['error']).toBe('invalid_device');
  });
});
