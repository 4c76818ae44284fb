import { navigate } from '../../app/router.ts';
import { toasts, useToasts } from '../../app/toasts.ts';

/** Alerts while the app is in front, read out politely by screen readers. */
export function Toasts() {
  const shown = useToasts();
  return (
    <div className="toasts" role="status" aria-live="polite">
      {shown.map(({ key, content }) => (
        <div key={key} className="toast">
          <a
            href={content.data.path}
            onClick={(event) => {
              event.preventDefault();
              toasts.dismiss(key);
              navigate(content.data.path);
            }}
          >
            <strong>{content.title}</strong>
          </a>
          <span className="toast-body">{content.body}</span>
          <button type="button" aria-label={`Dismiss “${content.title}”`} onClick={() => toasts.dismiss(key)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
