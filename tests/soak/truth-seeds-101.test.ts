import { truthSeeds } from '../monitor/truth/define-seeds.ts';

truthSeeds(101, 50);
