/**
 * The spec 1.1 envelope for the few answers the gateway gives itself. The gateway has no database and
 * stays light, so it keeps these codes here instead of loading @csp/service-kit; the messages match
 * service-kit's ERRORS table.
 */
export const GATEWAY_ERRORS = {
  BAD_REQUEST: { code: 'E400', status: 400, message: 'Bad request' },
  UNAUTHORIZED: { code: 'E401', status: 401, message: 'Authentication is required' },
  FORBIDDEN: { code: 'E403', status: 403, message: 'Access denied' },
  NOT_FOUND: { code: 'E404', status: 404, message: 'Resource not found' },
  INTERNAL_ERROR: { code: 'E500', status: 500, message: 'Internal server error' },
} as const;

export type GatewayErrorName = keyof typeof GATEWAY_ERRORS;

export interface Envelope<T = unknown> {
  success: boolean;
  code: string;
  message: string;
  data?: T;
  timestamp: string;
}

export function ok<T>(data: T): Envelope<T> {
  return { success: true, code: '0000', message: 'Success', data, timestamp: new Date().toISOString() };
}

export function failure(name: GatewayErrorName, message?: string): Envelope<never> {
  const entry = GATEWAY_ERRORS[name];
  return { success: false, code: entry.code, message: message ?? entry.message, timestamp: new Date().toISOString() };
}
