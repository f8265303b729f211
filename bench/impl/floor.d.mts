import type { ExpectedCall, WireFormat } from '../scenarios.mjs';
declare const floor: {
  readonly key: string;
  readonly label: string;
  load(): Promise<string | null>;
  supports(format: WireFormat): true | string;
  run(chunks: Iterable<Uint8Array>, format: WireFormat): Promise<ExpectedCall[]>;
};
export default floor;
