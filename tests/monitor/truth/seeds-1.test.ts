import { truthSeeds } from './define-seeds.ts';

truthSeeds(1, 50);
