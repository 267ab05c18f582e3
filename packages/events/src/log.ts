/** The logging the event runtime needs (a pino or Fastify logger fits). */
export interface LogLike {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLog: LogLike = { info() {}, warn() {}, error() {} };
