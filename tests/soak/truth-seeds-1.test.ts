import { truthSeeds } from '../monitor/truth/define-seeds.ts';

truthSeeds(1, 50);
