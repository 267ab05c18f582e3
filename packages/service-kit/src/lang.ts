import type { FastifyRequest } from 'fastify';
import type { LocalText } from './vocabulary.js';

export type Lang = 'ko' | 'en';

/** A header or label: plain text, or the same in Korean and English. */
export type LocalizedText = string | LocalText;

/**
 * The caller's language for server-built text (spreadsheet headers): `?lang=en|ko` first, then the
 * first Accept-Language tag; Korean unless English is asked for.
 */
export function requestLang(request: Pick<FastifyRequest, 'url' | 'headers'>): Lang {
  const question = request.url.indexOf('?');
  if (question >= 0) {
    const lang = new URLSearchParams(request.url.slice(question + 1)).get('lang');
    if (lang !== null) return /^en\b/i.test(lang) ? 'en' : 'ko';
  }
  const accept = request.headers['accept-language'];
  const first = typeof accept === 'string' ? accept.split(',')[0]!.trim() : '';
  return /^en\b/i.test(first) ? 'en' : 'ko';
}

/** The text in `lang` (plain text is the same in both). */
export function textIn(text: LocalizedText, lang: Lang): string {
  return typeof text === 'string' ? text : text[lang];
}
