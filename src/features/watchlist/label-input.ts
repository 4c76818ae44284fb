import { fitLabelEdit } from '../../domain/address/label-room.ts';

/**
 * A label field's change, from what it held (`before`) to what its input holds now: the text to keep (fitLabelEdit).
 * When the edit was cut, the input is given that text and its cursor at once, so that React, finding its value
 * already there, leaves the cursor where the cut insertion ends rather than at the end of the field.
 */
export function keptLabelInput(before: string, input: HTMLInputElement): string {
  const { text, caret } = fitLabelEdit(before, input.value);
  if (caret !== null) {
    input.value = text;
    input.setSelectionRange(caret, caret);
  }
  return text;
}
