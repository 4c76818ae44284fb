import { truthSeeds } from '../monitor/truth/define-seeds.ts';

truthSeeds(51, 50);
