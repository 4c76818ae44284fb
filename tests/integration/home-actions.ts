import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** What a user does on the home screen, step by step, as the tests repeat it. */
export async function openAddSheet(user: UserEvent): Promise<void> {
  await user.click(screen.getByRole('button', { name: 'Add address' }));
  await screen.findByRole('heading', { name: 'Add to your watch list' });
}

export async function addAddress(user: UserEvent, address: string, label: string): Promise<void> {
  await openAddSheet(user);
  await user.type(screen.getByLabelText(/Address/), address);
  await user.type(screen.getByLabelText(/Label/), `${label}{Enter}`);
}

export async function openRowActions(user: UserEvent, name: string): Promise<void> {
  await user.click(screen.getByRole('button', { name: `Actions for ${name}` }));
}
