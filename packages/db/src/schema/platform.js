export {};
//# sourceMappingURL=platform.js.map