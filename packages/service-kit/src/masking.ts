// Masking rules live in @csp/domain (spec 5.6); services import them from the kit.
export { maskName, maskPhone, maskResidentNo, maskAccountNo, maskEmail } from '@csp/domain';
