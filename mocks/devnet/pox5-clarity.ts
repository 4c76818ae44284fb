import {
  type ClarityValue,
  contractPrincipalCV,
  cvToString,
  principalCV,
  serializeCV,
  stringAsciiCV,
  tupleCV,
  uintCV,
} from '@stacks/transactions';
import type { AssetEvent, ContractLog, Outcome } from './ledger.ts';
import { POX5_CONTRACT } from './pox5.ts';

/** pox-5.clar's error codes, as `(err uN)` results. */
export const ERR = {
  unauthorized: 1,
  setupTooSoon: 2,
  setupTooLate: 3,
  bondExists: 4,
  bondNotFound: 7,
  insufficientStx: 8,
  alreadyRegistered: 9,
  tooMuchSats: 10,
  notAllowlisted: 11,
  alreadyStaked: 19,
  invalidNumCycles: 20,
  signerNotFound: 23,
  invalidStartBurnHeight: 24,
  notStaking: 27,
  unstakeInPreparePhase: 28,
  noClaimableRewards: 32,
  notBondParticipant: 34,
  cannotAnnounceEarlyExit: 35,
  invalidOldSigner: 36,
  invalidUnstakeSbtcAmount: 37,
  cannotUnstakeSbtc: 38,
  bondAlreadyStarted: 43,
  stakeInPreparePhase: 47,
  earlyExitAlreadyAnnounced: 50,
  rewardsPaused: 53,
} as const;

export const u = (value: bigint | number) => uintCV(value);
export const principal = (id: string) => {
  const [address, name] = id.split('.') as [string, string | undefined];
  return name ? contractPrincipalCV(address, name) : principalCV(address);
};

/** A pox-5 `print`: a tuple whose `topic` names the event, the shape the API's pox-5 decoder reads. */
export function print(topic: string, fields: Record<string, ClarityValue>, contract = POX5_CONTRACT): ContractLog {
  const value = tupleCV({ topic: stringAsciiCV(topic), ...fields });
  return { contract, hex: `0x${serializeCV(value)}`, repr: cvToString(value) };
}

export const ok = (logs: ContractLog[], events: AssetEvent[] = []): Outcome => ({
  status: 'success',
  result: { hex: '0x0703', repr: '(ok true)' },
  events,
  logs,
});
export const refused = (code: number): Outcome => ({
  status: 'abort_by_response',
  result: { hex: `0x0801${code.toString(16).padStart(32, '0')}`, repr: `(err u${code})` },
  events: [],
});

export interface At {
  readonly height: number;
  readonly burnHeight: number;
}
