import { decodeChainActivity } from '../../chain/decode-activity.ts';
import type { Field } from '../../chain/decode.ts';
import { errorMessage } from '../../domain/error-message.ts';
import type { Activity } from '../../domain/state/snapshot.ts';

/** A transaction as `principal` sees it: one activity, or none when it is malformed (reported and set aside). */
export type TxDecoder = (
  txId: string,
  raw: unknown,
  principal: string,
  decode?: (field: Field, principal: string) => Activity,
) => Activity[];

/** Decodes the transactions a node sent; a malformed one is reported and set aside, the rest of the block goes on. */
export function txDecoder(nodeName: string, report: (problem: string) => void): TxDecoder {
  return (txId, raw, principal, decode = decodeChainActivity) => {
    try {
      return [decode({ value: raw, path: `$[${txId}]` }, principal)];
    } catch (error) {
      report(`Set aside transaction ${txId} from ${nodeName}: ${errorMessage(error)}`);
      return [];
    }
  };
}
