import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { c32address } from 'c32check';
import { createStore } from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { NameBook } from '../../src/store/name-book.ts';
import { TYPING_PAUSE_MS } from '../../src/features/watchlist/AddAddressForm.tsx';
import { serialiseWatchlist } from '../../src/domain/watch/watchlist-file.ts';
import { addAddress, openAddSheet, openRowActions } from './home-actions.ts';
import { renderApp } from './render-app.tsx';

const MAINNET = c32address(22, 'a46ff88886c2ef9762d970b4d2c63678835bd39d');
const TESTNET = c32address(26, 'c1'.repeat(20));
const TYPO = `${MAINNET.slice(0, 30)}${MAINNET[30] === 'X' ? 'Y' : 'X'}${MAINNET.slice(31)}`;

/** Steps run with the page's timers in the test's hand (the typing pause counted exactly), real ones after. */
function withTypingClock(steps: () => void): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    steps();
  } finally {
    vi.useRealTimers();
  }
}

const rows = () => within(screen.getByRole('list')).getAllByRole('listitem');
const goTo = async (user: Awaited<ReturnType<typeof renderApp>>['user'], name: string) =>
  user.click(screen.getByRole('link', { name }));

describe('adding an address', () => {
  it('shows a pasted mainnet address as mainnet single-sig, in canonical form', async () => {
    const { user } = await renderApp();
    await openAddSheet(user);
    await user.click(screen.getByLabelText(/Address/));
    await user.paste(`  ${MAINNET.toLowerCase()} `);
    expect(screen.getByText('Mainnet · single-sig')).toBeDefined();
    expect(screen.getByText(MAINNET)).toBeDefined();
  });

  it('saves a lowercase paste in capitals and says so, in the form and once added, keeping what was typed', async () => {
    const { user, controller } = await renderApp();
    await openAddSheet(user);
    const typed = `  ${TESTNET.slice(0, 12).toLowerCase()}${TESTNET.slice(12)}`;
    await user.click(screen.getByLabelText(/Address/));
    await user.paste(typed);
    // Before Watch, in the form's status area: what will be saved, and why it reads otherwise.
    const saves = `Watch saves it as ${TESTNET} — Stacks addresses are written in capitals.`;
    expect(document.querySelector('.add-form .respelled')?.textContent).toBe(saves);
    // The field keeps what was typed: nothing rewrites it under the user's cursor.
    expect(screen.getByLabelText(/Address/)).toHaveProperty('value', typed);
    await user.type(screen.getByLabelText(/Label/), 'Savings{Enter}');
    expect(controller.getState()).toMatchObject({ entries: [{ principal: TESTNET, label: 'Savings' }] });
    // Once added, said where the sheet was opened, on screen and to a screen reader.
    const note = screen.getByText(
      `Now watching Savings. Saved as ${TESTNET.slice(0, 6)}\u2060…\u2060${TESTNET.slice(-4)} — Stacks addresses are written in capitals.`,
    );
    expect(note.getAttribute('role')).toBe('status');
    expect(note.className).not.toContain('visually-hidden');
    // Typed as it is written, the addition is only spoken (the new row shows it).
    await openAddSheet(user);
    expect(screen.queryByText(/Saved as/)).toBeNull();
    await user.type(screen.getByLabelText(/Address/), MAINNET);
    expect(document.querySelector('.add-form .respelled')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Watch' }));
    expect(screen.getByText(`Now watching ${MAINNET}.`).className).toContain('visually-hidden');
  });

  it('a one-character typo gets the checksum message in an alert, and nothing is added', async () => {
    const { user } = await renderApp();
    await openAddSheet(user);
    await user.type(screen.getByLabelText(/Address/), TYPO);
    await user.click(screen.getByRole('button', { name: 'Watch' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'The checksum does not match: check the characters, one is probably mistyped.',
    );
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.getByLabelText(/Address/)).toHaveProperty('value', TYPO);
  });

  it('says what is wrong only after a pause in typing, never while the keys keep coming', async () => {
    const { user } = await renderApp();
    await openAddSheet(user);
    const field = screen.getByLabelText(/Address/);
    withTypingClock(() => {
      // A slow typist: each key a little before the pause would be over. Every prefix is a wrong address.
      for (let typed = 1; typed <= TYPO.length; typed++) {
        fireEvent.change(field, { target: { value: TYPO.slice(0, typed) } });
        act(() => vi.advanceTimersByTime(TYPING_PAUSE_MS - 100));
        expect(screen.queryByRole('alert')).toBeNull();
      }
      act(() => vi.advanceTimersByTime(100));
      expect(screen.getByRole('alert').textContent).toBe(
        'The checksum does not match: check the characters, one is probably mistyped.',
      );
    });
  });

  it('watches an address with its label, closes the sheet and opens it empty for the next one', async () => {
    const { user, controller } = await renderApp();
    await openAddSheet(user);
    await user.type(screen.getByLabelText(/Address/), MAINNET);
    await user.type(screen.getByLabelText(/Label/), 'Treasury');
    await user.click(screen.getByRole('button', { name: 'Watch' }));
    const [row] = rows();
    expect(row?.textContent).toContain('Treasury');
    expect(row?.textContent).toContain(MAINNET);
    expect(screen.queryByLabelText(/Address/)).toBeNull();
    expect(screen.getByText('Now watching Treasury.')).toBeDefined();
    await openAddSheet(user);
    expect(screen.getByLabelText(/Address/)).toHaveProperty('value', '');
    expect(screen.queryByText('Now watching Treasury.')).toBeNull();
    await controller.saved();
  });

  it('counts a long label near its limit and says when it is full, never cutting it without a word', async () => {
    const { user } = await renderApp();
    await openAddSheet(user);
    const field = screen.getByLabelText(/Label/);
    await user.type(field, 'x'.repeat(47));
    expect(screen.queryByText(/characters/)).toBeNull();
    await user.type(field, 'x');
    expect(screen.getByText('48 of 64 characters')).toBeDefined();
    // Typed past the limit: the field keeps 64, and says why the rest did not appear.
    await user.type(field, 'y'.repeat(23));
    expect(field).toHaveProperty('value', `${'x'.repeat(48)}${'y'.repeat(16)}`);
    expect(screen.getByText('64 characters at most: the label is full.')).toBeDefined();
    expect(field.getAttribute('aria-describedby')).toBe(screen.getByText(/the label is full/).id);
  });

  it('counts emoji as the limit does, one character each, and takes them up to the limit, not to half of it', async () => {
    const { user, controller } = await renderApp();
    await openAddSheet(user);
    const field = screen.getByLabelText(/Label/);
    await user.click(field);
    await user.paste('🐋'.repeat(60));
    expect(screen.getByText('60 of 64 characters')).toBeDefined();
    await user.paste('🐋'.repeat(10));
    expect(field).toHaveProperty('value', '🐋'.repeat(64));
    expect(screen.getByText('64 characters at most: the label is full.')).toBeDefined();
    await user.type(screen.getByLabelText(/Address/), MAINNET);
    await user.click(screen.getByRole('button', { name: 'Watch' }));
    expect(rows()[0]?.textContent).toContain('🐋'.repeat(64));
    await controller.saved();
  });

  it('ignores spaces anywhere in a pasted address, as wallets show it in groups of four', async () => {
    const { user } = await renderApp();
    await openAddSheet(user);
    await user.click(screen.getByLabelText(/Address/));
    await user.paste(MAINNET.match(/.{1,4}/g)!.join(' '));
    expect(screen.getByText(MAINNET)).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Watch' }));
    expect(rows()[0]?.textContent).toContain(MAINNET);
  });

  it('clears an error as soon as the address is edited', async () => {
    const { user } = await renderApp();
    await openAddSheet(user);
    await user.type(screen.getByLabelText(/Address/), `${TYPO}{Enter}`);
    expect(screen.getByRole('alert')).toBeDefined();
    await user.type(screen.getByLabelText(/Address/), '{Backspace}');
    expect(screen.queryByText(/checksum does not match/)).toBeNull();
  });

  it('refuses an address of the other network than the one chosen', async () => {
    const { user } = await renderApp();
    await openAddSheet(user);
    await user.selectOptions(screen.getByLabelText('Network'), 'mainnet');
    await user.type(screen.getByLabelText(/Address/), `${TESTNET}{Enter}`);
    expect(screen.getByRole('alert').textContent).toMatch(/This is a testnet address, but Mainnet is selected/);
  });

  it('says which entry already has a duplicate', async () => {
    const { user } = await renderApp();
    await addAddress(user, MAINNET, 'Cold wallet');
    await openAddSheet(user);
    await user.type(screen.getByLabelText(/Address/), `${MAINNET.toLowerCase()}{Enter}`);
    expect(screen.getByRole('alert').textContent).toBe(
      'You already watch this address: it is “Cold wallet”, number 1 in your list.',
    );
    expect(rows()).toHaveLength(1);
  });

  it('names a duplicate with no label by the BNS name learned for it, as its row does, before and after Watch', async () => {
    let names: NameBook | undefined;
    const { user } = await renderApp('/', undefined, () => {
      names = new NameBook(createStore('stacks-watch:names:duplicate', 'names'));
      return { names };
    });
    await addAddress(user, MAINNET, '');
    await act(() => names!.add(MAINNET, 'cold.btc'));
    await openAddSheet(user);
    await user.type(screen.getByLabelText(/Address/), `${MAINNET.toLowerCase()}{Enter}`);
    expect(screen.getByRole('alert').textContent).toBe(
      'You already watch this address: it is “cold.btc”, number 1 in your list.',
    );
    expect(rows()).toHaveLength(1);
  });

  it('says an address is already watched after a pause in typing, before any Watch', async () => {
    const { user } = await renderApp();
    await addAddress(user, MAINNET, 'Cold wallet');
    await openAddSheet(user);
    const field = screen.getByLabelText(/Address/);
    withTypingClock(() => {
      fireEvent.change(field, { target: { value: MAINNET.toLowerCase() } });
      act(() => vi.advanceTimersByTime(TYPING_PAUSE_MS - 100));
      expect(screen.queryByRole('alert')).toBeNull();
      act(() => vi.advanceTimersByTime(100));
      expect(screen.getByRole('alert').textContent).toBe(
        'You already watch this address: it is “Cold wallet”, number 1 in your list.',
      );
    });
  });
});

describe('managing the list', () => {
  async function withTwo() {
    const app = await renderApp();
    await addAddress(app.user, MAINNET, 'Main');
    await addAddress(app.user, TESTNET, 'Test');
    return app;
  }

  it('renames with the keyboard', async () => {
    const { user } = await withTwo();
    await openRowActions(user, 'Main');
    await user.click(screen.getByRole('button', { name: 'Rename Main' }));
    const input = await screen.findByLabelText(`New label for ${MAINNET}`);
    await user.clear(input);
    await user.type(input, 'Cold storage{Enter}');
    expect(rows()[1]?.textContent).toContain('Cold storage');
  });

  it('removes with undo, back in the same place', async () => {
    const { user } = await withTwo();
    expect(rows().map((row) => row.textContent)).toEqual([
      expect.stringContaining('Test'),
      expect.stringContaining('Main'),
    ]);
    await openRowActions(user, 'Test');
    await user.click(screen.getByRole('button', { name: 'Remove Test' }));
    expect(rows()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(rows().map((row) => row.textContent)).toEqual([
      expect.stringContaining('Test'),
      expect.stringContaining('Main'),
    ]);
  });

  it('reorders, and the order survives a reload', async () => {
    const { user, controller, db, unmount } = await withTwo();
    await openRowActions(user, 'Main');
    await user.click(screen.getByRole('button', { name: 'Move Main up' }));
    expect(rows()[0]?.textContent).toContain('Main');
    // At the top its Up is marked unavailable (not disabled: it keeps the focus), and pressing it moves nothing.
    const up = screen.getByRole('button', { name: 'Move Main up' });
    expect(up.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(up);
    await user.click(up);
    expect(rows()[0]?.textContent).toContain('Main');
    await controller.saved();
    unmount();
    await renderApp('/', db);
    expect(rows().map((row) => row.textContent)).toEqual([
      expect.stringContaining('Main'),
      expect.stringContaining('Test'),
    ]);
  });

  it('imports a file: a bad one changes nothing and says why; a good one merges', async () => {
    const { user } = await withTwo();
    await goTo(user, 'Settings');
    const input = await screen.findByLabelText('Import…');
    await user.upload(input, new File(['{"entries": 3'], 'broken.json', { type: 'application/json' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/not valid JSON/));

    const third = c32address(21, 'd4'.repeat(20));
    const file = serialiseWatchlist(
      [
        { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: 'Dup', addedAt: 1 },
        { principal: third, network: 'testnet', kind: 'multi-sig', label: 'Multisig', addedAt: 2 },
      ],
      {},
      0,
    );
    await user.upload(input, new File([file], 'export.json', { type: 'application/json' }));
    await waitFor(() =>
      expect(
        screen.getByText(
          'Imported 1 address; Main kept as on this device (the other list gives another label or other rules).',
        ),
      ).toBeDefined(),
    );
    await goTo(user, 'Stacks Watch');
    expect(rows().map((row) => row.textContent)).toEqual([
      expect.stringContaining('Test'),
      expect.stringContaining('Main'),
      expect.stringContaining('Multisig'),
    ]);
  });

  it('renders and works with 1,000 addresses', async () => {
    const { user } = await renderApp('/settings');
    const many = Array.from({ length: 1000 }, (_, n) =>
      c32address(n % 2 ? 22 : 26, `f${n.toString(16).padStart(39, '0')}`),
    );
    await user.upload(await screen.findByLabelText('Import…'), new File([JSON.stringify(many)], 'many.json'));
    // Generous waits: jsdom renders 1,000 rows in about a second alone, several on two busy cores.
    await screen.findByText('Imported 1000 addresses.', {}, { timeout: 10_000 });
    await goTo(user, 'Stacks Watch');
    const items = () => document.querySelectorAll('ul.watch-rows > li');
    await waitFor(() => expect(items()).toHaveLength(1000), { timeout: 10_000 });
    // Queried directly: jsdom's label and role queries crawl through the 2,000 controls of 1,000 rows.
    await user.click(document.querySelector<HTMLButtonElement>('.add-button')!);
    await user.type(document.querySelector<HTMLInputElement>('input[name="address"]')!, `${MAINNET}{Enter}`);
    expect(items()).toHaveLength(1001);
    expect(items()[0]?.textContent).toContain(MAINNET);
    expect(document.getElementById('watchlist-heading')?.textContent).toContain('1001');
    const search = document.querySelector<HTMLInputElement>('input[type="search"]')!;
    await user.type(search, MAINNET.slice(2, 10).toLowerCase());
    await waitFor(() => expect(items()).toHaveLength(1), { timeout: 10_000 });
  });
});

describe('the address page', () => {
  it('is reached from the list and shows the principal with its network and kind', async () => {
    const { user } = await renderApp();
    await addAddress(user, MAINNET, 'Treasury');
    await user.click(screen.getByRole('link', { name: new RegExp(`^Treasury ${MAINNET}`) }));
    expect(window.location.pathname).toBe(`/address/${MAINNET}`);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Treasury');
    // The type in words, its exact encoding as a detail line.
    expect(screen.getByText('Standard (single-signature)')).toBeDefined();
    expect(screen.getByText('SP prefix · version byte 22')).toBeDefined();
  });

  it('canonicalises a lowercase URL', async () => {
    await renderApp(`/address/${MAINNET.toLowerCase()}`);
    await waitFor(() => expect(window.location.pathname).toBe(`/address/${MAINNET}`));
    expect(await screen.findByRole('button', { name: 'Watch' })).toBeDefined();
  });

  it('explains an invalid address in the URL', async () => {
    await renderApp(`/address/${TYPO}`);
    expect((await screen.findByRole('alert')).textContent).toMatch(/checksum does not match/);
  });
});
