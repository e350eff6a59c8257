import { describe, it } from "vitest";
import { describeOutboxStorageContract } from "../../testing/outbox-contract.js";
import type { OutboxRecord } from "../outbox-records.js";
import { memoryOutboxStorage } from "./memory-outbox.js";

describeOutboxStorageContract(
  "memory",
  async () => {
    const records: OutboxRecord[] = [];
    let syncs = 0;
    return {
      open: (decode) => memoryOutboxStorage(decode, { records, onSync: () => syncs++ }),
      syncs: () => syncs,
      async damage(how) {
        // An array holds no torn text: both are a value that is not a record.
        records.push((how === "torn" ? '{"op":"add","ent' : { op: "frobnicate" }) as unknown as OutboxRecord);
      },
      dispose: async () => {},
    };
  },
  { describe, it },
);
