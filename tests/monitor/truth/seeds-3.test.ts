import { truthSeeds } from './define-seeds.ts';

truthSeeds(101, 50);
