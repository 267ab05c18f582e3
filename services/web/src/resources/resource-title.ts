import { useI18n, type Lang } from '../i18n/i18n.js';
import { en, ko } from '../i18n/messages.js';
import type { PageMenu } from '../shell/menus.js';
import type { ResourceMeta } from './meta.js';

/**
 * A resource's list in words in the UI language: `resource.<name>` of the catalog (every resource the services
 * declare has one in both languages; words.e2e checks the platform's metadata). Undefined for a resource the
 * catalog does not know yet: callers fall back on the menu's name, never on the English resource name.
 */
export function resourceTitle(resource: Pick<ResourceMeta, 'name'>, lang: Lang): string | undefined {
  const key = `resource.${resource.name}`;
  return key in en ? (lang === 'ko' ? ko : en)[key as keyof typeof en] : undefined;
}

/** The label of a resource's list, detail or form section: its catalog title, else the page's menu name. */
export function useSectionLabel(resource: Pick<ResourceMeta, 'name'>, page: PageMenu): string {
  const { lang, menuName } = useI18n();
  return resourceTitle(resource, lang) ?? menuName(page.node.menuCode, page.node.menuName);
}

/** The API path a list is read from, without `/api/` and parameters: `/api/mapping/:c/fields` -> `mapping/fields`. */
function listSegments(resource: ResourceMeta): string[] {
  return resource.path
    .replace(/^\/api\//, '')
    .split('/')
    .filter((s) => s && !/^[:{]/.test(s));
}

/** Page path and API path agree exactly (`/api/settle` for `settle`). */
function exactMatch(resource: ResourceMeta, page: string[]): boolean {
  return listSegments(resource).join('/') === page.join('/');
}

/** The API path ends with the page's last word, or a longer form of it (`/api/kpi/organization` for `kpi/org`). */
function looseMatch(resource: ResourceMeta, page: string[]): boolean {
  const last = listSegments(resource).at(-1);
  const pageLast = page.at(-1) ?? '';
  return last !== undefined && (last === pageLast || (pageLast.length >= 3 && last.startsWith(pageLast)));
}

/**
 * Tab labels of a page with several resources: the menu's name (from the menu metadata, in the UI
 * language) for the one resource the page is named after, the catalog's title of the resource for the
 * others (a resource it lacks: the menu's name and its place). Never the resource name.
 */
export function resourceTitles(resources: ResourceMeta[], pagePath: string, menuName: string, lang: Lang): Map<ResourceMeta, string> {
  const page = pagePath.replace(/^\/+|\/+$/g, '').split('/');
  const exact = resources.filter((r) => exactMatch(r, page));
  const loose = resources.filter((r) => looseMatch(r, page));
  const main = exact.length === 1 ? exact[0] : loose.length === 1 ? loose[0] : resources.length === 1 ? resources[0] : undefined;
  return new Map(resources.map((r, i) => [r, r === main ? menuName : (resourceTitle(r, lang) ?? `${menuName} ${i + 1}`)]));
}
