import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** `pnpm dev:web`: the app on :3000, `/api` proxied to the gateway (GATEWAY_URL, default :8080). */
export default defineConfig({
  plugins: [react()],
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      '/api': { target: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The one big chunk is echarts, loaded only by the KPI pages.
    chunkSizeWarningLimit: 800,
  },
});
