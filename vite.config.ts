import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { BASE_DIRECTIVES, connectFromEnvironment, contentSecurityPolicy } from './scripts/csp.ts';

const APP_MANIFEST: Partial<ManifestOptions> = {
  id: '/',
  name: 'Stacks Watch',
  short_name: 'Stacks Watch',
  description: 'Watch Stacks addresses and get notified the moment something happens to them.',
  lang: 'en',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  theme_color: '#5546ff',
  background_color: '#15151d',
  categories: ['finance', 'utilities'],
  icons: [
    { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};

export default defineConfig({
  plugins: [
    react(),
    {
      // Where no header can be set (a static host), the built page still carries the base policy. Not in dev: the
      // dev server injects inline scripts.
      name: 'stacks-watch-csp-meta',
      apply: 'build',
      transformIndexHtml: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: BASE_DIRECTIVES.join('; ') },
          injectTo: 'head-prepend',
        },
      ],
    },
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      manifest: APP_MANIFEST,
      includeAssets: ['favicon.svg', 'apple-touch-icon-180.png', 'robots.txt'],
      injectManifest: { globPatterns: ['**/*.{js,css,html}'] },
      devOptions: { enabled: false },
    }),
  ],
  build: { target: 'es2022' },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    strictPort: true,
    headers: { 'content-security-policy': contentSecurityPolicy({ connect: connectFromEnvironment() }) },
  },
});
