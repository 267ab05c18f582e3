/**
 * The spec 1.1 envelope for the few answers the gateway gives itself. The gateway has no database and
 * stays light, so it keeps these codes here instead of loading @csp/service-kit; the messages match
 * service-kit's ERRORS table.
 */
export declare const GATEWAY_ERRORS: {
    readonly BAD_REQUEST: {
        readonly code: "E400";
        readonly status: 400;
        readonly message: "Bad request";
    };
    readonly UNAUTHORIZED: {
        readonly code: "E401";
        readonly status: 401;
        readonly message: "Authentication is required";
    };
    readonly NOT_FOUND: {
        readonly code: "E404";
        readonly status: 404;
        readonly message: "Resource not found";
    };
    readonly INTERNAL_ERROR: {
        readonly code: "E500";
        readonly status: 500;
        readonly message: "Internal server error";
    };
};
export type GatewayErrorName = keyof typeof GATEWAY_ERRORS;
export interface Envelope<T = unknown> {
    success: boolean;
    code: string;
    message: string;
    data?: T;
    timestamp: string;
}
export declare function ok<T>(data: T): Envelope<T>;
export declare function failure(name: GatewayErrorName, message?: string): Envelope<never>;
