import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/boot/index.ts", "src/option-specs.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
  // The web client ships inside the package (dist/web, found by `webClientRoot()`), so a program that embeds
  // the daemon can serve it at / (apps/web builds first: it is a devDependency, so turbo orders the builds).
  async onSuccess() {
    const web = join(process.cwd(), "../../apps/web/dist"); // tsup runs in the package folder
    if (existsSync(web)) cpSync(web, "dist/web", { recursive: true });
  },
});
