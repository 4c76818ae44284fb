import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Imports a layer may not make: the architecture's one-way arrows, written down where a tool enforces them. */
const layer = (files, patterns, extra = {}) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }], ...extra },
});

const NO_IO_GLOBALS = [
  'error',
  { name: 'fetch', message: 'domain/ is pure: pass data in, return data out.' },
  { name: 'indexedDB', message: 'domain/ is pure: persistence lives in store/.' },
  { name: 'window', message: 'domain/ runs in the page, the service worker and tests alike.' },
  { name: 'document', message: 'domain/ runs in the page, the service worker and tests alike.' },
  { name: 'localStorage', message: 'domain/ is pure: persistence lives in store/.' },
];

/** The relay is a Node host of the engine. */
const RELAY_HOST = [
  {
    group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'idb-keyval', 'workbox-*'],
    message: 'The relay is a Node host of the engine: no React, no IndexedDB, no service worker.',
  },
  {
    group: ['**/store/**', '**/chain/page/**', '**/app/**', '**/features/**', '**/ui/**', '**/sw/**'],
    message:
      'The relay may import domain/, chain/ (not chain/page/) and the engine (monitor/, notify/) only; it keeps its own storage.',
  },
];
/** app/ is the state the screens read: below features/ and ui/, which shell/ composes into the page. */
const BELOW_THE_SCREENS =
  'app/ holds the state the screens read and sits below them: the screens import app/, never the reverse; shell/ composes them.';
const THROUGH_THE_REGISTRY = 'The shell reaches the screens through shell/features.ts only, lazy ones included.';
const NODE_HOST_GLOBALS = ['error', 'window', 'document', 'indexedDB', 'localStorage', 'BroadcastChannel'];

export default tseslint.config(
  { ignores: ['dist', 'dev-dist', 'build', 'node_modules', 'scratch', 'bench/report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  { files: ['src/**/*.{ts,tsx}'], languageOptions: { globals: globals.browser } },
  {
    // A module past 300 lines is asking to be split (by meaning, never by squeezing): tests/unit/module-size.test.ts
    // holds the style sheets to the same.
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['tests/**', 'mocks/**', 'bench/**', 'scripts/**', 'src/relay/**', 'src/server/**', '*.config.{ts,js}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { 'no-console': 'off' },
  },
  {
    // Every request the page sends leaves through chain/outbound.ts, where the privacy record hears of it.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/chain/outbound.ts', 'src/relay/**', 'src/server/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest'].map((name) => ({
          name,
          message: 'Send through chain/outbound.ts (sendRequest), so that the privacy record hears of it.',
        })),
        ...['WebSocket', 'EventSource'].map((name) => ({
          name,
          message: 'Tell chain/outbound.ts (sent) of every message a socket names, as chain/feed.ts does.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['globalThis', 'window', 'self'].map((object) => ({
          object,
          property: 'fetch',
          message: 'Send through chain/outbound.ts (sendRequest), so that the privacy record hears of it.',
        })),
        { object: 'navigator', property: 'sendBeacon', message: 'No telemetry: the app sends no beacons.' },
      ],
    },
  },
  layer(
    ['src/domain/**'],
    [
      { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'domain/ may not import React.' },
      { group: ['idb-keyval', 'workbox-*'], message: 'domain/ may not do I/O.' },
      {
        group: [
          '**/store/**',
          '**/chain/**',
          '**/monitor/**',
          '**/notify/**',
          '**/app/**',
          '**/features/**',
          '**/ui/**',
          '**/sw/**',
        ],
        message: 'domain/ depends on nothing else in src/.',
      },
    ],
    { 'no-restricted-globals': NO_IO_GLOBALS },
  ),
  layer(
    ['src/sw/**'],
    [
      {
        group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'idb-keyval', 'workbox-window'],
        message: 'The service worker imports only domain code and workbox.',
      },
      {
        group: ['**/store/**', '**/chain/**', '**/monitor/**', '**/app/**', '**/features/**', '**/ui/**'],
        message: 'The service worker imports only domain code.',
      },
    ],
  ),
  layer(
    ['src/monitor/**', 'src/notify/**'],
    [
      {
        group: ['react', 'react-dom', 'react/*', 'react-dom/*'],
        message: 'Engine and adapters are framework-free; React attaches in app/.',
      },
      {
        group: ['**/app/**', '**/features/**', '**/ui/**', '**/sw/**'],
        message: 'Dependencies point from the UI inward, never back.',
      },
      {
        group: ['**/store/**', '**/chain/page/**'],
        message:
          'The engine runs in the page and in the relay: storage comes in through ports.ts, wired in app/engine/.',
      },
    ],
  ),
  layer(['src/relay/**'], RELAY_HOST, { 'no-restricted-globals': NODE_HOST_GLOBALS }),
  layer(
    ['src/relay/engine/**', 'src/relay/storage/**'],
    [
      ...RELAY_HOST,
      {
        group: ['**/api/**', '**/push/**'],
        message:
          'The relay engine and its storage serve the API and the push pipeline, never the reverse: types they share are declared beside the engine (engine/control.ts).',
      },
    ],
    { 'no-restricted-globals': NODE_HOST_GLOBALS },
  ),
  layer(
    ['src/server/**'],
    [
      {
        group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'idb-keyval', 'workbox-*'],
        message: 'The server serves the built app and hosts the relay: no React, no IndexedDB, no service worker.',
      },
      {
        group: [
          '**/store/**',
          '**/monitor/**',
          '**/notify/**',
          '**/chain/page/**',
          '**/app/**',
          '**/features/**',
          '**/ui/**',
          '**/sw/**',
        ],
        message:
          'The server may import the relay, domain/, chain/runtime-config and chain/public-nodes only; the engine runs in the relay.',
      },
      { group: ['**/mocks/**'], message: 'The production server never loads the devnet; npm start passes its URL in.' },
    ],
    { 'no-restricted-globals': ['error', 'window', 'document', 'indexedDB', 'localStorage', 'BroadcastChannel'] },
  ),
  layer(
    ['src/chain/**'],
    [
      { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'Adapters are framework-free.' },
      {
        group: ['**/store/**', '**/monitor/**', '**/notify/**', '**/app/**', '**/features/**', '**/ui/**', '**/sw/**'],
        message: 'chain/ talks to nodes and depends only on domain/.',
      },
      { group: ['**/page/**'], message: 'chain/page/ is the page’s alone; the rest of chain/ runs in the relay too.' },
    ],
  ),
  {
    // One ceiling for a hang, set in the vitest configs: a test's own limit is a verdict on speed that a busy machine
    // breaks (network-marks' 15 s and list-move's 180 s did). soak files run on their own config's ceilings.
    files: ['tests/**/*.{ts,tsx}'],
    ignores: ['tests/soak/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.name=/^(it|test|describe|beforeAll|afterAll|beforeEach|afterEach)$/] > Literal.arguments:last-child[value>=0]',
          message: 'No timeout of its own: the vitest configs set one ceiling for a hang for every test.',
        },
      ],
    },
  },
  layer(
    ['src/store/**'],
    [
      { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'Storage is framework-free.' },
      {
        group: ['**/chain/**', '**/monitor/**', '**/notify/**', '**/app/**', '**/features/**', '**/ui/**', '**/sw/**'],
        message: 'store/ persists and depends only on domain/.',
      },
    ],
  ),
  layer(['src/app/**'], [{ group: ['**/features/**', '**/ui/**', '**/shell/**'], message: BELOW_THE_SCREENS }], {
    // no-restricted-imports does not see import(): the screens were once loaded from app/ that way.
    'no-restricted-syntax': [
      'error',
      { selector: 'ImportExpression > Literal[value=/\\.\\W(features|ui|shell)\\W/]', message: BELOW_THE_SCREENS },
    ],
  }),
  {
    // shell/ composes the screens into the page, reaching them through one registry.
    ...layer(['src/shell/**'], [{ group: ['**/features/**'], message: THROUGH_THE_REGISTRY }], {
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression > Literal[value=/\\.\\Wfeatures\\W/]', message: THROUGH_THE_REGISTRY },
      ],
    }),
    ignores: ['src/shell/features.ts'],
  },
  layer(
    ['src/features/**', 'src/ui/**'],
    [
      { group: ['**/shell/**'], message: 'The shell composes the screens: screens never import it.' },
      {
        group: ['idb-keyval', 'workbox-window'],
        message:
          'Screens read state through app/; only store/ touches IndexedDB and only app/pwa talks to the service worker.',
      },
      { group: ['**/sw/**'], message: 'The page talks to the service worker only through app/pwa/sw-bridge.' },
      { group: ['**/chain/**'], message: 'Screens never talk to a node; they read state through app/.' },
    ],
    {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'NewExpression[callee.name=/(Store|Book|Catalog|Inbox)$/]',
          message:
            'Screens never make a store: the page makes its state in app/ (and shell/boot.tsx), screens read it.',
        },
      ],
    },
  ),
);
