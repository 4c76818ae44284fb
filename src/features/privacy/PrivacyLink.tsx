import type { ReactNode } from 'react';
import { navigate } from '../../app/router.ts';

export const PRIVACY_PATH = '/privacy';

/** A link to "Who knows what", followed inside the app. */
export function PrivacyLink({ children = 'Who knows what' }: { children?: ReactNode }) {
  return (
    <a
      href={PRIVACY_PATH}
      onClick={(event) => {
        event.preventDefault();
        navigate(PRIVACY_PATH);
      }}
    >
      {children}
    </a>
  );
}
