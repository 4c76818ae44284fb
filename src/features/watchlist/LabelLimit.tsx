import { labelRoomText } from '../../domain/address/label-room.ts';

/**
 * How much of a label's room is used, once it nears the limit, counted as the limit is (an emoji is one character):
 * the field takes no more than the limit (keptLabelInput), and a user typing past it must see why the rest did not
 * appear (a new user's walk: a 71-character label was cut to 64 without a word).
 */
export function LabelLimit({ id, label }: { id: string; label: string }) {
  const text = labelRoomText(label);
  if (text === null) return null;
  return (
    <p id={id} className="note label-limit" aria-live="polite">
      {text}
    </p>
  );
}
