import { truthSeeds } from './define-seeds.ts';

truthSeeds(51, 50);
