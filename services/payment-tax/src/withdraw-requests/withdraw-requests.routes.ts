import { z } from 'zod';
import { createAdapters } from '@csp/adapters';
import { deliveryOf, hostEvents, loadEventSettings, ParkedEventStateError, replayParkedEvent } from '@csp/events';
import {
  action,
  AppError,
  envelope,
  forbidden,
  money,
  notFound,
  ok,
  ownAgentOnly,
  perm,
  readDb,
  registerResource,
  zId,
  type AuthUser,
  type ServiceApp,
} from '@csp/service-kit';
import { bankRetryLimit, loadBankRetrySettings, startBankRetrySchedule } from './bank-retry.js';
import {
  balanceQuery,
  balanceResp,
  createWithdrawBody,
  parkedEventResource,
  retryResp,
  tags,
  WITHDRAW_MENU,
  withdrawResource,
} from './withdraw-requests.resource.js';
import { WithdrawService } from './withdraw-requests.service.js';

function caller(user: AuthUser | undefined): AuthUser {
  if (!user) throw new AppError('UNAUTHORIZED');
  return user;
}

/** An AGENT-only user acts for its own agent only. */
function assertOwnAgent(user: AuthUser, agentId: number): void {
  const scope = ownAgentOnly(user);
  if (scope && scope.agentId !== agentId) throw forbidden(`Agent ${agentId} is not yours`);
}

/**
 * Withdraw requests (menu WITHDRAW), the bank retry (`/api/internal/bank-retry`) and the parked events of all
 * consumers (`/api/internal/events/parked`). The area hosts payment-tax's event runtime (relay + consumer of
 * WITHDRAW decisions) and, when APP_BANK_RETRY_CRON is set, the retry schedule.
 */
export async function withdrawRoutes(app: ServiceApp): Promise<void> {
  // a bad adapter selection refuses to start here (spec 6)
  const adapters = createAdapters({ db: app.db, logger: app.log });
  const retrySettings = loadBankRetrySettings();
  const eventSettings = loadEventSettings();
  const service = new WithdrawService({ db: app.db, cipher: app.cipher, bank: adapters.bank, logger: app.log });
  hostEvents(app, { consumer: service.consumer(), settings: eventSettings });
  const cron = retrySettings.cron;
  if (cron && eventSettings.enabled) {
    const stop = await startBankRetrySchedule({
      redisUrl: app.config.REDIS_URL,
      prefix: eventSettings.prefix,
      cron,
      retry: async () => service.retry(await bankRetryLimit(app.db, retrySettings)),
      logger: app.log,
    });
    app.addHook('onClose', stop);
  }

  app.get(
    '/api/withdraw-requests/balance',
    {
      config: perm(WITHDRAW_MENU, 'READ'),
      schema: { tags, summary: "An agent's balance for withdraw requests", querystring: balanceQuery, response: { 200: envelope(balanceResp) } },
    },
    async (request) => {
      assertOwnAgent(caller(request.user), request.query.agentId);
      const b = await service.balance(request.query.agentId, await readDb(request));
      return ok({
        agentId: request.query.agentId,
        confirmedUnpaid: money(b.confirmedUnpaid)!,
        outstandingWithdraws: money(b.outstandingWithdraws)!,
        available: money(b.available)!,
      });
    },
  );

  registerResource(app, withdrawResource);

  app.post(
    '/api/withdraw-requests',
    {
      config: perm(WITHDRAW_MENU, 'CREATE'),
      schema: {
        tags,
        summary: 'Request part of the confirmed, unpaid balance before the monthly payment; starts its approval',
        body: createWithdrawBody,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
    },
    async (request) => {
      const user = caller(request.user);
      assertOwnAgent(user, request.body.agentId);
      const row = await service.create(request.body, user.userId);
      request.changeLog({ menuCode: WITHDRAW_MENU, tableName: 'withdraw_request', recordId: row.withdraw_id, action: 'CREATE', after: { ...row, account_no: '(encrypted)' } });
      return ok({ id: row.withdraw_id });
    },
  );

  action(
    app,
    '/api/internal/bank-retry',
    {
      config: perm(WITHDRAW_MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Retry the bank transfer of APPROVED withdraw requests, oldest first, at most app.bank-retry.limit',
        response: { 200: envelope(retryResp) },
      },
    },
    async (request) => {
      const limit = await bankRetryLimit(app.db, retrySettings);
      const counts = await service.retry(limit);
      request.changeLog({ menuCode: WITHDRAW_MENU, tableName: 'withdraw_request', recordId: 0, action: 'UPDATE', after: { bankRetry: counts } });
      return ok({ limit, ...counts });
    },
  );

  registerResource(app, parkedEventResource);

  action(
    app,
    '/api/internal/events/parked/:id/replay',
    {
      config: perm('APPROVAL', 'UPDATE'),
      schema: {
        tags: ['Events'],
        summary: 'Put a parked event back on its consumer queue (after the cause was fixed); applied at most once',
        params: z.object({ id: zId }),
        response: { 200: envelope() },
      },
    },
    async (request) => {
      try {
        const eventId = await replayParkedEvent(app.db, app.config.REDIS_URL, deliveryOf(eventSettings), request.params.id, request.user?.userId ?? null);
        if (eventId === undefined) throw notFound(`Parked event ${request.params.id}`);
        request.changeLog({ menuCode: 'APPROVAL', tableName: 'parked_event', recordId: request.params.id, action: 'UPDATE', after: { replayedEventId: eventId } });
        return ok();
      } catch (err) {
        if (err instanceof ParkedEventStateError) throw new AppError('ALREADY_CONFIRMED', err.message);
        throw err;
      }
    },
  );
}
