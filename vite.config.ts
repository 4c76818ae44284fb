import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { BASE_DIRECTIVES, connectFromEnvironment, contentSecurityPolicy } from './src/server/csp.ts';

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

/** Every module shell/boot.tsx imports, directly or not, without a dynamic import between: the app's one chunk. */
const bootModules = new Set<string>();
/**
 * Every module app/after-paint.ts imports in the same way, but not the app's chunk: one more chunk, fetched right after
 * the first paint, rather than a dozen small ones (each request the page starts costs its main thread a little).
 */
const afterPaintModules = new Set<string>();

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
    {
      // The entry (shell/main.ts) waits for the shell's first paint before it runs the app (shell/boot.tsx): the app's
      // chunks are fetched from the start all the same, beside the entry, so that waiting costs no round trip.
      name: 'stacks-watch-preload-app',
      apply: 'build',
      buildEnd() {
        const ids = [...this.getModuleIds()];
        const gather = (into: Set<string>, start: string | undefined) => {
          const visit = (id: string) => {
            if (into.has(id) || bootModules.has(id)) return;
            into.add(id);
            this.getModuleInfo(id)?.importedIds.forEach(visit);
          };
          if (start) visit(start);
        };
        gather(
          bootModules,
          ids.find((id) => id.endsWith('/src/shell/boot.tsx')),
        );
        gather(
          afterPaintModules,
          ids.find((id) => id.endsWith('/src/app/after-paint.ts')),
        );
      },
      generateBundle(_options, bundle) {
        const entry = Object.values(bundle).find((output) => output.type === 'chunk' && output.isEntry);
        const app = Object.values(bundle).find((output) => output.type === 'chunk' && output.name === 'boot');
        if (entry?.type === 'chunk' && app && entry.imports.includes(app.fileName))
          this.error(`the entry ${entry.fileName} imports the app's chunk: the app would run before the first paint`);
      },
      transformIndexHtml: {
        order: 'post',
        handler(html, context) {
          const bundle = context.bundle;
          if (!bundle) return;
          const app = Object.values(bundle).find(
            (output) => output.type === 'chunk' && output.moduleIds.some((id) => id.endsWith('/src/shell/boot.tsx')),
          );
          if (!app) throw new Error('the build has no chunk for src/shell/boot.tsx');
          const files = new Set<string>();
          const visit = (file: string) => {
            if (files.has(file)) return;
            files.add(file);
            const output = bundle[file];
            if (output?.type === 'chunk') output.imports.forEach(visit);
          };
          visit(app.fileName);
          // The first screen's style sheets (features/watchlist/) come with the app's chunk: linked here, after the
          // entry's, they load with the page as when the entry imported them, rather than after the first paint.
          const sheets = [...files].flatMap((file) => {
            const output = bundle[file];
            return output?.type === 'chunk' ? [...(output.viteMetadata?.importedCss ?? [])] : [];
          });
          const link = (rel: string, file: string) => ({
            tag: 'link',
            attrs: { rel, crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          });
          return [
            ...[...files].filter((file) => !html.includes(`/${file}"`)).map((file) => link('modulepreload', file)),
            ...[...new Set(sheets)]
              .filter((file) => !html.includes(`/${file}"`))
              .map((file) => link('stylesheet', file)),
          ];
        },
      },
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
  build: {
    target: 'es2022',
    // The app's first screen in one file rather than a dozen small ones shared with the lazy screens.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Vite's preload helper serves the entry too: left to the app's chunk, it would make the entry import that
            // chunk, and run the app before the first paint (the plugin above refuses such a build).
            { name: 'preload', test: (id) => id.includes('vite/preload-helper'), priority: 2 },
            // React apart from the app: the entry evaluates it in a task of its own, then the app in the next one,
            // two shorter tasks on a slow phone rather than one long one (shell/main.ts).
            { name: 'react', test: (id) => /\/node_modules\/(react|react-dom|scheduler)\//.test(id), priority: 3 },
            { name: 'boot', test: (id) => bootModules.has(id), priority: 1 },
            { name: 'after-paint', test: (id) => afterPaintModules.has(id), priority: 1 },
          ],
        },
      },
    },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    strictPort: true,
    headers: { 'content-security-policy': contentSecurityPolicy({ connect: connectFromEnvironment() }) },
  },
});
