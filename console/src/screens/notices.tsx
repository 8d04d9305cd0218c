// The account's notices (GET /api/2/accounts/{a}/notices, our extension): facts about how
// the service is run that the people of the account should know, today whether e-mail is
// delivered (for those who invite users). Each is a banner under the top bar, in the page's
// flow (a screen around the 3D view gives it its height, nothing is drawn over the view),
// dismissed for this tab's session (sessionStorage) per account and notice.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { AccountNotice } from '../types.ts';
import { Icon, IconButton, useLoad } from '../ui.tsx';

const DISMISSED = 'scanbase.console.notices.dismissed';

function dismissedNow(): Set<string> {
  try {
    const v: unknown = JSON.parse(sessionStorage.getItem(DISMISSED) ?? '[]');
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set(); // not ours, or damaged: nothing dismissed
  }
}

/** The notice's text: `code` spans (a command, a setting) as code. */
function Message(props: { text: string }) {
  return (
    <>
      {props.text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}
    </>
  );
}

/**
 * The notices of the account for the signed-in user (none for those they do not concern:
 * the service decides). A failed load shows nothing here: the screen below shows the
 * account's own error.
 */
export function AccountNotices(props: { accountId: string; compact?: boolean }) {
  const [open, setOpen] = useState<string | null>(null);
  const url = apiPath`/api/2/accounts/${props.accountId}/notices`;
  const notices = useLoad(() => api<AccountNotice[]>('GET', url), String(url));
  const [dismissed, setDismissed] = useState(dismissedNow);
  const key = (n: AccountNotice) => `${props.accountId}/${n.code}`;
  const shown = (notices.data ?? []).filter((n) => !dismissed.has(key(n)));
  if (!shown.length) return null;
  const dismiss = (n: AccountNotice) => {
    const next = new Set(dismissedNow()).add(key(n));
    sessionStorage.setItem(DISMISSED, JSON.stringify([...next]));
    setDismissed(next);
  };
  return (
    <>
      {shown.map((n) => {
        // Beside the 3D view a notice takes one line until opened: the view keeps its height.
        const oneLine = props.compact && open !== n.code;
        return (
          <section key={n.code} class={`banner notice ${n.severity}${oneLine ? ' one-line' : ''}`} aria-label={`Notice: ${n.title}`} data-notice={n.code}>
            <Icon name={n.severity === 'warning' ? 'warning' : 'info'} />
            <p id={`notice-${n.code}`}>
              <strong>{n.title}.</strong> <Message text={n.message} />
            </p>
            {props.compact ? (
              <button type="button" class="link" aria-expanded={!oneLine} aria-controls={`notice-${n.code}`} onClick={() => setOpen(oneLine ? n.code : null)}>
                {oneLine ? 'More' : 'Less'}
              </button>
            ) : null}
            <IconButton icon="close" label={`Dismiss the notice “${n.title}” for this session`} onClick={() => dismiss(n)} />
          </section>
        );
      })}
    </>
  );
}
