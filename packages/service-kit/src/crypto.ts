import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-cbc';
const KEY_BYTES = 32;
const IV_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Field encryption at rest (spec 5.6): AES-256-CBC, random IV per value, base64(iv || ciphertext). */
export interface FieldCipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
  /** null/undefined pass through (nullable columns). */
  encryptNullable(plain: string | null | undefined): string | null;
  decryptNullable(stored: string | null | undefined): string | null;
}

export class CiphertextError extends Error {
  override name = 'CiphertextError';
}

/** The key is UTF-8; shorter than 32 bytes is padded with zero bytes, longer is refused. */
export function createFieldCipher(key: string | Buffer): FieldCipher {
  const raw = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  if (raw.length === 0 || raw.length > KEY_BYTES) {
    throw new Error(`ENCRYPT_KEY must be 1 to ${KEY_BYTES} bytes, got ${raw.length}`);
  }
  const keyBytes = Buffer.alloc(KEY_BYTES);
  raw.copy(keyBytes);

  const encrypt = (plain: string): string => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, keyBytes, iv);
    return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
  };

  const decrypt = (stored: string): string => {
    const notCiphertext = () =>
      new CiphertextError('Value is not a FieldCipher ciphertext (expected base64 of iv || AES-256-CBC data)');
    if (!BASE64.test(stored) || stored.length % 4 !== 0) throw notCiphertext();
    const bytes = Buffer.from(stored, 'base64');
    if (bytes.length < IV_BYTES * 2 || bytes.length % IV_BYTES !== 0) throw notCiphertext();
    try {
      const decipher = createDecipheriv(ALGORITHM, keyBytes, bytes.subarray(0, IV_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new CiphertextError('Value could not be decrypted: not a ciphertext of this key');
    }
  };

  return {
    encrypt,
    decrypt,
    encryptNullable: (plain) => (plain === null || plain === undefined ? null : encrypt(plain)),
    decryptNullable: (stored) => (stored === null || stored === undefined ? null : decrypt(stored)),
  };
}
