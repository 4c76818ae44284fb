import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { openAddSheet } from './home-actions.ts';
import { renderApp } from './render-app.tsx';

/** A browser with a barcode reader and a camera (Chrome on Android): what jsdom, like desktop Firefox, lacks. */
function offerScanning(): void {
  Object.defineProperty(window, 'BarcodeDetector', { value: class {}, configurable: true });
  Object.defineProperty(navigator, 'mediaDevices', {
    value: { getUserMedia: () => Promise.reject(new Error('no camera in tests')) },
    configurable: true,
  });
}

afterEach(() => {
  Reflect.deleteProperty(window, 'BarcodeDetector');
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

const emptyState = () => screen.getByText(/^Nothing watched yet/);

describe('an empty watch list', () => {
  it('does not mention scanning where the browser cannot scan', async () => {
    const { user } = await renderApp();
    expect(emptyState().textContent).toBe('Nothing watched yet. Add an address to start.');
    await openAddSheet(user);
    expect(screen.queryByRole('button', { name: /QR code/ })).toBeNull();
  });

  it('mentions scanning a QR code where the add sheet offers it', async () => {
    offerScanning();
    const { user } = await renderApp();
    expect(emptyState().textContent).toBe('Nothing watched yet. Add an address (or scan its QR code) to start.');
    await openAddSheet(user);
    expect(screen.getByRole('button', { name: 'Scan a QR code' })).toBeDefined();
  });
});
