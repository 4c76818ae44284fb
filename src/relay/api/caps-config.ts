import { DEFAULT_CAPS, type RegistrationCaps } from './caps.ts';

export type { RegistrationCaps } from './caps.ts';

const FLAGS: Record<keyof RegistrationCaps, string> = {
  devicesPerClientPerHour: '--max-devices-per-hour',
  devices: '--max-devices',
  principals: '--max-principals',
  newPrincipalsPerDevicePerHour: '--max-new-principals-per-hour',
  deviceMaxIdleDays: '--device-max-idle-days',
};

/** Each cap as given (flag or environment), else its default; a value that is not a positive whole number is refused. */
export function readCaps(given: Record<keyof RegistrationCaps, string | undefined>): RegistrationCaps {
  const read = (key: keyof RegistrationCaps): number => {
    const text = given[key];
    if (text === undefined) return DEFAULT_CAPS[key];
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${FLAGS[key]} must be a whole number of at least 1 (got "${text}")`);
    return value;
  };
  return {
    devicesPerClientPerHour: read('devicesPerClientPerHour'),
    devices: read('devices'),
    principals: read('principals'),
    newPrincipalsPerDevicePerHour: read('newPrincipalsPerDevicePerHour'),
    deviceMaxIdleDays: read('deviceMaxIdleDays'),
  };
}
