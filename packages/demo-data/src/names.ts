import type { Prng } from './prng.js';

// Same counts (and so the same draws of the seeded generator) as the romanised lists they replaced.
const FAMILY = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권', '황'];
const SYLLABLES = ['민', '준', '서', '연', '지', '우', '현', '수', '은', '하', '진', '영', '호', '나', '린', '태', '경', '성'];

/** A made-up Korean name ("박민서"); demo data carries no real personal data. */
export function personName(rng: Prng): string {
  const given = rng.pick(SYLLABLES) + rng.pick(SYLLABLES);
  return `${rng.pick(FAMILY)}${given}`;
}

export function phoneNumber(rng: Prng): string {
  return `010-${rng.int(1000, 9999)}-${rng.int(1000, 9999)}`;
}

/** Banks of the demo accounts (KB국민, 신한, 우리, 하나, NH농협, IBK기업). */
const BANK_CODES = ['004', '088', '020', '081', '011', '003'] as const;

/** A made-up bank code and account number of an agent, from its id alone (no draw of the seeded generator). */
export function bankAccount(agentId: number): { bankCode: string; accountNo: string } {
  const id = String(agentId).padStart(6, '0');
  return {
    bankCode: BANK_CODES[agentId % BANK_CODES.length]!,
    accountNo: `${100 + (agentId % 900)}-${id.slice(-6)}-${String((agentId * 37) % 100).padStart(2, '0')}`,
  };
}
