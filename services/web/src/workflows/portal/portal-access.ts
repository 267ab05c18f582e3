import type { MessageKey } from '../../i18n/messages.js';

/**
 * Who gets the agent portal: a user whose only role is AGENT (the server's row scope, service-kit
 * `ownAgentOnly`, draws the same line). Such a user lands on "my settlement", the menu shows the
 * portal's entries only, and every operator page is "no access".
 */
export function isAgentOnly(user: { roleCodes: readonly string[] } | undefined): boolean {
  return !!user && user.roleCodes.length > 0 && user.roleCodes.every((r) => r === 'AGENT');
}

/** The portal's pages in menu order ('' = the home page, which is "my settlement" for an agent). */
export const PORTAL_PAGES: { path: string; label: MessageKey; icon: 'home' | 'dispute' | 'statement' | 'withdraw' }[] = [
  { path: '', label: 'portal.menu.mySettlement', icon: 'home' },
  { path: 'my/disputes', label: 'portal.menu.disputes', icon: 'dispute' },
  { path: 'my/statements', label: 'portal.menu.statements', icon: 'statement' },
  { path: 'my/withdraw', label: 'portal.menu.withdraw', icon: 'withdraw' },
];

/** A month's lines: `my/settle/{settleId}`. */
export const MY_EXPLAIN = /^my\/settle\/\d+$/;

function trimmed(pathname: string): string {
  return pathname.replace(/^\/+|\/+$/g, '');
}

/** Whether a pathname is a page of the portal. */
export function isPortalPath(pathname: string): boolean {
  const path = trimmed(pathname);
  return PORTAL_PAGES.some((p) => p.path === path) || MY_EXPLAIN.test(path);
}

/** The menu entry a portal pathname belongs to (a month's lines belong to "my settlement"). */
export function portalPageOf(pathname: string): (typeof PORTAL_PAGES)[number] | undefined {
  const path = trimmed(pathname);
  if (MY_EXPLAIN.test(path)) return PORTAL_PAGES[0];
  return PORTAL_PAGES.find((p) => p.path === path);
}
