/**
 * What a failed write to the device's storage means, in the user's words. Browsers report the cases by the
 * DOMException's name: a full quota, storage turned off (private modes, site settings), the database closed under
 * the page (site data cleared, another version opening it), a newer version's database.
 */
export function describeStorageError(error: unknown): string {
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  const message = error instanceof Error ? error.message : String(error);
  switch (name) {
    case 'QuotaExceededError':
      return 'this device has no storage space left for the app';
    case 'InvalidStateError':
      return 'the storage was closed while the app was open (site data cleared, or a newer version of the app opened it)';
    case 'VersionError':
      return 'a newer version of Stacks Watch, opened in another tab, has changed how it stores data; reload this tab to use it';
    case 'SecurityError':
    case 'NotAllowedError':
      return 'the browser does not let the app store anything here (private browsing or site settings)';
    default:
      return message || 'the browser refused to store it';
  }
}
