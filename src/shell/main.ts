import './styles.css';
import './controls.css';
import './layout.css';
import './floating.css';
import './screens.css';
import './shared.css';

/*
 * The page's entry: the styles every screen shares, then the app. The shell in index.html (header and a line of
 * text) paints first, without waiting for any script; React and the app (shell/boot.tsx), two chunks fetched from the
 * start through modulepreload links, run from the next frame, at once in a hidden tab, where frames wait until it is
 * shown. The first screen's own sheets come with the app's chunk, linked from the page all the same (vite.config.ts).
 */
let started = false;
function boot(): void {
  if (started) return;
  started = true;
  // React first, then the app in a task of its own: two shorter tasks on a slow phone rather than one long one.
  void import('react-dom/client')
    .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
    .then(() => import('./boot.tsx'))
    .catch((error: unknown) => {
      console.error('Stacks Watch could not start', error);
      const note = document.querySelector('#main .note');
      if (note) note.textContent = 'Stacks Watch could not load all its files. Reload the page to try again.';
    });
}
if (document.visibilityState === 'hidden') boot();
else {
  requestAnimationFrame(() => setTimeout(boot, 0));
  // Hidden before that frame, a tab would wait for it until shown: it starts at once instead.
  document.addEventListener('visibilitychange', boot, { once: true });
}
