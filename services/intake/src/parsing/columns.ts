/** Spreadsheet column letters: 0 -> 'A', 25 -> 'Z', 26 -> 'AA'. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** 'A' -> 0, 'AA' -> 26; undefined for anything but 1-3 capital letters. */
export function columnIndex(letters: string): number | undefined {
  if (!/^[A-Z]{1,3}$/.test(letters)) return undefined;
  let n = 0;
  for (let i = 0; i < letters.length; i++) n = n * 26 + (letters.charCodeAt(i) - 64);
  return n - 1;
}
