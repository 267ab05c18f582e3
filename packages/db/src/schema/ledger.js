export {};
//# sourceMappingURL=ledger.js.map