/**
 * Output masking (spec 5.6). null, undefined and '' pass through unchanged in every function.
 */
export type Maskable = string | null | undefined;

function passThrough(value: Maskable): value is null | undefined | '' {
  return value === null || value === undefined || value === '';
}

/**
 * Name: first and last character kept, the middle masked; two characters: first + '*'; one
 * character is kept. '홍길동' -> '홍*동', 'Kim' -> 'K*m', '남궁민수' -> '남**수', '이순' -> '이*'.
 */
export function maskName(name: string): string;
export function maskName(name: Maskable): Maskable;
export function maskName(name: Maskable): Maskable {
  if (passThrough(name)) return name;
  const chars = Array.from(name);
  if (chars.length === 1) return name;
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(chars.length - 2)}${chars[chars.length - 1]}`;
}

/**
 * Phone: only the digits count. 11 digits -> '010-****-5678' (3, masked 4, last 4);
 * 10 digits -> '02-****-5678' for Seoul numbers (starting '02'), otherwise '031-***-5678';
 * 9 digits or fewer -> unchanged as given ('02-123-4567'); more than 11 digits -> first 3, the
 * middle masked, last 4 ('821-*****-5678').
 */
export function maskPhone(phone: string): string;
export function maskPhone(phone: Maskable): Maskable;
export function maskPhone(phone: Maskable): Maskable {
  if (passThrough(phone)) return phone;
  const digits = phone.replace(/\D/g, '');
  const n = digits.length;
  if (n <= 9) return phone;
  const head = n === 10 && digits.startsWith('02') ? 2 : 3;
  return `${digits.slice(0, head)}-${'*'.repeat(n - head - 4)}-${digits.slice(n - 4)}`;
}

/**
 * Resident registration number: the first six digits (birth date) then '-*******':
 * '900101-1234567' -> '900101-*******'. Six digits or fewer reveal nothing more and come back as
 * their digits ('900101' -> '900101').
 */
export function maskResidentNo(residentNo: string): string;
export function maskResidentNo(residentNo: Maskable): Maskable;
export function maskResidentNo(residentNo: Maskable): Maskable {
  if (passThrough(residentNo)) return residentNo;
  const digits = residentNo.replace(/\D/g, '');
  return digits.length <= 6 ? digits : `${digits.slice(0, 6)}-*******`;
}

/**
 * Account number: the first group is kept (up to the first '-', or the first 3 characters when
 * there is no dash); every later character except '-' becomes '*':
 * '110-123-456789' -> '110-***-******', '1101234567' -> '110*******'.
 */
export function maskAccountNo(accountNo: string): string;
export function maskAccountNo(accountNo: Maskable): Maskable;
export function maskAccountNo(accountNo: Maskable): Maskable {
  if (passThrough(accountNo)) return accountNo;
  const dash = accountNo.indexOf('-');
  const keep = dash >= 0 ? dash : Math.min(3, accountNo.length);
  return accountNo.slice(0, keep) + accountNo.slice(keep).replace(/[^-]/g, '*');
}

/**
 * E-mail: first character + '***' + '@domain': 'hong@example.com' -> 'h***@example.com'.
 * No '@': first character + '***' ('hong' -> 'h***'); an empty local part: '***@example.com'.
 */
export function maskEmail(email: string): string;
export function maskEmail(email: Maskable): Maskable;
export function maskEmail(email: Maskable): Maskable {
  if (passThrough(email)) return email;
  const at = email.lastIndexOf('@');
  const local = at >= 0 ? email.slice(0, at) : email;
  const domain = at >= 0 ? email.slice(at) : '';
  return `${Array.from(local)[0] ?? ''}***${domain}`;
}
