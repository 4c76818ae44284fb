/**
 * What one client's realtime connection sends, `lagMs()` late and in the order it was sent: a socket that trails the
 * REST answers (a busy page, a node whose events follow its database). With no lag and nothing waiting, at once.
 */
export function laggingSender(lagMs: () => number): (send: () => void) => void {
  const waiting: { dueAt: number; send: () => void }[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const pump = () => {
    timer = null;
    while (waiting.length > 0 && waiting[0]!.dueAt <= Date.now()) waiting.shift()!.send();
    if (waiting.length > 0) timer = setTimeout(pump, waiting[0]!.dueAt - Date.now());
  };
  return (send) => {
    const lag = lagMs();
    if (lag <= 0 && waiting.length === 0) return send();
    // Never before what was sent earlier, whatever the lag was then.
    waiting.push({ dueAt: Math.max(Date.now() + lag, waiting.at(-1)?.dueAt ?? 0), send });
    timer ??= setTimeout(pump, Math.max(0, waiting[0]!.dueAt - Date.now()));
  };
}
