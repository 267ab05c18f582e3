import { randomInt } from 'node:crypto';

export const PASSWORD_MIN_LENGTH = 8;
/** BCrypt only looks at the first 72 bytes; longer passwords would silently be cut. */
export const PASSWORD_MAX_LENGTH = 64;

/** The reason a password is refused, or undefined when it meets the policy (>= 8 chars, letters and digits). */
export function passwordPolicyViolation(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (Buffer.byteLength(password, 'utf8') > 72 || password.length > PASSWORD_MAX_LENGTH) {
    return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  }
  if (!/[A-Za-z]/.test(password) || !/[0-9]/.test(password)) return 'must contain letters and digits';
  return undefined;
}

const LETTERS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const ALPHABET = LETTERS + DIGITS;

/** A random 12-character password that always satisfies the policy (ambiguous characters left out). */
export function generateTemporaryPassword(length = 12): string {
  const chars = [LETTERS[randomInt(LETTERS.length)]!, DIGITS[randomInt(DIGITS.length)]!];
  while (chars.length < length) chars.push(ALPHABET[randomInt(ALPHABET.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
