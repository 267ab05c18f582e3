import pino, { type DestinationStream, type Logger } from 'pino';

const SENSITIVE_FIELDS = ['password', 'oldPassword', 'newPassword', 'residentNo', 'accountNo', 'refreshToken', 'accessToken'];

/** Paths pino removes from every log line (headers, cookies, secrets and personal data). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...SENSITIVE_FIELDS,
  ...SENSITIVE_FIELDS.map((f) => `*.${f}`),
  ...SENSITIVE_FIELDS.map((f) => `*.*.${f}`),
];

export interface LoggerOptions {
  name: string;
  level?: string;
  /** Defaults to stdout; tests pass a stream to read what was logged. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      name: options.name,
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    },
    options.destination,
  );
}
