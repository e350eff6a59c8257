// Durable means durable on power loss (docs/restore.md "Power loss"). The story (power-loss/story.ts) runs
// once on a real daemon and agent with QWEN_FS_OP_LOG on, which records every file step they take; the
// power-loss model (core/testing) computes what a power cut after each step would leave; each distinct state
// is rebuilt in a fresh QWEN_HOME and loaded by a real daemon, and every promise made by then must hold:
// the session loads, the 202 prompt is reported, the question is asked again, the acknowledged answer
// reaches the model, the notification is delivered. A SIGKILL test cannot see any of this: the page cache
// survives a process. QWEN_POWER_LOSS_CUTS=all loads every distinct state (default: the first cut of each
// promise, the end, and a seeded sample up to 16: today every one of the story's 14); QWEN_POWER_LOSS_SEED picks the sample.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withoutPowerLoss } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import { Prng } from "./fuzz/prng.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { describeDiskState, readDiskState } from "./power-loss/disk-state.js";
import { brokenPromises } from "./power-loss/load-after-cut.js";
import { cutGroups, pickGroups, transcriptHolds } from "./power-loss/promises.js";
import { runStory, STORY_ANSWER } from "./power-loss/story.js";

const world = useE2eWorld();

const CUTS = process.env.QWEN_POWER_LOSS_CUTS ?? "16";
const SEED = Number(process.env.QWEN_POWER_LOSS_SEED ?? 0x9017);

describe("a power cut at any step of the story", () => {
  it("keeps every promise made before it: session, 202 prompt, question, acknowledged answer, notification", async () => {
    const scratch = realpathSync(mkdtempSync(join(tmpdir(), "qwen-power-loss-")));
    let failed = true;
    try {
      const story = await runStory(world.env, join(scratch, "ops.jsonl"));
      // The op log accounts for every file the processes left in QWEN_HOME: nothing is written around
      // DurableFs, so nothing escapes the model.
      expect(describeDiskState(withoutPowerLoss(story.ops, story.root))).toEqual(
        describeDiskState(readDiskState(story.root)),
      );

      const groups = cutGroups(story.ops, story.root, story.marks, (state) =>
        transcriptHolds(state, STORY_ANSWER.modelSees),
      );
      const budget = CUTS === "all" ? Number.POSITIVE_INFINITY : Number(CUTS);
      const prng = new Prng(SEED);
      const chosen = pickGroups(groups, story.marks, budget, () => prng.next());
      console.log(
        `power loss: ${story.ops.length} operations, ${groups.length} distinct states with promises, loading ` +
          `${chosen.length} (QWEN_POWER_LOSS_CUTS=${CUTS}, QWEN_POWER_LOSS_SEED=${SEED}); marks ${JSON.stringify(story.marks)}`,
      );
      const failures: string[] = [];
      for (const group of chosen) {
        const broken = await brokenPromises(world.env, world.server, story, group, scratch);
        for (const b of broken) failures.push(`cut after ${group.first}..${group.last} operations: ${b}`);
      }
      expect(failures).toEqual([]);
      failed = false;
    } finally {
      if (failed) console.error(`power loss: kept ${scratch} (ops.jsonl is the story's op log)`);
      else rmSync(scratch, { recursive: true, force: true });
    }
  }, 900_000);
});
