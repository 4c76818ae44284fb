import { truthSeeds } from './define-seeds.ts';

// npm test runs seeds 1-24 in two files (vitest runs files side by side); npm run soak runs 1-200 and more.
truthSeeds(13, 12);
