// The box part of the tag forms (new tag, a picked tag's box): the kind (axis-aligned or
// oriented) as radio buttons and one labelled number input per field (console/src/tag-box.ts).
import { Fragment } from 'preact';
import { labelsOf, type BoxKind } from '../tag-box.ts';

export function BoxFields(props: {
  /** Prefix of the inputs' ids and the radio group's name (one per form). */
  idPrefix: string;
  kind: BoxKind;
  numbers: readonly string[];
  disabled: boolean;
  onKind: (k: BoxKind) => void;
  onNumber: (i: number, value: string) => void;
}) {
  const labels = labelsOf(props.kind);
  return (
    <>
      <fieldset class="choice">
        <legend>Box</legend>
        {(['axis', 'oriented'] as const).map((k) => (
          <label key={k}>
            <input type="radio" name={`${props.idPrefix}-box`} value={k} checked={props.kind === k} disabled={props.disabled} onChange={() => props.onKind(k)} />{' '}
            {k === 'axis' ? 'Axis-aligned' : 'Oriented'}
          </label>
        ))}
      </fieldset>
      {labels.map((label, i) => (
        <Fragment key={`${props.kind}-${i}`}>
          <label for={`${props.idPrefix}-${props.kind}-${i}`}>{label}</label>
          <input
            id={`${props.idPrefix}-${props.kind}-${i}`}
            type="number"
            step="any"
            value={props.numbers[i]}
            disabled={props.disabled}
            onInput={(e) => props.onNumber(i, e.currentTarget.value)}
          />
        </Fragment>
      ))}
    </>
  );
}
