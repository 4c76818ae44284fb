import './styles.css';
import './controls.css';
import './layout.css';
import './floating.css';
import './screens.css';
import './watch-rows.css';

/*
 * The page's entry: the styles, then the app. The shell in index.html (header and a line of text) paints first,
 * without waiting for any script; the app (app/boot.tsx, fetched from the start through a modulepreload link) runs
 * from the next frame, at once in a hidden tab, where frames wait until it is shown.
 */
const boot = () => void import('./boot.tsx');
if (document.visibilityState === 'hidden') boot();
else requestAnimationFrame(() => setTimeout(boot, 0));
