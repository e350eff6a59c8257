import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { lateTurbofanFlag } from "./v8-tiering.js";

describe("lateTurbofanFlag", () => {
  it("names the interrupt budget for V8 11.3 (Node 20) and the invocation count for later ones", () => {
    expect(lateTurbofanFlag("11.3.244.8-node.38")).toBe("--interrupt-budget=270336");
    expect(lateTurbofanFlag("11.8.172.17-node.20")).toBe("--invocation-count-for-turbofan=12000");
    expect(lateTurbofanFlag("12.4.254.21-node.57")).toBe("--invocation-count-for-turbofan=12000");
    expect(lateTurbofanFlag("13.6.233.17-node.63")).toBe("--invocation-count-for-turbofan=12000");
  });

  it("is a flag this node accepts on its command line", () => {
    // node exits with 9 ("bad option") on a V8 flag it does not know.
    const out = execFileSync(process.execPath, [lateTurbofanFlag(), "-e", "process.stdout.write('ok')"], {
      encoding: "utf8",
    });
    expect(out).toBe("ok");
  });
});
