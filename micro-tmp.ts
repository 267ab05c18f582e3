import { D } from './packages/domain/src/index.js';
import { calcCommission, calcCommissionDecimal } from './packages/domain/src/commission.js';
const N = 500_000;
let seed = 1; const nx = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
const ins = Array.from({length: N}, () => { const c = nx() % 500000000 + 1; return { premium: new D(c).div(100), companyRate: new D(nx() % 12000000).div(10000), payoutRate: new D(nx() % 1000000).div(10000) }; });
const strs = ins.map(i => ({ premium: i.premium.toFixed(2), companyRate: i.companyRate.toFixed(4), payoutRate: i.payoutRate.toFixed(4) }));
function t(label: string, f: any, a: any[]) { for (let i=0;i<50000;i++) f(a[i]); const s=performance.now(); for (let i=0;i<N;i++) f(a[i]); console.log(label, Math.round(N/(performance.now()-s)*1000)); }
for (let k = 0; k < 2; k++) {
t('fast dec', calcCommission, ins); t('slow dec', calcCommissionDecimal, ins);
t('fast str', calcCommission, strs); t('slow str', calcCommissionDecimal, strs);
}
