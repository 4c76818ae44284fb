/** The header badge: exact up to 99, then "99+"; the accessible name always has the exact count. */
export const badgeText = (unread: number): string => (unread > 99 ? '99+' : String(unread));
