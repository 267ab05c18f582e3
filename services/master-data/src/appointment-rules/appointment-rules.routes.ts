import type { ServiceApp } from '@csp/service-kit';
import { registerRevisableRule } from '../common/revisable-rule-routes.js';
import { appointmentRuleResource, MENU_APPOINTMENT } from './appointment-rules.resource.js';

/** CRUD, export and POST|PUT /api/rules/appointment/{id}/revise (monthly amount and months). */
export async function registerAppointmentRuleRoutes(app: ServiceApp): Promise<void> {
  registerRevisableRule(
    app,
    appointmentRuleResource,
    { label: 'AppointmentRule', table: 'appointment_rule', idColumn: 'rule_id', menu: MENU_APPOINTMENT },
    { monthlyAmount: 'monthly_amount', months: 'months' },
  );
}
