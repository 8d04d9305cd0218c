// Dialogs: the native <dialog> opened modal (focus kept inside, Escape closes, the page
// behind is inert), titled for assistive technology. `useConfirm` replaces window.confirm
// with one in the console's design (a named button instead of "OK").
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { Icon } from './icons.tsx';

export function Dialog(props: { open: boolean; title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} class={props.wide ? 'wide' : undefined} onClose={props.onClose} onCancel={props.onClose}>
      {props.open ? (
        <article>
          <header>
            <button type="button" class="icon-button close" aria-label="Close" onClick={props.onClose}>
              <Icon name="close" />
            </button>
            <h2 id={titleId}>{props.title}</h2>
          </header>
          {props.children}
        </article>
      ) : null}
    </dialog>
  );
}

/**
 * A dialog asking for a new name: one labelled input, Cancel and a submit button
 * (`save`, "Save name" unless told). `onSave` gets the trimmed name (never empty).
 */
export function RenameDialog(props: {
  open: boolean;
  title: string;
  label: string;
  id: string;
  value: string;
  onInput: (v: string) => void;
  onSave: (name: string) => void;
  onClose: () => void;
  busy?: boolean;
  save?: string;
}) {
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (props.value.trim()) props.onSave(props.value.trim());
        }}
      >
        <label for={props.id}>{props.label}</label>
        <input id={props.id} value={props.value} maxLength={255} onInput={(e) => props.onInput(e.currentTarget.value)} />
        <footer>
          <button type="button" class="secondary" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" aria-busy={props.busy ? 'true' : undefined}>
            {props.save ?? 'Save name'}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

interface Ask {
  title: string;
  body: string;
  action: string;
  resolve: (ok: boolean) => void;
}

/** [ask, element]: `await ask({title, body, action})` answers whether the action was chosen; render `element` once. */
export function useConfirm(): [(q: { title: string; body: string; action: string }) => Promise<boolean>, preact.JSX.Element] {
  const [asking, setAsking] = useState<Ask | null>(null);
  const ask = (q: { title: string; body: string; action: string }) => new Promise<boolean>((resolve) => setAsking({ ...q, resolve }));
  const answer = (ok: boolean) => {
    asking?.resolve(ok);
    setAsking(null);
  };
  const element = (
    <Dialog open={asking !== null} title={asking?.title ?? ''} onClose={() => answer(false)}>
      <p>{asking?.body}</p>
      <footer>
        <button type="button" class="secondary" onClick={() => answer(false)}>
          Cancel
        </button>
        <button type="button" class="danger-solid" onClick={() => answer(true)}>
          {asking?.action}
        </button>
      </footer>
    </Dialog>
  );
  return [ask, element];
}
