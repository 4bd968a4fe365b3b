/// <reference types="vitest/config" />
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';

const API_TARGET = process.env.PORTFOLIO_API_TARGET ?? 'http://127.0.0.1:8080';

/**
 * API path prefixes served by the Go server; everything else is the SPA.
 * Keys starting with ^ are regular expressions: /auth/verify and
 * /auth/reset-password must not swallow the SPA routes
 * /auth/verification/:token and /auth/reset-password/:token.
 */
const API_PREFIXES = [
  '/token',
  '/jwt/',
  '/auth/refresh/',
  '^/auth/forgot-password$',
  '^/auth/reset-password$',
  '^/auth/verify$',
  '^/auth/change-password$',
  '/logout',
  '/user/',
  '/users',
  '/specific-api',
  '/api/',
  '/teams',
  '/tickets',
  '/documents',
  '/document/',
  '/documents-sign/',
  '/uploadxlsx/',
  '/emails',
  '/areas',
  '/companies',
  '/contacts',
  '/contracts',
  '/invoices',
  '/contradiction_generators',
  '/locations',
  '/partners',
  '/pos',
  '/search/',
  '/healthz',
  '/readyz',
];

function apiProxy(): Record<string, ProxyOptions> {
  return Object.fromEntries(
    API_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: false }]),
  );
}

/**
 * The Go binary embeds web/dist with `//go:embed all:dist`, so the folder must
 * exist even in a fresh clone; the lead keeps dist/.gitkeep under version
 * control. Vite empties dist on each build, so we write the file back.
 */
function keepDistFolder(): Plugin {
  return {
    name: 'portfolio-keep-dist',
    apply: 'build',
    closeBundle() {
      const dist = resolve(import.meta.dirname, 'dist');
      mkdirSync(dist, { recursive: true });
      writeFileSync(resolve(dist, '.gitkeep'), '');
    },
  };
}

export default defineConfig({
  plugins: [react(), keepDistFolder()],
  define: {
    // Identifies this build; cached UI texts of another build are fetched anew.
    'import.meta.env.VITE_BUILD_ID': JSON.stringify(process.env.PORTFOLIO_BUILD_ID ?? new Date().toISOString()),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: apiProxy(),
    fs: { allow: ['.', '../internal/i18n/locales'] },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 15000,
    pool: 'threads',
    maxWorkers: 2,
  },
});
