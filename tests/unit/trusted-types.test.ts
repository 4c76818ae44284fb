import { afterEach, describe, expect, it, vi } from 'vitest';
import { trustedServiceWorkerUrl } from '../../src/app/pwa/trusted-script-url.ts';
import { BASE_DIRECTIVES, contentSecurityPolicy } from '../../src/server/csp.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the Trusted Types policy', () => {
  it('that the page creates is the one the served policy allows, and the only one', () => {
    const created: string[] = [];
    vi.stubGlobal('trustedTypes', {
      createPolicy: (name: string, rules: { createScriptURL(url: string): string }) => {
        created.push(name);
        return rules;
      },
    });
    expect(trustedServiceWorkerUrl('/sw.js')).toBe('/sw.js');
    expect(created).toHaveLength(1);
    expect(BASE_DIRECTIVES).toContain(`trusted-types ${created[0]}`);
    expect(contentSecurityPolicy()).toContain(`; trusted-types ${created[0]};`);
  });
});
