import { z } from 'zod';
import { ensureAdminUser } from '@csp/db';
import { runServiceProcess } from '@csp/service-kit';
import { buildApp, SERVICE_NAME } from './app.js';

await runServiceProcess({
  name: SERVICE_NAME,
  defaultPort: 8101,
  config: { ADMIN_PASSWORD: z.string().min(1).optional() },
  // The initial administrator, only when a password is given; an existing admin is never overwritten.
  async afterMigrate({ config, db, logger }) {
    if (!config.ADMIN_PASSWORD) return;
    const admin = await ensureAdminUser(db, { password: config.ADMIN_PASSWORD });
    if (admin.created) logger.info({ userId: admin.userId }, 'initial administrator created');
  },
  buildApp,
});
