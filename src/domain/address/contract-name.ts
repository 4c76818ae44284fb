/** Clarity contract names: a letter, then letters, digits, '-' or '_'; 1 to 40 characters. */
export const CONTRACT_NAME_MAX_LENGTH = 40;

export type ContractNameProblem =
  | { readonly problem: 'missing' }
  | { readonly problem: 'too-long'; readonly length: number }
  | { readonly problem: 'first-character'; readonly char: string }
  | { readonly problem: 'character'; readonly char: string; readonly position: number };

export function checkContractName(name: string): ContractNameProblem | null {
  if (name.length === 0) return { problem: 'missing' };
  const chars = [...name];
  if (chars.length > CONTRACT_NAME_MAX_LENGTH) return { problem: 'too-long', length: chars.length };
  const first = chars[0] ?? '';
  if (!/^[a-zA-Z]$/.test(first)) return { problem: 'first-character', char: first };
  const badIndex = chars.findIndex((char) => !/^[a-zA-Z0-9_-]$/.test(char));
  if (badIndex >= 0) return { problem: 'character', char: chars[badIndex] ?? '', position: badIndex + 1 };
  return null;
}
