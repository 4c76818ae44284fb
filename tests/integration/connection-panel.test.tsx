import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { statusBoard } from '../../src/app/connection-status.ts';
import { ConnectionStatus } from '../../src/features/pwa/ConnectionStatus.tsx';
import type { MonitorStatus } from '../../src/monitor/monitor-status.ts';

const SET_ASIDE =
  'Testnet node sent a negative balance for ST3TBR…J7X4 ($.balance: expected an amount of at least 0, got "-5000"): set aside, the last one read stands.';

const live: MonitorStatus = {
  node: 'Testnet node',
  feed: 'live',
  connectedOnce: true,
  lastEventAt: null,
  tip: null,
  syncing: false,
  problem: null,
};

afterEach(() => statusBoard.receive('testnet', null));

describe('the connection panel', () => {
  it('says what the node sent that the app set aside (a negative balance), the connection live', async () => {
    render(<ConnectionStatus />);
    act(() => statusBoard.receive('testnet', { ...live, setAside: SET_ASIDE }));
    const button = screen.getByRole('button', { name: /^Connection:/ });
    const word = () => button.querySelector('.connection-word')?.textContent;
    expect(word()).toBe('Live, with a problem');
    await userEvent.click(button);
    expect(screen.getByText(SET_ASIDE)).toBeTruthy();
    act(() => statusBoard.receive('testnet', { ...live, setAside: null }));
    expect(screen.queryByText(SET_ASIDE)).toBeNull();
    expect(word()).toBe('Live');
  });
});
