import type { Prng } from './prng.js';

const FAMILY = [
  'Kim',
  'Lee',
  'Park',
  'Choi',
  'Jung',
  'Kang',
  'Cho',
  'Yoon',
  'Jang',
  'Lim',
  'Han',
  'Oh',
  'Seo',
  'Shin',
  'Kwon',
  'Hwang',
];
const SYLLABLES = [
  'min',
  'jun',
  'seo',
  'yeon',
  'ji',
  'woo',
  'hyun',
  'soo',
  'eun',
  'ha',
  'jin',
  'young',
  'ho',
  'na',
  'rin',
  'tae',
  'kyung',
  'sung',
];

/** A made-up romanised Korean name ("Park Minseo"); demo data carries no real personal data. */
export function personName(rng: Prng): string {
  const given = rng.pick(SYLLABLES) + rng.pick(SYLLABLES);
  return `${rng.pick(FAMILY)} ${given[0]!.toUpperCase()}${given.slice(1)}`;
}

export function phoneNumber(rng: Prng): string {
  return `010-${rng.int(1000, 9999)}-${rng.int(1000, 9999)}`;
}
