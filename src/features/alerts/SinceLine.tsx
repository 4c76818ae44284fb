import { formatter } from '../../domain/text/time-text.ts';

/**
 * The line between what came since the user last looked at the inbox (above) and what they had seen (below), with
 * the time of that look: "New since you last looked, 10:42".
 */
export function SinceLine({ lookedAt }: { lookedAt: number | null }) {
  const at =
    lookedAt === null ? '' : `, ${formatter(undefined, { hour: '2-digit', minute: '2-digit' }).format(lookedAt)}`;
  return (
    <p className="inbox-since" role="separator">
      <span>
        New since you last looked{at} <span aria-hidden="true">↑</span>
      </span>
    </p>
  );
}
