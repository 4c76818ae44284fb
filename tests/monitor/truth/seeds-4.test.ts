import { truthSeeds } from './define-seeds.ts';

truthSeeds(151, 50);
