import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';

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
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
