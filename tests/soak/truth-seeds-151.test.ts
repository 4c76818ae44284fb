import { truthSeeds } from '../monitor/truth/define-seeds.ts';

truthSeeds(151, 50);
