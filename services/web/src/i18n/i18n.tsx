import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { en, ko, koMenuNames, type MessageKey } from './messages.js';

export type Lang = 'en' | 'ko';
const KEY = 'csp.lang';

/** Korean unless the user chose English before (DECISIONS: Korean first, English a remembered choice). */
function initialLang(): Lang {
  const stored = localStorage.getItem(KEY);
  return stored === 'ko' || stored === 'en' ? stored : 'ko';
}

let active: Lang = 'ko';
/** The language of the screen for helpers outside components (field labels of the generic pages). */
export function activeLang(): Lang {
  return active;
}

/** A catalog text by a key built at run time (`status.HOLD`), or undefined when the catalog has none. */
export function lookup(lang: Lang, key: string): string | undefined {
  if (!(key in en)) return undefined;
  return (lang === 'ko' ? ko : en)[key as MessageKey];
}

interface I18n {
  lang: Lang;
  setLang(lang: Lang): void;
  t(key: MessageKey, vars?: Record<string, string | number>): string;
  /** Text of an error code, or the server's message when the code has no text of its own. */
  errorText(code: string, fallback?: string): string;
  menuName(code: string, serverName: string): string;
  /** A status or code value in words (`HOLD` -> 보류); the value itself when the catalog has no words for it. */
  statusName(code: string): string;
  /** A seeded role in words (`SUPER_ADMIN` -> 최고 관리자); a role created later keeps its code. */
  roleName(code: string): string;
}

const Ctx = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const setLang = useCallback((next: Lang) => {
    localStorage.setItem(KEY, next);
    document.documentElement.lang = next;
    setLangState(next);
  }, []);
  const value = useMemo<I18n>(() => {
    active = lang;
    const table = lang === 'ko' ? ko : en;
    // `{count}` of exactly one picks the key's singular form `<key>One` where the language has one ("1 line").
    const t = (key: MessageKey, vars?: Record<string, string | number>) => {
      const one = vars !== undefined && String(vars.count) === '1' ? (`${key}One` as MessageKey) : undefined;
      const text = (one !== undefined ? table[one] : undefined) ?? table[key] ?? en[key] ?? key;
      return text.replace(/\{(\w+)\}/g, (_, name: string) => String(vars?.[name] ?? ''));
    };
    return {
      lang,
      setLang,
      t,
      errorText: (code, fallback) => {
        const key = `error.${code}` as MessageKey;
        return key in en ? t(key) : (fallback ?? code);
      },
      menuName: (code, serverName) => (lang === 'ko' ? (koMenuNames[code] ?? serverName) : serverName),
      // A value with no status word may be one the portal words already (dispute reasons, disputed ledgers) or a
      // commission type (explain lines).
      statusName: (code) =>
        lookup(lang, `status.${code}`) ?? lookup(lang, `portal.reason.${code}`) ?? lookup(lang, `portal.target.${code}`) ?? lookup(lang, `ctype.${code}`) ?? code,
      roleName: (code) => lookup(lang, `role.${code}`) ?? code,
    };
  }, [lang, setLang]);
  document.documentElement.lang = lang;
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(Ctx);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
